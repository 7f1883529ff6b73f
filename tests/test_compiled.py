"""The compiled build of bitboard.py (setup.py): built and in use, the same answers as the
Python source, and never used once the source has changed.

The oracle for the answers is the source itself: bitboard.py loaded under another name
runs as plain Python (the swap at its end happens only as ``satsweeper.bitboard``); the
oracles of tests/test_bitboard.py then hold both, which runs its tests on each.

Without a compiled build (no C compiler) the tests that need one skip, so a developer can
still run the suite; under CI (``CI=1``) a missing or stale build fails test_built_and_in_use.
"""

from __future__ import annotations

import importlib.util
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings

import satsweeper
from satsweeper import bitboard
from satsweeper.board import Board
from satsweeper.compiled import fresh
from satsweeper.game import LEVELS, Level
from satsweeper.positions import position

from .pure import PURE, imported
from .strategies import boards

NAME = "satsweeper._bitboard_compiled"
SPEC = importlib.util.find_spec(NAME)
SOURCE = Path(bitboard.__file__).read_bytes()


def compiled_module(required: bool = False):
    """The compiled build of this very source, or a skip; a failure under CI when ``required``
    (one test says the build is missing, the others skip)."""
    problem = ("not built (no C compiler? `pip install -e .` builds it)" if SPEC is None else
               None if fresh(importlib.import_module(NAME), SOURCE) else
               "built from another bitboard.py (`pip install -e .` rebuilds it)")
    if problem is None:
        return importlib.import_module(NAME)
    if required and os.environ.get("CI"):
        pytest.fail(f"{NAME}: {problem}")
    pytest.skip(f"{NAME}: {problem}")


class TestInUse:
    def test_built_and_in_use(self):
        """A normal import runs the compiled functions (a failure under CI if the build failed)."""
        compiled = compiled_module(required=True)
        if os.environ.get("SATSWEEPER_PURE", "0") not in ("", "0"):
            pytest.skip("SATSWEEPER_PURE is set in this run")
        assert bitboard.COMPILED is compiled
        assert bitboard.determined is compiled.determined and bitboard.tally is compiled.tally
        assert bitboard._forward is compiled._forward and bitboard._Hidden is compiled._Hidden
        assert type(bitboard.determined).__name__ == "cython_function_or_method"  # not the Python function
        assert type(PURE.determined).__name__ == "function" and PURE.COMPILED is None

    def test_environment_forces_pure(self):
        """SATSWEEPER_PURE=1 runs the Python source; unset or 0, the compiled build."""
        compiled_module()
        assert imported("bitboard", {"SATSWEEPER_PURE": "1"}) == "pure"
        assert imported("bitboard", {"SATSWEEPER_PURE": "0"}) == NAME

    def test_stale_build_is_not_used(self, tmp_path):
        """A copy of the package whose bitboard.py gained one comment runs it as Python, though
        the compiled module lies beside it; the unchanged copy runs the compiled one."""
        compiled_module()
        package = tmp_path / "satsweeper"
        shutil.copytree(Path(satsweeper.__file__).parent, package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.c"))
        shutil.copy(SPEC.origin, package)  # beside the source already, unless installed apart
        assert imported("bitboard", {"SATSWEEPER_PURE": "0"}, tmp_path) == NAME
        with open(package / "bitboard.py", "a") as source:
            source.write("# edited\n")
        assert imported("bitboard", {"SATSWEEPER_PURE": "0"}, tmp_path) == "pure"


class TestWithoutCython:
    def test_source_runs_without_cython(self):
        """bitboard.py's Cython declarations need no Cython at run time (pip installs it for the
        build only): with ``import cython`` failing, the Python path answers as the oracle."""
        code = ("import sys; sys.modules['cython'] = None\n"  # an import of it now raises ImportError
                "import satsweeper.bitboard as b\n"
                "from satsweeper.textio import parse_board\n"
                "assert b.cython.compiled is False and b.COMPILED is None\n"
                "print(sorted(b.determined(parse_board('mines: 1\\n1..\\n')).items()))")
        out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, SATSWEEPER_PURE="1"),
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "[((0, 1), True), ((0, 2), False)]"  # the one mine next to the 1


def same_determined(board: Board, compiled, **options) -> None:
    want, got = PURE.determined(board, **options), compiled.determined(board, **options)
    assert (got is None) == (want is None)
    if want is not None:
        assert list(got.items()) == list(want.items())


def same_tally(board: Board, compiled) -> None:
    want, got = PURE.tally(board), compiled.tally(board)
    assert (got is None) == (want is None)
    if want is not None:
        assert (got.count, got.frontier, got.scale) == (want.count, want.frontier, want.scale)
        assert list(got.mines.items()) == list(want.mines.items())


class TestSameAnswers:
    @settings(max_examples=400, deadline=None)
    @given(boards())
    def test_small_boards(self, board):
        """Random small boards, contradictions and bad totals among them: the same answers."""
        compiled = compiled_module()
        same_determined(board, compiled)
        same_determined(board, compiled, max_states=3)  # declines where Python declines
        same_tally(board, compiled)

    @pytest.mark.parametrize("level", [LEVELS["beginner"], LEVELS["intermediate"], LEVELS["expert"],
                                       Level(40, 40, 320)])
    def test_real_positions(self, level):
        """Stuck positions of real games at every stage, with and without the total."""
        compiled = compiled_module()
        rng = random.Random(level.height)
        found = 0
        for seed in range(40 if level.height < 40 else 6):
            board = position(level, seed, rng.choice((None, 0.0, 0.5)))
            if board is None:
                continue
            found += 1
            for subject in (board, Board(board.height, board.width, board.clues, board.flags)):
                same_determined(subject, compiled)
                same_tally(subject, compiled)
        assert found >= 3
