"""The deal: cards set aside, and who opens the game."""

from __future__ import annotations

from typing import Any, Protocol

import attrs

from cheatrules import _checks as checks
from cheatrules.cards import Card, cards, holdable
from cheatrules.errors import N_, CardError, RulesError

__all__ = ["DealersLeft", "Dealing", "HolderOf", "Opening"]


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

    set_aside: int = attrs.field(default=0, converter=checks.index, validator=checks.whole(0))
    hand_size: int | None = attrs.field(
        default=None,
        converter=attrs.converters.optional(checks.index),
        validator=checks.optional(checks.whole(1), "None for no stock"),
    )
    draws: int = attrs.field(default=1, converter=checks.index, validator=checks.whole(0))

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
    """A card from its text; anything else unchanged, for the validator to refuse."""
    if isinstance(value, str):
        try:
            found = cards(value)
        except CardError:
            return value  # type: ignore[return-value]
        if len(found) == 1:
            return found[0]
    return value  # type: ignore[return-value]


def _is_card(instance: Any, attribute: Any, value: Any) -> None:
    # Only a card some deck holds (no joker of clubs), so that records can name it.
    if not isinstance(value, Card) or not holdable(value.rank, value.suit):
        raise RulesError(
            N_("%(owner)s.%(field)s must be one card such as 'A♠'; got %(got)s"),
            owner=type(instance).__name__,
            field=attribute.name,
            got=repr(value),
        )


@attrs.frozen
class HolderOf:
    """The player dealt ``card`` opens; the dealer's left if nobody holds it.

    >>> from cheatrules.cards import cards
    >>> HolderOf("A♠").first(3, (cards("7♣"), cards("A♠ 2♦"), cards("K♥"), cards("Q♠")))
    1
    """

    card: Card = attrs.field(converter=_one_card, validator=_is_card)

    def first(self, dealer: int, hands: tuple[tuple[Card, ...], ...]) -> int:
        """The first seat clockwise from the dealer's left holding the card."""
        players = len(hands)
        for step in range(1, players + 1):
            seat = (dealer + step) % players
            if self.card in hands[seat]:
                return seat
        return (dealer + 1) % players
