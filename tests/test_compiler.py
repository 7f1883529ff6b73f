"""The circuit compiler: formulas, layout, and parsimony checked by counting.

Every compiled board is counted by the component engine and compared with
the formula's model count from truth tables (itself checked against
evaluation assignment by assignment and against pyeda's BDD).  With Kaye's
AND the expected surplus is computed from the formula tree alone.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from click.testing import CliRunner
from pyeda.boolalg.bdd import expr2bdd
from pyeda.boolalg.expr import expr

from satsweeper.cli import main
from satsweeper.constraints import Constraint, Problem, problem_of
from satsweeper.counting import Engine, count
from satsweeper.errors import BoardSyntaxError
from satsweeper.gadgets.compiler import GateSet, bus_order, compile_formula, crossings
from satsweeper.gadgets.formula import (Formula, Gate, Not, Op, Var, models_by_bdd, parse_dimacs, parse_formula,
                                        random_formula)
from satsweeper.gadgets.layout import Layout, LayoutError
from satsweeper.textio import format_board, read_board, read_puzzle


def random_formulas(seed: int, how_many: int) -> list[Formula]:
    """Formulas over 1-6 variables with 1-4 levels of gates, drawn uniformly in both."""
    rng = random.Random(seed)
    return [random_formula(rng, rng.randint(1, 6), rng.randint(1, 4)) for _ in range(how_many)]


def kaye_expected(formula: Formula) -> int:
    """Explanations of a board built with Kaye's AND, from the tree alone.

    An AND node doubles when both operands are false; an OR node is built
    as NOT(AND(NOT, NOT)), so it doubles when both operands are true.
    """
    def walk(node, values):
        if isinstance(node, Var):
            return values[node.name], 0
        if isinstance(node, Not):
            value, doubled = walk(node.arg, values)
            return not value, doubled
        (a, da), (b, db) = walk(node.left, values), walk(node.right, values)
        extra = (node.op is Op.AND and not a and not b) or (node.op is Op.OR and a and b)
        value = a and b if node.op is Op.AND else a or b if node.op is Op.OR else a != b
        return value, da + db + int(extra)

    total = 0
    for bits in itertools.product((False, True), repeat=len(formula.variables)):
        value, doubled = walk(formula.root, dict(zip(formula.variables, bits)))
        total += (1 << doubled) if value else 0
    return total


class TestFormula:
    def test_operators_rewritten_into_gates(self):
        assert str(parse_formula("a => b")) == "(~a | b)"
        assert str(parse_formula("a <=> b")) == "~(a ^ b)"
        assert parse_formula("s ? a : b").models() == 4
        assert parse_formula("a & b & c & d").models() == 1

    def test_constants_fold_away(self):
        assert parse_formula("a & 1").root == Var("a")
        assert parse_formula("a | 1").root is True
        assert parse_formula("a ^ 1").root == Not(Var("a"))

    def test_variables_in_order_of_appearance(self):
        assert parse_formula("zeta | alpha & z").variables == ("zeta", "alpha", "z")

    @pytest.mark.parametrize("seed", range(5))
    def test_truth_table_matches_evaluation_and_bdd(self, seed):
        """Truth-table counts agree with assignment-by-assignment evaluation and with pyeda's BDD."""
        for f in random_formulas(seed, 20) + [random_formula(random.Random(seed), 9, 5)]:
            by_hand = sum(f.value(dict(zip(f.variables, bits)))
                          for bits in itertools.product((False, True), repeat=len(f.variables)))
            assert f.models() == by_hand == models_by_bdd(f)

    def test_pyeda_satisfy_count_counts_cubes_not_models(self):
        """Why models_by_bdd weighs cubes: pyeda's own count says 3 where there are 7 models."""
        e = expr("~(a & b & c)")
        assert e.satisfy_count() == 3 and expr2bdd(e).satisfy_count() == 3
        assert parse_formula("~(a & b & c)").models() == 7 == models_by_bdd(parse_formula("~(a & b & c)"))

    def test_satlib_ends_at_its_percent_sign(self):
        """SATLIB's files end with '%' and '0': the 0 was read as an empty clause, so every such
        formula had no model (exit 0, 'formula: 0')."""
        f = parse_dimacs("c uf\np cnf 2 1\n1 2 0\n%\n0\n\n")
        assert str(f) == "(x1 | x2)" and f.models() == 3

    def test_dimacs(self):
        f = parse_dimacs("c example\np cnf 4 2\n1 -2 0\n2 3\n0\n")
        assert f.variables == ("x1", "x2", "x3", "x4")
        assert str(f) == "((x1 | ~x2) & (x2 | x3))"
        assert f.models() == 8  # x4 free

    @pytest.mark.parametrize("text, where", [
        ("1 2 0\n", "<dimacs>:1:1: expected the header"),
        ("p cnf 2 1\n1 x 0\n", "<dimacs>:2:3: expected an integer literal (got 'x')"),
        ("p cnf 2 1\n1 3 0\n", "<dimacs>:2:3: expected a literal between -2 and 2"),
        ("p dnf 2 1\n", "<dimacs>:1:1: expected one header"),
        # the clauses the header counts: one lost, or one too many, made another formula silently
        ("p cnf 2 2\n1 2 0\n", "<dimacs>:1:9: expected 2 clauses, as the header says (got 1 clause)"),
        ("c x\np  cnf 3 1\n1 2 0\n-1 0\n", "<dimacs>:2:10: expected 1 clause, as the header says (got 2 clauses)"),
    ])
    def test_dimacs_errors_say_where(self, text, where):
        with pytest.raises(BoardSyntaxError) as err:
            parse_dimacs(text)
        assert str(err.value).startswith(where)

    def test_formula_errors_say_where(self):
        with pytest.raises(BoardSyntaxError) as err:
            parse_formula("a & (b |")
        assert str(err.value) == ("<formula>:1:9: expected a Boolean formula (variables, ~ & | ^ => <=>, "
                                  "parentheses) (got the end of the formula)")

    @pytest.mark.parametrize("char", list("-@$#!%`'\"{}<>;"))
    def test_a_stray_character_is_named_where_it_is(self, char):
        """A character no token starts with, put at a random place between tokens of a
        formula, is named at that place (it was '1:1 ... (got ?)': 'a -> b' said nothing)."""
        rng = random.Random(char)
        for _ in range(5):
            lines = ["a & (b |", " ~c) ^ d", "=> e"]
            row = rng.randrange(len(lines))
            gaps = [i for i, ch in enumerate(lines[row]) if ch == " "] + [len(lines[row])]
            if char == "#":  # first on its line, '#' makes the line a comment
                gaps = [i for i in gaps if lines[row][:i].strip()]
            at = rng.choice(gaps)
            lines[row] = lines[row][:at] + char + lines[row][at:]
            with pytest.raises(BoardSyntaxError) as err:
                parse_formula("\n".join(lines))
            assert str(err.value).startswith(f"<formula>:{row + 1}:{at + 1}: expected a Boolean formula")
            assert str(err.value).endswith(f"(got {char!r})")


    @pytest.mark.parametrize("gates, per_model", [("parsimonious", 1), ("balanced", 1), ("kaye", None)])
    def test_the_board_file_says_what_it_is(self, gates, per_model, tmp_path):
        """A compiled board's file began with its squares: a reader or a render (titled with
        the file's name) could not tell its formula. Its comment lines say it, and what its
        explanations are: checked by counting them (the formula has one model)."""
        from satsweeper.counting import count
        from satsweeper.textio import parse_puzzle
        out = tmp_path / "b.txt"
        result = CliRunner().invoke(main, ["compile", "a & ~b", "--gates", gates, "-o", str(out)])
        assert result.exit_code == 0
        lines = out.read_text().splitlines()
        assert lines[0] == f"# compiled by satsweeper compile --gates {gates}: (a & ~b)"
        assert lines[1].endswith("; variables a b")
        counted = count(parse_puzzle(out.read_text()).board)  # the formula has one model, a=1 b=0
        assert counted == 1 if per_model else counted >= 1

    def test_a_formula_file_has_comment_lines(self):
        """'#' lines are comments, as in every file we read (they were "got '#'"); the
        lines after them keep their numbers."""
        assert str(parse_formula("# the majority\n(a & b) | (a & c)\n  # and\n| (b & c)\n")) == \
            str(parse_formula("(a & b) | (a & c) | (b & c)"))
        with pytest.raises(BoardSyntaxError) as err:
            parse_formula("# one\na &\n# two\n& b\n")
        assert (err.value.line, err.value.column) == (4, 1)

    @pytest.mark.parametrize("text, where, found", [
        ("a -> b", (1, 3), "'-'; implication is '=>'"),
        ("ite(s, a, b)", (1, 4), "'('; the function is spelt 'ITE(' (pyeda's names)"),
        ("a | majority(a, b, c)", (1, 13), "'('; the function is spelt 'Majority(' (pyeda's names)"),
        ("f(a)", (1, 2), "'('; only a function takes '(': ITE, Xor, Majority..."),
        ("ITE(a, b)", (1, 9), "')'; ITE takes three: ITE(s, a, b) is a where s, else b"),
        ("ITE(a, b, c, d)", (1, 12), "','; ITE takes three: ITE(s, a, b) is a where s, else b"),
        ("ITE(a, (b | c))", (1, 15), "')'; ITE takes three: ITE(s, a, b) is a where s, else b"),
        ("a | b)", (1, 6), "')'; a ')' closes no '('"),
        ("a & & b", (1, 5), "'&'"),
        ("# a board\nmines: 2\n1.\n..\n", (2, 6), "a board file's 'mines:' header; compile takes a formula"),
        ("gadget: not\ninputs: x\nx.\n", (1, 7), "a board file's 'gadget:' header; compile takes a formula"),
    ])
    def test_the_likely_mistake_is_named(self, text, where, found):
        """'a -> b' said only "got '-'", 'ite(s, a, b)' only "got '('"; a board file given to compile "got ':'" or, for a
        big board, that a number had too many digits; ITE with two arguments only "got ')'", with
        four "got '" (the comma lost in reading pyeda's token)."""
        with pytest.raises(BoardSyntaxError) as err:
            parse_formula(text)
        assert ((err.value.line, err.value.column), err.value.found) == (where, found)


