"""The plan of a view: what the observer's log alone fixes, read once per view.

The log fixes everything but the deal and which tokens went into each group
the observer did not see. :class:`Plan` reads it once: the piles, where the
log names each card (a :data:`Target`: a hand just before an event, or a
group of a pile the observer takes then), each player's hand size at its
plays, the cards turned over and drawn, and what the searches work out
from the log alone, kept as they first ask for it: where a token can still
go (:class:`Reach`, one backward pass per target), how cards named next at
one target can get there unseen (:class:`Routes`), and each play's classes
of cards (:data:`Class`). The search (the private ``_sampler.search``
module) replays the log against a plan; :mod:`cheatrules.sampling` keeps
one per view with the view's log and lends it to one call at a time.
"""

from __future__ import annotations

import functools
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING

import attrs

from cheatrules._sampler import twins as _twins
from cheatrules._sampler.matching import contested, routed
from cheatrules.cards import Card, Deck, Rank
from cheatrules.errors import N_, RulesError
from cheatrules.events import (
    Dealt,
    Discarded,
    Drew,
    Event,
    GameOver,
    PileTaken,
    Played,
    Revealed,
    WentOut,
)

if TYPE_CHECKING:
    from cheatrules._sampler.solver import Model
from cheatrules.rules import Rules


@functools.lru_cache(maxsize=16)
def _deck_facts(deck: Deck) -> tuple[Counter[Card], frozenset[Card], bool]:
    """Copies of each card of ``deck``, its cards of one copy, and whether all but jokers are.

    Cached by the deck's value for the newest 16 decks, for the whole
    process, and shared by threads (``functools.lru_cache`` is thread-safe);
    the counter is read only.
    """
    copies = Counter(deck.cards())
    singles = frozenset(card for card, count in copies.items() if count == 1)
    unique = all(count == 1 for card, count in copies.items() if card.rank is not Rank.JOKER)
    return copies, singles, unique


#: Where a card the log names must be: ("hand", seat, event) just before that
#: event, or ("pile", pile, event) in a group of the pile the observer takes then.
Target = tuple[str, int, int]


@attrs.frozen
class Copy:
    """The class of the tokens with a card that has copies, named next at ``target``.

    ``card`` is set where the counting test caps how many tokens of that card
    the group may take: those tokens form a class of their own.
    """

    target: Target
    card: Card | None = None


def _when_named(item: tuple[tuple[Card, Target], int]) -> tuple[int, str, int]:
    """A sighting's order: by event, then place."""
    (_, (kind, which, when)), _ = item
    return when, kind, which


#: A later four set aside, seen from a hand: per rank its highest key, the copies it takes
#: below that, and the cards the hand can shed until then (:meth:`Plan.discards_ahead`).
_Floors = tuple[dict[Rank, int], Counter[Card], int]


#: A token's class at a hidden play: "U" (no card yet), "F" (free), "X" (barred from
#: a pile the observer takes), its next target (a card of one copy), or a
#: :class:`Copy` for a card with copies.
Class = str | Target | Copy


@attrs.frozen
class _Ahead:
    """A later check of a player's hand after a pickup, as seen from one of its plays.

    ``allowed`` counts the ranks it sets aside there; ``fixed`` the ranks of
    the cards the observer knows in the piles the player takes until then
    (but those it lays from this play on); ``slots`` and ``carried`` what
    leaves its hand between for good: unseen cards its plays lay into piles
    it does not take back by then, and by rank the shown ones and the fours
    it sets aside at earlier checks; ``back`` whether this play's own group
    comes back to it by then.
    """

    allowed: Counter[Rank]
    fixed: Counter[Rank]
    slots: int
    carried: Counter[Rank]
    back: bool


