"""Brute-force reference answers: enumerate every placement of mines.

Independent of the SAT engine: a plain backtracking search over the unknown
cells of a :class:`~satsweeper.constraints.Problem`, pruning a branch only
when some rule is already over- or under-full.  Meant for up to ~20 cells.
"""

from __future__ import annotations

from satsweeper.constraints import Problem


def explanations(problem: Problem) -> list[frozenset]:
    """Every set of cells whose being mines satisfies all rules (and total)."""
    cells = list(problem.cells)
    rules = [(list(r.cells), r.mines) for r in problem.constraints]
    if problem.mines is not None:
        rules.append((cells, problem.mines))
    if any(k < 0 or k > len(c) for c, k in rules):
        return []
    position = {cell: i for i, cell in enumerate(cells)}
    # For each rule: how many of its cells come at or after each index.
    last_index = [max((position[c] for c in rc), default=-1) for rc, _ in rules]
    members = [set(position[c] for c in rc) for rc, _ in rules]
    out: list[frozenset] = []
    chosen: list[int] = []

    def ok(upto: int) -> bool:
        for (rc, k), idx, last in zip(rules, members, last_index):
            mines = sum(1 for i in chosen if i in idx)
            left = sum(1 for i in idx if i > upto)
            if mines > k or mines + left < k:
                return False
        return True

    def extend(i: int) -> None:
        if i == len(cells):
            out.append(frozenset(cells[j] for j in chosen))
            return
        for mine in (False, True):
            if mine:
                chosen.append(i)
            if ok(i):
                extend(i + 1)
            if mine:
                chosen.pop()

    if ok(-1):
        extend(0)
    return out


def forced(problem: Problem, cell, mine: bool) -> bool:
    """True if every explanation agrees that ``cell`` is (not) a mine.

    False for inconsistent problems: nothing is forced vacuously here, the
    callers check consistency separately.
    """
    found = explanations(problem)
    return bool(found) and all((cell in e) == mine for e in found)


def status(problem: Problem) -> dict | None:
    """cell -> 'safe' / 'mine' / 'undetermined', or None if inconsistent."""
    found = explanations(problem)
    if not found:
        return None
    out = {}
    for cell in problem.cells:
        values = {cell in e for e in found}
        out[cell] = "undetermined" if len(values) == 2 else ("mine" if True in values else "safe")
    return out