class TestLayout:
    @pytest.mark.parametrize("length", [0, 3, 4, 6, 8, 9, 12, 13, 16, 17, 20, 21, 25, 28, 29])
    @pytest.mark.parametrize("flip", [None, False, True])
    def test_straight_wires_keep_their_value(self, length, flip):
        """Any length a straight run allows, with any flip asked for, carries the input to a forced end."""
        layout = Layout()
        head = layout.start(0, 0, "a")
        junctions = min(j for j in range(6) if j % 3 == length % 3 and (flip is None or (j % 2 == 1) == flip))
        if length < 4 * junctions:
            with pytest.raises(LayoutError):
                layout.straight(head, head.at(length), flip)
            return
        head = layout.straight(head, head.at(length), flip)
        if flip is not None:
            assert head.flip == flip
        layout.force(layout.straight(head, head.at(6)), value=True)
        board = layout.board()
        problem = problem_of(board)
        a = board.cell_by_name("a")
        pinned = Problem(problem.cells, problem.constraints + (Constraint(frozenset({a}), 1, "a"),))
        assert count(board) == 1 and count(pinned) == 1

    def test_short_runs_refuse_junctions(self):
        layout = Layout()
        head = layout.start(0, 0, "a")
        with pytest.raises(LayoutError):
            layout.straight(head, head.at(2))   # needs two junctions: 8 squares
        with pytest.raises(LayoutError):
            layout.straight(head, head.at(3), flip=True)  # needs three junctions: 12 squares


