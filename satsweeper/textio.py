"""Reading and writing boards as text.

Two board formats are read and written here; :func:`read_any` also tells
constraint systems (:mod:`satsweeper.systems`) apart from them by content.

**Native** (any file name; see README for the full description)::

    # a comment
    mines: 10          optional total, flags included
    layout: tokens     optional; "dense" unless a grid row contains spaces
    ..1F
    .21-

Squares: ``.`` hidden, ``*`` a hidden mine of a layout (the player sees a
hidden cell), ``0``-``8`` revealed number, ``F`` flag (a known mine), ``-``
void (not part of the board), and a name for a named hidden cell: one
lowercase letter in a dense row, an identifier such as ``x'`` or ``t2`` in a
tokenized row (tokens separated by white space).  An optional header
``start: ROW,COL`` says where the first click goes.

**JSMinesweeper** ``.mine`` files: a first line ``WIDTHxHEIGHTxMINES``, then
``HEIGHT`` rows of ``WIDTH`` characters: ``0``-``8`` revealed, ``F`` flag,
``H`` or any other character hidden.  When the ``F``, ``M`` and ``?`` squares
are exactly as many as the header's mines, the file also holds a layout
(JSMinesweeper reads mine positions that way); ``M`` and ``?`` are hidden mines.

Every reader raises :class:`~satsweeper.errors.BoardSyntaxError` with file,
line and column on bad input.
"""

from __future__ import annotations

import codecs  # loaded at every interpreter's start: free
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from .board import FLAG_SQUARE, VOID_SQUARE, Board, Cell, GridCells, GridClues
from .errors import BoardSyntaxError, InputError

