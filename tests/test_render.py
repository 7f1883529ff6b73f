"""Pictures of boards through the CLI."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from satsweeper.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


class TestRender:
    def test_svg_with_names(self, tmp_path):
        """An SVG is written; named cells show their names."""
        board = tmp_path / "g.txt"
        board.write_text("layout: tokens\nx' 1 -\n1 1 -\n")
        out = tmp_path / "g.svg"
        assert run("render", board, "-o", out).exit_code == 0
        text = out.read_text()
        assert text.lstrip().startswith("<?xml") and "<svg" in text

    def test_png_heat_map(self, tmp_path):
        """--probs shades the expert example; the file is a PNG."""
        out = tmp_path / "e.png"
        assert run("render", EXAMPLES / "expert.txt", "-o", out, "--probs").exit_code == 0
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    def test_bad_extension_and_inconsistent_probs(self, tmp_path):
        assert run("render", EXAMPLES / "expert.txt", "-o", tmp_path / "e.jpg").exit_code == 2
        result = run("render", EXAMPLES / "conflict.txt", "-o", tmp_path / "c.png", "--probs")
        assert result.exit_code == 1 and "cannot all hold" in result.output  # an answer, drawn


    def test_inconsistent_reason_is_an_answer(self, tmp_path):
        """--reason on an inconsistent board names the same conflict as check, exit 1
        (it drew "inconsistent" and exited 0 with "consistent": true)."""
        import json
        check = json.loads(run("check", EXAMPLES / "conflict.txt", "--json").stdout)
        result = run("render", EXAMPLES / "conflict.txt", "-o", tmp_path / "c.svg", "--reason", "0,0", "--json")
        data = json.loads(result.stdout)
        assert result.exit_code == 1 and data["consistent"] is False and data["conflict"] == check["conflict"]
        text = run("render", EXAMPLES / "conflict.txt", "-o", tmp_path / "c.svg", "--reason", "0,0")
        assert text.exit_code == 1 and "cannot all hold" in text.output

    def test_a_plain_drawing_claims_nothing(self, tmp_path):
        """Without --probs or --reason nothing is asked: "consistent" is null, not true."""
        import json
        result = run("render", EXAMPLES / "conflict.txt", "-o", tmp_path / "c.svg", "--json")
        assert result.exit_code == 0 and json.loads(result.stdout)["consistent"] is None


class TestPictures:
    def test_svg_is_deterministic_text(self, tmp_path):
        """The same board gives the same SVG bytes; numbers stay <text>; no date; no letter F for flags."""
        first, second = tmp_path / "a.svg", tmp_path / "b.svg"
        for out in (first, second):
            assert run("render", EXAMPLES / "expert.txt", "-o", out, "--probs").exit_code == 0
        text = first.read_text()
        assert first.read_bytes() == second.read_bytes()
        assert "<text" in text and ">19%<" in text and "<dc:date>" not in text
        assert ">F<" not in text

    def test_reason_outlines_the_forcing_clues(self, tmp_path):
        """--reason names the clues that force the move (the same as safe's reason)."""
        import json
        out = tmp_path / "r.svg"
        data = json.loads(run("render", EXAMPLES / "unique.txt", "-o", out, "--reason", "1,0", "--json").stdout)
        safe = json.loads(run("safe", EXAMPLES / "unique.txt", "1,0", "--json").stdout)
        assert data["reason"]["status"] == "safe"
        assert [(c["row"], c["col"]) for c in data["reason"]["reason"]] == \
            [(c["row"], c["col"]) for c in safe["reason"] if c["kind"] == "clue"]

    @pytest.mark.parametrize("text, cell, said", [
        ("F1.\n", "0,2", "0,2 is safe: the 1 at 0,1 forces it"),
        ("mines: 1\n1..\n...\n", "0,2", "0,2 is safe: the 1 at 0,0 and the total of 1 mine force it"),
        ("..1\n...\n", "1,2", "1,2 is undetermined: a mine in one explanation (drawn), safe in another"),
        ("2.\n..\n", "0,1", "0,1 is undetermined: a mine in one explanation (drawn), safe in another"),
        ("3.\n..\n", "0,1", "0,1 is a mine: the 3 at 0,0 forces it"),
    ])
    def test_the_answer_is_said_in_words(self, tmp_path, text, cell, said):
        """--reason's text answer says what the picture shows (it said only "wrote FILE"; the
        status was in --json alone). Oracle: the explanations, enumerated."""
        from satsweeper.constraints import problem_of
        from satsweeper.textio import parse_board

        from . import oracle
        board = tmp_path / "b.txt"
        board.write_text(text)
        result = run("render", board, "-o", tmp_path / "r.svg", "--reason", cell)
        assert result.exit_code == 0 and result.output.splitlines()[0] == said
        target = tuple(map(int, cell.split(",")))
        found = oracle.explanations(problem_of(parse_board(text)))
        mine_in = sum(target in e for e in found)
        assert (" is safe" in said, " a mine:" in said) == (mine_in == 0, mine_in == len(found))

    def test_probs_stay_beside_an_undetermined_reason(self, tmp_path):
        """--probs with --reason on an undetermined cell draws the heat map too (its legend and
        percentages), not the counter-example alone; a safe cell's reason keeps it as well."""
        for cell, status in (("3,7", "undetermined"), ("3,12", "safe")):
            out = tmp_path / f"p{status}.svg"
            data = json.loads(run("render", EXAMPLES / "expert.txt", "-o", out, "--probs", "--reason", cell,
                                  "--json").stdout)
            assert data["reason"]["status"] == status
            text = out.read_text()
            assert "mine probability" in text and "19%" in text, status
        alone = tmp_path / "alone.svg"
        run("render", EXAMPLES / "expert.txt", "-o", alone, "--reason", "3,7")
        assert "mine probability" not in alone.read_text()  # no --probs, no heat map

    def test_an_explanations_mines_keep_their_percentages(self, tmp_path):
        """--probs --reason on an undetermined cell drew the explanation's mines over their
        percentages (19% gone from 50 squares): each undetermined cell, mine or not, shows its
        chance.  Oracle: probs --json's cells with 0 < p < 1, one label each."""
        out = tmp_path / "r.svg"
        data = json.loads(run("render", EXAMPLES / "expert.txt", "-o", out, "--probs", "--reason", "1,0",
                              "--json").stdout)
        mines = data["reason"]["explanation"]
        cells = json.loads(run("probs", EXAMPLES / "expert.txt", "--json").stdout)["cells"]
        undetermined = [c for c in cells if 0 < Fraction(c["probability"]) < 1]
        drawn = {(m["row"], m["col"]) for m in mines} & {(c["row"], c["col"]) for c in undetermined}
        assert len(drawn) > 40  # mines drawn over undetermined cells: where the percentages were lost
        text = out.read_text()
        words = {f"{round(float(Fraction(c['probability'])) * 100)}%" for c in undetermined}
        legend = {"0%", "25%", "50%", "75%", "100%"}  # the colour bar's ticks are labels too
        labels = sum(text.count(f">{word}<") - (word in legend) for word in words)
        assert labels == len(undetermined)

    def test_reason_clues_and_total_in_the_contract_form(self, tmp_path):
        """--reason writes the clues and the total as every answer does (docs/json.md: "a clue
        or rule"). Worked by hand: the 1 at 0,0 puts the one mine among 0,1 1,0 1,1, so 0,2 is
        safe, and neither the 1 (the mine could be at 0,2) nor the total (more mines) does it alone."""
        board = tmp_path / "t.txt"
        board.write_text("mines: 1\n1..\n...\n")
        data = json.loads(run("render", board, "-o", tmp_path / "t.svg", "--reason", "0,2", "--json").stdout)
        assert data["reason"]["status"] == "safe" and data["reason"]["total"] is True
        want = [{"kind": "clue", "row": 0, "col": 0, "number": 1}, {"kind": "total", "mines": 1}]
        assert sorted(data["reason"]["reason"], key=json.dumps) == sorted(want, key=json.dumps)

    def test_big_board_is_an_overview(self, tmp_path):
        """A board too big for squares is drawn a dot of colour per square, with a note saying so (not "one pixel": the PNG is scaled)."""
        board = tmp_path / "big.txt"
        board.write_text("\n".join(["1" * 200] * 3 + ["." * 200]) + "\n")
        out = tmp_path / "big.svg"
        assert run("render", board, "-o", out).exit_code == 0
        assert "a dot per square" in out.read_text()


class TestOverviewOverlays:
    """A board too big for squares keeps what was asked of it: --probs colours its hidden
    squares, --reason and a hint ring their cells (both were dropped without a word)."""

    # 70 squares wide (an overview): 0,0 and 0,68 mines (each the one hidden cell of a 1),
    # 0,69 next to no number (a mine in half the explanations: no total); the rest revealed.
    ROW = ".10" + "0" * 63 + "01.."

    def test_the_colours_are_the_probabilities(self):
        import numpy as np

        from satsweeper.counting import tally
        from satsweeper.render import SAFE, Picture, _risk_scale, overview_image
        from satsweeper.textio import parse_board

        from . import oracle
        board = parse_board(self.ROW + "\n")
        counts = tally(board)
        found = oracle.explanations(__import__("satsweeper.constraints").constraints.problem_of(board))
        for cell in board.hidden_cells():  # the probabilities drawn are the brute force's
            assert counts.probability(cell) == sum(cell in e for e in found) / len(found)
        image = overview_image(board, Picture(probabilities={c: counts.probability(c) for c in counts.cells()}))
        assert np.allclose(image[0, 0], (0.1, 0.1, 0.1))  # a mine in every explanation
        assert np.allclose(image[0, 68], image[0, 0]) and np.allclose(image[0, 69], _risk_scale()(0.5)[:3])
        assert np.allclose(image[0, 1], (0.92, 0.92, 0.92))  # a revealed number
        # Pooled into blocks, a block takes its likeliest square (a coin flip beats a sure safe cell).
        pooled = overview_image(board, Picture(probabilities={(0, 68): Fraction(1, 2), (0, 69): Fraction(0)}), block=2)
        assert np.allclose(pooled[0, 34], _risk_scale()(0.5)[:3])
        only_safe = overview_image(board, Picture(probabilities={(0, 69): Fraction(0)}), block=2)
        assert np.allclose(only_safe[0, 34], [int(SAFE[i:i + 2], 16) / 255 for i in (1, 3, 5)])

    def test_probs_and_reason_are_drawn_and_said(self, tmp_path, monkeypatch):
        import satsweeper.render as render
        drawn = []
        real = render._overview
        monkeypatch.setattr(render, "_overview", lambda board, picture, plt: drawn.append(picture) or
                            real(board, picture, plt))
        board = tmp_path / "wide.txt"
        board.write_text(self.ROW + "\n")
        assert run("render", board, "-o", tmp_path / "p.svg", "--probs").exit_code == 0
        svg = (tmp_path / "p.svg").read_text()
        assert "mine probability" in svg  # the colour scale
        assert "green with a ring" not in svg and "green: safe in every explanation" in svg
        assert "named cells" not in svg and "wires and gates" not in svg  # a plain board has neither
        assert run("render", board, "-o", tmp_path / "r.svg", "--reason", "0,0").exit_code == 0
        assert drawn[-1].marks == {(0, 0): "move", (0, 1): "reason"}  # the 1 alone forces it
        rings = (tmp_path / "r.svg").read_text()  # drawn as rings, in the marks' colours
        assert render.MARK_COLOURS["move"] in rings and render.MARK_COLOURS["reason"] in rings
        assert render.MARK_COLOURS["move"] not in svg
        assert "forced by the outlined (blue) clues" in (tmp_path / "r.svg").read_text()


class TestOpened:
    LAYOUT = "mines: 3\nstart: 4,0\n.....\n.*.*.\n.....\n...*.\n.....\n"
    # What the first click at 4,0 opens, worked out by hand: the 0s at 3,0 3,1 4,0 4,1
    # and the numbers around them.
    SEEN = "mines: 3\n.....\n.....\n113..\n001..\n001..\n"

    def test_the_opened_position_as_a_board_file(self, tmp_path):
        """A puzzle author could draw the position a layout's first click opens but not write
        it as a file for players (README: only the browser downloaded it). -o .txt / .mine
        writes it; the revealed numbers are a flood fill from the start (written here), the
        total the layout's; no mine is in the file; a text file without --opened is refused."""
        from satsweeper.textio import parse_mine, read_puzzle
        layout = Path(__file__).resolve().parent.parent / "examples" / "layout.txt"
        puzzle = read_puzzle(layout)
        board, mines = puzzle.board, puzzle.mines

        def number(cell):
            return sum(n in mines for n in board.neighbours(cell))
        seen, todo = {puzzle.start}, [puzzle.start]
        while todo:
            cell = todo.pop()
            if number(cell) == 0:
                for n in board.neighbours(cell):
                    if n not in seen and n not in mines:
                        seen.add(n)
                        todo.append(n)
        want = {c: number(c) for c in seen}
        for name in ("p.txt", "p.mine"):
            out = tmp_path / name
            result = run("render", layout, "--opened", "-o", out)
            assert result.exit_code == 0 and result.output == f"wrote {out}\n"
            got = parse_mine(out.read_text()) if name.endswith(".mine") else read_puzzle(out).board
            assert got.clues == want and got.total_mines == len(mines) and not got.flags
            assert "*" not in out.read_text() and (name.endswith(".mine") or read_puzzle(out).mines is None)
        result = run("render", layout, "-o", tmp_path / "q.txt")
        assert result.exit_code == 2 and "with --opened" in result.output and not (tmp_path / "q.txt").exists()
        voids = tmp_path / "v.txt"  # it blamed the start cell: "a safe start cell on a full rectangle"
        voids.write_text("mines: 1\nstart: 0,0\n..-\n..*\n")
        result = run("render", voids, "--opened", "-o", tmp_path / "v.png")
        assert result.exit_code == 2 and "expected a layout without void squares ('-') for --opened (got 1 void" \
            in result.output

    @pytest.mark.parametrize("command", [["noguess"], ["render", "--opened", "-o", "x.png"]])
    def test_a_void_is_pointed_at(self, tmp_path, command):
        """A void square in a layout was reported at the grid's first line, column 1 (5:1 here):
        the error now points at the '-', past comments, headers and a comment between rows."""
        layout = tmp_path / "v.txt"
        layout.write_text("# my layout\nmines: 2\nstart: 2,0\n# row comment\n*..\n# between\n.-.\n..*\n")
        args = [str(tmp_path / a) if a.endswith(".png") else a for a in command]
        result = run(args[0], layout, *args[1:], "--json")
        answer = json.loads(result.stdout)
        assert result.exit_code == 2 and (answer["line"], answer["col"]) == (7, 2)
        assert answer["got"] == "1 void square, the first at 1,1"

    def test_the_opened_position_keeps_the_layouts_flags(self, tmp_path):
        """A layout's F is a mine the player is shown flagged: noguess judged the puzzle with it,
        and the exported position dropped it (solve then decided nothing of it: 14 cells
        undetermined).  Oracle: the flag is in every file written, and the position is solved
        with the flag (its explanations enumerated)."""
        from satsweeper.textio import parse_mine, read_puzzle
        from . import oracle
        from satsweeper.constraints import problem_of
        layout = tmp_path / "flag.txt"
        layout.write_text("mines: 2\nstart: 0,2\n.F...\n.....\n....*\n")
        assert run("noguess", layout).exit_code == 0
        for name in ("p.txt", "p.mine"):
            out = tmp_path / name
            assert run("render", layout, "--opened", "-o", out).exit_code == 0
            got = parse_mine(out.read_text()) if name.endswith(".mine") else read_puzzle(out).board
            assert got.flags == {(0, 1)} and got.clues == {(0, 2): 1} and got.total_mines == 2
            # The 1 has its flag: its four other neighbours are safe, and the one mine left is
            # in any of the other 9 hidden cells (without the flag, the 1 decided nothing).
            found = oracle.explanations(problem_of(got))
            assert len(found) == 9 and not any(e & {(0, 3), (1, 1), (1, 2), (1, 3)} for e in found)

    def test_reason_on_the_opened_position(self, tmp_path):
        """--opened draws the position the start click opens: 1,2 is safe there for the
        same clues as on the hand-written position, and undetermined on the layout itself."""
        layout, seen = tmp_path / "l.txt", tmp_path / "s.txt"
        layout.write_text(self.LAYOUT), seen.write_text(self.SEEN)
        got = json.loads(run("render", layout, "--opened", "--reason", "1,2", "-o", tmp_path / "o.svg",
                             "--json").stdout)["reason"]
        want = json.loads(run("render", seen, "--reason", "1,2", "-o", tmp_path / "s.svg", "--json").stdout)
        assert got == want["reason"] and got["status"] == "safe"
        assert {(c["row"], c["col"], c["number"]) for c in got["reason"]} == {(2, 0, 1), (2, 1, 1)}
        plain = json.loads(run("render", layout, "--reason", "1,2", "-o", tmp_path / "p.svg", "--json").stdout)
        assert plain["reason"]["status"] == "undetermined"

    def test_start_given_for_a_mine_file(self, tmp_path):
        """A .mine holds no start: --start gives it (generate -o x.mine says to), and the
        position drawn is the one the layout with its 'start:' line opens (1,2 safe for the
        same clues); --start without --opened is refused."""
        from satsweeper.textio import format_mine, read_puzzle
        layout = tmp_path / "l.txt"
        layout.write_text(self.LAYOUT)
        puzzle = read_puzzle(layout)
        mine = tmp_path / "l.mine"
        mine.write_text(format_mine(puzzle.board, puzzle.mines))
        want = json.loads(run("render", layout, "--opened", "--reason", "1,2", "-o", tmp_path / "a.svg",
                              "--json").stdout)
        result = run("render", mine, "--opened", "--start", "4,0", "--reason", "1,2", "-o", tmp_path / "b.svg",
                     "--json")
        assert result.exit_code == 0 and json.loads(result.stdout)["reason"] == want["reason"]
        assert run("render", mine, "--opened", "-o", tmp_path / "c.svg").exit_code == 2
        alone = run("render", mine, "--start", "4,0", "-o", tmp_path / "d.svg")
        assert alone.exit_code == 2 and "--start with --opened" in alone.stderr

    def test_needs_a_layout_with_a_start(self, tmp_path):
        for text, expected in [(self.SEEN, "expected a layout"), ("*.\n..\n", "a 'start:' line"),
                               ("start: 0,0\n*.\n..\n", "b.txt:1:8: expected 'start: ROW,COL' on a safe cell")]:
            board = tmp_path / "b.txt"
            board.write_text(text)
            result = run("render", board, "--opened", "-o", tmp_path / "b.svg")
            assert result.exit_code == 2 and expected in result.output, result.output


class TestSmallPictures:
    """Text on a small board's picture, measured by matplotlib itself (the
    extents its renderer gives each text), not by the layout code's estimates."""

    @staticmethod
    def measured(monkeypatch):
        import matplotlib
        matplotlib.use("Agg")
        from matplotlib.figure import Figure
        from matplotlib.text import Text
        seen = []
        original = Figure.savefig

        def spy(self, *args, **kwargs):
            renderer = self.canvas.get_renderer()
            texts = [t for t in self.findobj(Text) if t.get_visible() and t.get_text().strip()]
            seen.append({"figure": self.bbox,
                         "texts": [(t.get_text(), t.get_window_extent(renderer)) for t in texts],
                         "captions": [t.get_window_extent(renderer) for t in self.texts],
                         "axes": [a.get_window_extent(renderer) for a in self.axes]})
            return original(self, *args, **kwargs)

        monkeypatch.setattr(Figure, "savefig", spy)
        return seen

    def test_titles_and_captions_fit_the_figure(self, tmp_path, monkeypatch):
        """A 2x2 50/50 with --reason and --probs, a 5x3 conflict (a long title), a 1x2
        board: every text lies inside the figure, and no caption runs into the board or
        the colour scale.  Titles and captions were cut off at a small figure's edges,
        and the colour scale hung into the caption."""
        seen = self.measured(monkeypatch)
        fifty, typo, tiny = tmp_path / "fifty.txt", tmp_path / "typo.txt", tmp_path / "tiny.txt"
        fifty.write_text("mines: 1\n..\n11\n")
        typo.write_text("mines: 3\n..1..\n.2.1.\n11100\n")
        tiny.write_text(".1\n")
        runs = [(fifty, "--reason", "0,0"), (fifty, "--probs"), (typo, "--probs"), (typo,), (tiny, "--probs"),
                (tiny, "--reason", "0,0")]
        for board, *args in runs:
            run("render", board, "-o", tmp_path / "p.png", *args)
        assert len(seen) == len(runs)
        for drawn, args in zip(seen, runs):
            frame = drawn["figure"]
            for text, box in drawn["texts"]:
                assert (box.x0 >= frame.x0 - 0.5 and box.x1 <= frame.x1 + 0.5 and box.y0 >= frame.y0 - 0.5
                        and box.y1 <= frame.y1 + 0.5), (args, text, box, frame)
            for caption in drawn["captions"]:
                assert not any(caption.overlaps(axes) for axes in drawn["axes"]), args


def _explanations(rows: list[str], total: int | None) -> list[frozenset]:
    """Every mine set of the hidden cells ('.') that the digits and total allow (brute force)."""
    import itertools
    height, width = len(rows), len(rows[0])
    hidden = [(r, c) for r in range(height) for c in range(width) if rows[r][c] == "."]
    found = []
    for bits in itertools.product((0, 1), repeat=len(hidden)):
        mines = frozenset(cell for cell, bit in zip(hidden, bits) if bit)
        if total is not None and len(mines) != total:
            continue
        if all(sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1)) == int(rows[r][c])
               for r in range(height) for c in range(width) if rows[r][c].isdigit()):
            found.append(mines)
    return found


