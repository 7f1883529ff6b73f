"""The ``satsweeper`` command: a thin layer over the library.

One module per command group; each command parses its arguments (click
types do the checking), calls the library, and prints what
:mod:`satsweeper.report` makes of the answer.  :mod:`.contract` holds what
every command promises: exit codes, ``--json``, errors, stdin, outputs
checked before the work, progress and time limits (``docs/json.md``).
The library modules a command needs are imported inside it, and the command
modules themselves when their command is asked for, so starting the program
costs little more than what the command uses (what every command shares comes
first: :mod:`.contract` with the cell and board types, which read boards).
"""

from __future__ import annotations

from importlib import import_module

import click

from .contract import Group

# command -> the module of this package that defines it (in its COMMANDS)
HOMES = {
    "check": "queries", "safe": "queries", "solve": "queries", "unique": "queries", "count": "queries",
    "probs": "queries", "hint": "queries",
    "noguess": "puzzles", "generate": "puzzles",
    "bench": "experiments", "density": "experiments",
    "render": "pictures",
    "gadget": "gadgets", "repair": "gadgets", "compile": "gadgets",
    "optimal": "optimal",
    "serve": "serve",
}


class _Commands(dict):
    """The group's commands, each module imported when one of its commands is asked for.

    A look-up by name loads one module; listing them (``--help``) loads all,
    in the order of :data:`HOMES`.
    """

    def _load(self, module: str) -> None:
        for command in import_module(f".{module}", __name__).COMMANDS:
            dict.__setitem__(self, command.name, command)

    def _load_all(self) -> None:
        if dict.__len__(self) < len(HOMES):
            for module in dict.fromkeys(HOMES.values()):
                self._load(module)
            ordered = {name: dict.__getitem__(self, name) for name in HOMES}
            extra = {k: v for k, v in dict.items(self) if k not in ordered}
            dict.clear(self)
            dict.update(self, ordered | extra)

    def get(self, name, default=None):
        if not dict.__contains__(self, name) and name in HOMES:
            self._load(HOMES[name])
        return dict.get(self, name, default)

    def __getitem__(self, name):
        found = self.get(name)
        if found is None:
            raise KeyError(name)
        return found

    def __contains__(self, name) -> bool:
        return name in HOMES or dict.__contains__(self, name)

    def __iter__(self):
        self._load_all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._load_all()
        return dict.__len__(self)

    def keys(self):
        self._load_all()
        return dict.keys(self)

    def values(self):
        self._load_all()
        return dict.values(self)

    def items(self):
        self._load_all()
        return dict.items(self)


def _version(context: click.Context, _parameter, asked: bool) -> None:
    """``--version``: the version, and which builds of the hot paths run (a packager who
    built without Cython or a C compiler has a working install that is only slower)."""
    if not asked or context.resilient_parsing:
        return
    from importlib.metadata import version

    from ..compiled import NAMES, described, is_pure

    running = {name: import_module(f"satsweeper.{name}").COMPILED is not None for name in NAMES}
    click.echo(f"satsweeper, version {version('satsweeper')}\n{described(running, is_pure())}")
    context.exit()


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="Show the version and which builds run (compiled or plain Python), and exit.")
def main() -> None:
    """Minesweeper reasoning with SAT and #SAT.

    Cells are ROW,COL (0-based from the top-left); sizes WIDTHxHEIGHT; a
    BOARD may be - for standard input.  Every command takes --json.  Exit
    codes: 0 yes, 1 no, 2 bad input, 3 a limit was reached, 130 interrupted,
    141 output closed early (| head), 70 an internal error (please report it).
    """


main.commands = _Commands()
