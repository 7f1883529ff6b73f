"""Gadgets: the library's verdicts, Pedersen's figures, repair, files and CLI.

Verdicts come from the component counter; the tests recount every case with
Ganak (a second method) and, where the board is small, by brute force.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from satsweeper import Status, check
from satsweeper.cli import main
from satsweeper.constraints import Constraint, Problem, problem_of
from satsweeper.counting import Engine, tally
from satsweeper.errors import BoardSyntaxError
from satsweeper.gadgets import format_gadget, parse_gadget, read_gadget, verify
from satsweeper.gadgets.gadget import PortValue
from satsweeper.gadgets.library import BUILDERS, build, forced_end, transpose, wire
from satsweeper.board import Board
from satsweeper.gadgets.repair import repair, repair_board
from satsweeper.textio import parse_board, read_board, read_puzzle

from .oracle import explanations

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "gadgets" / "figures"
GADGETS = ROOT / "gadgets"


def pinned(gadget, values) -> Problem:
    base = problem_of(gadget.board)
    rules = tuple(Constraint(frozenset({gadget.cell(p)}), int(v), PortValue(p, v))
                  for p, v in zip(gadget.inputs, values))
    return Problem(base.cells, base.constraints + rules)


class TestLibrary:
    @pytest.mark.parametrize("name", sorted(BUILDERS))
    def test_every_gadget_computes_its_claim(self, name):
        """Each library gadget forces its claimed outputs on every input."""
        assert verify(build(name)).computes

    @pytest.mark.parametrize("name", sorted(set(BUILDERS) - {"and", "and-tile"}))
    def test_unique_gadgets(self, name):
        """Everything but Kaye's AND (and the compiler's tile made from it): one explanation per input."""
        assert verify(build(name)).unique

    def test_two_changed_numbers_make_kayes_and_unique(self):
        """MaxSAT with uniqueness asked: Kaye's drawing computes AND uniquely after two number changes.

        Recounted by Ganak, case by case.
        """
        result = repair(build("and"), unique=True)
        assert [str(c) for c in result.changes] == ["8,6: 4 -> 3", "11,7: 4 -> 5"]
        assert result.verdict.computes and result.verdict.unique
        for values in itertools.product((False, True), repeat=2):
            assert tally(pinned(result.gadget, values), Engine.GANAK).count == 1

    def test_and_tile_keeps_kayes_surplus(self):
        """The compiler's AND tile keeps Kaye's numbers: two explanations when the AND's inputs are false.

        Its wires negate both inputs (t = ~l & ~b), so that is l = b = true.
        """
        verdict = verify(build("and-tile"))
        assert [c.explanations for c in verdict.cases] == [1, 1, 1, 2]

    def test_kaye_and_is_not_unique(self):
        """Kaye's AND: two explanations on (false, false), one otherwise (Pedersen)."""
        verdict = verify(build("and"))
        assert [c.explanations for c in verdict.cases] == [2, 1, 1, 1]
        assert not verdict.unique

    def test_mine_counts(self):
        """Wires and junctions hold the same number of mines for every value; the gates do not."""
        for name in ("wire-h", "split", "corner", "phase"):
            assert verify(build(name)).constant_mines
        for name in ("not", "and", "or", "xor", "crossover"):
            assert not verify(build(name)).constant_mines

    def test_crossover_swaps(self):
        """The crossover's top output is b and its bottom output a, on all four inputs."""
        verdict = verify(build("crossover"))
        assert verdict.computes and build("crossover").outputs == {"p": "b", "q": "a"}

    def test_forced_end_rejects_false(self):
        """The terminator is inconsistent on false and unique on true."""
        cases = verify(forced_end()).cases
        assert [c.explanations for c in cases] == [0, 1]

    @pytest.mark.parametrize("name", sorted(BUILDERS))
    def test_counts_agree_with_ganak(self, name):
        """Every case's count, recounted by the projected model counter."""
        gadget = build(name)
        for case in verify(gadget).cases:
            assert tally(pinned(gadget, case.inputs), Engine.GANAK).count == case.explanations

    @pytest.mark.parametrize("gadget", [wire(2), wire(3, vertical=True), forced_end()])
    def test_small_gadgets_by_brute_force(self, gadget):
        """Counts, forced outputs and mine totals against enumeration."""
        flags = len(gadget.board.flags)
        for case in verify(gadget).cases:
            found = list(explanations(pinned(gadget, case.inputs)))
            assert len(found) == case.explanations
            assert sorted({len(m) + flags for m in found}) == list(case.mines)
            for port, status in case.outputs.items():
                values = {gadget.cell(port) in m for m in found}
                assert status is {frozenset({True}): Status.MINE, frozenset({False}): Status.SAFE}.get(
                    frozenset(values), Status.UNDETERMINED)

    @pytest.mark.parametrize("periods", [2, 3, 8])
    def test_wires_of_any_length_and_both_orientations(self, periods):
        """A wire copies its input whatever its length, lying or standing."""
        for vertical in (False, True):
            verdict = verify(wire(periods, vertical))
            assert verdict.computes and verdict.unique

    def test_transpose_keeps_the_verdict(self):
        """Mirroring in the diagonal changes nothing the rules can see."""
        for name in ("not", "xor"):
            a, b = verify(build(name)), verify(transpose(build(name)))
            assert [c.explanations for c in a.cases] == [c.explanations for c in b.cases]
            assert b.computes


