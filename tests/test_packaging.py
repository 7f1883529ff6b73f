"""What a packager gets: the sdist holds the repository (its tests run as in a clone), the
licence ships, and the metadata says it.

The oracle is git: every tracked file must be in the sdist, and nothing a build or a run
leaves (compiled modules, caches).  Without a git checkout (an unpacked sdist) there is no
oracle, and those tests skip; under CI, a clone, they fail instead.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def tracked() -> set[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        if os.environ.get("CI"):
            raise AssertionError("CI runs in a clone: git and its .git should be there")
        pytest.skip("not a git checkout: no list of the repository's files to compare with")
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True)
    return {name for name in out.stdout.split("\0") if name}


def sdist(tmp_path: Path) -> set[str]:
    """The names in the sdist that ``setup.py sdist`` makes of this checkout, less the
    top folder (``satsweeper-VERSION/``)."""
    # Its egg-info goes to a folder of its own, not the checkout's.  (One sdist a run: sdist
    # builds its tree in the working directory, and two at once, on two workers, failed.)
    subprocess.run([sys.executable, "setup.py", "-q", "egg_info", "--egg-base", str(tmp_path),
                    "sdist", "-d", str(tmp_path)], cwd=ROOT, check=True, capture_output=True)
    (archive,) = tmp_path.glob("satsweeper-*.tar.gz")
    with tarfile.open(archive) as tar:
        return {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}


def test_the_sdist(tmp_path):
    """Every tracked file is in it (before MANIFEST.in: tests/test_*.py were in, not the
    helpers they import, tests/oracle.py..., nor the examples and gadgets they read, so
    pytest failed), the licence too, and no build or cache."""
    files = tracked()
    assert len(files) > 300  # the oracle is not empty
    names = sdist(tmp_path)
    assert sorted(files - names) == []
    assert "LICENSE" in names
    assert [n for n in names if n.endswith((".so", ".pyc")) or "__pycache__" in n or n.startswith("build/")] == []


class TestMetadata:
    def test_the_licence(self):
        """The installed metadata (made by the install's own setuptools, as a wheel's is)."""
        meta = importlib.metadata.metadata("satsweeper")
        assert meta["License-Expression"] == "MIT"
        assert meta.get_all("License-File") == ["LICENSE"]
        assert "Permission is hereby granted, free of charge" in (ROOT / "LICENSE").read_text()
