"""What a seat can deduce about where the hidden cards are.

It works from an :class:`~cheatrules.Observation` alone, never from the game
state.

With one pack, :func:`card_knowledge` follows every physical card through the
seat's log and keeps the set of places it may be in: another player's hand, a
group on the table, the cards set aside, the stock, the discards. A card
whose set has one place is known for certain. Two deductions run after every
event: a place already filled by cards known to be there holds no other
card, and a place that exactly as many cards may be in as it holds holds all
of them. With several packs the copies of a card cannot be told apart, so
copies are counted: each copy the seat saw go into a hand (turned over and
taken, or its own card taken) stays known there until that hand lays a
group the seat does not see, and comes back if the whole group is turned
over; the copies it saw on the table and in the discards are placed there.

A third deduction, a rank whose every copy is placed, bounds what the table
may hold: a group may hold no more cards of a rank than the copies that may
be in it (the cards the seat cannot place, less those it knows to be
elsewhere), so a claim of more is provably false
(:meth:`CardKnowledge.most_in_group`, :meth:`CardKnowledge.rules_out`).

The knowledge is kept as the game goes: each seat's is updated event by
event and shared between the successive observations of a game (as the
seat's log is), so :meth:`Observation.knowledge()
<cheatrules.Observation.knowledge>` costs about the same late in a game as
early, and equals the knowledge worked out from the whole log afresh.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

import attrs

from cheatrules._persistent import Log
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
from cheatrules.table import Claim

__all__ = ["CardKnowledge", "GroupKnowledge", "card_knowledge"]

# A place a card may be: ("hand", seat), ("group", n) for the n-th group laid
# in the game (counting from 0), ("aside", 0), ("stock", 0), ("discarded", 0),
# or ("unused", 0) for cards a small fixed deal left out.
_Place = tuple[str, int]
_Key = frozenset[_Place]
_ASIDE: _Place = ("aside", 0)
_DISCARDED: _Place = ("discarded", 0)
_UNUSED: _Place = ("unused", 0)
_STOCK: _Place = ("stock", 0)
_Counts = tuple[tuple[Rank, int], ...]


@attrs.frozen
class GroupKnowledge:
    """What one seat knows of one group on the table.

    >>> import cheatrules as cr
    >>> group = GroupKnowledge(3, cr.cards("K♦"), ((cr.Rank.KING, 1), (cr.Rank.SEVEN, 2)))
    >>> group.most(cr.Rank.KING), group.most(cr.Rank.SEVEN)
    (2, 2)
    """

    #: How many cards the group holds.
    size: int
    #: The cards known to be in it, sorted.
    known: tuple[Card, ...] = ()
    #: For each rank, how many of the cards the seat cannot place may be in it.
    unplaced: _Counts = ()

    def most(self, rank: Rank) -> int:
        """The most cards of the group that may stand as ``rank``: its cards and the jokers.

        A joker stands in for the announced rank (as
        :func:`~cheatrules.policies.holds` judges); ``Rank.JOKER`` counts the
        jokers alone.
        """
        counted = (rank, Rank.JOKER)
        known = sum(card.rank in counted for card in self.known)
        unplaced = sum(count for each, count in self.unplaced if each in counted)
        return known + min(self.size - len(self.known), unplaced)


@attrs.frozen
class CardKnowledge:
    """What one seat knows for certain about where the cards are.

    Built by :func:`card_knowledge` (or :meth:`Observation.knowledge()
    <cheatrules.Observation.knowledge>`); the fields after ``unseen`` may be
    left out of one built by hand, which then knows nothing of the table.
    """

    #: The seat whose knowledge this is.
    seat: int
    #: The cards known to be in each seat's hand (for the observing seat, its whole hand).
    hands: tuple[tuple[Card, ...], ...]
    #: The cards known to be on the table.
    pile: tuple[Card, ...]
    #: The cards set aside in fours.
    discarded: tuple[Card, ...]
    #: For each rank, how many of its cards this seat cannot place for certain.
    unseen: _Counts
    #: Each group on the table, oldest first (as ``table.claims``): its size, the cards
    #: known to be in it, and how many of the cards the seat cannot place may be in it.
    groups: tuple[GroupKnowledge, ...] = ()
    #: For each rank, how many of the cards this seat cannot place may be on the table.
    on_table: _Counts = ()

    def unseen_of(self, rank: Rank) -> int:
        """How many cards of ``rank`` this seat cannot place for certain."""
        return dict(self.unseen).get(rank, 0)

    def most_in_group(self, rank: Rank, group: int = -1) -> int:
        """The most cards that may stand as ``rank`` in one group on the table.

        Args:
            rank: The rank; a joker stands in for it (``Rank.JOKER``: the jokers alone).
            group: The group's index in ``table.claims`` (oldest first; -1 the newest).

        Returns:
            The cards of ``rank`` and jokers known to be in it, plus as many
            of those the seat cannot place that may be there, up to its size.
            A claim of more cards of ``rank`` is false whatever the hidden cards.

        Raises:
            IndexError: there is no such group on the table.


        >>> import cheatrules as cr
        >>> state = cr.deal(cr.verish(2), hands=["K♣ K♦ K♥ 7♣", "K♠ 8♣ 9♣"], hidden="6♣")
        >>> state = state.apply(cr.Play("K♣", "K")).apply(cr.Play("8♣ 9♣", "K"))
        >>> state.observe(0).knowledge().most_in_group(cr.Rank.KING)  # only K♠ is left
        1

        """
        return self.groups[group].most(rank)

    def most_on_table(self, rank: Rank) -> int:
        """The most cards on the table, all groups together, that may stand as ``rank``.

        It bounds the claims of ``rank`` on the table: if they add up to
        more, some of them are lies (jokers stand in, as in
        :meth:`most_in_group`).
        """
        counted = (rank, Rank.JOKER)
        known = sum(card.rank in counted for card in self.pile)
        unplaced = sum(count for each, count in self.on_table if each in counted)
        size = sum(group.size for group in self.groups)
        return known + min(size - len(self.pile), unplaced)

    def rules_out(self, claim: Claim, group: int = -1) -> bool:
        """Whether the seat can prove the claim of ``group`` false: more than may be there.

        More cards of its rank than :meth:`most_in_group` allows, so a check
        of the whole group finds a card of another rank. (Where a joker
        makes a whole group true, :class:`~cheatrules.policies.JokerProtects`,
        a group that may hold a joker, ``most_in_group(Rank.JOKER, group)``,
        may still be judged true.)

        >>> import cheatrules as cr
        >>> state = cr.deal(cr.verish(2), hands=["K♣ K♦ K♥ 7♣", "K♠ 8♣ 9♣"], hidden="6♣")
        >>> state = state.apply(cr.Play("K♣", "K")).apply(cr.Play("8♣ 9♣", "K"))
        >>> state.observe(0).knowledge().rules_out(state.last_claim)
        True
        """
        return claim.count > self.most_in_group(claim.rank, group)


def card_knowledge(seen: Observation) -> CardKnowledge:
    """What the seat of ``seen`` knows for certain about where the cards are.

    The observations of a game (from :meth:`GameState.observe
    <cheatrules.GameState.observe>`) share each seat's knowledge as they
    share its log: it is worked out from the events since the newest earlier
    observation whose knowledge was asked for, so each call costs about the
    same late in a game as early. Any other observation (loaded from a
    record, or built by hand) is worked out from its whole log once, and
    kept while the observation lives.

    Raises:
        CheatRulesError: the log does not start with the deal.


    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    >>> state = state.apply(cr.Play("7♣ K♦", "A")).apply(cr.Challenge())  # seat 0 takes them back
    >>> known = card_knowledge(state.observe(2))
    >>> [str(card) for card in known.hands[0]]
    ['7♣', 'K♦']

    """
    events = seen.events
    tracker = _shared_tracker(seen, events) if isinstance(events, Log) else _kept_tracker(seen)
    return tracker.public()


# -- where the trackers are kept -------------------------------------------------------

# How many trackers each seat's log lineage keeps (a search that observes
# sibling states finds their common ancestor's among them).
_KEPT = 32
_BOX = "knowledge"


def _shared_tracker(seen: Observation, events: Log[Event]) -> _Tracker:
    """The tracker after ``events``, extending the newest one kept for an earlier part of them."""
    box: dict[int, tuple[Any, int, Any, _Tracker]] = events.shared.setdefault(_BOX, {})
    deck = seen.rules.deck
    fresh: list[tuple[Event, ...]] = []
    node = events.chunks
    tracker: _Tracker | None = None
    while node is not None:
        hit = box.get(id(node))
        if hit is not None and hit[0] is node and hit[1] == seen.seat and hit[2] == deck:
            tracker = hit[3]
            break
        fresh.append(node[0])
        node = node[1]
    if tracker is None and not fresh:
        raise CheatRulesError("an observation's log starts with the deal")
    for chunk in reversed(fresh):
        tracker = _start(seen, chunk) if tracker is None else tracker.after(chunk)
    assert tracker is not None
    if fresh:
        box[id(events.chunks)] = (events.chunks, seen.seat, deck, tracker)
        if len(box) > _KEPT:
            del box[next(iter(box))]
    return tracker


# Trackers of observations whose log is not shared, by the observation's id
# while it lives.
_KEPT_BY_ID: dict[int, tuple[weakref.ref[Observation], _Tracker]] = {}


def _kept_tracker(seen: Observation) -> _Tracker:
    """The tracker of an observation with a log of its own, worked out once."""
    kept = _KEPT_BY_ID.get(id(seen))
    if kept is not None and kept[0]() is seen:
        return kept[1]
    tracker = _start(seen, tuple(seen.events))
    key = id(seen)
    _KEPT_BY_ID[key] = (weakref.ref(seen, lambda _: _KEPT_BY_ID.pop(key, None)), tracker)
    return tracker


def _start(seen: Observation, events: Sequence[Event]) -> _Tracker:
    """A tracker from the deal, the first of ``events``, followed through the rest."""
    dealt = events[0] if events else None
    if not isinstance(dealt, Dealt):
        raise CheatRulesError("an observation's log starts with the deal")
    tracker: _Tracker
    if seen.rules.deck.packs > 1:
        tracker = _Counted.dealt(seen, dealt)
    else:
        tracker = _PerCard.dealt(seen, dealt)
    return tracker.after(events[1:])


class _Tracker:
    """What one seat knows after some events; never changed once made (copy on write)."""

    __slots__ = ("_public", "players", "seat")

    def __init__(self, seat: int, players: int) -> None:
        self.seat = seat
        self.players = players
        self._public: CardKnowledge | None = None

    def after(self, events: Iterable[Event]) -> _Tracker:
        """The tracker after ``events``: this one when none of them tells anything."""
        raise NotImplementedError

    def public(self) -> CardKnowledge:
        """The :class:`CardKnowledge`, made on the first call."""
        if self._public is None:
            self._public = self._made()
        return self._public

    def _made(self) -> CardKnowledge:
        raise NotImplementedError


def _counts(ranks: Iterable[Rank]) -> _Counts:
    """How many of each rank, sorted by rank."""
    return tuple(sorted(Counter(ranks).items()))


# -- one pack: every card followed ---------------------------------------------------------


# The rank counts of a set of cards, by the set (the same sets recur from state to state).
_RANKS: dict[frozenset[Card], Counter[Rank]] = {}


def _ranks_of(cards: frozenset[Card]) -> Counter[Rank]:
    counts = _RANKS.get(cards)
    if counts is None:
        if len(_RANKS) >= 8192:
            _RANKS.clear()
        counts = _RANKS[cards] = Counter(card.rank for card in cards)
    return counts


class _PerCard(_Tracker):
    """One pack: the cards, in classes by the set of places each may be in.

    ``classes`` maps a set of places to the cards that may be in exactly
    those; a card in a class of one place is known to be there.
    ``capacity`` is how many cards each place holds; ``table`` the groups on
    it, oldest first; ``laid`` how many groups the game has seen laid.
    """

    __slots__ = ("capacity", "classes", "laid", "table")

    def __init__(
        self,
        seat: int,
        players: int,
        classes: dict[_Key, frozenset[Card]],
        capacity: dict[_Place, int],
        table: tuple[_Place, ...] = (),
        laid: int = 0,
    ) -> None:
        super().__init__(seat, players)
        self.classes = classes
        self.capacity = capacity
        self.table = table
        self.laid = laid

    @classmethod
    def dealt(cls, seen: Observation, dealt: Dealt) -> _PerCard:
        """Right after the deal: the seat's cards in its hand, any other anywhere unseen."""
        deck = seen.rules.deck.cards()
        seat = seen.seat
        capacity: dict[_Place, int] = {
            ("hand", each): size for each, size in enumerate(dealt.hand_sizes)
        }
        unknown = {("hand", each) for each, size in enumerate(dealt.hand_sizes) if each != seat}
        unused = len(deck) - sum(dealt.hand_sizes) - dealt.set_aside_count - dealt.stock_count
        for place, size in ((_ASIDE, dealt.set_aside_count), (_STOCK, dealt.stock_count)):
            if size:
                capacity[place] = size
                unknown.add(place)
        if unused:
            capacity[_UNUSED] = unused
            unknown.add(_UNUSED)
        capacity[_DISCARDED] = 0
        mine = frozenset(dealt.hands[seat])
        classes: dict[_Key, frozenset[Card]] = {}
        if mine:
            classes[frozenset({("hand", seat)})] = mine
        others = frozenset(deck) - mine
        if others:
            classes[frozenset(unknown)] = others
        tracker = cls(seat, seen.players, classes, capacity)
        tracker._settle()
        return tracker

    def _copy(self) -> _PerCard:
        return _PerCard(
            self.seat, self.players, dict(self.classes), dict(self.capacity), self.table, self.laid
        )

    def after(self, events: Iterable[Event]) -> _Tracker:
        """Each event that moves or shows a card applied to a copy, then both deductions."""
        copy: _PerCard | None = None
        for event in events:
            if not isinstance(event, (Played, Revealed, Drew, PileTaken, Discarded)):
                continue
            if isinstance(event, Discarded) and not event.cards:
                continue
            if copy is None:
                copy = self._copy()
            copy._follow(event)
            copy._settle()
        return self if copy is None else copy

    def _follow(self, event: Event) -> None:
        """Change this (fresh) copy by one event."""
        capacity = self.capacity
        if isinstance(event, Played):
            group: _Place = ("group", self.laid)
            self.laid += 1
            self.table += (group,)
            capacity[group] = event.count
            hand: _Place = ("hand", event.seat)
            capacity[hand] -= event.count
            if event.seat == self.seat:
                for card in event.cards:
                    self._pin(card, group)
            else:
                self._rekey(lambda key: key | {group} if hand in key else key)
        elif isinstance(event, Revealed):
            shown = self.table[-2] if event.earlier else self.table[-1]
            for card in event.cards:
                self._pin(card, shown)
        elif isinstance(event, Drew):
            hand = ("hand", event.seat)
            capacity[_STOCK] -= event.count
            capacity[hand] += event.count
            if event.seat == self.seat:
                for card in event.cards:
                    self._pin(card, hand)
            else:
                self._rekey(lambda key: key | {hand} if _STOCK in key else key)
        elif isinstance(event, PileTaken):
            self._take(event)
        elif isinstance(event, Discarded):
            capacity[("hand", event.seat)] -= len(event.cards)
            capacity[_DISCARDED] += len(event.cards)
            for card in event.cards:
                self._pin(card, _DISCARDED)

    def _take(self, event: PileTaken) -> None:
        """A seat takes the pile (all but a final play kept apart, if the count says so)."""
        taker: _Place = ("hand", event.seat)
        self.capacity[taker] += event.count
        table = self.table
        kept = table[-1:] if event.count < sum(self.capacity[g] for g in table) else ()
        taken = frozenset(table[: len(table) - len(kept)])
        for group in taken:
            del self.capacity[group]
        self.table = kept
        if event.seat == self.seat:
            # The taker saw the cards: exactly those were on the table.
            for card in event.cards:
                self._pin(card, taker)
            self._rekey(lambda key: (key - taken) or key if key & taken else key)
        else:
            self._rekey(lambda key: (key - taken) | {taker} if key & taken else key)

    def _pin(self, card: Card, place: _Place) -> None:
        """``card`` is known to be at ``place``."""
        classes = self.classes
        target = frozenset({place})
        for key, cards in classes.items():
            if card in cards:
                if key == target:
                    return
                rest = cards - {card}
                if rest:
                    classes[key] = rest
                else:
                    del classes[key]
                break
        classes[target] = classes.get(target, frozenset()) | {card}

    def _rekey(self, change: Any) -> None:
        """Give each class the set of places ``change(key)``, merging classes that meet."""
        classes: dict[_Key, frozenset[Card]] = {}
        for key, cards in self.classes.items():
            new = change(key)
            have = classes.get(new)
            classes[new] = cards if have is None else have | cards
        self.classes = classes

    def _settle(self) -> None:
        """Apply the two deductions until nothing changes."""
        while True:
            certain: dict[_Place, int] = {}
            possible: dict[_Place, int] = {}
            for key, cards in self.classes.items():
                size = len(cards)
                if len(key) == 1:
                    (only,) = key
                    certain[only] = certain.get(only, 0) + size
                for place in key:
                    possible[place] = possible.get(place, 0) + size
            full: set[_Place] = set()
            exact: set[_Place] = set()
            for place, size in self.capacity.items():
                sure, maybe = certain.get(place, 0), possible.get(place, 0)
                if maybe > sure:
                    if sure >= size:
                        full.add(place)  # filled by cards known to be there
                    elif maybe == size:
                        exact.add(place)  # every card that may be there is
            if not full and not exact:
                return
            self._rekey(partial(_narrowed, full=full, exact=exact))

    def _made(self) -> CardKnowledge:
        known: dict[_Place, frozenset[Card]] = {}
        unseen: Counter[Rank] = Counter()
        on_table: Counter[Rank] = Counter()
        by_group: dict[_Place, Counter[Rank]] = {group: Counter() for group in self.table}
        for key, cards in self.classes.items():
            if len(key) == 1:
                (only,) = key
                known[only] = cards
                continue
            ranks = _ranks_of(cards)
            unseen.update(ranks)
            if key.isdisjoint(by_group):
                continue
            on_table.update(ranks)
            for place in key:
                if place in by_group:
                    by_group[place].update(ranks)
        groups = tuple(
            GroupKnowledge(
                self.capacity[group],
                tuple(sorted(known.get(group, ()))),
                tuple(sorted(by_group[group].items())),
            )
            for group in self.table
        )
        return CardKnowledge(
            seat=self.seat,
            hands=tuple(tuple(sorted(known.get(("hand", s), ()))) for s in range(self.players)),
            pile=tuple(sorted(card for group in groups for card in group.known)),
            discarded=tuple(sorted(known.get(_DISCARDED, ()))),
            unseen=tuple(sorted(unseen.items())),
            groups=groups,
            on_table=tuple(sorted(on_table.items())),
        )


