"""What happens in a game, as frozen event values, each knowing who may see it.

A game's log (:attr:`GameState.events`) is a sequence of these, oldest first.
``str(event)`` narrates it in plain English, for terminals and tutorials:

>>> from cheatrules.cards import Rank, cards
>>> played = Played(2, cards("7♣ K♦"), Rank.SEVEN)
>>> str(played)
'seat 2 lays 2 cards: two 7s'
>>> str(Revealed(2, cards("7♣ K♦"), Rank.SEVEN, truthful=False))
'seat 2 showed 7♣ K♦: a lie'

Every event says who may see its cards (:attr:`Event.visibility`), and
:meth:`Event.seen_by` gives the event as one seat saw it, hidden cards
removed and their number kept:

>>> played.visibility, played.seen_by(3)
(Visibility.SEAT, Played(seat=2, cards=(), rank=Rank.SEVEN, count=2))
"""

from __future__ import annotations

import enum
from typing import ClassVar

import attrs

from cheatrules.cards import Card, Rank
from cheatrules.errors import N_, RulesError, either

__all__ = [
    "KINDS",
    "Accepted",
    "Challenged",
    "Dealt",
    "Discarded",
    "Drew",
    "Event",
    "GameOver",
    "Passed",
    "PileTaken",
    "Played",
    "Refused",
    "Revealed",
    "Visibility",
    "WentOut",
    "describe_claim",
    "positions_in",
]

_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def describe_claim(count: int, rank: Rank) -> str:
    """Say a claim the way a player announces it: ``"one Ace"``, ``"two 7s"``.

    >>> describe_claim(1, Rank.ACE), describe_claim(3, Rank.QUEEN)
    ('one Ace', 'three Queens')
    """
    word = _COUNT_WORDS[count] if count < len(_COUNT_WORDS) else str(count)
    return f"{word} {rank.singular if count == 1 else rank.plural}"


def positions_in(group: tuple[Card, ...], shown: tuple[Card, ...]) -> tuple[int, ...]:
    """The places in ``group`` of the cards ``shown``, in order: a reveal's ``positions``.

    A check answers with cards; the log keeps its answer as places, whatever
    the check's shape. Copies of one card take the first free places.

    >>> from cheatrules.cards import cards
    >>> positions_in(cards("7♣ 7♣ K♦"), cards("K♦ 7♣"))
    (2, 0)

    Raises:
        RulesError: a card shown is not in the group (or more often than it is).

    """
    free = list(range(len(group)))
    places = []
    for card in shown:
        place = next((place for place in free if group[place] == card), None)
        if place is None:
            raise RulesError(
                N_("the check turned over %(card)s, which the challenged group does not hold"),
                card=card,
            )
        free.remove(place)
        places.append(place)
    return tuple(places)


def _show(cards: tuple[Card, ...]) -> str:
    return " ".join(map(str, cards))


class Visibility(enum.Enum):
    """Who may see the cards an event names."""

    #: Every seat sees everything in the event.
    EVERYONE = "everyone"
    #: One seat sees the cards (the one who laid, took or was dealt them); the others see how many.
    SEAT = "seat"
    #: Nobody sees the cards (the card set aside at the deal).
    NOBODY = "nobody"

    def __repr__(self) -> str:
        return f"Visibility.{self.name}"


@attrs.frozen
class Event:
    """Base class of every event."""

    #: Who may see the cards this kind of event names.
    visibility: ClassVar[Visibility] = Visibility.EVERYONE

    def seen_by(self, seat: int) -> Event:
        """The event as ``seat`` saw it: cards that seat did not see are left out."""
        return self


def _sizes(instance: Dealt) -> tuple[int, ...]:
    return tuple(len(hand) for hand in instance.hands)


def _count_cards(instance: Played | PileTaken | Drew) -> int:
    return len(instance.cards)


def _count_aside(instance: Dealt) -> int:
    return len(instance.set_aside)


def _every_position(instance: Revealed) -> tuple[int, ...]:
    return tuple(range(len(instance.cards)))


