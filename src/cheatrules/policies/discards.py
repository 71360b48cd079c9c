"""Four-of-a-kind discards: when a player may set complete fours aside."""

from __future__ import annotations

from typing import Protocol

import attrs

from cheatrules.cards import Card, Rank

__all__ = ["DiscardRule", "NoDiscards"]


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
