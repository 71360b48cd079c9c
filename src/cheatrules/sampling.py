"""Whole games consistent with what one seat saw, for Monte-Carlo search.

:func:`sample` returns a complete :class:`~cheatrules.GameState` (deal and
history) that the seat could not tell from the real one: observing it from
that seat gives the very same observation, while the cards the seat did not
see are placed at random.

How it works. Every card in play is a *token*: each seat's hand as dealt,
the cards set aside, the stock. The observer's tokens carry their card from
the start; another token gets its card when the log first names it (a group
turned over, a four discarded, a pile the observer took), or at the end, at
random, from the cards nobody saw. The log fixes everything but the deal and
which tokens went into each group the observer did not see, so the sampler
replays the log in time order and, at each such group, draws the tokens the
player laid. Tokens are exchangeable when they are headed for the same next
sighting, so a choice is a count per class of tokens, drawn with weight the
number of token subsets it stands for. A choice is kept only if it passes an
exact test for each card alone (every card the log names later can still get
there, a private ``_Reach``) and a matching test for the unnamed tokens together
(enough of them can still reach the places where the log names new cards);
the matching test runs again only after a card with copies was given or where laying a
group changes where a token can go.

With copies of a card (two packs, more than two jokers) a card the log
names twice may be one copy that travelled or both copies. Two searches
take turns there, each turn with twice the budget of its last (the private
``_with_copies``). The first tells the copies apart (the private ``_twins``
module): each sighting is given a copy, so that every copy's sightings form
a path a card can travel, and the view of one-copy cards this labelling
makes is searched as above, with two more tests on the named cards a hand
holds from some event on (in it now, on the table in a pile it takes later,
or named in a group still to be laid into such a pile): those the log names
next elsewhere must fit the slots of its groups nobody saw (a matching),
and each stays until such a group can take it or the log names it, so at
none of its plays may more stay than the hand keeps. They run after each
play and pickup of that hand, and after each play that lays a named card
into a pile it takes. A labelling is drawn at random, mended where it asks
a hand to pass on or keep more copies than that, and searched in runs cut
at Luby lengths; what the search blames a labelling
for leans the later draws, and a labelling whose search fails at such a
hand is most often repaired there rather than drawn afresh. The second
search follows copies by counting instead:
wherever the log names copies of a card later, the tokens that have it or
may still get it and can get there must be enough, card by card and for
all the cards named there together; each card's copies can meet its later
sightings in time order, one copy a sighting (a chain test); a pile the
observer takes may hold only cards it names, less its own there, and a hand
that lays into such a pile must still hold enough of them and shed the rest
in time; and a four set aside takes the lowest copies of its rank, so no
lower one stays in that hand. That test runs once before a play's choices
too, and bounds how many tokens of each such card, and how many with no
card yet, the group may take where a later sighting is reached from the
hand but not from the table or the other way round. A card shown in a hand
is one of that hand's tokens with the card, or a new one while copies are
left: the search tries both. Each search finds games the other is slow on.
Under compulsory discards with copies the counting search runs alone.

Where two cards compete for one slot and the tests miss it, a search backs
up to the latest choice with alternatives left. Backing up chronologically
can take exponentially long when the conflict lies far back, so runs are
cut at lengths that follow the Luby sequence (1 1 2 1 1 2 4 ... times four
passes over the log) and each starts again from the first event in a fresh
random order: most runs are short, so an early choice that dooms a late
group costs little, and some are long enough for a view that needs a long
backtrack. The counting search stalls at one conflict after another, far
apart, so it does not start from the first event each time: where it
replays a stretch without getting deeper it goes back a span of events
before the deepest event it reached and draws every choice from there
afresh, the span doubling while it stalls no deeper (the private
``_Restarts``). Under compulsory discards a hand noted just after a pickup may hold no four
it did not set aside: the search refuses a step that breaks that, looks
ahead from each unseen play to its player's later checks, and deals the
cards nobody saw under those limits (the private ``_fourless`` module), backing
up where no deal fits. A hard budget of events replayed bounds the whole search and
raises :class:`SamplingBudgetError` (never met on the benchmarks' views
with one pack; see the seat-view guide for two packs). A view no game can
give (a hand-made, contradictory one) raises its base, :class:`SamplingError`.
"""

from __future__ import annotations

import itertools
import random
import weakref
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import suppress
from math import comb
from operator import attrgetter, itemgetter

import attrs

from cheatrules import _fourless, _twins
from cheatrules._checks import whole_number
from cheatrules._matching import assigned, matched, routed, unmatched
from cheatrules.actions import Accept, Action, Challenge, Discard, Pass, Play, Refuse
from cheatrules.cards import Card, Deck, Rank
from cheatrules.errors import CheatRulesError
from cheatrules.events import (
    Accepted,
    Challenged,
    Dealt,
    Discarded,
    Drew,
    Event,
    GameOver,
    Passed,
    PileTaken,
    Played,
    Refused,
    Revealed,
    WentOut,
)
from cheatrules.observation import Observation
from cheatrules.rules import Rules
from cheatrules.state import GameState

__all__ = ["SamplingBudgetError", "SamplingError", "sample"]

_KEY = attrgetter("key")  # a card's sort key, without the comparison's type check


class SamplingError(CheatRulesError):
    """No game was found for this observation.

    Raised as it is, the view contradicts itself: no game gives it (it was
    not made by a game). Its subclass :class:`SamplingBudgetError` says
    instead that the search gave up before finding one.
    """


class SamplingBudgetError(SamplingError):
    """The sampler's search spent its work budget before it found a game.

    The view may well be one a game gives: a larger ``budget`` (or another
    ``rng``) may find one. ``budget`` is the budget that was spent, and
    ``events`` the length of the view's log.
    """

    def __init__(self, budget: int, seat: int, events: int) -> None:
        super().__init__(  # in English only, as the sampler's other errors (languages guide)
            "the sampler's search spent its work budget (%(budget)s events replayed) on"
            " seat %(seat)s's view of %(events)s events; a larger budget may find a game",
            budget=budget,
            seat=seat,
            events=events,
        )
        self.budget = budget
        self.events = events


#: The default work budget of :func:`sample`: events replayed by its search, in all.
BUDGET = 1_000_000

#: How often, after a labelling's search fails where named cards could not
#: leave a hand (or all stay in it), the next labelling is that one
#: repaired there rather than one drawn afresh.
_REPAIRS = 0.9

#: Per deck: how many copies of each card, the cards of one copy, and whether
#: every card but the jokers has one copy (read only; a deck is a value).
_DECKS: dict[Deck, tuple[Counter[Card], frozenset[Card], bool]] = {}


def _deck_facts(deck: Deck) -> tuple[Counter[Card], frozenset[Card], bool]:
    """Copies of each card of ``deck``, its cards of one copy, and whether all but jokers are."""
    facts = _DECKS.get(deck)
    if facts is None:
        copies = Counter(deck.cards())
        singles = frozenset(card for card, count in copies.items() if count == 1)
        unique = all(count == 1 for card, count in copies.items() if card.rank is not Rank.JOKER)
        facts = _DECKS[deck] = (copies, singles, unique)
    return facts


def sample(
    seen: Observation, rng: random.Random, attempts: int = 2000, *, budget: int = BUDGET
) -> GameState:
    """A whole game the seat of ``seen`` could not tell from the real one.

    Returns a :class:`~cheatrules.GameState` whose deal and history agree
    with everything the seat saw, with the hidden cards placed at random:
    ``sample(seen, rng).observe(seen.seat) == seen``. The game has a fresh
    seed from ``rng``, which seeds the draws still to come; the cards the
    seat saw a check draw are scripted into it
    (:attr:`~cheatrules.GameState.draws`). Both are part of its value.

    The search covers every choice of laid cards, depth first; a run that
    grows long restarts in a fresh random order. With copies of each card
    (two packs) it tells the copies apart, each sighting given a copy at
    random, and takes turns with a search that follows copies by counting.
    The whole search stops at ``budget`` events replayed (see the limits in
    the seat-view guide: compulsory discards, and deep views with two
    packs). How close the samples are to uniform over the histories the
    seat cannot rule out is measured in the seat-view guide.

    Args:
        seen: the seat's view.
        rng: the source of every random choice.
        attempts: unused; kept so that calls written for the earlier
            random-tries sampler still run.
        budget: the most events the search may replay, counting each replay
            after backing up; the search restarts from the first event, in a
            fresh random order, after runs of Luby lengths (1 1 2 1 1 2 4
            ... times four passes over the log). With copies told apart, a
            labelling drawn costs one pass over the log, and one event per
            eight sightings each time it is mended.

    Raises:
        SamplingBudgetError: the search spent its ``budget`` without finding
            a game (a :class:`SamplingError`): the view may be consistent,
            and a larger budget or another ``rng`` may find one.
        SamplingError: no game gives this view (a hand-made, inconsistent
            observation).
        RulesError: ``budget`` is not a whole number of at least 1.

    """
    budget = whole_number(budget, "budget", 1)
    dealt = seen.events[0]
    if not isinstance(dealt, Dealt):
        raise CheatRulesError("an observation's log starts with the deal")
    plan = _plan_of(seen, dealt)
    if plan.unique or plan.rules.discards.compulsory:
        state = _searched(seen, plan, rng, budget)
    else:
        state = _with_copies(seen, plan, rng, budget)
    if state is not None:
        return state
    raise SamplingError(f"no game gives seat {seen.seat}'s view: it contradicts itself")


# The plans of the views sampled lately, by the view's id while it lives: a
# bot that samples one view many times reads its log once.
_PLANS: dict[int, tuple[weakref.ref[Observation], _Plan]] = {}


def _plan_of(seen: Observation, dealt: Dealt) -> _Plan:
    """The plan of ``seen``: made once per view while the view lives, then shared."""
    key = id(seen)
    kept = _PLANS.get(key)
    if kept is not None and kept[0]() is seen:
        return kept[1]
    plan = _Plan(seen.rules, seen.seat, seen.events, dealt)
    with suppress(TypeError):  # a view that cannot be weakly referenced is not kept
        _PLANS[key] = (weakref.ref(seen, lambda _: _PLANS.pop(key, None)), plan)
    return plan


