"""The optional compiled builds of satsweeper/bitboard.py and satsweeper/optimal.py
(everything else is in pyproject.toml).

Cython compiles a copy of each, ``satsweeper/NAME.py``, unchanged but for one
line appended, ``_SOURCE``, the source it was made from (as bytes), into the
extension module ``satsweeper._NAME_compiled``.  ``NAME.py`` uses its
functions only while that is its own text, byte for byte (see the end of
``bitboard.py`` and ``optimal.py``): an edited file runs as Python until the next
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

NAMES = ("bitboard", "optimal")  # satsweeper/NAME.py -> satsweeper._NAME_compiled


def warn(message: str, name: str = "bitboard.py and optimal.py run") -> None:
    print(f"satsweeper: {message}; {name} as plain Python", flush=True)


def compiled() -> list[Extension]:
    """The extensions, less any Cython fails on (all of them when Cython is missing)."""
    try:
        from Cython.Build import cythonize
    except ImportError:
        warn("Cython is not installed")
        return []
    return [made for name in NAMES for made in one(cythonize, name)]


def one(cythonize, name: str) -> list[Extension]:
    """The extension of ``satsweeper/NAME.py``, or none when Cython fails on it."""
    source = Path(f"satsweeper/{name}.py")
    copy_path = Path(f"build/cython/satsweeper/_{name}_compiled.py")  # build/ is ignored by git
    text = source.read_bytes()
    copy = text + b"\n_SOURCE = %s  # appended by setup.py\n" % repr(text).encode()
    copy_path.parent.mkdir(parents=True, exist_ok=True)
    if not copy_path.exists() or copy_path.read_bytes() != copy:  # an unchanged copy keeps Cython's C file
        copy_path.write_bytes(copy)
    extension = Extension(f"satsweeper._{name}_compiled", [str(copy_path)], optional=True)
    try:
        built = cythonize([extension], language_level=3, quiet=True)
    except Exception as error:  # Cython's own errors have no common base class
        warn(f"Cython failed on {source} ({error})", f"{name}.py runs")
        return []
    for made in built:  # cythonize makes new Extensions and drops ``optional``
        made.optional = True  # no C compiler: setuptools warns and installs the rest
    return built


setup(ext_modules=compiled())