class TestFiles:
    @pytest.mark.parametrize("name", sorted(BUILDERS))
    def test_gadget_files_match_the_builders(self, name):
        """gadgets/NAME.txt is what `satsweeper gadget write` makes of the builder."""
        path = ROOT / "gadgets" / f"{name}.txt"
        assert read_gadget(path) == build(name)

    def test_round_trip(self):
        """format_gadget then parse_gadget gives the same gadget."""
        for name in BUILDERS:
            assert parse_gadget(format_gadget(build(name), "note")) == build(name)

    @pytest.mark.parametrize("text, found", [
        ("10x1x1\n" + "H" * 10 + "\n", "a JSMinesweeper .mine board"),
        ("a + b = 1\n", "a constraint system (equations)"),
        ("p cnf 1 1\n1 0\n", "a DIMACS formula (satsweeper compile makes it a board)"),
        ("mines: 1\n1.\n", "a plain board without them"),
    ])
    def test_another_format_is_named(self, text, found, tmp_path):
        """A .mine board given as a gadget said "expected 10 squares per row" of its header line,
        an equation file "expected header lines before the grid"; a plain board was told to add a
        'gadget:' header, which no gadget needs (it is named after its file)."""
        path = tmp_path / "g.txt"
        path.write_text(text)
        for read in (lambda: parse_gadget(text, "g.txt"), lambda: read_gadget(path)):
            with pytest.raises(BoardSyntaxError) as info:
                read()
            assert (info.value.line, info.value.column, info.value.found) == (1, 1, found)
            assert info.value.expected == ("a gadget file: a board with an 'inputs:' header and its "
                                           "claim ('outputs:', 'accepts:' or neither)")
        result = run("gadget", "verify", path)
        assert result.exit_code == 2 and found in result.stderr
        assert read_gadget(GADGETS / "not.txt").name == "not"  # a gadget file still reads

    @pytest.mark.parametrize("text, line, column, expected, found", [
        ("inputs: q\nlayout: tokens\nx 1 y\n", 1, 9, "a port naming a hidden cell", "'q'"),
        ("inputs: x\noutputs: q = x\nlayout: tokens\nx 1 y\n", 2, 10, "a port naming a hidden cell", "'q'"),
        # a port named twice: 'inputs: x x' made four cases of one wire, a second claim won silently,
        # and an output that is its own input passed (all three read as gadgets before)
        ("inputs: x, x\noutputs: y = x\nlayout: tokens\nx 1 y\n", 1, 12, "each input named once", "'x'"),
        ("inputs: x\noutputs: y = x; y = ~x\nlayout: tokens\nx 1 y\n", 2, 17, "an output port claimed once",
         "'y'"),
        ("inputs: x\noutputs: x = x\nlayout: tokens\nx 1 y\n", 2, 10, "an output port that is not an input",
         "'x'"),
        ("inputs: x\noutputs: y = x |\nlayout: tokens\nx 1 y\n", 2, 17, "a Boolean expression",
         "the end of the formula"),
        ("inputs: x\noutputs: y = (~x\nlayout: tokens\nx 1 y\n", 2, 17, "a Boolean expression",
         "the end of the formula"),
        ("inputs: x\noutputs:  y = x x\nlayout: tokens\nx 1 y\n", 2, 17, "a Boolean expression", "'x'"),
        ("inputs: x\noutputs: y = z\nlayout: tokens\nx 1 y\n", 2, 14, "an expression over the inputs x",
         "z in 'z'"),
        ("inputs: x\noutputs: y\nlayout: tokens\nx 1 y\n", 2, 10, "'outputs: NAME = EXPRESSION", "'y'"),
        ("inputs: x\naccepts:   x &\nlayout: tokens\nx 1 y\n", 2, 15, "a Boolean expression",
         "the end of the formula"),
    ])
    def test_bad_headers_say_where(self, text, line, column, expected, found):
        """Bad ports and claims are syntax errors on their header's line, at the column of what
        is wrong in a claim (they said column 1, and quoted pyeda's tokens: "EndToken(value=...")."""
        with pytest.raises(BoardSyntaxError) as info:
            parse_gadget(text, "g.txt")
        assert (info.value.line, info.value.column) == (line, column)
        assert expected in info.value.expected and info.value.found == found


