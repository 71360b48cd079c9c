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
there, the plan's ``Reach``) and a matching test for the unnamed tokens together
(enough of them can still reach the places where the log names new cards);
the matching test runs again only after a card with copies was given or where laying a
group changes where a token can go.

With copies of a card (two packs, more than two jokers) a card the log
names twice may be one copy that travelled or both copies. Two searches
take turns there, each turn with twice the budget of its last (the private
``_with_copies``). The first tells the copies apart (the private ``_sampler.twins``
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
at Luby lengths; what the search blames a labelling for leans the later
draws of the same call, and a labelling whose search fails at such a hand
is most often repaired there rather than drawn afresh. The second
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

The plan of a view, what its log alone fixes, is in the private
``_sampler.plan`` module; the search, and how it backs up and starts
again, in the private ``_sampler.search`` module. A hard budget of
events replayed bounds the whole search. The solver (the private
``_sampler.solver`` module, the ``cheatrules[solver]`` extra) takes the
views the search gives up on: a view it proves no game can give (a
hand-made, contradictory one) raises :class:`SamplingError`, and nothing
else does; a call out of budget or time raises :class:`SamplingBudgetError`.
"""

from __future__ import annotations

import functools
import math
import numbers
import random
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from operator import attrgetter

import attrs

from cheatrules._caches import kept_with
from cheatrules._checks import whole_number
from cheatrules._extras import install_hint
from cheatrules._persistent import Log
from cheatrules._sampler import solver as _solver
from cheatrules._sampler import twins as _twins
from cheatrules._sampler.plan import Plan, Target
from cheatrules._sampler.search import (
    UNTIMED,
    Built,
    Clock,
    SamplingBudgetError,
    SamplingError,
    SamplingTimeoutError,
    SamplingUnprovenError,
    Search,
    fill,
    luby,
)
from cheatrules.actions import Accept, Action, Challenge, Discard, Pass, Play, Refuse
from cheatrules.cards import Card
from cheatrules.chance import Chance
from cheatrules.errors import N_, CheatRulesError, RulesError
from cheatrules.events import (
    Accepted,
    Challenged,
    Dealt,
    Discarded,
    Event,
    Passed,
    Played,
    Refused,
)
from cheatrules.observation import Observation
from cheatrules.rules import Rules
from cheatrules.state import GameState

__all__ = [
    "SamplingBudgetError",
    "SamplingError",
    "SamplingTimeoutError",
    "SamplingUnprovenError",
    "check_served",
    "sample",
    "sample_with",
]


_KEY = attrgetter("key")  # a card's sort key, without the comparison's type check


#: The default work budget of :func:`sample`: events replayed by its search, in all.
BUDGET = 1_000_000


#: How often, after a labelling's search fails where named cards could not
#: leave a hand (or all stay in it), the next labelling is that one
#: repaired there rather than one drawn afresh.
_REPAIRS = 0.9


def sample(
    seen: Observation,
    rng: random.Random,
    *,
    budget: int | None = None,
    timeout: float | None = None,
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
    With the solver installed (the ``cheatrules[solver]`` extra), the
    search has two passes over the log (four with copies), and where it
    gives up or finds nothing the solver proves that no game gives the view
    or finds one, taking turns with the search, each twice as long as the
    last, where its integer program runs long (:func:`sample_with` chooses).
    How close the samples are to uniform over the histories the seat cannot
    rule out is measured in the seat-view guide.

    Args:
        seen: the seat's view.
        rng: the source of every random choice: the same view and the same
            ``rng`` state give the same game, whatever was sampled before
            or at the same time in another thread (save for the few views
            whose solve runs out of a slice or a turn of time, where the
            machine's speed decides which objective answers: the sampler's
            design page).
        budget: the most events the search may replay (with the solver: in
            its first share, and in each turn between the solver's),
            counting each replay after backing up; the search restarts from
            the first event, in a fresh random order, after runs of Luby
            lengths (1 1 2 1 1 2 4 ... times four passes over the log). With
            copies told apart, a labelling drawn costs one pass over the
            log, and one event per eight sightings each time it is mended.
        timeout: the most seconds of wall clock the whole call may take,
            search and solver together; ``None``, the default, bounds the
            search by ``budget`` and the solver and the search's turns
            between its own by a minute.

    Raises:
        SamplingTimeoutError: the call ran out of its ``timeout`` without
            finding a game (a :class:`SamplingBudgetError`).
        SamplingUnprovenError: without the solver, the search found no game,
            which proves nothing (a :class:`SamplingBudgetError`).
        SamplingBudgetError: no game found, and none proved impossible (a
            :class:`SamplingError`): the view may be consistent, and more
            budget, more time or another ``rng`` may find one.
        SamplingError: no game gives this view, proved by the solver (a
            hand-made, inconsistent observation).
        RulesError: ``budget`` is not a whole number of at least 1,
            ``timeout`` is not a number of seconds above 0, or the rules'
            check is one the sampler cannot serve (:func:`check_served`).

    """
    return sample_with(seen, rng, budget=budget, timeout=timeout, solver=_solver.available())


def sample_with(
    seen: Observation,
    rng: random.Random,
    *,
    budget: int | None = None,
    timeout: float | None = None,
    solver: bool,
) -> GameState:
    """:func:`sample`, with the solver (``solver=True``; it must be installed) or the search alone.

    A caller that would rather go without a world than wait for the solver
    passes ``solver=False``: :class:`~cheatrules.bots.SamplingBot` does, and
    skips the worlds its search does not find (a
    :class:`SamplingUnprovenError` or :class:`SamplingBudgetError`).

    Raises:
        ImportError: ``solver`` is true and the solver is not installed.

    """
    budget = BUDGET if budget is None else whole_number(budget, "budget", 1)
    clock = Clock.starting(_seconds(timeout))
    check_served(seen.rules)
    dealt = seen.events[0]
    if not isinstance(dealt, Dealt):
        raise CheatRulesError("an observation's log starts with the deal")
    if solver and not _solver.available():
        raise ImportError(f"the sampler's solver is not installed: {install_hint('solver')}")
    with _lent_plan(seen, dealt) as plan:
        if not solver:
            state = _search(seen, plan, rng, budget, clock)
            if state is None:
                raise SamplingUnprovenError(budget, seen.seat, len(plan.events))
            return state
        # The search first, for a share of the budget: it finds most games
        # soonest; the solver then proves that none exists, or finds one.
        # With copies under compulsory discards only the counting search
        # serves, at 200 to 500 microseconds an event: the solver alone is
        # faster there (the sampler's design page).
        state = None
        if plan.unique or not plan.rules.discards.compulsory:
            passes = _SEARCH_PASSES if plan.unique else _SEARCH_PASSES_WITH_COPIES
            share = min(budget, passes * len(plan.events))
            try:
                state = _search(seen, plan, rng, share, clock, counting=False)
            except SamplingTimeoutError:
                raise
            except SamplingBudgetError:
                state = None
        if state is None:
            state = _settled(seen, plan, rng, budget, clock)
    if state is not None:
        return state
    raise SamplingError(f"no game gives seat {seen.seat}'s view: it contradicts itself")


#: With the solver: the passes over the log the search may replay before the solver takes
#: over, with one pack and with copies of cards (where a labelling drawn costs a pass). Measured
#: (the sampler's design page): with one pack, two passes keep the median and cut the 99th
#: percentile of compulsory discards from 118 to 63 ms; with copies, four keep the median and
#: cut the 99th percentile of deep and crowded views by a fifth against eight.
_SEARCH_PASSES, _SEARCH_PASSES_WITH_COPIES = 2, 4

#: With the solver and no timeout: the seconds the solver and the search's turns between its
#: own may take in all, once the search's first share is spent.
_SOLVER_SECONDS = 60.0


def _search(
    seen: Observation,
    plan: Plan,
    rng: random.Random,
    budget: int,
    clock: Clock,
    counting: bool = True,
) -> GameState | None:
    """The hand-written search: a game, or ``None`` where it found none (not a proof).

    With copies of cards, the search that tells copies apart takes turns
    with the one that follows them by counting; with ``counting`` false (the
    solver takes the tail), the first searches alone, which measured as fast
    or faster at every percentile (the sampler's design page).
    """
    if plan.unique or plan.rules.discards.compulsory:
        return _searched(seen, plan, rng, budget, clock)
    if not counting:
        return _twinned(seen, plan, rng, budget, clock)
    return _with_copies(seen, plan, rng, budget, clock)


#: The first turn of the solver and of the search in :func:`_settled`, in seconds (each next
#: turn twice the last). Measured (the sampler's design page): most views the search gives up
#: on the solver answers in a quarter of a second; of the rest, a few take it from seconds to
#: minutes where the search finds a game in a tenth.
_FIRST_TURN = 0.5


def _settled(
    seen: Observation, plan: Plan, rng: random.Random, budget: int, clock: Clock
) -> GameState | None:
    """The solver and the search in turn, each turn twice as long as the last, until one answers.

    The solver proves that no game gives the view (``None``) or finds one; a
    solver turn that runs out is followed by a turn of the search, as long
    (both searches, with copies), which finds games the solver's integer
    program is slow on. ``budget`` bounds each of the search's turns in
    events replayed; the clock, or with no timeout :data:`_SOLVER_SECONDS`,
    bounds the whole.

    Raises:
        SamplingTimeoutError: the ``clock`` ran out before an answer.
        SamplingBudgetError: no timeout, and :data:`_SOLVER_SECONDS` are spent.

    """
    timed = clock.end is not None
    if not timed:
        clock = Clock.starting(_SOLVER_SECONDS)
    seconds = _FIRST_TURN
    while True:
        left = clock.remaining()
        assert left is not None
        if left <= 0:
            if not timed:
                raise SamplingBudgetError(budget, seen.seat, len(plan.events))
            assert clock.timeout is not None
            raise SamplingTimeoutError(clock.timeout, seen.seat, len(plan.events), 0)
        answer = _solved(seen, plan, rng, min(seconds, left))
        if not isinstance(answer, _Unknown):
            return answer
        try:
            state = _search(seen, plan, rng, budget, clock.part(seconds))
        except SamplingBudgetError:  # the turn's budget or time spent (a timeout is one)
            state = None
        if state is not None:
            return state
        seconds *= 2


class _Unknown:
    """:func:`_solved`'s answer where it found no world in its time (proving nothing)."""


_UNKNOWN = _Unknown()


def _solved(
    seen: Observation, plan: Plan, rng: random.Random, seconds: float
) -> GameState | _Unknown | None:
    """A game the solver finds, replayed through the engine, within ``seconds``.

    ``None`` where the solver proves that none exists; :data:`_UNKNOWN`
    where it runs out of time first, or where the engine refused every
    world it gave (a policy of one's own decided something the model does
    not say; each refusal asks again, with another objective).
    """
    if plan.solver_model is None:  # kept with the plan, for the view's next samples
        plan.solver_model = _solver.Model(seen.rules, seen.seat, plan.events, seen.to_move)
    end = time.monotonic() + seconds
    for _ in range(_REFUSALS):
        left = end - time.monotonic()
        if left <= 0:
            break
        world = plan.solver_model.solve(rng, left)
        if world == _solver.INFEASIBLE:
            return None
        if not isinstance(world, _solver.World):
            break
        state = _replayed(
            seen,
            [list(hand) for hand in world.hands],
            list(world.aside),
            list(world.stock),
            plan.draws,
            _world_actions(plan, world),
            rng,
        )
        if state is not None:
            return state
    return _UNKNOWN


#: How many worlds the engine may refuse in one solver turn.
_REFUSALS = 8


def _world_actions(plan: Plan, world: _solver.World) -> Iterator[Action]:
    """The actions that replay the log with the solver's cards."""
    plays = dict(world.plays)
    for index, event in enumerate(plan.events):
        if isinstance(event, Played):
            yield Play(plays.get(index, event.cards), event.rank)
        else:
            action = _action_of(event)
            if action is not None:
                yield action


def check_served(rules: Rules) -> None:
    """Whether :func:`sample` serves views under ``rules``: returns if so, else says why not.

    The sampler places each hidden card in a group, not at a place within
    it. So it serves a check that turns over a whole group, or cards that
    chance chose (its draw is scripted into the game it returns); a check
    that turns over some cards of a group *by their places* (the highest,
    the first laid) would tell it where a card lay in another seat's group,
    and it refuses such rules at once, for any view, rather than when a
    view first shows such a check. The answer is kept for the last few
    rules asked (it asks the check of groups of two cards and more).

    >>> import cheatrules as cr
    >>> check_served(cr.english(4, check="one-card"))  # chance chooses the card: served

    Raises:
        RulesError: the rules' check turns over cards by their places.

    """
    by_place = _by_place(rules)
    if by_place is not None:
        shown, size = by_place
        raise RulesError(
            N_(
                "sample() cannot serve these rules' check: it turns over %(shown)s of a group "
                "of %(size)s by their places in it, not by chance; the sampler serves checks "
                "that turn over a whole group or cards chance chose"
            ),
            shown=shown,
            size=size,
        )


#: The largest group :func:`check_served` asks a check about.
_PROBED = 12


@functools.lru_cache(maxsize=16)
def _by_place(rules: Rules) -> tuple[int, int] | None:
    """The first group the rules' check turns cards over of by place: (cards shown, size)."""
    kinds = tuple(sorted(set(rules.deck.cards()), key=_KEY))
    largest = rules.claims.sizes(rules.deck.size).stop - 1
    for size in range(2, min(largest, _PROBED) + 1):
        chance = Chance("probe")
        shown = rules.check.shown(kinds[:size], chance)
        if len(shown) < size and not chance.used:
            return len(shown), size
    return None


def _seconds(timeout: object) -> float | None:
    """``timeout`` as seconds above 0 (``None`` kept), else a :class:`RulesError`."""
    if timeout is None:
        return None
    if (
        not isinstance(timeout, numbers.Real)
        or isinstance(timeout, bool)
        or not math.isfinite(timeout)
        or timeout <= 0
    ):
        raise RulesError(
            N_("%(what)s must be a number above %(low)s; got %(got)s"),
            what="timeout",
            low=0,
            got=repr(timeout),
        )
    return float(timeout)


# -- where the plans are kept ------------------------------------------------------------
#
# A plan is what the view's log alone fixes, with what the searches work out
# from it as they go (Plan's memos), so a bot that samples one view many
# times reads its log once. A plan is lent to one call at a time: taken from
# where it is kept, used, and put back, so no two threads ever search with
# one plan (a second thread sampling the same view at once makes its own).

#: How many plans each log lineage keeps (in its ``shared`` dict, by the
#: view's newest chunk node), and under which name.
_PLANS_KEPT, _PLANS = 4, "sampling plans"


class _Shelf:
    """The plans of views whose log is a plain tuple, by value: the newest few, lent one at a time.

    A view loaded from a record, or built by hand, has no log lineage to
    keep its plan with; its plan is kept here, by ``(seat, rules, log)``,
    for the whole process. Every change is made under the shelf's lock.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._plans: dict[tuple[int, Rules, tuple[Event, ...]], Plan] = {}
        self._lock = threading.Lock()

    def take(self, key: tuple[int, Rules, tuple[Event, ...]]) -> Plan | None:
        """The plan kept for ``key``, removed from the shelf, else ``None``."""
        with self._lock:
            return self._plans.pop(key, None)

    def put(self, key: tuple[int, Rules, tuple[Event, ...]], plan: Plan) -> None:
        """Keep ``plan`` for ``key`` (as the newest), dropping the oldest beyond :attr:`size`."""
        with self._lock:
            self._plans.pop(key, None)
            self._plans[key] = plan
            while len(self._plans) > self.size:
                del self._plans[next(iter(self._plans))]


_SHELF = _Shelf(8)


@contextmanager
def _lent_plan(seen: Observation, dealt: Dealt) -> Iterator[Plan]:
    """The plan of ``seen``, for this call alone: the one kept (or a new one), kept again after."""
    events = seen.events
    context = (seen.seat, seen.rules)
    if isinstance(events, Log):
        box = kept_with(events, _PLANS, _PLANS_KEPT)
        node = events.chunks
        plan = box.take(node, context)
        if plan is None:
            plan = Plan(seen.rules, seen.seat, events, dealt)
        try:
            yield plan
        finally:
            box.put(node, plan, context)
        return
    key = (*context, tuple(events))
    plan = _SHELF.take(key)
    if plan is None:
        plan = Plan(seen.rules, seen.seat, events, dealt)
    try:
        yield plan
    finally:
        _SHELF.put(key, plan)


def _plan_of(seen: Observation, dealt: Dealt) -> Plan:
    """The plan kept for ``seen`` (made and kept on the first call), for a caller that reads it."""
    with _lent_plan(seen, dealt) as plan:
        return plan


def _searched(
    seen: Observation, plan: Plan, rng: random.Random, budget: int, clock: Clock = UNTIMED
) -> GameState | None:
    """A game the search finds for ``plan`` within ``budget`` events replayed, else ``None``.

    Raises:
        SamplingBudgetError: the search spent its budget.
        SamplingTimeoutError: the ``clock`` ran out.

    """
    for _ in range(8):  # a new search only where its random picks are not all alike
        search = Search(plan, rng, clock=clock)
        built = search.run(budget)
        budget -= search.spent
        if built is None:
            return None
        for attempt in range(64):
            clock.check(plan, search.spent)
            state = _game(seen, plan, built, rng, None if attempt else built.dealt, clock=clock)
            if state is not None:
                return state
        if search.exhaustive:
            return None
    return None


def _with_copies(
    seen: Observation, plan: Plan, rng: random.Random, budget: int, clock: Clock = UNTIMED
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
        SamplingTimeoutError: the ``clock`` ran out.

    """
    # This call's labelling: what its turns blame leans its own later draws
    # alone, so the game found depends on the view and ``rng`` alone.
    twinned = partial(_twinned, labelling=plan.labelling().afresh())
    share, spent = 16 * len(plan.events), 0
    while spent < budget:
        for search, part in ((twinned, share), (_searched, share // 4)):
            turn = min(part, budget - spent)
            spent += turn
            if turn <= 0:
                continue
            try:
                return search(seen, plan, rng, turn, clock)  # None: no game gives the view
            except SamplingTimeoutError:
                raise
            except SamplingBudgetError:  # this turn's budget spent: the other's turn
                continue
        share *= 2
    raise SamplingBudgetError(budget, plan.seat, len(plan.events))


def _twinned(
    seen: Observation,
    plan: Plan,
    rng: random.Random,
    budget: int,
    clock: Clock = UNTIMED,
    labelling: _twins.Labelling | None = None,
) -> GameState | None:
    """A game found with each copy of a card told apart; None if no labelling fits any game.

    Each labelling of the log's copies (the private ``_sampler.twins`` module) makes
    a view of cards of one copy, searched exhaustively for a game in runs cut
    at Luby lengths (times two passes over the log): a labelling no game fits
    is most often refused within a few passes, and one that fits is most
    often searched straight through; from the second labelling on, each
    play is also checked across hands (:meth:`Search._routed`), which
    most views never need. Where a search fails at a hand that
    cannot pass its named cards on, the next labelling is most often
    (:data:`_REPAIRS`) that one with those cards' links drawn again, the
    rest kept; else a new one. A labelling costs one pass over the log
    (its plan), and each time it is mended an event for every eight
    sightings it re-checks, out of ``budget``. ``labelling`` is the call's
    own (:meth:`~cheatrules._sampler.twins.Labelling.afresh`), whose blame its
    turns share; ``None`` gives a new one.

    Raises:
        SamplingBudgetError: the labellings and their searches spent the budget.
        SamplingTimeoutError: the ``clock`` ran out.

    """
    if labelling is None:
        labelling = plan.labelling().afresh()
    if not labelling.consistent:
        return None
    copies = _twins.twins(plan.copies)
    facts = (copies, frozenset(copies), True)
    spent, tries, mend = 0, 0, max(1, labelling.size // 8)
    last: tuple[dict[Card, list[list[int]]], list[tuple[Card, Target]]] | None = None
    while spent < budget:
        clock.check(plan, spent)
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
        twin_plan = Plan(seen.rules, seen.seat, events, dealt, facts, layout=plan)
        search = Search(twin_plan, rng, labelling.blame, across=tries > 1, clock=clock)
        run = min(budget - spent, luby(tries) * 2 * len(events))
        try:
            built = search.run(run)
        except SamplingTimeoutError:
            raise
        except SamplingBudgetError:  # cut: another labelling
            built = None
        spent += search.spent
        if built is None:
            last = (labels.drawn, search.stuck) if search.stuck else None
            continue
        for _ in range(64):
            clock.check(plan, spent)
            state = _game(seen, twin_plan, built, rng, plain=_twins.plain, clock=clock)
            if state is not None:
                return state
    raise SamplingBudgetError(budget, plan.seat, len(plan.events))


def _game(
    seen: Observation,
    plan: Plan,
    built: Built,
    rng: random.Random,
    dealt: dict[int, Card] | None = None,
    plain: Callable[[Card], Card] | None = None,
    clock: Clock = UNTIMED,
) -> GameState | None:
    """The game: the cards nobody saw dealt at random to the tokens left; None if it disagrees.

    ``dealt`` is a deal of every token already drawn (the search's own);
    ``plain`` turns the cards of a view with copies told apart back into cards.

    Raises:
        SamplingTimeoutError: the ``clock`` ran out while dealing them.

    """
    bound = fill(plan, built, rng, clock) if dealt is None else dealt
    if bound is None:
        return None
    if plain is not None:
        bound = {token: plain(card) for token, card in bound.items()}
    hands = [[bound[token] for token in hand] for hand in built.hands]
    hidden = [bound[token] for token in built.aside]
    stock = [bound[token] for token in built.stock]
    actions = _actions(plan, built.state.laid, bound)
    draws = (
        plan.draws
        if plain is None
        else {when: tuple(map(plain, cards)) for when, cards in plan.draws.items()}
    )
    return _replayed(seen, hands, hidden, stock, draws, actions, rng)


def _replayed(
    seen: Observation,
    hands: list[list[Card]],
    hidden: list[Card],
    stock: list[Card],
    draws: dict[int, tuple[Card, ...]],
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
        scripted = tuple((when, card) for when in sorted(draws) for card in draws[when])
        state = attrs.evolve(state, draws=scripted)
    try:
        state = state._replay(list(actions))
    except CheatRulesError:
        return None
    return state if state.observe(seen.seat) == seen else None


def _actions(
    plan: Plan, laid: dict[int, tuple[int, ...]], bound: dict[int, Card]
) -> Iterator[Action]:
    """The actions that replay the log with these cards (made as they are replayed)."""
    for index, event in enumerate(plan.events):
        if isinstance(event, Played):
            yield Play(tuple(bound[token] for token in laid[index]), event.rank)
        else:
            action = _action_of(event)
            if action is not None:
                yield action


def _action_of(event: Event) -> Action | None:
    """The decision an event other than a play records; ``None`` for one no seat decided."""
    if isinstance(event, Challenged):
        return Challenge(earlier=event.earlier)
    if isinstance(event, Accepted):
        return Accept()
    if isinstance(event, Passed):
        return Pass()
    if isinstance(event, Refused):
        return Refuse()
    if isinstance(event, Discarded) and not event.forced:
        return Discard(event.ranks)
    return None
