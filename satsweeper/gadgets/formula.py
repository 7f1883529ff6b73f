"""Boolean formulas for the circuit compiler: parsing, a binary tree, model counts.

A :class:`Formula` is a tree of :class:`Var`, :class:`Not` and binary
:class:`Gate` nodes (AND, OR, XOR) over declared variables.  It comes from
pyeda's expression syntax (``(a | ~b) & (b ^ c)``, also ``=>``, ``<=>``,
``?:`` and n-ary operators, rewritten into the three gates) or from a DIMACS
CNF file.

Model counts are exact and computed two independent ways: truth tables as
Python integers (one bit per assignment, every variable enumerated) and
pyeda's BDD, whose satisfying *cubes* are each weighted by the variables
they leave free.  (pyeda's own ``satisfy_count`` counts cubes, not models:
``~(a & b & c)`` has 7 models and 3 cubes.)

>>> f = parse_formula("(a | ~b) & (b ^ c)")
>>> f.variables, f.models(), models_by_bdd(f)
(('a', 'b', 'c'), 3, 3)
"""

from __future__ import annotations

import enum
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Union

from pyeda.boolalg import expr as pyeda
from pyeda.boolalg.bdd import expr2bdd
from pyeda.parsing.boolexpr import Error as PyedaSyntaxError

from ..errors import BoardSyntaxError, TooComplexError
from ..textio import is_cell_name, read_text, split_lines

MAX_TABLE_VARIABLES = 24  # a truth table of 2^24 bits is 2 MB; 2^40 would be 128 GB
MAX_NESTING = 100  # pyeda's parser recurses: it failed from 139 parentheses deep, 495 ~ or 496 operands in a row
NESTING = (f"a formula pyeda can parse: nested at most {MAX_NESTING} parentheses deep, each ~ and each "
           "operator in a row counting a quarter of one (a DIMACS .cnf file has no such limit)")


def check_nesting(text: str, source: str, line: int = 1) -> None:
    """Refuse a formula deeper than pyeda's parser can recurse (a clean error with its column,
    not a RecursionError inside the parser): :data:`MAX_NESTING` parentheses, where a ``~``
    (while its operand is open) and each binary operator (while its parentheses are) count a
    quarter of one.

    >>> check_nesting("(" * 300 + "a" + ")" * 300, "f")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    satsweeper.errors.BoardSyntaxError: f:1:101: expected a formula pyeda can parse: nested at most 100 ... (got deeper)
    """
    # Quarters: a parenthesis costs the parser about four times the recursion of a ~ or of an
    # operator (its grammar is right-recursive: a & b & c is a & (b & c)).
    held = [0]  # per open parenthesis: its quarters (itself, the ~ before it, the operators in it)
    pending = 0  # ~ read whose operand has not begun
    for column, ch in enumerate(text, start=1):
        if ch == "~":
            pending += 1
        elif ch == "(":
            held.append(4 + pending)
            pending = 0
        elif ch == ")":
            if len(held) > 1:
                held.pop()
        elif ch in "&|^>":  # '=>' and '<=>' end in '>'
            held[-1] += 1
        elif not ch.isspace():
            pending = 0  # a name: the ~ before it are done
        if sum(held) + pending > 4 * MAX_NESTING:
            raise BoardSyntaxError(source, line, column, NESTING, "deeper")

__all__ = ["Formula", "Gate", "Not", "Op", "Var", "models_by_bdd", "parse_dimacs", "parse_formula",
           "random_formula", "read_formula"]


class Op(enum.Enum):
    """The binary gates a compiled circuit is made of."""

    AND = "&"
    OR = "|"
    XOR = "^"

    def apply(self, a: int, b: int) -> int:
        """The gate on bit vectors (Python integers)."""
        return a & b if self is Op.AND else a | b if self is Op.OR else a ^ b


@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class Not:
    arg: "Node"


@dataclass(frozen=True)
class Gate:
    op: Op
    left: "Node"
    right: "Node"


Node = Union[Var, Not, Gate, bool]


