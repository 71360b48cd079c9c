"""The deal: cards set aside, and who opens the game."""

from __future__ import annotations

from typing import Any, Protocol

import attrs

from cheatrules.cards import Card, cards
from cheatrules.errors import RulesError

__all__ = ["DealersLeft", "Dealing", "HolderOf", "Opening"]


def _not_negative(instance: Any, attribute: attrs.Attribute[int], value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RulesError(f"{attribute.name} must be a whole number of at least 0; got {value!r}")


@attrs.frozen
class Dealing:
    """How the deck is dealt: ``set_aside`` cards are first put out of play, unseen.

    The rest is dealt one card at a time clockwise, starting with the
    dealer's left neighbour, until the deck is spent.
    """

    set_aside: int = attrs.field(default=0, validator=_not_negative)


class Opening(Protocol):
    """Decides who makes the first claim of a game."""

    def first(self, dealer: int, hands: tuple[tuple[Card, ...], ...]) -> int:
        """The seat that opens, given the dealer and the hands as dealt."""
        ...


@attrs.frozen
class DealersLeft:
    """The dealer's left neighbour opens (the player who received the first card).

    >>> DealersLeft().first(3, ((), (), (), ()))
    0
    """

    def first(self, dealer: int, hands: tuple[tuple[Card, ...], ...]) -> int:
        """The seat after the dealer."""
        return (dealer + 1) % len(hands)


def _one_card(value: Card | str) -> Card:
    if isinstance(value, Card):
        return value
    found = cards(value)
    if len(found) != 1:
        raise RulesError(f"HolderOf names one card, such as 'A♠'; got {value!r}")
    return found[0]


@attrs.frozen
class HolderOf:
    """The player dealt ``card`` opens; the dealer's left if nobody holds it.

    >>> from cheatrules.cards import cards
    >>> HolderOf("A♠").first(3, (cards("7♣"), cards("A♠ 2♦"), cards("K♥"), cards("Q♠")))
    1
    """

    card: Card = attrs.field(converter=_one_card)

    def first(self, dealer: int, hands: tuple[tuple[Card, ...], ...]) -> int:
        """The first seat clockwise from the dealer's left holding the card."""
        players = len(hands)
        for step in range(1, players + 1):
            seat = (dealer + step) % players
            if self.card in hands[seat]:
                return seat
        return (dealer + 1) % players
