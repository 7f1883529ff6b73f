"""A compact memo: short bytes keys to small ints, packed in bytes buckets.

The optimal search (:mod:`satsweeper.optimal`) remembers tens of millions of
positions.  In a dict each costs about 100 bytes: the entry and its share of
free entries (~50), the key object (40 for an 84-bit int, 50-100 for bytes)
and the value object (32 unless it is a cached small int).  Here an entry is
its key's bytes and its value's bytes, side by side in a bucket (one bytes
object of ``LOAD / 2`` to ``LOAD`` entries), plus a share of the bucket's
own cost (its header and its pointer, about 50 bytes: 2-4 bytes an entry):
an 11-byte key with a 4-byte value takes 17-19 bytes.  Keys stay exact
(compared byte for byte, never hashed down): a collision would give the
search a wrong answer.

A lookup is a hash, a list index and one ``bytes.find`` over the bucket, in
C, not a Python loop over slots: a match counts only at an entry's start (a
key may also appear across two entries' bytes).  An insertion makes the
bucket anew (bytes, not bytearray: the data lies in the object, one pointer
fewer to follow on every lookup).  Past ``LOAD`` entries a bucket on
average, every bucket splits in two by one more bit of the hash, one at a
time in place, so there is never an old and a new table side by side.
Keys of each length get a table of their own (the optimal search's sets of
layouts make keys of 14 lengths).

>>> memo = Memo(value_bytes=2)
>>> memo[b"abc"] = 7
>>> memo[b"abcd"] = -8
>>> memo[b"abc"] = 9
>>> memo.get(b"abc"), memo.get(b"abcd"), memo.get(b"abd"), len(memo)
(9, -8, None, 2)
"""

from __future__ import annotations

import struct
import zlib
from typing import BinaryIO

LOAD = 24  # entries a bucket on average, at most (and at least half): a find over ~360 bytes costs about a slice
FORMATS = {1: "<b", 2: "<h", 4: "<i", 8: "<q"}  # value bytes -> a struct format (unpack_from: no slice)