class TestFigures:
    def test_wire_and_not(self):
        """Figures 3.2 and 3.3: a unique wire and a unique NOT."""
        for name, claim in (("fig-3.2-wire.txt", "x"), ("fig-3.3-not.txt", "~x")):
            gadget = read_gadget(FIGURES / name)
            assert gadget.outputs == {"y": claim}
            verdict = verify(gadget)
            assert verdict.computes and verdict.unique

    def test_not_keeps_the_printed_rows(self):
        """Figure 3.3 as reconstructed is the printed NOT: no square added, no number changed.

        Oracle: the rows as Pedersen prints them ('.' ends dropped, hidden squares
        written x or x'); the file's rows are those rows, or slices of them, and
        both flags stand in the centre's column (the centre: the square between the 3s).
        """
        printed_middle = "x' x 1 x' x 3 x' 3 x x' 1 x x'".split()
        printed_upper = "1 1 1 1 1 1 2 * 2 1 1 1 1 1 1".split()
        printed_lower = "1 1 1 1 1 2 * 2 1 1 1 1 1 1".split()
        rows = [line.split() for line in (FIGURES / "fig-3.3-not.txt").read_text().splitlines()
                if line and not line.startswith("#") and ":" not in line]

        def plain(row):
            return ["*" if t in "F*" else t if t.isdigit() else "x" for t in row if t != "-"]

        def is_slice(part, whole):
            return any(whole[i:i + len(part)] == part for i in range(len(whole) - len(part) + 1))

        assert plain(rows[2]) == plain(printed_middle)
        assert is_slice(plain(rows[1]), plain(printed_upper))
        assert is_slice(plain(rows[3]), plain(printed_lower))
        assert [plain(r) for r in (rows[0], rows[4])] == [["1", "1", "1"]] * 2
        centre = rows[2].index("3") + 1
        assert rows[2][centre + 1] == "3" and rows[1][centre] == rows[3][centre] == "F"
        gadget = read_gadget(FIGURES / "fig-3.3-not.txt")
        for x in (False, True):
            (found,) = explanations(pinned(gadget, (x,)))
            assert (gadget.cell("y") in found) == (not x)

    def test_or_and_xor_follow_pedersens_case_analysis(self):
        """The reconstructed OR and XOR place the lettered squares as Pedersen's proofs say.

        Oracle: the text of the cases (OR: both true -> s, t, a, b mines, c safe; both
        false -> b, c mines, s, t safe; one true -> t, a, c mines, s safe. XOR: both
        equal -> s mine, t safe; u only -> s and t; v only -> t, not s), against a
        brute-force enumeration; t is the output square next to the centre.
        """
        def letters(name, values, watched):
            gadget = read_gadget(FIGURES / name)
            (found,) = explanations(pinned(gadget, values))
            return {n for n in watched if gadget.cell(n) in found}

        text_or = {(1, 1): {"s", "t1", "a", "b"}, (0, 0): {"b", "c"},
                   (0, 1): {"t1", "a", "c"}, (1, 0): {"t1", "a", "c"}}
        for values, mines in text_or.items():
            assert letters("fig-3.5-or.txt", values, {"s", "t1", "a", "b", "c"}) == mines
        text_xor = {(1, 1): {"s"}, (0, 0): {"s"}, (1, 0): {"s", "t2"}, (0, 1): {"t2"}}
        for values, mines in text_xor.items():
            assert letters("fig-3.6-xor.txt", values, {"s", "t2"}) == mines

    def test_and_as_printed_is_kayes_and(self):
        """Figure 3.4 needs no number changed, and has 2 explanations on (0, 0)."""
        verdict = verify(read_gadget(FIGURES / "fig-3.4-and.txt"))
        assert verdict.computes
        assert [c.explanations for c in verdict.cases] == [2, 1, 1, 1]

    def test_and_two_explanations_are_mirror_images(self):
        """Kaye's AND at (0, 0): the two explanations of the figure's comment, by brute force.

        Oracle: the gate is symmetric top to bottom (s, x, y, z mirror r, a, b, c), so
        its two explanations must mirror each other; Pedersen's text names the first
        s, x, z, b, c, whose mirror r, a, c, y, z is not the second (r, a, c, x, y).
        """
        gadget = read_gadget(FIGURES / "fig-3.4-and.txt")
        mirror = dict(zip("sxyzrabc", "rabcsxyz"))
        found = [frozenset(n for n in mirror if gadget.cell(n) in e)
                 for e in explanations(pinned(gadget, (False, False)))]
        assert set(found) == {frozenset("sxzab"), frozenset("racxy")}
        assert {frozenset(mirror[n] for n in found[0])} == {found[1]}

    def test_or_as_printed_is_inconsistent(self):
        """Figure 3.5 as printed: check names three clashing clues."""
        answer = check(read_board(FIGURES / "fig-3.5-or-as-printed.txt"))
        assert not answer.consistent
        assert {c.cell for c in answer.conflict} == {(1, 3), (3, 4), (4, 5)}

    def test_or_repair_is_three_numbers_and_gives_the_reconstruction(self):
        """MaxSAT finds three changes; they give fig-3.5-or.txt, a unique OR."""
        result = repair(read_gadget(FIGURES / "fig-3.5-or-as-printed.txt"))
        assert len(result.changes) == 3
        assert result.verdict.computes and result.verdict.unique
        assert result.gadget.board.clues == read_gadget(FIGURES / "fig-3.5-or.txt").board.clues

    def test_xor(self):
        """Figure 3.6: a unique XOR with no number changed."""
        verdict = verify(read_gadget(FIGURES / "fig-3.6-xor.txt"))
        assert verdict.computes and verdict.unique

    def test_puzzle_is_unique_with_safe_corners(self):
        """Figure 3.7: one explanation, the corners safe (as Pedersen says)."""
        board = read_board(FIGURES / "fig-3.7-puzzle.txt")
        found = list(explanations(problem_of(board)))
        assert len(found) == 1
        assert not {(0, 0), (0, 5), (5, 0), (5, 5)} & found[0]

    def test_figures_match_the_library(self):
        """The library's gate templates are the reconstructed figures' grids."""
        pairs = {"not": "fig-3.3-not.txt", "and": "fig-3.4-and.txt", "or": "fig-3.5-or.txt",
                 "xor": "fig-3.6-xor.txt"}
        for name, fig in pairs.items():
            assert build(name).board == read_gadget(FIGURES / fig).board


