"""The ``satsweeper`` command: a thin layer over the library.

One module per command group; each command parses its arguments (click
types do the checking), calls the library, and prints what
:mod:`satsweeper.report` makes of the answer.  :mod:`.contract` holds what
every command promises: exit codes, ``--json``, errors, stdin, outputs
checked before the work, progress and time limits (``docs/json.md``).
Library modules are imported inside the commands, so starting the program
costs only what the command uses.
"""

from __future__ import annotations

import click

from . import experiments, gadgets, optimal, pictures, puzzles, queries, serve
from .contract import Group


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="satsweeper")
def main() -> None:
    """Minesweeper reasoning with SAT and #SAT.

    Cells are ROW,COL (0-based from the top-left); sizes WIDTHxHEIGHT; a
    BOARD may be - for standard input.  Every command takes --json.  Exit
    codes: 0 yes, 1 no, 2 bad input, 3 a limit was reached, 130 interrupted.
    """


for module in (queries, puzzles, experiments, pictures, gadgets, optimal, serve):
    for command in module.COMMANDS:
        main.add_command(command)