class Memo:
    """A dict-like map from bytes keys to signed ints of ``value_bytes`` bytes (1, 2, 4 or 8).

    ``get``, ``[key] = value``, ``len`` and ``clear`` as a dict's; a value
    out of range raises struct.error (and changes nothing).  Memory:
    ``len(key) + value_bytes`` bytes an entry, plus 2-4 (its bucket's share).
    """

    __slots__ = ("value_bytes", "pack", "unpack", "tables", "used", "count")

    def __init__(self, value_bytes: int = 4):
        self.value_bytes = value_bytes
        form = struct.Struct(FORMATS[value_bytes])
        self.pack, self.unpack = form.pack, form.unpack_from
        self.tables: dict[int, tuple] = {}  # key length -> (buckets, len(buckets) - 1, entry size)
        self.used: dict[int, int] = {}  # key length -> entries
        self.count = 0

    def __len__(self) -> int:
        return self.count

    def clear(self) -> None:
        self.tables.clear()
        self.used.clear()
        self.count = 0

    def nbytes(self) -> int:
        """The bytes the entries take (not counting the buckets' headers and pointers)."""
        return sum(len(bucket) for buckets, _, _ in self.tables.values() for bucket in buckets)

    def get(self, key: bytes, default: int | None = None) -> int | None:
        width = len(key)
        table = self.tables.get(width)
        if table is None:
            return default
        buckets, mask, size = table
        bucket = buckets[hash(key) & mask]
        at = bucket.find(key)
        while at >= 0:
            if not at % size:
                return self.unpack(bucket, at + width)[0]
            at = bucket.find(key, at + 1)  # across two entries: not a key
        return default

    def __setitem__(self, key: bytes, value: int) -> None:
        width = len(key)
        table = self.tables.get(width)
        if table is None:
            table = self.tables[width] = ([b""], 0, width + self.value_bytes)
            self.used[width] = 0
        buckets, mask, size = table
        stored = self.pack(value)
        b = hash(key) & mask
        bucket = buckets[b]
        at = bucket.find(key)
        while at >= 0:
            if not at % size:
                buckets[b] = bucket[:at + width] + stored + bucket[at + size:]
                return
            at = bucket.find(key, at + 1)
        buckets[b] = bucket + key + stored  # a new bytes: its data lies in the object (one pointer fewer to follow)
        self.count += 1
        used = self.used[width] = self.used[width] + 1
        if used > LOAD * (mask + 1):
            self._double(width)

    def write(self, out: BinaryIO) -> None:
        """Every entry to ``out``: per key length, a header (key length,
        entries, bytes, checksum) and the entries side by side.  Buckets are not
        kept: they follow ``hash``, which differs between processes."""
        out.write(struct.pack("<4q", self.value_bytes, len(self.tables), 0, 0))
        for width, (buckets, _, size) in self.tables.items():
            data = b"".join(buckets)
            # Entries counted from the bytes, not ``used``: a search stopped by a signal between
            # a bucket's assignment and the count's is saved whole all the same.
            out.write(struct.pack("<4q", width, len(data) // size, len(data), _checksum(data)))
            out.write(data)

    @classmethod
    def read(cls, src: BinaryIO) -> Memo:
        """A memo as :meth:`write` wrote it, its buckets made afresh.

        >>> import io
        >>> memo = Memo(value_bytes=1)
        >>> for n in range(100):
        ...     memo[n.to_bytes(3, "little")] = n % 50 - 25
        >>> saved = io.BytesIO(); memo.write(saved); _ = saved.seek(0)
        >>> again = Memo.read(saved)
        >>> len(again), again.get((77).to_bytes(3, "little")), again.get(b"xyz")
        (100, 2, None)
        """
        value_bytes, tables, _, _ = struct.unpack("<4q", _exactly(src, 32))
        if value_bytes not in FORMATS:
            raise ValueError(f"{value_bytes}-byte values (not 1, 2, 4 or 8)")
        memo = cls(value_bytes)
        for _ in range(tables):
            width, used, size, check = struct.unpack("<4q", _exactly(src, 32))
            if width < 1 or used < 0:
                raise ValueError(f"{used} entries of {width}-byte keys")
            data = _exactly(src, size)
            # Files written before the checksum have 0 there: read as they are.
            if check and check != _checksum(data):
                raise ValueError(f"{used} entries failing their checksum")
            memo._fill(width, used, data)
        return memo

    def _fill(self, width: int, used: int, data: bytes) -> None:
        """Put ``used`` entries of key length ``width`` (``data``, side by side) in fresh buckets."""
        size = width + self.value_bytes
        if len(data) != used * size:
            raise ValueError(f"{used} entries of {size} bytes in {len(data)} bytes")
        count = 1
        while used > LOAD * count:
            count *= 2
        mask = count - 1
        parts = [bytearray() for _ in range(count)]
        for at in range(0, len(data), size):
            entry = data[at:at + size]
            parts[hash(entry[:width]) & mask] += entry
        self.tables[width] = ([bytes(part) for part in parts], mask, size)
        self.used[width] = used
        self.count += used

    def _double(self, width: int) -> None:
        """Split every bucket in two by one more bit of the hash: bucket b's keys with the bit set go to
        bucket b + len(buckets).  One bucket at a time, in place: no second table beside the first."""
        buckets, mask, size = self.tables[width]
        high = 2 * mask + 1
        for b in range(mask + 1):
            old = buckets[b]
            keep, move = bytearray(), bytearray()
            for at in range(0, len(old), size):
                entry = old[at:at + size]
                if hash(entry[:width]) & high == b:
                    keep += entry
                else:
                    move += entry
            buckets[b] = bytes(keep)
            buckets.append(bytes(move))
        self.tables[width] = (buckets, high, size)


def _checksum(data: bytes) -> int:
    """CRC-32 of ``data`` with bit 32 set: never 0, which marks a file written without one.

    A flipped bit in a saved memo would otherwise give the search a wrong value.
    """
    return zlib.crc32(data) | 1 << 32


def _exactly(src: BinaryIO, n: int) -> bytes:
    """``n`` bytes of ``src``, or ValueError (a file cut short).  The errors of
    reading a memo say what is damaged: the caller puts them after "got"."""
    if n < 0:
        raise ValueError(f"a count of {n} bytes")
    if src.seekable():  # a damaged size is not allocated (10**17 bytes: MemoryError)
        here = src.tell()
        left = src.seek(0, 2) - here
        src.seek(here)
        if left < n:
            raise ValueError(f"cut short, {n} bytes wanted, {left} left")
    data = src.read(n)
    if len(data) != n:
        raise ValueError(f"cut short, {n} bytes wanted, {len(data)} read")
    return data
