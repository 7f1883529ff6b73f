"""The contract every command keeps (docs/json.md): JSON, errors, exit codes,
stdin, outputs checked before the work, nothing lost, time limits."""

from __future__ import annotations

import json
import math
import os
import tempfile
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from satsweeper.cli import main
from satsweeper.strategies import NAMES

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
COMMON = {"command", "version"}
ERROR_KEYS = {"command", "version", "error", "file", "line", "col", "expected", "got"}


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def one_json(result) -> dict:
    """The output is exactly one JSON object (nothing else on stdout)."""
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


# Every command, with arguments that make it answer quickly.
COMMANDS = [
    ("check", [EXAMPLES / "expert.txt"]),
    ("safe", [EXAMPLES / "unique.txt", "1,0"]),
    ("solve", [EXAMPLES / "unique.txt"]),
    ("unique", [EXAMPLES / "unique.txt"]),
    ("count", [EXAMPLES / "unique.txt"]),
    ("probs", [EXAMPLES / "unique.txt"]),
    ("hint", [EXAMPLES / "expert.txt"]),
    ("noguess", [EXAMPLES / "layout.txt"]),
    ("generate", ["9x9x10", "--seed", "1"]),
    ("bench", ["--level", "4x4x2", "--games", "3", "--strategy", "exact"]),
    ("density", ["--size", "2x2", "--games", "2", "--strategy", "exact"]),
    ("gadget list", []),
    ("gadget verify", ["not"]),
    ("compile", ["a | b", "--no-count"]),
    ("optimal", ["3x3x2"]),
    ("repair", ["not"]),
]
# The commands that write files (test_render_and_write_take_json) and serve, which runs until
# stopped (tests/web/test_server.py starts it with --json).
WRITERS = ["render", "gadget write", "gadget draw"]


class TestJsonEverywhere:
    @pytest.mark.parametrize("command,args", COMMANDS, ids=[c for c, _ in COMMANDS])
    def test_one_object_with_the_common_keys(self, command, args):
        """Every command prints one JSON object naming the command and the schema version."""
        result = run(*command.split(), *args, "--json")
        assert result.exit_code in (0, 1), result.output
        data = one_json(result)
        assert COMMON <= data.keys() and data["command"] == command and data["version"] == 1

    def test_every_command_is_here(self):
        """COMMANDS and WRITERS hold every command of the group (optimal, repair and gadget
        draw were missing, and a new command would have gone unchecked)."""
        from satsweeper.cli import HOMES
        named = []
        for name in HOMES:
            command = main.get_command(None, name)
            named += [f"{name} {sub}" for sub in command.commands] if isinstance(command, click.Group) else [name]
        assert sorted(named) == sorted([c for c, _ in COMMANDS] + WRITERS + ["serve"])

    def test_render_and_write_take_json(self, tmp_path):
        """The commands that write files answer in JSON too, naming what they wrote."""
        data = one_json(run("render", EXAMPLES / "unique.txt", "-o", tmp_path / "u.svg", "--json"))
        assert data["command"] == "render" and data["output"] == str(tmp_path / "u.svg")
        data = one_json(run("gadget", "write", tmp_path / "g", "--json"))
        assert data["command"] == "gadget write" and len(data["files"]) > 5
        data = one_json(run("gadget", "draw", "not", "-o", tmp_path / "not.svg", "--json"))
        assert data["command"] == "gadget draw" and (tmp_path / "not.svg").stat().st_size > 0
        # a native file has no total to choose: null, as mines is ("why" was "")
        data = one_json(run("compile", "a | b", "--no-count", "-o", tmp_path / "or.txt", "--json"))
        assert data["output"] == {"path": str(tmp_path / "or.txt"), "mines": None, "why": None}

    def test_errors_are_json_objects(self, tmp_path):
        """With --json a bad board is an error object with its location; exit 2."""
        bad = tmp_path / "bad.txt"
        bad.write_text("mines: 1\n..\n.9\n")
        result = run("solve", bad, "--json")
        assert result.exit_code == 2
        data = one_json(result)
        assert data.keys() == ERROR_KEYS
        assert (data["command"], data["file"], data["line"], data["col"]) == ("solve", str(bad), 3, 2)
        assert data["expected"] and data["got"]

    @pytest.mark.parametrize("command,args", COMMANDS, ids=[c for c, _ in COMMANDS])
    def test_an_error_names_the_command_as_its_answer_does(self, command, args):
        """A usage error's object names the command as the answer would (gadget verify, not gadget)."""
        answer = one_json(run(*command.split(), *args, "--json"))
        result = run(*command.split(), *args, "--no-such-option", "--json")
        assert result.exit_code == 2 and one_json(result)["command"] == answer["command"]

    def test_no_command_is_named_null(self):
        """An unknown command's error named it as the command ("command": "nosuchcmd")."""
        result = run("nosuchcmd", "--json")
        assert result.exit_code == 2 and one_json(result)["command"] is None
        assert one_json(run("gadget", "nosuch", "--json"))["command"] == "gadget"

    def test_usage_errors_are_json_too(self):
        """A bad option value is an error object as well."""
        data = one_json(run("bench", "--games", "zero", "--json"))
        assert data["error"] and data["command"] == "bench"

    def test_same_words_as_the_text(self):
        """Statuses are the words the text uses: safe, mine, undetermined."""
        data = one_json(run("solve", EXAMPLES / "expert.txt", "--json"))
        assert {c["status"] for c in data["cells"]} == {"safe", "mine", "undetermined"}
        assert "undetermined" in run("solve", EXAMPLES / "expert.txt").output

    @pytest.mark.parametrize("command", ["check", "safe", "solve", "unique", "count", "probs"])
    def test_every_key_of_a_query_is_documented(self, command):
        """docs/json.md's table of the queries names each key an answer has (a bot's author
        had only the examples to go by: probs's "frontier" and "safest" were nowhere)."""
        doc = (ROOT / "docs" / "json.md").read_text().split("## The queries")[1].split("\n## ")[0]
        row = next(line for line in doc.splitlines() if line.startswith(f"| `{command}` |"))
        keys = set()
        for board, hidden in (("unique.txt", "0,0"), ("guess.txt", "0,1"), ("conflict.txt", "0,0")):
            for more in ([hidden], [hidden, "--mine"]) if command == "safe" else ([],):
                keys |= one_json(run(command, EXAMPLES / board, *more, "--json")).keys()
        assert "error" not in keys
        assert {"consistent", "conflict"} <= keys
        missing = {k for k in keys - COMMON - {"consistent", "conflict"} if f'"{k}"' not in row}
        assert not missing, f"{command}: {sorted(missing)} not in docs/json.md"

    def test_explanations_are_named_alike(self):
        """check's witness and safe's counter-example are both an "explanation" of cells."""
        check = one_json(run("check", EXAMPLES / "unique.txt", "--json"))
        unsafe = one_json(run("safe", EXAMPLES / "expert.txt", "0,0", "--json"))
        for data in (check, unsafe):
            assert all(cell.keys() >= {"row", "col"} for cell in data["explanation"])


