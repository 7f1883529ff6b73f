"""Gadgets (boards that compute Boolean functions), their verification,
repair, and a compiler from formulas to boards."""

from .gadget import Case, Gadget, Verdict, format_gadget, parse_gadget, read_gadget, verify

__all__ = ["Case", "Gadget", "Verdict", "format_gadget", "gadget_names", "gadget_text", "named_gadget",
           "parse_gadget", "read_gadget", "verify"]


def gadget_names() -> list[str]:
    """Every gadget known by name: the library's, then the balanced set.

    >>> gadget_names()[:2], "balanced-and" in gadget_names()
    (['wire-h', 'wire-v'], True)
    """
    from .balance import BALANCED
    from .library import BUILDERS
    return list(BUILDERS) + list(BALANCED)


def named_gadget(name: str) -> Gadget:
    """The gadget called ``name`` (see :func:`gadget_names`), built."""
    from .balance import BALANCED
    from .library import BUILDERS, build
    if name in BALANCED:
        return BALANCED[name]()
    if name in BUILDERS:
        return build(name)
    from ..errors import InputError
    raise InputError(f"a gadget name among {', '.join(gadget_names())} (got {name!r})")


def gadget_text(name: str) -> str:
    """The file ``satsweeper gadget write DIR NAME`` makes of the gadget called ``name``:
    the library's as in the repository's gadgets/, a balanced one built (up to 188x141
    squares) with a header saying where it came from.

    >>> gadget_text("balanced-not").splitlines()[0]
    '# Written by `satsweeper gadget write DIR balanced-not` from satsweeper/gadgets/balance.py;'
    """
    from .library import BUILDERS, HEADER, build
    if name in BUILDERS:  # the repository's file, byte for byte (library.gadget_files)
        return format_gadget(build(name), HEADER)
    return format_gadget(named_gadget(name), f"Written by `satsweeper gadget write DIR {name}` from "
                                             "satsweeper/gadgets/balance.py;\ncheck it with `satsweeper gadget verify FILE`.")
