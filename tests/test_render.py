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
