"""Every script in scripts/ says what it does on --help, run either way README and the
scripts' own docs show (python scripts/X.py, python -m scripts.X), and does nothing else:
figures.py and screenshots.py ignored --help, ran whole and rewrote ten tracked pictures,
and seven benchmarks could not find their helpers run with -m."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted(p.stem for p in (ROOT / "scripts").glob("*.py") if p.stem != "benchmark")


@pytest.mark.parametrize("name", SCRIPTS)
def test_help_either_way(name, tmp_path):
    for command in ([sys.executable, str(ROOT / "scripts" / f"{name}.py"), "--help"],
                    [sys.executable, "-m", f"scripts.{name}", "--help"]):
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert done.returncode == 0, (command, done.stderr[-500:])
        assert done.stdout.lower().startswith("usage:"), (command, done.stdout[:300])


def test_the_helpers_are_no_script():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "benchmark.py")], capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 1 and "shared helpers" in done.stderr