@attrs.frozen
class Dealt(Event):
    """The cards were dealt: ``hands[seat]`` to each seat, ``set_aside`` put out of play unseen.

    Each seat sees its own hand and every hand's size; nobody sees the cards
    set aside, nor the stock. As a seat saw it, the other hands are empty and ``set_aside``
    is empty, while ``hand_sizes`` and ``set_aside_count`` keep the numbers.
    """

    visibility: ClassVar[Visibility] = Visibility.SEAT

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    set_aside: tuple[Card, ...] = ()
    hand_sizes: tuple[int, ...] = attrs.field(
        default=attrs.Factory(_sizes, takes_self=True), kw_only=True
    )
    set_aside_count: int = attrs.field(
        default=attrs.Factory(_count_aside, takes_self=True), kw_only=True
    )
    #: The stock, top first (the fixed-hand variation); nobody sees it.
    stock: tuple[Card, ...] = attrs.field(default=(), kw_only=True)
    stock_count: int = attrs.field(
        default=attrs.Factory(lambda self: len(self.stock), takes_self=True), kw_only=True
    )

    def seen_by(self, seat: int) -> Dealt:
        """Only ``seat``'s own hand, and the numbers."""
        hands = tuple(hand if index == seat else () for index, hand in enumerate(self.hands))
        return Dealt(
            self.dealer,
            hands,
            (),
            hand_sizes=self.hand_sizes,
            set_aside_count=self.set_aside_count,
            stock_count=self.stock_count,
        )

    def __str__(self) -> str:
        sizes = ", ".join(map(str, self.hand_sizes))
        aside = f"; {self.set_aside_count} set aside" if self.set_aside_count else ""
        stock = f"; {self.stock_count} in the stock" if self.stock_count else ""
        return f"seat {self.dealer} deals {sizes} cards{aside}{stock}"


@attrs.frozen
class Played(Event):
    """``seat`` laid ``cards`` face down announcing ``count`` cards of ``rank``.

    Only ``seat`` sees the cards; the others see the claim (``count`` and
    ``rank``), and in their view ``cards`` is empty.
    """

    visibility: ClassVar[Visibility] = Visibility.SEAT

    seat: int
    cards: tuple[Card, ...]
    rank: Rank
    count: int = attrs.field(default=attrs.Factory(_count_cards, takes_self=True))

    def seen_by(self, seat: int) -> Played:
        """The claim alone, unless ``seat`` laid the cards."""
        return self if seat == self.seat else Played(self.seat, (), self.rank, self.count)

    def __str__(self) -> str:
        count = self.count
        return (
            f"seat {self.seat} lays {count} card{'s' if count != 1 else ''}: "
            f"{describe_claim(count, self.rank)}"
        )


@attrs.frozen
class Accepted(Event):
    """``seat`` let the last claim stand, or agreed to a pass.

    Where the rules want every opponent's consent to a pass, the last
    acceptance asked for names the ``passer`` whose pass takes effect with
    it, so that no reader works out which acceptance completed the pass;
    every other acceptance has ``passer`` ``None``.
    """

    seat: int
    passer: int | None = attrs.field(default=None, kw_only=True)

    def __str__(self) -> str:
        return f"seat {self.seat} accepts"


@attrs.frozen
class Challenged(Event):
    """``seat`` challenged the claim ``declarer`` made last (or the one before, if ``earlier``)."""

    seat: int
    declarer: int
    earlier: bool = False

    def __str__(self) -> str:
        which = "'s earlier claim" if self.earlier else ""
        return f"seat {self.seat} challenges seat {self.declarer}{which}"


@attrs.frozen
class Passed(Event):
    """``seat`` passed its turn (or, where the rules want consent, asked to)."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} passes"


@attrs.frozen
class Refused(Event):
    """``seat`` refused the pass asked for; the player asking must lay cards."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} refuses the pass"


@attrs.frozen
class Revealed(Event):
    """Cards of the challenged group turned over for all to see: ``seat`` laid them as ``rank``.

    ``cards`` are the cards the rules' check turned over: the whole group,
    or some of its cards (a one-card check's one). ``earlier`` marks the
    group beneath the newest (an extended window). ``positions`` are the
    places of those cards in the group, as the table holds it (its cards
    sorted), in the order shown, so that a check of any shape says which
    cards it turned over; copies of one card take the first places that
    hold it. ``drawn`` says whether chance chose them.

    Every seat sees the cards and the verdict. Where chance chose them, the
    other seats' view has no ``positions`` (empty): a place in a sorted
    group they cannot see would tell them how its other cards rank.

    >>> from cheatrules.cards import cards
    >>> shown = Revealed(1, cards("K♦"), Rank.SEVEN, False, positions=(1,), drawn=True)
    >>> shown.seen_by(1).positions, shown.seen_by(0).positions
    ((1,), ())
    """

    seat: int
    cards: tuple[Card, ...]
    rank: Rank
    truthful: bool
    earlier: bool = False
    positions: tuple[int, ...] = attrs.field(
        default=attrs.Factory(_every_position, takes_self=True), kw_only=True
    )
    drawn: bool = attrs.field(default=False, kw_only=True)

    def seen_by(self, seat: int) -> Revealed:
        """Everything, but the places chance chose for any seat but the one that laid the group."""
        if self.drawn and seat != self.seat and self.positions:
            return attrs.evolve(self, positions=())
        return self

    def __str__(self) -> str:
        return (
            f"seat {self.seat} showed {_show(self.cards)}: {'true' if self.truthful else 'a lie'}"
        )