def _narrowed(key: _Key, full: set[_Place], exact: set[_Place]) -> _Key:
    """The places a card may be in, once ``full`` hold no more and ``exact`` hold all theirs."""
    if len(key) == 1:
        return key
    hit = key & exact
    if hit:
        return frozenset({min(hit)})
    return (key - full) or key


# -- several packs: copies counted where the seat saw them go ---------------------------------

# A group on the table as a seat with copies knows it: the seat that laid it,
# its size, the cards known in it (sorted), and the cards known in the
# layer's hand just before it was laid (sorted), which stay known there if
# the whole group is turned over before the layer lays again.
_Group = tuple[int, int, tuple[Card, ...], tuple[Card, ...]]


class _Counted(_Tracker):
    """Several packs: the copies of each card the seat saw go somewhere, counted there.

    ``hands`` holds for each seat the copies known in its hand (for this
    seat, its whole hand): a copy the seat saw go into a hand stays known
    there until that hand lays a group the seat does not see (and comes back
    if the whole group is turned over). ``table`` holds each group on the
    table, oldest first (see ``_Group``); ``unseen`` counts by rank the
    copies of the deck placed nowhere.
    """

    __slots__ = ("discarded", "groups", "hands", "table", "unseen")

    def __init__(
        self,
        seat: int,
        players: int,
        hands: tuple[tuple[Card, ...], ...],
        table: tuple[_Group, ...],
        discarded: tuple[Card, ...],
        unseen: _Counts,
    ) -> None:
        super().__init__(seat, players)
        self.hands = hands
        self.table = table
        self.discarded = discarded
        self.unseen = unseen
        # The groups' knowledge, made with the knowledge (and kept while the unseen stay).
        self.groups: tuple[GroupKnowledge, ...] | None = None

    @classmethod
    def dealt(cls, seen: Observation, dealt: Dealt) -> _Counted:
        """Right after the deal: the seat's hand placed, every other card unseen."""
        hand = tuple(sorted(dealt.hands[seen.seat]))
        hands = tuple(hand if each == seen.seat else () for each in range(seen.players))
        unseen = Counter(card.rank for card in seen.rules.deck.cards())
        unseen.subtract(card.rank for card in hand)
        return cls(seen.seat, seen.players, hands, (), (), _positive(unseen))

    def after(self, events: Iterable[Event]) -> _Tracker:
        """Each event that moves or shows a card, applied in turn (a new tracker each)."""
        tracker: _Counted = self
        for event in events:
            if isinstance(event, Played):
                tracker = tracker._laid(event)
            elif isinstance(event, Revealed):
                tracker = tracker._shown(event)
            elif isinstance(event, PileTaken):
                tracker = tracker._taken(event)
            elif isinstance(event, Drew) and event.seat == self.seat:
                hand = tuple(sorted(tracker.hands[self.seat] + event.cards))
                tracker = tracker._with(tracker._hand(self.seat, hand), placed=event.cards)
            elif isinstance(event, Discarded) and event.cards:
                tracker = tracker._discarded(event)
        return tracker

    def _hand(self, seat: int, cards: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
        """The known hands with ``seat``'s replaced by ``cards``."""
        return (*self.hands[:seat], cards, *self.hands[seat + 1 :])

    def _with(
        self,
        hands: tuple[tuple[Card, ...], ...] | None = None,
        table: tuple[_Group, ...] | None = None,
        discarded: tuple[Card, ...] | None = None,
        placed: Sequence[Card] = (),
        lost: Sequence[Card] = (),
    ) -> _Counted:
        """A copy with the parts given, and the unseen counts less ``placed``, plus ``lost``."""
        unseen = self.unseen
        if placed or lost:
            counts = dict(unseen)
            for card in placed:
                counts[card.rank] -= 1
            for card in lost:
                counts[card.rank] = counts.get(card.rank, 0) + 1
            unseen = tuple(sorted((item for item in counts.items() if item[1] > 0), key=_by_rank))
        following = _Counted(
            self.seat,
            self.players,
            self.hands if hands is None else hands,
            self.table if table is None else table,
            self.discarded if discarded is None else discarded,
            unseen,
        )
        if unseen is self.unseen and self.groups is not None:
            # The unseen counts stay: every group kept as it was keeps its knowledge.
            kept = min(len(self.table), len(following.table))
            while kept and following.table[kept - 1] is not self.table[kept - 1]:
                kept -= 1
            if following.table[:kept] == self.table[:kept]:
                following.groups = self.groups[:kept]
        return following

    def _laid(self, event: Played) -> _Counted:
        """A group laid: the seat's own cards go to it; another seat's known cards may have."""
        seat = event.seat
        if seat == self.seat:
            cards = tuple(sorted(event.cards))
            hands = self._hand(seat, _less(self.hands[seat], cards))
            return self._with(hands, (*self.table, (seat, event.count, cards, ())))
        held = self.hands[seat]
        hands = self._hand(seat, ()) if held else self.hands
        return self._with(hands, (*self.table, (seat, event.count, (), held)), lost=held)

    def _shown(self, event: Revealed) -> _Counted:
        """Cards of a group turned over: known in it; a whole group gives back its layer's hand."""
        table = self.table
        where = len(table) - (2 if event.earlier else 1)
        if where < 0 or table[where][0] == self.seat:
            return self
        seat, size, known, held = table[where]
        if known:  # shown before: the copies shown again may be those known
            had = Counter(known)
            placed = tuple((Counter(event.cards) - had).elements())
            now = tuple(sorted((had | Counter(event.cards)).elements()))
        else:
            placed, now = event.cards, tuple(sorted(event.cards))
        hands = self.hands
        if len(now) == size:
            if held and all(group[0] != seat for group in table[where + 1 :]):
                # The layer laid exactly these: what else it was known to hold, it holds.
                back = tuple((Counter(held) - Counter(now)).elements())
                hands = self._hand(seat, tuple(sorted(hands[seat] + back)))
                placed += back
            held = ()
        if not placed and held == table[where][3]:
            return self
        group = (seat, size, now, held)
        table = (*table[:where], group, *table[where + 1 :])
        return self._with(hands, table, placed=placed)

    def _taken(self, event: PileTaken) -> _Counted:
        """A seat takes the pile (all but a final play kept apart, if the count says so).

        The cards known in the groups taken are known in the taker's hand;
        the seat that takes sees every card it takes.
        """
        table = self.table
        kept = table[-1:] if event.count < sum(group[1] for group in table) else ()
        known = tuple(card for group in table[: len(table) - len(kept)] for card in group[2])
        seat = event.seat
        if seat == self.seat:
            hand = tuple(sorted(self.hands[seat] + event.cards))
            placed = event.cards
            if known:  # those were placed already
                placed = tuple((Counter(event.cards) - Counter(known)).elements())
            return self._with(self._hand(seat, hand), kept, placed=placed)
        hand = tuple(sorted(self.hands[seat] + known))
        return self._with(self._hand(seat, hand), kept)

    def _discarded(self, event: Discarded) -> _Counted:
        """A four set aside: the copies known in the hand are gone from it, the rest placed."""
        seat, cards = event.seat, event.cards
        discarded = tuple(sorted(self.discarded + cards))
        had = self.hands[seat]
        left = _less(had, cards)
        if seat == self.seat:
            return self._with(self._hand(seat, left), discarded=discarded)
        placed = tuple((Counter(cards) - (Counter(had) - Counter(left))).elements())
        table = tuple(
            (each, size, known, _less(held, cards)) if each == seat and held else group
            for group in self.table
            for each, size, known, held in (group,)
        )
        return self._with(self._hand(seat, left), table, discarded, placed=placed)

    def _made(self) -> CardKnowledge:
        groups = self.groups or ()
        if len(groups) != len(self.table):
            groups = (
                *groups,
                *(
                    GroupKnowledge(size, known, () if len(known) == size else self.unseen)
                    for _, size, known, _ in self.table[len(groups) :]
                ),
            )
        self.groups = groups
        whole = all(len(known) == size for _, size, known, _ in self.table)
        return CardKnowledge(
            seat=self.seat,
            hands=self.hands,
            pile=tuple(sorted(card for _, _, known, _ in self.table for card in known)),
            discarded=self.discarded,
            unseen=self.unseen,
            groups=groups,
            on_table=() if whole else self.unseen,
        )


def _less(hand: tuple[Card, ...], cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """``hand`` without ``cards`` (one copy each, those it holds), sorted."""
    return tuple(sorted((Counter(hand) - Counter(cards)).elements()))


def _by_rank(item: tuple[Rank, int]) -> int:
    """A count's sort key: its rank's place in the order."""
    return int(item[0]._value_)


def _positive(counts: Counter[Rank]) -> _Counts:
    """The counts above zero, sorted by rank."""
    return tuple(sorted((rank, count) for rank, count in counts.items() if count > 0))