class TestInputs:
    def test_stdin(self):
        """- reads the board from standard input."""
        text = (EXAMPLES / "unique.txt").read_text()
        assert run("solve", "-", input=text).output == run("solve", EXAMPLES / "unique.txt").output

    def test_mine_format_by_content(self, tmp_path):
        """A WxHxM first line is a .mine file whatever the file is called."""
        plain = tmp_path / "noext"
        plain.write_bytes((EXAMPLES / "expert.mine").read_bytes())
        by_name, by_content = run("count", EXAMPLES / "expert.mine"), run("count", plain)
        assert by_content.exit_code == 0 and by_content.output == by_name.output

    def test_directory_and_missing_file(self, tmp_path):
        """A directory or a missing file is an error in file:line:col form, exit 2."""
        for path, got in ((tmp_path, "a directory"), (tmp_path / "nope.txt", "no such file")):
            result = run("check", path)
            assert result.exit_code == 2 and f"{path}:1:1: expected" in result.stderr and got in result.stderr

    @pytest.mark.parametrize("args", [["optimal", "expert"], ["optimal", "3x3x8", "--rule", "opening"],
                                      ["generate", "3x3x9"], ["bench", "--level", "3x3x9", "--games", "1"]],
                             ids=["optimal-too-big", "optimal-no-layout", "generate", "bench"])
    def test_library_refusals_read_as_the_contract_says(self, args):
        """A refusal the library makes reads "expected X (got Y)" with both in the JSON,
        like the CLI's own checks (they came out as "at most 0 mines ... (got 9)")."""
        text, data = run(*args), one_json(run(*args, "--json"))
        assert text.exit_code == 2 and text.stderr.startswith("satsweeper: expected ")
        assert data["expected"] and data["got"] and len(text.stderr.strip().splitlines()) == 1

    @pytest.mark.parametrize("size,start,rule,room", [
        ((4, 4), (0, 0), "opening", 16 - 4), ((4, 4), (1, 1), "opening", 16 - 9),
        ((3, 3), (1, 1), "opening", 0), ((3, 3), (1, 1), "safe", 8)])
    def test_generate_says_how_many_mines_fit(self, size, start, rule, room):
        """The most mines generate can place beside the free first click: that many
        work, one more is refused naming the number (room counted by hand)."""
        level = f"{size[0]}x{size[1]}x{{}}"
        where = ["--start", f"{start[0]},{start[1]}", "--rule", rule]
        if room:
            made = one_json(run("generate", level.format(room), *where, "--json"))
            assert made["boards"][0]["layout"].count("*") == room
        refused = run("generate", level.format(room + 1), *where)
        assert refused.exit_code == 2 and f"at most {room} mines" in refused.stderr

    @pytest.mark.parametrize("args,flag", [(["optimal", "4x4x4", "--first"], "--first"),
                                           (["generate", "--start"], "--start"),
                                           (["noguess", EXAMPLES / "layout.txt", "--start"], "--start")])
    def test_a_bad_cell_option_is_named_as_typed(self, args, flag):
        """'3;7' for a cell option names the option as the user wrote it (it said "first")."""
        result = run(*args, "3;7")
        assert result.exit_code == 2 and f"expected {flag} as ROW,COL" in result.stderr

    @pytest.mark.parametrize("command", [["bench", "--level", "4x4x3", "--games", "5"],
                                         ["generate", "4x4x3"], ["optimal", "3x3x2"]])
    def test_the_first_click_rule_is_rule_everywhere(self, command):
        """--rule names the first-click rule on every command that has one (bench
        said --rules alone; --rules still works there)."""
        data = one_json(run(*command, "--rule", "opening", "--json"))
        assert "error" not in data
        if command[0] == "bench":
            assert data["rules"] == "opening"
            assert one_json(run(*command, "--rules", "opening", "--json"))["wins"] == data["wins"]

    @pytest.mark.parametrize("typed,level", [("Expert", "30x16x99"), ("BEGINNER", "9x9x10"),
                                             ("8X8X10", "8x8x10"), (" 5x4x3 ", "5x4x3")])
    def test_levels_as_people_type_them(self, typed, level):
        """A level's name or size in any case is the level ('Expert' and '30X16X99' were refused)."""
        data = one_json(run("generate", "--level", typed, "--json"))
        assert data["level"] == level

    def test_non_ascii_digits_in_a_cell(self):
        """Arabic-Indic or full-width digits are not a cell."""
        for cell in ("\u0661,\u0660", "\uff11,\uff10"):
            result = run("safe", EXAMPLES / "unique.txt", cell)
            assert result.exit_code == 2 and "expected" in result.stderr

    def test_one_size_convention(self):
        """A cell off the board names the board as WIDTHxHEIGHT (30x16 for expert)."""
        result = run("safe", EXAMPLES / "expert.txt", "99,99")
        assert result.exit_code == 2 and "30x16" in result.stderr and "16x30" not in result.stderr


