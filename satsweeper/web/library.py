"""The gadget library as the server offers it: built and verified once.

Building a tile runs a synthesis (a third of a second for ``cross``);
there are sixteen gadgets, so each is kept after its first use: a store
bounded by the library's size, holding nothing a client sent.

>>> names()[:3]
['wire-h', 'wire-v', 'forced-end']
"""

from __future__ import annotations

from functools import lru_cache


def names() -> list[str]:
    from ..gadgets import gadget_names
    return gadget_names()


@lru_cache(maxsize=None)
def built(name: str):
    """The gadget ``name`` (a :class:`~satsweeper.gadgets.gadget.Gadget`)."""
    from ..gadgets import named_gadget
    return named_gadget(name)


@lru_cache(maxsize=None)
def verdict(name: str):
    """Its :class:`~satsweeper.gadgets.gadget.Verdict` over every input combination."""
    from ..gadgets import verify
    return verify(built(name))


def listing() -> dict:
    """``satsweeper gadget list --json``, the same rows."""
    from ..report.contract import envelope
    from ..report.gadgets import listing_json
    return envelope("gadget list", {"gadgets": listing_json((name, built(name)) for name in names())})
