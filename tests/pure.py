"""bitboard.py as plain Python, whatever is built: the file loaded under another name
(its swap to the compiled build happens only as ``satsweeper.bitboard``)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from satsweeper import bitboard


def pure_module():
    """A fresh module of bitboard.py's source, run by the interpreter."""
    spec = importlib.util.spec_from_file_location("satsweeper._bitboard_pure", bitboard.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PURE = pure_module()


def imported(module: str, env: dict[str, str], path: Path | None = None) -> str:
    """What a fresh interpreter's ``satsweeper.<module>`` runs: its compiled module's name or
    'pure' (tests/test_compiled.py and tests/test_optimal_compiled.py); with ``path``, from the
    copy of the package there."""
    code = (f"import satsweeper.{module} as m; "
            "print(m.COMPILED.__name__ if m.COMPILED else 'pure', m.__file__)")
    env = dict(os.environ, **env)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    # -c puts the working directory first on the path: the copy's own, not a checkout's
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=path,
                         capture_output=True, text=True, check=True)
    name, file = out.stdout.split()
    if path is not None:
        assert Path(file).is_relative_to(path)
    return name
