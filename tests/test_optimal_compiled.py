"""The compiled build of optimal.py (setup.py): built and in use, the same values and states as
the Python source, and never used once the source has changed.

The oracle is the source itself, loaded under another name (the swap to the compiled build at
the end of optimal.py happens only as ``satsweeper.optimal``), which runs as plain Python; the
values of both are also checked by tests/test_optimal.py against a brute-force minimax.
Without a compiled build the tests skip; under CI (``CI=1``) a missing or stale build fails.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

import pytest

import satsweeper
from satsweeper import optimal
from satsweeper.game import FirstClick, Level

from .pure import imported

NAME = "satsweeper._optimal_compiled"
SPEC = importlib.util.find_spec(NAME)
SOURCE = Path(optimal.__file__).read_bytes()


def compiled_module(required: bool = False):
    """The compiled build of this very source, or a skip (a failure under CI when ``required``)."""
    problem = ("not built (no C compiler? `pip install -e .` builds it)" if SPEC is None else
               None if getattr(importlib.import_module(NAME), "_SOURCE", None) == SOURCE else
               "built from another optimal.py (`pip install -e .` rebuilds it)")
    if problem is None:
        return importlib.import_module(NAME)
    if required and os.environ.get("CI"):
        pytest.fail(f"{NAME}: {problem}")
    pytest.skip(f"{NAME}: {problem}")


def pure_module():
    """A fresh module of optimal.py's source, run by the interpreter."""
    spec = importlib.util.spec_from_file_location("satsweeper._optimal_pure", optimal.__file__)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


class TestInUse:
    def test_built_and_in_use(self):
        """A normal import runs the compiled search (a failure under CI if the build failed)."""
        compiled = compiled_module(required=True)
        if os.environ.get("SATSWEEPER_PURE", "0") not in ("", "0"):
            pytest.skip("SATSWEEPER_PURE is set in this run")
        assert optimal.COMPILED is compiled and optimal.Search is compiled.Search
        assert type(optimal.Search._opened).__name__ == "cython_function_or_method"
        assert type(pure_module().Search._opened).__name__ == "function"

    def test_environment_forces_pure(self):
        compiled_module()
        assert imported("optimal", {"SATSWEEPER_PURE": "1"}) == "pure"
        assert imported("optimal", {"SATSWEEPER_PURE": "0"}) == NAME

    def test_stale_build_is_not_used(self, tmp_path):
        """A copy of the package whose optimal.py gained one comment runs it as Python."""
        compiled_module()
        package = tmp_path / "satsweeper"
        shutil.copytree(Path(satsweeper.__file__).parent, package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.c"))
        shutil.copy(SPEC.origin, package)
        assert imported("optimal", {"SATSWEEPER_PURE": "0"}, tmp_path) == NAME
        with open(package / "optimal.py", "a") as source:
            source.write("# edited\n")
        assert imported("optimal", {"SATSWEEPER_PURE": "0"}, tmp_path) == "pure"


class TestSameAnswers:
    @pytest.mark.parametrize("level", [Level(4, 4, 4), Level(5, 4, 4), Level(4, 3, 6), Level(7, 2, 5)], ids=str)
    def test_same_values_and_states(self, level):
        """Every rule, every first click: the same values, first clicks and states as Python."""
        compiled, pure = compiled_module(), pure_module()
        for rule in FirstClick:
            want = pure.Search(level).optimum(rule, every=True)
            got = compiled.Search(level).optimum(rule, every=True)
            assert (got.won, got.layouts, got.firsts, got.by_first, got.states) == \
                (want.won, want.layouts, want.firsts, want.by_first, want.states)