class Plan:
    """The shape of the observer's log, read once: piles, sightings, hand sizes.

    Kept per view and shared by its samples, with what the searches work
    out from it alone: where a token can go (:class:`Reach`), each play's
    classes of cards and whether it leaves the matching as it was. Those
    memos are filled as the searches ask, so a plan is lent to one call of
    the sampler at a time (:mod:`cheatrules.sampling` keeps it), never
    searched by two threads at once. It holds no reference to the view.
    """

    def __init__(
        self,
        rules: Rules,
        seat: int,
        events: Sequence[Event],
        dealt: Dealt,
        facts: tuple[Counter[Card], frozenset[Card], bool] | None = None,
        layout: Plan | None = None,
    ) -> None:
        self.rules = rules
        self.seat = seat
        self.dealt = dealt
        self.events: tuple[Event, ...] = tuple(events)
        # ``facts``: a view with each copy of a card told apart (twins).
        self.twinned = facts is not None
        self.copies, self.singles, self.unique = facts or _deck_facts(rules.deck)
        self.revealed_at: dict[int, int] = {}  # Revealed index -> the group turned over
        self.pile_of: dict[int, int] = {}  # Played index -> pile number
        self.taken: dict[int, tuple[int, int]] = {}  # pile -> (taker, PileTaken index)
        self.kept: dict[int, int] = {}  # PileTaken index -> cards of a final play kept
        self.revealed: dict[int, tuple[Card, ...]] = {}  # Played index -> cards shown
        self.partial: set[int] = set()
        self.draws: dict[int, tuple[Card, ...]] = {}  # cards chance turned over, by moment
        self.size_before: dict[int, int] = {}  # Played index -> its player's hand size
        self.stock_draws: list[tuple[int, int]] = []  # each stock token: (drawer, Drew index)
        self.sightings: dict[Card, list[tuple[int, Target]]] = {}
        self.solver_model: Model | None = None  # the solver's model, made at its first use
        # Under compulsory discards, each check of a taker's hand by its
        # pickup (PileTaken index -> the taker, and the ranks it sets aside:
        # it holds no other four), and after which event it is made (event ->
        # PileTaken index); per group, the ranks of the cards the observer
        # knows are in it (its own, or turned over), which go where it goes.
        self.checks: dict[int, tuple[int, tuple[Rank, ...]]] = {}
        self.fours_at: dict[int, int] = {}
        self.known_ranks: dict[int, Counter[Rank]] = {}
        self._worked_out()
        self._read()
        if rules.discards.compulsory:
            self._read_fours()
        self._read_sightings()
        moving = (Played, PileTaken, Drew, Discarded)
        self.plays = sorted(self.pile_of)  # every Played index, in time order
        self.quiet = {i for i, event in enumerate(self.events) if not isinstance(event, moving)}
        self.own_plays: dict[Card, list[int]] = {}  # card -> the observer's plays laying it
        self.own_groups: set[int] = set()  # the observer's plays
        self.others_in_pile: dict[int, Counter[Card]] = {}
        self._read_own()
        self.reach = Reach(self)
        self.copy_reach = Reach(self, shown=True)
        if layout is not None:
            self._share(layout)
        # Each turned-over group's cards, the copies of each card together (the
        # order Search._pinned takes them in), and where the log first names
        # each card of one copy.
        self.shown = {group: grouped(cards) for group, cards in self.revealed.items()}
        self.first = {
            card: seen[0][1] for card, seen in self.sightings.items() if card in self.singles
        }
        self.steady: dict[int, bool] = {}  # by play: whether it leaves the matching as it was
        self.classes: dict[int, dict[Card, Class]] = {}  # by play: each card's class there

    def _worked_out(self) -> None:
        """What the searches work out from the log alone when first asked, kept here."""
        self._ahead: dict[int, list[_Ahead]] = {}
        self._into: dict[int, tuple[Counter[Rank], Counter[Rank]] | None] = {}
        self._seen_ahead: dict[tuple[int, int], list[tuple[Counter[Card], int, int, int]]] = {}
        self._moves: list[list[tuple[int, int, int]]] | None = None  # per seat: plays, discards
        self._floors_ahead: dict[tuple[int, int], list[_Floors]] = {}
        self._onward: dict[tuple[Card, Target, Target], bool] = {}
        self._outlets: dict[int, list[tuple[int, int]]] = {}
        self._outlets_to: dict[tuple[int, Target | None], list[int]] = {}
        self._routes: dict[Target, Routes] = {}
        self._named_at: dict[Target, frozenset[Card]] | None = None
        self._named_into: dict[int, list[tuple[int, tuple[int, Card, Target | None, int]]]] = {}
        self._exit_times: dict[int, dict[Target | None, list[int]]] = {}
        self._room_after: dict[int, list[tuple[int, int]]] = {}
        # Per card, the events of its sightings and where, apart (for bisection).
        self._whens: dict[Card, tuple[list[int], list[Target]]] = {}
        self._labelling: _twins.Labelling | None = None
        self._first_at: dict[Target, list[Card]] | None = None

    def _share(self, layout: Plan) -> None:
        """Share what depends on the log's moves alone with ``layout``, a plan of its other cards.

        That is where a card can get from where, and the groups a card can
        leave a hand in: the same for every labelling of a view's copies.
        """
        self.reach.passes = layout.reach.passes
        self.copy_reach.passes = layout.copy_reach.passes
        layout._moves_after(0, self.seat)  # worked out now, to be shared
        self._moves = layout._moves
        self._outlets, self._outlets_to = layout._outlets, layout._outlets_to
        self._routes = layout._routes
        self._exit_times, self._room_after = layout._exit_times, layout._room_after

    def _read_own(self) -> None:
        """The observer's plays and, per pile it takes, the cards the other players' groups hold.

        Those are the cards it names there less those of its own groups in it.
        """
        for pile, (taker, when) in self.taken.items():
            event = self.events[when]
            if taker == self.seat and isinstance(event, PileTaken):
                self.others_in_pile[pile] = Counter(event.cards)
        for index in self.plays:
            played = self.events[index]
            if isinstance(played, Played) and played.seat == self.seat:
                self.own_groups.add(index)
                for card in played.cards:
                    self.own_plays.setdefault(card, []).append(index)
                others = self.others_in_pile.get(self.pile_of[index])
                if others is not None:
                    others.subtract(played.cards)
        for pile, others in self.others_in_pile.items():
            self.others_in_pile[pile] = +others

    def _read_sightings(self) -> None:
        """Count the new cards a pile the observer takes may hold, and the copies of each sighting.

        A pile may hold the cards of one copy it names first, and every copy
        of a card with copies it names (such a copy may be new there).
        """
        # The most tokens with no card yet that a pile the observer takes may
        # hold, and each sighting of a card with copies: how many copies the
        # log names at once.
        self.fresh_in_pile: Counter[int] = Counter()
        self.copy_needs: Counter[tuple[Card, Target]] = Counter()
        # The same by place, and per card in time order: (target, copies named there).
        self.copy_targets: dict[Target, Counter[Card]] = {}
        self.copy_sights: dict[Card, list[tuple[Target, int]]] = {}
        for card, seen_at in self.sightings.items():
            if self.copies[card] == 1:
                if seen_at[0][1][0] == "pile":
                    self.fresh_in_pile[seen_at[0][1][1]] += 1
                continue
            for _, target in seen_at:
                if target[:2] != ("hand", self.seat):  # its own hand is known
                    self.copy_needs[card, target] += 1
                if target[0] == "pile":
                    self.fresh_in_pile[target[1]] += 1
        for (card, target), need in sorted(self.copy_needs.items(), key=_when_named):
            self.copy_targets.setdefault(target, Counter())[card] = need
            self.copy_sights.setdefault(card, []).append((target, need))

    def _read(self) -> None:
        """Follow the log: piles, shown groups, hand sizes, and where each card is named."""
        sizes = list(self.dealt.hand_sizes)
        groups: list[int] = []
        pile = 0
        for index, event in enumerate(self.events):
            if isinstance(event, Played):
                self.pile_of[index] = pile
                self.size_before[index] = sizes[event.seat]
                sizes[event.seat] -= event.count
                groups.append(index)
                for card in event.cards:
                    self._sight(card, ("hand", event.seat, index))
            elif isinstance(event, Revealed):
                self._read_revealed(index, event, groups)
            elif isinstance(event, PileTaken):
                sizes[event.seat] += event.count
                pile, groups = self._read_pickup(index, event, groups, pile)
            elif isinstance(event, Drew):
                sizes[event.seat] += event.count
                self.stock_draws.extend((event.seat, index) for _ in range(event.count))
            elif isinstance(event, Discarded):
                sizes[event.seat] -= len(event.cards)
                for card in event.cards:
                    self._sight(card, ("hand", event.seat, index))

    def _read_fours(self) -> None:
        """Where compulsory discards check a taker's hand (:func:`fours_checks`)."""
        events = self.events
        for after, (pickup, taker, ranks) in fours_checks(events).items():
            self.checks[pickup] = (taker, ranks)
            self.fours_at[after] = pickup
        for group in self.pile_of:
            played = events[group]
            assert isinstance(played, Played)
            cards = played.cards if played.seat == self.seat else self.revealed.get(group, ())
            if cards:
                self.known_ranks[group] = Counter(card.rank for card in cards)

    def _sight(self, card: Card, target: Target) -> None:
        self.sightings.setdefault(card, []).append((target[2], target))

    def _read_revealed(self, index: int, event: Revealed, groups: list[int]) -> None:
        group = groups[-2] if event.earlier else groups[-1]
        self.revealed[group] = event.cards
        self.revealed_at[index] = group
        played = self.events[group]
        assert isinstance(played, Played)
        if len(event.cards) < played.count:
            if not event.drawn and played.seat != self.seat:
                # A check that turns over some cards of a group by their places
                # (the highest, the first laid) says where they lay in it; the
                # search places cards by group, not by place in a group.
                raise RulesError(
                    N_(
                        "sample() cannot serve this check: it turned over cards of seat "
                        "%(seat)s's group by their places in it, not by chance; it serves checks "
                        "that turn over a whole group or cards chance chose"
                    ),
                    seat=played.seat,
                )
            self.partial.add(group)
            if event.drawn:  # else the rule turned over the observer's own cards: no script
                self.draws[index - 1] = event.cards
        if event.seat != self.seat:
            for card in event.cards:
                self._sight(card, ("hand", event.seat, group))
            self._sort_sightings(event.cards)

    def _sort_sightings(self, cards: tuple[Card, ...]) -> None:
        for card in set(cards):
            self.sightings[card].sort()

    def _read_pickup(
        self, index: int, event: PileTaken, groups: list[int], pile: int
    ) -> tuple[int, list[int]]:
        """A pile taken; returns the next pile's number and the groups already in it."""
        self.taken[pile] = (event.seat, index)
        if event.seat == self.seat:
            for card in event.cards:
                self._sight(card, ("pile", pile, index))
        if event.kept:  # the pickup says a final play stays on the table: the newest group
            final = groups[-1]
            kept = self.events[final]
            assert isinstance(kept, Played) and event.kept == 1
            self.kept[index] = kept.count
            self.pile_of[final] = pile + 1
            return pile + 1, [final]
        return pile + 1, []

    def ahead(self, index: int, seat: int) -> list[_Ahead]:
        """The checks of ``seat``'s hand after its pickups later than its play at ``index``.

        Worked out once per play; see :class:`_Ahead`. A group the seat lays
        into a pile it takes back by the check carries nothing off.
        """
        found = self._ahead.get(index)
        if found is not None:
            return found
        found = []
        events, taken, pile_of = self.events, self.taken, self.pile_of
        plays = [g for g in self.plays if g > index and self._seat_of(g) == seat]
        for when, (taker, ranks) in self.checks.items():
            if taker != seat or when <= index:
                continue

            def back(group: int, when: int = when) -> bool:
                taker_then, taken_at = taken.get(pile_of[group], (-1, len(events)))
                return taker_then == seat and taken_at <= when

            slots, carried, fixed = 0, Counter[Rank](), Counter[Rank]()
            for group in plays:
                if group < when and not back(group):
                    cards = self.revealed.get(group, ())
                    slots += self._count_of(group) - len(cards)
                    carried.update(card.rank for card in cards)
            piles = {pile for pile, (t, at) in taken.items() if t == seat and index < at <= when}
            for group, pile in pile_of.items():
                mine = group >= index and self._seat_of(group) == seat  # counted in its hand
                if pile in piles and group in self.known_ranks and not mine:
                    fixed += self.known_ranks[group]
            fixed.pop(Rank.JOKER, None)
            # The fours it sets aside at earlier checks leave its hand.
            for later in range(index + 1, when):
                event = events[later]
                if isinstance(event, Discarded) and event.seat == seat:
                    carried.update(card.rank for card in event.cards)
            found.append(_Ahead(Counter(ranks), fixed, slots, carried, back(index)))
        self._ahead[index] = found
        return found

    def into_seen(self, index: int, seat: int) -> list[tuple[Counter[Card], int, int, int]]:
        """``seat``'s later plays into piles the observer takes, as seen just after ``index``.

        For each: the cards the pile may hold (those the observer names
        there); how many cards the play lays (every one of them such a card);
        the hand's size then with the cards ``seat`` lays into other piles or
        sets aside until then (its only ways to shed a card the pile may not
        hold); and the cards it takes up or draws until then (its only ways
        to gain one the pile may hold). Worked out once per event and seat.
        """
        key = (index, seat)
        found = self._seen_ahead.get(key)
        if found is not None:
            return found
        found = []
        shed, into, gained = 0, Counter[int](), 0  # cards that left since, by pile; came
        for when, pile, count in self._moves_after(index, seat):
            if pile == -2:
                gained += count
                continue
            named = self.others_in_pile.get(pile)
            if named is not None:
                # A group laid into the same pile sheds nothing the pile may not hold.
                room = self.size_before[when] + shed - into[pile]
                found.append((named, count, room, gained))
            shed += count
            into[pile] += count
        self._seen_ahead[key] = found
        return found

    def discards_ahead(self, index: int, seat: int) -> list[_Floors]:
        """``seat``'s later fours set aside, as seen just after ``index`` (with copies).

        For each: per rank set aside, the highest key of the copies it takes,
        and the copies it takes below that: they are the lowest four of the
        rank in the hand, so the hand holds no other card of that rank below
        it then; and how many cards ``seat`` lays or sets aside until then
        (its only ways to shed such a card). Worked out once per event and
        seat.
        """
        key = (index, seat)
        found = self._floors_ahead.get(key)
        if found is not None:
            return found
        found = []
        shed = 0
        for when, pile, count in self._moves_after(index, seat):
            event = self.events[when]
            if isinstance(event, Discarded) and event.cards:
                tops = tops_of(event.cards)
                below = Counter(card for card in event.cards if card.key < tops[card.rank])
                found.append((tops, below, shed))
            if pile != -2:
                shed += count
        self._floors_ahead[key] = found
        return found

    def _moves_after(self, index: int, seat: int) -> list[tuple[int, int, int]]:
        """``seat``'s moves after event ``index``, each ``(event, where, cards)``.

        ``where`` is the pile laid into, -1 for a discard, -2 for cards taken
        up or drawn.
        """
        every = self._moves
        if every is None:
            every = [[] for _ in self.dealt.hand_sizes]
            for when, event in enumerate(self.events):
                if isinstance(event, Played):
                    every[event.seat].append((when, self.pile_of[when], event.count))
                elif isinstance(event, Discarded):
                    every[event.seat].append((when, -1, len(event.cards)))
                elif isinstance(event, PileTaken | Drew):
                    every[event.seat].append((when, -2, event.count))
            self._moves = every
        moves = every[seat]
        return moves[bisect_right(moves, (index, len(self.events))) :]

    def _seat_of(self, group: int) -> int:
        played = self.events[group]
        assert isinstance(played, Played)
        return played.seat

    def named_into(self, seat: int, index: int) -> list[tuple[int, Card, Target | None, int]]:
        """Cards the log names in groups laid after ``index`` into piles ``seat`` takes.

        The observer's own cards and those turned over, which come into that
        hand when it takes the pile: each as (the pickup, the card, where it
        is named next, when it may leave the hand at the soonest).
        """
        found = self._named_into.get(seat)
        if found is None:
            groups, coming = [], []
            for group in self.plays:
                taker, when = self.taken.get(self.pile_of[group], (-1, 0))
                if taker == seat:
                    played = self.events[group]
                    assert isinstance(played, Played)
                    own = group in self.own_groups
                    for card in played.cards if own else self.revealed.get(group, ()):
                        groups.append(group)
                        coming.append((when, card))
            headed = self.heading(coming)
            spans = self.spans(seat, [(when, target) for when, _, target in headed])
            found = self._named_into[seat] = [
                (group, (when, card, target, until))
                for group, (when, card, target), (_, until) in zip(
                    groups, headed, spans, strict=True
                )
            ]
        start = bisect_right(found, index, key=itemgetter(0))
        return [item for _, item in found[start:]]

    def crowded(self, seat: int, spans: Sequence[tuple[int, int]]) -> list[int]:
        """Which named cards overfill ``seat``'s hand at one of its plays; none if none does.

        Each card is in the hand from event ``since`` until ``until`` (see
        :meth:`spans`), as ``(since, until)``. At each play the hand
        keeps its size less the group: the cards kept past the first play
        they overfill.
        """
        if not spans:
            return []
        starts = sorted(since for since, _ in spans)
        ends = sorted(until for _, until in spans)
        rooms = self._rooms(seat)
        for when, room in rooms[bisect_right(rooms, (starts[0], len(self.events))) :]:
            if when >= ends[-1]:
                break
            # Every card leaves after it came: those here now came before, less those gone.
            if bisect_left(starts, when) - bisect_right(ends, when) > room:
                return [n for n, (since, until) in enumerate(spans) if since < when < until]
        return []

    def heading(self, held: Iterable[tuple[int, Card]]) -> list[tuple[int, Card, Target | None]]:
        """Each card ``(since, card)`` with where the log next names it after ``since``, or None."""
        whens = self._whens
        found = []
        for since, card in held:
            named = whens.get(card) or self._sighted(card)
            at = bisect_right(named[0], since)
            found.append((since, card, named[1][at] if at < len(named[0]) else None))
        return found

    def spans(self, seat: int, held: Iterable[tuple[int, Target | None]]) -> list[tuple[int, int]]:
        """Each named card ``(since, target)`` in ``seat``'s hand as ``(since, until)``.

        ``until`` is when it may leave the hand at the soonest: in a group of
        the player's that nobody saw whose pile can take it to ``target`` (for
        a card named nowhere more, to a pile the observer does not take), or
        where the log names it there, whichever comes first.
        """
        exits, last = self._exit_times.setdefault(seat, {}), len(self.events)
        found = []
        for since, target in held:
            times = exits.get(target)
            if times is None:
                times = self._exits(seat, target)
            end = last if target is None else target[2]
            at = bisect_right(times, since)
            found.append((since, min(times[at], end) if at < len(times) else end))
        return found

    def _exits(self, seat: int, target: Target | None) -> list[int]:
        """When ``seat``'s groups that can take a card to ``target`` unseen are laid (made once)."""
        outlets = self.outlets(seat)
        found = self.outlets_free(seat) if target is None else self.outlets_to(seat, target)
        times = self._exit_times.setdefault(seat, {})[target] = [outlets[n][0] for n in found]
        return times

    def _rooms(self, seat: int) -> list[tuple[int, int]]:
        """``seat``'s plays, in time order: (Played index, the cards its hand keeps after it)."""
        found = self._room_after.get(seat)
        if found is None:
            found = self._room_after[seat] = [
                (when, self.size_before[when] - count)
                for when, pile, count in self._moves_after(-1, seat)
                if pile >= 0
            ]
        return found

    def _count_of(self, group: int) -> int:
        played = self.events[group]
        assert isinstance(played, Played)
        return played.count

    def pile_check(self, index: int) -> tuple[Counter[Rank], Counter[Rank]] | None:
        """For a play into a pile another player takes and is checked on: its fours, later cards.

        The ranks the taker sets aside there (counted) and the ranks of the
        known cards laid into that pile after ``index``; None where the pile
        is not taken, the observer takes it, or no check follows. Worked out
        once per play.
        """
        if index in self._into:
            return self._into[index]
        found = None
        pile = self.pile_of[index]
        taker, when = self.taken.get(pile, (self.seat, 0))
        if taker != self.seat and when in self.checks:
            later: Counter[Rank] = Counter()
            for group, in_pile in self.pile_of.items():
                if in_pile == pile and group > index and group in self.known_ranks:
                    later += self.known_ranks[group]
            found = Counter(self.checks[when][1]), later
        self._into[index] = found
        return found

    def onward(self, card: Card, seen: Target, target: Target) -> bool:
        """Whether a copy of ``card`` named at ``seen`` can be named again at the later ``target``.

        From a hand it was named in, a copy goes into the group laid there
        (turned over) or out of the game (set aside); from a pile the
        observer takes, into the observer's hand, which it leaves only in the
        observer's groups that lay that card. Worked out once per card and pair.
        """
        key = (card, seen, target)
        found = self._onward.get(key)
        if found is None:
            kind, _, when = seen
            reach = self.copy_reach
            if kind == "pile":
                found = reach.laid_by_observer(card, when, target)
            else:
                found = isinstance(self.events[when], Played) and reach.on_table(when, target)
            self._onward[key] = found
        return found

    def outlets(self, seat: int) -> list[tuple[int, int]]:
        """``seat``'s groups with slots nobody saw, in time order: (Played index, slots).

        A card leaves a hand unseen only there (a group turned over names its cards).
        """
        found = self._outlets.get(seat)
        if found is None:
            found = []
            for group in self.plays:
                played = self.events[group]
                assert isinstance(played, Played)
                if played.seat == seat and self.carries(group):
                    found.append((group, played.count - len(self.revealed.get(group, ()))))
            self._outlets[seat] = found
        return found

    def on_table(self, group: int, target: Target) -> bool:
        """Whether a card in ``group``, on the table, can get to ``target`` unseen."""
        return self.reach.on_table(group, target)

    def stranded(self, seat: int, leaving: Sequence[tuple[int, Target]]) -> list[int]:
        """Which cards leaving ``seat``'s hand compete for too few slots in its groups nobody saw.

        Each card, ``(since, target)``, leaves after event ``since`` in one of
        the player's groups nobody saw whose pile can take it to ``target``,
        one slot each. Empty when they all fit; else the cards a largest
        matching leaves out and every card competing with them for the
        slots they could take (:func:`~cheatrules._sampler.matching.contested`):
        a labelling that fits must move one of those, and the card left out
        may be one no labelling can move.
        """
        outlets = self.outlets(seat)
        edges = [
            [n for n in self.outlets_to(seat, target) if outlets[n][0] > since]
            for since, target in leaving
        ]
        return contested(edges, [slots for _, slots in outlets])

    def outlets_to(self, seat: int, target: Target) -> list[int]:
        """Which of ``seat``'s :meth:`outlets` can take a card to ``target`` (made once)."""
        key = (seat, target)
        found = self._outlets_to.get(key)
        if found is None:
            found = self._outlets_to[key] = [
                n
                for n, (group, _) in enumerate(self.outlets(seat))
                if group < target[2] and self.reach.on_table(group, target)
            ]
        return found

    def named_at(self, target: Target) -> frozenset[Card]:
        """The cards the log names at ``target`` (made once)."""
        if self._named_at is None:
            found: dict[Target, set[Card]] = {}
            for card, seen_at in self.sightings.items():
                for _, where in seen_at:
                    found.setdefault(where, set()).add(card)
            self._named_at = {where: frozenset(cards) for where, cards in found.items()}
        return self._named_at.get(target, frozenset())

    def unrouted(self, target: Target, groups: Sequence[int]) -> bool:
        """Whether cards laid in ``groups`` (one each) cannot all get to ``target`` unseen."""
        routes = self.routes(target)
        supply: dict[int, int] = {}
        for group in groups:
            node = routes.landing(self, group)
            if node is None:
                return True
            if node != routes.sink:
                supply[node] = supply.get(node, 0) + 1
        return bool(supply) and routes.carried(supply) < sum(supply.values())

    def routes(self, target: Target) -> Routes:
        """The groups nobody saw that can take a card toward ``target``, by seat (made once)."""
        found = self._routes.get(target)
        if found is None:
            found = self._routes[target] = Routes(self, target)
        return found

    def outlets_free(self, seat: int) -> list[int]:
        """Which of ``seat``'s :meth:`outlets` can take a card named nowhere more (made once).

        Those in piles the observer does not take (it would name the card).
        """
        key = (seat, None)
        found = self._outlets_to.get(key)
        if found is None:
            found = self._outlets_to[key] = [
                n
                for n, (group, _) in enumerate(self.outlets(seat))
                if self.taken.get(self.pile_of[group], (-1, 0))[0] != self.seat
            ]
        return found

    def labelling(self) -> _twins.Labelling:
        """The sightings of this view's copies, and the labellings drawn (made once)."""
        if self._labelling is None:
            self._labelling = _twins.Labelling(self)
        return self._labelling

    def first_at(self, target: Target) -> list[Card]:
        """The cards of one copy the log first names at ``target``."""
        first_at = self._first_at
        if first_at is None:
            first_at = {}
            for card, first in self.first.items():
                first_at.setdefault(first, []).append(card)
            self._first_at = first_at
        return first_at.get(target, [])

    def next_target(self, card: Card, after: int) -> Target | None:
        """Where the log next names ``card`` after event ``after``; None for nowhere."""
        return self.heading([(after, card)])[0][2]

    def _sighted(self, card: Card) -> tuple[list[int], list[Target]]:
        """When the log names ``card``, and where, apart (made once; for bisection)."""
        seen_at = self.sightings.get(card, [])
        found = self._whens[card] = ([when for when, _ in seen_at], [t for _, t in seen_at])
        return found

    def carries(self, group: int) -> bool:
        """Whether the group at ``group`` has slots for cards the observer never saw there."""
        played = self.events[group]
        assert isinstance(played, Played)
        if played.seat == self.seat:
            return False
        return group not in self.revealed or group in self.partial


