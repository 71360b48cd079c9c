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

import functools
import operator
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

import attrs

from cheatrules._caches import kept_with, newest_kept
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
from cheatrules.rules import Rules
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
    record, or built by hand, whose log is a tuple) is worked out from its
    whole log, and kept for the newest few such logs. Threads may ask at
    once, about the same observation or others (see the caches design page).

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
    if isinstance(events, Log):
        tracker = _shared_tracker(seen.seat, seen.rules, events)
    else:
        tracker = _whole_tracker(seen.seat, seen.rules, tuple(events))
    return tracker.public()


# -- where the trackers are kept -------------------------------------------------------

# How many trackers each log lineage keeps for a seat (a search that observes
# sibling states finds their common ancestor's among them); each seat's are
# kept under the name "knowledge, seat N".
_KEPT = 32


def _shared_tracker(seat: int, rules: Rules, events: Log[Event]) -> _Tracker:
    """The tracker after ``events``, extending the newest one kept for an earlier part of them.

    Kept with the log: in its lineage's ``shared`` dict, one cache a seat, by
    chunk node, the newest :data:`_KEPT`, for the rules they were worked out
    for. Shared by threads: a tracker is never changed once kept (see
    :class:`_Tracker`).
    """
    box = kept_with(events, f"knowledge, seat {seat}", _KEPT)
    tracker: _Tracker | None
    tracker, fresh = newest_kept(box, events.chunks, rules)
    if tracker is None and not fresh:
        raise CheatRulesError("an observation's log starts with the deal")
    for chunk in fresh:
        tracker = _start(seat, rules, chunk) if tracker is None else tracker.after(chunk)
    assert tracker is not None
    if fresh:
        box.put(events.chunks, tracker, rules)
    return tracker


@functools.lru_cache(maxsize=_KEPT)
def _whole_tracker(seat: int, rules: Rules, events: tuple[Event, ...]) -> _Tracker:
    """The tracker of a log that is a plain tuple (a view loaded or built by hand), from the deal.

    Kept by value for the newest :data:`_KEPT` (seat, rules, log), shared
    by threads (``functools.lru_cache`` is thread-safe; two threads that
    miss at once both work it out).
    """
    return _start(seat, rules, events)


def _start(seat: int, rules: Rules, events: Sequence[Event]) -> _Tracker:
    """A tracker from the deal, the first of ``events``, followed through the rest."""
    dealt = events[0] if events else None
    if not isinstance(dealt, Dealt):
        raise CheatRulesError("an observation's log starts with the deal")
    tracker: _Tracker
    if rules.deck.packs > 1:
        tracker = _Counted.dealt(seat, rules, dealt)
    else:
        tracker = _PerCard.dealt(seat, rules, dealt)
    return tracker.after(events[1:])


class _Tracker:
    """What one seat knows after some events; never changed once made (copy on write).

    But for what it makes on the first call for it: its :class:`CardKnowledge`
    and its groups' knowledge (``made``, ``groups``). Trackers are shared by
    threads (kept with the log), and two threads that ask at once make equal
    values, one of which is kept: each is a whole value stored in one
    assignment, so a thread sees the old one or the new one, never a part.
    """

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


# -- one pack: every card followed ---------------------------------------------------------


# What a group's knowledge is made from: its size, the cards known in it, and
# the classes of cards that may be in it.
_Made = tuple[int, frozenset[Card] | None, tuple[frozenset[Card], ...]]

# The functions below are pure functions of sets of cards, cached by value:
# the same sets recur from state to state (an event changes the places of a
# few cards, most classes keep their cards). Each cache keeps the newest
# _CACHED answers for the whole process and is shared by threads
# (functools.lru_cache is thread-safe; two threads that miss at once both
# work the answer out). The answers are never changed by their callers.
_CACHED = 8192


@functools.lru_cache(maxsize=_CACHED)
def _sorted_of(cards: frozenset[Card] | None) -> tuple[Card, ...]:
    """The cards of a set, sorted."""
    return tuple(sorted(cards)) if cards else ()


