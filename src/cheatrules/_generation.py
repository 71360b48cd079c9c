"""Enumerating the distinct choices a player has: plays by rank multiset, discards by subset."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from cheatrules.actions import Accept, Action, Challenge, Discard, Refuse
from cheatrules.cards import Card, Rank

_CHALLENGE = Challenge()
#: The choices in a challenge window, in this order.
WINDOW_ACTIONS: tuple[Action, ...] = (_CHALLENGE, Accept())
#: The choices in an extended challenge window that reaches an earlier claim.
EARLIER_WINDOW_ACTIONS: tuple[Action, ...] = (_CHALLENGE, Challenge(earlier=True), Accept())
#: The choices of an opponent asked to agree to a pass.
CONSENT_ACTIONS: tuple[Action, ...] = (Accept(), Refuse())


def _rank_of(card: Card) -> Rank:
    return card.rank


def by_rank(hand: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """A sorted hand split into runs of one rank each."""
    return [tuple(run) for _, run in itertools.groupby(hand, key=_rank_of)]


def multisets(runs: list[tuple[Card, ...]], size: int) -> Iterator[tuple[Card, ...]]:
    """Every distinct multiset of ranks of ``size`` cards, as the lowest cards of each rank."""
    for choice in itertools.combinations_with_replacement(range(len(runs)), size):
        laid: list[Card] = []
        for index, repeats in itertools.groupby(choice):
            wanted = len(tuple(repeats))
            cards = runs[index]
            if wanted > len(cards):
                break
            laid.extend(cards[:wanted])
        else:
            yield tuple(laid)


def sub_multisets(ranks: tuple[Rank, ...]) -> Iterator[tuple[Rank, ...]]:
    """Every sub-multiset of a sorted tuple of ranks, smallest first (the empty one first)."""
    for size in range(len(ranks) + 1):
        yield from dict.fromkeys(itertools.combinations(ranks, size))


def discards(offered: tuple[Rank, ...]) -> tuple[Action, ...]:
    """The choices of a player offered these fours: every subset, declining first."""
    return tuple(Discard(choice) for choice in sub_multisets(offered))