@dataclass(frozen=True)
class Formula:
    """A formula tree over declared variables (some may not occur; each doubles the models).

    ``root`` is True or False for a formula that is constant.
    """

    root: Node
    variables: tuple[str, ...]

    def __str__(self) -> str:
        return _text(self.root)

    def table(self) -> int:
        """The truth table: bit ``i`` is the value under assignment ``i``.

        Variable ``k`` (in :attr:`variables` order) is bit ``k`` of ``i``.
        """
        n = len(self.variables)
        if n > MAX_TABLE_VARIABLES:
            raise TooComplexError(f"a truth table of at most {MAX_TABLE_VARIABLES} variables "
                                  f"(got {n}: 2^{n} rows)")
        full = (1 << (1 << n)) - 1
        columns = {name: _column(k, n) for k, name in enumerate(self.variables)}
        return _table(self.root, columns, full)

    def models(self) -> int:
        """How many assignments of :attr:`variables` satisfy the formula (truth table)."""
        return bin(self.table()).count("1")

    def value(self, assignment: dict[str, bool]) -> bool:
        """The formula's value under ``assignment`` (variable name -> bool)."""
        return bool(_table(self.root, {v: int(assignment[v]) for v in self.variables}, 1))

    def occurrences(self) -> dict[str, int]:
        """How many leaves each variable has."""
        counts = {v: 0 for v in self.variables}
        for leaf in _leaves(self.root):
            counts[leaf] += 1
        return counts