@functools.lru_cache(maxsize=_CACHED)
def _merged(sets: tuple[frozenset[Card], ...]) -> tuple[Card, ...]:
    """The cards of several sets together, sorted."""
    if len(sets) < 2:
        return _sorted_of(sets[0] if sets else None)
    return tuple(sorted(card for cards in sets for card in cards))


@functools.lru_cache(maxsize=_CACHED)
def _summed(sets: tuple[frozenset[Card], ...]) -> _Counts:
    """How many cards of each rank several sets hold together, sorted by rank."""
    counts: Counter[Rank] = Counter()
    for cards in sets:
        counts.update(_ranks_of(cards))
    return tuple(sorted(counts.items(), key=_by_rank))


@functools.lru_cache(maxsize=_CACHED)
def _ranks_of(cards: frozenset[Card]) -> Counter[Rank]:
    """How many cards of each rank a set holds (read only: the counter is cached)."""
    return Counter(card.rank for card in cards)


class _PerCard(_Tracker):
    """One pack: the cards, in classes by the set of places each may be in.

    ``classes`` maps a set of places to the cards that may be in exactly
    those; a card in a class of one place is known to be there.
    ``capacity`` is how many cards each place holds; ``table`` the groups on
    it, oldest first; ``laid`` how many groups the game has seen laid.
    ``made`` holds each group's knowledge once made, with what it was made
    from, for the next tracker to keep where that is unchanged.
    """

    __slots__ = ("capacity", "classes", "laid", "made", "table")

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
        self.made: dict[_Place, tuple[_Made, GroupKnowledge]] = {}

    @classmethod
    def dealt(cls, seat: int, rules: Rules, dealt: Dealt) -> _PerCard:
        """Right after the deal: the seat's cards in its hand, any other anywhere unseen."""
        deck = rules.deck.cards()
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
        tracker = cls(seat, rules.players, classes, capacity)
        tracker._settle()
        return tracker

    def _copy(self) -> _PerCard:
        copy = _PerCard(
            self.seat, self.players, dict(self.classes), dict(self.capacity), self.table, self.laid
        )
        copy.made = self.made
        return copy

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
        """A seat takes the pile: the groups the pickup says it took (a final play may stay)."""
        taker: _Place = ("hand", event.seat)
        self.capacity[taker] += event.count
        table = self.table
        kept = table[event.groups :]
        taken = frozenset(table[: event.groups])
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
        unplaced: list[frozenset[Card]] = []
        on_table: list[frozenset[Card]] = []
        # The classes that may be in each group, as their cards (see _groups).
        in_group: dict[_Place, list[frozenset[Card]]] = {group: [] for group in self.table}
        for key, cards in self.classes.items():
            if len(key) == 1:
                (only,) = key
                known[only] = cards
                continue
            unplaced.append(cards)
            touched = [place for place in key if place in in_group]
            if touched:
                on_table.append(cards)
                for place in touched:
                    in_group[place].append(cards)
        groups = self._groups(known, in_group)
        pile = tuple(cards for cards in map(known.get, self.table) if cards)
        return CardKnowledge(
            seat=self.seat,
            hands=tuple(_sorted_of(known.get(("hand", s))) for s in range(self.players)),
            pile=_merged(pile),
            discarded=_sorted_of(known.get(_DISCARDED)),
            unseen=_summed(tuple(unplaced)),
            groups=groups,
            on_table=_summed(tuple(on_table)),
        )

    def _groups(
        self, known: dict[_Place, frozenset[Card]], in_group: dict[_Place, list[frozenset[Card]]]
    ) -> tuple[GroupKnowledge, ...]:
        """Each group's knowledge: the earlier tracker's where what it is made from is unchanged.

        An event changes few classes, so most groups keep their size, their
        known cards and the classes that may be in them (the very same sets).
        """
        earlier = self.made
        made: dict[_Place, tuple[_Made, GroupKnowledge]] = {}
        for group in self.table:
            source = (self.capacity[group], known.get(group), tuple(in_group[group]))
            kept = earlier.get(group)
            if kept is None or kept[0] != source:
                made_now = GroupKnowledge(source[0], _sorted_of(source[1]), _summed(source[2]))
                kept = (source, made_now)
            made[group] = kept
        self.made = made
        return tuple(made[group][1] for group in self.table)


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
    table, oldest first (see ``_Group``); ``pile`` the cards known on it,
    sorted, and ``open`` how many of its groups are not wholly known;
    ``unseen`` counts by rank the copies of the deck placed nowhere.
    """

    __slots__ = ("discarded", "groups", "hands", "open", "pile", "table", "unseen")

    def __init__(
        self, seat: int, players: int, hands: tuple[tuple[Card, ...], ...], unseen: _Counts
    ) -> None:
        super().__init__(seat, players)
        self.hands = hands
        self.unseen = unseen
        self.table: tuple[_Group, ...] = ()
        self.discarded: tuple[Card, ...] = ()
        self.pile: tuple[Card, ...] = ()
        self.open = 0
        # The knowledge of the first groups on the table, made with the knowledge and
        # kept by the next tracker while those groups and the unseen counts stay.
        self.groups: tuple[GroupKnowledge, ...] = ()

    @classmethod
    def dealt(cls, seat: int, rules: Rules, dealt: Dealt) -> _Counted:
        """Right after the deal: the seat's hand placed, every other card unseen."""
        hand = _joined((), dealt.hands[seat])
        hands = tuple(hand if each == seat else () for each in range(rules.players))
        unseen = Counter(card.rank for card in rules.deck.cards())
        unseen.subtract(card.rank for card in hand)
        return cls(seat, rules.players, hands, _positive(unseen))

    def _copy(self) -> _Counted:
        copy = _Counted(self.seat, self.players, self.hands, self.unseen)
        copy.table, copy.discarded, copy.pile = self.table, self.discarded, self.pile
        copy.open, copy.groups = self.open, self.groups
        return copy

    def after(self, events: Iterable[Event]) -> _Tracker:
        """Each event that moves or shows a card applied to a copy (copied once)."""
        copy: _Counted | None = None
        for event in events:
            if not isinstance(event, (Played, Revealed, PileTaken, Drew, Discarded)):
                continue
            if isinstance(event, Drew) and event.seat != self.seat:
                continue  # cards from the stock, unseen: what was known of the hand stays
            if isinstance(event, Discarded) and not event.cards:
                continue
            if copy is None:
                copy = self._copy()
            if isinstance(event, Played):
                copy._laid(event)
            elif isinstance(event, Revealed):
                copy._shown(event)
            elif isinstance(event, PileTaken):
                copy._taken(event)
            elif isinstance(event, Drew):
                copy._hand(self.seat, _joined(copy.hands[self.seat], event.cards))
                copy._placed(event.cards)
            else:
                copy._discarded(event)
        return self if copy is None else copy

    def _hand(self, seat: int, cards: tuple[Card, ...]) -> None:
        """``seat``'s known hand is ``cards``."""
        self.hands = (*self.hands[:seat], cards, *self.hands[seat + 1 :])

    def _placed(self, placed: Sequence[Card], lost: Sequence[Card] = ()) -> None:
        """The unseen counts less ``placed``, plus ``lost``."""
        if not placed and not lost:
            return
        # By the ranks' values: a Rank hashes in Python, an int in C.
        counts = {rank._value_: count for rank, count in self.unseen}
        for card in placed:
            counts[card.rank._value_] -= 1
        for card in lost:
            value = card.rank._value_
            counts[value] = counts.get(value, 0) + 1
        self.unseen = tuple((_RANK_OF[v], counts[v]) for v in sorted(counts) if counts[v] > 0)
        self.groups = ()  # the groups not wholly known may hold any of the unseen

    def _laid(self, event: Played) -> None:
        """A group laid: the seat's own cards go to it; another seat's known cards may have."""
        seat = event.seat
        if seat == self.seat:
            cards = _joined((), event.cards)
            self._hand(seat, _less(self.hands[seat], cards))
            self.table += ((seat, event.count, cards, ()),)
            self.pile = _joined(self.pile, cards)
            return
        held = self.hands[seat]
        if held:
            self._hand(seat, ())
            self._placed((), held)
        self.table += ((seat, event.count, (), held),)
        self.open += 1

    def _shown(self, event: Revealed) -> None:
        """Cards of a group turned over: known in it; a whole group gives back its layer's hand."""
        table = self.table
        where = len(table) - (2 if event.earlier else 1)
        if where < 0 or table[where][0] == self.seat:
            return
        seat, size, known, held = table[where]
        if known:  # shown before: the copies shown again may be those known
            had = Counter(known)
            placed = tuple((Counter(event.cards) - had).elements())
            now = tuple(sorted((had | Counter(event.cards)).elements()))
        else:
            placed, now = event.cards, _joined((), event.cards)
        if not placed:
            return
        self.pile = _joined(self.pile, placed)
        if len(now) == size:
            self.open -= 1
            if held and all(group[0] != seat for group in table[where + 1 :]):
                # The layer laid exactly these: what else it was known to hold, it holds.
                back = _less(held, now)
                self._hand(seat, _joined(self.hands[seat], back))
                placed += back
            held = ()
        self.table = (*table[:where], (seat, size, now, held), *table[where + 1 :])
        self.groups = self.groups[:where]
        self._placed(placed)

    def _taken(self, event: PileTaken) -> None:
        """A seat takes the pile: the groups the pickup says it took (a final play may stay).

        The cards known in the groups taken are known in the taker's hand;
        the seat that takes sees every card it takes.
        """
        table = self.table
        kept = table[event.groups :]
        known = tuple(card for group in table[: event.groups] for card in group[2])
        self.table, self.groups = kept, ()
        self.pile = kept[0][2] if kept else ()
        self.open = sum(len(group[2]) < group[1] for group in kept)
        seat = event.seat
        if seat == self.seat:
            self._hand(seat, _joined(self.hands[seat], event.cards))
            self._placed(_less(event.cards, known))  # those known were placed already
        else:
            self._hand(seat, _joined(self.hands[seat], known))

    def _discarded(self, event: Discarded) -> None:
        """A four set aside: the copies known in the hand are gone from it, the rest placed."""
        seat, cards = event.seat, event.cards
        self.discarded = _joined(self.discarded, cards)
        had = self.hands[seat]
        left = _less(had, cards)
        self._hand(seat, left)
        if seat == self.seat:
            return
        self.table = tuple(
            (each, size, known, _less(held, cards)) if each == seat and held else group
            for group in self.table
            for each, size, known, held in (group,)
        )
        self._placed(_less(cards, _less(had, left)))

    def _made(self) -> CardKnowledge:
        groups = self.groups
        if len(groups) < len(self.table):
            groups += tuple(
                GroupKnowledge(size, known, () if len(known) == size else self.unseen)
                for _, size, known, _ in self.table[len(groups) :]
            )
            self.groups = groups
        return CardKnowledge(
            seat=self.seat,
            hands=self.hands,
            pile=self.pile,
            discarded=self.discarded,
            unseen=self.unseen,
            groups=groups,
            on_table=self.unseen if self.open else (),
        )


def _less(hand: tuple[Card, ...], cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """``hand`` without ``cards`` (one copy each, those it holds), in the order of ``hand``."""
    if not cards or not hand:
        return hand
    dropped = Counter(card.key for card in cards)  # keys: a Card hashes in Python
    left = []
    for card in hand:
        if dropped[card.key] > 0:
            dropped[card.key] -= 1
        else:
            left.append(card)
    return tuple(left)


def _joined(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...]:
    """``hand`` and ``cards`` together, sorted."""
    return tuple(sorted((*hand, *cards), key=_KEY))


_KEY = operator.attrgetter("key")
_RANK_OF = {rank._value_: rank for rank in Rank}


def _by_rank(item: tuple[Rank, int]) -> int:
    """A count's sort key: its rank's place in the order."""
    return int(item[0]._value_)


def _positive(counts: Counter[Rank]) -> _Counts:
    """The counts above zero, sorted by rank."""
    return tuple(sorted((rank, count) for rank, count in counts.items() if count > 0))