class TestUniqueRender:
    @pytest.mark.parametrize("rows, total", [
        (["..", "11"], 1), (["1.1..", "11111", "00000"], 2), (["...", ".2.", "..."], None),
        (["..1..", ".2.1.", "11100"], 3), ([".....", "..1..", "....."], 2), (["1.", "12"], None),
    ])
    def test_the_picture_shows_two_explanations_or_the_one(self, tmp_path, monkeypatch, rows, total):
        """unique --render draws an explanation and outlines where a second differs; both
        are explanations by brute force (the one, if unique; the conflict, if none).  An
        author could see why a board is not unique only as two text grids."""
        import satsweeper.render
        drawn = []
        monkeypatch.setattr(satsweeper.render, "render", lambda board, path, picture: drawn.append(picture))
        board = tmp_path / "b.txt"
        board.write_text((f"mines: {total}\n" if total is not None else "") + "\n".join(rows) + "\n")
        result = run("unique", board, "--render", tmp_path / "u.png")
        every = _explanations(rows, total)
        assert result.exit_code == (0 if len(every) == 1 else 1)
        picture = drawn[0]
        if not every:
            assert picture.marks and set(picture.marks.values()) == {"conflict"}
        elif len(every) == 1:
            assert picture.mines == every[0] and not picture.marks
        else:
            other = picture.mines ^ frozenset(picture.marks)
            assert picture.marks and picture.mines in every and other in every


