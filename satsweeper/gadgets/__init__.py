"""Gadgets (boards that compute Boolean functions), their verification,
repair, and a compiler from formulas to boards."""

from .gadget import Case, Gadget, Verdict, format_gadget, parse_gadget, read_gadget, verify

__all__ = ["Case", "Gadget", "Verdict", "format_gadget", "parse_gadget", "read_gadget", "verify"]