class TestRepair:
    def test_nothing_to_repair(self):
        """A working gadget needs no change."""
        assert repair(build("xor")).changes == ()

    def test_unrepairable(self):
        """When no numbers can work, repair says so instead of inventing."""
        gadget = parse_gadget("inputs: x\noutputs: y = x\nlayout: tokens\nx 2 y\n")
        assert repair(gadget).gadget is None


def _near(height, width, cell):
    r, c = cell
    return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < height and 0 <= c + dc < width]


def _brute_repairs(height, width, clues, flags, total):
    """(fewest changes for a consistent board, for a unique one), None when
    impossible, by enumerating every mine set of the hidden cells: a mine set
    m makes the numbers it induces; a board with those numbers has m as an
    explanation, and exactly one when no other set induces the same numbers."""
    hidden = [(r, c) for r in range(height) for c in range(width)
              if (r, c) not in clues and (r, c) not in flags]
    order = sorted(clues)
    induced = []
    for bits in itertools.product((0, 1), repeat=len(hidden)):
        mines = {cell for cell, bit in zip(hidden, bits) if bit} | set(flags)
        if total is not None and len(mines) != total:
            continue
        induced.append(tuple(sum(n in mines for n in _near(height, width, c)) for c in order))
    printed = tuple(clues[c] for c in order)
    cost = [sum(a != b for a, b in zip(v, printed)) for v in induced]
    once = [k for v, k in zip(induced, cost) if induced.count(v) == 1]
    return (min(cost) if cost else None), (min(once) if once else None)


