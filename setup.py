"""The optional compiled builds of the modules in ``NAMES`` (everything else is in
pyproject.toml).

Cython compiles a copy of each, ``satsweeper/PATH/NAME.py``, unchanged but for one
line appended, ``_SOURCE``, the source it was made from (as bytes), into the
extension module ``satsweeper.PATH._NAME_compiled``.  ``NAME.py`` uses its
functions only while that is its own text, byte for byte (see the end of each,
and ``satsweeper/compiled.py``): an edited file runs as Python until the next
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

# satsweeper/NAME.py -> satsweeper._NAME_compiled (a dot: a subpackage's module).
# bitboard and optimal: their hot loops, tuned for Cython (their docstrings say by how much).
# The rest: every move of every strategy runs through them (the rules of the board, the
# pair rule, counting by components, the tallies, best and its endgame), plain Python that
# Cython runs faster unchanged: best's expert games took 0.78 of the time, exact's 0.84, with
# the same moves and wins (scripts/bench_versions.py, 600 games of seed 3, 2026-11-26;
# docs/best-bench.txt).  propagation: the same rules played through a game, split from
# singlepoint with its build (the rules on 300 expert first clicks took 0.79-0.84 of the
# time, 2026-11-28).  Not game.py: its LEVELS would be instances of the Python class.
NAMES = ("bitboard", "optimal", "board", "constraints", "singlepoint", "propagation", "tally", "components",
         "strategies.endgame", "strategies.best")
# Modules whose annotations carry Cython types (cython.Py_ssize_t).  The others are compiled
# as Python as far as Cython allows: annotations are documentation only (Cython would enforce
# some: a ``dict`` annotation refuses a defaultdict), and no local is inferred to be a C
# integer (a shift of one wraps past 63 bits: ``[1 << k for k in range(n)]`` did).  What is
# left is that len() is a C integer: ``1 << len(x)`` wraps, so they write ``1 << int(len(x))``
# (tests/test_compiled_modules.py finds the unsafe form).
TYPED = ("bitboard", "optimal")


def warn(message: str, name: str = "the modules of NAMES run") -> None:
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
    package, _, module = f"satsweeper.{name}".rpartition(".")
    source = Path(f"{package.replace('.', '/')}/{module}.py")
    compiled = f"{package}._{module}_compiled"
    copy_path = Path("build/cython", *compiled.split(".")).with_suffix(".py")  # build/ is ignored by git
    text = source.read_bytes()
    copy = text + b"\n_SOURCE = %s  # appended by setup.py\n" % repr(text).encode()
    copy_path.parent.mkdir(parents=True, exist_ok=True)
    if not copy_path.exists() or copy_path.read_bytes() != copy:  # an unchanged copy keeps Cython's C file
        copy_path.write_bytes(copy)
    extension = Extension(compiled, [str(copy_path)], optional=True)
    try:
        built = cythonize([extension], language_level=3, quiet=True,
                          compiler_directives={} if name in TYPED else
                          {"annotation_typing": False, "infer_types": False})
    except Exception as error:  # Cython's own errors have no common base class
        warn(f"Cython failed on {source} ({error})", f"{name}.py runs")
        return []
    for made in built:  # cythonize makes new Extensions and drops ``optional``
        made.optional = True  # no C compiler: setuptools warns and installs the rest
    return built


# Two compilers at a time: the nine modules take about 3.5 CPU minutes (2 min 20 s on two cores).
setup(ext_modules=compiled(), options={"build_ext": {"parallel": 2}})
