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


def _hand_size(instance: Any, attribute: attrs.Attribute[int | None], value: int | None) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        raise RulesError(f"hand_size must be None or a whole number of at least 1; got {value!r}")


@attrs.frozen
class Dealing:
    """How the deck is dealt: ``set_aside`` cards are first put out of play, unseen.

    The rest is dealt one card at a time clockwise, starting with the
    dealer's left neighbour, until the deck is spent. With ``hand_size``
    (the fixed hand with a stock), each player is dealt that many cards and
    the rest, face down, is the stock: a player who loses a challenge (after
    taking the pile) or passes draws ``draws`` cards from its top, as many as
    are left once it runs low, and none once it is empty.

    >>> Dealing(hand_size=7).stock(deck_size=52, players=4)
    24
    """

    set_aside: int = attrs.field(default=0, validator=_not_negative)
    hand_size: int | None = attrs.field(default=None, validator=_hand_size)
    draws: int = attrs.field(default=1, validator=_not_negative)

    def stock(self, deck_size: int, players: int) -> int:
        """How many cards form the stock (0 when the whole deck is dealt)."""
        if self.hand_size is None:
            return 0
        return deck_size - self.set_aside - self.hand_size * players


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