class TestOutputs:
    @pytest.mark.parametrize("args", [
        ["render", EXAMPLES / "unique.txt", "-o", "/missing/x.png"],
        ["generate", "-o", "/missing/x.txt"],
        ["bench", "--games", "2", "--level", "4x4x2", "--out", "/missing/x.json"],
        ["density", "--size", "2x2", "--games", "1", "--plot", "/missing/x.png"],
        ["repair", "not", "-o", "/missing/x.txt"],
        ["compile", "a | b", "-o", "/missing/x.txt"],
        ["gadget", "write", "/missing/dir"],
    ], ids=["render", "generate", "bench", "density", "repair", "compile", "gadget-write"])
    def test_missing_directory_is_refused_before_the_work(self, args):
        """An output in a directory that does not exist: exit 2 at once, nothing created."""
        result = run(*args)
        assert result.exit_code == 2 and "expected" in result.stderr and "Traceback" not in result.output
        assert not Path("/missing").exists()

    @pytest.mark.parametrize("args", [["gadget", "write", "{file}"], ["generate", "--out-dir", "{file}"]],
                             ids=["gadget-write", "out-dir"])
    def test_a_file_where_a_directory_goes(self, args, tmp_path):
        """A file given as the directory: the same one line as any other output's mistake (gadget
        write printed click's usage line and "expected a valid 'DIRECTORY' (got Directory ... is
        a file)"), and the file is left as it was."""
        from satsweeper.errors import cut
        target = tmp_path / "ok.txt"
        target.write_text("kept")
        result = run(*(str(a).format(file=target) for a in args))
        said = f"satsweeper: expected a directory (got {cut(str(target))}, a file)\n"
        assert result.exit_code == 2 and result.stderr == said
        assert target.read_text() == "kept"

    @pytest.mark.parametrize("args", [
        ["render", EXAMPLES / "unique.txt", "-o", "{dir}/x.png"],
        ["generate", "-o", "{dir}/x.txt"],
        ["generate", "--out-dir", "{dir}"],
        ["noguess", EXAMPLES / "layout.txt", "--picture", "{dir}/x.png"],
        ["hint", EXAMPLES / "unique.txt", "--render", "{dir}/x.svg"],
        ["bench", "--games", "2", "--level", "4x4x2", "--out", "{dir}/x.json"],
        ["compile", "a | b", "-o", "{dir}/x.txt"],
        ["gadget", "write", "{dir}"],
    ], ids=["render", "generate", "out-dir", "noguess", "hint", "bench", "compile", "gadget-write"])
    def test_unwritable_directory_is_refused_before_the_work(self, args, tmp_path):
        """A directory that exists but takes no new file (as root too: /proc, a read-only
        mount): exit 2 with the reason, not an internal error after the work."""
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o555)
        for directory in (locked, Path("/proc")):
            try:  # the oracle: can a file really be made there?
                Path(tempfile.mkstemp(dir=directory)[1]).unlink()
                continue  # root writes into a read-only mode directory: not a case here
            except OSError:
                pass
            result = run(*(str(a).format(dir=directory) for a in args))
            assert result.exit_code == 2, result.output
            assert "expected" in result.stderr and "internal error" not in result.stderr
            assert list(locked.iterdir()) == []

    @pytest.mark.parametrize("command", [
        ["bench", "--games", "2", "--level", "4x4x2", "--out", "{out}"],
        ["density", "--size", "2x2", "--games", "1", "--strategy", "exact", "--out", "{out}"],
        ["generate", "9x9x10", "--count", "2", "--out-dir", "{dir}"]], ids=["bench", "density", "generate"])
    @pytest.mark.parametrize("how", [["--dask"], ["--scheduler", "tcp://127.0.0.1:1"]], ids=["dask", "scheduler"])
    def test_missing_dask_is_said_before_anything_is_written(self, command, how, tmp_path, monkeypatch):
        """--dask or --scheduler without dask.distributed installed: exit 2, and no journal
        or board was started (it used to write the journal's first line, then refuse)."""
        import importlib.util
        real = importlib.util.find_spec
        monkeypatch.setattr(importlib.util, "find_spec",
                            lambda name, *a: None if name.split(".")[0] == "distributed" else real(name, *a))
        out = tmp_path / "run.jsonl"
        result = run(*(str(a).format(out=out, dir=tmp_path) for a in command), *how, "--json")
        assert result.exit_code == 2 and "satsweeper[cluster]" in one_json(result)["error"]
        assert list(tmp_path.iterdir()) == []

    @pytest.mark.parametrize("args", [["generate", "--seed", "1", "-o", "-"],
                                      ["compile", "a | b", "--no-count", "-o", "-"],
                                      ["repair", "not", "-o", "-"],
                                      ["bench", "--level", "4x4x2", "--games", "2", "--out", "-"],
                                      ["render", EXAMPLES / "unique.txt", "-o", "-"],
                                      ["gadget", "write", "-"]],
                             ids=["generate", "compile", "repair", "bench", "render", "gadget-write"])
    def test_dash_is_not_an_output_file(self, args, tmp_path, monkeypatch):
        """'-o -' is refused (exit 2) rather than making a file called '-' (it did; and
        `gadget write -` a directory called '-')."""
        monkeypatch.chdir(tmp_path)
        result = run(*args)
        assert result.exit_code == 2 and "'-'" in result.stderr and list(tmp_path.iterdir()) == []

    @pytest.mark.parametrize("args", [["generate", "--seed", "1", "-o", "{out}"],
                                      ["compile", "a | b", "--no-count", "-o", "{out}"],
                                      ["repair", "not", "-o", "{out}"],
                                      ["render", EXAMPLES / "unique.txt", "-o", "{out}"]],
                             ids=["generate", "compile", "repair", "render"])
    def test_a_pipe_is_not_replaced(self, args, tmp_path):
        """An output that is a pipe (or a device: as root, /dev/null) is refused before the
        work (exit 2); it used to be replaced by a plain file, the atomic write's rename."""
        import os
        import stat
        out = tmp_path / "pipe.svg"  # a name render accepts
        os.mkfifo(out)
        result = run(*(str(a).format(out=out) for a in args))
        assert result.exit_code == 2 and "a regular file to write" in result.stderr
        assert stat.S_ISFIFO(os.lstat(out).st_mode)

    def test_count_with_one_output_file(self, tmp_path):
        """-o with --count > 1 would overwrite: refused."""
        result = run("generate", "--count", "3", "-o", tmp_path / "x.txt", "--out-dir", tmp_path)
        assert result.exit_code == 2 and not (tmp_path / "x.txt").exists()

    def test_generate_json_keeps_the_layout(self):
        """Without -o the JSON carries the layout itself."""
        data = one_json(run("generate", "9x9x10", "--seed", "2", "--json"))
        board = data["boards"][0]
        assert board["file"] is None and board["layout"].count("*") == 10

    def test_boards_written_as_found(self, tmp_path):
        """--out-dir gets one file per board, each a layout that reads back."""
        result = run("generate", "9x9x10", "--count", "3", "--out-dir", tmp_path, "--json")
        files = sorted(tmp_path.glob("board-*.txt"))
        assert result.exit_code == 0 and len(files) == 3
        assert all(run("noguess", f).exit_code in (0, 1) for f in files)

    def test_budget_is_a_limit(self):
        """A budget that runs out is exit 3, with what was made."""
        result = run("generate", "30x16x200", "--no-guess", "--budget", "2", "--json")
        data = one_json(result)
        assert result.exit_code == 3 and data["complete"] is False and data["boards"] == []

    def test_a_gadget_is_not_written_as_mine(self, tmp_path):
        """repair -o x.mine: boards are written by extension (README, Files) and a .mine file
        holds no comments (the repair's name its changes), so it is refused before the work
        and nothing is written (it wrote native text under the .mine name), for a gadget or a
        plain board (which was told it had names, ports or voids)."""
        for source in (ROOT / "gadgets" / "figures" / "fig-3.5-or-as-printed.txt", EXAMPLES / "conflict.txt"):
            out = tmp_path / "fixed.mine"
            result = run("repair", source, "-o", out)
            assert result.exit_code == 2 and not out.exists()
            assert "a .mine file holds no comments" in result.stderr and "ports" not in result.stderr

    def test_output_may_not_replace_the_input(self, tmp_path):
        """repair fig.txt -o fig.txt is refused: the figure would be lost."""
        figure = tmp_path / "fig.txt"
        figure.write_text((ROOT / "gadgets" / "figures" / "fig-3.5-or-as-printed.txt").read_text())
        before = figure.read_text()
        result = run("repair", figure, "-o", figure)
        assert result.exit_code == 2 and figure.read_text() == before

    @pytest.mark.parametrize("command, name", [
        (["render", "-", "--opened", "-o"], "layout.txt"), (["repair", "-", "-o"], "conflict.txt"),
        (["hint", "-", "--render"], "unique.svg"), (["noguess", "-", "--picture"], "layout.svg")],
        ids=["render", "repair", "hint", "noguess"])
    def test_an_output_may_not_replace_the_file_on_standard_input(self, command, name, tmp_path):
        """render - -o lay.txt < lay.txt replaced the layout with its opened position (exit 0,
        "replaced the file that was there"), and repair did the same: standard input is
        compared with the output as a file argument is.  Oracle: the file's bytes, unchanged."""
        import subprocess
        source = EXAMPLES / name.replace(".svg", ".txt")
        board = tmp_path / name
        board.write_bytes(source.read_bytes())
        with open(board, "rb") as stdin:
            done = subprocess.run(["satsweeper", *command, str(board)], stdin=stdin, capture_output=True, text=True,
                                  timeout=120)
        assert done.returncode == 2, done.stderr
        assert "which would replace the input (standard input is that file)" in done.stderr
        assert board.read_bytes() == source.read_bytes()
        # another file on standard input: written as before
        other = tmp_path / ("other" + board.suffix)
        with open(source, "rb") as stdin:
            done = subprocess.run(["satsweeper", *command, str(other)], stdin=stdin, capture_output=True, text=True,
                                  timeout=120)
        assert done.returncode in (0, 1) and other.exists(), done.stderr

    @pytest.mark.parametrize("command,option", [
        (["hint"], "--render"), (["unique"], "--render"), (["render", "--opened"], "-o")],
        ids=["hint", "unique", "render"])
    @pytest.mark.parametrize("through_link", [False, True], ids=["file", "link"])
    def test_a_picture_may_not_replace_the_board_it_draws(self, command, option, through_link, tmp_path):
        """A board saved as board.svg and drawn to board.svg (or to a link to it) is refused
        before any work, naming the option given: hint replaced the board, and through a link
        answered "internal error" (matplotlib refused the target's .txt) once the work was done."""
        board = tmp_path / ("board.txt" if through_link else "board.svg")
        board.write_text((EXAMPLES / "unique.txt").read_text())
        out = tmp_path / "link.svg"
        if through_link:
            out.symlink_to(board)
        before = board.read_bytes()
        result = run(command[0], board, *command[1:], option, out if through_link else board)
        assert result.exit_code == 2, result.output
        assert f"(got {option} " in result.stderr and "which would replace the input" in result.stderr
        assert board.read_bytes() == before

    @pytest.mark.parametrize("command", [["hint", EXAMPLES / "unique.txt", "--render"],
                                         ["render", EXAMPLES / "unique.txt", "-o"],
                                         ["noguess", EXAMPLES / "layout.txt", "--picture"]],
                             ids=["hint", "render", "noguess"])
    def test_a_picture_through_a_link_takes_the_link_s_format(self, command, tmp_path):
        """A picture written through pic.svg -> notes.txt is an SVG in notes.txt, the link kept
        (the format followed the target's name: exit 70 after the work, the answer lost)."""
        notes, link = tmp_path / "notes.txt", tmp_path / "pic.svg"
        notes.write_text("old notes\n")
        link.symlink_to(notes)
        result = run(*command, link)
        assert result.exit_code in (0, 1), result.output
        assert link.is_symlink() and notes.read_text().lstrip().startswith("<?xml")

    @pytest.mark.parametrize("args,name", [
        (["render", EXAMPLES / "unique.txt", "-o", "{out}"], "b.svg"),
        (["generate", "9x9x10", "--seed", "1", "-o", "{out}"], "b.txt"),
        (["noguess", EXAMPLES / "layout.txt", "--picture", "{out}"], "b.png"),
        (["hint", EXAMPLES / "unique.txt", "--render", "{out}"], "b.svg"),
        (["repair", "not", "-o", "{out}"], "b.txt"),
        (["compile", "a | b", "--no-count", "-o", "{out}"], "b.txt"),
        (["density", "--size", "2x2", "--games", "2", "--strategy", "exact", "--plot", "{out}"], "b.png"),
        (["bench", "--level", "4x4x2", "--games", "2", "--out", "{out}"], "b.jsonl"),
    ], ids=["render", "generate", "noguess", "hint", "repair", "compile", "density", "bench"])
    def test_replacing_a_file_is_said(self, args, name, tmp_path):
        """Overwriting an existing output says so, whichever command writes it (bench's
        --out replaces only a journal with nothing finished: test_runner has the rest)."""
        out = tmp_path / name
        old = '{"run": {"command": "bench"}}\n' if name.endswith(".jsonl") else "an old file\n"
        out.write_text(old)
        result = run(*(str(a).format(out=out) for a in args))
        assert result.exit_code in (0, 1), result.output
        assert out.read_bytes() != old.encode() and "replaced" in result.output
        # and under --json, in the answer's "replaced" (it said nothing there)
        out.write_text(old)
        data = one_json(run(*(str(a).format(out=out) for a in args), "--json"))
        assert data["replaced"] == [str(out)], data

    def test_a_replaced_file_keeps_its_mode_and_a_link_is_written_through(self, tmp_path):
        """The atomic write made every file 0o644 and put a plain file where a link was."""
        private, target, link = tmp_path / "private.txt", tmp_path / "target.txt", tmp_path / "link.txt"
        for path in (private, target):
            path.write_text("old\n")
        private.chmod(0o600)
        link.symlink_to(target)
        for out in (private, link):
            assert run("repair", "not", "-o", out).exit_code == 0
        assert private.stat().st_mode & 0o777 == 0o600 and private.read_text().startswith("gadget: not")
        assert link.is_symlink() and target.read_text() == private.read_text()
        data = one_json(run("repair", "not", "-o", tmp_path / "new.txt", "--json"))
        assert "replaced" not in data  # nothing was there

    @pytest.mark.parametrize("command", [["bench", "--level", "4x4x2", "--games", "4"],
                                         ["density", "--size", "2x2", "--games", "2", "--strategy", "exact"]],
                             ids=["bench", "density"])
    def test_a_journal_resumed_through_a_link_keeps_it_and_its_mode(self, command, tmp_path):
        """json.md: "an output that is a symbolic link is written through to its target, the link
        kept", and a replaced file keeps its permissions. A journal resumed through a link became
        a plain file (its target left stale) and came back 0o644."""
        target, link = tmp_path / "target.jsonl", tmp_path / "link.jsonl"
        assert run(*command, "--out", target).exit_code == 0
        target.chmod(0o600)
        link.symlink_to(target)
        before = target.read_text()
        more = ["--games", "8"] if command[0] == "bench" else []
        assert run(command[0], "--resume", link, *more).exit_code == 0
        assert link.is_symlink() and target.stat().st_mode & 0o777 == 0o600
        assert target.read_text().splitlines()[1] == before.splitlines()[1]  # the first result kept
        if command[0] == "bench":  # 4 more games journaled in the target
            assert json.loads(target.read_text().splitlines()[-1])["summary"]["games"] == 8

    @pytest.mark.parametrize("args", [["bench", "--level", "4x4x2", "--games", "2", "--out", "{out}"],
                                      ["density", "--size", "2x2", "--games", "2", "--strategy", "exact",
                                       "--out", "{out}"]], ids=["bench", "density"])
    def test_an_empty_journal_replaced_is_said(self, args, tmp_path):
        """README: an empty --out file is replaced, "and says so" (it used to be replaced silently)."""
        out = tmp_path / "run.jsonl"
        out.write_text("")
        result = run(*(str(a).format(out=out) for a in args))
        assert result.exit_code == 0, result.output
        assert out.stat().st_size > 0 and "(replaced the file that was there)" in result.output


