"""How close the sampler comes to uniform, on positions small enough to list every history.

A *history* is what the seat could not see: every hand as dealt and the
cards of every group laid. The target is the uniform distribution over the
histories that give the seat's view. Each test lists them all by replaying
the log through the engine with every deal of the cards the seat did not
hold and every choice of cards for each group it did not see, samples many
times with a fixed seed, and compares. With copies of a card (two packs)
a history stands for as many games as there are ways to pick its copies,
and the target weighs it so.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable

import pytest

import cheatrules as cr
from cheatrules import sampling
from cheatrules._sampler import solver
from cheatrules.cards import Deck, Rank
from cheatrules.events import Played, Revealed
from cheatrules.sampling import sample

#: Twelve cards (2s, 3s and 4s): three hands of four use the whole deck.
SMALL = cr.english(3, deck=Deck(ranks=(Rank.TWO, Rank.THREE, Rank.FOUR)))

_History = tuple[tuple[frozenset[cr.Card], ...], tuple[frozenset[cr.Card], ...]]


def _history(state: cr.GameState) -> _History:
    """The hands as dealt and the cards of every group laid (a sample's hidden part)."""
    dealt = state.events[0]
    assert isinstance(dealt, cr.events.Dealt)
    groups = tuple(frozenset(e.cards) for e in state.events if isinstance(e, Played))
    return tuple(frozenset(hand) for hand in dealt.hands), groups


def _every_history(state: cr.GameState, seat: int) -> set[_History]:
    """Every history giving ``seat``'s view of ``state`` (a full deal of three hands)."""
    seen = state.observe(seat)
    dealt = state.events[0]
    assert isinstance(dealt, cr.events.Dealt)
    unknown = [c for c in state.rules.deck.cards() if c not in dealt.hands[seat]]
    first, second = (s for s in range(3) if s != seat)
    actions, events = state.actions, state.events
    found: set[_History] = set()

    def replay(game: cr.GameState, step: int) -> None:
        if step == len(actions):
            if game.observe(seat) == seen:
                found.add(_history(game))
            return
        action = actions[step]
        tries: list[cr.Action] = [action]
        mover = game.to_move
        if isinstance(action, cr.Play) and mover is not None and mover != seat:
            hand = game.hands[mover]
            tries = [
                cr.Play(cards, action.rank)
                for cards in itertools.combinations(hand, len(action.cards))
            ]
        for attempt in tries:
            try:
                following = game.apply(attempt)
            except cr.errors.CheatRulesError:
                continue
            last = following.events[-1]
            if not isinstance(last, Revealed) or last == events[len(following.events) - 1]:
                replay(following, step + 1)

    for cards in itertools.combinations(unknown, dealt.hand_sizes[first]):
        hands = [list(hand) for hand in dealt.hands]
        hands[first] = list(cards)
        hands[second] = [c for c in unknown if c not in cards]
        replay(cr.deal(state.rules, hands=hands, dealer=dealt.dealer), 0)
    return found


def _chi_square_critical(df: int, z: float = 3.09) -> float:
    """The chi-square value exceeded with chance 0.001 (z = 3.09), by Wilson and Hilferty's cube.

    Within a fraction of a percent of the tabulated values from 5 degrees
    of freedom on (20.5 for 5, 29.6 for 10, 45.3 for 20).
    """
    h = 2 / (9 * df)
    return df * (1 - h + z * math.sqrt(h)) ** 3


def _accepted(state: cr.GameState, play: str, claim: str = "") -> cr.GameState:
    """``state`` after the player to move lays ``play`` and everyone accepts."""
    state = state.apply(cr.Play(play, claim or state.allowed_ranks[0]))
    while state.phase is cr.Phase.CHALLENGE:
        state = state.apply(cr.Accept())
    return state


def _solver_sample(seen: cr.Observation, rng: random.Random) -> cr.GameState:
    """A game found by the sampler's solver alone (where the search would have found it)."""
    dealt = seen.events[0]
    assert isinstance(dealt, cr.events.Dealt)
    # The view's plan, and with it the solver's model, kept between draws as the sampler keeps it.
    with sampling._lent_plan(seen, dealt) as plan:
        state = sampling._solved(seen, plan, rng, 60.0)
    assert isinstance(state, cr.GameState)
    return state


_Sampler = Callable[[cr.Observation, random.Random], cr.GameState]

#: The sampler as a caller gets it, and its solver alone (the ``cheatrules[solver]`` extra).
SAMPLERS = [
    sample,
    pytest.param(
        _solver_sample, marks=pytest.mark.skipif(not solver.available(), reason="no solver")
    ),
]


def _measure(
    state: cr.GameState, seat: int, per_history: int, sampler: _Sampler = sample
) -> tuple[float, float, int]:
    """The chi-square statistic, total-variation distance and count of the histories."""
    histories = _every_history(state, seat)
    seen = state.observe(seat)
    rng = random.Random(2026)
    draws = per_history * len(histories)
    counts = Counter(_history(sampler(seen, rng)) for _ in range(draws))
    assert set(counts) <= histories  # every sample is a history giving the view
    expected = draws / len(histories)
    chi = sum((counts[h] - expected) ** 2 / expected for h in histories)
    distance = sum(abs(counts[h] - expected) for h in histories) / (2 * draws)
    return chi, distance, len(histories)


@pytest.mark.parametrize("sampler", SAMPLERS, ids=["sampler", "solver"])
def test_a_pile_the_seat_takes_splits_uniformly_between_the_hidden_groups(
    sampler: _Sampler,
) -> None:
    # Seat 1 lays two unseen cards and seat 2 one; seat 0 lies, is caught by
    # seat 1 and takes the pile, so it knows those three cards but not which
    # group held which.
    state = cr.deal(SMALL, hands=["2♣ 3♣ 4♣ 2♦", "3♦ 4♦ 2♥ 3♥", "4♥ 2♠ 3♠ 4♠"])
    state = _accepted(state, "2♣")
    state = _accepted(state, "4♦ 2♥")
    state = _accepted(state, "2♠")
    state = state.apply(cr.Play("3♣", "2")).apply(cr.Challenge())
    chi, distance, histories = _measure(state, 0, per_history=20, sampler=sampler)
    assert histories == 30
    assert chi < _chi_square_critical(histories - 1)
    assert distance < 0.15  # sampling noise alone: about 0.09 at 20 draws a history


@pytest.mark.parametrize("sampler", SAMPLERS, ids=["sampler", "solver"])
def test_a_card_the_seat_knows_in_a_hand_is_laid_less_often_than_uniform_within_the_bound(
    sampler: _Sampler,
) -> None:
    # Seat 1 takes seat 0's 2 of clubs, lays one unseen card, and later
    # shows the 2 of hearts. Of the 560 histories, 1 in 4 has the 2 of
    # clubs in that unseen group; the sampler lays it 1 time in 5 (it draws
    # the group's cards uniformly, and the 2 of hearts then from the cards
    # left, where uniform over histories counts the ways still open). The
    # seat-view guide gives this distance (0.05); the test holds it to 0.1.
    # The solver, its objective drawn at random, lays it 0.275 of the time
    # (0.04 from the exact share).
    state = cr.deal(SMALL, hands=["2♣ 3♣ 4♣ 2♦", "3♦ 4♦ 2♥ 3♥", "4♥ 2♠ 3♠ 4♠"])
    state = state.apply(cr.Play("2♣", "2")).apply(cr.Challenge())
    state = _accepted(state, "3♦")
    state = _accepted(state, "4♥")
    state = _accepted(state, "3♣")
    state = state.apply(cr.Play("2♥", "3"))
    while state.to_move != 0:
        state = state.apply(cr.Accept())
    state = state.apply(cr.Challenge())
    histories = _every_history(state, 0)
    assert len(histories) == 560
    exact = Counter(groups[1] for _, groups in histories)
    seen, rng, draws = state.observe(0), random.Random(2026), 800
    drawn = Counter(_history(sampler(seen, rng))[1][1] for _ in range(draws))
    assert exact[frozenset(cr.cards("2♣"))] * 4 == len(histories)
    distance = sum(abs(drawn[g] / draws - exact[g] / len(histories)) for g in exact) / 2
    assert distance < 0.1


#: Two packs of 2s and 3s (16 cards): three hands of six, five and five.
PAIRS = cr.english(3, deck=Deck(packs=2, ranks=(Rank.TWO, Rank.THREE)))

_Copies = tuple[tuple[tuple[cr.Card, ...], ...], tuple[tuple[cr.Card, ...], ...]]


def _copies_history(state: cr.GameState) -> _Copies:
    """As :func:`_history`, each hand and group as a sorted tuple (copies counted)."""
    dealt = state.events[0]
    assert isinstance(dealt, cr.events.Dealt)
    groups = tuple(tuple(sorted(e.cards)) for e in state.events if isinstance(e, Played))
    return tuple(tuple(sorted(hand)) for hand in dealt.hands), groups


def _weighted_histories(state: cr.GameState, seat: int) -> Counter[_Copies]:
    """Every history giving ``seat``'s view, weighed by the deals and plays of copies behind it.

    With copies, one history stands for as many equally likely games as
    there are ways to pick its cards' copies: a hand dealt both copies of a
    card is one deal where one copy each is four (two of each), and a group
    of one of two copies a hand holds is two plays.
    """
    seen = state.observe(seat)
    dealt = state.events[0]
    assert isinstance(dealt, cr.events.Dealt)
    unknown = list((Counter(state.rules.deck.cards()) - Counter(dealt.hands[seat])).elements())
    first, second = (s for s in range(3) if s != seat)
    actions, events = state.actions, state.events
    found: Counter[_Copies] = Counter()
    # The steps where another seat lays cards the seat does not see: the
    # replay branches there, and runs straight through the steps between.
    real, hidden = cr.deal(state.rules, hands=dealt.hands, dealer=dealt.dealer), []
    for step, action in enumerate(actions):
        if isinstance(action, cr.Play) and real.to_move != seat:
            hidden.append(step)
        real = real.apply(action)

    def replay(game: cr.GameState, step: int, weight: int) -> None:
        if step == len(actions):
            if game.observe(seat) == seen:
                found[_copies_history(game)] += weight
            return
        if step not in hidden:
            end = next((later for later in hidden if later > step), len(actions))
            try:
                following = game._replay(actions[step:end])
            except cr.errors.CheatRulesError:
                return  # an action this game does not allow: not a game giving the view
            new = range(len(game.events), len(following.events))
            if all(_agrees(following.events[i], events[i], seat) for i in new):
                replay(following, end, weight)
            return
        action = actions[step]
        assert isinstance(action, cr.Play) and game.to_move is not None
        hand = game.hands[game.to_move]
        tries = Counter(
            cr.Play(tuple(sorted(hand[i] for i in picked)), action.rank)
            for picked in itertools.combinations(range(len(hand)), len(action.cards))
        )
        for attempt, ways in tries.items():
            following = game.apply(attempt)  # cards from the hand: a play is always legal
            if _agrees(following.events[-1], events[len(following.events) - 1], seat):
                replay(following, step + 1, weight * ways)

    size = dealt.hand_sizes[first]
    deals = Counter(
        tuple(sorted(unknown[i] for i in picked))
        for picked in itertools.combinations(range(len(unknown)), size)
    )
    for hand, ways in deals.items():
        hands = [list(h) for h in dealt.hands]
        hands[first] = list(hand)
        hands[second] = list((Counter(unknown) - Counter(hand)).elements())
        replay(cr.deal(state.rules, hands=hands, dealer=dealt.dealer), 0, ways)
    return found


def _agrees(event: cr.events.Event, real: cr.events.Event, seat: int) -> bool:
    """Whether ``event`` can still be ``real`` as ``seat`` sees it (cards turned over, its pickups)."""
    if isinstance(event, Revealed):
        return event == real
    if isinstance(event, cr.events.PileTaken) and event.seat == seat:
        assert isinstance(real, cr.events.PileTaken)
        return sorted(event.cards) == sorted(real.cards)
    return True


def _copies_position() -> cr.GameState:
    """Two packs of 2s and 3s: seat 0 takes a pile of two unseen groups (30 histories)."""
    state = cr.deal(PAIRS, hands=["2♣ 2♦ 2♥ 3♣ 3♦ 3♥", "2♠ 3♠ 3♣ 2♦ 3♥", "2♣ 2♥ 2♠ 3♦ 3♠"])
    state = _accepted(state, "2♣")
    state = state.apply(cr.Play("3♠ 2♦", "3")).apply(cr.Challenge())
    state = _accepted(state, "2♠")
    state = _accepted(state, "3♣")
    state = _accepted(state, "2♣")
    return state.apply(cr.Play("3♠", "3")).apply(cr.Challenge())


@pytest.mark.skipif(not solver.available(), reason="no solver")
def test_with_copies_the_solver_alone_is_further_from_the_games_behind_each_history() -> None:
    # The solver draws a corner of the counts a view allows, each history
    # about alike, where the target weighs a history by the games behind it
    # (its copies told apart): measured total-variation distance 0.18
    # (chi-square 153 against 58 at the 0.001 level). The seat-view guide
    # says so; the test holds the distance under 0.25.
    state = _copies_position()
    exact = _weighted_histories(state, 0)
    games = sum(exact.values())
    seen, rng, draws = state.observe(0), random.Random(2026), 20 * len(exact)
    counts = Counter(_copies_history(_solver_sample(seen, rng)) for _ in range(draws))
    assert set(counts) <= set(exact)
    expected = {h: draws * n / games for h, n in exact.items()}
    distance = sum(abs(counts[h] - expected[h]) for h in exact) / (2 * draws)
    assert distance < 0.25


def test_with_copies_a_pile_the_seat_takes_splits_as_the_games_behind_it_do() -> None:
    # Two packs: seat 1 is caught showing 2♦ 3♠ and takes them back, with
    # seat 0's 2♣; seats 2 and 1 each lay an unseen card; seat 2 shows 3♠
    # truthfully and seat 0, wrong to doubt it, takes the pile. Seat 0 knows
    # the pile held 2♠ and 2♣ besides, not which group held which, nor the
    # hands. The 30 histories stand for 160 games. The sampler that tells
    # copies apart matches them (chi-square 23 at 4,000 draws; total-variation
    # distance 0.03); the search that followed copies by counting did not
    # (chi-square 560; 0.15).
    state = _copies_position()
    assert isinstance(state.events[-1], cr.events.PileTaken) and state.events[-1].seat == 0
    exact = _weighted_histories(state, 0)
    games = sum(exact.values())
    assert (len(exact), games) == (30, 160)
    seen, rng, draws = state.observe(0), random.Random(2026), 20 * len(exact)
    counts = Counter(_copies_history(sample(seen, rng)) for _ in range(draws))
    assert set(counts) <= set(exact)
    expected = {h: draws * n / games for h, n in exact.items()}
    chi = sum((counts[h] - expected[h]) ** 2 / expected[h] for h in exact)
    assert chi < _chi_square_critical(len(exact) - 1)
    distance = sum(abs(counts[h] - expected[h]) for h in exact) / (2 * draws)
    assert distance < 0.15  # sampling noise alone: about 0.09 at 20 draws a history


def test_the_critical_values_match_the_table() -> None:
    for df, tabulated in ((5, 20.515), (10, 29.588), (20, 45.315), (60, 99.607)):
        assert abs(_chi_square_critical(df) - tabulated) / tabulated < 0.02