def _column(k: int, n: int) -> int:
    """Variable ``k``'s column of a truth table over ``n`` variables: bit ``i`` is bit ``k`` of ``i``.

    Built as bytes and read once: shifting and or-ing the pattern into one
    int, period by period, took 55 s at 22 variables (each step copies the
    whole table); this takes milliseconds.

    >>> [bin(_column(k, 3)) for k in range(3)]
    ['0b10101010', '0b11001100', '0b11110000']
    >>> all(_column(k, n) >> i & 1 == i >> k & 1 for n in range(1, 6) for k in range(n) for i in range(1 << n))
    True
    """
    rows = 1 << n
    if k < 3:  # the pattern repeats within a byte: 0xAA, 0xCC, 0xF0 over the first 8 rows
        byte = sum(1 << i for i in range(8) if i >> k & 1)
        return int.from_bytes(bytes([byte]) * max(1, rows // 8), "little") & ((1 << rows) - 1)
    half = 1 << (k - 3)  # bytes of 2^k rows: zeros, then ones, and again
    return int.from_bytes((b"\x00" * half + b"\xff" * half) * (rows >> (k + 1)), "little")


def _table(node: Node, columns: dict[str, int], full: int) -> int:
    if isinstance(node, bool):
        return full if node else 0
    if isinstance(node, Var):
        return columns[node.name]
    if isinstance(node, Not):
        return full ^ _table(node.arg, columns, full)
    return node.op.apply(_table(node.left, columns, full), _table(node.right, columns, full))


def _leaves(node: Node):
    if isinstance(node, Var):
        yield node.name
    elif isinstance(node, Not):
        yield from _leaves(node.arg)
    elif isinstance(node, Gate):
        yield from _leaves(node.left)
        yield from _leaves(node.right)


def _text(node: Node) -> str:
    if isinstance(node, bool):
        return str(int(node))
    if isinstance(node, Var):
        return node.name
    if isinstance(node, Not):
        return "~" + _text(node.arg)
    return f"({_text(node.left)} {node.op.value} {_text(node.right)})"


# Building trees, folding constants away -------------------------------------------------

def _not(a: Node) -> Node:
    return (not a) if isinstance(a, bool) else a.arg if isinstance(a, Not) else Not(a)


def _gate(op: Op, a: Node, b: Node) -> Node:
    for x, y in ((a, b), (b, a)):
        if isinstance(x, bool):
            if op is Op.AND:
                return y if x else False
            if op is Op.OR:
                return True if x else y
            return _not(y) if x else y
    return Gate(op, a, b)


def _balanced(op: Op, args: list[Node]) -> Node:
    """An n-ary operator as a balanced tree of binary gates (shallow trees need less room)."""
    if len(args) == 1:
        return args[0]
    middle = len(args) // 2
    return _gate(op, _balanced(op, args[:middle]), _balanced(op, args[middle:]))


def _from_pyeda(e) -> Node:
    kind = type(e).__name__
    if kind == "_One":
        return True
    if kind == "_Zero":
        return False
    if kind == "Variable":
        return Var(str(e))
    if kind == "Complement":
        return Not(Var(str(~e)))
    args = [_from_pyeda(x) for x in e.xs]
    if kind == "NotOp":
        return _not(args[0])
    if kind in ("AndOp", "OrOp", "XorOp"):
        return _balanced({"AndOp": Op.AND, "OrOp": Op.OR, "XorOp": Op.XOR}[kind], args)
    if kind == "ImpliesOp":
        return _gate(Op.OR, _not(args[0]), args[1])
    if kind == "EqualOp":
        return _balanced(Op.AND, [_not(_gate(Op.XOR, args[0], x)) for x in args[1:]])
    if kind == "IfThenElseOp":
        s, d1, d0 = args
        return _gate(Op.OR, _gate(Op.AND, s, d1), _gate(Op.AND, _not(s), d0))
    raise ValueError(f"unsupported operator {kind}")


def parse_formula(text: str, source: str = "<formula>") -> Formula:
    """A formula in pyeda's syntax; its variables in order of first appearance.

    Raises:
        BoardSyntaxError: the text is not a formula (with line and column).

    >>> str(parse_formula("a => b"))
    '(~a | b)'
    """
    if not isinstance(text, str):
        raise BoardSyntaxError(source, 1, 1, "a formula (a str)", type(text).__name__)
    # A file's '#' lines are comments, as in every other file we read; blanked, not
    # dropped, so that the lines after them keep their numbers.
    text = "\n".join("" if line.lstrip().startswith("#") else line for line in text.split("\n"))
    board = next(((i, m) for i, l in enumerate(split_lines(text), 1) if l.strip()
                  for m in [BOARD_HEADER.match(l)]), (0, None))
    if board[1]:  # 'compile b.txt' with a board: its digits or ':' were reported, not what it is
        line, header = board
        raise BoardSyntaxError(source, line, header.end(), FORMULA,
                               f"a board file's '{header.group(1)}:' header; compile takes a formula")
    check_nesting(text, source)
    if not text.isascii():
        at = next(i for i, ch in enumerate(text) if not ch.isascii())
        line = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        raise BoardSyntaxError(source, line, col, "a Boolean formula in ASCII (variables, ~ & | ^ => <=>)",
                               repr(text[at]))
    long = re.search(r"(?<![A-Za-z_0-9])[0-9]{10,}", text)
    if long:
        # pyeda's lexer calls int() on every number: 4,300 digits raise.
        at = long.start()
        raise BoardSyntaxError(source, text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1,
                               "a number of at most 9 digits", f"{len(long.group())} digits")
    try:
        e = pyeda.expr(text, simplify=False)
    except ValueError as error:        # whatever else pyeda's lexer or rewriting refuses
        raise BoardSyntaxError(source, 1, 1, "a Boolean formula (variables, ~ & | ^ => <=>)",
                               str(error)) from None
    except RecursionError:
        raise BoardSyntaxError(source, 1, 1, NESTING, "too deep to parse") from None
    except PyedaSyntaxError as error:
        line, col, found = 1, 1, "?"
        token = error.args[0] if error.args else ""
        if "lineno=" in token:
            line = int(token.split("lineno=")[1].split(",")[0])
            col = int(token.split("offset=")[1].split(")")[0])  # pyeda counts from 1
            lines = split_lines(text)
            col = min(col, len(lines[line - 1]) + 1 if text.strip() and line <= len(lines) else 1)
            # The token's value as pyeda writes it, repr() quotes and all: "COMMA(value=',', ...)".
            value = re.search(r"value=('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|[^,)]*)", token)
            found = value.group(1) if value else "?"
            found = "the end of the formula" if found == "''" else found
        lexer = re.match(r"unexpected character: \(line: (\d+), offset: (\d+), text: (.*)\)$", token, re.S)
        if lexer:  # the lexer's own message: a character no token starts with ('a -> b')
            line, col, found = int(lexer.group(1)), int(lexer.group(2)), repr(lexer.group(3))
        found += _hint(text, line, col)
        raise BoardSyntaxError(source, line, col, FORMULA, found) from None
    names = _names_in_order(text, {str(v) for v in e.support})
    _check_names(text, names, source)
    return Formula(_from_pyeda(e), names)


FORMULA = "a Boolean formula (variables, ~ & | ^ => <=>, parentheses)"
BOARD_HEADER = re.compile(r"\s*(mines|gadget|inputs|outputs|accepts|layout|start)\s*:")


# pyeda's functions, as its parser spells them (a variable before '(' is an error there).
FUNCTIONS = ("Not", "Or", "And", "Xor", "Xnor", "Equal", "Unequal", "Nor", "Nand", "Implies", "ITE",
             "OneHot0", "OneHot", "Majority", "AchillesHeel")


def _hint(text: str, line: int, col: int) -> str:
    """What a formula's syntax error most likely was, in words: another notation's
    implication, or a function spelt in lower case.

    >>> _hint("a -> b", 1, 3), _hint("a & & b", 1, 5), _hint("ite(s, a, b)", 1, 4)
    ("; implication is '=>'", '', "; the function is spelt 'ITE(' (pyeda's names)")
    >>> _hint("f(a)", 1, 2)
    "; only a function takes '(': ITE, Xor, Majority..."
    >>> _hint("ITE(a, b)", 1, 9), _hint("a | b)", 1, 6)
    ('; ITE takes three: ITE(s, a, b) is a where s, else b', "; a ')' closes no '('")
    """
    lines = split_lines(text)
    row = lines[line - 1] if line <= len(lines) else ""
    here = row[col - 1:]
    if here.startswith("->"):
        return "; implication is '=>'"
    if here[:1] in (")", ","):
        before = "\n".join(lines[:line - 1] + [row[:col - 1]])
        opened, depth = None, 0  # the innermost '(' still open before here
        for at in range(len(before) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(before[at], 0)
            if depth < 0:
                opened = at
                break
        if opened is None:
            return "; a ')' closes no '('" if here[0] == ")" else ""
        call = re.search(r"[A-Za-z_][A-Za-z0-9_]*\s*$", before[:opened])
        if call and call.group().strip() == "ITE":
            return "; ITE takes three: ITE(s, a, b) is a where s, else b"
    word = re.search(r"[A-Za-z_][A-Za-z0-9_]*$", row[:col - 1].rstrip())
    if here.startswith("(") and word:
        spelt = next((f for f in FUNCTIONS if f.lower() == word.group().lower()), None)
        if spelt:
            return f"; the function is spelt '{spelt}(' (pyeda's names)"
        return "; only a function takes '(': ITE, Xor, Majority..."
    return ""


def _check_names(text: str, names: tuple[str, ...], source: str) -> None:
    """Each variable names a cell of the compiled board: a name the board's file cannot hold
    (F, a flag; pyeda's dotted a.b) was written and read back as another board."""
    for name in names:
        if not is_cell_name(name):
            found = re.search(rf"(?<![A-Za-z0-9_.]){re.escape(name)}(?![A-Za-z0-9_.])", text)
            at = found.start() if found else 0
            raise BoardSyntaxError(source, text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1,
                                   "a variable name a board can hold: letters, digits and _, a letter first, "
                                   "maybe [indices] last; not F (a flag) nor dotted", repr(name))


def _names_in_order(text: str, names: set[str]) -> tuple[str, ...]:
    """Variables in the order they first appear in the text (pyeda's support is a set)."""
    tokens = re.findall(r"[A-Za-z_][A-Za-z0-9_.]*(?:\[[0-9, ]+\])?", text)
    seen = dict.fromkeys(t.replace(" ", "") for t in tokens if t.replace(" ", "") in names)
    return tuple(seen) + tuple(sorted(names - set(seen)))


def parse_dimacs(text: str, source: str = "<dimacs>") -> Formula:
    """A CNF in DIMACS format; variable ``k`` is called ``x{k}``, all ``n`` of the header are declared.

    Raises:
        BoardSyntaxError: a malformed header, literal or clause.

    >>> f = parse_dimacs("p cnf 3 2\\n1 -2 0\\n2 3 0\\n")
    >>> str(f), f.models()
    ('((x1 | ~x2) & (x2 | x3))', 4)
    """
    # Our own reader, not python-sat's CNF(from_string=...): that one reads the
    # clauses about 100 times faster but says neither line nor column of a
    # mistake, and reading is a third of the time here (the formula tree is
    # the rest): 20,000 clauses take 0.3 s, far beyond what compile can draw.
    if not isinstance(text, str):
        raise BoardSyntaxError(source, 1, 1, "DIMACS text (a str)", type(text).__name__)
    header = None
    clauses: list[list[int]] = []
    current: list[int] = []
    for number, line in enumerate(split_lines(text), 1):
        stripped = line.strip()
        if stripped.startswith("%"):  # SATLIB's files end "%" then "0": the end, not an empty clause
            break
        if not stripped or stripped.startswith("c"):
            continue
        if stripped.startswith("p"):
            parts = stripped.split()
            if header is not None or len(parts) != 4 or parts[1] != "cnf" or not all(
                    re.fullmatch(r"[0-9]{1,9}", p) for p in parts[2:]):
                raise BoardSyntaxError(source, number, 1, "one header 'p cnf VARIABLES CLAUSES'", repr(stripped))
            header = (int(parts[2]), int(parts[3]))
            header_at = (number, re.match(r"\s*p\s+cnf\s+[0-9]+\s+", line).end() + 1)  # the clause count
            continue
        if header is None:
            raise BoardSyntaxError(source, number, 1, "the header 'p cnf VARIABLES CLAUSES' first", repr(stripped))
        col = 1
        for token in line.split():
            col = line.index(token, col - 1) + 1
            if not re.fullmatch(r"-?[0-9]{1,10}", token):  # int() would take other scripts' digits
                raise BoardSyntaxError(source, number, col, "an integer literal", repr(token))
            literal = int(token)
            if abs(literal) > header[0]:
                raise BoardSyntaxError(source, number, col, f"a literal between -{header[0]} and {header[0]}", token)
            if literal == 0:
                clauses.append(current)
                current = []
            else:
                current.append(literal)
            col += len(token)
    if header is None:
        raise BoardSyntaxError(source, 1, 1, "a DIMACS CNF ('p cnf VARIABLES CLAUSES')", "no header")
    if current:
        clauses.append(current)
    if len(clauses) != header[1]:  # a clause lost or one too many: another formula, silently
        raise BoardSyntaxError(source, *header_at, f"{header[1]} clause{'s' if header[1] != 1 else ''}, as the header says",
                               f"{len(clauses)} clause{'s' if len(clauses) != 1 else ''}")
    names = tuple(f"x{k}" for k in range(1, header[0] + 1))
    literal = lambda k: Var(f"x{k}") if k > 0 else Not(Var(f"x{-k}"))  # noqa: E731
    ors = [_balanced(Op.OR, [literal(k) for k in clause]) if clause else False for clause in clauses]
    return Formula(_balanced(Op.AND, ors) if ors else True, names)


def read_formula(text: str) -> Formula:
    """A formula given on the command line: a DIMACS file, a file holding an expression, or an expression."""
    path = Path(text)
    try:
        is_file = path.is_file()
    except OSError:
        is_file = False
    if not is_file:
        if path.suffix.lower() in (".cnf", ".dimacs", ".txt") or "/" in text:
            raise BoardSyntaxError(text, 1, 1, "a formula or an existing file", "no such file")
        return parse_formula(text)
    content = read_text(path)[1]
    lines = [ln.strip() for ln in split_lines(content) if ln.strip()]
    if path.suffix in (".cnf", ".dimacs") or (lines and (lines[0].startswith("p cnf") or lines[0].startswith("c"))):
        return parse_dimacs(content, str(path))
    return parse_formula(content, str(path))


def models_by_bdd(formula: Formula) -> int:
    """The model count from pyeda's BDD: each satisfying cube counts 2^(variables it leaves free)."""
    if isinstance(formula.root, bool):
        return (1 << len(formula.variables)) if formula.root else 0
    bdd = expr2bdd(pyeda.expr(_pyeda_text(formula.root)))
    n = len(formula.variables)
    return sum(1 << (n - len(cube)) for cube in bdd.satisfy_all())


def _pyeda_text(node: Node) -> str:
    if isinstance(node, Var):
        return node.name
    if isinstance(node, Not):
        return f"~({_pyeda_text(node.arg)})"
    return f"({_pyeda_text(node.left)}) {node.op.value} ({_pyeda_text(node.right)})"


def random_formula(rng: random.Random, variables: int, depth: int) -> Formula:
    """A random formula over ``x1..x{variables}`` with at most ``depth`` levels of gates.

    Leaves are random variables, negated half the time; below the root a
    node becomes a leaf early with probability 1/4, so sizes vary.
    """
    names = tuple(f"x{k}" for k in range(1, variables + 1))

    def grow(level: int) -> Node:
        if level == 0 or (level < depth and rng.random() < 0.25):
            leaf = Var(rng.choice(names))
            return Not(leaf) if rng.random() < 0.5 else leaf
        node = Gate(rng.choice(list(Op)), grow(level - 1), grow(level - 1))
        return Not(node) if rng.random() < 0.2 else node

    return Formula(grow(depth), names)