class TestTotalInTheTitle:
    def test_a_printed_puzzle_says_its_total(self, tmp_path, monkeypatch):
        """render --opened (the puzzle to print) titles the picture with the layout's mine
        count, counted here from its '*' squares: an extreme puzzle needs the total and
        no square shows it (the picture gave only the file name)."""
        import satsweeper.render
        drawn = []
        monkeypatch.setattr(satsweeper.render, "render", lambda board, path, picture: drawn.append(picture))
        layout = tmp_path / "p.txt"
        assert run("generate", "9x9x12", "--no-guess", "--seed", "3", "-o", layout).exit_code == 0
        stars = layout.read_text().count("*")
        assert run("render", layout, "-o", tmp_path / "p.png", "--opened").exit_code == 0
        assert drawn[0].title == f"p.txt ({stars} mines)" and stars == 12
        plain = tmp_path / "q.txt"
        plain.write_text("..\n11\n")
        assert run("render", plain, "-o", tmp_path / "q.png").exit_code == 0
        assert drawn[1].title == "q.txt"


class TestRenderOutOfTime:
    """render --probs on a 1000x1000 board with 425,000 numbers grew to 20 GB with no way to stop
    it: it had no --timeout, which every other command that counts has."""

    def test_a_count_out_of_time_draws_nothing(self, tmp_path, monkeypatch):
        import time
        import satsweeper.reasoning
        monkeypatch.setattr(satsweeper.reasoning, "tally_with_conflict", lambda *a, **k: time.sleep(60))
        out = tmp_path / "e.png"
        began = time.monotonic()
        result = run("render", EXAMPLES / "expert.txt", "-o", out, "--probs", "--timeout", "0.5", "--json")
        assert time.monotonic() - began < 20  # the sleeping child was killed, not waited for
        data = json.loads(result.stdout)
        assert result.exit_code == 3 and data["complete"] is False and data["timeout"] == 0.5
        assert data["consistent"] is None and data["output"] is None and not out.exists()
        text = run("render", EXAMPLES / "expert.txt", "-o", out, "--probs", "--timeout", "0.5")
        assert text.exit_code == 3 and "no picture written" in text.output and not out.exists()

    @pytest.mark.parametrize("question", [["--probs"], ["--reason", "1,0"]])
    def test_the_clock_counts_building_the_rules(self, tmp_path, monkeypatch, question):
        import time
        import satsweeper.constraints
        monkeypatch.setattr(satsweeper.constraints, "problem_of", lambda *a, **k: time.sleep(30))
        began = time.monotonic()
        result = run("render", EXAMPLES / "unique.txt", "-o", tmp_path / "u.png", *question, "--timeout", "1", "--json")
        assert result.exit_code == 3 and time.monotonic() - began < 10, result.output
        assert ("reason" in json.loads(result.stdout)) == ("--reason" in question)  # null, as out of time

    def test_a_plain_drawing_builds_no_rules(self, tmp_path, monkeypatch):
        """A drawing asks nothing: the rules (9 s on a 1000x1000 board) are not built for it."""
        import satsweeper.constraints

        def no_rules(*args, **kwargs):
            raise AssertionError("rules built for a plain drawing")
        monkeypatch.setattr(satsweeper.constraints, "problem_of", no_rules)
        for extra in ([], ["--opened"]):
            board = EXAMPLES / ("layout.txt" if extra else "unique.txt")
            result = run("render", board, "-o", tmp_path / "u.png", *extra)
            assert result.exit_code == 0, result.output

    @pytest.mark.parametrize("question", [["--probs"], ["--reason", "1,0"], ["--probs", "--reason", "2,1"]])
    def test_a_limit_not_reached_draws_the_same(self, tmp_path, question):
        """Given time, the answer and the picture are those drawn without a limit."""
        timed, plain = tmp_path / "t.svg", tmp_path / "p.svg"
        a = run("render", EXAMPLES / "unique.txt", "-o", timed, *question, "--timeout", "60", "--json")
        b = run("render", EXAMPLES / "unique.txt", "-o", plain, *question, "--json")
        assert a.exit_code == b.exit_code == 0, a.output
        drop = lambda d: {k: v for k, v in d.items() if k != "output"}
        assert drop(json.loads(a.stdout)) == drop(json.loads(b.stdout))
        assert timed.read_text() == plain.read_text()
