"""Compiled builds of our pure-Python modules: whether one may serve, and putting it in place.

``setup.py`` compiles :mod:`satsweeper.bitboard` and :mod:`satsweeper.optimal` with Cython
into ``satsweeper._bitboard_compiled`` and ``satsweeper._optimal_compiled`` (when a C
compiler is there), appending to each the text it was made from as ``_SOURCE``.  A module
serves its compiled build only while that text is the module file's, byte for byte: an
edited file runs as Python until the next install, never as stale compiled code.
``SATSWEEPER_PURE=1`` (anything but ``""`` or ``"0"``) runs every such module as Python.

A module ends so (the compiled module runs the same source under its own name, hence the
test of ``__name__``)::

    COMPILED = build_of(__name__, "_bitboard_compiled", __file__) \\
        if __name__ == f"{__package__}.bitboard" else None
    if COMPILED is not None:
        adopt(globals(), COMPILED)
"""

from __future__ import annotations

from importlib import import_module
from os import environ
from types import ModuleType


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
    if environ.get("SATSWEEPER_PURE", "0") not in ("", "0"):
        return None
    try:
        compiled = import_module(f"{module.rpartition('.')[0]}.{extension}")
        with open(path, "rb") as source:
            return compiled if fresh(compiled, source.read()) else None
    except Exception:  # missing, or stale enough not to import: the file's own code serves
        return None


def adopt(namespace: dict, compiled: ModuleType) -> None:
    """Put ``compiled``'s functions and classes in place of those the module of
    ``namespace`` (its ``globals()``) defines, named as that module's (so doctests,
    pickles and monkeypatches find them there).  What the module imported stays.

    >>> from types import SimpleNamespace
    >>> def f(): return "python"
    >>> def g(): return "compiled"
    >>> f.__module__ = "demo"  # as if defined there
    >>> namespace = {"__name__": "demo", "f": f, "fresh": fresh}
    >>> adopt(namespace, SimpleNamespace(f=g))
    >>> namespace["f"](), namespace["f"].__module__, namespace["fresh"] is fresh
    ('compiled', 'demo', True)
    """
    name = namespace["__name__"]
    for key, value in list(namespace.items()):
        if getattr(value, "__module__", None) == name:
            value = getattr(compiled, key)
            value.__module__ = name
            namespace[key] = value