class Routes:
    """How cards named next at one target can get there unseen: a network over time.

    Each of the other players' groups nobody saw that can take a card to
    the target is a node, "in that player's hand just before that group"; a
    card there stays for the player's next such group, or goes into this
    one (as many as its slots nobody saw), and on with its pile: to the
    target (a group of the pile the observer takes there; a pile the target
    hand takes before then) or into the taker's hand, at its next such group.
    """

    def __init__(self, plan: Plan, target: Target) -> None:
        self.target = target
        deadline = target[2]
        reach = plan.reach
        groups = [
            group
            for group in plan.plays[: bisect_left(plan.plays, deadline)]
            if plan.carries(group) and reach.on_table(group, target)
        ]
        self.groups = groups
        self.sink = len(groups)
        self.seat_of = [plan._seat_of(group) for group in groups]
        slots = [plan._count_of(g) - len(plan.revealed.get(g, ())) for g in groups]
        # Per seat: its groups here, in time order (for bisection), by node.
        self.times: dict[int, list[int]] = {}
        self.nodes: dict[int, list[int]] = {}
        for node, (group, seat) in enumerate(zip(groups, self.seat_of, strict=True)):
            self.times.setdefault(seat, []).append(group)
            self.nodes.setdefault(seat, []).append(node)
        self.arcs: list[list[tuple[int, int]]] = [[] for _ in range(len(groups) + 1)]
        self.known: dict[tuple[tuple[int, int], ...], int] = {}  # flows worked out, by supply
        for node, group in enumerate(groups):
            seat = self.seat_of[node]
            later = self.entry(seat, group)
            if later is not None:
                self.arcs[node].append((later, -1))
            onward = self.landing(plan, group)
            if onward is not None:
                self.arcs[node].append((onward, slots[node]))

    def entry(self, seat: int, after: int) -> int | None:
        """The node of a card in ``seat``'s hand just after event ``after``; None if none."""
        times = self.times.get(seat)
        if times is None:
            return None
        at = bisect_right(times, after)
        return self.nodes[seat][at] if at < len(times) else None

    def landing(self, plan: Plan, group: int) -> int | None:
        """Where a card in ``group``, on the table, goes: the sink, a node, or None."""
        kind, which, deadline = self.target
        pile = plan.pile_of[group]
        if kind == "pile" and pile == which:
            return self.sink
        taker, when = plan.taken.get(pile, (-1, len(plan.events)))
        if taker < 0 or taker == plan.seat or when >= deadline:
            return None
        if kind == "hand" and taker == which:
            return self.sink
        return self.entry(taker, when)

    def start(self, plan: Plan, seat: int | None, after: int) -> int | None:
        """Where a card starts: the sink if it is there already; None if it cannot get there.

        From ``seat``'s hand just after event ``after``; for ``seat`` None,
        from the group laid at ``after``, on the table.
        """
        if seat is None:
            return self.landing(plan, after)
        if self.target[:2] == ("hand", seat):
            return self.sink
        return self.entry(seat, after)

    def carried(self, supply: dict[int, int]) -> int:
        """How many of the cards at ``supply`` (node: how many) get to the target."""
        key = tuple(sorted(supply.items()))
        found = self.known.get(key)
        if found is None:
            if len(self.known) >= 4096:
                self.known.clear()
            found = self.known[key] = routed(self.arcs, supply, self.sink)
        return found


