"""Answers as text for people and as JSON-ready dicts for programs.

The library returns values (:mod:`satsweeper.reasoning`, :mod:`satsweeper.hint`,
...); this package turns them into words and JSON, one module per kind of
answer, and the CLI (and the web server) only print or send what it returns.
The JSON contract every command keeps is in :mod:`.contract`.  Modules that
need heavy imports (gadgets) are imported by their callers, not here.
"""

from .contract import VERSION, envelope, error_object, fraction_text, integer_text, probability_json
from .views import BoardView, SystemView, View, conflict_text, join_words, origin_json

__all__ = ["VERSION", "envelope", "error_object", "fraction_text", "integer_text",
           "probability_json", "BoardView", "SystemView", "View", "conflict_text", "join_words",
           "origin_json"]
