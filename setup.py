"""The optional compiled build of satsweeper/bitboard.py (everything else is in pyproject.toml).

Cython compiles a copy of ``satsweeper/bitboard.py``, unchanged but for one
line appended, ``_SOURCE``, the source it was made from (as bytes), into the
extension module ``satsweeper._bitboard_compiled``.  ``bitboard.py`` uses its
functions only while that is its own text, byte for byte (see the end of
``bitboard.py``): an edited ``bitboard.py`` runs as Python until the next
``pip install``, never as stale compiled code.

Optional all the way: without Cython (``--no-build-isolation`` in an
environment that lacks it), when Cython cannot translate the source, or
without a C compiler, the install goes on and ``satsweeper`` runs in pure
Python (only slower: see bitboard.py's docstring).  CI (``CI=1``) fails when
the compiled module is missing instead (``tests/test_compiled.py``).
"""

from __future__ import annotations

from pathlib import Path

from setuptools import Extension, setup

SOURCE = Path("satsweeper/bitboard.py")
COPY = Path("build/cython/satsweeper/_bitboard_compiled.py")  # build/ is ignored by git


def warn(message: str) -> None:
    print(f"satsweeper: {message}; bitboard.py runs as plain Python", flush=True)


def compiled() -> list[Extension]:
    """The extension, or no extension when Cython is missing or fails on the source."""
    try:
        from Cython.Build import cythonize
    except ImportError:
        warn("Cython is not installed")
        return []
    text = SOURCE.read_bytes()
    copy = text + b"\n_SOURCE = %s  # appended by setup.py\n" % repr(text).encode()
    COPY.parent.mkdir(parents=True, exist_ok=True)
    if not COPY.exists() or COPY.read_bytes() != copy:  # an unchanged copy keeps Cython's C file
        COPY.write_bytes(copy)
    extension = Extension("satsweeper._bitboard_compiled", [str(COPY)], optional=True)
    try:
        built = cythonize([extension], language_level=3, quiet=True)
    except Exception as error:  # Cython's own errors have no common base class
        warn(f"Cython failed on {SOURCE} ({error})")
        return []
    for made in built:  # cythonize makes new Extensions and drops ``optional``
        made.optional = True  # no C compiler: setuptools warns and installs the rest
    return built


setup(ext_modules=compiled())