class TestRepairBoard:
    """repair on a plain board, against brute force over every mine set."""

    @pytest.mark.parametrize("seed", range(60))
    def test_fewest_changes_match_brute_force(self, seed):
        """Random 3x3 and 3x4 boards, some with a total, some with numbers that see
        no hidden cell: the fewest changes for consistency and for uniqueness."""
        import random
        rng = random.Random(seed)
        height, width = 3, rng.choice((3, 4))
        clues, flags = {}, set()
        for cell in itertools.product(range(height), range(width)):
            roll = rng.random()
            if roll < 0.1:
                flags.add(cell)
            elif roll < 0.55:
                clues[cell] = rng.randint(0, len(_near(height, width, cell)))
        hidden = height * width - len(clues) - len(flags)
        total = rng.choice([None, len(flags) + rng.randint(0, hidden)])
        board = Board(height, width, clues, frozenset(flags), total_mines=total)
        consistent, unique = _brute_repairs(height, width, clues, flags, total)
        found = repair_board(board, attempts=10_000)
        if consistent is None:
            assert found.gadget is None
        else:
            assert len(found.changes) == consistent and found.verdict.computes
        found = repair_board(board, attempts=10_000, unique=True)
        if unique is None:
            assert found.gadget is None or not found.verdict.unique
        else:
            assert len(found.changes) == unique and found.verdict.unique
            assert _brute_repairs(height, width, found.gadget.board.clues, flags, total)[1] == 0

    @pytest.mark.parametrize("seed", range(25))
    def test_unique_within_the_default_attempts(self, seed):
        """--unique blocked one choice of numbers at a time: on a 5x4 board that needs three
        changes (a puzzle author's) it gave up after its 20 attempts ("no change found",
        exit 1) and found them at attempt 70. Refuting every choice a pair of explanations
        fits finds the brute-force fewest within the default on random 4x5 and 5x4 boards,
        or proves there is none (complete), never runs out."""
        import random
        rng = random.Random(1000 + seed)
        height, width = rng.choice(((4, 5), (5, 4)))
        clues = {}
        for cell in itertools.product(range(height), range(width)):
            if rng.random() < 0.45:
                clues[cell] = rng.randint(0, min(4, len(_near(height, width, cell))))
        hidden = height * width - len(clues)
        if hidden > 13:  # keep the brute force quick: reveal more
            for cell in rng.sample(sorted(set(itertools.product(range(height), range(width))) - set(clues)),
                                   hidden - 13):
                clues[cell] = rng.randint(0, 3)
        total = rng.choice([None, rng.randint(1, min(height * width - len(clues), 6))])
        board = Board(height, width, clues, frozenset(), total_mines=total)
        _, unique = _brute_repairs(height, width, clues, set(), total)
        found = repair_board(board, unique=True)
        if unique is None:
            assert found.complete and (found.gadget is None or not found.verdict.unique)
        else:
            assert found.verdict.unique and len(found.changes) == unique, (found.attempts, found.complete)
            assert _brute_repairs(height, width, found.gadget.board.clues, set(), total)[1] == 0

    def test_the_authors_board_that_needed_seventy_attempts(self):
        """The puzzle author's board: three changes (brute force), found in a few attempts; with
        --attempts 2 the limit is said (exit 3, "complete": false), not a "no" (exit 1)."""
        text = "...1.\n52...\n1..21\n...10\n"
        board = parse_board(text)
        assert _brute_repairs(4, 5, board.clues, set(), None)[1] == 3
        found = repair_board(board, unique=True)
        assert len(found.changes) == 3 and found.verdict.unique and found.attempts <= 20
        result = run("repair", "-", "--unique", "--attempts", "2", "--json", input=text)
        data = json.loads(result.stdout)
        assert result.exit_code == 3 and (data["repaired"], data["complete"], data["attempts"]) == (False, False, 2)
        assert data["output"] is None
        assert "found in 2 attempts (--attempts tries more)" in run("repair", "-", "--unique", "--attempts", "2",
                                                                    input=text).stdout

    def test_a_board_that_needs_forty_attempts_and_one_that_cannot_be_made_unique(self):
        """A 4x4 board of four corner 1s needs four changes (brute force) and 42 candidates: the
        default (20) gave up, exit 3; it is 200 now. Expert's example has cells next to no number,
        which a mine and a safe one swap under any numbers: refuted a pair at a time it ran 500
        attempts (8 s) without an answer; tied at once, it is proved impossible (exit 1)."""
        text = "1..1\n....\n....\n1..1\n"
        board = parse_board(text)
        assert _brute_repairs(4, 4, board.clues, set(), None)[1] == 4
        result = run("repair", "-", "--unique", "--json", input=text)
        data = json.loads(result.stdout)
        assert result.exit_code == 0 and data["repaired"] and len(data["changes"]) == 4, data
        expert = Path(__file__).resolve().parent.parent / "examples" / "expert.txt"
        result = run("repair", expert, "--unique", "--json")
        data = json.loads(result.stdout)
        assert result.exit_code == 1 and data["complete"] and not data["repaired"] and data["attempts"] <= 5, data

    def test_a_number_with_no_hidden_neighbour_is_changed(self):
        """A 3 among numbers and one flag must become 1 (it was kept, and the board
        called beyond repair)."""
        board = Board(2, 2, {(0, 0): 3, (1, 0): 1, (1, 1): 1}, frozenset({(0, 1)}))
        assert _brute_repairs(2, 2, board.clues, board.flags, None)[0] == 1
        assert [str(c) for c in repair_board(board).changes] == ["0,0: 3 -> 1"]

    def test_the_total_is_kept(self):
        """mines: 1 and a 2 that sees two hidden cells: the 2 changes, not the total."""
        board = Board(1, 3, {(0, 1): 2}, total_mines=1)
        assert _brute_repairs(1, 3, board.clues, set(), 1)[0] == 1
        result = repair_board(board)
        assert [str(c) for c in result.changes] == ["0,1: 2 -> 1"]
        assert result.verdict.computes


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


