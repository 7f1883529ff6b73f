"""The compact memo against a plain dict, and the optimal search with it against the search with dicts."""

from __future__ import annotations

import io
import random
import struct

import pytest

from satsweeper.errors import SatsweeperError
from satsweeper.game import FirstClick, Level
from satsweeper.memo import LOAD, Memo
from satsweeper.optimal import Search


def same_as_dict(memo: Memo, truth: dict, absent) -> None:
    """Every key of ``truth`` has its value in ``memo``, the ``absent`` keys none, and the counts agree."""
    assert len(memo) == len(truth)
    for key, value in truth.items():
        assert memo.get(key) == value, key
    for key in absent:
        if key not in truth:
            assert memo.get(key) is None and memo.get(key, -7) == -7, key


class TestAgainstDict:
    def test_random_operations(self):
        """Random keys of several lengths, set, overwritten and looked up: the memo's answers are the dict's."""
        rng = random.Random(3)
        memo, truth = Memo(value_bytes=4), {}
        pool = [rng.randbytes(rng.choice((1, 3, 11, 16))) for _ in range(6000)]
        for step in range(30000):
            key = rng.choice(pool)
            if rng.random() < 0.6:
                value = rng.randint(-2 ** 31, 2 ** 31 - 1)
                memo[key] = value
                truth[key] = value
            else:
                assert memo.get(key) == truth.get(key), (step, key)
        same_as_dict(memo, truth, pool)
        assert len({len(key) for key in truth}) == 4

    def test_growth(self):
        """Many more keys than one bucket holds: every split keeps every key (and loses no value)."""
        rng = random.Random(4)
        memo, truth = Memo(value_bytes=2), {}
        for i in range(40 * LOAD * 64):
            key = rng.getrandbits(84).to_bytes(11, "little")
            memo[key] = truth[key] = i % 30000 - 15000
        same_as_dict(memo, truth, [rng.randbytes(11) for _ in range(2000)])
        buckets = memo.tables[11][0]
        assert len(buckets) > 1000 and sum(len(b) for b in buckets) == len(truth) * 13 == memo.nbytes()

    def test_keys_in_one_bucket(self):
        """Keys whose hashes agree in their low 10 bits (one bucket until the table has 1024), three
        buckets' worth: all kept apart."""
        rng = random.Random(5)
        same = []
        while len(same) < 3 * LOAD:
            key = rng.randbytes(5)
            if hash(key) & 1023 == 0:
                same.append(key)
        memo, truth = Memo(value_bytes=1), {}
        for i, key in enumerate(same):
            memo[key] = truth[key] = i
        same_as_dict(memo, truth, [rng.randbytes(5) for _ in range(500)])

    def test_key_across_two_entries(self):
        """A key whose bytes occur straddling two stored entries (or a key and its value) is not found there."""
        memo = Memo(value_bytes=1)
        memo[b"\x01\x02"] = 3  # the bucket reads 01 02 03
        memo[b"\x04\x05"] = 6  # 01 02 03 04 05 06
        for straddling in (b"\x02\x03", b"\x03\x04", b"\x05\x06"):
            assert memo.get(straddling) is None
        memo[b"\x03\x04"] = 9  # stored as its own entry, not written over the bytes it matched
        assert (memo.get(b"\x01\x02"), memo.get(b"\x04\x05"), memo.get(b"\x03\x04"), len(memo)) == (3, 6, 9, 3)
        memo[b"\x02\x03"] = 1
        assert [memo.get(k) for k in (b"\x01\x02", b"\x04\x05", b"\x03\x04", b"\x02\x03")] == [3, 6, 9, 1]

    def test_bounds_as_complements(self):
        """The search stores a bound b as ~b (negative): it comes back exact, at the ends of the range too."""
        memo = Memo(value_bytes=4)
        for i, value in enumerate([~0, ~1, ~3_300_000, 0, 3_300_000, -2 ** 31, 2 ** 31 - 1]):
            memo[bytes([i + 1]) * 11] = value
            assert memo.get(bytes([i + 1]) * 11) == value
        memo[b"\x01" * 11] = 5  # a bound replaced by the exact value
        assert memo.get(b"\x01" * 11) == 5 and len(memo) == 7

    def test_value_out_of_range(self):
        """A value that does not fit is refused, and the memo is left as it was."""
        memo = Memo(value_bytes=1)
        memo[b"k"] = 127
        with pytest.raises(struct.error):
            memo[b"k"] = 128
        with pytest.raises(struct.error):
            memo[b"new"] = -129
        assert memo.get(b"k") == 127 and memo.get(b"new") is None and len(memo) == 1

    def test_clear(self):
        memo = Memo()
        memo[b"ab"] = 1
        memo.clear()
        assert len(memo) == 0 and memo.get(b"ab") is None and memo.nbytes() == 0


