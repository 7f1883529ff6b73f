"""Pedersen's figures 3.2-3.7 as reconstructed in gadgets/figures: check, verify, draw.

For every figure file: consistent or not (with the clashing numbers), the
number of explanations, and for gadgets the verdict of `gadget verify`; each
figure is drawn to docs/figures/NAME.png (named squares labelled, as in the
paper).  Repairs the as-printed OR and says which numbers change.

    python scripts/figures.py
"""

from __future__ import annotations

from pathlib import Path

from satsweeper import check, count
from satsweeper.gadgets import read_gadget, verify
from satsweeper.gadgets.repair import repair
from satsweeper.render import render
from satsweeper.report import conflict_text
from satsweeper.textio import read_puzzle

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "gadgets" / "figures"
PICTURES = ROOT / "docs" / "figures"


def main() -> None:
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=PICTURES,
                        help="directory of the drawings (default: docs/figures, which README shows)")
    pictures = parser.parse_args().out  # --help says this and writes nothing
    pictures.mkdir(parents=True, exist_ok=True)
    for path in sorted(FIGURES.glob("*.txt")):
        puzzle = read_puzzle(path)
        board = puzzle.board
        answer = check(board)
        line = f"{path.name:<28} {board.width}x{board.height:<3} "
        if not answer.consistent:
            line += conflict_text(answer.conflict)
            print(line)
            result = repair(read_gadget(path))
            print(f"{'':<28} repair: {', '.join(str(c) for c in result.changes)} "
                  f"-> computes {result.verdict.computes}, unique {result.verdict.unique}")
        else:
            total = count(board)
            line += f"{total} explanation{'' if total == 1 else 's'}"
            if puzzle.extras.get("inputs"):
                verdict = verify(read_gadget(path))
                per_input = "/".join(str(c.explanations) for c in verdict.cases)
                line += (f"; computes its claim {verdict.computes}, explanations per input "
                         f"{per_input}, unique {verdict.unique}")
            print(line)
        render(board, str(pictures / f"{path.stem}.png"), title=path.stem)


if __name__ == "__main__":
    main()
