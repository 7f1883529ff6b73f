"""Gadgets: boards with named input and output cells and a claimed function.

A gadget is a board plus *ports*: named hidden cells whose mine/no-mine value
is a Boolean signal (a mine means true, as in Kaye's wires).  It claims that
its outputs are given functions of its inputs.  :func:`verify` checks the
claim with the counting engine, one input combination at a time: is the board
consistent, which output values are forced, how many explanations are there,
and how many mines do they hold.

As a file, a gadget is a native board (``layout: tokens`` so ports can carry
names) with three more headers::

    gadget: not
    inputs: x
    outputs: y = ~x

A terminator that forces its wire true says ``accepts: a`` instead of (or
besides) ``outputs:``.  Expressions use pyeda's syntax (``~ & | ^ =>``); several outputs are
separated by ``;``.
"""

from __future__ import annotations

import itertools
import re
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from math import comb
from pathlib import Path
from typing import Mapping

from pyeda.boolalg.expr import expr as pyeda_expr, exprvar

from ..board import Board, Cell
from ..constraints import Constraint, Problem, problem_of
from ..errors import BoardSyntaxError, SatsweeperError, TooComplexError
from ..reasoning import Reasoner, Status
from ..textio import Puzzle, format_board, format_of, parse_puzzle, read_text
from .. import components
from ..components import Progress, tally

MAX_INPUTS = 16  # every combination is counted: 2^16 counts is minutes already


@dataclass(frozen=True)
class Gadget:
    """A board whose named cells carry Boolean signals.

    Attributes:
        name: what the gadget is called (``or``, ``wire-h`` ...).
        board: the configuration; ports are named hidden cells.
        inputs: input port names, in order.
        outputs: output port name -> claimed function of the inputs
            (pyeda expression text).
        accepts: the inputs for which the board claims to be consistent
            (an expression; ``1``, all of them, unless the gadget is a
            terminator that forces its wire).
    """

    name: str
    board: Board
    inputs: tuple[str, ...]
    outputs: Mapping[str, str] = field(default_factory=dict)
    accepts: str = "1"

    def __post_init__(self) -> None:
        object.__setattr__(self, "outputs", dict(self.outputs))
        for port in self.ports():
            if self.board.cell_by_name(port) is None:
                raise SatsweeperError(f"gadget {self.name}: port '{port}' must name a hidden cell of the board")

    def __hash__(self) -> int:
        return hash((self.name, self.board, self.inputs, tuple(self.outputs.items()), self.accepts))

    def ports(self) -> list[str]:
        return list(self.inputs) + list(self.outputs)

    @cached_property
    def sweep(self) -> tuple[Cell, ...] | None:
        """The hidden cells breadth first, if that counts the gadget thinner than a column sweep; else None.

        Breadth first through the numbers (two cells are linked when a
        number sees both), from the leftmost input; cells it cannot reach
        follow row by row.  The compiler counts a board in a sweep, column
        by column, and stamps a tile whose sweep this is in this order
        instead: a column sweep takes a vertical wire of junctions (a
        balanced tile's) one column at a time and keeps every junction
        open until the last column comes, doubling the DP's states per
        junction.  Chosen when the gadget's own count has fewer states in
        all and at most half as many in its widest layer: the plain tiles
        keep their columns (Pedersen's XOR would halve a little, and cost
        its boards 1-3% more states).

        >>> from satsweeper.gadgets.balance import balanced_tile
        >>> balanced_tile("or").sweep is not None
        True
        """
        board = self.board
        hidden = board.hidden_cells()
        linked: dict[Cell, set[Cell]] = {cell: set() for cell in hidden}
        for number in board.clues:
            near = [n for n in board.neighbours(number) if n in linked]
            for cell in near:
                linked[cell].update(near)
        starts = sorted((self.cell(p) for p in self.inputs), key=lambda cell: (cell[1], cell[0]))
        order: dict[Cell, None] = {}
        for start in starts[:1] + hidden:
            if start in order:
                continue
            order[start] = None
            queue = deque([start])
            while queue:
                for cell in sorted(linked[queue.popleft()]):
                    if cell not in order:
                        order[cell] = None
                        queue.append(cell)
        wide = tuple(order)
        problem = problem_of(board)
        costs = []
        for cells in (wide, sorted(hidden, key=lambda cell: cell[1])):
            progress = Progress()
            components.count(problem, cells, progress)
            costs.append((progress.states, progress.widest))
        (states, widest), (column_states, column_widest) = costs
        return wide if states < column_states and 2 * widest <= column_widest else None

    def cell(self, port: str) -> Cell:
        """The cell of a port."""
        return self.board.cell_by_name(port)

    def expected(self, values: tuple[bool, ...]) -> dict[str, bool]:
        """The claimed output values for input ``values``.

        >>> from satsweeper.textio import parse_board
        >>> g = Gadget("id", parse_board("layout: tokens\\nx 1 y\\n"), ("x",), {"y": "~x"})
        >>> g.expected((True,))
        {'y': False}
        """
        point = self._point(values)
        return {out: pyeda_expr(text).restrict(point).is_one() for out, text in self.outputs.items()}

    def accepted(self, values: tuple[bool, ...]) -> bool:
        """Whether the gadget claims an explanation for input ``values``."""
        return pyeda_expr(self.accepts).restrict(self._point(values)).is_one()

    def _point(self, values: tuple[bool, ...]) -> dict:
        return {exprvar(name): int(v) for name, v in zip(self.inputs, values)}


