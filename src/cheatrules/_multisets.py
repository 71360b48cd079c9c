"""Multisets with a cap on each kind, numbered densely without listing them.

The plays of an action space are multisets of ranks (at most so many
copies of each rank, at most so many cards in all). :class:`Capped` numbers
every such multiset of 1 to ``top`` items: by size, then in the order
``itertools.combinations_with_replacement`` visits them (as many of the
first kind as can be first). Ranking and unranking cost a few steps per
kind, whatever the number of multisets, from a small table of counts.

A set of multisets is a *bitset*: a Python ``int`` whose bit ``i`` stands
for multiset ``i``. :meth:`Capped.within` gives the bitset of every
multiset a hand can lay (at most ``hand[k]`` of each kind ``k``): an AND of
one precomputed bitset per kind the hand holds fewer of than the cap, so
its cost grows with the number of kinds, not of multisets. Where the
multisets are too many for those tables to be worth their memory, it
enumerates the ones the hand can lay instead.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

__all__ = ["TABLE_LIMIT", "Capped", "bits_from_indices"]

#: Up to this many multisets, :meth:`Capped.within` ANDs precomputed bitsets;
#: above it (house rules with huge claims) it enumerates a hand's multisets.
TABLE_LIMIT = 200_000


def bits_from_indices(indices: Sequence[int], length: int) -> int:
    """The bitset with the bits ``indices`` set, each below ``length``."""
    flags = bytearray((length + 7) // 8)
    for index in indices:
        flags[index >> 3] |= 1 << (index & 7)
    return int.from_bytes(flags, "little")


class Capped:
    """Every multiset of 1 to ``top`` items with at most ``caps[k]`` of kind ``k``, numbered.

    >>> space = Capped((2, 1), top=2)  # two of kind 0 at most, one of kind 1
    >>> [space.unrank(index) for index in range(space.size)]
    [(1, 0), (0, 1), (2, 0), (1, 1)]
    >>> space.rank((1, 1)), space.rank((0, 2))
    (3, None)
    """

    __slots__ = ("_limits", "_offsets", "_ways", "caps", "size", "top")

    def __init__(self, caps: Sequence[int], top: int) -> None:
        #: The most of each kind a multiset holds (never above ``top``).
        self.caps: tuple[int, ...] = tuple(min(cap, top) for cap in caps)
        #: The most items a multiset holds.
        self.top = top
        kinds = len(self.caps)
        # ways[k][s]: the multisets of exactly s items over kinds k, k+1, ...
        ways = [[0] * (top + 1) for _ in range(kinds + 1)]
        ways[kinds][0] = 1
        for kind in range(kinds - 1, -1, -1):
            after, here, cap = ways[kind + 1], ways[kind], self.caps[kind]
            for items in range(top + 1):
                here[items] = sum(after[items - taken] for taken in range(min(cap, items) + 1))
        self._ways = ways
        # offsets[s]: the number of the first multiset of s items (s from 1 to top + 1).
        offsets = [0] * (top + 2)
        for items in range(1, top + 1):
            offsets[items + 1] = offsets[items] + ways[0][items]
        self._offsets = offsets
        #: How many multisets there are.
        self.size = offsets[top + 1]
        self._limits: list[list[int]] | None = None

    def first(self, items: int) -> int:
        """The number of the first multiset of ``items`` items (``size`` above ``top``)."""
        return self._offsets[max(1, min(items, self.top + 1))]

    def rank(self, counts: Sequence[int]) -> int | None:
        """The number of the multiset of ``counts[k]`` of each kind; ``None`` if there is none."""
        items = sum(counts)
        if not 1 <= items <= self.top or any(
            count > cap for count, cap in zip(counts, self.caps, strict=True)
        ):
            return None
        number = self._offsets[items]
        for kind, taken in enumerate(counts):
            after, cap = self._ways[kind + 1], self.caps[kind]
            # The multisets taking more of this kind come first.
            for more in range(min(cap, items), taken, -1):
                number += after[items - more]
            items -= taken
        return number

    def unrank(self, number: int) -> tuple[int, ...]:
        """The counts of each kind in multiset ``number`` (from 0 to ``size - 1``)."""
        items = 1
        while self._offsets[items + 1] <= number:
            items += 1
        number -= self._offsets[items]
        counts = []
        for kind, cap in enumerate(self.caps):
            after = self._ways[kind + 1]
            for taken in range(min(cap, items), -1, -1):
                if number < after[items - taken]:
                    counts.append(taken)
                    items -= taken
                    break
                number -= after[items - taken]
        return tuple(counts)

    def all_counts(self) -> Iterator[tuple[int, ...]]:
        """Every multiset's counts, in number order."""
        for items in range(1, self.top + 1):
            yield from self._fill((), items)

    def _fill(self, counts: tuple[int, ...], items: int) -> Iterator[tuple[int, ...]]:
        kind = len(counts)
        if kind == len(self.caps):
            if not items:
                yield counts
            return
        if self._ways[kind][items] == 0:
            return
        for taken in range(min(self.caps[kind], items), -1, -1):
            yield from self._fill((*counts, taken), items - taken)

    def within(self, hand: Sequence[int]) -> int:
        """The bitset of every multiset with at most ``hand[k]`` of each kind ``k``."""
        if self.size > TABLE_LIMIT or self.top > 255:  # the tables hold counts as bytes
            return self._enumerated(hand)
        limits = self._limits
        if limits is None:
            limits = self._limits = self._tables()
        bits = (1 << self.size) - 1
        for kind, held in enumerate(hand):
            if held < self.caps[kind]:
                bits &= limits[kind][held]
        return bits

    def _tables(self) -> list[list[int]]:
        """``limits[k][h]``: the bitset of the multisets with at most ``h`` of kind ``k``."""
        columns = [bytearray(self.size) for _ in self.caps]
        for number, counts in enumerate(self.all_counts()):
            for kind, taken in enumerate(counts):
                columns[kind][number] = taken
        limits = []
        for kind, column in enumerate(columns):
            newest_first = bytes(reversed(column))  # the highest bit first, as int() reads
            # "1" where the multiset takes at most ``held`` of this kind, else "0".
            limits.append(
                [int(newest_first.translate(_at_most(held)), 2) for held in range(self.caps[kind])]
            )
        return limits

    def _enumerated(self, hand: Sequence[int]) -> int:
        """:meth:`within` for a space too large for tables: rank each multiset the hand lays."""
        limits = [min(held, cap) for held, cap in zip(hand, self.caps, strict=True)]
        # spare[k]: the most items kinds k, k+1, ... can still give.
        spare = [sum(limits[kind:]) for kind in range(len(limits) + 1)]
        found: list[int] = []
        for items in range(1, min(self.top, spare[0]) + 1):
            self._collect(limits, spare, (0, items, self._offsets[items]), found)
        return bits_from_indices(found, self.size)

    def _collect(
        self, limits: list[int], spare: list[int], at: tuple[int, int, int], found: list[int]
    ) -> None:
        kind, items, number = at
        if kind == len(limits):
            if not items:
                found.append(number)
            return
        after, cap = self._ways[kind + 1], self.caps[kind]
        skipped = sum(after[items - more] for more in range(min(cap, items), limits[kind], -1))
        for taken in range(min(limits[kind], items), -1, -1):
            if spare[kind + 1] >= items - taken:
                self._collect(limits, spare, (kind + 1, items - taken, number + skipped), found)
            skipped += after[items - taken]


@functools.cache
def _at_most(held: int) -> bytes:
    """A ``bytes.translate`` table: a count byte to the digit "1" when it is at most ``held``."""
    return bytes(ord("1") if count <= held else ord("0") for count in range(256))