class Reach:
    """Whether a token at a place can still get to a target: one backward pass per target.

    ``ok[e]`` is a bit mask of the seats from whose hand, just before event
    ``e``, a token can still be where the target says. A token leaves a hand
    only in a group its player lays; a group the observer did not see goes
    with its pile to the taker, or stays on the table.
    """

    def __init__(self, plan: Plan, shown: bool = False) -> None:
        self.plan = plan
        self.passes: dict[Target, list[int]] = {}
        # Whether cards the observer sees move on too: groups turned over, its
        # own groups and the piles it takes (a copy seen there may be named
        # again later). For a card of one copy, each sighting is a target of
        # its own, so the search follows it exactly without this.
        self.shown = shown

    def _pass(self, target: Target) -> list[int]:
        found = self.passes.get(target)
        if found is not None:
            return found
        kind, which, deadline = target
        ok = [0] * (deadline + 1)
        mask = 1 << which if kind == "hand" else 0
        plan = self.plan
        plays = plan.plays
        top = deadline  # ok[top + 1:] is filled; only plays change the mask
        for index in reversed(plays[: bisect_left(plays, deadline)]):
            ok[index + 1 : top + 1] = [mask] * (top - index)
            top = index
            event = plan.events[index]
            assert isinstance(event, Played)
            bit = 1 << event.seat
            stays = plan.size_before[index] > event.count and mask & bit
            if stays or self._laid(index, target, ok):
                mask |= bit
            else:
                mask &= ~bit
        ok[: top + 1] = [mask] * (top + 1)
        self.passes[target] = ok
        return ok

    def _laid(self, group: int, target: Target, ok: list[int]) -> bool:
        """Whether a token laid in ``group`` (unseen) can reach ``target``."""
        plan = self.plan
        if not plan.carries(group) and not self.shown:
            return False
        return self.on_table(group, target, ok)

    def on_table(self, group: int, target: Target, ok: list[int] | None = None) -> bool:
        """Whether a token in ``group``, on the table, can reach ``target``."""
        plan = self.plan
        pile = plan.pile_of[group]
        if target[0] == "pile" and target[1] == pile:
            return True
        taker, when = plan.taken.get(pile, (-1, len(plan.events)))
        if when >= target[2] or (taker == plan.seat and not self.shown):
            return False
        return self.in_hand(taker, when, target, ok)

    def in_hand(self, seat: int, after: int, target: Target, ok: list[int] | None = None) -> bool:
        """Whether a token in ``seat``'s hand just after event ``after`` can reach ``target``."""
        if after >= target[2]:
            return False
        passes = ok if ok is not None else self._pass(target)
        return bool(passes[after + 1] >> seat & 1)

    def hands_reaching(self, after: int, target: Target) -> int:
        """A bit mask of the seats whose hand just after event ``after`` can reach ``target``."""
        return 0 if after >= target[2] else self._pass(target)[after + 1]

    def reaches(self, kind: str, which: int, after: int, target: Target) -> bool:
        """Whether a token in a hand, group or stock just after ``after`` can reach ``target``."""
        if kind == "hand":
            return self.in_hand(which, after, target)
        if kind == "table":
            return self.on_table(which, target)
        return self.in_stock(which, target)

    def laid_by_observer(self, card: Card, after: int, target: Target) -> bool:
        """Whether the observer lays ``card`` after ``after`` where it can reach ``target``."""
        return any(
            after < group < target[2] and self.on_table(group, target)
            for group in self.plan.own_plays.get(card, ())
        )

    def in_stock(self, position: int, target: Target) -> bool:
        """Whether the stock token at ``position`` can reach ``target``."""
        draws = self.plan.stock_draws
        if position >= len(draws):
            return False
        drawer, when = draws[position]
        return drawer != self.plan.seat and self.in_hand(drawer, when, target)


