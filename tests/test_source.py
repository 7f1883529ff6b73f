"""read_any / load (format by content), and hostile input found by scripts/fuzz.py."""

import os
import random
import re
import subprocess
import sys

import pytest

from satsweeper import BoardSyntaxError, load, read_any, textio
from satsweeper.gadgets.formula import parse_formula
from satsweeper.gadgets.gadget import parse_gadget
from satsweeper.gadgets.repair import repair


def located(call, *args):
    """The error ``call`` raises, checked to carry a location."""
    with pytest.raises(BoardSyntaxError) as info:
        call(*args)
    err = info.value
    assert err.line >= 1 and err.column >= 1 and err.expected
    return err


class TestReadAny:
    def test_format_by_content(self, tmp_path):
        """A WxHxM first line is .mine whatever the name; '=' a system; else native."""
        path = tmp_path / "noext"
        path.write_text("3x1x1\n1H0\n")
        assert load(path).board.total_mines == 1
        assert type(read_any("x + y = 1\nmines: 1\n")).__name__ == "System"
        assert read_any("mines: 1\n1.\n").board.total_mines == 1
        assert read_any("\ufeff2x1x1\n1H\n").board.width == 2

    def test_extension_breaks_ties(self):
        """A .mine name whose first line is not a header gets the .mine header error."""
        err = located(read_any, "1H0\n", "b.mine", ".mine")
        assert "WIDTHxHEIGHTxMINES" in err.expected
        assert read_any("1.0\n", "b.txt", ".txt").board.width == 3

    def test_unreadable(self, tmp_path):
        """A directory, a missing file and non-UTF-8 bytes are located errors."""
        assert "directory" in located(load, tmp_path).found
        located(load, tmp_path / "missing.txt")
        (tmp_path / "b.txt").write_bytes(b"mines: 1\n.\xff.\n")
        assert (located(load, tmp_path / "b.txt").line, located(load, tmp_path / "b.txt").column) == (2, 2)

    def test_stdin(self, monkeypatch):
        """'-' reads standard input, recognised by content too."""
        import io
        import sys
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"2x1x1\n1H\n")))
        assert load("-").board.total_mines == 1


class TestReadText:
    """read_text reads a chunk at a time and stops at the first byte that is not text."""

    @staticmethod
    def where(data: bytes) -> tuple[int, int] | None:
        """The oracle: line and column of the first NUL or undecodable byte of the whole
        bytes, found with a plain decode (None: all text)."""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            at = err.start
        else:
            if "\0" not in text:
                return None
            at = len(text[:text.index("\0")].encode())
        return data.count(b"\n", 0, at) + 1, at - (data.rfind(b"\n", 0, at) + 1) + 1

    def test_chunk_boundaries(self, tmp_path, monkeypatch):
        """Multi-byte characters across chunks read back whole; a bad byte or a NUL in any
        chunk is placed where a decode of the whole file places it."""
        monkeypatch.setattr(textio, "_CHUNK", 7)
        rng = random.Random(3)
        pieces = ["1.", "\n", "é", "€", "𝔐", " ", "mines: 3"]
        path = tmp_path / "b.txt"
        for _ in range(300):
            data = "".join(rng.choice(pieces) for _ in range(rng.randrange(30))).encode()
            if rng.random() < 0.5:  # damage one byte
                at = rng.randrange(len(data) + 1)
                data = data[:at] + rng.choice([b"\x00", b"\xff", b"\xe2\x82", b"\x80"]) + data[at:]
            path.write_bytes(data)
            expected = self.where(data)
            if expected is None:
                assert textio.read_text(path) == (str(path), data.decode())
            else:
                err = located(textio.read_text, path)
                assert (err.line, err.column) == expected, data

    def test_a_pipe(self, tmp_path):
        """A FIFO (what <(...) gives) is read like a file."""
        fifo = tmp_path / "pipe"
        os.mkfifo(fifo)
        writer = subprocess.Popen(["sh", "-c", f"printf 'mines: 1\\n1..\\n' > {fifo}"])
        assert load(fifo).board.total_mines == 1
        writer.wait(timeout=10)

    @pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
    @pytest.mark.parametrize("args", [["check"], ["bench", "--resume"], ["density", "--resume"]],
                             ids=["check", "bench", "density"])
    def test_endless_devices_are_refused_at_once(self, device, args):
        """An endless device given by mistake: exit 2 at once (it was read whole, until the
        memory ran out: here a 1 GB limit and 60 s stand in for the machine's)."""
        import resource

        def limited():
            resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        done = subprocess.run([sys.executable, "-m", "satsweeper", *args, device], capture_output=True,
                              text=True, timeout=60, preexec_fn=limited)
        assert done.returncode == 2, done.stderr
        # /dev/urandom may give a newline before its first byte that is not UTF-8 (about 1 run
        # in 200 failed on ':1:'), so the line is any number: the refusal names file and place.
        assert re.search(rf"{device}:\d+:\d+: expected UTF-8 text", done.stderr), done.stderr


    def test_a_journal_to_go_on_writing_is_a_regular_file(self, tmp_path):
        """bench --resume of a pipe: exit 2 (it was read, then opened again to be read as a
        journal, and waited for a writer forever)."""
        journal = tmp_path / "run.jsonl"
        done = subprocess.run([sys.executable, "-m", "satsweeper", "bench", "--level", "3x3x1", "--games", "2",
                               "--out", str(journal)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        fifo = tmp_path / "pipe"
        os.mkfifo(fifo)
        writer = subprocess.Popen(["sh", "-c", f"cat {journal} > {fifo}"])
        done = subprocess.run([sys.executable, "-m", "satsweeper", "bench", "--resume", str(fifo)],
                              capture_output=True, text=True, timeout=60)
        writer.wait(timeout=10)
        assert done.returncode == 2 and "not a regular file" in done.stderr, done.stderr


class TestFormulaNumbers:
    def test_huge_number_is_located(self):
        """A 5000-digit number is refused where it is, not int()'s ValueError (pyeda's lexer)."""
        err = located(parse_formula, "a |\n b | " + "9" * 5000)
        assert (err.line, err.column) == (2, 6) and "9 digits" in err.expected


class TestFormulaColumns:
    @pytest.mark.parametrize("text, token", [("a b", "b"), ("&a", "&"), ("a & & b", "& b"),
                                             ("ab | (c d)", "d"), ("a|1x", "x"), ("  a & $", "$"),
                                             ("a\n& & b", "& b")])
    def test_the_column_is_the_tokens(self, text, token):
        """The column named is where the token pyeda refused begins (it was one to the right:
        pyeda counts its offsets from 1, and 1 was added again)."""
        err = located(parse_formula, text)
        at = text.rindex(token)
        line = text.count("\n", 0, at) + 1
        assert (err.line, err.column) == (line, at - (text.rfind("\n", 0, at) + 1) + 1)
        assert err.found == repr(token[0])

    def test_the_end_is_after_the_last_character(self):
        assert (located(parse_formula, "(a").line, located(parse_formula, "(a").column) == (1, 3)


class TestRepairOfHostileNumbers:
    def test_number_no_neighbour_can_make(self):
        """A printed number with no hidden neighbour that the flags cannot make is a
        repair answer, not pysat's 'Wrong bound' (found by scripts/fuzz.py)."""
        gadget = parse_gadget("gadget: not\ninputs: x\noutputs: y = ~x\nlayout: tokens\n"
                              "x 1 y\n1 1 1\n2 1 1\n", "g.txt")
        assert repair(gadget, attempts=5) is not None
