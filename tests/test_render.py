"""Pictures of boards through the CLI."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from satsweeper.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


class TestRender:
    def test_svg_with_names(self, tmp_path):
        """An SVG is written; named cells show their names."""
        board = tmp_path / "g.txt"
        board.write_text("layout: tokens\nx' 1 -\n1 1 -\n")
        out = tmp_path / "g.svg"
        assert run("render", board, "-o", out).exit_code == 0
        text = out.read_text()
        assert text.lstrip().startswith("<?xml") and "<svg" in text

    def test_png_heat_map(self, tmp_path):
        """--probs shades the expert example; the file is a PNG."""
        out = tmp_path / "e.png"
        assert run("render", EXAMPLES / "expert.txt", "-o", out, "--probs").exit_code == 0
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    def test_bad_extension_and_inconsistent_probs(self, tmp_path):
        assert run("render", EXAMPLES / "expert.txt", "-o", tmp_path / "e.jpg").exit_code == 2
        result = run("render", EXAMPLES / "conflict.txt", "-o", tmp_path / "c.png", "--probs")
        assert result.exit_code == 1 and "cannot all hold" in result.output  # an answer, drawn


    def test_inconsistent_reason_is_an_answer(self, tmp_path):
        """--reason on an inconsistent board names the same conflict as check, exit 1
        (it drew "inconsistent" and exited 0 with "consistent": true)."""
        import json
        check = json.loads(run("check", EXAMPLES / "conflict.txt", "--json").stdout)
        result = run("render", EXAMPLES / "conflict.txt", "-o", tmp_path / "c.svg", "--reason", "0,0", "--json")
        data = json.loads(result.stdout)
        assert result.exit_code == 1 and data["consistent"] is False and data["conflict"] == check["conflict"]
        text = run("render", EXAMPLES / "conflict.txt", "-o", tmp_path / "c.svg", "--reason", "0,0")
        assert text.exit_code == 1 and "cannot all hold" in text.output

    def test_a_plain_drawing_claims_nothing(self, tmp_path):
        """Without --probs or --reason nothing is asked: "consistent" is null, not true."""
        import json
        result = run("render", EXAMPLES / "conflict.txt", "-o", tmp_path / "c.svg", "--json")
        assert result.exit_code == 0 and json.loads(result.stdout)["consistent"] is None


class TestPictures:
    def test_svg_is_deterministic_text(self, tmp_path):
        """The same board gives the same SVG bytes; numbers stay <text>; no date; no letter F for flags."""
        first, second = tmp_path / "a.svg", tmp_path / "b.svg"
        for out in (first, second):
            assert run("render", EXAMPLES / "expert.txt", "-o", out, "--probs").exit_code == 0
        text = first.read_text()
        assert first.read_bytes() == second.read_bytes()
        assert "<text" in text and ">19%<" in text and "<dc:date>" not in text
        assert ">F<" not in text

    def test_reason_outlines_the_forcing_clues(self, tmp_path):
        """--reason names the clues that force the move (the same as safe's reason)."""
        import json
        out = tmp_path / "r.svg"
        data = json.loads(run("render", EXAMPLES / "unique.txt", "-o", out, "--reason", "1,0", "--json").stdout)
        safe = json.loads(run("safe", EXAMPLES / "unique.txt", "1,0", "--json").stdout)
        assert data["reason"]["status"] == "safe"
        assert [(c["row"], c["col"]) for c in data["reason"]["reason"]] == \
            [(c["row"], c["col"]) for c in safe["reason"] if c["kind"] == "clue"]

    def test_big_board_is_an_overview(self, tmp_path):
        """A board too big for squares is drawn one pixel per square, with a note saying so."""
        board = tmp_path / "big.txt"
        board.write_text("\n".join(["1" * 200] * 3 + ["." * 200]) + "\n")
        out = tmp_path / "big.svg"
        assert run("render", board, "-o", out).exit_code == 0
        assert "one pixel per square" in out.read_text()
