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

import ast
from pathlib import Path

from setuptools import Extension, setup

# NAMES and TYPED live in satsweeper/compiled.py (what each is, and why those modules), where
# the installed package can tell which builds it runs (`satsweeper --version`); read from its
# text, since the package cannot be imported before its dependencies are installed.
def listed(name: str) -> tuple:
    """The tuple ``name`` of satsweeper/compiled.py."""
    tree = ast.parse(Path("satsweeper/compiled.py").read_text())
    return next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                and any(getattr(t, "id", None) == name for t in node.targets))


NAMES = listed("NAMES")
TYPED = listed("TYPED")


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
    # -g0: no debug information (Python's own flags ask for -g; gcc makes the same code without
    # it): the ten modules took 26 MB, now 4.7 MB (2026-11-29).
    extension = Extension(compiled, [str(copy_path)], optional=True, extra_compile_args=["-g0"])
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
