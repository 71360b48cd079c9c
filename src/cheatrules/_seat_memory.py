"""What one seat remembers of a game: its log as it saw it, folded event by event.

:class:`Memory` is the state of that fold: which of the cards the seat has
seen are where it last saw them (on the table in its own groups, turned
over on the table, gone into another seat's hand with a pile, set aside),
the groups on the table, and what each seat has done (claims, challenges,
claims shown true or false, piles taken, passes). It reads only the events
as the seat saw them, so two views that differ in cards the seat never saw
fold to the same memory.

A fold goes on from an earlier one: :meth:`Memory.copy` and then
:meth:`Memory.fold` the newer events, so a game's memory costs the events
since the last fold, not the whole log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from cheatrules.cards import Card
from cheatrules.events import (
    Challenged,
    Dealt,
    Discarded,
    Drew,
    Event,
    Passed,
    PileTaken,
    Played,
    Revealed,
)

__all__ = ["Group", "Memory"]

#: A group on the table: the seat that laid it, its size, and the cards of it the seat
#: knows (those it laid itself, or those turned over in a challenge), and whether they
#: were turned over.
Group = tuple[int, int, tuple[Card, ...], bool]


class Memory:
    """The fold of one seat's log, oldest event first; copy before folding more."""

    __slots__ = (
        "challenges",
        "claims",
        "copies",
        "discarded",
        "events",
        "groups",
        "hand",
        "last_revealed",
        "lies",
        "passes",
        "pickups",
        "seat",
        "taken",
        "truths",
    )

    def __init__(self, seat: int, players: int, copies: dict[Card, int]) -> None:
        self.seat = seat
        #: How many copies of each card the deck holds.
        self.copies = copies
        self.events = 0
        self.hand: Counter[Card] = Counter()
        self.discarded: Counter[Card] = Counter()
        self.groups: list[Group] = []
        #: taken[s][card]: copies the seat last saw go into seat s's hand with a pile.
        self.taken: list[Counter[Card]] = [Counter() for _ in range(players)]
        self.claims = [0] * players
        self.challenges = [0] * players
        self.lies = [0] * players
        self.truths = [0] * players
        self.pickups = [0] * players
        #: Passes by each seat since the last claim.
        self.passes = [0] * players
        self.last_revealed: tuple[Card, ...] = ()

    def copy(self) -> Memory:
        """A copy to fold more events into, leaving this one as it is."""
        other = Memory.__new__(Memory)
        for name in ("seat", "copies", "events", "last_revealed"):
            setattr(other, name, getattr(self, name))
        other.hand, other.discarded = Counter(self.hand), Counter(self.discarded)
        other.groups = list(self.groups)
        other.taken = [Counter(seat) for seat in self.taken]
        for name in ("claims", "challenges", "lies", "truths", "pickups", "passes"):
            setattr(other, name, list(getattr(self, name)))
        return other

    def fold(self, events: Iterable[Event]) -> None:
        """Take in ``events``, as the seat saw them, oldest first."""
        for event in events:
            self.events += 1
            if isinstance(event, Played):
                self._played(event)
            elif isinstance(event, Revealed):
                self._revealed(event)
            elif isinstance(event, PileTaken):
                self._taken(event)
            elif isinstance(event, Discarded):
                if event.seat == self.seat:
                    self.hand.subtract(event.cards)
                else:
                    self._came_back(event.seat, event.cards)
                self.discarded.update(event.cards)
                self._settle(event.cards)
            elif isinstance(event, Challenged):
                self.challenges[event.seat] += 1
            elif isinstance(event, Passed):
                self.passes[event.seat] += 1
            elif isinstance(event, Dealt):
                self.hand = Counter(event.hands[self.seat])
                self._settle(event.hands[self.seat])
            elif isinstance(event, Drew) and event.seat == self.seat:
                self.hand.update(event.cards)
                self._settle(event.cards)

    def _played(self, event: Played) -> None:
        mine = event.seat == self.seat
        if mine:
            self.hand.subtract(event.cards)
        self.groups.append((event.seat, event.count, event.cards if mine else (), False))
        self.claims[event.seat] += 1
        self.passes = [0] * len(self.passes)

    def _revealed(self, event: Revealed) -> None:
        (self.truths if event.truthful else self.lies)[event.seat] += 1
        self.last_revealed = event.cards
        where = len(self.groups) - (2 if event.earlier else 1)
        if not 0 <= where < len(self.groups):
            return
        seat, count, known, _ = self.groups[where]
        if seat != self.seat:
            self._came_back(seat, event.cards)
            known = event.cards
        self.groups[where] = (seat, count, known, True)
        self._settle(event.cards)

    def _taken(self, event: PileTaken) -> None:
        self.pickups[event.seat] += 1
        self.passes = [0] * len(self.passes)
        # The pickup says which groups it took: the oldest ones (the rest stay).
        taken: list[Card] = []
        for _, _, known, _ in self.groups[: event.groups]:
            taken += known
        del self.groups[: event.groups]
        if event.seat == self.seat:
            self.hand.update(event.cards)
            self._settle(event.cards)
        else:
            self.taken[event.seat].update(taken)

    def _came_back(self, seat: int, cards: Iterable[Card]) -> None:
        """``cards`` came out of ``seat``'s hand: copies last seen going there are there no more."""
        gone = self.taken[seat]
        for card in cards:
            if gone[card] > 0:
                gone[card] -= 1

    def _settle(self, cards: Iterable[Card]) -> None:
        """No copy is in two places: trim the copies last seen going into a hand, seat by seat."""
        for card in set(cards):
            placed = self.hand[card] + self.discarded[card]
            placed += sum(known.count(card) for _, _, known, _ in self.groups)
            spare = self.copies[card] - placed
            for gone in self.taken:
                have = gone[card]
                if have > spare:
                    gone[card] = max(spare, 0)
                spare -= gone[card]