# --------------------------------------------------------------------- files

def parse_gadget(text: str, source: str = "<string>") -> Gadget:
    """Read a gadget file (a native board with gadget headers).

    >>> g = parse_gadget("gadget: wire\\ninputs: x\\noutputs: y = x\\nlayout: tokens\\nx 1 . 1 y\\n")
    >>> g.inputs, g.outputs, g.cell("y")
    (('x',), {'y': 'x'}, (0, 4))
    """
    _check_native(text, source)
    return gadget_of(parse_puzzle(text, source), source)


def read_gadget(path: str | Path) -> Gadget:
    """Read a gadget file; errors carry file, line and column."""
    name, text = read_text(path)
    return parse_gadget(text, name)


GADGET_FILE = "a gadget file: a board with an 'inputs:' header and its claim ('outputs:', 'accepts:' or neither)"
OTHER_FORMATS = {"mine": "a JSMinesweeper .mine board", "system": "a constraint system (equations)",
                 "dimacs": "a DIMACS formula (satsweeper compile makes it a board)"}


def _check_native(text: str, source: str) -> None:
    """A .mine board read as a gadget said "expected 10 squares per row" of its header."""
    kind = format_of(text) if isinstance(text, str) else "native"
    if kind != "native":
        raise BoardSyntaxError(source, 1, 1, GADGET_FILE, OTHER_FORMATS[kind])


def gadget_of(puzzle: Puzzle, source: str) -> Gadget:
    """The gadget a parsed file describes: its board and its headers' ports and claims."""
    extras, board = puzzle.extras, puzzle.board
    if not extras:
        raise BoardSyntaxError(source, 1, 1, GADGET_FILE, "a plain board without them")
    name = extras.get("gadget", (Path(source).stem, 0, 1))[0]
    inputs_text, inputs_line, inputs_column = extras.get("inputs", ("", 1, 1))
    ports = list(re.finditer(r"[^\s,]+", inputs_text))  # separated by commas or white space
    inputs = tuple(found.group() for found in ports)
    seen: set[str] = set()
    for found in ports:
        port = found.group()
        if port in seen:  # 'inputs: a a' made four cases of one wire, two of them contradictory
            raise BoardSyntaxError(source, inputs_line, inputs_column + found.start(), "each input named once",
                                   repr(port))
        seen.add(port)
        _check_port(board, port, source, inputs_line, inputs_column + found.start())
    outputs: dict[str, str] = {}
    if "outputs" in extras:
        text_out, line, column = extras["outputs"]
        for piece in re.finditer(r"[^;]+", text_out):
            part = piece.group().strip()
            if not part:
                continue
            begins = column + piece.start() + piece.group().index(part)  # the part's column, for its errors
            port, eq, claim = part.partition("=")
            port, claim = port.strip(), claim.strip()
            if not eq or not claim:
                raise BoardSyntaxError(source, line, begins, "'outputs: NAME = EXPRESSION; ...'", repr(part))
            if port in outputs or port in inputs:  # a second claim silently won; 'a = a' passed
                said = "claimed once" if port in outputs else "that is not an input"
                raise BoardSyntaxError(source, line, begins, f"an output port {said}", repr(port))
            _check_port(board, port, source, line, begins)
            _check_claim(claim, inputs, source, line, begins + part.index(claim, part.index("=") + 1))
            outputs[port] = claim
    accepts = "1"
    if "accepts" in extras:
        accepts, line, column = extras["accepts"]
        _check_claim(accepts, inputs, source, line, column)
    return Gadget(name, board, inputs, outputs, accepts)


