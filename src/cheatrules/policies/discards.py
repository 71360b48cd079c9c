"""Four-of-a-kind discards: when a player may set complete fours aside."""

from __future__ import annotations

from collections import Counter
from typing import ClassVar, Protocol

import attrs

from cheatrules import _checks as checks
from cheatrules.cards import Card, Rank

__all__ = ["AfterPickup", "AnyTime", "DiscardRule", "NoDiscards", "complete_fours"]


class DiscardRule(Protocol):
    """Decides whether a player who just took the pile decides on discards, and which fours.

    A discard rule may declare, as a class attribute, ``sets_fours_aside``:
    whether fours may ever be discarded (``True`` when left out). See
    ``cheatrules.policies.declared()``.
    """

    def after_pickup(self, hand: tuple[Card, ...]) -> tuple[Rank, ...] | None:
        """The fours the taker may discard (one rank per complete four), or None for no decision.

        Any tuple, even an empty one, puts the game in its discard phase,
        where the taker chooses a subset of it (the empty one declines). The
        phase must not depend on the hand, or every seat would learn from it
        whether the taker holds a four: a rule that offers discards returns
        a tuple after every pickup, empty when the taker holds no four.
        """
        ...

    def on_turn(self, hand: tuple[Card, ...]) -> tuple[Rank, ...]:
        """The fours the player to move may discard before laying cards (``()`` for none)."""
        ...

    @property
    def compulsory(self) -> bool:
        """Whether the fours offered after a pickup are discarded without asking."""
        ...


@attrs.frozen
class NoDiscards:
    """Fours are never discarded (Cheat).

    >>> from cheatrules.cards import cards
    >>> NoDiscards().after_pickup(cards("7♣ 7♦ 7♥ 7♠")) is None
    True
    """

    compulsory: ClassVar[bool] = False
    sets_fours_aside: ClassVar[bool] = False
    asks_after_pickup: ClassVar[bool] = False

    def after_pickup(self, hand: tuple[Card, ...]) -> tuple[Rank, ...] | None:
        """No decision, ever."""
        return None

    def on_turn(self, hand: tuple[Card, ...]) -> tuple[Rank, ...]:
        """Nothing, ever."""
        return ()


def complete_fours(hand: tuple[Card, ...]) -> tuple[Rank, ...]:
    """The complete fours in ``hand``: each rank once per four cards of it, in rank order.

    >>> from cheatrules.cards import cards
    >>> complete_fours(cards("Q♣ Q♦ Q♥ Q♠ 7♣ 7♦ 7♥"))
    (Rank.QUEEN,)
    """
    counts = Counter(card.rank for card in hand if card.rank is not Rank.JOKER)
    return tuple(rank for rank in sorted(counts) for _ in range(counts[rank] // 4))


@attrs.frozen
class AfterPickup:
    """Verish' Ne Verish': right after taking the pile, the taker may set aside complete fours.

    Only then: fours held from the deal wait for a pickup. Any subset may be
    discarded, including none. The taker is asked after every pickup, so
    that being asked tells nobody whether the taker holds a four; without
    one, declining is the only choice. With ``compulsory=True`` every four
    is set aside at once, without asking.

    >>> from cheatrules.cards import cards
    >>> AfterPickup().after_pickup(cards("Q♣ Q♦ Q♥ Q♠ 7♣")), AfterPickup().after_pickup(cards("7♣"))
    ((Rank.QUEEN,), ())
    """

    compulsory: bool = attrs.field(default=False, converter=checks.to_flag, validator=checks.flag())
    sets_fours_aside: ClassVar[bool] = True

    @property
    def asks_after_pickup(self) -> bool:
        """Whether the taker is asked about fours, which it is unless every four goes at once."""
        return not self.compulsory

    def after_pickup(self, hand: tuple[Card, ...]) -> tuple[Rank, ...] | None:
        """Every complete four in the hand (an empty tuple when there is none)."""
        return complete_fours(hand)

    def on_turn(self, hand: tuple[Card, ...]) -> tuple[Rank, ...]:
        """Nothing: fours wait for a pickup."""
        return ()


@attrs.frozen
class AnyTime:
    """Fours may be set aside at any of the player's turns, before laying cards.

    >>> from cheatrules.cards import cards
    >>> AnyTime().on_turn(cards("Q♣ Q♦ Q♥ Q♠ 7♣")), AnyTime().after_pickup(cards("7♣")) is None
    ((Rank.QUEEN,), True)
    """

    compulsory: ClassVar[bool] = False
    sets_fours_aside: ClassVar[bool] = True
    asks_after_pickup: ClassVar[bool] = False

    def after_pickup(self, hand: tuple[Card, ...]) -> tuple[Rank, ...] | None:
        """No separate decision after a pickup: the taker discards on its turn."""
        return None

    def on_turn(self, hand: tuple[Card, ...]) -> tuple[Rank, ...]:
        """Every complete four in the hand."""
        return complete_fours(hand)
