"""The compiled builds of every module in NAMES (satsweeper/compiled.py, which setup.py reads): built and in use, never used once
their source has changed, and making exactly the moves and the counts of the same source run
as plain Python.

The oracle is the source itself: a second interpreter with ``SATSWEEPER_PURE=1`` runs every
module as Python and plays the same games (every decision, its basis and value, compared
move by move) and counts the same positions (every probability, an exact Fraction).  The
answers themselves are checked against brute force by the rest of the suite, which runs on
the compiled builds (tests/test_compiled.py and tests/test_optimal_compiled.py hold more on
the two modules tuned for Cython, bitboard and optimal).

Without a compiled build the tests that need one skip; under CI (``CI=1``) a missing or stale
build fails.
"""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import satsweeper
from satsweeper.compiled import NAMES, TYPED
from satsweeper.experiments import play
from satsweeper.game import FirstClick, Level
from satsweeper.positions import positions
from satsweeper.strategies import strategy

from .pure import imported

ROOT = Path(__file__).resolve().parent.parent


def typed() -> tuple:
    """TYPED: the modules written for Cython."""
    return TYPED


def shifts_of_c_integers(source: str) -> list[int]:
    """Lines with ``<<`` or ``**`` straight on len() or ord(): compiled, those are C integers
    and the shift wraps past 63 bits (setup.py's TYPED says why; ``int(len(x))`` is safe).

    >>> shifts_of_c_integers("a = 1 << len(x)\\nb = 1 << int(len(x))\\nc = 2 ** ord(y)\\n")
    [1, 3]
    """
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.LShift, ast.Pow)):
            for side in (node.left, node.right):
                if isinstance(side, ast.Call) and getattr(side.func, "id", None) in ("len", "ord"):
                    lines.append(node.lineno)
    return sorted(set(lines))


def compiled_name(name: str) -> str:
    package, _, module = f"satsweeper.{name}".rpartition(".")
    return f"{package}._{module}_compiled"


def require_build(name: str):
    """The compiled build of ``satsweeper.NAME``, built from its current text, or a skip
    (a failure under CI)."""
    module = importlib.import_module(f"satsweeper.{name}")
    try:
        compiled = importlib.import_module(compiled_name(name))
    except ImportError:
        problem = "not built (no C compiler? `pip install -e .` builds it)"
    else:
        fresh = getattr(compiled, "_SOURCE", None) == Path(module.__file__).read_bytes()
        problem = None if fresh else "built from another version of the file (`pip install -e .` rebuilds it)"
    if problem is None:
        return module, compiled
    if os.environ.get("CI"):
        pytest.fail(f"{compiled_name(name)}: {problem}")
    pytest.skip(f"{compiled_name(name)}: {problem}")


def pure_is_set() -> bool:
    return os.environ.get("SATSWEEPER_PURE", "0") not in ("", "0")


