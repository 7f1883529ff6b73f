"""A compact memo: short bytes keys to small ints, packed in bytearrays.

The optimal search (:mod:`satsweeper.optimal`) remembers tens of millions of
positions.  In a dict each costs about 100 bytes: the entry and its share of
free entries (~50), the key object (40 for an 84-bit int, 50-100 for bytes)
and the value object (32 unless it is a cached small int).  Here an entry is
its key's bytes and its value's bytes, side by side in a bucket (a
bytearray of about ``LOAD`` entries), and a share of the bucket's own cost
(its object and its pointer, 2-3 bytes an entry): an 11-byte key with a
4-byte value takes 17-18 bytes.  Keys stay exact (compared byte for byte,
never hashed down): a collision would give the search a wrong answer.

A lookup is a hash, a list index and one ``bytearray.find`` over the
bucket, in C: a match counts only at an entry's start (a key may also
appear across two entries' bytes).  The buckets grow by linear hashing
(Litwin, "Linear hashing: a new tool for file and table addressing"): each
insertion past ``LOAD`` entries a bucket splits one bucket, in turn, into
itself and a new last bucket, by one more bit of the hash, so the table
never stops to copy itself (no peak of an old and a new table side by
side).  Keys of each length get a table of their own (the optimal search's
sets of layouts make keys of 14 lengths).

>>> memo = Memo(value_bytes=2)
>>> memo[b"abc"] = 7
>>> memo[b"abcd"] = -8
>>> memo[b"abc"] = 9
>>> memo.get(b"abc"), memo.get(b"abcd"), memo.get(b"abd"), len(memo)
(9, -8, None, 2)
"""

from __future__ import annotations

import struct

LOAD = 24  # entries a bucket, on average (a find over ~360 bytes costs about what a slice does)
FORMATS = {1: "<b", 2: "<h", 4: "<i", 8: "<q"}  # value bytes -> a struct format (unpack_from: no slice)


class Memo:
    """A dict-like map from bytes keys to signed ints of ``value_bytes`` bytes (1, 2, 4 or 8).

    ``get``, ``[key] = value``, ``len`` and ``clear`` as a dict's; a value
    out of range raises struct.error.  Memory: ``len(key) + value_bytes``
    bytes an entry, plus about 3 (the bucket it is in).
    """

    __slots__ = ("value_bytes", "pack", "unpack", "tables", "count")

    def __init__(self, value_bytes: int = 4):
        self.value_bytes = value_bytes
        form = struct.Struct(FORMATS[value_bytes])
        self.pack, self.unpack = form.pack, form.unpack_from
        # key length -> [buckets, low mask, next bucket to split, entry size, entries]; a hash h is in
        # bucket h & low, or h & (2 * low + 1) if that one was split already this round.
        self.tables: dict[int, list] = {}
        self.count = 0

    def __len__(self) -> int:
        return self.count

    def clear(self) -> None:
        self.tables.clear()
        self.count = 0

    def nbytes(self) -> int:
        """The bytes the entries take (less the buckets' own costs)."""
        return sum(len(bucket) for table in self.tables.values() for bucket in table[0])

    def get(self, key: bytes, default: int | None = None) -> int | None:
        table = self.tables.get(len(key))
        if table is None:
            return default
        buckets, low, split, size, _ = table
        h = hash(key)
        b = h & low
        if b < split:
            b = h & (2 * low + 1)
        bucket = buckets[b]
        at = bucket.find(key)
        while at >= 0:
            if not at % size:
                return self.unpack(bucket, at + len(key))[0]
            at = bucket.find(key, at + 1)  # across two entries: not a key
        return default

    def __setitem__(self, key: bytes, value: int) -> None:
        table = self.tables.get(len(key))
        if table is None:
            table = self.tables[len(key)] = [[bytearray()], 0, 0, len(key) + self.value_bytes, 0]
        buckets, low, split, size, used = table
        stored = self.pack(value)
        h = hash(key)
        b = h & low
        if b < split:
            b = h & (2 * low + 1)
        bucket = buckets[b]
        at = bucket.find(key)
        while at >= 0:
            if not at % size:
                bucket[at + len(key):at + size] = stored
                return
            at = bucket.find(key, at + 1)
        bucket += key
        bucket += stored
        self.count += 1
        table[4] = used + 1
        if used >= LOAD * len(buckets):
            self._split(table)

    def _split(self, table: list) -> None:
        """Split the next bucket in turn: its keys with the next hash bit set go to a new last bucket."""
        buckets, low, split, size, _ = table
        high = 2 * low + 1
        width = size - self.value_bytes
        old = bytes(buckets[split])  # its slices are bytes, hashable
        keep, move = bytearray(), bytearray()
        for at in range(0, len(old), size):
            entry = old[at:at + size]
            if hash(entry[:width]) & high == split:
                keep += entry
            else:
                move += entry
        buckets[split] = keep
        buckets.append(move)  # bucket split + low + 1
        table[1:3] = (high, 0) if split == low else (low, split + 1)
