"""``python -m satsweeper``: the same command as ``satsweeper``."""

from .cli import main

if __name__ == "__main__":  # pytest's doctest collection imports this module too
    main()