class TestParsimony:
    @pytest.mark.parametrize("seed", range(4))
    def test_parsimonious_gates_count_models_exactly(self, seed):
        """30 random formulas per seed (120 in all, up to 6 variables and depth 4): explanations == models."""
        for f in random_formulas(100 + seed, 30):
            compiled = compile_formula(f)
            assert compiled.explanations() == f.models(), str(f)

    @pytest.mark.parametrize("text", ["a & 0", "a & ~1", "a & b & 0", "(a | b | c) & (d ^ 0) & 0", "0", "~1",
                                      "a | 1", "1", "(a ^ b) | ~0"])
    @pytest.mark.parametrize("gates", list(GateSet))
    def test_constants_count_their_models(self, text, gates, tmp_path):
        """A formula that is constant false (or true) over its variables: as many explanations
        as pyeda's own models (0 for false: 'a & 0' had 2, its '1' seeing the wire's flag);
        the SAT check agrees, and the board is read back from its file (the constant 0 was
        written as a lone 1 on a 1x1 board, which the reader refuses)."""
        from satsweeper import check
        compiled = compile_formula(parse_formula(text), gates)
        truth = len(list(expr(text).satisfy_all())) * 2 ** (len(compiled.formula.variables)
                                                             - len(expr(text).support))
        assert compiled.explanations() == truth
        path = tmp_path / "c.txt"
        path.write_text(format_board(compiled.board))
        assert check(read_board(path)).consistent == (truth > 0)

    def test_largest_shape_compiles_parsimoniously(self):
        """A full tree of depth 4 (16 leaves) over 6 variables."""
        rng = random.Random(7)
        names = [f"x{k}" for k in range(1, 7)]

        def full(level):
            if level == 0:
                return Var(rng.choice(names))
            return Gate(rng.choice(list(Op)), full(level - 1), full(level - 1))

        f = Formula(full(4), tuple(names))
        assert compile_formula(f).explanations() == f.models()

    @pytest.mark.parametrize("seed", range(2))
    def test_kaye_gates_show_the_expected_surplus(self, seed):
        """Kaye's AND: each AND with both inputs false doubles; the count matches the tree's prediction."""
        surplus = 0
        for f in random_formulas(200 + seed, 20):
            compiled = compile_formula(f, GateSet.KAYE)
            expected = kaye_expected(f)
            assert compiled.explanations() == expected, str(f)
            surplus += expected - f.models()
        assert surplus > 0

    def test_kaye_or_of_two_variables(self):
        """a | b through Kaye's AND: NOT(AND(~a, ~b)) has two explanations when a = b = true."""
        f = parse_formula("a | b")
        assert compile_formula(f, GateSet.KAYE).explanations() == kaye_expected(f) == 4

    def test_explanations_correspond_to_models_one_to_one(self):
        """Pinning the named input wires to an assignment leaves one explanation for a model, none otherwise."""
        f = parse_formula("(a | ~b) & (b ^ c)")
        compiled = compile_formula(f)
        problem = problem_of(compiled.board)
        for bits in itertools.product((False, True), repeat=3):
            pins = tuple(Constraint(frozenset({compiled.board.cell_by_name(v)}), int(b), v)
                         for v, b in zip(f.variables, bits))
            pinned = Problem(problem.cells, problem.constraints + pins)
            assert count(pinned, order=compiled.order) == int(f.value(dict(zip(f.variables, bits))))

    @pytest.mark.parametrize("text, models", [("a | ~a", 2), ("a & ~a", 0), ("1", 1), ("0", 0), ("a", 1)])
    def test_constant_and_trivial_formulas(self, text, models):
        f = parse_formula(text)
        assert f.models() == models == compile_formula(f).explanations()

    def test_ganak_agrees_on_a_small_board(self):
        """A second counter on the whole board (Ganak on CNF, projected on the cells)."""
        compiled = compile_formula(parse_formula("~a"))
        assert count(compiled.board, Engine.GANAK) == compiled.explanations() == 1

    def test_unused_dimacs_variables_double(self):
        f = parse_dimacs("p cnf 3 1\n1 -2 0\n")
        assert compile_formula(f).explanations() == f.models() == 6


