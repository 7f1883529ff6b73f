"""bitboard.py as plain Python, whatever is built: the file loaded under another name
(its swap to the compiled build happens only as ``satsweeper.bitboard``)."""

from __future__ import annotations

import importlib.util

from satsweeper import bitboard


def pure_module():
    """A fresh module of bitboard.py's source, run by the interpreter."""
    spec = importlib.util.spec_from_file_location("satsweeper._bitboard_pure", bitboard.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PURE = pure_module()
