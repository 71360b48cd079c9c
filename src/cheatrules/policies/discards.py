"""Four-of-a-kind discards: when a player may set complete fours aside."""

from __future__ import annotations

from collections import Counter
from typing import Protocol

import attrs

from cheatrules.cards import Card, Rank

__all__ = ["AfterPickup", "DiscardRule", "NoDiscards", "complete_fours"]


class DiscardRule(Protocol):
    """Decides which complete fours a player who just took the pile may set aside."""

    def after_pickup(self, hand: tuple[Card, ...]) -> tuple[Rank, ...]:
        """The ranks (one entry per complete four) the taker may discard; ``()`` offers nothing.

        When the answer is not empty, the game enters its discard phase and
        the taker chooses any subset of it.
        """
        ...


@attrs.frozen
class NoDiscards:
    """Fours are never discarded (Cheat).

    >>> from cheatrules.cards import cards
    >>> NoDiscards().after_pickup(cards("7♣ 7♦ 7♥ 7♠"))
    ()
    """

    def after_pickup(self, hand: tuple[Card, ...]) -> tuple[Rank, ...]:
        """Nothing is ever offered."""
        return ()


def complete_fours(hand: tuple[Card, ...]) -> tuple[Rank, ...]:
    """The complete fours in ``hand``: each rank once per four cards of it, in rank order.

    >>> from cheatrules.cards import cards
    >>> complete_fours(cards("Q♣ Q♦ Q♥ Q♠ 7♣ 7♦ 7♥"))
    (Rank.QUEEN,)
    """
    counts = Counter(card.rank for card in hand)
    return tuple(rank for rank in sorted(counts) for _ in range(counts[rank] // 4))


@attrs.frozen
class AfterPickup:
    """Verish' Ne Verish': right after taking the pile, the taker may set aside complete fours.

    Only then: fours held from the deal wait for a pickup. Any subset may be
    discarded, including none; the choice is offered only when the taker
    holds at least one complete four.

    >>> from cheatrules.cards import cards
    >>> AfterPickup().after_pickup(cards("Q♣ Q♦ Q♥ Q♠ 7♣"))
    (Rank.QUEEN,)
    """

    def after_pickup(self, hand: tuple[Card, ...]) -> tuple[Rank, ...]:
        """Every complete four in the hand."""
        return complete_fours(hand)