class TestExitCodes:
    def test_timeout_is_exit_3_with_what_is_known(self, monkeypatch):
        """--timeout that runs out reports what the single-number rules know, exit 3.

        The count is made slow on purpose: a real expert count takes about a
        millisecond, which a loaded machine can spend before the parent first
        looks, and then the finished answer is (rightly) given instead."""
        import satsweeper.reasoning

        def slow(*args, **kwargs):
            time.sleep(60)
        monkeypatch.setattr(satsweeper.reasoning, "tally_with_conflict", slow)
        began = time.monotonic()
        result = run("probs", EXAMPLES / "expert.txt", "--timeout", "0.2", "--json")
        assert time.monotonic() - began < 30  # the sleeping child was killed, not waited for
        data = one_json(result)
        assert result.exit_code == 3 and data["complete"] is False and "safe" in data

    @pytest.mark.parametrize("args", [["check"], ["solve"], ["unique"], ["count"], ["probs"], ["hint"],
                                      ["safe", "CELL"]], ids=lambda a: a[0])
    def test_timeout_counts_building_the_rules(self, args, monkeypatch):
        """--timeout covers building the board's rules, not only the query after it: a
        1000x1000 board whose 423,000 numbers take 9 s to turn into rules answered
        "no answer within 5 s" after 16 s.  Here building them takes 30 s: the answer is
        exit 3 within a few seconds, with what is known (nothing: no rule was built).
        (hint built them for nothing before its own work: it now answers, from the grid, or
        runs out of time, within the limit.)"""
        import satsweeper.constraints
        import satsweeper.hint  # noqa: F401 - imported first under the patch, it kept the slow rules for later tests

        def slow_rules(*args, **kwargs):
            time.sleep(30)
        monkeypatch.setattr(satsweeper.constraints, "problem_of", slow_rules)
        started = time.monotonic()
        cell = ["1,0"] if args[-1] == "CELL" else []
        result = run(args[0], EXAMPLES / "unique.txt", *cell, "--timeout", "1", "--json")
        assert time.monotonic() - started < 10
        data = one_json(result)
        if args[0] == "hint" and result.exit_code == 0:
            # 0,3 is next to the 0 at 0,4: safe whatever else holds
            assert data["sure"] is True and data["cell"] == {"row": 0, "col": 3} and data["move"] == "open"
            return
        assert result.exit_code == 3 and data["complete"] is False and data["timeout"] == 1
        if args[0] in ("solve", "count", "probs"):
            assert data["safe"] == data["mine"] == []
        if args[0] == "safe":  # the question's keys stay: "move" was left out
            assert data["cell"] == {"row": 1, "col": 0} and data["move"] == "open"
        # the keys the docs call always present are there, null: not known in time
        # (safe had no "safe", unique no "unique", none of them "consistent")
        assert data["consistent"] is None
        if args[0] in ("safe", "unique"):
            assert data[args[0]] is None

    def test_interrupt_is_130(self, monkeypatch):
        """Ctrl-C exits 130 with one line, no traceback."""
        import satsweeper.reasoning

        def interrupted(self):
            raise KeyboardInterrupt
        monkeypatch.setattr(satsweeper.reasoning.Reasoner, "consistency", interrupted)
        result = run("check", EXAMPLES / "unique.txt")
        assert result.exit_code == 130 and "Traceback" not in result.output

    def test_interrupt_while_the_command_loads_names_it(self, monkeypatch):
        """Ctrl-C while the command's module imports (the first tenth of a second): the
        answer names the command (it said "command": null)."""
        from satsweeper.cli.contract import Group

        def interrupted(self, args):
            raise KeyboardInterrupt
        monkeypatch.setattr(Group, "_named", interrupted)
        result = run("--timeout", "3", "optimal", "4x4x8", "--json")  # an option's value before it too
        assert result.exit_code == 130
        assert one_json(result) == {"command": "optimal", "version": 1, "complete": False, "stopped": "interrupted"}

    def test_interrupt_with_json_is_one_object(self, monkeypatch):
        """Ctrl-C with --json still prints exactly one object (it printed none): "complete":
        false, "stopped": "interrupted"; a command that answered on its own (bench's partial
        summary) gets no second one."""
        import satsweeper.experiments
        import satsweeper.reasoning

        def interrupted(*args, **kwargs):
            raise KeyboardInterrupt
        monkeypatch.setattr(satsweeper.reasoning.Reasoner, "consistency", interrupted)
        result = run("check", EXAMPLES / "unique.txt", "--json")
        assert result.exit_code == 130
        assert one_json(result) == {"command": "check", "version": 1, "complete": False, "stopped": "interrupted"}
        monkeypatch.setattr(satsweeper.experiments, "play_range", interrupted)
        result = run("bench", "--level", "4x4x2", "--games", "3", "--json")
        data = one_json(result)
        assert result.exit_code == 130 and data["complete"] is False and data["planned_games"] == 3
        assert data["stopped"] == "interrupted"  # as every stopped answer says why

    def test_an_interrupted_long_run_reports_what_finished(self, monkeypatch, tmp_path):
        """Ctrl-C in generate --count after two boards: the answer lists both (it printed
        only "complete": false, and the text's list of boards was lost); in density after
        two mine counts of 3x3: both in "levels" (it answered "sizes": [])."""
        import satsweeper.cli.puzzles
        import satsweeper.density
        real_write, written = satsweeper.cli.puzzles.write_output, []

        def write_two(path, text):
            if len(written) == 2:
                raise KeyboardInterrupt
            written.append(path)
            return real_write(path, text)
        monkeypatch.setattr(satsweeper.cli.puzzles, "write_output", write_two)
        for as_json in (True, False):
            written.clear()
            out = tmp_path / f"boards-{as_json}"
            result = run("generate", "5x5x3", "--count", "9", "--out-dir", out, *(["--json"] if as_json else []))
            assert result.exit_code == 130
            names = sorted(p.name for p in out.iterdir())
            assert names == ["board-1.txt", "board-2.txt"]
            if as_json:
                data = one_json(result)
                assert (data["complete"], data["stopped"]) == (False, "interrupted")
                assert [Path(b["file"]).name for b in data["boards"]] == names
            else:
                assert "board-2.txt" in result.stdout and "stopped after 2 of 9 board(s): interrupted" in result.stdout
        real_levels = satsweeper.density.run_levels

        def two_levels(*args, **kwargs):
            summaries = real_levels(*args, **kwargs)
            yield next(summaries)
            yield next(summaries)
            raise KeyboardInterrupt
        monkeypatch.setattr(satsweeper.density, "run_levels", two_levels)
        result = run("density", "--size", "3x3", "--games", "4", "--strategy", "exact", "--json")
        data = one_json(result)
        assert result.exit_code == 130 and (data["complete"], data["stopped"], data["sizes"]) == (False, "interrupted", [])
        assert [(level["level"], level["games"]) for level in data["levels"]] == [("3x3x1", 4), ("3x3x2", 4)]
        text = run("density", "--size", "3x3", "--games", "4", "--strategy", "exact")
        assert text.exit_code == 130
        assert "interrupted: 0 of 1 size(s) finished, and 2 mine count(s) of the size under way" in text.stderr
        assert "satsweeper: interrupted" not in text.stderr  # said once

    def test_a_bug_is_one_line_not_a_traceback(self, monkeypatch):
        """An unexpected exception: one line, exit 70."""
        import satsweeper.reasoning

        def broken(self):
            raise TypeError("boom")
        monkeypatch.setattr(satsweeper.reasoning.Reasoner, "consistency", broken)
        result = run("check", EXAMPLES / "unique.txt")
        assert result.exit_code == 70 and "internal error" in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1

    def test_inconsistent_is_an_answer(self):
        """An inconsistent board: exit 1, naming the conflicting clues."""
        result = run("check", EXAMPLES / "conflict.txt")
        assert result.exit_code == 1 and "cannot all hold" in result.output


