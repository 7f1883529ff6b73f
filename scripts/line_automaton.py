"""Check Pedersen's 1-D automaton (table 3.1) exhaustively.

Every word over 0 1 2 b * up to --length is run through the printed table and
through our own automaton; words up to --sat-length are also decided by the
SAT engine.  Prints the number of words, disagreements, and the first few.

    python scripts/line_automaton.py --length 10 --sat-length 7
"""

from __future__ import annotations

from itertools import product

import click

from satsweeper.line import ALPHABET, board_of, is_consistent, pedersen_accepts
from satsweeper.reasoning import check


@click.command()
@click.option("--length", default=10, show_default=True)
@click.option("--sat-length", default=7, show_default=True)
def main(length: int, sat_length: int) -> None:
    for n in range(1, length + 1):
        words = disagree_table = disagree_sat = 0
        examples = []
        for letters in product(ALPHABET, repeat=n):
            word = "".join(letters)
            words += 1
            ours = is_consistent(word)
            if pedersen_accepts(word) != ours:
                disagree_table += 1
                examples.append(word)
            if n <= sat_length and check(board_of(word)).consistent != ours:
                disagree_sat += 1
                examples.append("SAT:" + word)
        sat = f"{disagree_sat} vs SAT" if n <= sat_length else "SAT not run"
        print(f"length {n:>2}: {words:>8} words, {disagree_table} disagree with table 3.1, {sat}"
              + (f"; e.g. {examples[:5]}" if examples else ""), flush=True)


if __name__ == "__main__":
    main()