def format_gadget(gadget: Gadget, comment: str = "") -> str:
    """A gadget as file text; :func:`parse_gadget` reads it back equal."""
    lines = [f"# {line}".rstrip() for line in comment.splitlines()]
    lines.append(f"gadget: {gadget.name}")
    lines.append(f"inputs: {' '.join(gadget.inputs)}")
    if gadget.outputs:
        lines.append("outputs: " + "; ".join(f"{p} = {c}" for p, c in gadget.outputs.items()))
    if gadget.accepts != "1":
        lines.append(f"accepts: {gadget.accepts}")
    return "\n".join(lines) + "\n" + format_board(gadget.board)


def _check_port(board: Board, port: str, source: str, line: int, column: int) -> None:
    cell = board.cell_by_name(port)
    if cell is None:
        raise BoardSyntaxError(source, line, column, "a port naming a hidden cell of the grid", repr(port))


def _check_claim(claim: str, inputs: tuple[str, ...], source: str, line: int, column: int = 1) -> None:
    """A port's claim (or ``accepts:``) is a formula over the inputs; its errors say where in
    the line (``column``: where the claim begins), as :func:`~.formula.parse_formula` finds them."""
    from .formula import parse_formula
    try:
        support = set(parse_formula(claim, source).variables)
    except BoardSyntaxError as err:  # the claim is one line: its column, shifted to the header's
        raise BoardSyntaxError(source, line, column + err.column - 1, "a Boolean expression such as 'u | ~v'",
                               err.found) from None
    unknown = sorted(support - set(inputs))
    if unknown:
        raise BoardSyntaxError(source, line, column, "an expression over the inputs " + " ".join(inputs),
                               f"{', '.join(unknown)} in {claim!r}")


# -------------------------------------------------------------- verification

@dataclass(frozen=True)
class PortValue:
    """The origin of the rule that fixes an input port."""

    port: str
    value: bool

    def __str__(self) -> str:
        return f"input {self.port}={int(self.value)}"