class TestInUse:
    @pytest.mark.parametrize("name", NAMES)
    def test_built_and_in_use(self, name):
        module, compiled = require_build(name)
        if pure_is_set():
            pytest.skip("SATSWEEPER_PURE is set in this run")
        assert module.COMPILED is compiled
        # the module's own functions (not those a decorator wrapped: lru_cache, contextmanager)
        functions = [v for v in vars(module).values() if callable(v) and not isinstance(v, type)
                     and getattr(v, "__module__", None) == module.__name__ and not hasattr(v, "__wrapped__")]
        assert functions and all(type(f).__name__ == "cython_function_or_method" for f in functions)

    def test_environment_forces_pure(self):
        for name in NAMES:
            require_build(name)
        assert imported("strategies.best", {"SATSWEEPER_PURE": "1"}) == "pure"
        assert imported("strategies.best", {"SATSWEEPER_PURE": "0"}) == compiled_name("strategies.best")

    def test_stale_build_is_not_used(self, tmp_path):
        """A copy of the package whose endgame.py gained one comment runs that one file as
        Python, and the others still compiled."""
        require_build("strategies.endgame")
        package = tmp_path / "satsweeper"
        shutil.copytree(Path(satsweeper.__file__).parent, package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.c"))
        assert imported("strategies.endgame", {"SATSWEEPER_PURE": "0"}, tmp_path) == \
            compiled_name("strategies.endgame")
        with open(package / "strategies" / "endgame.py", "a") as source:
            source.write("# edited\n")
        assert imported("strategies.endgame", {"SATSWEEPER_PURE": "0"}, tmp_path) == "pure"
        assert imported("strategies.best", {"SATSWEEPER_PURE": "0"}, tmp_path) == compiled_name("strategies.best")
        # --version says so (a packager's one way to learn it)
        assert version_says(tmp_path) == ("compiled: 9 of the 10 modules of the hot paths (Cython); plain Python:"
                                          " strategies.endgame (not built, or its file changed since)")

    def test_version_says_which_builds_run(self, tmp_path):
        """The oracle: each module's own COMPILED in a fresh interpreter (``imported``)."""
        for name in NAMES:
            require_build(name)
        assert running() == [compiled_name(n) for n in NAMES]
        assert version_says() == "compiled: all 10 modules of the hot paths (Cython)"
        assert running(env={"SATSWEEPER_PURE": "1"}) == ["pure"] * len(NAMES)
        assert version_says(env={"SATSWEEPER_PURE": "1"}) == "plain Python: SATSWEEPER_PURE is set"
        # none in use: a copy of the package whose every such file changed (a copy without its
        # compiled modules would not do under an editable install, whose finder still has them)
        package = tmp_path / "satsweeper"
        shutil.copytree(Path(satsweeper.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__", "*.c"))
        for name in NAMES:
            with open(package / (name.replace(".", "/") + ".py"), "a") as source:
                source.write("# edited\n")
        assert running(tmp_path) == ["pure"] * len(NAMES)
        assert version_says(tmp_path).startswith("plain Python: no compiled build in use (installed without Cython")


def running(path: Path | None = None, env: dict | None = None) -> list[str]:
    """What each module of NAMES runs in a fresh interpreter (of the package copy at
    ``path``): its compiled module's name or 'pure'.  (As ``imported``, for all at once:
    ``import satsweeper.tally as m`` would find the package's function ``tally``.)"""
    env = {**os.environ, "SATSWEEPER_PURE": "0", **(env or {})}
    if path is not None:
        env["PYTHONPATH"] = str(path)
    code = ("import importlib, json; modules = [importlib.import_module('satsweeper.' + n) for n in %r]; "
            "print(json.dumps([m.COMPILED.__name__ if m.COMPILED else 'pure' for m in modules]))" % (NAMES,))
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=path or ROOT, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def version_says(path: Path | None = None, env: dict | None = None) -> str:
    """The line after the version in ``satsweeper --version`` (of the package copy at ``path``)."""
    env = {**os.environ, "SATSWEEPER_PURE": "0", **(env or {})}
    if path is not None:
        env["PYTHONPATH"] = str(path)
    out = subprocess.run([sys.executable, "-m", "satsweeper", "--version"], env=env, cwd=path or ROOT,
                         capture_output=True, text=True, check=True)
    first, second = out.stdout.splitlines()
    assert first == f"satsweeper, version {importlib.metadata.version('satsweeper')}"
    return second


# The games compared: expert (the look-ahead and the far corners), 8x8 with 12 mines (many
# exact endgames), a 5x4 board with 6 (the endgame from the first guess).
GAMES = [("best", "30x16x99", 6), ("exact", "30x16x99", 6), ("best", "8x8x12", 25), ("best", "5x4x6", 25)]


def moves() -> list:
    """Every decision of the games in GAMES, and each game's result, as JSON-ready lists."""
    out = []
    for name, level, games in GAMES:
        for seed in range(games):
            player, record = strategy(name), []
            decide = player.decide

            def recorded(board, rng, decide=decide, record=record):
                decision = decide(board, rng)
                record.append([decision.opens, decision.flags, decision.guess, decision.basis, str(decision.value)])
                return decision

            player.decide = recorded
            player.check_consistency = False  # as play() sets it for a player it makes
            result = play(Level.parse(level), name, f"compiled:{seed}", FirstClick.SAFE, (0, 0), player=player)
            out.append([name, level, seed, result.won, result.guesses, record])
    return json.loads(json.dumps(out))  # tuples as lists, as the other interpreter's JSON has them


def probabilities() -> list:
    """The exact mine probability of every hidden cell of some stuck positions."""
    from satsweeper.counting import tally
    boards = positions(Level.parse("30x16x99"), 8, seed=7) + positions(Level.parse("9x9x10"), 8, seed=7)
    counts = [tally(board) for board in boards]
    return [[str(t.count)] + [[list(cell), str(t.probability(cell))] for cell in t.cells()] for t in counts]


def in_pure_python(function: str) -> list:
    code = (f"import json, sys; from tests.test_compiled_modules import {function}; "
            f"json.dump({function}(), sys.stdout)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=dict(os.environ, SATSWEEPER_PURE="1"),
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def doctests() -> list:
    """The names of the doctests in every module of NAMES, as doctest finds them."""
    import doctest
    finder = doctest.DocTestFinder()
    return [sorted(test.name for test in finder.find(importlib.import_module(f"satsweeper.{name}"))
                   if test.examples) for name in NAMES]


class TestDoctests:
    def test_the_same_doctests_as_python(self):
        """A method still named after its compiled module is one whose doctest is not
        collected (satsweeper.compiled.adopt names them after the module): before adopt
        renamed methods too, pytest collected 10 doctests fewer from the compiled builds
        (6 of board.py's, one each of components, constraints, tally and optimal)."""
        for name in NAMES:
            require_build(name)
        compiled = doctests()
        assert sum(map(len, compiled)) > 60
        assert compiled == in_pure_python("doctests")


class TestSignals:
    """Compiled code sees a signal only when it calls into Python code (satsweeper.compiled):
    the long loops call compiled.checkpoint().  Without those calls, the deadlines below
    (0.3 s) were seen after 1.3 s (the endgame) and 2.3-2.6 s (the optimal search), and
    Ctrl-C stopped ``satsweeper optimal 5x5x7`` after 4 s."""

    def stopped_after(self, work) -> float:
        import time

        from satsweeper.limits import TimeUp, deadline
        start = time.monotonic()
        with pytest.raises(TimeUp):
            with deadline(0.3):
                work()
        return time.monotonic() - start

    def test_the_endgame_search(self):
        import random

        from satsweeper.strategies.endgame import Search
        require_build("strategies.endgame")
        rng, n = random.Random(1), 1000  # 1,000 explanations, 40 cells: far more than 0.3 s of search
        mine = [sum(1 << i for i in range(n) if rng.random() < 0.3) for _ in range(40)]
        shows = []
        for m in mine:
            parts = [0] * 4
            for i in range(n):
                if not m >> i & 1:
                    parts[rng.randrange(4)] |= 1 << i
            shows.append(tuple(p for p in parts if p))
        assert self.stopped_after(lambda: Search(mine, shows, 10 ** 9).best((1 << n) - 1)) < 1.0

    def test_the_optimal_search(self):
        from satsweeper.optimal import optimum
        require_build("optimal")
        # 5x5x6: 2.7 s to list its layouts, a minute to search them
        assert self.stopped_after(lambda: optimum(Level.parse("5x5x6"), FirstClick.SAFE, (0, 0))) < 1.0

    @pytest.mark.parametrize("work", ["tally", "count"])
    def test_the_components_count(self, work):
        """The count's dynamic programming, as ``satsweeper count`` runs it (a Problem: the
        components engine, not the bitboard's): Ctrl-C or kill took 1.3-3.7 s to stop it on
        this board (a pipeline's probe)."""
        import satsweeper.components as components
        from satsweeper.constraints import problem_of
        from satsweeper.textio import parse_board
        require_build("components")
        # a 2 on every other square of every other row, 900 mines: about a minute to count
        rows = ["".join("2" if r % 2 == 0 and c % 2 == 0 else "." for c in range(60)) for r in range(60)]
        problem = problem_of(parse_board("mines: 900\n" + "\n".join(rows) + "\n"))
        assert self.stopped_after(lambda: getattr(components, work)(problem)) < 1.0


class TestSource:
    @pytest.mark.parametrize("name", [n for n in NAMES if n not in typed()])
    def test_no_shift_of_a_c_integer(self, name):
        path = ROOT / "satsweeper" / (name.replace(".", "/") + ".py")
        assert shifts_of_c_integers(path.read_text()) == []


class TestSameAnswers:
    def test_the_same_moves_as_python(self):
        for name in NAMES:
            require_build(name)
        compiled = moves()
        assert sum(len(game[-1]) for game in compiled) > 500  # a few hundred decisions compared
        assert any(move[3] == "endgame" for game in compiled for move in game[-1])
        pure = in_pure_python("moves")
        assert len(pure) == len(compiled)
        for mine, theirs in zip(compiled, pure):
            assert mine == theirs, mine[:3]

    def test_the_same_probabilities_as_python(self):
        for name in NAMES:
            require_build(name)
        compiled = probabilities()
        assert len(compiled) == 16 and all(compiled)
        assert compiled == in_pure_python("probabilities")
