"""Compiled builds of our pure-Python modules: whether one may serve, and putting it in place.

``setup.py`` compiles the modules listed in its ``NAMES`` (the bitboard and the optimal
search, and the modules every strategy's move runs through: the board, the rules, the
counting by components, the pair rule, unit propagation, the tallies, ``best`` and its endgame) with Cython
into ``_NAME_compiled`` beside each (when a C compiler is there), appending to each the
text it was made from as ``_SOURCE``.  A module serves its compiled build only while that
text is the module file's, byte for byte: an edited file runs as Python until the next
install, never as stale compiled code.  ``SATSWEEPER_PURE=1`` (anything but ``""`` or
``"0"``) runs every such module as Python.

A module ends so (the compiled module runs the same source under its own name, and tests
load the file under another, so only ``satsweeper.components`` itself takes the build)::

    COMPILED = take_build(globals(), "components")

What a compiled module does differently, which the modules listed keep clear of or live with:

- its functions read its own globals: setting ``module.CONSTANT`` from outside changes what
  Python callers see, not what the compiled functions use (tests/forced.py sets both);
- an object the module makes at import time is an instance of the Python class, not of the
  compiled one that replaces it (``game.py``'s ``LEVELS`` is why game.py is not compiled);
- ``len()`` is a C integer, and ``1 << len(x)`` wraps past 63 bits (setup.py's ``TYPED``);
- a signal (Ctrl-C, :func:`~satsweeper.limits.deadline`'s ring) is answered only when the C
  calls into Python code, so a long loop of nothing but C calls :func:`checkpoint` now and then
  (the endgame's search every 1,024 positions, the optimal search every 256 memo lookups and
  4,096 layouts listed, the components' count every 1,024 states of a layer: Ctrl-C had taken 4 s to stop ``satsweeper optimal 5x5x7``, a 0.3 s
  deadline 2.3 s).
"""

from __future__ import annotations

from importlib import import_module
from os import environ
from types import ModuleType

# The modules setup.py compiles: satsweeper/NAME.py -> satsweeper._NAME_compiled (a dot: a
# subpackage's module; setup.py reads NAMES and TYPED from this text).
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



def fresh(compiled, source: bytes) -> bool:
    """Whether ``compiled`` (a module or None) was built from ``source``: its
    ``_SOURCE``, appended by ``setup.py``, is that source byte for byte
    (the whole text, not a digest: a comparison costs microseconds, where
    importing :mod:`hashlib` cost 3-10 ms of the cold start).

    >>> from types import SimpleNamespace
    >>> fresh(SimpleNamespace(_SOURCE=b"x = 1\\n"), b"x = 1\\n")
    True
    >>> fresh(SimpleNamespace(_SOURCE=b"x = 1\\n"), b"x = 2\\n")
    False
    >>> fresh(None, b"x = 1\\n")
    False
    """
    return getattr(compiled, "_SOURCE", None) == source


def build_of(module: str, extension: str, path: str) -> ModuleType | None:
    """The compiled build ``extension`` (a module of ``module``'s package) of the file at
    ``path``, or None: not built, built from another version of the file, or
    ``SATSWEEPER_PURE`` set.

    >>> build_of("satsweeper.nothing", "_nothing_compiled", __file__) is None
    True
    """
    if is_pure():
        return None
    try:
        compiled = import_module(f"{module.rpartition('.')[0]}.{extension}")
        with open(path, "rb") as source:
            return compiled if fresh(compiled, source.read()) else None
    except Exception:  # missing, or stale enough not to import: the file's own code serves
        return None