@dataclass(frozen=True)
class Case:
    """One input combination.

    Attributes:
        inputs: the input values, in the gadget's order.
        explanations: placements of mines consistent with the board and inputs.
        outputs: per output port, MINE (true in every explanation), SAFE
            (false in every one) or UNDETERMINED; empty if there is no explanation.
        expected: the claimed output values.
        mines: the distinct mine totals (flags included) over the explanations.
    """

    inputs: tuple[bool, ...]
    explanations: int
    outputs: Mapping[str, Status]
    expected: Mapping[str, bool]
    mines: tuple[int, ...]
    accepted: bool = True

    @property
    def consistent(self) -> bool:
        return self.explanations > 0

    @property
    def correct(self) -> bool:
        """As claimed: inconsistent if not accepted, else every output forced to its value."""
        if not self.accepted:
            return not self.consistent
        want = {True: Status.MINE, False: Status.SAFE}
        return self.consistent and all(self.outputs[p] is want[v] for p, v in self.expected.items())


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify` found, case by case, and its summary."""

    gadget: str
    inputs: tuple[str, ...]
    cases: tuple[Case, ...]

    @property
    def computes(self) -> bool:
        """Accepted inputs are consistent and force the claimed outputs; others are inconsistent."""
        return all(case.correct for case in self.cases)

    @property
    def unique(self) -> bool:
        """Exactly one explanation for every accepted input combination."""
        return all(case.explanations == 1 for case in self.cases if case.accepted)

    @property
    def constant_mines(self) -> bool:
        """Every explanation of every input holds the same number of mines."""
        return len({m for case in self.cases for m in case.mines}) == 1


def verify(gadget: Gadget) -> Verdict:
    """Check a gadget's claim on every input combination.

    >>> from satsweeper.textio import parse_board
    >>> g = Gadget("not", parse_board("layout: tokens\\nx 1 y\\n"), ("x",), {"y": "~x"})
    >>> v = verify(g)
    >>> v.computes, v.unique, [c.explanations for c in v.cases]
    (True, True, [1, 1])
    """
    if len(gadget.inputs) > MAX_INPUTS:
        raise TooComplexError(f"a gadget of at most {MAX_INPUTS} inputs (got {len(gadget.inputs)}: "
                              f"2^{len(gadget.inputs)} combinations to count)")
    base = problem_of(gadget.board)
    cases = []
    for values in itertools.product((False, True), repeat=len(gadget.inputs)):
        cases.append(_case(gadget, base, values))
    return Verdict(gadget.name, gadget.inputs, tuple(cases))


def case(gadget: Gadget, values: tuple[bool, ...]) -> tuple[Case, frozenset[Cell] | None]:
    """One input combination checked, with an explanation to show (its mines), or None.

    For a picture of the gadget at work (``satsweeper gadget draw --inputs``):
    the same :class:`Case` as :func:`verify` gives for ``values``.

    >>> from satsweeper.textio import parse_board
    >>> g = Gadget("not", parse_board("layout: tokens\\nx 1 y\\n"), ("x",), {"y": "~x"})
    >>> checked, mines = case(g, (True,))
    >>> checked.correct, checked.explanations, sorted(mines)
    (True, 1, [(0, 0)])
    """
    base = problem_of(gadget.board)
    checked = _case(gadget, base, values)
    if not checked.consistent:
        return checked, None
    with Reasoner(_pinned(gadget, base, values)) as reasoner:
        return checked, reasoner.consistency().witness


def clash(gadget: Gadget, values: tuple[bool, ...] | None = None) -> tuple:
    """A minimal set of origins (numbers, pinned inputs, the total) that cannot all hold:
    of the gadget with its inputs set to ``values``, or, with None, whatever its inputs;
    () when it has an explanation.  What a picture of a broken figure outlines.

    >>> from satsweeper.textio import parse_board
    >>> g = Gadget("end", parse_board("layout: tokens\\nx 1\\n"), ("x",), {})
    >>> [str(o) for o in clash(g, (False,))], clash(g, (True,))
    (['the 1 at 0,1', 'input x=0'], ())
    """
    base = problem_of(gadget.board)
    with Reasoner(base if values is None else _pinned(gadget, base, values)) as reasoner:
        return reasoner.consistency().conflict


def _pinned(gadget: Gadget, base: Problem, values: tuple[bool, ...]) -> Problem:
    """``base`` with each input port fixed to its value (the total kept, as a rule like any other)."""
    pinned = tuple(Constraint(frozenset({gadget.cell(port)}), int(value), PortValue(port, value))
                   for port, value in zip(gadget.inputs, values))
    return Problem(base.cells, base.constraints + pinned, base.mines, base.total_origin)


def _case(gadget: Gadget, base: Problem, values: tuple[bool, ...]) -> Case:
    problem = _pinned(gadget, base, values)
    counts = tally(problem)
    outputs: dict[str, Status] = {}
    if counts.consistent:
        for port in gadget.outputs:
            p = counts.probability(gadget.cell(port))
            outputs[port] = Status.MINE if p == 1 else Status.SAFE if p == 0 else Status.UNDETERMINED
    flags = len(gadget.board.flags)
    if base.mines is not None:  # every explanation has the board's total
        mines = (flags + base.mines,) if counts.consistent else ()
    else:
        totals = mine_totals(counts.frontier or {0: int(counts.consistent)}, len(problem.floating_cells()))
        mines = tuple(flags + k for k, c in totals.items() if c)
    return Case(values, counts.count, outputs, gadget.expected(values), mines, gadget.accepted(values))


def mine_totals(frontier: Mapping[int, int], floating: int) -> dict[int, int]:
    """Explanations by mine number, the floating cells placed freely.

    >>> mine_totals({1: 2}, 1)
    {1: 2, 2: 2}
    """
    out: dict[int, int] = {}
    for k, c in frontier.items():
        for j in range(floating + 1):
            out[k + j] = out.get(k + j, 0) + c * comb(floating, j)
    return dict(sorted(out.items()))