class TestSearchWithDicts:
    @pytest.mark.parametrize("level", [Level(4, 4, 4), Level(5, 4, 4), Level(4, 3, 4), Level(6, 2, 4),
                                       Level(5, 3, 6)], ids=str)
    def test_same_values_and_states(self, level):
        """The search with compact memos gives every first click's exact value, and remembers as many
        states, as the same search with plain dicts (both memos take any bytes keys)."""
        compact, plain = Search(level), Search(level)
        plain.memo, plain.small_memo = {}, {}
        for rule in FirstClick:
            assert compact.optimum(rule, every=True).by_first == plain.optimum(rule, every=True).by_first
            assert (len(compact.memo), len(compact.small_memo)) == (len(plain.memo), len(plain.small_memo))
        # Both compact memos used (4x3x4 and 6x2x4 remember 80-82 views: free cells are settled, not kept)
        assert isinstance(compact.memo, Memo) and len(compact.memo) > 50 and len(compact.small_memo) > 100

    def test_three_byte_layout_ids(self):
        """A board of more than 65,536 layouts packs a layout's index in 3 bytes: still one key per set."""
        search = Search(Level(5, 4, 7))  # 77,520 layouts
        assert search.id_bytes == 3
        ids = (1, 70000, 77519)
        key = search._small_key(ids)
        assert len(key) == 9 and search._small_key((1, 70000, 77518)) != key
        assert [key[j] | key[3 + j] << 8 | key[6 + j] << 16 for j in range(3)] == list(ids)
        two = Search(Level(4, 4, 4))  # 1,820 layouts: 2 bytes each
        assert two.id_bytes == 2 and two._small_key((1, 1819)) == (1 | 1819 << 16).to_bytes(4, "little")