_CONSOLE_SCRIPT = """
import re, sys

class Interrupted:
    \"\"\"One Ctrl-C, while {name} first imports.\"\"\"
    pressed = False
    def find_spec(self, fullname, path, target=None):
        if fullname == {name!r} and not self.pressed:
            self.pressed = True
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, Interrupted())
# What pip writes for the console script of pyproject.toml's entry point:
from {module} import {function}
if __name__ == "__main__":
    sys.argv[0] = re.sub(r"(-script\\.pyw|\\.exe)?$", "", sys.argv[0])
    sys.exit({function}())
"""


class TestInterruptedWhileImporting:
    @pytest.mark.parametrize("name", ["satsweeper.board", "click", "satsweeper.limits"],
                             ids=["the-package", "click", "the-command"])
    @pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
    def test_ctrl_c_while_importing(self, tmp_path, name, as_json):
        """Ctrl-C while satsweeper.board imports (it was imported with the package, before
        run() could catch anything; now by the command), while click imports (before the command group
        exists), or while the command's own module does (the group named the command before its handler):
        exit 130 and the group's one line, with --json the one object, no traceback."""
        import subprocess
        import sys
        import tomllib
        entry = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["satsweeper"]
        module, function = entry.split(":")
        script = tmp_path / "satsweeper"
        script.write_text(_CONSOLE_SCRIPT.format(name=name, module=module, function=function))
        process = subprocess.run([sys.executable, str(script), "check", str(EXAMPLES / "unique.txt"),
                                  *(["--json"] if as_json else [])],
                                 capture_output=True, text=True, timeout=60, cwd=ROOT,
                                 env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                                     filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))))
        assert process.returncode == 130, process.stderr
        assert process.stderr == "satsweeper: interrupted\n"
        if as_json:
            answer = json.loads(process.stdout)
            assert (answer["complete"], answer["stopped"]) == (False, "interrupted")
        else:
            assert process.stdout == ""

    def test_the_console_script_imports_nothing_before_run(self):
        """Importing what the console script names loads no module of the package
        but the package and satsweeper.__main__: a Ctrl-C can only come inside run()."""
        import subprocess
        import sys
        code = ("import sys; before = set(sys.modules); import satsweeper.__main__; "
                "print(sorted(m for m in set(sys.modules) - before if m.startswith('satsweeper')))")
        process = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                                 cwd=ROOT, env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                                     filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))))
        assert process.stdout.split() == ["['satsweeper',", "'satsweeper.__main__']"], process.stderr


def _strewn_board(path) -> None:
    """A board no count finishes (tests.test_limits.crowded: gigabytes within seconds)."""
    from .test_limits import crowded
    path.write_text(crowded(60)[0])


