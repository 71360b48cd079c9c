"""What happens in a game, as frozen event values.

A game's log (:attr:`GameState.events`) is a sequence of these, oldest first.
``str(event)`` narrates it in plain English, for terminals and tutorials:

>>> from cheatrules.cards import Rank, cards
>>> str(Played(2, cards("7♣ K♦"), Rank.SEVEN))
'seat 2 lays 2 cards: two 7s'
>>> str(Revealed(2, cards("7♣ K♦"), Rank.SEVEN, truthful=False))
'seat 2 showed 7♣ K♦: a lie'
"""

from __future__ import annotations

import attrs

from cheatrules.cards import Card, Rank

__all__ = [
    "Accepted",
    "Challenged",
    "Dealt",
    "Discarded",
    "Event",
    "GameOver",
    "PileTaken",
    "Played",
    "Revealed",
    "WentOut",
    "describe_claim",
]

_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def describe_claim(count: int, rank: Rank) -> str:
    """Say a claim the way a player announces it: ``"one Ace"``, ``"two 7s"``.

    >>> describe_claim(1, Rank.ACE), describe_claim(3, Rank.QUEEN)
    ('one Ace', 'three Queens')
    """
    word = _COUNT_WORDS[count] if count < len(_COUNT_WORDS) else str(count)
    return f"{word} {rank.singular if count == 1 else rank.plural}"


def _show(cards: tuple[Card, ...]) -> str:
    return " ".join(map(str, cards))


@attrs.frozen
class Event:
    """Base class of every event."""


@attrs.frozen
class Dealt(Event):
    """The cards were dealt: ``hands[seat]`` to each seat, ``set_aside`` put out of play unseen."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    set_aside: tuple[Card, ...] = ()

    def __str__(self) -> str:
        sizes = ", ".join(str(len(hand)) for hand in self.hands)
        aside = f"; {len(self.set_aside)} set aside" if self.set_aside else ""
        return f"seat {self.dealer} deals {sizes} cards{aside}"


@attrs.frozen
class Played(Event):
    """``seat`` laid ``cards`` face down announcing ``len(cards)`` cards of ``rank``."""

    seat: int
    cards: tuple[Card, ...]
    rank: Rank

    @property
    def count(self) -> int:
        """The number of cards laid and announced."""
        return len(self.cards)

    def __str__(self) -> str:
        count = len(self.cards)
        return (
            f"seat {self.seat} lays {count} card{'s' if count != 1 else ''}: "
            f"{describe_claim(count, self.rank)}"
        )


@attrs.frozen
class Accepted(Event):
    """``seat`` let the last claim stand."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} accepts"


@attrs.frozen
class Challenged(Event):
    """``seat`` challenged the claim ``declarer`` made last."""

    seat: int
    declarer: int

    def __str__(self) -> str:
        return f"seat {self.seat} challenges seat {self.declarer}"


@attrs.frozen
class Revealed(Event):
    """The challenged group was turned over: ``seat`` had laid ``cards`` as ``rank``."""

    seat: int
    cards: tuple[Card, ...]
    rank: Rank
    truthful: bool

    def __str__(self) -> str:
        return (
            f"seat {self.seat} showed {_show(self.cards)}: {'true' if self.truthful else 'a lie'}"
        )


@attrs.frozen
class PileTaken(Event):
    """``seat`` took every card on the table (``cards``, oldest first) into their hand."""

    seat: int
    cards: tuple[Card, ...]

    @property
    def count(self) -> int:
        """The number of cards taken."""
        return len(self.cards)

    def __str__(self) -> str:
        count = len(self.cards)
        return f"seat {self.seat} takes {count} card{'s' if count != 1 else ''}"


@attrs.frozen
class Discarded(Event):
    """``seat`` showed and set aside one complete four of each rank in ``ranks`` (``cards``).

    ``ranks`` is empty when the player declined to discard.
    """

    seat: int
    ranks: tuple[Rank, ...]
    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        if not self.ranks:
            return f"seat {self.seat} keeps their fours"
        fours = ", ".join(f"four {rank.plural}" for rank in self.ranks)
        return f"seat {self.seat} discards {fours}"


@attrs.frozen
class WentOut(Event):
    """``seat`` emptied their hand for good and left the game."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} goes out"


@attrs.frozen
class GameOver(Event):
    """The game ended with these winners and losers."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]

    def __str__(self) -> str:
        def seats(group: tuple[int, ...]) -> str:
            return ", ".join(f"seat {seat}" for seat in group)

        if len(self.winners) == 1 and len(self.losers) == 1:
            return f"game over: {seats(self.winners)} wins, {seats(self.losers)} loses"
        if len(self.winners) == 1:
            return f"game over: {seats(self.winners)} wins"
        return f"game over: {seats(self.losers)} loses"
