"""What a seat can deduce about where the hidden cards are.

It works from an :class:`~cheatrules.Observation` alone, never from the game
state.

:func:`card_knowledge` follows every physical card through the seat's log
and keeps the set of places it may be in: another player's hand, a group on
the table, the cards set aside, the discards. A card whose set has one place
is known for certain. Two simple deductions run after every event: a place
already filled by cards known to be there holds no other card, and a place
that exactly as many cards may be in as it holds holds all of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import attrs

from cheatrules.cards import Card, Rank
from cheatrules.errors import CheatRulesError
from cheatrules.events import (
    Dealt,
    Discarded,
    Drew,
    Event,
    PileTaken,
    Played,
    Revealed,
)
from cheatrules.observation import Observation

__all__ = ["CardKnowledge", "card_knowledge"]

# A place a card may be: ("hand", seat), ("group", index of its Played event),
# ("aside", 0), ("discarded", 0) or ("unused", 0) for cards a small fixed deal
# left out.
_Place = tuple[str, int]
_ASIDE: _Place = ("aside", 0)
_DISCARDED: _Place = ("discarded", 0)
_UNUSED: _Place = ("unused", 0)
_STOCK: _Place = ("stock", 0)


@attrs.frozen
class CardKnowledge:
    """What one seat knows for certain about where the cards are."""

    #: The seat whose knowledge this is.
    seat: int
    #: The cards known to be in each seat's hand (for the observing seat, its whole hand).
    hands: tuple[tuple[Card, ...], ...]
    #: The cards known to be on the table.
    pile: tuple[Card, ...]
    #: The cards set aside in fours.
    discarded: tuple[Card, ...]
    #: For each rank, how many of its cards this seat cannot place for certain.
    unseen: tuple[tuple[Rank, int], ...]

    def unseen_of(self, rank: Rank) -> int:
        """How many cards of ``rank`` this seat cannot place for certain."""
        return dict(self.unseen).get(rank, 0)


class _Tracker:
    """Every card copy of the deck, each with the set of places it may be in."""

    def __init__(self, seen: Observation, dealt: Dealt) -> None:
        deck = seen.rules.deck.cards()
        self.seat = seen.seat
        self.cards: list[Card] = list(deck)
        others = [
            ("hand", seat)
            for seat, size in enumerate(dealt.hand_sizes)
            if seat != self.seat and size
        ]
        capacity: dict[_Place, int] = {
            ("hand", seat): size for seat, size in enumerate(dealt.hand_sizes)
        }
        unknown: set[_Place] = set(others)
        if dealt.set_aside_count:
            capacity[_ASIDE] = dealt.set_aside_count
            unknown.add(_ASIDE)
        if dealt.stock_count:
            capacity[_STOCK] = dealt.stock_count
            unknown.add(_STOCK)
        unused = len(deck) - sum(dealt.hand_sizes) - dealt.set_aside_count - dealt.stock_count
        if unused:
            capacity[_UNUSED] = unused
            unknown.add(_UNUSED)
        capacity[_DISCARDED] = 0
        self.capacity = capacity
        self.places: list[set[_Place]] = [set(unknown) for _ in deck]
        for card in dealt.hands[self.seat]:
            self.pin(card, ("hand", self.seat), among=None)
        self.settle()

    def pin(self, card: Card, place: _Place, among: set[_Place] | None) -> None:
        """Fix one copy of ``card`` at ``place``: one still unplaced, that may be in ``among``."""
        wanted = {place} | (among or set())
        copies = [index for index, value in enumerate(self.cards) if value == card]
        chosen = min(
            copies,
            key=lambda index: (
                self.places[index] == {place},  # already placed there: another copy is meant
                not self.places[index] & wanted,
                len(self.places[index]) == 1,
            ),
        )
        self.places[chosen] = {place}

    def gather(self, cards: tuple[Card, ...], table: set[_Place], hand: _Place) -> None:
        """The observer took the pile and saw ``cards``: exactly those copies were on the table."""
        chosen: set[int] = set()
        for card in cards:
            copies = [i for i, value in enumerate(self.cards) if value == card and i not in chosen]
            best = min(
                copies,
                key=lambda i: (not self.places[i] & table, len(self.places[i]) > 1),
            )
            chosen.add(best)
            self.places[best] = {hand}
        for index, places in enumerate(self.places):
            if index not in chosen and places & table:
                places -= table

    def move(self, source: set[_Place], target: _Place) -> None:
        """Every card that may be in ``source`` may now be in ``target`` instead."""
        for places in self.places:
            if places & source:
                places -= source
                places.add(target)

    def spread(self, source: _Place, target: _Place) -> None:
        """Every card that may be in ``source`` may now be in ``target`` as well."""
        for places in self.places:
            if source in places:
                places.add(target)

    def settle(self) -> None:
        """Apply the two deductions until nothing changes."""
        changed = True
        while changed:
            changed = False
            certain = Counter(next(iter(places)) for places in self.places if len(places) == 1)
            possible = Counter(place for places in self.places for place in places)
            for place, size in self.capacity.items():
                if certain[place] >= size:
                    for places in self.places:
                        if place in places and len(places) > 1:
                            places.discard(place)
                            changed = True
                elif possible[place] == size:
                    for places in self.places:
                        if place in places and len(places) > 1:
                            places.intersection_update({place})
                            changed = True

    def follow(self, events: Iterable[Event]) -> None:
        table: list[_Place] = []
        for index, event in enumerate(events):
            if isinstance(event, Played):
                group: _Place = ("group", index)
                table.append(group)
                self.capacity[group] = event.count
                hand: _Place = ("hand", event.seat)
                self.capacity[hand] -= event.count
                if event.seat == self.seat:
                    for card in event.cards:
                        self.pin(card, group, among={hand})
                else:
                    self.spread(hand, group)
            elif isinstance(event, Revealed):
                shown = table[-2] if event.earlier else table[-1]
                for card in event.cards:
                    self.pin(card, shown, among={shown})
            elif isinstance(event, Drew):
                hand = ("hand", event.seat)
                self.capacity[_STOCK] -= event.count
                self.capacity[hand] += event.count
                if event.seat == self.seat:
                    for card in event.cards:
                        self.pin(card, hand, among={_STOCK})
                else:
                    self.spread(_STOCK, hand)
            elif isinstance(event, PileTaken):
                taker: _Place = ("hand", event.seat)
                self.capacity[taker] += event.count
                # A final play kept apart while the claim beneath it was
                # challenged stays on the table: the taker took fewer cards.
                kept = table[-1:] if event.count < sum(self.capacity[g] for g in table) else []
                taken = table[: len(table) - len(kept)]
                for group in taken:
                    del self.capacity[group]
                if event.seat == self.seat:
                    self.gather(event.cards, set(taken), taker)
                self.move(set(taken), taker)
                table = kept
            elif isinstance(event, Discarded) and event.cards:
                hand = ("hand", event.seat)
                self.capacity[hand] -= len(event.cards)
                self.capacity[_DISCARDED] += len(event.cards)
                for card in event.cards:
                    self.pin(card, _DISCARDED, among={hand})
            self.settle()


def card_knowledge(seen: Observation) -> CardKnowledge:
    """What the seat of ``seen`` knows for certain about where the cards are.

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    >>> state = state.apply(cr.Play("7♣ K♦", "A")).apply(cr.Challenge())  # seat 0 takes them back
    >>> known = card_knowledge(state.observe(2))
    >>> [str(card) for card in known.hands[0]]
    ['7♣', 'K♦']
    """
    dealt = seen.events[0]
    if not isinstance(dealt, Dealt):
        raise CheatRulesError("an observation's log starts with the deal")
    if seen.rules.deck.packs > 1:
        return _plain_knowledge(seen)
    tracker = _Tracker(seen, dealt)
    tracker.follow(seen.events)
    where: dict[_Place, list[Card]] = {}
    unseen: Counter[Rank] = Counter()
    for card, places in zip(tracker.cards, tracker.places, strict=True):
        if len(places) == 1:
            where.setdefault(next(iter(places)), []).append(card)
        else:
            unseen[card.rank] += 1
    return CardKnowledge(
        seat=seen.seat,
        hands=tuple(tuple(sorted(where.get(("hand", seat), ()))) for seat in range(seen.players)),
        pile=tuple(
            sorted(card for place, found in where.items() if place[0] == "group" for card in found)
        ),
        discarded=tuple(sorted(where.get(_DISCARDED, ()))),
        unseen=tuple(sorted(unseen.items())),
    )


def _plain_knowledge(seen: Observation) -> CardKnowledge:
    """Knowledge with two or more packs: the seat's own cards and the discards only.

    With several copies of every card, which copy went where cannot be told
    apart from the log, so no deduction about other hands is made.
    """
    mine_on_table: list[Card] = []
    for event in seen.events:
        if isinstance(event, Played) and event.seat == seen.seat:
            mine_on_table.extend(event.cards)
        elif isinstance(event, PileTaken):
            mine_on_table = []
    placed = Counter(seen.hand) + Counter(mine_on_table) + Counter(seen.discarded)
    unseen = Counter(seen.rules.deck.cards()) - placed
    by_rank: Counter[Rank] = Counter()
    for card, count in unseen.items():
        by_rank[card.rank] += count
    return CardKnowledge(
        seat=seen.seat,
        hands=tuple(seen.hand if seat == seen.seat else () for seat in range(seen.players)),
        pile=tuple(sorted(mine_on_table)),
        discarded=tuple(sorted(seen.discarded)),
        unseen=tuple(sorted(by_rank.items())),
    )