class TestKilled:
    @pytest.mark.parametrize("command", ["probs", "count"])
    def test_kill_is_answered_as_ctrl_c(self, tmp_path, command):
        """SIGTERM (kill, timeout, a batch system's stop) ended a query with nothing: exit 143, no
        JSON.  Now as Ctrl-C: exit 130 and the one object saying "interrupted"."""
        import signal
        import subprocess
        board = tmp_path / "b.txt"
        _strewn_board(board)
        process = subprocess.Popen(["satsweeper", command, str(board), "--json"], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        time.sleep(2)
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
        assert process.returncode == 130, err
        answer = json.loads(out)
        assert (answer["command"], answer["complete"], answer["stopped"]) == (command, False, "interrupted")


    @pytest.mark.parametrize("line, code", [
        ("satsweeper optimal 5x5x8 --json", 130),
        ("satsweeper optimal 5x5x8 --memo {dir}/m.memo --json", 130),  # its own answer said no why
        ("satsweeper bench --level expert --games 100000 --workers 1 --out {dir}/j.jsonl --json", 130),
    ])
    def test_cpu_time_limit_is_answered_as_ctrl_c(self, tmp_path, line, code):
        """Past a soft CPU time limit (ulimit -t, a batch system's) the kernel sends SIGXCPU, whose
        default ended the command with nothing: exit 152, no JSON, a journal's last games unsaid.
        Now as Ctrl-C, saying why: exit 130, the one object, the journal kept."""
        import subprocess
        done = subprocess.run(["bash", "-c", f"ulimit -St 3; exec {line.format(dir=tmp_path)}"],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == code, done.stderr
        answer = json.loads(done.stdout)
        assert (answer["complete"], answer["stopped"]) == (False, "interrupted")
        assert "satsweeper: interrupted: the CPU time limit (ulimit -t) was reached\n" in done.stderr
        if "bench" in line:  # every game it reports is in the journal
            from satsweeper.journal import read_journal
            assert answer["games"] > 0 and read_journal(tmp_path / "j.jsonl").games == answer["games"]


class TestLongNames:
    """A name longer than the system's 255 bytes: checking it raised ENAMETOOLONG (Path.exists
    does), an internal error (exit 70) for every board, output, journal and memo."""

    LONG = "a" * 300

    @pytest.mark.parametrize("args", [
        ["count", LONG], ["render", EXAMPLES / "unique.txt", "-o", LONG + ".svg"],
        ["bench", "--games", "2", "--out", LONG], ["bench", "--resume", LONG], ["gadget", "verify", LONG],
        ["optimal", "3x3x1", "--memo", LONG], ["generate", "9x9x10", "--count", "2", "--out-dir", LONG],
    ])
    def test_a_name_too_long_is_bad_input(self, args):
        result = run(*args, "--json")
        answer = one_json(result)
        assert result.exit_code == 2 and set(answer) == ERROR_KEYS
        assert answer["expected"] == "a file name of at most 255 bytes a part (of a path at most 4096)"
        assert answer["got"].endswith(", 300 bytes") or answer["got"].endswith(", 304 bytes")

    def test_a_long_name_the_system_allows_is_written(self, tmp_path):
        """A 244-byte name (the system's limit is 255): the atomic write's temporary name, the
        name and a suffix more, was refused once the work was done."""
        out = tmp_path / ("c" * 240 + ".svg")
        result = run("render", EXAMPLES / "unique.txt", "-o", out)
        assert result.exit_code == 0, result.output
        assert out.stat().st_size and [p.name for p in tmp_path.iterdir()] == [out.name]

    def test_a_long_formula_is_compiled(self, tmp_path):
        """compile takes a formula or a file: a 269-character formula was tried as a file name."""
        formula = "&".join(["(a|b)"] * 45)  # 3 of the 4 assignments of a, b satisfy it
        assert sum(a or b for a in (0, 1) for b in (0, 1)) == 3
        result = run("compile", formula, "-o", tmp_path / "c.txt", "--json")
        assert result.exit_code == 0, result.output
        answer = one_json(result)
        assert int(answer["models"]) == 3 and int(answer["explanations"]) == 3  # counts are strings


class TestStreamsAndFullDisks:
    """What the machine does to a command's streams and outputs: answered in the contract's
    words, never a traceback nor the "no" of exit 1."""

    @staticmethod
    def shell(line: str, **env) -> "subprocess.CompletedProcess":
        import subprocess
        return subprocess.run(["bash", "-c", line], capture_output=True, text=True, timeout=120,
                              env={**os.environ, **env})

    @pytest.mark.parametrize("as_json", ["", " --json"])
    def test_stdout_full(self, as_json):
        """> /dev/full: a traceback and exit 1 (the JSON error tried on stdout again)."""
        done = self.shell(f"satsweeper check {EXAMPLES / 'unique.txt'}{as_json} > /dev/full")
        assert done.returncode == 3 and "Traceback" not in done.stderr
        assert done.stderr == "satsweeper: could not write the answer to standard output: No space left on device\n"

    def test_closed_streams(self, tmp_path):
        """2>&- made every error exit 1 (its message failed); <&- and >&- were internal errors.
        Then >&- lost the answer with exit 0: now said, exit 3, as on a full standard output,
        and a file written is kept."""
        assert self.shell(f"satsweeper check {tmp_path / 'none.txt'} 2>&-").returncode == 2
        assert self.shell(f"satsweeper check {tmp_path / 'none.txt'} >&-").returncode == 2  # the worse exit stays
        done = self.shell("satsweeper check - <&-")
        assert done.returncode == 2 and "an empty board" in done.stderr
        lost = "satsweeper: could not write the answer to standard output: it is closed\n"
        done = self.shell(f"satsweeper generate 9x9x10 --seed 1 -o {tmp_path / 'g.txt'} >&-")
        assert (done.returncode, done.stderr) == (3, lost)
        assert (tmp_path / "g.txt").read_text().startswith("mines: 10\n")
        for as_json in ("", " --json"):
            done = self.shell(f"satsweeper probs {EXAMPLES / 'unique.txt'}{as_json} >&-")
            assert (done.returncode, done.stderr) == (3, lost)

    def test_a_path_the_output_encoding_lacks(self, tmp_path):
        """PYTHONIOENCODING=ascii: the file was written, then "wrote ..." was an internal error."""
        done = self.shell(f"satsweeper render {EXAMPLES / 'unique.txt'} -o {tmp_path / 'é.svg'}",
                          PYTHONIOENCODING="ascii")
        assert done.returncode == 0 and (tmp_path / "é.svg").stat().st_size and "\\xe9.svg" in done.stdout

    def test_an_output_on_a_full_disk(self, tmp_path, monkeypatch):
        """The disk full under -o: internal error, exit 70; now a limit (3), the old file kept."""
        import errno
        from pathlib import Path
        out = tmp_path / "g.txt"
        out.write_text("before\n")

        def full(self, *args, **kwargs):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr(Path, "write_text", full)
        result = run("generate", "9x9x10", "-o", out, "--json")
        assert result.exit_code == 3
        assert one_json(result)["error"] == f"could not write {out}: No space left on device (the file that was there is kept)"
        monkeypatch.undo()
        assert out.read_text() == "before\n" and [p.name for p in tmp_path.iterdir()] == ["g.txt"]

    def test_a_journal_on_a_full_disk(self, tmp_path, monkeypatch):
        """bench --out with the disk full mid-run: internal error, exit 70, and an empty .part
        left when it was full at once; now stopped (exit 3) with the games the journal holds."""
        import errno
        from satsweeper import journal
        real, calls = os.fsync, []

        def fsync(fd):
            calls.append(fd)
            if len(calls) > 2:  # the run line and the first chunk written
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            real(fd)

        monkeypatch.setattr(journal.os, "fsync", fsync)
        out = tmp_path / "run.jsonl"
        result = run("bench", "--level", "4x4x2", "--games", "300", "--strategy", "exact", "--out", out, "--json")
        assert result.exit_code == 3, result.output
        answer = one_json(result)
        assert answer["complete"] is False and answer["stopped"].startswith(f"could not write the journal {out}")
        monkeypatch.undo()
        # every game the answer counts is in the journal (the failed fsync's line may be too)
        assert journal.read_journal(out).games >= answer["games"] > 0
        empty = tmp_path / "empty"
        empty.mkdir()
        monkeypatch.setattr(journal.os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.ENOSPC, "full")))
        result = run("bench", "--level", "4x4x2", "--games", "3", "--out", empty / "b.jsonl", "--json")
        assert result.exit_code == 3 and list(empty.iterdir()) == []  # no .b.jsonl.part left

    def test_a_module_that_cannot_start(self, tmp_path, monkeypatch):
        """matplotlib with no writable cache directory was an internal error after the work."""
        from satsweeper.cli.contract import UserError
        from satsweeper.cli.experiments import require_experiments
        (tmp_path / "cacheless.py").write_text("raise OSError('Matplotlib requires access to a writable cache directory')\n")
        monkeypatch.syspath_prepend(str(tmp_path))
        with pytest.raises(UserError) as err:
            require_experiments("pictures", "cacheless")
        assert err.value.got == "OSError: 'Matplotlib requires access to a writable cache directory'"


class TestWhatIsKnownOutOfTime:
    @pytest.mark.parametrize("command", ["count", "solve"])
    def test_the_rules_get_their_two_seconds_even_in_c(self, monkeypatch, command):
        """Out of time, the single-number rules get KNOWN_SECONDS more, under a signal that C
        code (the compiled build's rules) never heard: count --timeout 5 on a 1000x1000 board
        took 18 s.  Here the rules are a loop in C (a sum over a range: 8 s here)."""
        import satsweeper.singlepoint
        from satsweeper.limits import KNOWN_SECONDS
        monkeypatch.setattr(satsweeper.singlepoint, "settled_moves", lambda problem: sum(range(6 * 10 ** 8)))
        start = time.monotonic()
        result = run(command, EXAMPLES / "expert.txt", "--timeout", "0.001", "--json")
        took = time.monotonic() - start
        answer = one_json(result)
        assert result.exit_code == 3 and answer["complete"] is False
        assert answer["safe"] == [] and answer["mine"] == []  # not worked out: nothing said
        assert took < KNOWN_SECONDS + 3, took  # the loop alone: 8 s


class TestLongTimeouts:
    TIMED = [c for c in COMMANDS if any(p.name == "timeout" for p in main.get_command(None, c[0].split()[0]).params)]

    def test_the_timed_commands(self):
        """Every command with --timeout is here (the list is made from the group, not typed)."""
        assert {c for c, _ in self.TIMED} >= {"check", "safe", "solve", "unique", "count", "probs", "hint",
                                             "generate", "compile", "optimal"}

    @pytest.mark.parametrize("command,args", TIMED, ids=[c for c, _ in TIMED])
    @pytest.mark.parametrize("seconds", ["inf", "1e10", "1e300"])
    def test_a_limit_that_never_comes(self, command, args, seconds):
        """--timeout inf, 1e10 or 1e300 (past the timers' 2**63 ns) was an internal error, exit 70,
        in check ... probs and generate: now no limit in practice, the same answer as without."""
        result = run(*command.split(), *args, "--timeout", seconds, "--json")
        plain = run(*command.split(), *args, "--json")
        assert result.exit_code == plain.exit_code in (0, 1), result.output
        drop = {"seconds", "cpu_seconds", "elapsed", "memory_mb", "peak_mb"}
        assert {k: v for k, v in one_json(result).items() if k not in drop} == \
            {k: v for k, v in one_json(plain).items() if k not in drop}


class TestInterruptedWhileWriting:
    @pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
    @pytest.mark.parametrize("command", ["probs", "solve"])
    def test_a_first_ctrl_c_lets_the_answer_end(self, tmp_path, command, signame):
        """Ctrl-C while a big answer was being written cut its JSON at '"p": 0.' (exit 130, no
        object): the work is done, so the first Ctrl-C waits for the object's end; a second one
        stops at once.  The reader stops reading part way (the pipe full, the writer waiting),
        presses, and reads the rest: the whole object, the same as uninterrupted.  kill (SIGTERM)
        is answered as Ctrl-C, and held as it is: it cut the object at 64 KB, the pipe's size."""
        import signal
        import subprocess
        sig = getattr(signal, signame)
        board = tmp_path / "b.txt"
        board.write_text("mines: 18000\n" + "\n".join(["." * 300] * 300) + "\n")
        args = ["satsweeper", command, str(board), "--json"]
        whole = subprocess.run(args, capture_output=True, timeout=120).stdout
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        first = process.stdout.read(100_000)  # the pipe then fills while nothing is read
        time.sleep(0.3)
        process.send_signal(sig)
        rest = process.stdout.read()
        assert process.wait(timeout=60) == 0
        assert first + rest == whole and json.loads(whole)["command"] == command
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        process.stdout.read(100_000)
        time.sleep(0.3)
        process.send_signal(sig)
        time.sleep(0.3)
        process.send_signal(sig)
        process.stdout.close()
        assert process.wait(timeout=60) in (130, 141)