HIDDEN = "."
MINE = "*"
FLAG = "F"
VOID = "-"
COMMENT = "#"
BOARD_HEADERS = ("mines", "layout", "start")
GADGET_HEADERS = ("gadget", "inputs", "outputs", "accepts")
# Identifiers, and pyeda's indexed variables (x[1], x[2,3]): compiled boards name their inputs so.
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_']*(\[[0-9]+(,[0-9]+)*\])?\Z")
_DENSE_NAME = re.compile(r"[a-z]\Z")
_HEADER = re.compile(r"\s*([A-Za-z_]+)\s*:\s*(.*?)\s*\Z")
# Digits are ASCII 0-9 only (str.isdigit and \d also take superscripts and
# other scripts' digits, which int() then rejects or reads as numbers).
_MINE_HEADER = re.compile(r"\s*([0-9]{1,9})x([0-9]{1,9})x([0-9]{1,12})\s*\Z")
_NUMBER = re.compile(r"[0-9]{1,12}\Z")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """Lines as editors count them: split at ``\\n``, ``\\r\\n`` or ``\\r`` only
    (``str.splitlines`` also splits at form feeds, U+2028 and others, which
    changes a board's shape and the line numbers in messages); a UTF-8
    byte-order mark at the start is dropped.

    >>> split_lines("\\ufeffa\\fb\\r\\nc\\n")
    ['a\\x0cb', 'c']
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def grid_line(text: str) -> int:
    """The line of a board file's first row of squares (past comments, blank lines and
    headers): where an error about the whole board points (1:1 was often a comment).

    >>> grid_line("# a puzzle\\nmines: 2\\n\\n..1\\n")
    4
    """
    for number, line in enumerate(split_lines(text), 1):
        if line.strip() and not line.lstrip().startswith(COMMENT) and not re.match(r"\s*[a-z]+\s*:", line):
            return number
    return 1


def square_place(text: str, cell: Cell) -> tuple[int, int]:
    """(line, column) of square ``cell`` in a native board file's ``text``, as its errors
    point; the first row's line and column 1 where the file has no such square (another
    format).  An error about one square (a void where a game needs none) points at it.

    >>> square_place("# a layout\\nmines: 1\\n*..\\n# a comment\\n.-.\\n", (1, 1))
    (5, 2)
    """
    try:
        headers, rows = _split_header(text, "<string>")
        number, line = rows[cell[0]]
        token = _tokens_of(line, number, _header_layout(headers, "<string>", rows), "<string>")[cell[1]]
        return token.line, token.column
    except (BoardSyntaxError, IndexError, TypeError):
        return grid_line(text), 1


def is_number(text: str) -> bool:
    """A whole number in ASCII digits, at most 12 of them.

    >>> is_number("12"), is_number("\\u00b9"), is_number("\\u0663"), is_number("9" * 20)
    (True, False, False, False)
    """
    return bool(_NUMBER.match(text))


@dataclass(frozen=True)
class _Token:
    text: str
    line: int
    column: int


def read_board(path: str | Path) -> Board:
    """Read a board file, choosing the format by extension (``.mine`` or native).

    A layout's hidden mines (``*``) are hidden cells here: this is what the
    player sees.  :func:`read_puzzle` also returns the layout.

    Raises:
        BoardSyntaxError: the file is empty, unreadable or malformed.
    """
    return read_puzzle(path).board


def read_puzzle(path: str | Path) -> "Puzzle":
    """Read a file as a position plus, where it gives them, layout and start."""
    path = Path(path)
    text = read_text(path)[1]
    if path.suffix.lower() == ".mine":
        return parse_mine_puzzle(text, str(path))
    return parse_puzzle(text, str(path))


def read_any(text: str, source: str = "<string>", suffix: str = ""):
    """Read a board, a ``.mine`` file or a constraint system, recognised by content.

    A first line ``WIDTHxHEIGHTxMINES`` makes a ``.mine`` file; an ``=``
    outside comments and gadget headers makes a constraint system; anything
    else is the native format.  ``suffix`` (a file's extension, such as
    ``".mine"``) only breaks ties: a ``.mine`` file whose first line is not a
    header is read as one, so that the error is about its header.

    Returns:
        a :class:`Puzzle` for a board (``.board`` is the player's view), or a
        :class:`~satsweeper.systems.System`.

    Raises:
        BoardSyntaxError: the text is none of these (file, line, column).

    >>> read_any("2x1x1\\n1H\\n").board.total_mines
    1
    >>> type(read_any("a + b = 1\\n")).__name__
    'System'
    >>> read_any("c a formula\\np cnf 2 1\\n1 -2 0\\n", "f.cnf")
    Traceback (most recent call last):
    ...
    satsweeper.errors.BoardSyntaxError: f.cnf:2:1: expected a board, a .mine file or a constraint system (satsweeper compile makes a DIMACS formula a board) (got 'p cnf')
    """
    from .systems import parse_system   # systems is read through here, not upstream of it
    _require_text(text, source)
    kind = format_of(text)
    if kind == "mine":
        return parse_mine_puzzle(text, source)
    if kind == "system":
        return parse_system(text, source)
    if kind == "dimacs":  # read as a board it would fail on its second row, saying nothing useful
        dimacs = _DIMACS_HEADER.search(text)
        raise BoardSyntaxError(source, text.count("\n", 0, dimacs.start()) + 1, 1,
                               "a board, a .mine file or a constraint system "
                               "(satsweeper compile makes a DIMACS formula a board)",
                               repr(dimacs.group().strip()))
    if suffix.lower() == ".mine":
        return parse_mine_puzzle(text, source)
    return parse_puzzle(text, source)


_DIMACS_HEADER = re.compile(r"(?m)^[ \t]*p[ \t]+cnf\b")


def format_of(text: str) -> str:
    """What :func:`read_any` takes ``text`` for, by its content: ``"mine"`` (a first line
    WIDTHxHEIGHTxMINES), ``"system"`` (equations), ``"dimacs"`` (a ``p cnf`` header) or ``"native"``.

    >>> [format_of(t) for t in ("2x1x1\\n1H\\n", "a + b = 1\\n", "p cnf 1 1\\n1 0\\n", "1.\\n")]
    ['mine', 'system', 'dimacs', 'native']
    """
    from .systems import is_system_text
    first = next((line for line in split_lines(text.lstrip("\ufeff")) if line.strip()), "")
    if re.fullmatch(r"\s*[0-9]+x[0-9]+x[0-9]+\s*", first):
        return "mine"
    if is_system_text(text):
        return "system"
    return "dimacs" if _DIMACS_HEADER.search(text) else "native"


def load(path: str | Path):
    """:func:`read_any` on a file, or on standard input if ``path`` is ``-``.

    Raises:
        BoardSyntaxError: the file cannot be read, is not UTF-8 or is malformed.
    """
    name, text = read_text(path)
    return read_any(text, name, "" if str(path) == "-" else Path(path).suffix)


_CHUNK = 1 << 20  # bytes read at a time by read_text


def read_text(path: str | Path) -> tuple[str, str]:
    """(the name to quote, the text) of a file, or of standard input if ``path`` is ``-``.

    Read a megabyte at a time and refused at the first byte no text holds
    (a NUL, or bytes that are not UTF-8), so ``/dev/zero`` or
    ``/dev/urandom`` given by mistake is an error at once (read whole, they
    ran until memory did); a pipe (``<(...)``) is read like a file.

    Raises:
        BoardSyntaxError: the file cannot be read, or holds a byte that is
            not text (at its line and column).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "b.txt")
    >>> with open(path, "wb") as out:
    ...     _ = out.write(b"1.\\n.\\x00\\n")
    >>> read_text(path)
    Traceback (most recent call last):
    satsweeper.errors.BoardSyntaxError: ...b.txt:2:2: expected UTF-8 text (got a NUL byte (0x00))
    """
    if str(path) == "-":
        import sys
        return "<stdin>", _text(sys.stdin.buffer, "<stdin>")
    if str(path) == "":  # Path("") is ".": "expected a readable file (got a directory)" named none given
        raise InputError("a file name, or - for standard input (got an empty name)")
    path = Path(path)
    name = str(path)
    try:
        with open(path, "rb") as stream:
            return name, _text(stream, name)
    except OSError as err:
        what = "a directory" if path.is_dir() else (err.strerror or str(err)).lower()
        raise BoardSyntaxError(name, 1, 1, "a readable file", what) from None


def _text(stream, name: str) -> str:
    """The text of a binary stream, checked a chunk at a time (see :func:`read_text`)."""
    chunks: list[bytes] = []  # kept to place an error by line and column
    texts: list[str] = []
    decoder = codecs.getincrementaldecoder("utf-8")()
    while True:
        chunk = stream.read(_CHUNK)
        chunks.append(chunk)
        nul = chunk.find(0)
        try:
            texts.append(decoder.decode(chunk[:nul] if nul >= 0 else chunk, final=not chunk or nul >= 0))
        except UnicodeDecodeError:
            _not_text(b"".join(chunks), name)
        if nul >= 0:
            data = b"".join(chunks)
            _not_text(data, name, len(data) - len(chunk) + nul)
        if not chunk:
            return "".join(texts)


def _not_text(data: bytes, name: str, nul: int | None = None):
    """Raise the error at the first byte that is not text: a NUL at ``nul``, else where decoding fails."""
    at, found = nul, "a NUL byte (0x00)"
    if nul is None:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as err:
            at, found = err.start, f"byte 0x{data[err.start]:02x}"
    line = data.count(b"\n", 0, at) + 1
    col = at - (data.rfind(b"\n", 0, at) + 1) + 1
    raise BoardSyntaxError(name, line, col, "UTF-8 text", found)


@dataclass(frozen=True)
class Puzzle:
    """What a file holds: the player's position, and maybe the truth.

    Attributes:
        board: the position a player sees.
        mines: the layout (every mine: hidden ``*`` and flags), if the file
            gives one.
        start: where the first click goes, if the file says.
        extras: the gadget headers (``gadget:``, ``inputs:``, ``outputs:``, ``accepts:``),
            as ``key -> (value, line, column of the value)``; :mod:`satsweeper.gadgets` reads them.
        tokenized: the rows were white-space-separated tokens (``layout: tokens``), as programs
            such as ``compile`` write them: a one-letter name there is meant, not a typo.
    """

    board: Board
    mines: frozenset[Cell] | None = None
    start: Cell | None = None
    extras: Mapping[str, tuple[str, int, int]] = field(default_factory=dict)
    tokenized: bool = field(default=False, compare=False)


def is_cell_name(text: str) -> bool:
    """Can a board file name a hidden cell ``text``?  Letters, digits, ``_`` and ``'``, a letter or
    ``_`` first, maybe indices ``[1,2]`` last; not ``F``, which is a flag.

    >>> [is_cell_name(t) for t in ("x", "x[1,2]", "a'", "F", "a.b", "2a")]
    [True, True, True, False, False, False]
    """
    return isinstance(text, str) and text != FLAG and _NAME.match(text) is not None


# Letters a hand-typed square turns into: a number's lookalikes, and F (a flag) in lower case.
LOOKALIKES = {"o": "0", "O": "0", "l": "1", "I": "1", "f": "F"}


def lookalikes(puzzle: Puzzle) -> list[tuple[Cell, str, str]]:
    """The hidden cells named o, O, l, I or f: (cell, name, the square it looks like).

    One letter in a dense row is a named hidden cell, so a 0 typed as o
    makes another board, often still consistent: every answer would be
    about it without a word.  Names are legal, so this is for a note, not
    an error; a gadget file (its headers) names its ports on purpose, and
    tokenized rows (``compile``'s boards) name their cells: none.

    >>> lookalikes(parse_puzzle("1o\\n.f\\n"))
    [((0, 1), 'o', '0'), ((1, 1), 'f', 'F')]
    """
    if puzzle.extras or puzzle.tokenized:
        return []
    return [(cell, called, LOOKALIKES[called]) for cell, called in sorted(puzzle.board.names.items())
            if called in LOOKALIKES]


def lookalike_note(cell: Cell, called: str, meant: str) -> str:
    """A :func:`lookalikes` entry in words (the CLI's note, the page's)."""
    return f"the square at {cell[0]},{cell[1]} is read as a hidden cell named {called!r} (a typo for {meant}?)"


def write_board(board: Board, path: str | Path) -> None:
    """Write ``board`` to ``path``, choosing the format by extension."""
    path = Path(path)
    text = format_mine(board) if path.suffix.lower() == ".mine" else format_board(board)
    path.write_text(text, encoding="utf-8")


# ----------------------------------------------------------------- native

def parse_board(text: str, source: str = "<string>") -> Board:
    """Parse the native board format (the player's view).

    >>> b = parse_board("mines: 2\\n.1\\nF1\\n")
    >>> b.total_mines, sorted(b.clues.items()), sorted(b.flags)
    (2, [((0, 1), 1), ((1, 1), 1)], [(1, 0)])
    """
    return parse_puzzle(text, source).board


def _require_text(text, source: str) -> None:
    if not isinstance(text, str):
        raise BoardSyntaxError(source, 1, 1, "text (a str)", type(text).__name__)


def parse_puzzle(text: str, source: str = "<string>") -> Puzzle:
    """Parse the native format: a position, a layout (``*`` mines), or both.

    In a file with a layout every revealed number must agree with it, and a
    ``mines:`` header must count its mines.

    >>> p = parse_puzzle("start: 0,0\\n..*\\n")
    >>> p.mines, p.start, p.board.hidden_cells()
    (frozenset({(0, 2)}), (0, 0), [(0, 0), (0, 1), (0, 2)])
    """
    _require_text(text, source)
    headers, rows = _split_header(text, source)
    total = _header_total(headers, source)
    layout = _header_layout(headers, source, rows)
    if layout == "dense" and sum(len(line) for _, line in rows) > ARRAY_SQUARES:
        fast = _dense_puzzle(rows, total)
        if fast is not None:  # else the square-by-square reading below says what is wrong
            board, mines = fast
            mines = _mineless_layout(board) if mines is None else mines
            extras = {key: value for key, value in headers.items() if key in GADGET_HEADERS}
            return Puzzle(board, mines, _header_start(headers, board, mines, source), extras)
    words = [w for _, line in rows for w in line.split()]
    if layout == "tokens" and _only_words(words) and not set(headers) & set(GADGET_HEADERS):
        # Words, not a board, whatever their rows' lengths ("expected 2 squares per row as in
        # line 1 (got 5 squares)" for "hello world / this is not a board", with or without a ☃).
        _words_not_board([[_Token(m.group(), number, m.start() + 1) for m in re.finditer(r"\S+", line)]
                          for number, line in rows if line.split()], source)
    try:
        grid = [_tokens_of(line, number, layout, source) for number, line in rows]
    except BoardSyntaxError as err:
        if rows:
            _check_colon(rows[0], source)  # "mines 10" as a first row is the likelier mistake
        said = next((line.split() for number, line in rows if number == err.line), [])
        if len(said) > 1 and all(map(is_cell_name, said)):  # "This is my puzzle" above the rows
            raise BoardSyntaxError(source, err.line, 1, "a row of squares (a comment line starts with '#')",
                                   "words, " + " ".join(repr(w) for w in said[:3]) + ("..." if len(said) > 3 else "")) from None
        raise
    if not grid:
        last = text.count("\n") + 1
        raise BoardSyntaxError(source, last, 1, "at least one row of squares", "an empty board")
    width = len(grid[0])
    for (number, line), tokens in zip(rows, grid):
        if len(tokens) != width:
            _check_colon(rows[0], source)
            _check_invisible(rows, source)  # a BOM or Ctrl-Z: "got 4 squares" where 3 show
            _check_ascii(rows, source)  # a full-width '1' or a no-break space: "got 4 squares" at a '.'
            # A long row at its first square too many, a short one where the next would go.
            column = tokens[width].column if len(tokens) > width else len(line.rstrip()) + 1
            raise BoardSyntaxError(source, number, column,
                                   f"{width} squares per row as in line {rows[0][0]}",
                                   f"{len(tokens)} square{'s' if len(tokens) != 1 else ''}")
    board, stars = _board_from_tokens(grid, source)
    if len(board.names) == board.height * board.width and not set(headers) & set(GADGET_HEADERS):
        _words_not_board(grid, source)
    _check_numbers(board, grid, source)
    if total is not None:
        _check_total(board, total, source)
        board = Board(board.height, board.width, board.clues, board.flags, board.voids,
                      board.names, total[0])
    mines = _mineless_layout(board)
    if stars:
        mines = frozenset(stars) | board.flags
        _check_layout(board, mines, grid, total, source)
    extras = {key: value for key, value in headers.items() if key in GADGET_HEADERS}
    return Puzzle(board, mines, _header_start(headers, board, mines, source), extras, layout == "tokens")


def _mineless_layout(board: Board) -> frozenset | None:
    """The layout of a file without a ``*`` that says ``mines: 0`` (no flag, every
    number a 0): no mines at all, the truth in full, as ``generate 3x3x0``
    writes it; else None (a position; with a 1 shown, an inconsistent one).

    >>> [parse_puzzle(text).mines for text in ("mines: 0\\n0.\\n", "..\\n", "mines: 0\\n1.\\n")]
    [frozenset(), None, None]
    """
    if board.total_mines == 0 and not board.flags and not any(board.clues.values()):
        return frozenset()
    return None


def _only_words(words: list[str]) -> bool:
    """Text rather than a tokenized board: no square at all ('.', '*', 'F', '-', a number), and
    mostly names, some longer than two letters (a board's names are short).

    >>> _only_words("hello world this is not a board \u2603".split()), _only_words("a b . 1".split())
    (True, False)
    """
    if not words or any(w in (HIDDEN, MINE, FLAG, VOID) or is_number(w) for w in words):
        return False
    names = [w for w in words if is_cell_name(w)]
    return 2 * len(names) > len(words) and any(len(w) > 2 for w in names)


def _words_not_board(grid: list[list[_Token]], source: str) -> None:
    """Raise for a grid of names alone outside a gadget ('hello world' was read as two
    hidden cells named hello and world, and consistent): a board has a number, a hidden
    square, a mine or a flag somewhere (a gadget of bare input cells may not)."""
    tokens = [t for row in grid for t in row]
    words = " ".join(repr(t.text) for t in tokens[:3]) + ("..." if len(tokens) > 3 else "")
    raise BoardSyntaxError(source, tokens[0].line, tokens[0].column,
                           "a board: numbers, '.', '*', 'F' or '-' among its squares",
                           f"only words, {words}: text, not a board?")


def _check_invisible(rows: list[tuple[int, str]], source: str) -> None:
    """Raise at the first character that shows nothing (a byte-order mark in the middle
    of a file, a zero-width space, a control character such as Ctrl-Z): counted as a
    square, it made a row look a square short or long of what the eye sees.

    >>> _check_invisible([(2, "..1"), (3, "\ufeff.1.")], "b.txt")
    Traceback (most recent call last):
    satsweeper.errors.BoardSyntaxError: b.txt:3:1: expected a square: '.', '*', '0'-'8', 'F', '-' or a cell name (got U+FEFF, a character that shows nothing)
    """
    import unicodedata
    for number, line in rows:
        for column, char in enumerate(line, 1):
            if char != "\t" and unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp"):
                raise BoardSyntaxError(source, number, column, "a square: '.', '*', '0'-'8', 'F', '-' or a cell name",
                                       f"U+{ord(char):04X}, a character that shows nothing")


def _check_ascii(rows: list[tuple[int, str]], source: str) -> None:
    """Raise at the first character outside ASCII in the grid's rows (no square and no
    name has one): a row it made too long was said to be at the row's end, past it.

    >>> _check_ascii([(2, "..1"), (3, ".\uff11.")], "b.txt")
    Traceback (most recent call last):
    satsweeper.errors.BoardSyntaxError: b.txt:3:2: expected a square: '.', '*', '0'-'8', 'F', '-' or a cell name (names are ASCII) (got U+FF11 (FULLWIDTH DIGIT ONE))
    """
    for number, line in rows:
        column = next((i for i, char in enumerate(line.rstrip(), 1) if not char.isascii()), None)
        if column is not None:
            # 'é' as a name was refused with no word on what a name may be
            raise BoardSyntaxError(source, number, column, "a square: '.', '*', '0'-'8', 'F', '-' or a cell name "
                                   "(names are ASCII)", _shown(line[column - 1]))


# Above this many characters of grid a dense board is read by array operations:
# an object per square made a 2000x2000 board cost 22 s and 5 GB to read.
ARRAY_SQUARES = 40_000

# Square codes of the array reading: numbers are themselves.
_HIDDEN_CODE, _MINE_CODE, _FLAG_CODE, _VOID_CODE, _BAD_CODE = -1, 10, 11, 12, -2


def _dense_puzzle(rows: list[tuple[int, str]], total: tuple[int, int, int] | None):
    """(board, layout mines or None) of a well-formed dense grid, read by array operations.

    None for anything else (a name, a stray character, ragged rows, a number
    too big, a layout that disagrees): the square-by-square reader then
    raises the error with its line and column.  The board keeps its numbers
    as a :class:`~satsweeper.board.GridClues`, one byte a square.
    """
    import numpy as np

    bodies = [line.strip() for _, line in rows]
    width = len(bodies[0])
    if not width or any(len(body) != width for body in bodies):
        return None
    codes = _square_codes(bodies, width, "0123456789", _BAD_CODE,
                          {HIDDEN: _HIDDEN_CODE, MINE: _MINE_CODE, FLAG: _FLAG_CODE, VOID: _VOID_CODE})
    if codes is None or (codes == _BAD_CODE).any():
        return None
    height = len(bodies)
    void = codes == _VOID_CODE
    numbers = np.where(codes <= 9, codes, -1).astype(np.int8)
    if (numbers > _neighbour_count(~void)).any():
        return None
    if total is not None and total[0] > height * width - int(void.sum()):
        return None
    flag, star = codes == _FLAG_CODE, codes == _MINE_CODE
    squares = np.where(flag, FLAG_SQUARE, np.where(void, VOID_SQUARE, numbers))
    board = Board.from_squares(squares, None if total is None else total[0])
    if not star.any():
        return board, None
    mine = flag | star
    shown = numbers >= 0
    if (numbers[shown] != _neighbour_count(mine)[shown]).any():
        return None
    if total is not None and total[0] != int(mine.sum()):
        return None
    return board, _cell_set(mine)


def _square_codes(rows: list[str], width: int, digits: str, other: int, symbols: dict[str, int]):
    """The grid of ``rows`` (each ``width`` characters) as an int8 array of
    square codes: a digit is its number, a symbol its code, anything else
    ``other``; None if a row is not ASCII (the square-by-square reader says where).
    """
    import numpy as np

    try:
        data = "".join(rows).encode("ascii")
    except UnicodeEncodeError:
        return None
    table = np.full(256, other, dtype=np.int8)
    table[np.frombuffer(digits.encode("ascii"), dtype=np.uint8)] = np.arange(len(digits))
    for char, code in symbols.items():
        table[ord(char)] = code
    return table[np.frombuffer(data, dtype=np.uint8)].reshape(len(rows), width)


def _neighbour_count(mask):
    """For each square, how many of its eight neighbours are set in ``mask``."""
    import numpy as np

    height, width = mask.shape
    padded = np.zeros((height + 2, width + 2), dtype=np.int8)
    padded[1:-1, 1:-1] = mask
    total = np.zeros((height, width), dtype=np.int8)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                total += padded[1 + dr:1 + dr + height, 1 + dc:1 + dc + width]
    return total


def _cell_set(mask) -> frozenset[Cell]:
    import numpy as np

    return frozenset(GridCells(np.flatnonzero(mask), mask.shape[1]))


_COLONLESS = re.compile(r"\s*(%s)\s+\S" % "|".join(BOARD_HEADERS + GADGET_HEADERS), re.I)


def _check_colon(first: tuple[int, str], source: str) -> None:
    """A first row such as ``mines 10`` is a header without its colon (read as a
    row of squares, it only made the next row look ragged): say so there.

    >>> _check_colon((1, "mines 10"), "b.txt")
    Traceback (most recent call last):
    ...
    satsweeper.errors.BoardSyntaxError: b.txt:1:6: expected 'mines:' (a header needs its colon) (got 'mines 10')
    """
    number, line = first
    match = _COLONLESS.match(line)
    if match:
        raise BoardSyntaxError(source, number, match.end(1) + 1,
                               f"'{match.group(1).lower()}:' (a header needs its colon)", repr(line.strip()))


def _split_header(text: str, source: str) -> tuple[dict[str, tuple[str, int, int]], list[tuple[int, str]]]:
    """Separate ``key: value`` header lines (before the grid) from grid rows.

    Each header is kept with its value's line and column, so that an error
    about the value points at the value, not at the key.
    """
    headers: dict[str, tuple[str, int, int]] = {}
    rows: list[tuple[int, str]] = []
    for number, line in enumerate(split_lines(text), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(COMMENT):
            continue
        match = _HEADER.match(line)
        if match and not rows:
            key = match.group(1).lower()
            if key in headers:
                raise BoardSyntaxError(source, number, 1, f"one '{key}:' line",
                                       f"a second one (first on line {headers[key][1]})")
            headers[key] = (match.group(2), number, match.start(2) + 1)
            continue
        if match:
            raise BoardSyntaxError(source, number, 1, "header lines before the grid",
                                   repr(stripped))
        rows.append((number, line))
    for key, (_, number, _) in headers.items():
        if key not in BOARD_HEADERS + GADGET_HEADERS:
            known = ", ".join(f"'{k}:'" for k in BOARD_HEADERS + GADGET_HEADERS)
            raise BoardSyntaxError(source, number, 1, f"a header {known}", repr(key + ":"))
    return headers, rows


def _header_start(headers, board: Board, mines: frozenset[Cell] | None, source: str) -> Cell | None:
    """The ``start:`` cell: on the board, and not one of the layout's mines (a first click
    there would lose at once: every command that plays the layout refuses it, so it is
    refused here, where the line and column of the mistake are known)."""
    if "start" not in headers:
        return None
    value, number, column = headers["start"]
    match = re.fullmatch(r"([0-9]{1,9})\s*,\s*([0-9]{1,9})", value)
    cell = (int(match.group(1)), int(match.group(2))) if match else None
    if cell is None:  # '1;2', 'a,b': the form, not the place, is wrong
        raise BoardSyntaxError(source, number, column, "'start: ROW,COL', two whole numbers such as 'start: 0,0'",
                               repr(value))
    if not board.contains(cell):
        inside = f"inside the {board.width}x{board.height} board (WIDTHxHEIGHT)"
        void = cell in board.voids  # inside the rectangle, but a square the board does not have
        raise BoardSyntaxError(source, number, column, f"'start: ROW,COL' on a square of the board, {inside}"
                               if void else f"'start: ROW,COL' {inside}",
                               f"{value!r}, a void ('-')" if void else repr(value))
    if mines is not None and cell in mines:
        raise BoardSyntaxError(source, number, column, "'start: ROW,COL' on a safe cell (not a mine)",
                               f"{cell[0]},{cell[1]}, a mine")
    return cell


def _check_layout(board: Board, mines: frozenset[Cell], grid, total, source: str) -> None:
    """A layout's numbers and total must be the layout's own."""
    for (r, c), number in board.clues.items():
        actual = sum(1 for n in board.neighbours((r, c)) if n in mines)
        if number != actual:
            token = grid[r][c]
            raise BoardSyntaxError(source, token.line, token.column,
                                   f"{actual}, the layout's mines around {r},{c}", str(number))
    if total is not None and total[0] != len(mines):
        raise BoardSyntaxError(source, total[1], total[2], f"'mines: {len(mines)}', the mines of the layout",
                               f"'mines: {total[0]}'")


def _header_total(headers, source: str) -> tuple[int, int, int] | None:
    if "mines" not in headers:
        return None
    value, number, column = headers["mines"]
    if value.isascii() and value.isdigit() and not is_number(value):  # well formed, but no board is that big
        raise BoardSyntaxError(source, number, column, "'mines: N' with N of at most 12 digits",
                               f"{len(value)} digits")
    if not is_number(value):
        raise BoardSyntaxError(source, number, column, "'mines: N' with N a whole number", repr(value))
    return int(value), number, column


def _header_layout(headers, source: str, rows) -> str:
    if "layout" in headers:
        value, number, column = headers["layout"]
        if value not in ("dense", "tokens"):
            raise BoardSyntaxError(source, number, column, "'layout: dense' or 'layout: tokens'", repr(value))
        return value
    # Rows of several tokens make the grid tokenized, unless more rows are dense (one token of
    # several characters): then a stray space is the mistake, and the dense reading says where.
    firsts = [line.split(None, 1) for _, line in rows]  # at most two pieces: a huge row is not split whole
    spaced = sum(len(parts) > 1 for parts in firsts)
    dense = sum(len(parts) == 1 and len(parts[0]) > 1 for parts in firsts)
    return "tokens" if spaced > dense else "dense"


def _tokens_of(line: str, number: int, layout: str, source: str) -> list[_Token]:
    if layout == "tokens":
        return [_Token(m.group(), number, m.start() + 1) for m in re.finditer(r"\S+", line)]
    body = line.rstrip()
    indent = len(body) - len(body.lstrip())
    if " " in body.strip() or "\t" in body.strip():
        column = indent + body.strip().index(next(ch for ch in body.strip() if ch.isspace())) + 1
        raise BoardSyntaxError(source, number, column, "one character per square in a dense row",
                               "white space (use 'layout: tokens' for tokenized rows)")
    return [_Token(ch, number, indent + i + 1) for i, ch in enumerate(body.strip())]


def _board_from_tokens(grid: list[list[_Token]], source: str) -> tuple[Board, set[Cell]]:
    """The player's board, and the hidden mines (``*``) of a layout."""
    clues: dict[Cell, int] = {}
    flags, voids, stars = set(), set(), set()
    names: dict[Cell, str] = {}
    seen_names: dict[str, _Token] = {}
    for r, row in enumerate(grid):
        for c, token in enumerate(row):
            text = token.text
            if text == HIDDEN:
                continue
            if text == MINE:
                stars.add((r, c))
            elif text == FLAG:
                flags.add((r, c))
            elif text == VOID:
                voids.add((r, c))
            elif len(text) == 1 and text in "0123456789":
                clues[(r, c)] = int(text)
            elif _NAME.match(text):
                if text in seen_names:
                    first = seen_names[text]
                    # A letter typed twice is more often a mine ('X', 'M') than a name meant twice.
                    mine = "; a mine is '*'" if len(text) == 1 else ""
                    raise BoardSyntaxError(source, token.line, token.column,
                                           f"a name used once ('{text}' already at line {first.line} col "
                                           f"{first.column}{mine})", repr(text))
                seen_names[text] = token
                names[(r, c)] = text
            else:
                expected = "a square: '.', '*', '0'-'8', 'F', '-' or a cell name"
                if not text.isascii():  # 'é' as a name was refused with no word on what a name may be
                    expected += " (names are ASCII)"
                if len(text) > 1 and all(ch in "*.F-0123456789" for ch in text):
                    # Squares run together where a row's white space made the grid tokenized.
                    expected += " (one per token: a row with white space between squares makes the grid tokenized)"
                raise BoardSyntaxError(source, token.line, token.column, expected, _shown(text))
    return Board(len(grid), len(grid[0]), clues, frozenset(flags), frozenset(voids), names), stars


def _shown(text: str) -> str:
    """A bad square as the message shows it: quoted, and a character the eye cannot tell
    from another (a no-break space, a non-ASCII look-alike) by its code point and name.

    >>> _shown("x"), _shown("\xa0"), _shown("\u2217")
    ("'x'", 'U+00A0 (NO-BREAK SPACE)', 'U+2217 (ASTERISK OPERATOR)')
    >>> _shown("1\u2217")
    "'1∗', with U+2217 (ASTERISK OPERATOR)"
    """
    import unicodedata
    if text.isascii() and text.isprintable():
        return repr(text)
    odd = next(ch for ch in text if not (ch.isascii() and ch.isprintable()))
    named = f"U+{ord(odd):04X} ({unicodedata.name(odd, 'unnamed')})"
    return named if text == odd else f"{text!r}, with {named}"


def _check_numbers(board: Board, grid: list[list[_Token]], source: str) -> None:
    for (r, c), number in board.clues.items():
        room = len(board.neighbours((r, c)))
        if number > room:
            token = grid[r][c]
            raise BoardSyntaxError(source, token.line, token.column,
                                   f"a number at most {room}, the neighbours of {r},{c} on the board",
                                   str(number))


def _check_total(board: Board, total: tuple[int, int, int], source: str) -> None:
    value, number, column = total
    squares = sum(1 for cell in board.cells() if board.contains(cell))
    if value > squares:
        raise BoardSyntaxError(source, number, column, f"a total of 0 to {squares} mines (the squares of the board)",
                               str(value))


def format_board(board: Board, mines: frozenset[Cell] | None = None,
                 start: Cell | None = None, tokenized: bool = False) -> str:
    """Write ``board`` (and a layout and start) in the native format.

    ``parse_puzzle`` reads it back equal.  Rows are dense (a character a
    square) where they can be, else (or with ``tokenized``) white-space-separated tokens.

    >>> print(format_board(Board(1, 3, {(0, 1): 1}, names={(0, 0): "x"}, total_mines=1)), end="")
    mines: 1
    x1.
    """
    if not isinstance(board, Board):  # text, say: an AttributeError from deep inside
        raise InputError(f"a Board; parse_board makes one of text (got {type(board).__name__})")
    hidden_mines = (mines or frozenset()) - board.flags
    off = sorted(c for c in hidden_mines if not board.contains(c))
    if off:  # dropped silently before: the layout written was not the one given
        raise InputError(f"mines on the {board.width}x{board.height} board (got {off[0]})")
    _check_writable(board)
    lines = []
    if board.total_mines is not None:
        lines.append(f"mines: {board.total_mines}")
    if start is not None:
        lines.append(f"start: {start[0]},{start[1]}")
    if isinstance(board.clues, GridClues):  # a big board (a compiled circuit) as arrays
        return "\n".join(lines + _grid_rows(board, hidden_mines, tokenized)) + "\n"
    tokens = {cell: MINE if cell in hidden_mines else _symbol(board, cell) for cell in board.cells()}
    dense = not tokenized and all(len(t) == 1 for t in tokens.values()) and all(
        _DENSE_NAME.match(n) for n in board.names.values())
    if dense:
        for r in range(board.height):
            lines.append("".join(tokens[(r, c)] for c in range(board.width)))
    else:
        lines.append("layout: tokens")
        size = max(len(t) for t in tokens.values())
        for r in range(board.height):
            lines.append(" ".join(tokens[(r, c)].ljust(size) for c in range(board.width)).rstrip())
    return "\n".join(lines) + "\n"


def _grid_rows(board: Board, hidden_mines: frozenset[Cell], tokenized: bool) -> list[str]:
    """:func:`format_board`'s rows of a board kept as arrays, the same text square for square.

    A dict of every square's token took 230 bytes and 9 µs a square: a compiled 10-variable
    CNF of 24.6 million squares took 3.7 minutes and 5.7 GB to write (0.6 GB to compile).
    """
    import numpy as np
    symbols = np.array(list("012345678") + [FLAG, VOID, HIDDEN])  # codes 0-8, FLAG_SQUARE, VOID_SQUARE, -1
    size = max([1] + [len(n) for cell, n in board.names.items() if cell not in hidden_mines])  # a mine hides its name
    tokens = symbols[board.squares].astype(f"<U{size}")
    for (r, c), called in board.names.items():
        tokens[r, c] = called
    for r, c in hidden_mines:
        tokens[r, c] = MINE
    if not tokenized and all(_DENSE_NAME.match(n) for n in board.names.values()):
        return ["".join(row) for row in tokens.tolist()]
    padded = np.char.ljust(tokens, size) if size > 1 else tokens
    return ["layout: tokens"] + [" ".join(row).rstrip() for row in padded.tolist()]


def _check_writable(board: Board) -> None:
    """Refuse what a Board may hold but no text can (the board is then inconsistent, which the
    library answers): a file written with it was one ``parse_board`` refused, or read otherwise
    (a cell named F came back a flag)."""
    for (r, c), called in sorted(board.names.items()):
        if not is_cell_name(called):
            raise InputError(f"a cell name a file can hold at {r},{c}: letters, digits, _ and ', a letter "
                             f"first, maybe [indices] last, not F (a flag) (got {called!r})")
    squares = board.height * board.width - len(board.voids)  # voids lie inside the rectangle
    if board.total_mines is not None and not 0 <= board.total_mines <= squares:
        raise InputError(f"a total of 0 to {squares} mines, as a file can hold it (got {board.total_mines}; "
                         f"the board answers as inconsistent, but cannot be written)")
    over = _over_room(board) if isinstance(board.clues, GridClues) else next(
        (cell for cell, n in sorted(board.clues.items()) if not 0 <= n <= len(board.neighbours(cell))), None)
    if over is None:
        return
    r, c = over
    raise InputError(f"a number 0 to {len(board.neighbours((r, c)))} at {r},{c}, as a file can hold it (got "
                     f"{board.clues[(r, c)]}; the board answers as inconsistent, but cannot be written)")


def _over_room(board: Board) -> Cell | None:
    """The first number of an array board above its squares around it (a GridClues holds 0-8 only)."""
    import numpy as np
    squares = board.squares
    inside = np.pad(squares != VOID_SQUARE, 1).astype(np.int8)
    room = sum(np.roll(np.roll(inside, dr, 0), dc, 1) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
               if (dr, dc) != (0, 0))[1:-1, 1:-1]
    numbers = board.clues.numbers
    bad = np.argwhere((numbers >= 0) & (numbers > room))
    return (int(bad[0][0]), int(bad[0][1])) if len(bad) else None


def grid_rows(board: Board) -> list[str]:
    """One string per row, a square a character: ``0``-``8`` a number, ``F`` a flag, ``-``
    a void, ``.`` hidden (named or not: names are said apart), as the browser page draws it.

    >>> grid_rows(Board(2, 3, {(0, 0): 1}, frozenset({(0, 1)}), frozenset({(1, 2)}), names={(0, 2): "x"}))
    ['1F.', '..-']
    """
    return ["".join(_symbol(board, (r, c)) if (r, c) not in board.names else HIDDEN for c in range(board.width))
            for r in range(board.height)]


def _symbol(board: Board, cell: Cell) -> str:
    if cell in board.voids:
        return VOID
    if cell in board.flags:
        return FLAG
    if cell in board.clues:
        return str(board.clues[cell])
    return board.names.get(cell, HIDDEN)


# ----------------------------------------------------------- JSMinesweeper

def parse_mine(text: str, source: str = "<string>") -> Board:
    """Parse a JSMinesweeper ``.mine`` file (the player's view).

    >>> b = parse_mine("3x2x1\\n1H0\\nFH1\\n")
    >>> (b.width, b.height, b.total_mines, sorted(b.flags))
    (3, 2, 1, [(1, 0)])
    """
    return parse_mine_puzzle(text, source).board


def parse_mine_puzzle(text: str, source: str = "<string>") -> Puzzle:
    """Parse a ``.mine`` file, with its layout when it carries one.

    As JSMinesweeper does, a file holds a whole layout when its ``F``, ``M``
    and ``?`` squares are exactly as many as the header's mines; ``M`` and
    ``?`` are then hidden mines (the player sees hidden cells).

    >>> p = parse_mine_puzzle("3x1x1\\n01M\\n")
    >>> p.mines, p.board.hidden_cells()
    (frozenset({(0, 2)}), [(0, 2)])
    """

    _require_text(text, source)
    lines = split_lines(text)
    if not lines or not lines[0].strip():
        raise BoardSyntaxError(source, 1, 1, "a first line WIDTHxHEIGHTxMINES", "an empty line" if lines else "an empty file")
    match = _MINE_HEADER.match(lines[0])
    if not match:
        # The right shape with too many digits: say the limit, not the shape it already has.
        long = re.fullmatch(r"\s*[0-9]+x[0-9]+x[0-9]+\s*", lines[0])
        raise BoardSyntaxError(source, 1, 1, "a first line WIDTHxHEIGHTxMINES" + (
            " with at most 9 digits a side and 12 for the mines" if long else ""), repr(lines[0]))
    width, height, mines = (int(g) for g in match.groups())
    if width == 0 or height == 0:
        raise BoardSyntaxError(source, 1, 1, "a width and height of at least 1", lines[0].strip())
    if height * width > ARRAY_SQUARES:
        fast = _dense_mine(lines, height, width, mines)
        if fast is not None:  # else the square-by-square reading below says what is wrong
            return fast
    clues: dict[Cell, int] = {}
    flags, marked = set(), set()
    for r in range(height):
        number = r + 2
        if number > len(lines):  # point at the end of the file, not past it
            ends_line = text.endswith(("\n", "\r"))  # then an empty last line is there
            line, col = (len(lines) + 1, 1) if ends_line else (len(lines), len(lines[-1]) + 1)
            raise BoardSyntaxError(source, line, col, f"{height} rows after the header", f"{r} rows")
        row = _mine_row(lines[number - 1], width)
        if len(row) != width:
            raise BoardSyntaxError(source, number, min(len(row), width) + 1,
                                   f"{width} characters per row", f"{len(row)}")
        for c, ch in enumerate(row):
            if ch in "0123456789":  # a 9 is a number too big (an error below), never a hidden square
                clues[(r, c)] = int(ch)
            elif ch == "F":
                flags.add((r, c))
                marked.add((r, c))
            elif ch in "M?":
                marked.add((r, c))
    extra = [i for i in range(height + 1, len(lines)) if lines[i].strip()]
    if extra:
        raise BoardSyntaxError(source, extra[0] + 1, 1, f"only {height} rows after the header",
                               repr(lines[extra[0]].strip()))
    board = Board(height, width, clues, frozenset(flags))
    grid = [[_Token(str(clues.get((r, c), "")), r + 2, c + 1) for c in range(width)] for r in range(height)]
    _check_numbers(board, grid, source)
    _check_total(board, (mines, 1, lines[0].rindex("x") + 2), source)  # the M of WxHxM
    board = Board(height, width, clues, frozenset(flags), total_mines=mines)
    if len(marked) != mines or not mines:
        return Puzzle(board)
    layout = frozenset(marked)
    if marked == flags:
        # Only flags: a position whose mines are all flagged is a layout only
        # if its numbers say so too.
        consistent = all(sum(1 for n in board.neighbours(cell) if n in layout) == number
                         for cell, number in clues.items())
        return Puzzle(board, layout if consistent else None)
    _check_layout(board, layout, grid, (mines, 1), source)
    return Puzzle(board, layout)


def _mine_row(line: str, width: int) -> str:
    """A ``.mine`` row without its line end, and without the white space an editor left after
    it where the row is longer than the header says (native rows drop it too; a ``.mine``
    row was refused for it).  Any character is a square there, a space too, so a row of
    the right length is kept whole.

    >>> _mine_row("HHM \\t\\r\\n", 3), _mine_row("HH \\n", 3)
    ('HHM', 'HH ')
    """
    row = line.rstrip("\r\n")
    return row.rstrip() if len(row) > width else row


def _dense_mine(lines: list[str], height: int, width: int, mines: int) -> Puzzle | None:
    """A well-formed big ``.mine`` file read by array operations, as :func:`_dense_puzzle`.

    The same answer as the square-by-square reading (tests/test_huge.py
    compares them on random texts): a 1,500,000-square file took 11-17 s
    that way, a compiled circuit's 170,000 squares 1.4 s (0.01 s so).  None for
    anything that reading must point at (a short or ragged row, extra lines,
    a number too big, a total too big or a layout that disagrees).
    """
    import numpy as np

    rows = [_mine_row(line, width) for line in lines[1:height + 1]]
    if len(rows) < height or any(len(row) != width for row in rows) or \
            any(line.strip() for line in lines[height + 1:]):
        return None
    # As the square-by-square reading: '0'-'9' numbers (9 too big: None), 'F' a
    # flag, 'M' and '?' marked mines, anything else (JSMinesweeper writes 'H') hidden.
    codes = _square_codes(rows, width, "0123456789", _HIDDEN_CODE,
                          {"F": _FLAG_CODE, "M": _MINE_CODE, "?": _MINE_CODE})
    if codes is None:
        return None
    numbers = np.where(codes <= 9, codes, -1).astype(np.int8)
    if (numbers > _neighbour_count(np.ones((height, width), dtype=bool))).any() or mines > height * width:
        return None
    flag = codes == _FLAG_CODE
    marked = flag | (codes == _MINE_CODE)
    board = Board.from_squares(np.where(flag, FLAG_SQUARE, numbers), mines)
    if int(marked.sum()) != mines or not mines:
        return Puzzle(board)
    shown = numbers >= 0
    agrees = bool((numbers[shown] == _neighbour_count(marked)[shown]).all())
    if not (marked == flag).all():
        return Puzzle(board, _cell_set(marked)) if agrees else None
    # Only flags: a layout only if its numbers say so too (no error otherwise).
    return Puzzle(board, _cell_set(marked) if agrees else None)


def format_mine(board: Board, mines: frozenset[Cell] | None = None) -> str:
    """Write ``board`` (and a layout: ``M`` for hidden mines) as a ``.mine`` file.

    Raises:
        ValueError: the board has void squares or no total mine count, which
            the format cannot carry.  (Cell names and the start cell are not
            part of the format and are dropped.)
    """
    if board.voids:
        # Worded as "X (got Y)": the CLI and the page say "expected" before it.
        raise InputError("a board without void squares ('-'), which a .mine file cannot hold "
                         f"(got {len(board.voids)} void square{'s' if len(board.voids) != 1 else ''})")
    if board.total_mines is None:
        raise InputError("a board with its total mine count, which a .mine file needs (got one without)")
    import numpy as np

    hidden_mines = (mines or frozenset()) - board.flags
    # One byte a square from the board's square codes (hidden -1, numbers,
    # flags): a compiled circuit's 170,000 squares took 0.09 s one by one.
    symbols = np.frombuffer(b"H012345678F", dtype=np.uint8)
    grid = np.full((board.height, board.width + 1), ord("\n"), dtype=np.uint8)
    grid[:, :-1] = symbols[board.squares.astype(np.int16) + 1]
    for r, c in hidden_mines:
        grid[r, c] = ord("M")
    return f"{board.width}x{board.height}x{board.total_mines}\n" + grid.tobytes().decode("ascii")


# ------------------------------------------------------------- printouts

def format_grid(board: Board, overlay: Mapping[Cell, str] | None = None) -> str:
    """A human-readable picture of ``board`` with row and column numbers.

    ``overlay`` replaces the symbol of some cells (for example ``*`` for a
    mine in an explanation, or a percentage).

    >>> print(format_grid(Board(1, 2, {(0, 0): 1})))
       0 1
    0  1 .
    """
    overlay = overlay or {}
    symbols = {cell: overlay.get(cell, _symbol(board, cell)) for cell in board.cells()}
    size = max([len(s) for s in symbols.values()] + [len(str(board.width - 1))])
    margin = len(str(board.height - 1)) + 2
    header = " " * margin + " ".join(str(c).rjust(size) for c in range(board.width))
    lines = [header.rstrip()]
    for r in range(board.height):
        row = " ".join(symbols[(r, c)].rjust(size) for c in range(board.width))
        lines.append(f"{str(r).rjust(margin - 2)}  {row}".rstrip())
    return "\n".join(lines)
