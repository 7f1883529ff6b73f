"""hint: its sure moves, reasons and chances against the brute-force oracle."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings

from satsweeper.board import Board
from satsweeper.cli import main
from satsweeper.constraints import Problem, problem_of
from satsweeper.errors import InputError
from satsweeper.hint import hint
from satsweeper.reasoning import Move
from satsweeper.textio import parse_board

from . import oracle
from .strategies import boards

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def without(problem: Problem, origins) -> Problem:
    """``problem`` with only the rules whose origin is in ``origins`` (and the total if kept)."""
    from satsweeper.constraints import TotalMines
    keep = tuple(r for r in problem.constraints if r.origin in origins)
    total = problem.mines if any(isinstance(o, TotalMines) for o in origins) else None
    return Problem(problem.cells, keep, mines=total)


def brute_chances(board: Board, cell) -> tuple[Fraction, Fraction, Fraction]:
    """(mine, shows 0, safe and makes another cell safe) by enumerating explanations."""
    problem = problem_of(board)
    found = oracle.explanations(problem)
    hidden = set(problem.cells)
    around = [n for n in board.neighbours(cell) if n in hidden]
    flagged = any(n in board.flags for n in board.neighbours(cell))
    mine = Fraction(sum(cell in e for e in found), len(found))
    zero = Fraction(sum(cell not in e and not flagged and not any(n in e for n in around)
                        for e in found), len(found))
    progress = 0
    for e in found:
        if cell in e:
            continue
        shown = sum(n in e for n in around)
        # The explanations that agree with what the cell would show.
        alike = [f for f in found if cell not in f and sum(n in f for n in around) == shown]
        if any(all(c not in f for f in alike) for c in hidden - {cell}):
            progress += 1
    return mine, zero, Fraction(progress, len(found))


class TestHint:
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(boards(perturb=False, max_hidden=10))
    def test_sure_moves_and_reasons_match_the_oracle(self, board):
        """A sure move is sure by brute force, and its reason alone forces it, minimally."""
        answer = hint(board)
        problem = problem_of(board)
        if not problem.cells:
            assert answer.cell is None
            return
        if not answer.sure:
            # A guess only when brute force finds no determined cell.
            status = oracle.status(problem)
            assert "safe" not in status.values() and "mine" not in status.values()
            return
        mine = answer.move is Move.FLAG
        assert oracle.forced(problem, answer.cell, mine)
        assert oracle.forced(without(problem, answer.reason), answer.cell, mine)
        for dropped in answer.reason:
            rest = [o for o in answer.reason if o != dropped]
            assert not oracle.forced(without(problem, rest), answer.cell, mine)
        assert len(answer.reason) == {"single number": 1, "two nested numbers": 2}.get(answer.rule,
                                                                                     len(answer.reason))

    @settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(boards(perturb=False, max_hidden=10))
    def test_counting_says_whether_the_total_was_needed(self, board):
        """"found by counting" read as counting with the total (README said so) where two
        overlapping numbers forced the move: the words follow the oracle, the total named
        exactly when the numbers of the reason alone do not force it."""
        from satsweeper.constraints import TotalMines
        from satsweeper.report.hints import hint_text
        from satsweeper.report.views import BoardView
        answer = hint(board)
        if not answer.sure or answer.rule != "counting":
            return
        numbers = [o for o in answer.reason if not isinstance(o, TotalMines)]
        needed = not oracle.forced(without(problem_of(board), numbers), answer.cell, answer.move is Move.FLAG)
        said = hint_text(BoardView(board), answer)
        assert ("(found by counting the explanations, with the total)" in said) == needed
        assert ("(found by counting the explanations of these numbers)" in said) == (not needed)

    @pytest.mark.parametrize("text, words", [
        ("mines: 40\n........\n........\n..113...\n..202...\n..434...\n" + "........\n" * 3,
         "the 1 at 2,2 and the 2 at 3,2 force it (found by counting the explanations of these numbers)"),
        ("mines: 2\n....\n.2..\n....\n",
         "the 2 at 1,1 and the total of 2 mines force it (found by counting the explanations, with the total)")])
    def test_counting_in_words(self, text, words):
        """Both kinds, each checked by hand: two overlapping numbers (a probe's 8x8x40 game), and
        a 2 whose mines the total puts all beside it."""
        from satsweeper.report.hints import hint_text
        from satsweeper.report.views import BoardView
        board = parse_board(text)
        assert words in hint_text(BoardView(board), hint(board))

    def test_two_nested_numbers_are_the_reason(self):
        """Found by two nested numbers, the move is explained by those two: the minimal set
        the solver's deletion found here was three other clues (1,0, 2,2 and 2,3), beside the
        words "found by two nested numbers" (1 in 20 random positions did so)."""
        board = parse_board("mines: 7\n000000\n221000\n..3210\n2...10\n....20\n....10\n")
        answer = hint(board)
        assert (answer.cell, answer.rule) == ((3, 1), "two nested numbers")
        assert [str(o) for o in answer.reason] == ["the 2 at 1,0", "the 2 at 3,0"]
        problem = problem_of(board)
        assert oracle.forced(without(problem, answer.reason), (3, 1), False)

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(boards(perturb=False, max_hidden=9))
    def test_guess_chances_match_the_oracle(self, board):
        """A guess's mine, opening and progress chances are the brute-force ones."""
        answer = hint(board, "exact")
        if answer.sure or answer.cell is None:
            return
        for option in (answer.measures, *answer.alternatives):
            assert (option.mine, option.opening, option.progress) == brute_chances(board, option.cell)
        assert answer.safest == min(o.mine for o in (answer.measures, *answer.alternatives))

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(boards(perturb=False, max_hidden=9))
    def test_a_weak_strategys_hint_is_true_to_the_oracle(self, board):
        """random (which looks for no sure move) and single-point: a cell opened that the brute
        force finds safe is a sure move, never "a guess ... mine probability 0"; a guess counts
        the determined cells as the oracle does, and no alternative is a certain mine (random's
        hint on beginner.txt offered 0,4 at 100%)."""
        problem = problem_of(board)
        status = oracle.status(problem) if problem.cells else None
        for name in ("random", "single-point"):
            for seed in range(3):
                answer = hint(board, name, seed=seed)
                if not answer.consistent or answer.cell is None:
                    continue
                if not answer.sure:
                    assert status[answer.cell] != "safe"  # random may open a certain mine: its move, said at 100%
                    assert answer.measures.mine == brute_chances(board, answer.cell)[0]
                    assert answer.sure_moves == sum(v != "undetermined" for v in status.values())
                    assert all(status[o.cell] != "mine" and o.mine < 1 for o in answer.alternatives)
                else:
                    assert oracle.forced(problem, answer.cell, answer.move is Move.FLAG)

    def test_a_start_counts_among_the_determined_cells(self):
        """A file's start is a sure move, and a determined cell: sure_moves said 0 where solve
        says 1 safe (the mine is 0,0 or 0,1, undetermined)."""
        result = CliRunner().invoke(main, ["hint", "-", "--json"], input="mines: 1\nstart: 0,2\n*..\n")
        data = json.loads(result.stdout)
        assert data["rule"] == "first click" and data["sure_moves"] == 1
        solved = json.loads(CliRunner().invoke(main, ["solve", "-", "--json"], input="mines: 1\nstart: 0,2\n*..\n").stdout)
        assert solved["safe"] + solved["mine"] == data["sure_moves"]

    @settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(boards(perturb=False, max_hidden=9))
    def test_safe_names_the_clues_hint_names(self, board):
        """safe (and the page's cell click) gave the solver's minimal set where the hint gave a
        rule's: another set of clues for the same cell. Now the same reason for every sure cell,
        forcing it alone and minimal (the brute force)."""
        from satsweeper.hint import simplest_reason
        from satsweeper.reasoning import safety
        problem = problem_of(board)
        if not problem.cells or oracle.status(problem) is None:
            return
        for cell, state in oracle.status(problem).items():
            if state == "undetermined":
                continue
            move = Move.FLAG if state == "mine" else Move.OPEN
            reason = simplest_reason(problem, safety(problem, cell, move)).reason
            assert oracle.forced(without(problem, reason), cell, state == "mine")
            for dropped in reason:
                rest = [o for o in reason if o != dropped]
                assert not oracle.forced(without(problem, rest), cell, state == "mine")
            told = hint(board)
            if told.sure and told.cell == cell and told.rule != "counting":
                assert reason == told.reason

    def test_safe_and_hint_agree_on_expert(self):
        """The probe's cell: hint said the 3s at 5,24 and 6,24, safe the 3s at 4,24 and 6,24."""
        safe = json.loads(CliRunner().invoke(main, ["safe", str(EXAMPLES / "expert.txt"), "4,25", "--json"]).stdout)
        told = json.loads(CliRunner().invoke(main, ["hint", str(EXAMPLES / "expert.txt"), "--json"]).stdout)
        assert told["cell"] == {"row": 4, "col": 25} and safe["reason"] == told["reason"]

    def test_a_weak_guess_does_not_say_no_move_is_sure(self):
        """random guessing on expert.txt said "no move is sure" with 18 cells determined."""
        result = CliRunner().invoke(main, ["hint", str(EXAMPLES / "expert.txt"), "--strategy", "random",
                                           "--seed", "1"])
        assert result.exit_code == 0 and "no move is sure" not in result.output
        assert "it guessed, though 18 hidden cells are determined" in result.output

    def test_inconsistent(self):
        """No move on an inconsistent board: the conflict instead."""
        board = parse_board("mines: 0\n1.\n")
        answer = hint(board)
        assert not answer.consistent and answer.cell is None and answer.conflict

    def test_alternatives_asked_for(self):
        """As many alternatives as asked, up to the kinds there are; -1 silently dropped the last one."""
        board = parse_board("mines: 3\n.....\n.1...\n")
        every = hint(board).alternatives
        assert len(every) > 2 and hint(board, alternatives=2).alternatives == every[:2]
        assert hint(board, alternatives=0).alternatives == ()
        with pytest.raises(InputError, match=r"a number of alternatives, 0 or more \(got -1\)"):
            hint(board, alternatives=-1)

    def test_endgame_basis(self):
        """Three explanations, no sure move: best's exact endgame decides, and says its chance.

        A 1 in the corner of a 2x2 board with one mine: whichever cell is
        opened (safe 2 in 3), it shows 1 and leaves a coin flip: 2/3 * 1/2 = 1/3.
        """
        answer = hint(parse_board("mines: 1\n1.\n..\n"))
        assert (answer.sure, answer.basis, answer.value) == (False, "endgame", Fraction(1, 3))
        assert answer.measures.mine == Fraction(1, 3) and answer.measures.progress == 0

    def test_every_reason_of_best_has_words(self):
        """Every basis Best may give a guess (its default play and its experiments) has its
        words in the hint: "pocket", "50/50", "two moves" and "dominance" read "the
        strategy's own choice (it does not say why)" before.  The bases are read from
        best.py's code: each Decision's basis=, each string _guess returns as its why."""
        import ast
        import inspect

        from satsweeper.report.hints import BASIS_TEXT
        from satsweeper.strategies import best
        tree = ast.parse(inspect.getsource(best))
        given = {k.value.value for node in ast.walk(tree) if isinstance(node, ast.Call)
                 for k in node.keywords if k.arg == "basis" and isinstance(k.value, ast.Constant)}
        guess = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_guess")
        returned = {r.value.elts[1].value for r in ast.walk(guess) if isinstance(r, ast.Return)
                    and isinstance(r.value, ast.Tuple) and isinstance(r.value.elts[1], ast.Constant)}
        returned |= {e.elts[1].value for r in ast.walk(guess) if isinstance(r, ast.Return)
                     and isinstance(r.value, ast.IfExp) for e in (r.value.body, r.value.orelse)}
        assert {"endgame", "pocket", "corner", "look-ahead", "two moves"} <= given | returned
        assert (given | returned) - {"inner"} <= BASIS_TEXT.keys()  # "inner": a score, never a move


class TestLibraryArguments:
    @pytest.mark.parametrize("start", [(9, 9), (-1, 0), "0,1", (0, 1.5), [0, 1]])
    def test_a_start_not_on_the_board_is_refused(self, start):
        """A start off the board or not a (row, col) was dropped without a word: the hint was
        the one without a start, a mistyped start silently changing the answer."""
        from satsweeper.errors import CellError
        from satsweeper.hint import sure_by_rules
        board = parse_board("mines: 2\n1..\n...\n")
        for ask in (hint, sure_by_rules):
            with pytest.raises(CellError, match="start cell"):
                ask(board, start=start)
        # an opened start is no rule, as a first click once made; a hidden one is the move
        assert hint(board, start=(0, 0)) == hint(board)
        assert hint(board, start=(1, 1)).cell == (1, 1)

    def test_an_inconsistent_position_has_no_move(self):
        """It said move=OPEN with no cell: code branching on the move saw an open."""
        answer = hint(Board(3, 3, {(0, 0): 5}))
        assert not answer.consistent and answer.cell is None and answer.move is None
        assert oracle.explanations(problem_of(Board(3, 3, {(0, 0): 5}))) == []

    def test_a_named_cell_asked_of_the_library_says_how(self):
        from satsweeper import safety
        from satsweeper.errors import CellError
        board = parse_board("mines: 2\n1F-\n.x.\n")
        with pytest.raises(CellError, match=r"board\.cell_by_name\(name\)"):
            safety(board, "x")
        cell = board.cell_by_name("x")
        assert cell == (1, 1) and safety(board, cell).safe == oracle.forced(problem_of(board), cell, False)


class TestFirstClick:
    @pytest.mark.parametrize("width, height", [(3, 3), (4, 3), (5, 2), (1, 6), (4, 4)])
    @pytest.mark.parametrize("rule", ["safe", "opening"])
    def test_a_first_click_the_game_can_start(self, width, height, rule):
        """On a crowded board the strategy's first click (an edge cell, 2,1 on 3x3x5) opened no
        region the game could deal: the game refused the hinted click. Every mine count: the hint
        is a cell where Game.new deals (the oracle: it places the mines, or it cannot anywhere,
        and then the hint is refused too, naming the most mines a corner takes)."""
        import random
        from satsweeper.game import FirstClick, Game, Level
        from satsweeper.hint import first_click
        first_rule = FirstClick(rule)
        for mines in range(width * height + 1):
            level = Level(width, height, mines)
            dealt = []
            for cell in [(r, c) for r in range(height) for c in range(width)]:
                try:
                    Game.new(level, random.Random(0), cell, first_rule)
                    dealt.append(cell)
                except (InputError, ValueError):
                    pass
            board = Board(height, width, total_mines=mines)
            if not dealt:
                with pytest.raises(InputError, match=r"at most \d+ mines on .*, whose first click even in a corner"):
                    first_click(board, first_rule)
                continue
            answer = first_click(board, first_rule)
            assert answer.cell in dealt and answer.sure, (width, height, mines, rule)


class TestTooBigToCount:
    """A position no count finishes: the hint's sure move by the rules alone (it had none)."""

    def test_out_of_time_a_sure_move_by_one_number(self, tmp_path):
        from .test_limits import crowded, settled_by_its_reason
        text, mines = crowded(60)  # counting it fills gigabytes over minutes
        board = tmp_path / "crowded.txt"
        board.write_text(text)
        result = CliRunner().invoke(main, ["hint", str(board), "--timeout", "1", "--json"])
        assert result.exit_code == 3, result.output
        answer = json.loads(result.stdout)
        assert answer["complete"] is False and answer["stopped"] == "no answer within 1 s (--timeout)"
        assert answer["sure"] is True and answer["rule"] == "single number" and answer["sure_moves"] is None
        assert (answer["cell"]["row"], answer["cell"]["col"]) not in mines  # oracle: the board's own layout
        assert settled_by_its_reason(answer, text)
        said = CliRunner().invoke(main, ["hint", str(board), "--timeout", "1"]).output
        assert said.startswith("no answer within 1 s (--timeout); found without counting:\nopen ")
        assert "the cells determined were not counted" in said
        assert answer["consistent"] is True  # the SAT proof of a 60x60 board is quick

    def test_out_of_time_a_move_whose_proof_is_too_long(self, tmp_path):
        """A 300x300 lattice whose total binds its one component: the rules find a move in
        0.3 s, the SAT proof with the total takes 23 s. The move comes, its position's
        consistency not proven (null); before, the proof and the move were asked together
        and no move came."""
        from .test_limits import crowded, settled_by_its_reason
        text, mines = crowded(300)
        board = tmp_path / "lattice.txt"
        board.write_text(f"mines: {len(mines)}\n{text}")
        result = CliRunner().invoke(main, ["hint", str(board), "--timeout", "1", "--json"])
        assert result.exit_code == 3, result.output
        answer = json.loads(result.stdout)
        assert answer["consistent"] is None and answer["complete"] is False
        assert answer["sure"] is True and answer["rule"] == "single number"
        assert (answer["cell"]["row"], answer["cell"]["col"]) not in mines  # oracle: the board's own layout
        assert settled_by_its_reason(answer, text)
        said = CliRunner().invoke(main, ["hint", str(board), "--timeout", "1"]).output
        assert "whether any layout explains the position was not proven in time" in said

    def test_out_of_time_its_picture_counts_nothing(self, tmp_path):
        """hint --render out of time draws the rules' move without the chances: the picture
        counted the whole board again, which on this board fills gigabytes over minutes.
        Run as a user runs it, bounded to 3 GB and 120 s."""
        import resource
        import subprocess
        import sys
        from .test_limits import crowded
        text, mines = crowded(60)
        board, picture = tmp_path / "crowded.txt", tmp_path / "hint.png"
        board.write_text(text)

        def bounded():
            resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
        done = subprocess.run([sys.executable, "-m", "satsweeper", "hint", str(board), "--timeout", "1",
                               "--render", str(picture), "--json"], capture_output=True, text=True,
                              timeout=120, preexec_fn=bounded)
        assert done.returncode == 3, done.stderr
        answer = json.loads(done.stdout)
        assert answer["sure"] and answer["picture"] == str(picture) and picture.stat().st_size > 0
        assert (answer["cell"]["row"], answer["cell"]["col"]) not in mines

    def test_unproven_means_not_asked(self):
        """With ``proven`` False the solver is not asked: an inconsistent position (oracle: no
        explanation) still gets the move its rules name, right in every explanation there is
        (none), its consistency None; proven, it is the conflict."""
        from satsweeper.hint import sure_by_rules, sure_by_rules_within
        board = parse_board("F1.\n2..\n")  # the 2 wants two of 0,1 1,1 and the 1 has its flag
        assert not oracle.explanations(problem_of(board))
        unproven = sure_by_rules(board, proven=False)
        assert unproven.consistent is None and unproven.cell == (0, 2)
        assert sure_by_rules_within(board).consistent is False
        # No rule settles a cell here, and the proof still answers: the total cannot fit.
        board = parse_board("mines: 3\n1.\n..\n.1\n")
        assert not oracle.explanations(problem_of(board)) and sure_by_rules(board, proven=False) is None
        answer = sure_by_rules_within(board)
        assert answer.consistent is False
        assert not oracle.explanations(without(problem_of(board), answer.conflict))  # the conflict alone

    @pytest.mark.parametrize("text, cell, move", [
        ("F1.\n", (0, 2), Move.OPEN),          # the 1 has its flag: 0,2 safe
        ("1.\n..\n", None, None),               # a 1 among three cells settles none
        ("11.\n...\n", (0, 2), Move.OPEN),      # the nested pair only
        ("2.\n..\n..\n", None, None),
        ("1F\n.1\n", (1, 0), Move.OPEN),
        ("3.\n..\n", (0, 1), Move.FLAG),        # no open: the flag
    ])
    def test_by_rules_against_the_brute_force(self, text, cell, move):
        """sure_by_rules names a move right in every explanation (oracle: enumerating them),
        an open before a flag, or none."""
        from satsweeper.hint import sure_by_rules
        board = parse_board(text)
        answer = sure_by_rules(board)
        if cell is None:
            assert answer is None
            return
        assert (answer.cell, answer.move) == (cell, move) and answer.sure_moves is None
        found = oracle.explanations(problem_of(board))
        assert found and all((cell in e) == (move is Move.FLAG) for e in found)
        # Its reason alone forces it.
        alone = oracle.explanations(without(problem_of(board), answer.reason))
        assert all((cell in e) == (move is Move.FLAG) for e in alone)

    def test_by_rules_an_inconsistent_position_is_its_conflict(self):
        from satsweeper.hint import sure_by_rules
        answer = sure_by_rules(parse_board("2.\n..\n1F\n"))
        assert answer.consistent is False and answer.conflict
        assert not oracle.explanations(problem_of(parse_board("2.\n..\n1F\n")))


class TestCommand:
    def test_text_and_json(self):
        """The expert example: a sure move with its reason, as text and JSON."""
        runner = CliRunner()
        text = runner.invoke(main, ["hint", str(EXAMPLES / "expert.txt")])
        assert text.exit_code == 0 and "the 3 at 5,24 and the 3 at 6,24 force it" in text.output  # as README shows
        data = json.loads(runner.invoke(main, ["hint", str(EXAMPLES / "expert.txt"), "--json"]).stdout)
        assert data["sure"] and data["reason"][0]["kind"] == "clue"

    def test_a_click_rather_than_a_flag(self):
        """best's sure moves on the expert example are the single numbers' flags; asked what
        to click, the hint opens a cell that the SAT backbone (a second method: the hint
        counts) calls safe."""
        import random

        from satsweeper.reasoning import Status, solve
        from satsweeper.strategies import strategy
        board = parse_board((EXAMPLES / "expert.txt").read_text())
        assert not strategy("best").decide(board, random.Random(0)).opens  # flags only
        answer = hint(board)
        assert answer.sure and answer.move is Move.OPEN
        assert solve(board, method="sat").status[answer.cell] is Status.SAFE

    def test_a_random_guess_is_not_called_the_safest(self):
        """On an untouched board every cell is as safe as the safest (the oracle: every cell's
        chance is the density); random's pick is still a draw, and the hint says so."""
        board = "mines: 3\n" + "\n".join(["....."] * 4) + "\n"
        result = CliRunner().invoke(main, ["hint", "-", "--strategy", "random"], input=board)
        assert result.exit_code == 0 and "drawn at random" in result.output, result.output
        assert "safest cell" not in result.output.split("why:")[1]
        data = json.loads(CliRunner().invoke(main, ["hint", "-", "--strategy", "random", "--json"],
                                             input=board).stdout)
        assert data["basis"] == "random" and data["mine"]["p"] == 3 / 20

    @pytest.mark.parametrize("board", ["00\n00\n", "1F\n11\n"], ids=["all open", "mine flagged"])
    def test_no_hidden_cell_left(self, board):
        """Nothing to open: "cell" and "move" null (it gave "cell" alone, which docs/json.md
        never mentioned), exit 0, and the text says why."""
        result = CliRunner().invoke(main, ["hint", "-", "--json"], input=board)
        data = json.loads(result.stdout)
        assert result.exit_code == 0 and data["consistent"] is True
        assert data["cell"] is None and data["move"] is None, data
        text = CliRunner().invoke(main, ["hint", "-"], input=board).output
        assert text == "no hint: no hidden cell is left\n"

    def test_a_guess_explained(self):
        """An all-hidden corner-opened board needs a guess: its chances and alternatives are shown."""
        board = "mines: 10\n" + "\n".join(["1........"] + ["........."] * 8) + "\n"
        result = CliRunner().invoke(main, ["hint", "-", "--json"], input=board)
        data = json.loads(result.stdout)
        assert result.exit_code == 0 and data["sure"] is False
        assert data["basis"] and data["alternatives"] and 0 < data["mine"]["p"] < 1

    def test_a_corner_given_way_to(self):
        """Expert after a small opening at 0,0: the far corners are exactly as safe as 2,0,
        and 2,0 safe makes 2,3 safe whatever it shows (tests/test_best.py checks the rule
        against brute force); best opens 2,0 and the hint says why."""
        rows = ["001" + "." * 27, "123" + "." * 27, "..F" + "." * 27] + ["." * 30] * 13
        board = "mines: 99\n" + "\n".join(rows) + "\n"
        data = json.loads(CliRunner().invoke(main, ["hint", "-", "--json"], input=board).stdout)
        assert (data["cell"], data["basis"]) == ({"row": 2, "col": 0}, "corner-yield")
        # progress is P(safe and some cell made safe): every safe 2,0 makes one
        assert Fraction(data["progress"]["probability"]) == 1 - Fraction(data["mine"]["probability"])
        corner = next(a for a in data["alternatives"] if a["cell"] == {"row": 0, "col": 29})
        assert corner["mine"] == data["mine"]
        text = CliRunner().invoke(main, ["hint", "-"], input=board).output
        assert "guess 2,0" in text and "leads on where a corner only may" in text, text

    def test_a_pseudo_fifty_fifty(self):
        """A pair walled in by flags and the board's edge (tests/test_best.py checks the
        rule against every explanation of small boards): best opens its first cell at once,
        and the hint says why; its chance of a mine is 1/2."""
        from tests.test_best import WALLED_PAIR
        data = json.loads(CliRunner().invoke(main, ["hint", "-", "--json"], input=WALLED_PAIR).stdout)
        assert (data["cell"], data["basis"]) == ({"row": 14, "col": 9}, "pseudo-50/50")
        assert Fraction(data["mine"]["probability"]) == Fraction(1, 2)
        text = CliRunner().invoke(main, ["hint", "-"], input=WALLED_PAIR).output
        assert "guess 14,9" in text and "a coin flip lost either way" in text, text

    def test_flags_hidden(self):
        """--flags hidden questions a flag (it was refused by hint alone of the queries): the
        answer is the one for the same board with the flag written as a hidden cell, and
        with the flag taken as a mine the hint opens the cell the flag makes safe."""
        flagged = "1..\n2..\nF..\n"
        runner = CliRunner()
        asked = json.loads(runner.invoke(main, ["hint", "-", "--json", "--flags", "hidden"], input=flagged).stdout)
        plain = json.loads(runner.invoke(main, ["hint", "-", "--json"], input=flagged.replace("F", ".")).stdout)
        assert asked == plain and not asked["sure"]
        trusted = json.loads(runner.invoke(main, ["hint", "-", "--json"], input=flagged).stdout)
        assert trusted["sure"] and trusted["cell"] == {"row": 2, "col": 1}

    def test_inconsistent_exits_1(self):
        result = CliRunner().invoke(main, ["hint", str(EXAMPLES / "conflict.txt")])
        assert result.exit_code == 1 and "cannot all hold" in result.output

    def test_render(self, tmp_path):
        """--render draws the move and its reason."""
        out = tmp_path / "h.svg"
        result = CliRunner().invoke(main, ["hint", str(EXAMPLES / "unique.txt"), "--render", str(out)])
        assert result.exit_code == 0 and "<svg" in out.read_text()
        assert "unique.txt: hint" in out.read_text()  # titled with the file, as render and noguess are


class TestRenderCaption:
    def test_the_total_in_the_reason_is_said_under_the_picture(self, tmp_path):
        """A move forced by a number and the total: the caption said only "blue: the clues
        that force it" (the total has no square to outline). By hand: the 1 in the corner of
        a 3x2 board with one mine keeps the mine beside it, so 0,2 is safe only with the total."""
        board = tmp_path / "b.txt"
        for text, total in (("mines: 1\n1..\n...\n", True), ("0..\n...\n", False)):
            board.write_text(text)
            out = tmp_path / "h.svg"
            result = CliRunner().invoke(main, ["hint", str(board), "--render", str(out), "--json"])
            data = json.loads(result.stdout)
            assert data["sure"] and any(o["kind"] == "total" for o in data["reason"]) == total, data
            import re
            words = " ".join(re.findall(r">([^<>]+)</text>", out.read_text()))  # the caption is wrapped
            assert ("the clues that force it and the total mine count" in words) == total, words


def single_number_settles(board: Board) -> dict:
    """Cell -> True (mine) / False (safe) settled by single numbers alone, applied
    until they stick (written here, apart from satsweeper.singlepoint)."""
    known = {f: True for f in board.flags}
    while True:
        before = len(known)
        for clue, number in board.clues.items():
            around = [n for n in board.neighbours(clue) if n not in board.clues]
            mines = sum(known.get(n) is True for n in around)
            open_ = [n for n in around if n not in known]
            if open_ and mines == number:
                known.update({n: False for n in open_})
            elif open_ and number - mines == len(open_):
                known.update({n: True for n in open_})
        if len(known) == before:
            return {c: m for c, m in known.items() if c not in board.flags}


def comment(text: str) -> str:
    """A board file's comment lines as one line of words."""
    return " ".join(" ".join(line.lstrip("#") for line in text.splitlines() if line.startswith("#")).split())


class TestExamples:
    """What the bundled positions' comments (and the page's list) say of them holds: it
    said "the obvious rules are stuck here", and hint's first answer was a single number."""

    @pytest.mark.parametrize("name, single, hidden", [("beginner.txt", 3, 12), ("expert.txt", 14, 214)])
    def test_single_numbers_settle_what_the_comment_says(self, name, single, hidden):
        text = (EXAMPLES / name).read_text()
        board = parse_board(text)
        assert len(board.hidden_cells()) == hidden
        assert len(single_number_settles(board)) == single
        assert f"single numbers settle {single} of its {hidden} hidden cells" in comment(text)

    def test_beginner_settled_whole_by_counting(self):
        """All 12 hidden cells of the beginner position are determined (brute force)."""
        text = (EXAMPLES / "beginner.txt").read_text()
        status = oracle.status(problem_of(parse_board(text)))
        assert len(status) == 12 and "undetermined" not in status.values()
        assert "SAT and counting settle all 12" in comment(text)
        page = (EXAMPLES.parent / "satsweeper" / "web" / "static" / "index.html").read_text()
        label = page.split('<option value="beginner.txt">')[1].split("</option>")[0]
        assert label == "beginner 9×9: single numbers settle 3 cells, SAT all 12"


class TestBigBoards:
    """A hint's safest cells and counts on a board of many floating cells, found without
    asking each cell (a 1000x1000 board's hint took 29 s, 8 s now): the same as sorting them all."""

    @pytest.mark.parametrize("text", [
        "mines: 3000\n" + "1." + "." * 118 + "\n" + ("." * 120 + "\n") * 99,   # shared floating cells
        "mines: 5\n1..\n.2.\n...\n",                                              # every cell its own value
        "mines: 3000\n" + ("." * 120 + "\n") * 100,                               # all alike
    ])
    def test_safest_is_sorting_everything(self, text):
        from satsweeper.counting import tally
        from satsweeper.hint import _safest, _value_counts
        board = parse_board(text)
        counts = tally(board)
        values, whole = counts.scaled_mines, counts.scaled_count
        every = sorted((m, c) for c, m in dict(values).items())  # the oracle: ask every cell
        for leave_out in (every[0][1], every[-1][1], (99, 99)):
            want = [c for m, c in every if c != leave_out and m != whole][:40]
            assert _safest(counts, leave_out, 40) == want
        groups: dict = {}
        for m, _ in every:
            groups[m] = groups.get(m, 0) + 1
        assert _value_counts(counts) == groups

    def test_a_sure_move_builds_no_look_ahead(self, monkeypatch):
        """A board revealed at random (1000x1000, 807,000 numbers): hint took 18 s, most of it
        a full DP of components built for the look-ahead that only a guess asks.  A sure move
        now comes from the count that takes out what the single rules fix, and the same move
        and count of determined cells as the full DP gives."""
        import satsweeper.hint
        from satsweeper.components import Components
        from .test_counting import random_reveal
        board = random_reveal(60, seed=2)
        full = Components(problem_of(board)).tally()
        determined = sum(m in (0, full.scaled_count) for m in full.scaled_mines.values())

        def refused(*args, **kwargs):
            raise AssertionError("components built for a sure move")
        monkeypatch.setattr(satsweeper.hint, "Components", refused)
        answer = hint(board)
        assert answer.sure and answer.sure_moves == determined
        assert full.scaled_mines[answer.cell] == (full.scaled_count if answer.move is Move.FLAG else 0)


def _nested_pair_by_every_pair(problem: Problem, cell):
    """The oracle: every ordered pair of rules, the first in the problem's order that nests
    around ``cell`` and settles it (the search as it first was, quadratic in the rules)."""
    rules = problem.constraints
    for i, a in enumerate(rules):
        for j, b in enumerate(rules):
            if i != j and cell in b.cells and cell not in a.cells and a.cells < b.cells \
                    and b.mines - a.mines in (0, len(b.cells - a.cells)):
                return (a.origin, b.origin) if i < j else (b.origin, a.origin)
    return None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_nested_pair_is_the_first_pair_of_all(board):
    """_nested_pair looks only at the rules that hold the cell (all pairs of a 300x300 board's
    17,617 rules took 18 s a call, in hint, safe and the page): the same pair as trying all."""
    from satsweeper.hint import _nested_pair
    problem = problem_of(board)
    for cell in problem.cells:
        assert _nested_pair(problem, cell) == _nested_pair_by_every_pair(problem, cell)