class TestCtrlCInTheSolver:
    @pytest.mark.parametrize("command", [["check"], ["safe", "1,1"]], ids=["check", "safe"])
    def test_ctrl_c_inside_the_sat_solver_is_interrupted(self, tmp_path, command):
        """Ctrl-C while python-sat's solver runs (its C code raises its own 'Caught keyboard
        interrupt'): the interrupted object, exit 130; it was "internal error, please report
        it", exit 70.  The board: a 300x300 lattice whose total binds its one component, whose
        proof takes the solver about 20 s, so that the signal, 8 s in, lands inside it."""
        import signal
        import subprocess
        from .test_limits import crowded
        text, mines = crowded(300)
        board = tmp_path / "lattice.txt"
        board.write_text(f"mines: {len(mines)}\n{text}")
        args = ["satsweeper", command[0], str(board), *command[1:], "--json"]
        # Ctrl-C as a terminal delivers it, whatever this suite inherited (ignored in the background)
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        time.sleep(8)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        assert process.returncode == 130, (out, err)
        assert json.loads(out) == {"command": command[0], "version": 1, "complete": False, "stopped": "interrupted"}


    @pytest.mark.parametrize("module", ["pysolvers", "pycard"])
    def test_python_sats_word_for_ctrl_c_anywhere(self, monkeypatch, module):
        """python-sat's encoders (pycard, building a totalizer or gadget repair's rules) raise
        their own 'Caught keyboard interrupt' too, outside the solver calls: the command line
        answers it as Ctrl-C wherever it comes from (it was exit 70)."""
        import satsweeper.reasoning
        error = type("error", (Exception,), {"__module__": module})

        def pressed(self):
            raise error("Caught keyboard interrupt")
        monkeypatch.setattr(satsweeper.reasoning.Reasoner, "consistency", pressed)
        result = run("check", str(Path(__file__).parents[1] / "examples" / "beginner.txt"), "--json")
        assert result.exit_code == 130, result.output
        assert one_json(result) == {"command": "check", "version": 1, "complete": False, "stopped": "interrupted"}
        monkeypatch.setattr(satsweeper.reasoning.Reasoner, "consistency",
                            lambda self: (_ for _ in ()).throw(error("another failure")))
        assert run("check", str(Path(__file__).parents[1] / "examples" / "beginner.txt")).exit_code == 70


class TestClosedOutput:
    # solve --json of a 300x300 board is 4.6 MB; its text, drawn, of 200x200 about 160 KB: both
    # more than a pipe holds (64 KB), so the reader's going is met part way through.
    CASES = [("json", 300, ["--json"], b'{"command"'), ("text", 200, [], b"       0  ")]

    @pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "PYTHONUNBUFFERED"])
    @pytest.mark.parametrize("name, size, extra, start", CASES, ids=[c[0] for c in CASES])
    def test_output_closed_early_is_141_not_no(self, tmp_path, name, size, extra, start, unbuffered):
        """solve into a pipe whose reader has gone (| head): exit 141 and nothing on stderr, as a
        filter stopped by SIGPIPE.  It was click's exit 1, which here means "no" (an inconsistent
        board); and with PYTHONUNBUFFERED=1 (stdout writing straight to the pipe) the text's one
        write came back short, the rest lost, and the exit said 0."""
        import subprocess
        import sys
        board = tmp_path / "big.txt"
        board.write_text(f"mines: {size * size // 9}\n" + ("." * size + "\n") * size)
        env = dict(os.environ, PYTHONUNBUFFERED=unbuffered)
        command = [sys.executable, "-m", "satsweeper", "solve", str(board), *extra]
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        assert child.stdout.read(10) == start
        child.stdout.close()  # the reader goes: the child's next writes fail
        err = child.stderr.read()
        assert child.wait(timeout=120) == 141 and err == b""
        whole = subprocess.run(command, capture_output=True, timeout=120, env=env)
        assert whole.returncode == 0 and len(whole.stdout) > 1 << 17  # more than a pipe holds


class TestBigCounts:
    def test_count_of_thousands_of_digits_prints_in_full(self, tmp_path):
        """A 1x20000 all-hidden board: C(20000, 10000) in full (math.comb is the oracle)."""
        board = tmp_path / "long.txt"
        board.write_text("mines: 10000\n" + "." * 20000 + "\n")
        result = run("count", board, "--json")
        expected = math.comb(20000, 10000)
        digits = one_json(result)["count"]
        import gmpy2  # str(expected) would stop at 4,300 digits
        assert len(digits) > 4300 and digits == gmpy2.mpz(expected).digits(10)


def all_commands():
    """(name, command) for every command and subcommand."""
    import click
    out = []
    for name, command in main.commands.items():
        if isinstance(command, click.Group):
            out += [(f"{name} {sub}", c) for sub, c in command.commands.items()]
        else:
            out.append((name, command))
    return out


class TestUsageErrors:
    """Mistakes on the command line say "expected X (got Y)" like every other bad
    input, with --json's "expected" and "got" filled (they were click's own words,
    "Missing argument 'CELL'.", with both null)."""

    @pytest.mark.parametrize("args, expected, got", [
        (["safe", EXAMPLES / "unique.txt"], "the argument CELL", "none"),
        (["render", EXAMPLES / "unique.txt"], "the option '-o' / '--output'", "none"),
        (["bench", "--games", "0"], "'--games' in the range x>=1", "0"),
        (["check", EXAMPLES / "unique.txt", "--timeout", "0"], "'--timeout' in the range x>0", "0.0"),
        # nan passed FloatRange (every comparison with it is false) and then limited nothing
        (["optimal", "5x4x6", "--timeout", "nan"], "'--timeout' in the range x>0", "nan"),
        (["compile", "a | b", "--max-memory", "nan"], "'--max-memory' in the range x>0", "nan"),
        (["hint", EXAMPLES / "unique.txt", "--strategy", "nope"],
         "'--strategy' one of " + ", ".join(map(repr, NAMES)), "'nope'"),
        (["check", EXAMPLES / "unique.txt", "--jsno"], "an option of satsweeper check (see --help)",
         "'--jsno'; did you mean --json?"),
        (["--foo"], "--help or --version (the other options follow a command)", "'--foo'"),  # was "satsweeper None"
        # An option of the command written before it: said so (it said "did you mean --version?")
        (["--timeout", "3", "probs", EXAMPLES / "unique.txt"],
         "options after the command: satsweeper probs ... --timeout", "'--timeout' before 'probs'"),
        (["--inputs", "u=1", "gadget", "draw", "wire"],
         "options after the command: satsweeper gadget draw ... --inputs", "'--inputs' before 'gadget draw'"),
        (["--seed", "3"], "a command before its options: satsweeper COMMAND ... --seed", "'--seed' before any command"),
        (["--jsno", "check", EXAMPLES / "unique.txt"],
         "--help or --version (the other options follow a command)", "'--jsno'"),
        (["gadget", "nope"], "a command of satsweeper gadget: list, verify, draw, write", "'nope'"),
        (["bench", "--seed"], "a value after '--seed'", "none"),
        # click's "'abc' is not a valid float range" named its type, not what to type
        (["check", EXAMPLES / "unique.txt", "--timeout", "abc"], "'--timeout': a number", "'abc'"),
        (["bench", "--games", "x"], "'--games': a whole number", "'x'"),
        # a negative cell read as an option: it said "expected an option of satsweeper safe"
        (["safe", EXAMPLES / "unique.txt", "-1,0"], "a cell as ROW,COL, counted from 0 at the top-left",
         "'-1', a negative number, read as an option"),
        (["check", EXAMPLES / "unique.txt", "extra"], "the arguments of: satsweeper check [OPTIONS] BOARD",
         "unexpected extra argument (extra)"),
    ])
    def test_expected_and_got(self, args, expected, got):
        # --json last, but not where it would be --seed's value
        data = one_json(run(*args[:-1], "--json", args[-1]) if args[-1] == "--seed" else run(*args, "--json"))
        assert (data["expected"], data["got"]) == (expected, got)
        assert data["error"] == f"expected {expected} (got {got})"
        text = run(*args)
        assert text.exit_code == 2 and f"satsweeper: expected {expected} (got {got})" in text.stderr


