"""Every SAT answer against the brute-force oracle, with its evidence checked."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings, strategies as st

from satsweeper.constraints import Constraint, Problem, problem_of
from satsweeper.encoding import CardinalityEncoding
from satsweeper.errors import CellError, InputError
from satsweeper.reasoning import Move, Reasoner, Status, check, safety, solve, uniqueness
from satsweeper.textio import parse_board

from . import oracle
from .strategies import MAX_HIDDEN, boards

MANY = settings(max_examples=500, deadline=None)


def assert_minimal_conflict(problem: Problem, conflict: tuple) -> None:
    """The origins cannot all hold, and dropping any one of them can."""
    assert conflict, "an inconsistent answer must name clues"
    assert not oracle.explanations(problem.restricted_to(set(conflict)))
    for origin in conflict:
        assert oracle.explanations(problem.restricted_to(set(conflict) - {origin}))


class TestConsistency:
    @MANY
    @given(boards(), st.booleans())
    def test_matches_oracle(self, board, flags_are_mines):
        """Consistent exactly when the oracle finds an explanation; evidence holds."""
        problem = problem_of(board, flags_are_mines)
        assume(len(problem.cells) <= MAX_HIDDEN + 2)  # hidden flags add cells: keep the oracle fast
        answer = check(problem)
        assert answer.consistent == bool(oracle.explanations(problem))
        if answer.consistent:
            assert problem.is_explained_by(answer.witness)
        else:
            assert_minimal_conflict(problem, answer.conflict)

    def test_names_conflicting_numbers(self):
        """The classic '1 next to 2 over the same two cells' conflict."""
        answer = check(parse_board("12\n..\n"))
        assert [str(o) for o in answer.conflict] == ["the 1 at 0,0", "the 2 at 0,1"]

    def test_total_alone_can_conflict(self):
        """More mines than hidden cells: the total is the whole reason."""
        answer = check(parse_board("mines: 3\n0..\n"))
        assert not answer.consistent
        assert [str(o) for o in answer.conflict] == ["the total of 3 mines"]

    @pytest.mark.parametrize("encoding", list(CardinalityEncoding))
    def test_every_encoding_agrees(self, encoding):
        """Each cardinality encoding gives the same statuses on a fixed board."""
        board = parse_board("mines: 3\n.1...\n.2.1.\n.....\n")
        solver = "minicard" if encoding is CardinalityEncoding.NATIVE else "cadical195"
        got = solve(board, "sat", encoding=encoding, solver=solver).status
        want = oracle.status(problem_of(board))
        assert {c: s.value for c, s in got.items()} == want


class TestSolution:
    @MANY
    @given(boards(), st.sampled_from(["sat", "count"]))
    def test_matches_oracle(self, board, method):
        """Every hidden cell's status equals the oracle's, by SAT and by counting."""
        problem = problem_of(board)
        want = oracle.status(problem)
        got = solve(problem, method)
        assert got.consistent == (want is not None)
        if got.consistent:
            assert {c: s.value for c, s in got.status.items()} == want
        else:
            assert_minimal_conflict(problem, got.conflict)

    @settings(max_examples=100, deadline=None)
    @given(boards(perturb=False), st.sampled_from([e for e in CardinalityEncoding
                                                   if e is not CardinalityEncoding.NATIVE]))
    def test_encodings_agree(self, board, encoding):
        """Statuses do not depend on the cardinality encoding."""
        problem = problem_of(board)
        assert solve(problem, "sat", encoding=encoding).status == solve(problem, "count").status

    @pytest.mark.parametrize("encoding", ["totalizer", "native"])
    def test_rejects_an_encoding_given_as_a_word(self, encoding):
        """A word failed as an AttributeError once SAT needed a cardinality (an expert board's backbone)."""
        with pytest.raises(InputError, match=r"a CardinalityEncoding, such as CardinalityEncoding.SEQCOUNTER \(got "):
            solve(parse_board("mines: 1\n1..\n"), "sat", encoding=encoding)

    def test_cells_with_a_word(self):
        """cells_with("safe") was an empty list, as if no cell were safe."""
        answer = solve(parse_board("mines: 1\n1..\n"))
        assert answer.cells_with(Status.SAFE) == [(0, 2)]
        with pytest.raises(InputError, match=r"a Status, such as Status.SAFE \(got 'safe'\)"):
            answer.cells_with("safe")

    def test_rejects_an_unknown_method(self):
        """A misspelt method ran the SAT backbone as if it were "sat"; now it is a named error."""
        board = parse_board("mines: 1\n1..\n")
        with pytest.raises(InputError, match=r"a method among auto, count, sat \(got 'counting'\)"):
            solve(board, "counting")
        with Reasoner(board) as reasoner, pytest.raises(InputError, match="a method among"):
            reasoner.solution("counting")


class TestSafety:
    @settings(max_examples=250, deadline=None)  # each checks its reason minimal by brute force
    @given(boards(), st.data())
    def test_matches_oracle_with_reasons(self, board, data):
        """Safe iff forced; reasons force the move minimally; counter-examples fail it."""
        problem = problem_of(board)
        if not problem.cells:
            return
        cell = data.draw(st.sampled_from(problem.cells))
        move = data.draw(st.sampled_from(list(Move)))
        answer = safety(problem, cell, move)
        consistent = bool(oracle.explanations(problem))
        assert answer.consistent == consistent
        mine = move is Move.FLAG
        if not consistent:
            assert not answer.safe
            assert_minimal_conflict(problem, answer.conflict)
            return
        assert answer.safe == oracle.forced(problem, cell, mine)
        if answer.safe:
            reason = set(answer.reason)
            assert oracle.forced(problem.restricted_to(reason), cell, mine)
            for origin in reason:
                assert not oracle.forced(problem.restricted_to(reason - {origin}), cell, mine)
        else:
            assert problem.is_explained_by(answer.counterexample)
            assert (cell in answer.counterexample) != mine

    def test_rejects_cells_that_are_not_hidden(self):
        """Asking about a revealed number is a usage error."""
        with pytest.raises(CellError):
            safety(parse_board("1.\n"), (0, 0))

    def test_rejects_a_cell_that_is_a_list(self):
        """[0, 1] for (0, 1) was a TypeError ('unhashable type: list') from a dict look-up."""
        with pytest.raises(CellError, match=r"a hidden cell to open \(got \[0, 1\]\)"):
            safety(parse_board("1.\n"), [0, 1])

    @pytest.mark.parametrize("move", ["open", "flag", True, None])
    def test_rejects_a_move_that_is_not_a_move(self, move):
        """A plain word was an AttributeError from deep inside; now it is a named error."""
        with pytest.raises(InputError, match=r"a Move, Move.OPEN or Move.FLAG \(got "):
            safety(parse_board("1.\n"), (0, 1), move)

    def test_floating_cell_needs_the_total(self):
        """A cell touching no number is decided only through the mine count."""
        board = parse_board("mines: 1\n1...\n")
        answer = safety(board, (0, 3))
        assert answer.safe
        assert [str(o) for o in answer.reason] == ["the 1 at 0,0", "the total of 1 mine"]


class TestUniqueness:
    @MANY
    @given(boards())
    def test_matches_oracle(self, board):
        """Unique iff one explanation; otherwise two distinct valid ones."""
        problem = problem_of(board)
        found = oracle.explanations(problem)
        answer = uniqueness(problem)
        assert answer.consistent == bool(found)
        assert answer.unique == (len(found) == 1)
        for explanation in answer.explanations:
            assert problem.is_explained_by(explanation)
        if answer.consistent and not answer.unique:
            first, second = answer.explanations
            assert first != second


class TestReasoner:
    def test_questions_after_close_are_refused(self):
        """After its with block a Reasoner called every cell safe (a freed solver answers "unsatisfiable")."""
        board = parse_board("mines: 1\n1..\n...\n")  # the mine is one of 0,1 / 1,0 / 1,1
        with Reasoner(board) as r:
            assert r.consistency().consistent and not r.safety((0, 1)).safe
        assert oracle.forced(problem_of(board), (0, 1), mine=False) is False  # really not safe
        for ask in (lambda: r.safety((0, 1)), lambda: r.safety((1, 1), Move.FLAG),
                    lambda: r.solution("sat"), lambda: r.uniqueness()):
            with pytest.raises(InputError, match="a Reasoner that is still open"):
                ask()
        assert r.consistency().consistent  # answered before: kept

    def test_answers_many_questions_on_one_solver(self):
        """Queries after one another do not disturb each other."""
        board = parse_board("mines: 2\n1..1\n....\n")
        problem = problem_of(board)
        with Reasoner(problem) as r:
            first = r.solution("sat").status
            r.uniqueness()
            for cell in problem.cells:
                r.safety(cell, Move.OPEN)
                r.safety(cell, Move.FLAG)
            assert r.solution("sat").status == first
            assert r.solution("count").status == first
        assert {c: s.value for c, s in first.items()} == oracle.status(problem)

    def test_abstract_problem(self):
        """Cells may be any hashable: the engine knows nothing of grids."""
        rules = (Constraint(frozenset({"a", "b"}), 1, "r1"), Constraint(frozenset({"b", "c"}), 2, "r2"))
        answer = solve(Problem(("a", "b", "c", "d"), rules, 2, "total"))
        assert answer.status == {"a": Status.SAFE, "b": Status.MINE, "c": Status.MINE, "d": Status.SAFE}
