"""``python -m satsweeper``: the same command as ``satsweeper``."""

from .cli import main

main()
