"""Module constants set for the duration of a ``with`` block, in the module and in the
compiled build it serves (see satsweeper/compiled.py): compiled functions read their own
module's globals, so setting only ``constraints.ARRAY_AREA`` would leave the compiled
``problem_of`` on its usual path, and a test comparing two paths would compare one with itself.

>>> from satsweeper import constraints
>>> with Forced(constraints, ARRAY_AREA=0):
...     constraints.ARRAY_AREA, getattr(constraints.COMPILED, "ARRAY_AREA", 0)
(0, 0)
"""

from __future__ import annotations


class Forced:
    def __init__(self, module, **values):
        compiled = getattr(module, "COMPILED", None)
        self.modules = [module] + ([compiled] if compiled is not None else [])
        self.values = values

    def __enter__(self):
        self.saved = [{k: getattr(m, k) for k in self.values} for m in self.modules]
        for m in self.modules:
            for k, v in self.values.items():
                setattr(m, k, v)

    def __exit__(self, *exc):
        for m, saved in zip(self.modules, self.saved):
            for k, v in saved.items():
                setattr(m, k, v)