class TestCli:
    def test_verify_and(self):
        """Kaye's AND: exit 0, two explanations shown, not unique."""
        result = run("gadget", "verify", "and")
        assert result.exit_code == 0
        assert "0 0  outputs 0 (claimed 0), 2 explanations" in result.output
        assert "unique: no (1 accepted input with several explanations)" in result.output

    def test_not_unique_for_want_of_any_says_so(self, tmp_path):
        """A wire whose input 1 has no explanation (its 3 made a 1) said only "unique: no", read
        as several explanations: now it says which (the other input's one explanation counted by
        brute force over the 2**3 hidden squares)."""
        path = tmp_path / "w.txt"
        path.write_text("gadget: w\ninputs: a\noutputs: b = a\nlayout: tokens\n"
                        "1 1 1 1 1 1 1\n. a 1 . . 1 b\n1 1 1 1 1 1 1\n")
        gadget = read_gadget(path)
        cases = verify(gadget).cases
        board = gadget.board
        for case in cases:
            pinned = {gadget.cell("a"): case.inputs[0]}
            brute = sum(all(sum(layout[board.hidden_cells().index(n)] for n in board.neighbours(c)
                                if n in board.hidden_cells()) == k for c, k in board.clues.items())
                        for layout in itertools.product((0, 1), repeat=len(board.hidden_cells()))
                        if all(layout[board.hidden_cells().index(c)] == v for c, v in pinned.items()))
            assert case.explanations == brute
        assert [c.explanations for c in cases] == [1, 0]
        result = run("gadget", "verify", path)
        assert result.exit_code == 1 and "unique: no (1 accepted input with none)" in result.output

    def test_verify_json(self):
        result = run("gadget", "verify", "or", "--json")
        data = json.loads(result.stdout)
        assert data["computes"] and data["unique"]
        assert [c["explanations"] for c in data["cases"]] == ["1", "1", "1", "1"]

    @pytest.mark.parametrize("name", list(BUILDERS))
    def test_verify_names_the_gadget_asked_for(self, name):
        """verify's heading and its file's 'gadget:' line carry the name it was asked by
        (wire-v was called wire-v-t); the wire's ports and cells are wire-h's, turned."""
        result = run("gadget", "verify", name)
        assert result.output.startswith(f"gadget {name}: ")
        assert f"gadget: {name}\n" in (GADGETS / f"{name}.txt").read_text()
        if name == "wire-v":
            h, v = build("wire-h"), build("wire-v")
            assert {(c, r) for r, c in h.board.clues} == set(v.board.clues) and v.cell("b") == h.cell("b")[::-1]

    def test_broken_figure_exits_1(self):
        result = run("gadget", "verify", FIGURES / "fig-3.5-or-as-printed.txt")
        assert result.exit_code == 1 and "no input has an explanation" in result.output
        assert "no ()" not in result.output
        # The oracle: the board is inconsistent whatever its inputs.
        assert not check(read_board(FIGURES / "fig-3.5-or-as-printed.txt")).consistent

    def test_repair_writes_the_fixed_gadget(self, tmp_path):
        out = tmp_path / "or.txt"
        result = run("repair", FIGURES / "fig-3.5-or-as-printed.txt", "-o", out)
        assert result.exit_code == 0 and "change 3 numbers" in result.output
        fixed = read_gadget(out)
        assert verify(fixed).unique
        # Named as its file, not "fig-3.5-or-as-printed" (the broken figure's name); the
        # comments say where it came from and which numbers changed.
        assert fixed.name == "or"
        # The author's comments first (they were dropped: the figure's source, what was undone).
        authors = [line for line in (FIGURES / "fig-3.5-or-as-printed.txt").read_text().splitlines()
                   if line.startswith("#")]
        written = out.read_text().splitlines()
        assert authors and written[:len(authors)] == authors
        assert written[len(authors):len(authors) + 2] == ["# gadget fig-3.5-or-as-printed, its numbers repaired:",
                                                          "# repaired 3,4: 3 -> 2"]

    def test_repair_a_plain_board(self, tmp_path):
        """A hand-made board with a typo: repair names the number to change and
        writes a board that check calls consistent and unique (brute force: one
        explanation)."""
        source = tmp_path / "typo.txt"
        source.write_text("mines: 3\n..1..\n.2.1.\n11100\n")
        assert _brute_repairs(3, 5, read_board(source).clues, set(), 3) == (1, 2)
        out = tmp_path / "fixed.txt"
        result = run("repair", source, "--unique", "-o", out)
        assert result.exit_code == 0, result.output
        assert "change 2 numbers" in result.output and "unique" in result.output
        fixed = read_board(out)
        assert _brute_repairs(3, 5, fixed.clues, set(), 3)[1] == 0
        answer = run("repair", "-", "--json", input=source.read_text())
        assert json.loads(answer.stdout)["changes"] == [{"row": 2, "col": 2, "printed": 1, "repaired": 0}]

    def test_repair_keeps_the_authors_comments(self, tmp_path):
        """repair -o over its own input (through stdin) keeps the author's '#' lines (they
        were lost), then its own; the board written is the repaired one."""
        source = tmp_path / "typo.txt"
        source.write_text("# my puzzle, v1\nmines: 3\n..1..\n# the middle row\n.2.1.\n11100\n")
        result = run("repair", "-", "-o", source, input=source.read_text())
        assert result.exit_code == 0, result.output
        lines = source.read_text().splitlines()
        assert lines[:3] == ["# my puzzle, v1", "# the middle row", "# repaired 2,2: 1 -> 0"]
        assert read_board(source).clues[(2, 2)] == 0

    def test_repair_keeps_a_layout(self, tmp_path):
        """A layout file (its mines '*' and its start) written back as a layout: the
        '*' were dropped, and the start, leaving a board of hidden cells only."""
        source = Path(__file__).resolve().parent.parent / "examples" / "layout.txt"
        out = tmp_path / "kept.txt"
        result = run("repair", source, "-o", out)
        assert result.exit_code == 0, result.output
        given, written = read_puzzle(source), read_puzzle(out)
        assert len(given.mines) == 10 and given.start == (4, 4)
        assert (written.board, written.mines, written.start) == (given.board, given.mines, given.start)

    def test_repair_unique_of_a_layout(self, tmp_path):
        """--unique changes a number, which no longer fits the input's mines: the file
        written is a layout still (textio reads it, its numbers checked against its
        '*'), whose mines are the repaired board's one explanation (brute force)."""
        source = tmp_path / "layout.txt"
        source.write_text("mines: 3\nstart: 0,0\n..*2\n*..*\n")
        out = tmp_path / "unique.txt"
        result = run("repair", source, "--unique", "-o", out)
        assert result.exit_code == 0, result.output
        written = read_puzzle(out)
        assert written.board.clues[(0, 3)] == 3 and written.start == (0, 0)
        assert explanations(problem_of(written.board)) == [written.mines]
        assert written.mines != read_puzzle(source).mines
        # said on screen and in --json, not only in the file's comments
        assert f"{out}: the mines ('*'): the repaired numbers' only explanation" in result.output
        data = json.loads(run("repair", source, "--unique", "-o", tmp_path / "again.txt", "--json").stdout)
        assert data["mines"] == "replaced"
        kept = json.loads(run("repair", Path(__file__).resolve().parent.parent / "examples" / "layout.txt",
                              "-o", tmp_path / "kept.txt", "--json").stdout)
        assert kept["mines"] == "kept"

    def test_repair_unique_says_when_numbers_cannot(self, tmp_path):
        """A bare 50/50: no change of numbers makes it unique; exit 1, said so."""
        source = tmp_path / "fifty.txt"
        source.write_text("mines: 1\n..\n11\n")
        assert _brute_repairs(2, 2, read_board(source).clues, set(), 1) == (0, None)
        result = run("repair", source, "--unique")
        assert result.exit_code == 1
        assert "makes it unique" in result.output and "already works" not in result.output
        assert "proved: every choice of numbers leaves two explanations;" in result.output
        # with -o: nothing written, and said so (the changes printed are no board written)
        out = tmp_path / "fixed.txt"
        result = run("repair", source, "--unique", "-o", out)
        assert result.exit_code == 1 and not out.exists()
        assert result.output.rstrip().endswith(f"{out} not written: no repair found")
        answer = run("repair", source, "--unique", "-o", out, "--json")
        assert answer.exit_code == 1 and json.loads(answer.stdout)["output"] is None

    def test_unknown_gadget_is_bad_input(self):
        result = run("gadget", "verify", "nand")
        assert result.exit_code == 2 and "expected a gadget name" in result.output

    @pytest.mark.parametrize("args, files", [(["gadget", "verify"], "or a gadget file"),
                                             (["repair"], "or a board or gadget file")])
    def test_missing_file_says_no_such_file(self, args, files):
        """A file name that is not there says so (it said only "expected a gadget name"), and
        repair, which takes plain boards too, says so too."""
        result = run(*args, "nosuch.txt")
        assert result.exit_code == 2
        assert f"{files} (got 'nosuch.txt': no gadget of that name, and no such file)" in result.output

    def test_list(self):
        result = run("gadget", "list")
        assert result.exit_code == 0 and all(name in result.output for name in BUILDERS)

    def test_write_gives_the_repository_s_files_and_says_what_it_replaced(self, tmp_path):
        """gadget write makes gadgets/'s files byte for byte; run again, it says it replaced
        as many files as the directory holds (it replaced them silently)."""
        repository = Path(__file__).resolve().parent.parent / "gadgets"
        first = run("gadget", "write", tmp_path / "g")
        made = sorted((tmp_path / "g").iterdir())
        assert first.exit_code == 0 and "replaced" not in first.output and made
        assert all(f.read_bytes() == (repository / f.name).read_bytes() for f in made)
        again = run("gadget", "write", tmp_path / "g")
        assert f"(replaced the {len(made)} files that were there)" in again.output

    def test_write_names_the_balanced_gadgets_too(self, tmp_path):
        """A balanced gadget's board was in no file (gadget write made only the library's, and
        the advice for 'count balanced-not' named it): gadget write DIR NAME... writes it, and
        the file read back is the gadget built; an unknown name writes nothing."""
        from satsweeper.gadgets import named_gadget, read_gadget
        result = run("gadget", "write", tmp_path / "g", "balanced-not", "balanced-and", "--json")
        data = json.loads(result.output)
        assert result.exit_code == 0 and data["files"] == [str(tmp_path / "g" / f"balanced-{n}.txt")
                                                           for n in ("not", "and")]
        assert "replaced" not in data
        for name in ("balanced-not", "balanced-and"):
            read = read_gadget(tmp_path / "g" / f"{name}.txt")
            built = named_gadget(name)
            assert (read.board, read.inputs, read.outputs) == (built.board, built.inputs, built.outputs)
        again = json.loads(run("gadget", "write", tmp_path / "g", "balanced-not", "--json").output)
        assert again["replaced"] == [str(tmp_path / "g" / "balanced-not.txt")]
        wrong = run("gadget", "write", tmp_path / "h", "balanced-not", "nope")
        assert wrong.exit_code == 2 and "'nope': no gadget of that name" in wrong.output
        assert not (tmp_path / "h").exists()

    def test_list_sizes_are_the_files_and_line_up(self):
        """Each size is WIDTHxHEIGHT of the gadget's file in gadgets/ (rows of squares
        counted there), and every column starts at the same place on every line."""
        lines = run("gadget", "list").output.splitlines()
        for line in lines:
            name, size = line.split()[:2]
            path = Path(__file__).resolve().parent.parent / "gadgets" / f"{name}.txt"
            if path.exists():
                rows = [r for r in path.read_text().splitlines()
                        if r.strip() and not r.startswith("#") and ":" not in r]
                tokenized = "layout: tokens" in path.read_text()
                width = len(rows[0].split()) if tokenized else len(rows[0].strip())
                assert size == f"{width}x{len(rows)}", name
        assert len({line.index(" inputs ") for line in lines}) == 1