class TestHelp:
    def test_every_strategy_option_offers_every_strategy(self):
        """--strategy (bench, density, hint, optimal) offers exactly satsweeper.strategies.NAMES:
        the CLI wrote its own copies of the list, and a strategy added to the library would have
        been refused by the commands."""
        import click

        from satsweeper.strategies import NAMES
        offered = {name: tuple(p.type.choices) for name, command in all_commands() for p in command.params
                   if isinstance(p, click.Option) and "--strategy" in p.opts}
        assert {"bench", "density", "hint", "optimal"} <= offered.keys()
        assert offered == {name: NAMES for name in offered}

    def test_every_option_has_help(self):
        """No option is left unexplained."""
        import click
        missing = [f"{name} {p.opts[0]}" for name, command in all_commands() for p in command.params
                   if isinstance(p, click.Option) and not p.help]
        assert missing == []

    def test_every_command_ends_with_examples(self):
        """Each command's help ends with one or two examples."""
        for name, command in all_commands():
            text = command.help or ""
            assert "Examples:" in text and "satsweeper" in text.split("Examples:")[-1], name

    def test_placeholders_in_option_help_are_shown(self):
        """A capitalised placeholder in an option's help (CELL, ROW,COL, NAME) is one
        the usage line or the option's own metavar shows: render --reason said
        "decide CELL" beside ROW,COL, bench --first "ROW,COL" beside TEXT, density
        --plot "NAME-WxH.png" with no NAME anywhere."""
        import re

        import click
        words = {"SAT", "JSON", "README", "AND"}  # words of the field, not placeholders
        wrong = []
        for name, command in all_commands():
            ctx = click.Context(command, info_name=name)
            shown = set()
            for p in command.params:
                shown |= set(re.findall(r"[A-Z]{3,}", p.make_metavar(ctx) or ""))
            for p in command.params:
                if isinstance(p, click.Option) and p.help:
                    wrong += [f"{name} {p.opts[0]}: {w}" for w in set(re.findall(r"\b[A-Z]{3,}\b", p.help)) - shown - words]
        assert wrong == []

    def test_repair_output_is_for_boards_too(self):
        """repair -o writes a repaired board as well as a gadget (its help said only "gadget")."""
        text = " ".join(run("repair", "--help").output.split())
        assert "Write the repaired board or gadget here" in text

    def test_the_help_lists_every_exit_code_of_the_contract(self):
        """satsweeper --help names each exit code docs/json.md's table defines (70 was missing)."""
        import re
        table = (ROOT / "docs" / "json.md").read_text().split("## Exit codes")[1].split("##")[0]
        codes = re.findall(r"^\| (\d+) \|", table, re.M)
        shown = " ".join(run("--help").output.split())
        assert len(codes) >= 6 and all(re.search(rf"\b{c} [a-z]", shown) for c in codes), codes

    @pytest.mark.parametrize("words", [[], ["gadget"]], ids=["satsweeper", "gadget"])
    def test_no_command_shows_the_help_once(self, words):
        """'satsweeper' alone shows its help (the same text as --help), once, with no
        "satsweeper:" error prefix; exit 2 (it printed the usage twice)."""
        result, wanted = run(*words), run(*words, "--help")
        assert result.exit_code == 2 and wanted.exit_code == 0
        assert result.stderr.strip() == wanted.stdout.strip()

    def test_no_reference_to_documents_we_do_not_ship(self):
        """Help cites papers by author and title, never a 'seed' document."""
        import re
        for name, command in all_commands():
            help_text = run(*name.split(), "--help").output
            assert not re.search(r"seed 0\d\d", help_text), name


class TestProgress:
    def test_one_plain_line_when_not_a_terminal(self, monkeypatch, capsys):
        """Off a terminal a run of a second or more ends with one line on stderr; a short one says nothing."""
        from satsweeper.cli import contract
        clock = iter([0.0, 2.5, 10.0, 10.2])
        monkeypatch.setattr(contract.time, "perf_counter", lambda: next(clock))
        with contract.progress("games", 3) as advance:
            advance(3)
        assert capsys.readouterr().err == "games: 3 of 3 in 2.5 s\n"
        with contract.progress("games", 3) as advance:
            advance(1)
        assert capsys.readouterr().err == ""

    def test_the_line_names_its_unit(self, monkeypatch, capsys):
        """"60000 of 60000" after --games 100 (density counts squares) needs its unit."""
        from satsweeper.cli import contract
        clock = iter([0.0, 2.0])
        monkeypatch.setattr(contract.time, "perf_counter", lambda: next(clock))
        with contract.progress("density 5x5", 60000, "squares played") as advance:
            advance(60000)
        assert capsys.readouterr().err == "density 5x5: 60000 of 60000 squares played in 2.0 s\n"

    def test_an_error_before_any_work_has_no_progress_line(self, monkeypatch, capsys):
        """A Dask scheduler that is not there: its error alone, not "0 of 20 games in 5.3 s" first;
        an interrupted run keeps its line (what it finished), as does an error after some work."""
        from satsweeper.cli import contract
        clock = iter([0.0, 5.3, 0.0, 5.3, 0.0, 5.3])
        monkeypatch.setattr(contract.time, "perf_counter", lambda: next(clock))
        with pytest.raises(OSError), contract.progress("exact on 9x9x10", 20, "games"):
            raise OSError("no scheduler")
        assert capsys.readouterr().err == ""
        with pytest.raises(KeyboardInterrupt), contract.progress("exact on 9x9x10", 20, "games"):
            raise KeyboardInterrupt
        assert capsys.readouterr().err == "exact on 9x9x10: 0 of 20 games in 5.3 s\n"
        with pytest.raises(OSError), contract.progress("exact on 9x9x10", 20, "games") as advance:
            advance(7)
            raise OSError("worker lost")
        assert capsys.readouterr().err == "exact on 9x9x10: 7 of 20 games in 5.3 s\n"


    def test_a_resumed_run_says_its_line_counts_the_rest(self, tmp_path, monkeypatch):
        """After --resume the line said "4500 of 4500 games" of a 6000-game run: it counts
        the games played now, after the journal's."""
        import itertools
        import re
        from satsweeper.cli import contract
        journal = tmp_path / "run.jsonl"
        assert run("bench", "--level", "9x9x10", "--games", "3", "--out", journal).exit_code == 0
        ticks = itertools.count()  # a clock that runs a second a look: the line is always written
        monkeypatch.setattr(contract.time, "perf_counter", lambda: float(next(ticks)))
        result = run("bench", "--resume", journal, "--games", "40")
        assert result.exit_code == 0
        assert re.search(r"^exact on 9x9x10 after the journal's 3: 37 of 37 games in ", result.stderr, re.M), \
            result.stderr

    def test_a_stopped_computation_is_not_called_done(self, monkeypatch, capsys):
        """working() says "done" only when the work finished; a timeout says "stopped"."""
        from satsweeper.cli import contract
        clock = iter([0.0, 3.0, 10.0, 12.0])
        monkeypatch.setattr(contract.time, "perf_counter", lambda: next(clock))
        with contract.working("counting"):
            pass
        assert capsys.readouterr().err == "counting: done in 3.0 s\n"
        from satsweeper.limits import TimeUp
        with pytest.raises(TimeUp), contract.working("counting"):
            raise TimeUp()
        assert capsys.readouterr().err == "counting: stopped after 2.0 s\n"


class TestCompileModels:
    def test_models_are_the_true_rows(self):
        """--models lists exactly the assignments under which the formula is true."""
        from itertools import product

        from satsweeper.gadgets.formula import parse_formula
        formula = parse_formula("(a | ~b) & (b ^ c)")
        want = [dict(zip(formula.variables, bits)) for bits in product((0, 1), repeat=3)
                if formula.value(dict(zip(formula.variables, map(bool, bits))))]
        data = one_json(run("compile", "(a | ~b) & (b ^ c)", "--models", "--no-count", "--json"))
        assert sorted(map(sorted, (m.items() for m in data["model_list"]))) == \
            sorted(map(sorted, (m.items() for m in want)))
        assert "models (3): a b c" in run("compile", "(a | ~b) & (b ^ c)", "--models", "--no-count").output