def tops_of(cards: tuple[Card, ...]) -> dict[Rank, int]:
    """Per rank of ``cards``, the highest key among them."""
    tops: dict[Rank, int] = {}
    for card in cards:
        tops[card.rank] = max(tops.get(card.rank, -1), card.key)
    return tops


def grouped(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """``cards``, the copies of each card together: the order :meth:`Search._pinned` takes."""
    return tuple(card for card, count in Counter(cards).items() for _ in range(count))


def fours_checks(events: Sequence[Event]) -> dict[int, tuple[int, int, tuple[Rank, ...]]]:
    """Where compulsory discards check a taker's hand: after the pickup and its draw.

    By the event after which the check is made: the pickup's index, the
    taker, and the ranks it sets aside (it holds no other four). A player
    whose last, true group was challenged leaves between the pickup and the
    fours (:class:`WentOut`), and where that ends the game nobody sets
    fours aside.
    """
    checks: dict[int, tuple[int, int, tuple[Rank, ...]]] = {}
    for index, event in enumerate(events):
        if not isinstance(event, PileTaken):
            continue
        after = index
        following = events[after + 1] if after + 1 < len(events) else None
        if isinstance(following, Drew) and following.seat == event.seat:
            after += 1
        later = after + 1
        while later < len(events) and isinstance(events[later], WentOut):
            later += 1
        following = events[later] if later < len(events) else None
        if isinstance(following, GameOver):
            continue  # the pickup ended the game: nobody sets fours aside
        ranks: tuple[Rank, ...] = ()
        if isinstance(following, Discarded) and following.forced:
            ranks = following.ranks
        checks[after] = (index, event.seat, ranks)
    return checks