class TestSaved:
    def test_written_and_read_back(self, tmp_path):
        """Random entries of several key lengths and values of every width: read back, the memo is the dict."""
        rng = random.Random(5)
        for value_bytes in (1, 2, 4, 8):
            memo, truth = Memo(value_bytes=value_bytes), {}
            top = 2 ** (8 * value_bytes - 1)
            pool = [rng.randbytes(rng.choice((2, 5, 11))) for _ in range(3000)]
            for key in pool:
                truth[key] = memo[key] = rng.randrange(-top, top)
            path = tmp_path / f"m{value_bytes}"
            with open(path, "wb") as out:
                memo.write(out)
            with open(path, "rb") as src:
                again = Memo.read(src)
            assert again.value_bytes == value_bytes
            same_as_dict(again, truth, pool + [b"zz", b"absent key"])
            again[b"new"] = 1  # still grows (buckets made afresh, then split as usual)
            assert len(again) == len(truth) + 1

    def test_cut_short(self, tmp_path):
        memo = Memo(value_bytes=2)
        for n in range(500):
            memo[n.to_bytes(4, "little")] = n
        path = tmp_path / "m"
        with open(path, "wb") as out:
            memo.write(out)
        data = path.read_bytes()
        path.write_bytes(data[:-3])
        with open(path, "rb") as src, pytest.raises(ValueError, match="cut short"):
            Memo.read(src)

    @staticmethod
    def saved(memo: Memo) -> bytes:
        out = io.BytesIO()
        memo.write(out)
        return out.getvalue()

    def test_a_flipped_bit_is_refused(self):
        """A bit flipped in any entry of a saved memo is refused (it was read, and the search
        answered with the wrong value); the same file with its checksums zeroed, as files
        written before them are, reads back as the flipped memo it is."""
        rng = random.Random(7)
        memo, truth = Memo(value_bytes=4), {}
        for _ in range(400):
            key = rng.randbytes(9)
            truth[key] = memo[key] = rng.randrange(-1000, 1000)
        data = self.saved(memo)
        assert struct.unpack_from("<4q", data, 32)[:3] == (9, 400, 400 * 13)  # one table: entries at 64
        for _ in range(20):
            at = 64 + rng.randrange(400 * 13)
            flipped = bytearray(data)
            flipped[at] ^= 1 << rng.randrange(8)
            with pytest.raises(ValueError, match="checksum"):
                Memo.read(io.BytesIO(bytes(flipped)))
            struct.pack_into("<q", flipped, 32 + 24, 0)  # no checksum: read as it is
            entry = flipped[64 + (at - 64) // 13 * 13:][:13]
            again = Memo.read(io.BytesIO(bytes(flipped)))
            assert len(again) == 400 and again.get(bytes(entry[:9])) == struct.unpack("<i", entry[9:])[0]

    @pytest.mark.parametrize("field,value", [(0, 3), (0, -1), (6, 10 ** 17)],
                             ids=["value-bytes", "negative-value-bytes", "huge-size"])
    def test_a_damaged_header_is_refused(self, field, value, tmp_path):
        """A damaged value width or size in a header is a ValueError (the file is damaged), not
        a KeyError, nor a MemoryError from a file's read allocating 10**17 bytes."""
        memo = Memo(value_bytes=2)
        for n in range(50):
            memo[n.to_bytes(3, "little")] = n
        data = bytearray(self.saved(memo))
        struct.pack_into("<q", data, 8 * field, value)
        path = tmp_path / "m"
        path.write_bytes(data)
        with open(path, "rb") as src, pytest.raises(ValueError):
            Memo.read(src)


class Interrupt(Exception):
    pass


class TestSearchResumed:
    @pytest.mark.parametrize("level", [Level(4, 4, 4), Level(5, 3, 6)], ids=str)
    def test_stopped_saved_and_resumed(self, level, tmp_path):
        """A search stopped part way (as a SIGTERM stops optimal_table's), saved, and loaded by a new
        process's search: every rule's value is the uninterrupted search's, and its memo fewer states."""
        truth = Search(level)
        values = {rule: truth.optimum(rule).by_first for rule in FirstClick}

        def stop(views):
            raise Interrupt
        first = Search(level, progress=stop)
        first.next_report = len(truth.memo) // 3
        with pytest.raises(Interrupt):
            first.optimum(FirstClick.SAFE)
        assert 0 < len(first.memo) < len(truth.memo)
        path = str(tmp_path / "board.memo")
        first.save(path, {"rows": [], "cpu seconds": 1.5})
        again = Search(level)
        header = again.load(path)
        assert header["rows"] == [] and header["views"] == len(first.memo) == len(again.memo)
        assert {rule: again.optimum(rule).by_first for rule in FirstClick} == values

    def test_a_pathlib_path(self, tmp_path):
        """save took only a str (path + ".part" was a TypeError for a Path); load took both."""
        first = Search(Level(3, 3, 2))
        won = first.optimum(FirstClick.SAFE, (0, 0)).won
        first.save(tmp_path / "p.memo", {"cpu seconds": 0.25})
        assert sorted(f.name for f in tmp_path.iterdir()) == ["p.memo"]  # no .part left behind
        again = Search(Level(3, 3, 2))
        assert again.load(tmp_path / "p.memo")["cpu seconds"] == 0.25 and again.states == first.states
        assert again.optimum(FirstClick.SAFE, (0, 0)).won == won

    def test_two_searches_saving_to_one_path(self, tmp_path, monkeypatch):
        """Two runs given one --memo: B saves while A is half way through writing the same path.
        Both wrote ``path.part``, so the file kept was A's tail over B's and failed its checksum
        (both searches lost); now each writes a whole file and the later rename is kept."""
        path = str(tmp_path / "shared.memo")
        a, b = Search(Level(4, 4, 4)), Search(Level(4, 4, 4))
        won = a.optimum(FirstClick.SAFE, (0, 0)).won
        b.optimum(FirstClick.SAFE, (1, 1))
        assert a.states != b.states
        write = Memo.write

        def interleaved(memo, out):
            if memo is a.small_memo:  # A has written its header and first table: B saves now
                b.save(path, {"who": "b"})
            write(memo, out)
        monkeypatch.setattr(Memo, "write", interleaved)
        a.save(path, {"who": "a"})
        monkeypatch.setattr(Memo, "write", write)
        again = Search(Level(4, 4, 4))
        assert again.load(path)["who"] == "a" and again.states == a.states
        assert again.optimum(FirstClick.SAFE, (0, 0)).won == won
        assert sorted(f.name for f in tmp_path.iterdir()) == ["shared.memo"]  # no temporary file left

    def test_refuses_another_board(self, tmp_path):
        path = str(tmp_path / "a.memo")
        Search(Level(3, 3, 2)).save(path)
        another = r"a.memo:1:1: expected a memo of 3x3x3 .* \(got a memo of 3x3x2, version 1\)$"
        with pytest.raises(SatsweeperError, match=another):
            Search(Level(3, 3, 3)).load(path)
        other = tmp_path / "b.memo"
        other.write_text("p cnf 3 2\n")
        with pytest.raises(SatsweeperError, match=r"b.memo:1:1: expected a memo of 3x3x3 .* \(got 'p cnf 3 2'\)$"):
            Search(Level(3, 3, 3)).load(str(other))