def adopt(namespace: dict, compiled: ModuleType) -> None:
    """Put ``compiled``'s functions and classes in place of those the module of
    ``namespace`` (its ``globals()``) defines, named as that module's, and so are the
    methods of those classes (so doctests, pickles and monkeypatches find them there:
    a method still named after the compiled module is one whose doctest pytest skips).
    What the module imported stays.

    >>> from types import SimpleNamespace
    >>> def f(): return "python"
    >>> def g(): return "compiled"
    >>> class P: pass
    >>> class C:
    ...     def m(self): return "compiled"
    >>> f.__module__ = P.__module__ = "demo"  # as if defined there
    >>> C.__module__ = C.m.__module__ = "demo_compiled"  # as the compiled build names them
    >>> namespace = {"__name__": "demo", "f": f, "C": P, "fresh": fresh}
    >>> adopt(namespace, SimpleNamespace(__name__="demo_compiled", f=g, C=C))
    >>> namespace["f"](), namespace["f"].__module__, namespace["fresh"] is fresh
    ('compiled', 'demo', True)
    >>> namespace["C"].__module__, namespace["C"].m.__module__
    ('demo', 'demo')
    """
    name = namespace["__name__"]
    for key, value in list(namespace.items()):
        if getattr(value, "__module__", None) == name:
            value = getattr(compiled, key)
            value.__module__ = name
            if isinstance(value, type):
                _rename_members(value, compiled.__name__, name)
            namespace[key] = value


def _rename_members(cls: type, old: str, new: str) -> None:
    """The functions of ``cls`` named after module ``old`` named after ``new``: methods,
    and those under a staticmethod, classmethod, property or cached_property."""
    for member in vars(cls).values():
        for function in (member, getattr(member, "__func__", None), getattr(member, "func", None),
                         getattr(member, "fget", None)):
            if getattr(function, "__module__", None) == old:
                function.__module__ = new


def checkpoint() -> None:
    """Nothing, as Python code: the call is the point.  A compiled loop never stops for a
    signal until it calls into Python code, where the interpreter runs the pending handler
    (Ctrl-C's KeyboardInterrupt, :func:`~satsweeper.limits.deadline`'s TimeUp raise from
    here).  This module is not compiled, so this is such a call.

    >>> checkpoint()
    """


def take_build(namespace: dict, name: str) -> ModuleType | None:
    """At the end of the module ``NAME`` (``namespace`` its ``globals()``): its compiled build,
    put in place of its functions and classes by :func:`adopt`; None when there is none to
    take (:func:`build_of`), or when this text runs under another name than the module's
    (as the compiled module itself, or loaded by a test as plain Python).

    >>> take_build({"__name__": "satsweeper._demo_pure", "__package__": "satsweeper"}, "demo") is None
    True
    """
    if namespace["__name__"] != f"{namespace['__package__']}.{name}":
        return None
    compiled = build_of(namespace["__name__"], f"_{name}_compiled", namespace["__file__"])
    if compiled is not None:
        adopt(namespace, compiled)
    return compiled


def described(running: dict[str, bool], pure: bool) -> str:
    """What ``satsweeper --version`` says of the builds in use (``running``: each module
    of ``NAMES`` -> whether it runs its compiled build; ``pure``: ``SATSWEEPER_PURE`` is set).  A packager building
    without Cython or a C compiler gets a working install that is only slower, and
    learns it here.

    >>> described(dict.fromkeys(NAMES, True), False)
    'compiled: all 10 modules of the hot paths (Cython)'
    >>> print(described({**dict.fromkeys(NAMES, True), "tally": False}, False))
    compiled: 9 of the 10 modules of the hot paths (Cython); plain Python: tally (not built, or its file changed since)
    >>> described(dict.fromkeys(NAMES, False), True)
    'plain Python: SATSWEEPER_PURE is set'
    """
    slow = [name for name, built in running.items() if not built]
    if pure:
        return "plain Python: SATSWEEPER_PURE is set"
    if not slow:
        return f"compiled: all {len(running)} modules of the hot paths (Cython)"
    if len(slow) == len(running):
        return ("plain Python: no compiled build in use (installed without Cython or a C compiler,"
                " or the files changed since: the same answers, slower; README's Quick start)")
    return (f"compiled: {len(running) - len(slow)} of the {len(running)} modules of the hot paths (Cython);"
            f" plain Python: {', '.join(slow)} (not built, or its file changed since)")


def is_pure() -> bool:
    """Whether ``SATSWEEPER_PURE`` asks for plain Python (anything but ``""`` or ``"0"``)."""
    return environ.get("SATSWEEPER_PURE", "0") not in ("", "0")