def _searched(seen: Observation, plan: _Plan, rng: random.Random, budget: int) -> GameState | None:
    """A game the search finds for ``plan`` within ``budget`` events replayed, else ``None``.

    Raises:
        SamplingBudgetError: the search spent its budget.

    """
    for _ in range(8):  # a new search only where its random picks are not all alike
        search = _Search(plan, rng)
        built = search.run(budget)
        budget -= search.spent
        if built is None:
            return None
        for attempt in range(64):
            state = _game(seen, plan, built, rng, None if attempt else built.dealt)
            if state is not None:
                return state
        if search.exhaustive:
            return None
    return None


def _with_copies(
    seen: Observation, plan: _Plan, rng: random.Random, budget: int
) -> GameState | None:
    """A game for a view with copies of cards: two searches take turns until one finds it.

    The search with each copy told apart (:func:`_twinned`) finds most games
    soonest; the search that follows copies by counting (:func:`_searched`)
    finds some that it is slow on. Each turn gives a search twice the
    budget of its last: the first 16 passes over the log, and the counting
    search a quarter of that (an event costs it eight to twenty times as
    much, so it gets most of the time).

    Raises:
        SamplingBudgetError: the turns spent the budget.

    """
    share, spent = 16 * len(plan.events), 0
    while spent < budget:
        for search, part in ((_twinned, share), (_searched, share // 4)):
            turn = min(part, budget - spent)
            spent += turn
            if turn <= 0:
                continue
            with suppress(SamplingBudgetError):  # this turn's budget spent: the other's turn
                return search(seen, plan, rng, turn)  # None: no game gives the view
        share *= 2
    raise SamplingBudgetError(budget, plan.seat, len(plan.events))


def _twinned(seen: Observation, plan: _Plan, rng: random.Random, budget: int) -> GameState | None:
    """A game found with each copy of a card told apart; None if no labelling fits any game.

    Each labelling of the log's copies (the private ``_twins`` module) makes
    a view of cards of one copy, searched exhaustively for a game in runs cut
    at Luby lengths (times two passes over the log): a labelling no game fits
    is most often refused within a few passes, and one that fits is most
    often searched straight through; from the second labelling on, each
    play is also checked across hands (:meth:`_Search._routed`), which
    most views never need. Where a search fails at a hand that
    cannot pass its named cards on, the next labelling is most often
    (:data:`_REPAIRS`) that one with those cards' links drawn again, the
    rest kept; else a new one. A labelling costs one pass over the log
    (its plan), and each time it is mended an event for every eight
    sightings it re-checks, out of ``budget``.

    Raises:
        SamplingBudgetError: the labellings and their searches spent the budget.

    """
    labelling = plan.labelling()
    if not labelling.consistent:
        return None
    copies = _twins.twins(plan.copies)
    facts = (copies, frozenset(copies), True)
    spent, tries, mend = 0, 0, max(1, labelling.size // 8)
    last: tuple[dict[Card, list[list[int]]], list[tuple[Card, _Target]]] | None = None
    while spent < budget:
        tries += 1
        if last is not None and rng.random() < _REPAIRS:
            labels = labelling.repair(*last, rng)
        else:
            labels = labelling.draw(rng)
        spent += len(plan.events) + labels.mends * mend
        if labels.drawn is None or spent >= budget:
            continue
        events = labelling.events_with(labels.drawn)
        dealt = events[0]
        assert isinstance(dealt, Dealt)
        twin_plan = _Plan(seen.rules, seen.seat, events, dealt, facts, layout=plan)
        search = _Search(twin_plan, rng, labelling.blame, across=tries > 1)
        run = min(budget - spent, _luby(tries) * 2 * len(events))
        try:
            built = search.run(run)
        except SamplingBudgetError:  # cut: another labelling
            built = None
        spent += search.spent
        if built is None:
            last = (labels.drawn, search.stuck) if search.stuck else None
            continue
        for _ in range(64):
            state = _game(seen, twin_plan, built, rng, plain=_twins.plain)
            if state is not None:
                return state
    raise SamplingBudgetError(budget, plan.seat, len(plan.events))


#: Where a card the log names must be: ("hand", seat, event) just before that
#: event, or ("pile", pile, event) in a group of the pile the observer takes then.
_Target = tuple[str, int, int]


@attrs.frozen
class _Copy:
    """The class of the tokens with a card that has copies, named next at ``target``.

    ``card`` is set where the counting test caps how many tokens of that card
    the group may take: those tokens form a class of their own.
    """

    target: _Target
    card: Card | None = None


#: Where a copy of a card is, for the chain test: the sighting it last met; a
#: place holding its token now, as (kind, which, -1); or _FREE, a copy no token has yet.
_Unit = tuple[str, int, int]
_FREE: _Unit = ("", -1, -1)


def _when_named(item: tuple[tuple[Card, _Target], int]) -> tuple[int, str, int]:
    """A sighting's order: by event, then place."""
    (_, (kind, which, when)), _ = item
    return when, kind, which


#: A later four set aside, seen from a hand: per rank its highest key, the copies it takes
#: below that, and the cards the hand can shed until then (:meth:`_Plan.discards_ahead`).
_Floors = tuple[dict[Rank, int], Counter[Card], int]


#: A token's class at a hidden play: "U" (no card yet), "F" (free), "X" (barred from
#: a pile the observer takes), its next target (a card of one copy), or a
#: :class:`_Copy` for a card with copies.
_Class = str | _Target | _Copy


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


class _Plan:
    """The shape of the observer's log, read once: piles, sightings, hand sizes.

    Kept per view (:func:`_plan_of`) and shared by its samples, with what the
    searches work out from it alone: where a token can go (:class:`_Reach`),
    each play's classes of cards and whether it leaves the matching as it was.
    It holds no reference to the view, which keys it weakly.
    """

    def __init__(
        self,
        rules: Rules,
        seat: int,
        events: Sequence[Event],
        dealt: Dealt,
        facts: tuple[Counter[Card], frozenset[Card], bool] | None = None,
        layout: _Plan | None = None,
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
        self.draws: dict[int, Card] = {}
        self.size_before: dict[int, int] = {}  # Played index -> its player's hand size
        self.stock_draws: list[tuple[int, int]] = []  # each stock token: (drawer, Drew index)
        self.sightings: dict[Card, list[tuple[int, _Target]]] = {}
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
        self.reach = _Reach(self)
        self.copy_reach = _Reach(self, shown=True)
        if layout is not None:
            self._share(layout)
        # Each turned-over group's cards, the copies of each card together (the
        # order _Search._pinned takes them in), and where the log first names
        # each card of one copy.
        self.shown = {group: _grouped(cards) for group, cards in self.revealed.items()}
        self.first = {
            card: seen[0][1] for card, seen in self.sightings.items() if card in self.singles
        }
        self.steady: dict[int, bool] = {}  # by play: whether it leaves the matching as it was
        self.classes: dict[int, dict[Card, _Class]] = {}  # by play: each card's class there

    def _worked_out(self) -> None:
        """What the searches work out from the log alone when first asked, kept here."""
        self._ahead: dict[int, list[_Ahead]] = {}
        self._into: dict[int, tuple[Counter[Rank], Counter[Rank]] | None] = {}
        self._seen_ahead: dict[tuple[int, int], list[tuple[Counter[Card], int, int, int]]] = {}
        self._moves: list[list[tuple[int, int, int]]] | None = None  # per seat: plays, discards
        self._floors_ahead: dict[tuple[int, int], list[_Floors]] = {}
        self._onward: dict[tuple[Card, _Target, _Target], bool] = {}
        self._outlets: dict[int, list[tuple[int, int]]] = {}
        self._outlets_to: dict[tuple[int, _Target | None], list[int]] = {}
        self._routes: dict[_Target, _Routes] = {}
        self._named_at: dict[_Target, frozenset[Card]] | None = None
        self._named_into: dict[int, list[tuple[int, tuple[int, Card, _Target | None, int]]]] = {}
        self._exit_times: dict[int, dict[_Target | None, list[int]]] = {}
        self._room_after: dict[int, list[tuple[int, int]]] = {}
        # Per card, the events of its sightings and where, apart (for bisection).
        self._whens: dict[Card, tuple[list[int], list[_Target]]] = {}
        self._labelling: _twins.Labelling | None = None
        self._first_at: dict[_Target, list[Card]] | None = None

    def _share(self, layout: _Plan) -> None:
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
        self.copy_needs: Counter[tuple[Card, _Target]] = Counter()
        # The same by place, and per card in time order: (target, copies named there).
        self.copy_targets: dict[_Target, Counter[Card]] = {}
        self.copy_sights: dict[Card, list[tuple[_Target, int]]] = {}
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
        """Where compulsory discards check a taker's hand: after the pickup and its draw.

        A player whose last, true group was challenged leaves between the
        pickup and the fours (:class:`WentOut`), and where that ends the game
        nobody sets fours aside.
        """
        events = self.events
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
            self.checks[index] = (event.seat, ranks)
            self.fours_at[after] = index
        for group in self.pile_of:
            played = events[group]
            assert isinstance(played, Played)
            cards = played.cards if played.seat == self.seat else self.revealed.get(group, ())
            if cards:
                self.known_ranks[group] = Counter(card.rank for card in cards)

    def _sight(self, card: Card, target: _Target) -> None:
        self.sightings.setdefault(card, []).append((target[2], target))

    def _read_revealed(self, index: int, event: Revealed, groups: list[int]) -> None:
        group = groups[-2] if event.earlier else groups[-1]
        self.revealed[group] = event.cards
        self.revealed_at[index] = group
        played = self.events[group]
        assert isinstance(played, Played)
        if len(event.cards) < played.count:
            self.partial.add(group)
            self.draws[index - 1] = event.cards[0]
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
        laid = [self.events[group] for group in groups]
        if event.count < sum(played.count for played in laid if isinstance(played, Played)):
            final, kept = groups[-1], laid[-1]
            assert isinstance(kept, Played)
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
                tops = _tops(event.cards)
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
        if self._moves is None:
            self._moves = [[] for _ in self.dealt.hand_sizes]
            for when, event in enumerate(self.events):
                if isinstance(event, Played):
                    self._moves[event.seat].append((when, self.pile_of[when], event.count))
                elif isinstance(event, Discarded):
                    self._moves[event.seat].append((when, -1, len(event.cards)))
                elif isinstance(event, PileTaken | Drew):
                    self._moves[event.seat].append((when, -2, event.count))
        moves = self._moves[seat]
        return moves[bisect_right(moves, (index, len(self.events))) :]

    def _seat_of(self, group: int) -> int:
        played = self.events[group]
        assert isinstance(played, Played)
        return played.seat

    def named_into(self, seat: int, index: int) -> list[tuple[int, Card, _Target | None, int]]:
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

    def heading(self, held: Iterable[tuple[int, Card]]) -> list[tuple[int, Card, _Target | None]]:
        """Each card ``(since, card)`` with where the log next names it after ``since``, or None."""
        whens = self._whens
        found = []
        for since, card in held:
            named = whens.get(card) or self._sighted(card)
            at = bisect_right(named[0], since)
            found.append((since, card, named[1][at] if at < len(named[0]) else None))
        return found

    def spans(self, seat: int, held: Iterable[tuple[int, _Target | None]]) -> list[tuple[int, int]]:
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

    def _exits(self, seat: int, target: _Target | None) -> list[int]:
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

    def onward(self, card: Card, seen: _Target, target: _Target) -> bool:
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
            found = self._outlets[seat] = []
            for group in self.plays:
                played = self.events[group]
                assert isinstance(played, Played)
                if played.seat == seat and self.carries(group):
                    found.append((group, played.count - len(self.revealed.get(group, ()))))
        return found

    def on_table(self, group: int, target: _Target) -> bool:
        """Whether a card in ``group``, on the table, can get to ``target`` unseen."""
        return self.reach.on_table(group, target)

    def stranded(self, seat: int, leaving: Sequence[tuple[int, _Target]]) -> list[int]:
        """Which cards leaving ``seat``'s hand find no slot in its groups nobody saw.

        Each card, ``(since, target)``, leaves after event ``since`` in one of
        the player's groups nobody saw whose pile can take it to ``target``,
        one slot each: the cards a largest matching leaves out.
        """
        outlets = self.outlets(seat)
        edges = [
            [n for n in self.outlets_to(seat, target) if outlets[n][0] > since]
            for since, target in leaving
        ]
        return unmatched(edges, [slots for _, slots in outlets])

    def outlets_to(self, seat: int, target: _Target) -> list[int]:
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

    def named_at(self, target: _Target) -> frozenset[Card]:
        """The cards the log names at ``target`` (made once)."""
        if self._named_at is None:
            found: dict[_Target, set[Card]] = {}
            for card, seen_at in self.sightings.items():
                for _, where in seen_at:
                    found.setdefault(where, set()).add(card)
            self._named_at = {where: frozenset(cards) for where, cards in found.items()}
        return self._named_at.get(target, frozenset())

    def unrouted(self, target: _Target, groups: Sequence[int]) -> bool:
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

    def routes(self, target: _Target) -> _Routes:
        """The groups nobody saw that can take a card toward ``target``, by seat (made once)."""
        found = self._routes.get(target)
        if found is None:
            found = self._routes[target] = _Routes(self, target)
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

    def first_at(self, target: _Target) -> list[Card]:
        """The cards of one copy the log first names at ``target``."""
        if self._first_at is None:
            self._first_at = {}
            for card, first in self.first.items():
                self._first_at.setdefault(first, []).append(card)
        return self._first_at.get(target, [])

    def next_target(self, card: Card, after: int) -> _Target | None:
        """Where the log next names ``card`` after event ``after``; None for nowhere."""
        return self.heading([(after, card)])[0][2]

    def _sighted(self, card: Card) -> tuple[list[int], list[_Target]]:
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


class _Routes:
    """How cards named next at one target can get there unseen: a network over time.

    Each of the other players' groups nobody saw that can take a card to
    the target is a node, "in that player's hand just before that group"; a
    card there stays for the player's next such group, or goes into this
    one (as many as its slots nobody saw), and on with its pile: to the
    target (a group of the pile the observer takes there; a pile the target
    hand takes before then) or into the taker's hand, at its next such group.
    """

    def __init__(self, plan: _Plan, target: _Target) -> None:
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

    def landing(self, plan: _Plan, group: int) -> int | None:
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

    def start(self, plan: _Plan, seat: int | None, after: int) -> int | None:
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


class _Reach:
    """Whether a token at a place can still get to a target: one backward pass per target.

    ``ok[e]`` is a bit mask of the seats from whose hand, just before event
    ``e``, a token can still be where the target says. A token leaves a hand
    only in a group its player lays; a group the observer did not see goes
    with its pile to the taker, or stays on the table.
    """

    def __init__(self, plan: _Plan, shown: bool = False) -> None:
        self.plan = plan
        self.passes: dict[_Target, list[int]] = {}
        # Whether cards the observer sees move on too: groups turned over, its
        # own groups and the piles it takes (a copy seen there may be named
        # again later). For a card of one copy, each sighting is a target of
        # its own, so the search follows it exactly without this.
        self.shown = shown

    def _pass(self, target: _Target) -> list[int]:
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

    def _laid(self, group: int, target: _Target, ok: list[int]) -> bool:
        """Whether a token laid in ``group`` (unseen) can reach ``target``."""
        plan = self.plan
        if not plan.carries(group) and not self.shown:
            return False
        return self.on_table(group, target, ok)

    def on_table(self, group: int, target: _Target, ok: list[int] | None = None) -> bool:
        """Whether a token in ``group``, on the table, can reach ``target``."""
        plan = self.plan
        pile = plan.pile_of[group]
        if target[0] == "pile" and target[1] == pile:
            return True
        taker, when = plan.taken.get(pile, (-1, len(plan.events)))
        if when >= target[2] or (taker == plan.seat and not self.shown):
            return False
        return self.in_hand(taker, when, target, ok)

    def in_hand(self, seat: int, after: int, target: _Target, ok: list[int] | None = None) -> bool:
        """Whether a token in ``seat``'s hand just after event ``after`` can reach ``target``."""
        if after >= target[2]:
            return False
        passes = ok if ok is not None else self._pass(target)
        return bool(passes[after + 1] >> seat & 1)

    def hands_reaching(self, after: int, target: _Target) -> int:
        """A bit mask of the seats whose hand just after event ``after`` can reach ``target``."""
        return 0 if after >= target[2] else self._pass(target)[after + 1]

    def reaches(self, kind: str, which: int, after: int, target: _Target) -> bool:
        """Whether a token in a hand, group or stock just after ``after`` can reach ``target``."""
        if kind == "hand":
            return self.in_hand(which, after, target)
        if kind == "table":
            return self.on_table(which, target)
        return self.in_stock(which, target)

    def laid_by_observer(self, card: Card, after: int, target: _Target) -> bool:
        """Whether the observer lays ``card`` after ``after`` where it can reach ``target``."""
        return any(
            after < group < target[2] and self.on_table(group, target)
            for group in self.plan.own_plays.get(card, ())
        )

    def in_stock(self, position: int, target: _Target) -> bool:
        """Whether the stock token at ``position`` can reach ``target``."""
        draws = self.plan.stock_draws
        if position >= len(draws):
            return False
        drawer, when = draws[position]
        return drawer != self.plan.seat and self.in_hand(drawer, when, target)


@attrs.define
class _State:
    """Where every token is at one moment of the replay, and the cards given so far."""

    bound: dict[int, Card]
    used: Counter[Card]
    hands: list[list[int]]
    table: list[tuple[int, list[int]]]  # (Played index, tokens), oldest first
    drawn: int = 0
    laid: dict[int, tuple[int, ...]] = attrs.Factory(dict)  # Played index -> tokens
    # Compulsory discards: hands that must hold no four but the ranks given.
    fours: list[tuple[tuple[int, ...], tuple[Rank, ...]]] = attrs.Factory(list)
    # Where the log first names each card of one copy that no token has yet,
    # counted by place (the matching test's demand), and whether a card with
    # copies was given since that test last passed (it must run again).
    demand: Counter[_Target] = attrs.Factory(Counter)
    dirty: bool = True
    first: dict[Card, _Target] = attrs.Factory(dict)  # shared by every copy, never changed
    # With copies: a four set aside takes the lowest copies of its rank, so a
    # token still in that hand then holds no lower one (token -> rank -> the
    # least key it may hold; each inner dict replaced, never changed).
    floors: dict[int, dict[Rank, int]] = attrs.Factory(dict)
    # Per noted hand: how many cards had been given (the size of ``bound``,
    # which keeps the order they were given in) when its slack was last
    # worked out, and that slack (see _fourless.slack); and how many when the
    # noted hands last passed their tests (only a card given changes them).
    four_marks: list[tuple[int, int]] = attrs.Factory(list)
    fours_passed: int = -1

    def copy(self) -> _State:
        return _State(
            dict(self.bound),
            Counter(self.used),
            [list(hand) for hand in self.hands],
            [(index, list(tokens)) for index, tokens in self.table],
            self.drawn,
            dict(self.laid),
            list(self.fours),
            Counter(self.demand),
            self.dirty,
            self.first,
            dict(self.floors) if self.floors else self.floors,
            list(self.four_marks),
            self.fours_passed,
        )

    def bind(self, token: int, card: Card, copies: int) -> bool:
        """Give ``token`` the card ``card``, if it has none and a copy is left."""
        if token in self.bound:
            return self.bound[token] == card
        if self.used[card] >= copies or not self.above_floor(token, card):
            return False
        self.bound[token] = card
        self.used[card] += 1
        first = self.first.get(card)
        if first is not None:
            # A card of one copy is given where the log first names it, to a
            # token there: one token and one unit of demand go together from
            # a place that only that place's tokens reach (and they reach all
            # alike), so a matching that passed still passes.
            self.demand[first] -= 1
        else:
            self.dirty = True  # a copy takes an unnamed token from the matching's supply
        return True

    def above_floor(self, token: int, card: Card) -> bool:
        """Whether ``token`` may hold ``card``: no lower copy than a four its hand set aside."""
        floor = self.floors.get(token) if self.floors else None
        return floor is None or card.key >= floor.get(card.rank, -1)


@attrs.frozen
class _Draw:
    """A choice of how many tokens of each class to lay; which ones is drawn when it is tried."""

    pinned: list[int]
    pools: list[list[int]]
    vector: tuple[int, ...]

    def tokens(self, rng: random.Random) -> tuple[int, ...]:
        """The tokens laid: the pinned ones and, from each class, its count at random."""
        chosen = list(self.pinned)
        for pool, count in zip(self.pools, self.vector, strict=True):
            if count:
                chosen.extend(rng.sample(pool, count))
        return tuple(chosen)


#: A choice at one step: the tokens to lay (a play) or None for a step without choice.
_Choice = tuple[int, ...] | None


@attrs.frozen
class _Built:
    """A finished replay: the tokens dealt and the cards they got so far."""

    state: _State
    tokens: int
    hands: list[list[int]]
    aside: list[int]
    stock: list[int]
    # Under compulsory discards: a deal of every token that the search found
    # fits (the first game tried takes it).
    dealt: dict[int, Card] | None = None


class _Search:
    """The replay in time order, with a stack of the choices that had alternatives left."""

    def __init__(
        self,
        plan: _Plan,
        rng: random.Random,
        blame: _twins.Blame | None = None,
        across: bool = True,
    ) -> None:
        self.plan = plan
        self.rng = rng
        # With copies told apart: where the tests refuse a choice, the
        # labelling's choices they blame (see _twins).
        self.blame = blame
        # With copies told apart: whether each play is also checked across
        # hands (_routed): an eighth more per event, so only from a turn's
        # second labelling on (most views need one).
        self.across = across
        # The deepest event where named cards could not leave a hand (or
        # stay in it), and those cards (with where each is named next): what
        # a labelling repair draws again.
        self.stuck_at = -1
        self.stuck: list[tuple[Card, _Target]] = []
        self.reach = plan.reach
        self.copy_reach = plan.copy_reach
        dealt = plan.dealt
        token = 0
        hands: list[list[int]] = []
        for size in dealt.hand_sizes:
            hands.append(list(range(token, token + size)))
            token += size
        self.initial = [list(hand) for hand in hands]
        self.aside = list(range(token, token + dealt.set_aside_count))
        token += dealt.set_aside_count
        self.stock = list(range(token, token + dealt.stock_count))
        self.tokens = token + dealt.stock_count
        self.singles = plan.singles
        first = plan.first
        # The places of first sightings, each once, soonest first (for the matching's shortcut).
        self.first_targets = sorted(set(first.values()), key=lambda target: target[2])
        self.start = _State({}, Counter(), hands, [], demand=Counter(first.values()), first=first)
        self.steady = plan.steady
        self.classes = plan.classes
        self.spent = 0  # events replayed, in all runs
        # Which unnamed card of a hand a card shown there was is drawn at random
        # and never revisited: that is every choice while the unnamed cards of
        # a hand are alike, but not when a four must not form (compulsory
        # discards). With copies, the tokens of one class are drawn at random
        # too, though copies of different cards may share a class. There a
        # search that finds nothing starts again.
        self.copied = bool(plan.copy_needs)
        self.copies_in_deck = not plan.unique
        self.compulsory = plan.rules.discards.compulsory
        self.exhaustive = not self.compulsory and plan.unique

    def _setup(self) -> bool:
        """The observer's own tokens: its hand as dealt and the cards it drew."""
        plan, state = self.plan, self.start
        own = zip(state.hands[plan.seat], plan.dealt.hands[plan.seat], strict=True)
        if not all(state.bind(token, card, plan.copies[card]) for token, card in own):
            return False
        position = 0
        for event in plan.events:
            if isinstance(event, Drew):
                if event.seat == plan.seat:
                    tokens = self.stock[position : position + event.count]
                    pairs = zip(tokens, event.cards, strict=True)
                    if not all(state.bind(t, c, plan.copies[c]) for t, c in pairs):
                        return False
                position += event.count
        return True

    def run(self, budget: int) -> _Built | None:
        """Replay the log depth first, starting afresh where it stalls; None if no game gives it.

        Raises:
            SamplingBudgetError: the search spent ``budget`` events.

        """
        if not self._setup():
            return None
        events, quiet = self.plan.events, self.plan.quiet
        stack: list[tuple[int, _State, list[_Choice | _Draw]]] = []
        state, index = self.start.copy(), 0
        options: list[_Choice | _Draw] | None = None
        restarts = _Restarts(len(events), partial=self.copies_in_deck)
        while self.spent < budget:
            if restarts.due():
                # Back to the latest choice at or before the event the policy
                # names (the first event: a fresh start), its options drawn afresh.
                back = restarts.back_to()
                while stack and stack[-1][0] > back:
                    stack.pop()
                if back > 0 and stack:
                    index, state, _ = stack.pop()
                else:
                    stack, state, index = [], self.start.copy(), 0
                restarts.resume(index)
                options = None
                continue
            if options is None:
                if index == len(events):
                    built = self._built(state)
                    if built is not None:
                        return built
                    options = []  # no deal of the cards left fits: back up
                elif index in quiet:  # an event that moves no token: nothing to choose or test
                    self.spent += 1
                    restarts.step(index)
                    index += 1
                    continue
                else:
                    options = self._options(index, events[index], state)
            if not options:
                if stack:
                    index, state, options = stack.pop()
                elif self.exhaustive:
                    return None  # every choice was tried: no game gives this log
                else:
                    restarts.now()  # random picks the search does not branch on: start again
                continue
            if len(options) > 1:
                stack.append((index, state.copy(), options[1:]))
            self.spent += 1
            restarts.step(index)
            choice = options[0]
            if isinstance(choice, _Draw):
                choice = choice.tokens(self.rng)
            if self._apply(index, events[index], state, choice) and self._fours(index, state):
                index += 1
                options = None
            else:
                options = []  # a dead end: back up to the latest alternative
        raise SamplingBudgetError(budget, self.plan.seat, len(self.plan.events))

    def _built(self, state: _State) -> _Built | None:
        """The finished replay; under compulsory discards, None if the cards left fit no deal."""
        built = _Built(state, self.tokens, self.initial, self.aside, self.stock)
        if not state.fours:
            return built
        dealt = _fill(self.plan, built, self.rng)
        return None if dealt is None else attrs.evolve(built, dealt=dealt)

    # -- the choices at each step ----------------------------------------------------

    def _options(self, index: int, event: Event, state: _State) -> list[_Choice | _Draw]:
        """The choices at event ``index``, in the random order to try them."""
        plan = self.plan
        if isinstance(event, Discarded):
            picks = self._pinned(event.cards, state.hands[event.seat], state)
            return [tuple(pick) for pick in picks]
        if not isinstance(event, Played) or event.seat == plan.seat:
            return [None]
        options: list[_Choice | _Draw] = []
        for pinned in self._pinned(plan.revealed.get(index, ()), state.hands[event.seat], state):
            options.extend(self._draws(index, event, pinned, state))
        # With copies and several choices, the counting test as things stand,
        # the player's tokens free to stay or go (its reach just before the
        # play): where it fails, every choice here would, as events since its
        # last run (a pile the observer took, time passing a hand by) may have
        # settled. With one choice, the test after it costs the same.
        if len(options) > 1 and self.copied and not self._enough_copies(index - 1, state):
            return []
        return options

    def _draws(self, index: int, event: Played, pinned: list[int], state: _State) -> list[_Draw]:
        """The counts per class of the tokens laid unseen beside ``pinned``, in random order."""
        slots = event.count - len(pinned)
        if slots == 0:
            return [_Draw(pinned, [], ())]
        # Under compulsory discards, tokens alike otherwise differ by the
        # rank of their card: a later check may need it laid or kept.
        classes: dict[tuple[_Class, object], list[int]] = {}
        skip, bound, known = set(pinned), state.bound, self.classes.setdefault(index, {})
        caps = self._copy_caps(index, event, state) if self.copied else {}
        unnamed: list[int] | None = None
        for token in state.hands[event.seat]:
            if token in skip:
                continue
            card = bound.get(token)
            if card is None:
                if unnamed is None:
                    unnamed = classes["U", None] = []
                unnamed.append(token)
                continue
            key = known.get(card) or known.setdefault(card, self._class(card, index))
            if card in caps and isinstance(key, _Copy):
                key = _Copy(key.target, card)
            apart = card.rank if self.compulsory else None
            classes.setdefault((key, apart), []).append(token)
        keys = [key for key, _ in classes]
        pools = list(classes.values())
        bounds = [
            self._bounds(index, event, key, len(pool), state)
            for key, pool in zip(keys, pools, strict=True)
        ]
        if caps:
            bounds = self._capped(keys, bounds, caps, pinned, state)
        vectors = _vectors([low for low, _ in bounds], [high for _, high in bounds], slots)
        if self.compulsory:
            vectors = self._fourless(index, event, pinned, state, classes, vectors)
        if len(vectors) == 1:
            return [_Draw(pinned, pools, vectors[0])]
        weights = [_weight(vector, [len(pool) for pool in pools]) for vector in vectors]
        order = _fourless.weighted_order(vectors, weights, self.rng)
        return [_Draw(pinned, pools, vector) for vector in order]

    def _fourless(
        self,
        index: int,
        event: Played,
        pinned: list[int],
        state: _State,
        classes: dict[tuple[_Class, object], list[int]],
        vectors: list[tuple[int, ...]],
    ) -> list[tuple[int, ...]]:
        """``vectors`` less those that leave a later noted hand a four too many.

        Under compulsory discards each pickup is followed by a check that the
        taker's hand holds no four but those it sets aside. Cards the
        observer knows (its own, those turned over) go with their groups, so
        a check's hand holds at least the player's known cards of a rank that
        its later plays cannot all carry off, with the known ones of the
        piles it takes until then: this play must lay the excess. And a pile
        whose taker is checked holds at most a four less one of a rank (its
        taker keeps whatever it holds): this play may lay only what is left.
        """
        least, most = self._four_limits(index, event, pinned, state)
        if not least and not most:
            return vectors
        ranks = [apart for _, apart in classes]
        kept: list[tuple[int, ...]] = []
        for vector in vectors:
            laid: Counter[object] = Counter()
            for rank, count in zip(ranks, vector, strict=True):
                if count:
                    laid[rank] += count
            if all(laid[rank] >= n for rank, n in least.items()) and all(
                laid[rank] <= n for rank, n in most.items()
            ):
                kept.append(vector)
        return kept

    def _four_limits(
        self, index: int, event: Played, pinned: list[int], state: _State
    ) -> tuple[Counter[Rank], Counter[Rank]]:
        """How few and how many cards of each rank the unpinned slots of this play must lay."""
        plan, bound, seat = self.plan, state.bound, event.seat
        shown = Counter(bound[t].rank for t in pinned if t in bound)
        held = Counter(
            bound[t].rank
            for t in state.hands[seat]
            if t in bound and t not in pinned and bound[t].rank is not Rank.JOKER
        )
        least: Counter[Rank] = Counter()
        for check in plan.ahead(index, seat):
            for rank, count in held.items():
                need = count + check.fixed[rank] - 4 * check.allowed[rank] - 3
                need -= check.slots + check.carried[rank]
                if check.back:  # what this play lays comes back: it cannot help
                    need += shown[rank]
                    if need > 0:
                        least[rank] = event.count + 1  # no choice here fits
                elif need > least[rank]:
                    least[rank] = need
        most: Counter[Rank] = Counter()
        into = plan.pile_check(index)
        if into is not None:
            allowed, later = into
            pile_of, pile = plan.pile_of, plan.pile_of[index]
            on_table = Counter(
                bound[t].rank
                for group, tokens in state.table
                if pile_of[group] == pile
                for t in tokens
                if t in bound
            )
            for rank in held:
                most[rank] = 4 * allowed[rank] + 3 - on_table[rank] - later[rank] - shown[rank]
        return least, most

    def _copy_caps(
        self, index: int, event: Played, state: _State
    ) -> dict[Card | None, tuple[int, int]]:
        """How few and how many tokens of each card with copies in the hand this group may take.

        Where a later sighting of a card can be reached from the hand but not
        from the table, each token laid here leaves it one short; where from
        the table but not from the hand, each token kept back does. The
        counting test (:meth:`_enough_copies`, run after the play) refuses a
        choice that lays more, or fewer, than the sighting can spare: bounding
        the counts before the draw spares the search those choices. The key
        ``None`` bounds the tokens with no card yet, which each such sighting
        can spare as far as they outnumber the copies it still lacks.
        """
        reach, plan, seat = self.copy_reach, self.plan, event.seat
        bound, hand = state.bound, state.hands[event.seat]
        held = Counter(bound[t] for t in hand if t in bound and plan.copies[bound[t]] > 1)
        free = sum(1 for t in hand if t not in bound)
        caps: dict[Card | None, tuple[int, int]] = {}
        places: list[tuple[str, int, Counter[Card], int]] | None = None
        for target, needs in plan.copy_targets.items():
            if target[2] <= index or (not free and needs.keys().isdisjoint(held)):
                continue
            laid, kept = reach.on_table(index, target), reach.in_hand(seat, index, target)
            if laid == kept:
                continue  # laying a token here changes nothing at this sighting
            if places is None:
                places = self._places(state)
            have, unnamed = self._copy_counts(index, target, needs, places)
            short = sum(max(0, need - have[card]) for card, need in needs.items())
            if kept and free:  # laying an unnamed token leaves one fewer for the copies lacking
                low, high = caps.get(None, (0, free))
                caps[None] = (low, min(high, unnamed - short))
            for card in held.keys() & needs.keys():
                spare = have[card] + plan.copies[card] - state.used[card] - needs[card]
                low, high = caps.get(card, (0, held[card]))
                if kept:  # have[card] counted the hand's tokens: lay at most the spare ones
                    caps[card] = (low, min(high, spare))
                else:  # it did not: lay enough of them
                    caps[card] = (max(low, -spare), high)
        return caps

    @staticmethod
    def _capped(
        keys: list[_Class],
        bounds: list[tuple[int, int]],
        caps: dict[Card | None, tuple[int, int]],
        pinned: list[int],
        state: _State,
    ) -> list[tuple[int, int]]:
        """``bounds`` within ``caps`` for the classes of one card (or none), less those pinned.

        The tokens with no card yet may form several classes (compulsory
        discards part them): then each is held to the most, and the counting
        test after the play checks their sum and the least.
        """
        shown = Counter(state.bound.get(token) for token in pinned)
        capped: list[tuple[int, int]] = []
        whole = keys.count("U") == 1
        for key, (low, high) in zip(keys, bounds, strict=True):
            card = key.card if isinstance(key, _Copy) else None
            if card is not None or (key == "U" and None in caps):
                least, most = caps[card]
                if card is not None or whole:
                    low = max(low, least - shown[card])
                high = min(high, most - shown[card])
            capped.append((low, high) if low <= high else (1, 0))
        return capped

    def _pinned(self, shown: tuple[Card, ...], hand: list[int], state: _State) -> list[list[int]]:
        """Each way, in random order, to take tokens of ``hand`` for the cards ``shown``.

        A card is a token that has it already or one with no card yet (a copy
        still left); tokens of a hand alike in that are alike in all, so the
        ways differ only in how many of each card's tokens are new.
        """
        ways: list[list[int]] = [[]]
        if not shown:
            return ways
        bound, wanted = state.bound, Counter(shown)
        held: dict[Card, list[int]] = {}
        unnamed: list[int] = []
        for token in hand:
            card = bound.get(token)
            if card is None:
                unnamed.append(token)
            elif card in wanted:
                held.setdefault(card, []).append(token)
        # Without fours to keep out or copies set aside, any unnamed token may be any card.
        any_card = not state.fours and not state.floors
        for card, count in wanted.items():
            have = held.get(card, [])
            left = self.plan.copies[card] - state.used[card]
            grown: list[list[int]] = []
            for chosen in ways:
                free = [
                    t
                    for t in (unnamed if left else ())
                    if t not in chosen and (any_card or self._may_be(t, card, state))
                ]
                for new in range(max(0, count - len(have)), min(count, left, len(free)) + 1):
                    fresh = self.rng.sample(free, new)
                    grown.append(chosen + have[: count - new] + fresh)
            ways = grown
        if len(ways) > 1:
            self.rng.shuffle(ways)
        return ways

    def _may_be(self, token: int, card: Card, state: _State) -> bool:
        """Whether ``token`` may be ``card``.

        Not if that completes a four a hand never set aside, nor if it is a
        lower copy than a four its hand set aside (:meth:`_floored`).
        """
        if not state.above_floor(token, card):
            return False
        if not state.fours or card.rank is Rank.JOKER:
            return True
        return all(
            _fourless.room_for(card.rank, hand, ranks, state.bound) > 0
            for hand, ranks in state.fours
            if token in hand
        )

    def _class(self, card: Card, index: int) -> _Class:
        """The class at the play at ``index`` of a token with ``card``: where it is named next.

        "X" for a card that cannot go into this group: the observer takes its
        pile and does not name the card there.
        """
        named = self.plan.others_in_pile.get(self.plan.pile_of[index])
        if named is not None and not named[card]:
            return "X"
        target = self.plan.next_target(card, index)
        if target is None:
            return "F"
        return target if card in self.singles else _Copy(target)

    def _bounds(
        self, index: int, event: Played, key: _Class, size: int, state: _State
    ) -> tuple[int, int]:
        """How few and how many tokens of a class of ``size`` may go into this group."""
        plan = self.plan
        stays = plan.size_before[index] > event.count
        if isinstance(key, tuple):
            stays = stays and self.reach.in_hand(event.seat, index, key)
        high = size if self._goes(index, key) else 0
        pile = plan.pile_of[index]
        if key == "U" and plan.taken.get(pile, (-1, 0))[0] == plan.seat:
            high = min(high, plan.fresh_in_pile[pile] - self._unnamed_in(pile, state))
        low = 0 if stays else size
        return (low, high) if low <= high else (1, 0)

    def _goes(self, index: int, key: _Class) -> bool:
        """Whether a token of class ``key`` may go into the group of the play at ``index``.

        Not "X" (barred from the pile), nor a card named next where that pile
        cannot take it, nor a card named nowhere more into a pile the observer
        takes (it would name it). A card with copies may: another copy may be
        named there instead.
        """
        if key == "X":
            return False
        if isinstance(key, _Copy):
            return True
        if isinstance(key, tuple):
            return self.reach.on_table(index, key)
        if key == "F":
            return self.plan.taken.get(self.plan.pile_of[index], (-1, 0))[0] != self.plan.seat
        return True

    def _unnamed_in(self, pile: int, state: _State) -> int:
        """Tokens with no card yet in the groups of ``pile`` on the table."""
        pile_of = self.plan.pile_of
        return sum(
            1
            for index, tokens in state.table
            if pile_of[index] == pile
            for token in tokens
            if token not in state.bound
        )

    # -- following the log -----------------------------------------------------------

    def _apply(self, index: int, event: Event, state: _State, choice: _Choice) -> bool:
        """Move the tokens as event ``index`` says; False on a dead end."""
        plan = self.plan
        if isinstance(event, Played):
            shown = plan.shown.get(index, ())
            if choice is None:  # the observer's own play
                choice = self._own(state.hands[event.seat], event.cards, state)
                if choice is None:
                    return False
                shown = ()
            copies = plan.copies
            if not all(state.bind(t, c, copies[c]) for t, c in zip(choice, shown, strict=False)):
                return False
            hand = state.hands[event.seat]
            for token in choice:
                hand.remove(token)
            state.table.append((index, list(choice)))
            state.laid[index] = choice
            if event.seat == plan.seat:
                return True
            if self.copied and not self._enough_copies(index, state):
                return False
            # Cards turned over take copies that another hand's cards might have been.
            everyone = index in plan.shown
            if self.copies_in_deck and not self._sheds(
                index, state, None if everyone else event.seat
            ):
                return False
            if plan.twinned and not (
                self._leave(index, event.seat, state)
                and self._taker_leaves(index, event.seat, choice, state)
                and (not self.across or self._routed(index, event.seat, choice, state))
            ):
                return False
            if not state.dirty and self._steady(index, event):
                return True
            if not self._enough_unnamed(index, state):
                return False
            state.dirty = False
            return True
        if isinstance(event, PileTaken):
            return self._picked_up(index, event, state)
        if isinstance(event, Drew):
            tokens = self.stock[state.drawn : state.drawn + event.count]
            state.drawn += event.count
            state.hands[event.seat].extend(tokens)
            return True
        if isinstance(event, Discarded):
            assert choice is not None
            cards, copies = _grouped(event.cards), plan.copies
            if not all(state.bind(t, c, copies[c]) for t, c in zip(choice, cards, strict=True)):
                return False
            for token in choice:
                state.hands[event.seat].remove(token)
            # Copies told apart are still copies: a four set aside takes the lowest.
            return (plan.unique and not plan.twinned) or self._floored(event, state)
        return True

    def _picked_up(self, index: int, event: PileTaken, state: _State) -> bool:
        """The taker takes the pile up; False on a dead end."""
        if not self._taken(index, event, state):
            return False
        # The cards the observer takes up take copies, as cards turned over do.
        mover = None if event.seat == self.plan.seat else event.seat
        if mover is not None and self.plan.twinned and not self._leave(index, mover, state):
            return False
        return not self.copies_in_deck or self._sheds(index, state, mover)

    def _floored(self, event: Discarded, state: _State) -> bool:
        """Note that the cards left in the hand hold no lower copy of a rank set aside.

        The engine sets aside the lowest four of each rank a hand holds
        (copies of a card count apart); False if the hand keeps a lower one.
        """
        tops = _tops(event.cards)
        bound, floors = state.bound, state.floors
        for token in state.hands[event.seat]:
            card = bound.get(token)
            if card is not None:
                if card.key < tops.get(card.rank, -1):
                    return False
                continue
            floor = floors.get(token, {})
            floors[token] = {**floor, **{r: max(k, floor.get(r, -1)) for r, k in tops.items()}}
        return True

    def _sheds(self, index: int, state: _State, seat: int | None) -> bool:
        """Whether ``seat`` (None: every seat) can lay each later group into a pile seen taken.

        That is a pile the observer takes; such a group holds only cards the
        other players' groups there hold, as the observer names them. The
        cards of ``seat``'s hand named nowhere there must leave it before, in
        its groups laid elsewhere or its fours set aside; and the hand must
        hold enough cards named there, with those it takes up or draws until
        then (a card with no token yet may be one while copies are left).
        Likewise a hand that later sets a four aside must shed before then
        every copy of that rank lower than those it sets aside.
        """
        if seat is None:
            seats = range(len(state.hands))
            return all(self._sheds(index, state, other) for other in seats)
        if seat == self.plan.seat:
            return True
        hand, bound, plan = state.hands[seat], state.bound, self.plan
        for tops, below, room in plan.discards_ahead(index, seat):
            low = Counter(
                card
                for token in hand
                if (card := bound.get(token)) is not None and card.key < tops.get(card.rank, -1)
            )
            if (low - below).total() > room:
                return False
        ahead = plan.into_seen(index, seat)
        if not ahead:
            return True
        held = Counter(bound[token] for token in hand if token in bound)
        unnamed = len(hand) - held.total()
        for named, count, room, gained in ahead:
            barred = sum(number for card, number in held.items() if not named[card])
            if room - count < barred:
                return False
            fitting = sum(min(number, named[card]) for card, number in held.items())
            left = sum(min(n, plan.copies[c] - state.used[c]) for c, n in named.items())
            if fitting + min(unnamed, left) + gained < count:
                return False
        return True

    def _fours(self, index: int, state: _State) -> bool:
        """Under compulsory discards, note a taker's hand; False if a hand holds a four already."""
        pickup = self.plan.fours_at.get(index)
        bound = state.bound
        if pickup is not None:
            seat, ranks = self.plan.checks[pickup]
            state.fours.append((tuple(state.hands[seat]), ranks))
            state.four_marks.append((-1, 0))
        given = len(bound)
        if not state.fours or (pickup is None and state.fours_passed == given):
            return True
        # A card named later may complete a four in a hand noted earlier, or
        # leave too few cards to fill one without a four. Only the hands
        # holding a card given since the last pass can hold a four now, and
        # only those whose slack the cards given since may have used up can
        # be short.
        since = state.fours_passed
        fresh = set(itertools.islice(bound, since, None)) if since >= 0 else None
        left: Counter[Rank] | None = None
        for number, (hand, ranks) in enumerate(state.fours):
            at, slack = state.four_marks[number]
            touched = at < 0 or fresh is None or not fresh.isdisjoint(hand)
            if touched and _fourless.holds_extra_four(((hand, ranks),), bound):
                return False
            if at >= 0 and slack >= given - at:
                continue
            if left is None:
                left = Counter()
                for card, count in self.plan.copies.items():
                    left[card.rank] += count - state.used[card]
            slack = _fourless.slack(hand, ranks, bound, left)
            if slack < 0:
                return False
            state.four_marks[number] = (given, slack)
        state.fours_passed = given
        return True

    def _own(
        self, hand: list[int], cards: tuple[Card, ...], state: _State
    ) -> tuple[int, ...] | None:
        """The observer's tokens for the cards it laid."""
        wanted, bound = Counter(cards), state.bound
        chosen: list[int] = []
        for token in hand:
            card = bound.get(token)
            if card is not None and wanted[card] > 0:
                wanted[card] -= 1
                chosen.append(token)
                if len(chosen) == len(cards):
                    return tuple(chosen)
        return None

    def _taken(self, index: int, event: PileTaken, state: _State) -> bool:
        """The taker gains the pile (but a final play kept on the table).

        Where the observer takes it, the cards it names there that no token
        of the pile has yet go to the pile's unnamed tokens at random; where
        fours were set aside, by a matching that gives no token a lower copy
        than a four its hand set aside (a random pairing could, and refuse a
        pickup a game gives).
        """
        plan = self.plan
        kept = 1 if plan.kept.get(index) else 0
        taken = state.table[: len(state.table) - kept]
        state.table = state.table[len(state.table) - kept :]
        tokens = [token for _, group in taken for token in group]
        if event.seat == plan.seat:
            named = Counter(state.bound[t] for t in tokens if t in state.bound)
            wanted = Counter(event.cards)
            if named - wanted:
                return False
            fresh = list((wanted - named).elements())
            unnamed = [t for t in tokens if t not in state.bound]
            if len(fresh) != len(unnamed):
                return False
            self.rng.shuffle(fresh)
            if state.floors:  # a token below a four its hand set aside cannot be any card
                edges = [
                    [n for n, c in enumerate(fresh) if state.above_floor(t, c)] for t in unnamed
                ]
                match = assigned(edges, [1] * len(fresh))
                if -1 in match:
                    return False
                fresh = [fresh[n] for n in match]
            if not all(
                state.bind(t, c, plan.copies[c]) for t, c in zip(unnamed, fresh, strict=True)
            ):
                return False
        state.hands[event.seat].extend(tokens)
        return True

    def _leave(self, index: int, seat: int, state: _State) -> bool:
        """Whether ``seat``'s hand can pass on the named cards it must, and keep the rest.

        With copies told apart (twins), of the cards :meth:`_held` finds: a
        card the log names next in another place leaves this hand in one of
        the player's groups nobody saw whose pile can take it there, one slot
        each (a matching); and every card stays in the hand until such a
        group can take it or the log names it, while at each play the hand
        keeps only its size less the group (:meth:`_Plan.crowded`). Where
        either fails, each card it counts is blamed on its labelling: it
        would rather be a fresh copy where it is named next.
        """
        plan = self.plan
        held, ahead = self._held(index, seat, state)
        named = held + [(since, card, target) for since, card, target, _ in ahead]
        leaving = [
            (since, card, target)
            for since, card, target in named
            if target is not None and target[:2] != ("hand", seat)
        ]
        if leaving and plan.stranded(seat, [(since, t) for since, _, t in leaving]):
            # Which of them is to blame the matching cannot say: all of them.
            self._refused(index, [(card, target) for _, card, target in leaving])
            return False
        spans = plan.spans(seat, [(since, target) for since, _, target in held])
        kept = plan.crowded(seat, spans + [(since, until) for since, _, _, until in ahead])
        if kept:
            self._refused(index, [(card, t) for _, card, t in (named[n] for n in kept) if t])
            return False
        return True

    def _held(
        self, index: int, seat: int, state: _State
    ) -> tuple[list[tuple[int, Card, _Target | None]], list[tuple[int, Card, _Target | None, int]]]:
        """The named cards in ``seat``'s hand from some event on, and where each is named next.

        Those in its hand now and those on the table in a pile it takes
        later, as (since when, the card, where); and those the log names in
        groups of such a pile still to be laid (:meth:`_Plan.named_into`),
        each from that pickup on, with when it may leave at the soonest.
        """
        plan, bound = self.plan, state.bound
        held = [
            (index, card) for token in state.hands[seat] if (card := bound.get(token)) is not None
        ]
        for group, tokens in state.table:
            taker, when = plan.taken.get(plan.pile_of[group], (-1, 0))
            if taker == seat and when > index:
                held.extend((when, card) for t in tokens if (card := bound.get(t)) is not None)
        return plan.heading(held), plan.named_into(seat, index)

    def _taker_leaves(self, index: int, mover: int, laid: tuple[int, ...], state: _State) -> bool:
        """Whether named cards ``mover`` laid can leave, or stay in, the hand that takes this pile.

        The test of :meth:`_leave` for that player, run now rather than at
        the pickup, where the choice that laid them can still be changed.
        """
        plan = self.plan
        taker, _ = plan.taken.get(plan.pile_of[index], (plan.seat, 0))
        if taker in (plan.seat, mover) or not any(token in state.bound for token in laid):
            return True
        return self._leave(index, taker, state)

    def _routed(self, index: int, seat: int, laid: tuple[int, ...], state: _State) -> bool:
        """Whether the named cards can all get where the log names them next, across hands.

        For each place a card ``seat`` laid at ``index`` is named next, and
        each place but its own hand a card it kept is: a flow
        (:class:`_Routes`) of every card named next there, from where it is
        now (another player's hand, a group on the table, or a group the log
        names it in later, from the pickup), through the groups nobody saw,
        each as many as its slots. A card may pass through a third hand, whose slots its own
        cards need too: one hand's tests cannot see that. Each place alone:
        the slots are not shared out among places, nor the hands' room
        counted. Where a place's cards do not all get there, they are
        blamed (as by :meth:`_leave`).
        """
        plan, bound = self.plan, state.bound
        cards = [(index, card) for t in laid if (card := bound.get(t)) is not None]
        targets = {target for _, _, target in plan.heading(cards) if target is not None}
        kept = [(index, card) for t in state.hands[seat] if (card := bound.get(t)) is not None]
        targets.update(
            target
            for _, _, target in plan.heading(kept)
            if target is not None and target[:2] != ("hand", seat)
        )
        if not targets:
            return True
        wanted = set().union(*(plan.named_at(target) for target in targets))
        places: list[tuple[int | None, int, Card]] = []  # (seat, or None for a group; where; card)
        for seat, hand in enumerate(state.hands):
            if seat != plan.seat:
                places.extend(
                    (seat, index, card)
                    for t in hand
                    if (card := bound.get(t)) is not None and card in wanted
                )
        for group, tokens in state.table:
            places.extend(
                (None, group, card)
                for t in tokens
                if (card := bound.get(t)) is not None and card in wanted
            )
        supply: dict[_Target, Counter[int]] = {target: Counter() for target in targets}
        heading: dict[_Target, list[Card]] = {target: [] for target in targets}
        headed = plan.heading([(index, card) for _, _, card in places])
        ahead = [
            (seat, when, card, target)
            for seat in range(len(state.hands))
            if seat != plan.seat
            for when, card, target, _ in plan.named_into(seat, index)
            if target in supply
        ]
        found = [
            (whose, where, card, target)
            for (whose, where, _), (_, card, target) in zip(places, headed, strict=True)
            if target in supply
        ]
        for whose, where, card, target in found + ahead:
            assert target is not None
            routes = plan.routes(target)
            node = routes.start(plan, whose, where)
            if node is None:
                self._refused(index, [(card, target)])
                return False
            if node != routes.sink:
                supply[target][node] += 1
                heading[target].append(card)
        for target, nodes in supply.items():
            if nodes and plan.routes(target).carried(nodes) < nodes.total():
                self._refused(index, [(card, target) for card in heading[target]])
                return False
        return True

    def _refused(self, index: int, stuck: list[tuple[Card, _Target]]) -> None:
        """Blame the labelling for named cards a hand cannot pass on or keep at ``index``.

        Each would rather be a fresh copy where it is named next; the deepest
        such refusal is what a repair draws again.
        """
        if self.blame is not None:
            for card, target in stuck:
                self.blame[card.key, target, _twins.FRESH] += 1
        if index >= self.stuck_at:
            self.stuck_at, self.stuck = index, stuck

    def _enough_unnamed(self, index: int, state: _State) -> bool:
        """Whether the tokens with no card yet can still be everywhere the log first names a card.

        A bipartite matching: the places holding such tokens (each hand, each
        group on the table, each stock token) against the first sightings
        still to come, joined where :class:`_Reach` says a token can get there.
        """
        demand = +state.demand
        if not demand:
            return True
        supply = self._unnamed_places(state)
        reach = self.reach
        edges: list[list[int]] = []
        targets = list(demand)
        hands = [reach.hands_reaching(index, target) for target in targets]  # a mask each
        for kind, where, _ in supply:
            if kind == "hand":
                edges.append([i for i, mask in enumerate(hands) if mask >> where & 1])
            elif kind == "table":
                edges.append([i for i, t in enumerate(targets) if reach.on_table(where, t)])
            else:
                edges.append([i for i, t in enumerate(targets) if reach.in_stock(where, t)])
        capacity = [count for _, _, count in supply]
        need = [demand[target] for target in targets]
        if matched(edges, capacity, need) == sum(need):
            return True
        if self.blame is not None:  # twins first named there would rather be copies named before
            for target in targets:
                for card in self.plan.first_at(target):
                    self.blame[card.key, target, _twins.REUSE] += 1
        return False

    def _enough_copies(self, index: int, state: _State) -> bool:
        """Whether each later sighting of a card with copies can still be met.

        A counting test, for each place and time the log names copies of
        cards: each card's tokens that can get there, with the tokens with no
        card yet that can get there (as far as copies are left), must be
        enough for that card, and those tokens with no card for all the cards
        together. And :meth:`_piles_fit`.
        """
        copies, used = self.plan.copies, state.used
        places = self._places(state)
        for target, needs in self.plan.copy_targets.items():
            if target[2] <= index:
                continue
            have, unnamed = self._copy_counts(index, target, needs, places)
            short = 0
            for card, need in needs.items():
                gap = need - have[card]
                if gap > 0:
                    if gap > copies[card] - used[card]:
                        return False
                    short += gap
            if short > unnamed:
                return False
        return self._chained(index, state, places) and self._piles_fit(state)

    def _chained(
        self, index: int, state: _State, places: list[tuple[str, int, Counter[Card], int]]
    ) -> bool:
        """Whether each card's copies can be at all its later sightings, one copy a sighting.

        The counting test weighs each sighting alone; here each card's
        sightings after ``index`` are followed in time order by its copies
        together: a copy named once is named again only where it can go from
        there, and two sightings at once take two copies. A copy no token has
        yet may start anywhere (the counting test weighs the tokens free).
        """
        starts: dict[Card, list[_Unit]] | None = None
        copies, used = self.plan.copies, state.used
        for card, sights in self.plan.copy_sights.items():
            # One sighting left is the counting test's alone.
            if len(sights) < 2 or sights[-2][0][2] <= index:
                continue
            if starts is None:
                starts = {}
                for kind, which, cards, _ in places:
                    for held, count in cards.items():
                        starts.setdefault(held, []).extend([(kind, which, -1)] * count)
            units = [*starts.get(card, ()), *[_FREE] * (copies[card] - used[card])]
            if not self._follows(index, card, units, sights):
                return False
        return True

    def _follows(
        self, index: int, card: Card, units: list[_Unit], sights: list[tuple[_Target, int]]
    ) -> bool:
        """Whether copies at ``units`` can meet each of ``sights`` after ``index``."""
        layouts = {tuple(sorted(units))}
        for target, need in sights:
            if target[2] <= index:
                continue
            grown: set[tuple[_Unit, ...]] = set()
            for layout in layouts:
                able = [p for p, unit in enumerate(layout) if self._gets(index, card, unit, target)]
                for chosen in itertools.combinations(able, need):
                    moved = [unit for p, unit in enumerate(layout) if p not in chosen]
                    moved.extend([target] * need)
                    grown.add(tuple(sorted(moved)))
            if not grown:
                return False
            layouts = grown
        return True

    def _gets(self, index: int, card: Card, unit: _Unit, target: _Target) -> bool:
        """Whether a copy of ``card`` at ``unit`` just after ``index`` can get to ``target``."""
        kind, which, when = unit
        if when >= 0:  # a sighting it met
            return self.plan.onward(card, unit, target)
        if kind == "own":
            return self.copy_reach.laid_by_observer(card, index, target)
        return kind == "" or self.copy_reach.reaches(kind, which, index, target)

    def _copy_counts(
        self,
        index: int,
        target: _Target,
        needs: Counter[Card],
        places: list[tuple[str, int, Counter[Card], int]],
    ) -> tuple[Counter[Card], int]:
        """The tokens that can get to ``target`` after ``index``: by card of ``needs``; unnamed."""
        reach = self.copy_reach
        hands = reach.hands_reaching(index, target)
        have: Counter[Card] = Counter()
        unnamed = 0
        piles: dict[int, bool] = {}  # groups of one pile reach alike
        for kind, which, cards, free in places:
            if kind == "own":  # the observer's hand: its plays carry the cards they name
                for card in needs.keys() & cards.keys():
                    if reach.laid_by_observer(card, index, target):
                        have[card] += cards[card]
                continue
            if kind == "hand":
                if not hands >> which & 1:
                    continue
            elif kind == "table":
                pile = self.plan.pile_of[which]
                if pile not in piles:
                    piles[pile] = reach.on_table(which, target)
                if not piles[pile]:
                    continue
            elif not reach.in_stock(which, target):
                continue
            if len(needs) < len(cards):
                for card in needs:
                    number = cards.get(card)
                    if number:
                        have[card] += number
            else:
                for card, number in cards.items():
                    have[card] += number
            unnamed += free
        return have, unnamed

    def _piles_fit(self, state: _State) -> bool:
        """Whether each pile the observer takes holds only cards it names there, or may yet.

        Counting the other players' groups only: the observer's own groups
        hold what they lay, and the pile the rest.
        """
        named, pile_of, bound = self.plan.others_in_pile, self.plan.pile_of, state.bound
        own = self.plan.own_groups
        on_table: dict[int, tuple[Counter[Card], list[int]]] = {}
        for group, tokens in state.table:
            if pile_of[group] in named and group not in own:
                counted, free = on_table.setdefault(pile_of[group], (Counter(), [0]))
                counted.update(bound[t] for t in tokens if t in bound)
                free[0] += sum(1 for t in tokens if t not in bound)
        for pile, (counted, free) in on_table.items():
            if counted - named[pile]:
                return False
            room = named[pile] - counted
            left = self.plan.copies
            if sum(min(n, left[card] - state.used[card]) for card, n in room.items()) < free[0]:
                return False
        return True

    def _places(self, state: _State) -> list[tuple[str, int, Counter[Card], int]]:
        """Each place holding tokens: (kind, which, the cards they have, how many have none)."""
        bound = state.bound
        places: list[tuple[str, int, Counter[Card], int]] = []
        seat = self.plan.seat
        groups = [("own" if s == seat else "hand", s, h) for s, h in enumerate(state.hands)]
        groups += [("table", index, tokens) for index, tokens in state.table]
        # A card the observer draws later is its own, as the cards in its hand.
        draws = self.plan.stock_draws
        groups += [
            ("own" if p < len(draws) and draws[p][0] == seat else "stock", p, [self.stock[p]])
            for p in range(state.drawn, len(self.stock))
        ]
        for kind, which, tokens in groups:
            cards = Counter(bound[t] for t in tokens if t in bound)
            places.append((kind, which, cards, len(tokens) - sum(cards.values())))
        return places

    def _steady(self, index: int, event: Played) -> bool:
        """Whether laying this group leaves the matching test's answer as it was.

        So it is where every token of the player's hand with no card yet can
        reach the same first sightings whether it stays or is laid (the test
        need not run again unless a card with copies was given since it last
        passed).
        """
        steady = self.steady.get(index)
        if steady is None:
            plan, reach, seat = self.plan, self.reach, event.seat
            stays = plan.size_before[index] > event.count
            goes = plan.carries(index)
            steady = all(
                (not goes or reach.on_table(index, target) == before)
                and (not stays or reach.hands_reaching(index, target) >> seat & 1 == before)
                for target in self.first_targets
                if target[2] > index
                for before in (reach.hands_reaching(index - 1, target) >> seat & 1 == 1,)
            )
            self.steady[index] = steady
        return steady

    def _unnamed_places(self, state: _State) -> list[tuple[str, int, int]]:
        """Each place holding tokens with no card yet: (kind, which, how many)."""
        bound = state.bound
        places: list[tuple[str, int, int]] = []
        for seat, hand in enumerate(state.hands):
            count = sum(1 for token in hand if token not in bound)
            if count:
                places.append(("hand", seat, count))
        for index, group in state.table:
            count = sum(1 for token in group if token not in bound)
            if count:
                places.append(("table", index, count))
        for position in range(state.drawn, len(self.stock)):
            if self.stock[position] not in bound:
                places.append(("stock", position, 1))
        return places


def _tops(cards: tuple[Card, ...]) -> dict[Rank, int]:
    """Per rank of ``cards``, the highest key among them."""
    tops: dict[Rank, int] = {}
    for card in cards:
        tops[card.rank] = max(tops.get(card.rank, -1), card.key)
    return tops


#: How many events before the deepest it reached the search goes back when it first stalls (copies).
_SPAN = 32


class _Restarts:
    """When the search starts again, and from where: the policy against a choice far back.

    Backing up in time order can take exponentially long when the choice at
    fault lies far back. With one copy of each card the search makes runs
    whose lengths follow the Luby sequence (1 1 2 1 1 2 4 ... times four
    passes over the log), each from the first event in a fresh random order.
    With copies (``partial``) the tests are weaker, and a search stalls at
    one conflict after another, far apart: where it replays ``4 * span +
    64`` events without getting deeper, it goes back ``span`` events before
    the deepest event it reached and draws every choice from there afresh,
    keeping what came before. ``span`` starts at :data:`_SPAN`, doubles each
    time the search stalls no deeper than the time before, and is
    :data:`_SPAN` again where it stalls deeper; where it reaches back to the
    first event, the search starts afresh.
    """

    def __init__(self, events: int, partial: bool) -> None:
        self.partial = partial
        self.unit = 4 * events + 64  # events a Luby run of length 1 replays
        self.run = 1
        self.span = _SPAN
        self.idle = 0  # events replayed since the last start, or (partial) since it got deeper
        self.deepest = 0  # the deepest event reached since the last start
        self.stalled = -1  # where it stalled last (partial); -1 after a fresh start
        self.fresh = False  # start afresh now

    def step(self, index: int) -> None:
        """Event ``index`` replayed."""
        if index > self.deepest:
            self.deepest = index
            if self.partial:
                self.idle = 0
                return
        self.idle += 1

    def due(self) -> bool:
        """Whether the search should start again now."""
        if self.fresh:
            return True
        if self.partial:
            return self.idle >= 4 * self.span + 64
        return self.idle >= self.unit * _luby(self.run)

    def now(self) -> None:
        """Start afresh at once, from the first event."""
        self.fresh = True

    def back_to(self) -> int:
        """The event to start again from: 0 for a fresh start."""
        if self.fresh or not self.partial:
            self.run += 1
            return 0
        if self.deepest > self.stalled:
            self.span = _SPAN
        else:
            self.span *= 2
        self.stalled = self.deepest
        return max(0, self.deepest - self.span)

    def resume(self, index: int) -> None:
        """The search starts again at event ``index``."""
        if index == 0:
            self.stalled, self.span = -1, _SPAN
        self.fresh = False
        self.idle, self.deepest = 0, index


def _luby(run: int) -> int:
    """The ``run``-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...

    Runs of these lengths (times a unit) find a game about as soon as the
    best fixed length would, whatever that length is: most runs are short,
    so an unlucky early choice costs little, and some are long enough for a
    view that needs a long backtrack.
    """
    size = 1
    while size < run + 1:
        size = 2 * size + 1
    # size = 2**k - 1 >= run: the term is 2**(k-1) if run == size, else recurse.
    while True:
        if run == size:
            return (size + 1) // 2
        size //= 2
        if run > size:
            run -= size


def _grouped(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """``cards``, the copies of each card together: the order :meth:`_Search._pinned` takes."""
    return tuple(card for card, count in Counter(cards).items() for _ in range(count))


def _vectors(low: list[int], high: list[int], total: int) -> list[tuple[int, ...]]:
    """Every vector between ``low`` and ``high`` (inclusive) summing to ``total``."""
    if len(low) == 1:  # one class: most plays of a hand with no card named yet
        return [(total,)] if low[0] <= total <= high[0] else []
    found: list[tuple[int, ...]] = []
    room = list(itertools.accumulate(reversed(high[1:]), initial=0))[::-1]  # high's sums after

    def extend(prefix: tuple[int, ...], left: int) -> None:
        position = len(prefix)
        if position == len(low):
            if left == 0:
                found.append(prefix)
            return
        least, most = max(low[position], left - room[position]), min(high[position], left)
        for count in range(least, most + 1):
            extend((*prefix, count), left - count)

    if sum(low) <= total:
        extend((), total)
    return found


def _weight(vector: tuple[int, ...], sizes: list[int]) -> int:
    """How many token subsets a count per class stands for."""
    weight = 1
    for count, size in zip(vector, sizes, strict=True):
        weight *= comb(size, count)
    return weight


def _game(
    seen: Observation,
    plan: _Plan,
    built: _Built,
    rng: random.Random,
    dealt: dict[int, Card] | None = None,
    plain: Callable[[Card], Card] | None = None,
) -> GameState | None:
    """The game: the cards nobody saw dealt at random to the tokens left; None if it disagrees.

    ``dealt`` is a deal of every token already drawn (the search's own);
    ``plain`` turns the cards of a view with copies told apart back into cards.
    """
    bound = _fill(plan, built, rng) if dealt is None else dealt
    if bound is None:
        return None
    if plain is not None:
        bound = {token: plain(card) for token, card in bound.items()}
    hands = [[bound[token] for token in hand] for hand in built.hands]
    hidden = [bound[token] for token in built.aside]
    stock = [bound[token] for token in built.stock]
    actions = _actions(plan, built.state.laid, bound)
    draws = (
        plan.draws if plain is None else {when: plain(card) for when, card in plan.draws.items()}
    )
    return _replayed(seen, hands, hidden, stock, draws, actions, rng)


def _replayed(
    seen: Observation,
    hands: list[list[Card]],
    hidden: list[Card],
    stock: list[Card],
    draws: dict[int, Card],
    actions: Iterable[Action],
    rng: random.Random,
) -> GameState | None:
    """The game these cards and ``actions`` make, if ``seen``'s seat sees it as ``seen``; else None.

    The draws the seat saw are scripted into the game; the draws still to
    come are seeded by a fresh seed from ``rng``, so that samples draw apart
    as the seat's uncertainty does. Both are part of the value.
    """
    dealt = seen.events[0]
    assert isinstance(dealt, Dealt)
    seed = rng.getrandbits(63)
    # The cards come from the deck's own copies, one token each, so the
    # checks deal() makes of fixed hands are already met: deal them directly.
    state = GameState._dealt(
        seen.rules,
        tuple(tuple(sorted(hand, key=_KEY)) for hand in hands),
        seed=seed,
        dealer=dealt.dealer,
        set_aside=tuple(hidden),
        stock=tuple(stock),
    )
    if draws:
        state = attrs.evolve(state, draws=tuple(sorted(draws.items())))
    try:
        state = state._replay(list(actions))
    except CheatRulesError:
        return None
    return state if state.observe(seen.seat) == seen else None


def _actions(
    plan: _Plan, laid: dict[int, tuple[int, ...]], bound: dict[int, Card]
) -> Iterator[Action]:
    """The actions that replay the log with these cards (made as they are replayed)."""
    for index, event in enumerate(plan.events):
        if isinstance(event, Played):
            yield Play(tuple(bound[token] for token in laid[index]), event.rank)
        elif isinstance(event, Challenged):
            yield Challenge(earlier=event.earlier)
        elif isinstance(event, Accepted):
            yield Accept()
        elif isinstance(event, Passed):
            yield Pass()
        elif isinstance(event, Refused):
            yield Refuse()
        elif isinstance(event, Discarded) and not event.forced:
            yield Discard(event.ranks)


def _fill(plan: _Plan, built: _Built, rng: random.Random) -> dict[int, Card] | None:
    """Every token's card: the cards nobody saw go to the tokens left, at random.

    Under compulsory discards no hand noted after a pickup may hold a four
    it did not set aside (the private ``_fourless`` module); None if no deal fits.
    """
    state = built.state
    bound = state.bound
    pool = list((plan.copies - state.used).elements())
    free = [token for token in range(built.tokens) if token not in bound]
    if len(pool) < len(free):
        return None
    if state.floors:
        # The tokens held apart by a four set aside take their cards first,
        # each at random among the cards left it may hold.
        bound = dict(bound)
        for token in [token for token in free if token in state.floors]:
            allowed = [i for i, card in enumerate(pool) if state.above_floor(token, card)]
            if not allowed:
                return None
            bound[token] = pool.pop(rng.choice(allowed))
        free = [token for token in free if token not in bound]
    # A deal of a few cards each leaves some of the deck out of the game.
    return _fourless.fill(bound, free, pool, state.fours, rng)
