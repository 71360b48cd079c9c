"""Dealing the cards nobody saw so that no hand holds a four it did not set aside.

Under compulsory discards a player who takes the pile sets aside every four
it then holds, shown to all; so at each such moment the sampler knows the
taker's hand held no other four. :func:`fill` deals the cards nobody saw
(the *pool*) to the places that have no card yet (*free* tokens) under
those limits: for each noted hand and rank, at most as many cards as keep
it short of another four.

A random deal is drawn first, a few times, and kept if it breaks no limit:
where limits are loose that is the uniform deal under them. Otherwise the
deal is searched exactly. The free tokens that lie in the same noted hands
are alike, so they form one class; the search takes the ranks one by one
and chooses how many of each go to each class, in a random order weighted
by the number of deals each count stands for, backing up where a choice
leaves a noted hand unable to fill. It returns ``None`` when no deal exists
(then the sampler backs up its own choices) or when it spent its budget.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from math import comb
from typing import TypeVar

from cheatrules.cards import Card, Rank

__all__ = [
    "caps",
    "fill",
    "holds_extra_four",
    "room_for",
    "short_of_fours",
    "slack",
    "weighted_order",
]

#: What :func:`weighted_order` orders: counts, or vectors of counts.
_Item = TypeVar("_Item", int, tuple[int, ...])

#: A noted hand: its tokens just after a pickup, and the ranks whose fours it set aside.
Noted = tuple[tuple[int, ...], tuple[Rank, ...]]

#: Random deals drawn before the exact search.
_DRAWS = 16

#: The most choices the exact search tries in one fill.
_NODES = 4000

#: How many nodes of the exact search pass between two calls of its ``check``.
_CHECK_EVERY = 32


def caps(hand: tuple[int, ...], ranks: tuple[Rank, ...], bound: dict[int, Card]) -> Counter[Rank]:
    """How many more cards of each rank (not jokers) ``hand`` may hold and make no other four.

    A rank of which it sets aside ``n`` fours may have ``4n + 3`` cards in it
    (with two packs, the fifth to seventh copies beside one four set aside).
    A negative cap means the cards it has already make a four too many.
    """
    held = _held(hand, bound)
    allowed = Counter(ranks)
    return Counter(
        {rank: _most(allowed[rank]) - held.get(rank, 0) for rank in Rank if rank is not Rank.JOKER}
    )


def room_for(
    rank: Rank, hand: tuple[int, ...], ranks: tuple[Rank, ...], bound: dict[int, Card]
) -> int:
    """:func:`caps` for one rank alone (the sampler asks it of each card it pins)."""
    return _most(ranks.count(rank)) - sum(1 for t in hand if t in bound and bound[t].rank is rank)


def _most(fours: int) -> int:
    """The most cards of a rank a hand that sets aside ``fours`` fours of it may hold."""
    return 4 * fours + 3


def holds_extra_four(noted: Sequence[Noted], bound: dict[int, Card]) -> bool:
    """Whether a noted hand holds, among the cards it has, a four it did not set aside.

    :func:`caps` below zero, counted for the ranks the hand has alone (this
    runs at every step of the sampler's search).
    """
    for hand, ranks in noted:
        held = _held(hand, bound)
        if any(count > _most(ranks.count(rank)) for rank, count in held.items()):
            return True
    return False


def _held(hand: tuple[int, ...], bound: dict[int, Card]) -> dict[Rank, int]:
    """How many cards of each rank (not jokers) the tokens of ``hand`` that have one hold."""
    held: dict[Rank, int] = {}
    for token in hand:
        card = bound.get(token)
        if card is not None and card.rank is not Rank.JOKER:
            held[card.rank] = held.get(card.rank, 0) + 1
    return held


def short_of_fours(noted: Sequence[Noted], bound: dict[int, Card], pool: Counter[Rank]) -> bool:
    """Whether a noted hand can no longer be filled: the cards left cannot fill it under its caps.

    ``pool`` counts the cards of each rank that no token has yet (jokers
    included). Each free token of a noted hand gets one of them, at most the
    cap of each rank: so the caps, bounded by what is left, must cover the
    hand's free tokens. Giving cards only lowers both sides alike or the
    left side alone, so once this holds it holds for good: the sampler may
    back up at once.
    """
    return any(slack(hand, ranks, bound, pool) < 0 for hand, ranks in noted)


def slack(
    hand: tuple[int, ...], ranks: tuple[Rank, ...], bound: dict[int, Card], pool: Counter[Rank]
) -> int:
    """How many cards more than its free tokens a noted hand could still take; below 0: short.

    Giving any one card lowers it by one at most (a card given to one of the
    hand's own tokens lowers its room and its free tokens alike), so a hand
    with slack ``s`` needs no new look until more than ``s`` cards are given.
    A hand with no free token is never short: the largest int.
    """
    free = sum(1 for t in hand if t not in bound)
    if not free:
        return sys.maxsize
    held = _held(hand, bound)
    # The caps of the ranks left alone (caps() works out all thirteen).
    limits: dict[Rank, int] = {
        rank: _most(ranks.count(rank)) - held.get(rank, 0)
        for rank in pool
        if rank is not Rank.JOKER
    }
    return _room(limits, pool.items()) - free


def _room(limits: Mapping[Rank, int], left: Iterable[tuple[Rank, int]]) -> int:
    """How many of the cards ``left`` (count per rank) a hand may take within ``limits``.

    Jokers make no four: all of them.
    """
    return sum(count if rank is Rank.JOKER else min(count, limits[rank]) for rank, count in left)


def fill(
    bound: dict[int, Card],
    free: list[int],
    pool: list[Card],
    noted: Sequence[Noted],
    rng: random.Random,
    check: Callable[[], None] = lambda: None,
) -> dict[int, Card] | None:
    """``bound`` with each of ``free`` given a card of ``pool``, no noted hand over its caps.

    ``pool`` may hold more cards than ``free`` has tokens (a deal that leaves
    cards out of the game); those are left over. ``None`` if no deal exists
    or the exact search spent its budget. The exact search calls ``check``
    every few dozen nodes (the sampler's clock, which raises once the call's
    time is up): with many hands noted, a node costs a third of a millisecond.
    """
    cards = list(pool)
    for _ in range(_DRAWS if noted else 1):
        rng.shuffle(cards)
        dealt = dict(bound)
        dealt.update(zip(free, cards, strict=False))
        if not holds_extra_four(noted, dealt):
            return dealt
    if not noted:
        return None
    return _searched(bound, free, cards, noted, rng, check)


def _searched(
    bound: dict[int, Card],
    free: list[int],
    pool: list[Card],
    noted: Sequence[Noted],
    rng: random.Random,
    check: Callable[[], None],
) -> dict[int, Card] | None:
    """The exact search of :func:`fill`, by class of free tokens and by rank."""
    hands = [frozenset(hand) for hand, _ in noted]
    classes: dict[tuple[int, ...], list[int]] = {}
    for token in free:
        classes.setdefault(tuple(k for k, hand in enumerate(hands) if token in hand), []).append(
            token
        )
    # The cards left out of the game go with the tokens in no noted hand.
    classes.setdefault((), [])
    keys = list(classes)
    room = [len(classes[key]) for key in keys]
    room[keys.index(())] += len(pool) - len(free)
    limits = [caps(hand, ranks, bound) for hand, ranks in noted]
    by_rank: dict[Rank, list[Card]] = {}
    for card in pool:
        by_rank.setdefault(card.rank, []).append(card)
    ranks = sorted(by_rank, key=lambda rank: (rank is Rank.JOKER, -len(by_rank[rank])))
    sizes = [len(by_rank[rank]) for rank in ranks]
    search = _Deal(keys, room, limits, sizes, ranks, rng, check)
    counts = search.run()
    if counts is None:
        return None
    dealt = dict(bound)
    parts: list[list[Card]] = [[] for _ in keys]
    for rank, vector in zip(ranks, counts, strict=True):
        copies = by_rank[rank]
        rng.shuffle(copies)
        start = 0
        for part, count in zip(parts, vector, strict=True):
            part.extend(copies[start : start + count])
            start += count
    for key, part in zip(keys, parts, strict=True):
        rng.shuffle(part)
        dealt.update(zip(classes[key], part, strict=False))
    return dealt


class _Deal:
    """How many cards of each rank go to each class: a depth-first search with a budget."""

    def __init__(
        self,
        keys: list[tuple[int, ...]],
        room: list[int],
        limits: list[Counter[Rank]],
        sizes: list[int],
        ranks: list[Rank],
        rng: random.Random,
        check: Callable[[], None],
    ) -> None:
        self.keys, self.room, self.limits = keys, room, limits
        self.sizes, self.ranks, self.rng, self.check = sizes, ranks, rng, check
        self.nodes = 0
        # Per noted hand: the classes inside it.
        self.inside = [[i for i, key in enumerate(keys) if k in key] for k in range(len(limits))]

    def run(self) -> list[tuple[int, ...]] | None:
        chosen: list[tuple[int, ...]] = []
        return chosen if self._extend(chosen) else None

    def _extend(self, chosen: list[tuple[int, ...]]) -> bool:
        depth = len(chosen)
        if depth == len(self.ranks):
            return True
        if not self._coverable(depth):
            return False
        rank = self.ranks[depth]
        for vector in self._vectors(rank, self.sizes[depth]):
            self.nodes += 1
            if self.nodes > _NODES:
                return False
            if not self.nodes % _CHECK_EVERY:
                self.check()
            self._take(rank, vector, -1)
            chosen.append(vector)
            if self._extend(chosen):
                return True
            chosen.pop()
            self._take(rank, vector, 1)
        return False

    def _take(self, rank: Rank, vector: tuple[int, ...], sign: int) -> None:
        for i, count in enumerate(vector):
            self.room[i] += sign * count
        if rank is not Rank.JOKER:
            for k, inside in enumerate(self.inside):
                self.limits[k][rank] += sign * sum(vector[i] for i in inside)

    def _coverable(self, depth: int) -> bool:
        """Whether the ranks still to deal can fill each noted hand's free tokens under its caps."""
        rest = list(zip(self.ranks[depth:], self.sizes[depth:], strict=True))
        for k, inside in enumerate(self.inside):
            need = sum(self.room[i] for i in inside)
            if _room(self.limits[k], rest) < need:
                return False
        return True

    def _vectors(self, rank: Rank, total: int) -> Iterator[tuple[int, ...]]:
        """Each count per class of ``total`` cards of ``rank`` within room and caps, lazily.

        Class by class, each count is tried in a random order weighted by the
        placements it stands for there and in the classes after it (caps
        aside), so the first counts tried are drawn about as a uniform deal
        would draw them.
        """
        room = list(self.room)  # the search changes its own as it goes deeper
        caps = [total if rank is Rank.JOKER else limits[rank] for limits in self.limits]
        after = [sum(room[i + 1 :]) for i in range(len(room))]
        return self._counts_from((), total, room, caps, after)

    def _counts_from(
        self, prefix: tuple[int, ...], left: int, room: list[int], caps: list[int], after: list[int]
    ) -> Iterator[tuple[int, ...]]:
        """The counts of :meth:`_vectors` that begin with ``prefix``, ``left`` cards to place.

        A method, not a function nested in :meth:`_vectors`: a nested
        function that calls itself is a reference cycle, left for the
        garbage collector with all it holds.
        """
        i = len(prefix)
        if i == len(self.keys):
            yield prefix
            return
        keys = self.keys[i]
        most = min([left, room[i]] + [caps[k] for k in keys])
        counts = list(range(max(0, left - after[i]), most + 1))
        weights = [comb(room[i], c) * comb(after[i], left - c) for c in counts]
        for count in weighted_order(counts, weights, self.rng):
            for k in keys:
                caps[k] -= count
            yield from self._counts_from((*prefix, count), left - count, room, caps, after)
            for k in keys:
                caps[k] += count


def weighted_order(items: list[_Item], weights: list[int], rng: random.Random) -> list[_Item]:
    """``items`` in a random order, each next one drawn with chance proportional to its weight."""
    keyed = [
        (rng.random() ** (1.0 / weight), item)
        for item, weight in zip(items, weights, strict=True)
        if weight
    ]
    keyed.sort(reverse=True)
    return [item for _, item in keyed]