@attrs.frozen
class PileTaken(Event):
    """``seat`` took the pile (``cards``, oldest first) into their hand.

    That is every card on the table, but for a final play kept apart while
    the claim beneath it was challenged (an extended window): it stays.
    ``groups`` is how many groups the taker took, the oldest on the table,
    and ``kept`` how many stay on the table, the newest (0 unless a final
    play is kept apart), so that no reader works out the pickup rule again.

    Only the taker sees them, and only as a gathered heap: in the taker's view
    ``cards`` is sorted, not in the order they were laid, so it does not tell
    who laid which. In the others' view ``cards`` is empty and ``count``
    keeps the number (they know the cards they laid themselves and those
    turned over, from earlier events).
    """

    visibility: ClassVar[Visibility] = Visibility.SEAT

    seat: int
    cards: tuple[Card, ...]
    count: int = attrs.field(default=attrs.Factory(_count_cards, takes_self=True))
    groups: int = attrs.field(default=1, kw_only=True)
    kept: int = attrs.field(default=0, kw_only=True)

    def seen_by(self, seat: int) -> PileTaken:
        """The cards as a sorted heap for the taker; the numbers alone for the others."""
        cards = tuple(sorted(self.cards)) if seat == self.seat else ()
        return PileTaken(self.seat, cards, self.count, groups=self.groups, kept=self.kept)

    def __str__(self) -> str:
        count = self.count
        return f"seat {self.seat} takes {count} card{'s' if count != 1 else ''}"


@attrs.frozen
class Drew(Event):
    """``seat`` drew ``cards`` from the stock (the fixed-hand variation).

    Only the drawer sees them; the others see how many (``count``).
    """

    visibility: ClassVar[Visibility] = Visibility.SEAT

    seat: int
    cards: tuple[Card, ...]
    count: int = attrs.field(default=attrs.Factory(_count_cards, takes_self=True))

    def seen_by(self, seat: int) -> Drew:
        """The cards for the drawer; the number alone for the others."""
        return self if seat == self.seat else Drew(self.seat, (), self.count)

    def __str__(self) -> str:
        count = self.count
        return f"seat {self.seat} draws {count} card{'s' if count != 1 else ''} from the stock"


@attrs.frozen
class Discarded(Event):
    """``seat`` showed and set aside one complete four of each rank in ``ranks`` (``cards``).

    ``ranks`` is empty when the player declined to discard. The fours are
    shown to everyone. ``forced`` marks fours the rules set aside without
    asking (compulsory discards), which no action of the player's caused.
    """

    seat: int
    ranks: tuple[Rank, ...]
    cards: tuple[Card, ...] = ()
    forced: bool = False

    def __str__(self) -> str:
        if not self.ranks:
            return f"seat {self.seat} discards nothing"
        fours = either([f"four {rank.plural}" for rank in self.ranks], "and")
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
            return str(either([f"seat {seat}" for seat in group], "and"))

        if len(self.winners) == 1 and len(self.losers) == 1:
            return f"game over: {seats(self.winners)} wins, {seats(self.losers)} loses"
        if len(self.winners) == 1:
            return f"game over: {seats(self.winners)} wins"
        verb = "loses" if len(self.losers) == 1 else "lose"
        return f"game over: {seats(self.losers)} {verb}"


#: Every kind of event, in the order a game first makes them.
KINDS: tuple[type[Event], ...] = (
    Dealt,
    Played,
    Accepted,
    Challenged,
    Revealed,
    PileTaken,
    Drew,
    Discarded,
    Passed,
    Refused,
    WentOut,
    GameOver,
)