class TestBusOrder:
    def test_the_order_minimises_crossings(self):
        leaves = ["a", "b", "a", "c", "b", "a"]
        best = bus_order(("a", "b", "c"), leaves)
        assert crossings(best, leaves) == min(crossings(p, leaves) for p in itertools.permutations("abc"))

    def test_one_variable_needs_no_crossing(self):
        f = parse_formula("(a ^ ~a) | (a & a)")
        assert compile_formula(f).crossings == 0


class TestCommand:
    def test_compile_prints_the_count(self):
        result = CliRunner().invoke(main, ["compile", "(a | ~b) & (b ^ c)"])
        assert result.exit_code == 0, result.output
        assert "models: 3" in result.output and "explanations: 3 (equal to the models: one explanation per model)" in result.output

    def test_json_and_kaye(self):
        result = CliRunner().invoke(main, ["compile", "a | b", "--gates", "kaye", "--json"])
        data = json.loads(result.stdout)
        assert result.exit_code == 0
        assert (data["models"], data["explanations"], data["tiles"]) == ("3", "4", {"and": 1})

    def test_json_counts_are_strings_of_digits(self, tmp_path):
        """docs/json.md: a count is a string of its digits; compile's were JSON numbers, and one
        above 2**53 reads wrong in JavaScript (60 variables, one clause: 2**59 models)."""
        path = tmp_path / "big.cnf"
        path.write_text("p cnf 60 1\n1 0\n")
        data = json.loads(CliRunner().invoke(main, ["compile", str(path), "--json"]).stdout)
        assert data["explanations"] == str(2 ** 59) and data["models"] is None  # beyond 24 variables

    def test_writes_native_and_mine(self, tmp_path):
        native, mine = tmp_path / "b.txt", tmp_path / "b.mine"
        for path in (native, mine):
            result = CliRunner().invoke(main, ["compile", "a ^ b", "-o", str(path)])
            assert result.exit_code == 0, result.output
        board = read_board(native)
        assert count(board) == 2 and board.cell_by_name("a") is not None
        assert "every explanation has this many mines" in result.output
        puzzle = read_puzzle(mine)
        assert puzzle.board.total_mines is not None and count(puzzle.board) == 2

    @pytest.mark.parametrize("name", ["b.cnf", "b.CNF", "b.dimacs", "b.png", "b.svg", "b.pdf"])
    @pytest.mark.parametrize("command", [["compile", "a ^ b"], ["generate", "5x5x3"], ["repair", "not"]])
    def test_a_name_of_another_format_is_refused(self, tmp_path, name, command):
        """-o b.cnf wrote a native board under a CNF's name (compile), -o x.png a layout's text
        (generate), -o y.svg a repaired board (repair): now exit 2 before the work, nothing written."""
        result = CliRunner().invoke(main, command + ["-o", str(tmp_path / name)])
        assert result.exit_code == 2 and "expected a board file: .mine for JSMinesweeper" in result.stderr
        assert list(tmp_path.iterdir()) == []

    def test_an_output_under_a_file_is_named_as_such(self, tmp_path, monkeypatch):
        """'exist.txt/x.txt' was said to be in a directory that "does not exist"."""
        monkeypatch.chdir(tmp_path)
        (tmp_path / "exist.txt").write_text("keep\n")
        result = CliRunner().invoke(main, ["generate", "5x5x3", "-o", "exist.txt/x.txt"])
        assert result.exit_code == 2 and "'exist.txt' is a file, not a directory" in result.stderr
        assert (tmp_path / "exist.txt").read_text() == "keep\n"
        result = CliRunner().invoke(main, ["generate", "5x5x3", "-o", "no/x.txt"])
        assert result.exit_code == 2 and "'no' does not exist" in result.stderr

    def test_indexed_variable_names_survive_the_file(self, tmp_path):
        """pyeda's x[1] names the input wire x[1] in the written board, and reads back."""
        path = tmp_path / "b.txt"
        result = CliRunner().invoke(main, ["compile", "x[1] & ~x[2]", "-o", str(path)])
        assert result.exit_code == 0, result.output
        board = read_board(path)
        assert count(board) == 1 and board.cell_by_name("x[1]") and board.cell_by_name("x[2]")

    @pytest.mark.parametrize("formula, column, name", [
        ("F | b", 1, "'F'"), ("b &\n ~F", 3, "'F'"), ("a.b | x[1]", 1, "'a.b'")])
    def test_a_name_no_board_can_hold_is_refused(self, formula, column, name):
        """A variable F was written as a flag (the board read back had 2 explanations for 3 models,
        '~F' none); a dotted name was written and then refused by every command reading it."""
        with pytest.raises(BoardSyntaxError) as caught:
            parse_formula(formula)
        assert (caught.value.column, caught.value.found) == (column, name)
        assert "a variable name a board can hold" in caught.value.expected

    @pytest.mark.parametrize("formula", ["Fx | F1", "o ^ l", "x[1] & ~x[2] | I", "_a | b_2", "x[1,2] ^ y"])
    def test_names_read_back_as_written(self, formula, tmp_path):
        """Every name compile takes reads back as the same named cells, with the formula's models as
        its explanations (the truth table), and no "typo for 0?" note for the cells named o, l or I."""
        path = tmp_path / "b.txt"
        result = CliRunner().invoke(main, ["compile", formula, "-o", str(path)])
        assert result.exit_code == 0, result.output
        f = parse_formula(formula)
        board = read_board(path)
        assert count(board) == f.models() and all(board.cell_by_name(v) for v in f.variables)
        assert "typo" not in CliRunner().invoke(main, ["count", str(path)]).stderr

    def test_small_words(self, tmp_path):
        """A formula without variables listed an empty row for its one model; -o "" said
        "got '.', a directory"; --inputs with a value left out ("u=1,,v=0") was taken."""
        result = CliRunner().invoke(main, ["compile", "1", "--models"])
        assert result.output.rstrip().endswith("models (1): (no variables)")
        result = CliRunner().invoke(main, ["compile", "a", "-o", ""])
        assert result.exit_code == 2 and "expected a file to write (got an empty name)" in result.stderr
        result = CliRunner().invoke(main, ["gadget", "draw", "xor", "-o", str(tmp_path / "x.png"),
                                           "--inputs", "u=1,,v=0"])
        assert result.exit_code == 2 and "(got 'u=1,,v=0')" in result.stderr and not list(tmp_path.iterdir())

    def test_a_word_that_names_a_file_says_which_was_read(self, tmp_path, monkeypatch):
        """'compile a' with a file a holding 'p | q' compiled p | q without a word; now a note says
        the file was read, and '(a)' is the variable."""
        monkeypatch.chdir(tmp_path)
        (tmp_path / "a").write_text("p | q\n")
        result = CliRunner().invoke(main, ["compile", "a", "--no-count"])
        assert result.exit_code == 0 and "formula: (p | q)" in result.stdout
        assert "note: read the formula from the file a (for the variable, write (a))" in result.stderr
        result = CliRunner().invoke(main, ["compile", "(a)", "--no-count"])
        assert "formula: a\n" in result.stdout and "note" not in result.stderr

    def test_dimacs_file(self, tmp_path):
        path = tmp_path / "f.cnf"
        path.write_text("p cnf 3 2\n1 -2 0\n2 3 0\n")
        result = CliRunner().invoke(main, ["compile", str(path)])
        assert result.exit_code == 0 and "explanations: 4" in result.output

    @pytest.mark.parametrize("args, message", [
        (["a & (b |"], "<formula>:1:9: expected a Boolean formula"),
        ([""], "<formula>:1:1: expected a Boolean formula"),
        (["missing.cnf"], "missing.cnf:1:1: expected a formula or an existing file (got no such file)"),
    ])
    def test_bad_formulas_exit_2(self, args, message, tmp_path):
        result = CliRunner().invoke(main, ["compile"] + args)
        assert result.exit_code == 2 and message in result.output

    def test_bad_dimacs_exits_2_with_position(self, tmp_path):
        path = tmp_path / "g.cnf"
        path.write_text("p cnf 2 1\n1 x 0\n")
        result = CliRunner().invoke(main, ["compile", str(path)])
        assert result.exit_code == 2 and f"{path}:2:3: expected an integer literal (got 'x')" in result.output
