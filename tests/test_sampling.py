"""The sampler: a game consistent with a seat's view, for every view a game gives."""

from __future__ import annotations

import contextlib
import inspect
import pickle
import random
import time
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules import _persistent, sampling
from cheatrules._sampler import plan as _sampling_plan
from cheatrules._sampler import search as _sampling_search
from cheatrules._sampler import solver as _solver
from cheatrules.sampling import (
    SamplingBudgetError,
    SamplingError,
    SamplingTimeoutError,
    sample,
)

from .budget import examples, tiered
from .strategies import option_combinations, play_randomly, random_action


def _position(rules: cr.Rules, seed: int, decisions: int) -> cr.GameState:
    """The state after ``decisions`` random actions (or the end) of a seeded game."""
    rng = random.Random(seed)
    state = cr.deal(rules, seed=seed)
    for _ in range(decisions):
        if state.is_over:
            break
        state = state.apply(random_action(state, rng))
    return state


def test_a_deep_position_the_retrying_sampler_gave_up_on_gets_a_sample() -> None:
    # Decision 220 of a random 3-player English game: 2,000 random tries of
    # the former sampler found no consistent game for seat 1's view.
    state = _position(cr.english(3), seed=10, decisions=220)
    seen = state.observe(1)
    for seed in range(3):
        assert sample(seen, random.Random(seed)).observe(1) == seen


@pytest.mark.parametrize("rng_seed", [3, 4])
def test_a_late_group_that_an_early_choice_cannot_fill_costs_only_a_short_run(
    rng_seed: int,
) -> None:
    # The same view: at event 253 seat 2 lays four cards into a pile seat 1
    # takes and names whole, and seat 2 may hold more of them than the four
    # slots, because of a choice made far earlier. Backing up in time order
    # cannot mend that; the search restarted after runs that doubled in
    # length, so it made six runs in all and spent its budget with these
    # seeds. Runs of Luby lengths (mostly short) find a game.
    seen = _position(cr.english(3), seed=10, decisions=220).observe(1)
    assert sample(seen, random.Random(rng_seed)).observe(1) == seen


def _stall(restarts: _sampling_search.Restarts, deepest: int) -> int:
    """Replay up to event ``deepest``, then in place until the policy says to start again."""
    for index in range(restarts.deepest, deepest + 1):
        restarts.step(index)
    idle = 0
    while not restarts.due():
        restarts.step(deepest - 1)
        idle += 1
    return idle


def test_a_search_with_copies_goes_back_further_each_time_it_stalls_no_deeper() -> None:
    # With copies, a search that replays 4 * span + 64 events without getting
    # deeper goes back span events (32 at first) before the deepest event it
    # reached and draws from there afresh; the span doubles while it stalls
    # no deeper, starts at 32 again where it got deeper, and a span that
    # reaches back to the first event is a fresh start.
    restarts = _sampling_search.Restarts(600, partial=True)
    assert _stall(restarts, 300) == 4 * 32 + 64
    assert restarts.back_to() == 300 - 32
    restarts.resume(268)
    assert _stall(restarts, 300) == 4 * 32 + 64
    assert restarts.back_to() == 300 - 64  # no deeper: twice as far back
    restarts.resume(236)
    assert _stall(restarts, 310) == 4 * 64 + 64  # the stretch follows the span
    assert restarts.back_to() == 310 - 32  # deeper: 32 again
    for span in (32, 64, 128, 256):
        restarts.resume(310 - span)
        assert _stall(restarts, 310) == 4 * span + 64
        assert restarts.back_to() == max(0, 310 - 2 * span)
    restarts.resume(0)  # 512 events back: a fresh start, with a span of 32
    assert _stall(restarts, 50) == 4 * 32 + 64
    assert restarts.back_to() == 50 - 32


def test_with_one_copy_of_each_card_the_search_starts_afresh_after_runs_of_luby_lengths() -> None:
    # One pack: each run starts from the first event, after 1 1 2 1 1 2 4 ...
    # times four passes over the log (and 64 events), whether or not it got deeper.
    restarts = _sampling_search.Restarts(10, partial=False)
    lengths = []
    for _ in range(7):
        idle = 0
        while not restarts.due():
            restarts.step(min(idle, 9))
            idle += 1
        lengths.append(idle)
        assert restarts.back_to() == 0
        restarts.resume(0)
    assert lengths == [104 * term for term in (1, 1, 2, 1, 1, 2, 4)]


@pytest.mark.parametrize(
    ("rules", "seed", "seat", "decisions"),
    [(cr.english(3), 10, 1, 238), (cr.english(3, passing="consent"), 8, 2, 182)],
)
@pytest.mark.parametrize("rng_seed", [1, 2])
def test_cards_competing_for_the_slots_of_one_group_do_not_stall_the_search(
    rules: cr.Rules, seed: int, seat: int, decisions: int, rng_seed: int
) -> None:
    # The seat takes a pile of ten: eight cards it names must have come
    # through two unseen groups of four. Each card alone can get there; the
    # search used to find out only much later that more than four were in
    # one hand, and backed up for minutes.
    # The search restarts in a fresh order when a run grows long, so one
    # unlucky early choice costs a bounded share of the (default) budget.
    seen = _position(rules, seed, decisions).observe(seat)
    assert sample(seen, random.Random(rng_seed)).observe(seat) == seen


@pytest.mark.parametrize("rng_seed", [0, 1])
def test_compulsory_discards_do_not_hang_on_which_unnamed_card_gets_a_shown_identity(
    rng_seed: int,
) -> None:
    # Seat 2's view at decision 42: when a card is shown for the first
    # time, the sampler picks which unnamed card of the hand it was; under
    # compulsory discards that pick decides whether a hand holds a four it
    # never set aside, and the search never revisited it.
    seen = _position(cr.verish(4, discards="compulsory"), seed=5, decisions=42).observe(2)
    assert sample(seen, random.Random(rng_seed)).observe(2) == seen


def test_a_pickup_that_ends_the_game_is_followed_by_no_fours() -> None:
    # Seat 0's view at decision 245 (206 events): seat 0's last card, a true
    # joker, is challenged; seat 1 takes the pile and seat 0 leaves, which
    # ends the game before anyone sets a four aside, so seat 1 ends holding
    # three. The search took that pickup for a check of seat 1's hand and
    # spent every budget.
    rules = cr.verish(3, jokers=True, ranks="descending", discards="compulsory", window="immediate")
    seen = _position(rules, seed=3, decisions=245).observe(0)
    assert isinstance(seen.events[-1], cr.events.GameOver)
    assert sample(seen, random.Random(3), budget=20_000).observe(0) == seen


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_player_who_leaves_between_a_pickup_and_its_fours_does_not_hide_them(seat: int) -> None:
    # Four players, compulsory discards, decision 44: seat 3's last group is
    # proved true, seat 0 takes the pile, seat 3 leaves, and only then does
    # seat 0 set aside its fours. The search looked for the fours right after
    # the pickup, found the player leaving, and checked seat 0's hand as if
    # it set nothing aside.
    rules = cr.verish(4, discards="compulsory")
    seen = _position(rules, seed=27, decisions=44).observe(seat)
    kinds = [type(event) for event in seen.events]
    assert any(
        kinds[i : i + 3] == [cr.events.PileTaken, cr.events.WentOut, cr.events.Discarded]
        for i in range(len(kinds))
    )
    assert sample(seen, random.Random(seat), budget=20_000).observe(seat) == seen


@pytest.mark.parametrize("rng_seed", [1, 2, 3])
def test_copies_of_a_card_are_steered_to_where_the_log_names_them(rng_seed: int) -> None:
    # Four players, two packs: every card has two copies. At decision 120
    # seat 1 has seen copies turned over, taken and shown again; the former
    # sampler (2,000 random tries, then a search that did not steer copies)
    # raised SamplingError on this view.
    seen = _position(cr.english(4, decks=2), seed=5, decisions=120).observe(1)
    assert sample(seen, random.Random(rng_seed)).observe(1) == seen


@pytest.mark.parametrize("rng_seed", [1, 3])
def test_a_wide_play_with_copies_is_bounded_before_the_draw(rng_seed: int) -> None:
    # Three players, two packs with their jokers: at event 147 of seat 1's
    # view (decision 275) seat 2 holds 55 cards and lays 3 unseen ones. Its
    # two copies of one card must go into that group to reach a hand that
    # shows it later, and a card another hand shows later can no longer get
    # there whatever the group takes. The search that followed copies by
    # counting drew hundreds of choices there that its test then refused,
    # one by one, and spent 42,752 (seed 1) and 11,030 (seed 3) events, 15
    # to 40 seconds. With each copy told apart it needs 1,861 to 14,707
    # (12,277 and 12,336 with these seeds) over ten rng seeds, under a second.
    seen = _position(cr.english(3, decks=2, jokers="per-pack"), seed=1, decisions=275).observe(1)
    assert sample(seen, random.Random(rng_seed), budget=30_000).observe(1) == seen


@pytest.mark.parametrize(("seed", "seat"), [(0, 2), (1, 2)])
@pytest.mark.parametrize("rng_seed", tiered([0], [1]))
def test_copies_a_pile_the_seat_takes_needs_are_kept_for_it(
    seed: int, seat: int, rng_seed: int
) -> None:
    # Four players, two packs, decision 320 (427 and 352 events). Piles the
    # seat takes name every card in them: a hand had let go of the cards only
    # it could still bring to such a pile, or held more cards named nowhere
    # in it than it could shed before laying into it; and another hand's copy
    # went into a pile that holds the copy the seat lays there itself. Found
    # only when the pile was taken, these spent 60,000 events and more
    # (200,000, the whole budget, for seed 0 with rng seed 0). Over eight rng
    # seeds the search now spends 354 to 5,154 events on seed 1's view and
    # 432 to 33,907 on seed 0's (18,540 and 14,027 with these two).
    seen = _position(cr.english(4, decks=2), seed=seed, decisions=320).observe(seat)
    assert sample(seen, random.Random(rng_seed), budget=30_000).observe(seat) == seen


@pytest.mark.parametrize(
    ("discards", "seed", "decisions", "seat"),
    [("after-pickup", 1, 80, 1), ("after-pickup", 2, 160, 2), ("after-pickup", 6, 160, 2)],
)
def test_a_four_set_aside_takes_the_lowest_copies_of_its_rank(
    discards: str, seed: int, decisions: int, seat: int
) -> None:
    # Two packs: a hand that sets a four aside may hold more than four cards
    # of the rank, and the four it sets aside are the lowest (at event 17 of
    # the first view seat 3 sets aside 7♦ 7♥ 7♥ 7♠, so any seven it keeps is
    # a 7♠). A sample that kept a lower copy in the hand replayed into
    # another discard, and the sampler said the view contradicted itself.
    rules = cr.english(4, decks=2, discards=discards)
    seen = _position(rules, seed=seed, decisions=decisions).observe(seat)
    for rng_seed in range(3):
        sampled = sample(seen, random.Random(rng_seed))
        assert sampled.observe(seat) == seen


def test_a_copy_the_seat_draws_later_is_its_own_to_lay() -> None:
    # Two packs and a stock: at event 107 seat 1 lays 5♦ 8♠ Q♥, turned over
    # and taken back at 111. One of them it had not yet drawn at event 41,
    # and the search took a card in the stock for one nobody could lay
    # there: it found no game in any run and spent its budget on a view of
    # 115 events.
    rules = cr.english(
        3,
        ranks="descending",
        claims="1-4",
        check="jokers-protect",
        passing="all-revealed",
        ending="placings",
        stock=True,
        decks=2,
    )
    seen = _position(rules, seed=484896960, decisions=63).observe(1)
    assert len(seen.events) == 115
    assert sample(seen, random.Random(0), budget=2000).observe(1) == seen


@pytest.fixture
def no_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sampler as it works without the ``cheatrules[solver]`` extra: the search alone."""
    monkeypatch.setattr(_solver, "available", lambda: False)


@pytest.mark.usefixtures("no_solver")
def test_a_search_that_runs_out_of_work_says_so() -> None:
    seen = _position(cr.english(3), seed=10, decisions=238).observe(1)
    with pytest.raises(SamplingBudgetError, match="work budget") as raised:
        sample(seen, random.Random(1), budget=3)
    # Still a SamplingError, for code written before the two were told apart;
    # it names the budget spent and the view, for a caller deciding to retry.
    assert isinstance(raised.value, SamplingError)
    assert (raised.value.budget, raised.value.events) == (3, len(seen.events))
    assert raised.value.params["seat"] == raised.value.seat == 1
    assert "a larger budget may find a game" in str(raised.value)


@pytest.mark.usefixtures("no_solver")
def test_an_observation_passes_its_budget_on_to_the_sampler() -> None:
    seen = _position(cr.english(3), seed=10, decisions=238).observe(1)
    with pytest.raises(SamplingBudgetError) as raised:
        seen.sample(random.Random(1), budget=3)
    assert raised.value.budget == 3
    assert seen.sample(random.Random(1)) == sample(seen, random.Random(1))  # the default budget


def test_a_spent_budget_pickles_as_raised() -> None:
    # A tournament's worker process sends its errors back pickled.
    error = SamplingBudgetError(3, 1, 240)
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is SamplingBudgetError
    assert (again.budget, again.seat, again.events, str(again)) == (3, 1, 240, str(error))


def test_a_search_that_runs_out_of_time_says_so_with_one_pack() -> None:
    # 238 decisions of 3-player English: the search replays more events than
    # it reads the clock after, so a timeout already spent stops it.
    seen = _position(cr.english(3), seed=10, decisions=238).observe(1)
    with pytest.raises(SamplingTimeoutError, match="ran out of its time") as raised:
        sample(seen, random.Random(1), timeout=1e-9)
    # A budget error, so a caller's retry or fall-back code catches it too.
    assert isinstance(raised.value, SamplingBudgetError)
    assert (raised.value.timeout, raised.value.seat) == (1e-9, 1)
    assert raised.value.events == len(seen.events)
    assert 0 < raised.value.budget < len(seen.events)  # stopped part of the way through


def test_a_search_that_runs_out_of_time_says_so_with_copies() -> None:
    seen = _position(cr.english(4, decks=2), seed=1, decisions=320).observe(2)
    with pytest.raises(SamplingTimeoutError, match="more time may find a game"):
        sample(seen, random.Random(0), timeout=1e-9)


@pytest.mark.parametrize(("rules", "seed"), [(cr.english(3), 10), (cr.english(4, decks=2), 1)])
def test_a_timeout_that_is_not_reached_changes_nothing(rules: cr.Rules, seed: int) -> None:
    seen = _position(rules, seed=seed, decisions=200).observe(1)
    timed = seen.sample(random.Random(5), timeout=600)
    assert timed == sample(seen, random.Random(5))
    assert timed.observe(1) == seen


def test_a_spent_timeout_pickles_as_raised() -> None:
    error = SamplingTimeoutError(0.5, 2, 300, 4096)
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is SamplingTimeoutError
    assert (again.timeout, again.seat, again.events, again.budget) == (0.5, 2, 300, 4096)
    assert str(again) == str(error)


@pytest.mark.parametrize("timeout", [0, -1, float("nan"), float("inf"), True, "1"])
def test_a_timeout_that_is_not_a_positive_number_of_seconds_is_refused(timeout: object) -> None:
    seen = _position(cr.english(3), seed=1, decisions=10).observe(0)
    with pytest.raises(cr.RulesError, match="timeout must be a number above 0"):
        seen.sample(random.Random(0), timeout=timeout)  # type: ignore[arg-type]


@pytest.mark.usefixtures("no_solver")
def test_a_larger_budget_finds_the_game_a_spent_one_did_not() -> None:
    seen = _position(cr.english(3), seed=10, decisions=238).observe(1)
    with pytest.raises(SamplingBudgetError):
        sample(seen, random.Random(1), budget=3)
    assert sample(seen, random.Random(1)).observe(1) == seen


def test_with_the_solver_a_spent_search_hands_the_view_to_it() -> None:
    # The budget bounds the search; the solver, bounded by the timeout, then
    # finds the game the search had no time for.
    seen = _position(cr.english(3), seed=10, decisions=238).observe(1)
    assert sample(seen, random.Random(1), budget=3, timeout=30).observe(1) == seen


@pytest.mark.parametrize("budget", [0, -5, 2.5, "100", True])
def test_a_budget_that_is_not_a_positive_whole_number_is_refused(budget: object) -> None:
    seen = _position(cr.english(3), seed=1, decisions=10).observe(0)
    with pytest.raises(cr.RulesError, match="budget must be a whole number of at least 1"):
        sample(seen, random.Random(0), budget=budget)  # type: ignore[arg-type]


def test_a_numpy_budget_is_taken_as_its_integer() -> None:
    import numpy as np  # a test dependency: learning loops count in NumPy integers

    seen = _position(cr.english(3), seed=1, decisions=10).observe(0)
    assert sample(seen, random.Random(0), budget=np.int64(50_000)).observe(0) == seen


def test_the_sampler_takes_a_budget_and_a_timeout_as_the_public_contract_names_them() -> None:
    # observation.sample(rng, *, budget=None, timeout=None); nothing else.
    for function in (sample, cr.Observation.sample):
        parameters = inspect.signature(function).parameters.values()
        keywords = [each.name for each in parameters if each.kind is each.KEYWORD_ONLY]
        assert keywords == ["budget", "timeout"]
    seen = _position(cr.english(3), seed=1, decisions=10).observe(0)
    with pytest.raises(TypeError, match="attempts"):
        sample(seen, random.Random(0), attempts=20)  # type: ignore[call-arg]


def test_a_view_no_game_gives_raises_sampling_error() -> None:
    # Seat 0's view says seat 1 showed the 7 of clubs, which seat 0 holds.
    state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    state = state.apply(cr.Play("K♦", "A")).apply(cr.Accept()).apply(cr.Accept())
    state = state.apply(cr.Play("A♠", "2")).apply(cr.Accept()).apply(cr.Challenge())
    seen = state.observe(0)
    revealed = next(i for i, e in enumerate(seen.events) if isinstance(e, cr.events.Revealed))
    forged = cr.events.Revealed(1, cr.cards("7♣"), cr.Rank.TWO, truthful=False)
    events = (*seen.events[:revealed], forged, *seen.events[revealed + 1 :])
    with pytest.raises(SamplingError, match="contradicts itself") as raised:
        sample(_with_events(seen, events), random.Random(0))
    assert not isinstance(raised.value, SamplingBudgetError)  # the solver proved it


@pytest.mark.usefixtures("no_solver")
def test_without_the_solver_a_search_that_finds_nothing_proves_nothing() -> None:
    state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    state = state.apply(cr.Play("K♦", "A")).apply(cr.Accept()).apply(cr.Accept())
    state = state.apply(cr.Play("A♠", "2")).apply(cr.Accept()).apply(cr.Challenge())
    seen = state.observe(0)
    revealed = next(i for i, e in enumerate(seen.events) if isinstance(e, cr.events.Revealed))
    forged = cr.events.Revealed(1, cr.cards("7♣"), cr.Rank.TWO, truthful=False)
    events = (*seen.events[:revealed], forged, *seen.events[revealed + 1 :])
    with pytest.raises(sampling.SamplingUnprovenError, match=r"cannot prove that none exists"):
        sample(_with_events(seen, events), random.Random(0))


def _played(state: cr.GameState, actions: list[str]) -> cr.GameState:
    for text in actions:
        state = state.apply(cr.parse_action(text))
    return state


#: Views of real games the search alone called impossible, as found by a fuzzing run: a
#: HolderOf opening, and two packs with fours set aside unasked.
FALSELY_REFUSED = {
    "holder of 10♦": lambda: _played(
        cr.deal(cr.verish(3, opening=cr.policies.HolderOf("10♦")), seed=991471180, dealer=2),
        [
            *("play A♥ as 6", "play 10♣ Q♣ as 6", "play J♦ K♦ as 6", "play 10♦ J♣ J♠ as 6"),
            *("play Q♦ K♣ as 6", "play 6♦ 8♦ 9♥ as 6", "play 6♣ 8♥ 9♠ as 6"),
            *("play 9♣ 10♠ as 6", "play 7♣ 7♦ as 6", "challenge"),
        ],
    ),
    "two packs, compulsory fours": lambda: _played(
        cr.deal(
            cr.english(
                4, decks=2, jokers=1, check="one-card", passing="consent", discards="compulsory"
            ),
            seed=357740393,
            dealer=3,
        ),
        [
            *("play 5♠ 10♥ K♦ K♥ as A", "accept", "accept", "challenge", "play 10♣ as 2"),
            *("challenge", "play 6♣ 6♠ 10♣ Q♣ as 3", "accept", "challenge"),
            *("play 2♣ 9♦ K♣ as 4", "challenge", "play 4♦ 4♥ 8♣ J♣ as 5", "challenge"),
            *("play 3♣ 4♠ 10♣ Q♦ as 6", "accept", "accept", "challenge"),
            *("play 4♣ 8♠ 9♣ Q♣ as 7", "challenge", "play 6♣ K♣ K♣ K♠ as 8", "challenge"),
            *("play J♣ K♦ K♥ ★♥ as 9", "challenge", "play 3♣ 10♣ 10♥ K♦ as 10", "challenge"),
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(FALSELY_REFUSED))
def test_a_real_view_the_search_alone_refused_samples_with_every_seed(name: str) -> None:
    seen = FALSELY_REFUSED[name]().observe(0)
    for seed in range(10):
        assert sample(seen, random.Random(seed), timeout=30).observe(0) == seen


@pytest.mark.parametrize("name", sorted(FALSELY_REFUSED))
@pytest.mark.usefixtures("no_solver")
def test_without_the_solver_such_a_view_is_never_called_impossible(name: str) -> None:
    seen = FALSELY_REFUSED[name]().observe(0)
    outcomes: list[object] = []
    for seed in range(10):
        try:
            outcomes.append(sample(seen, random.Random(seed), timeout=30).observe(0) == seen)
        except SamplingError as error:
            outcomes.append(type(error).__name__)
    # A game, or a search that says it proves nothing: never a plain SamplingError.
    assert set(outcomes) <= {True, "SamplingUnprovenError"}


def _with_events(seen: cr.Observation, events: tuple[cr.events.Event, ...]) -> cr.Observation:
    """The same view with another log (for a view no game gives)."""

    class Forged:
        def __init__(self) -> None:
            self.seat, self.rules, self.events = seen.seat, seen.rules, events
            self.to_move = seen.to_move

    return Forged()  # type: ignore[return-value]


def _samples_a_seats_view(state: cr.GameState, seed: int, data: st.DataObject) -> None:
    """A seat drawn from ``data`` gets a sample of its view, with its own hand as it is."""
    seat = data.draw(st.integers(0, state.players - 1))
    seen = state.observe(seat)
    sampled = sample(seen, random.Random(seed))
    assert sampled.observe(seat) == seen
    assert sampled.hands[seat] == state.hands[seat]


# Derandomized: the search is not yet exhaustive (see the seat-view guide's
# known limits), so this property replays the same examples each run and a
# red run means a regression; benchmarks/sampling.py explores fresh views.
@settings(examples(25), derandomize=True)
@given(option_combinations(), st.integers(0, 2**32), st.integers(0, 400), st.data())
def test_every_view_of_every_option_combination_samples(
    rules: cr.Rules, seed: int, decisions: int, data: st.DataObject
) -> None:
    _samples_a_seats_view(_position(rules, seed, decisions), seed, data)


TWO_PACKS = st.sampled_from(
    [
        cr.english(4, decks=2),
        cr.english(3, decks=2, jokers="per-pack"),
        cr.english(5, decks=2, passing="consent"),
    ]
)


# Two packs with fours set aside (a hand may hold more than four of a rank,
# and sets aside the lowest four) or a stock to draw from.
TWO_PACKS_DISCARDING = st.sampled_from(
    [
        cr.english(4, decks=2, discards="after-pickup"),
        cr.english(3, decks=2, discards="any-time", stock=True),
        cr.english(4, decks=2, discards="any-time", jokers="per-pack"),
        cr.english(6, decks=2, stock=5, jokers=1),
    ]
)


# Derandomized for the same reason as the property above, with views up to
# 400 decisions deep. Capped at 300 until the sampler told copies apart: at
# 400 it drew a view of english(5, decks=2, passing="consent") (seed
# 1448850, decision 387, seat 2, 530 events) that took 1 to 41 s; the
# property now takes under 2 s.
@settings(examples(10), derandomize=True)
@given(TWO_PACKS, st.integers(0, 2**32), st.integers(0, 400), st.data())
def test_every_view_of_a_game_with_copies_of_each_card_samples(
    rules: cr.Rules, seed: int, decisions: int, data: st.DataObject
) -> None:
    _samples_a_seats_view(_position(rules, seed, decisions), seed, data)


@settings(examples(10), derandomize=True)
@given(TWO_PACKS_DISCARDING, st.integers(0, 2**32), st.integers(0, 400), st.data())
def test_every_view_of_a_game_with_copies_fours_set_aside_or_a_stock_samples(
    rules: cr.Rules, seed: int, decisions: int, data: st.DataObject
) -> None:
    _samples_a_seats_view(_position(rules, seed, decisions), seed, data)


def _game_and_plan(
    rules: cr.Rules, seed: int, decisions: int, data: st.DataObject
) -> tuple[list[cr.GameState], int, _sampling_plan.Plan]:
    """Every state of a seeded random game, a seat drawn from ``data``, and its view's plan."""
    rng = random.Random(seed)
    game = [cr.deal(rules, seed=seed)]
    while len(game) <= decisions and not game[-1].is_over:
        game.append(game[-1].apply(random_action(game[-1], rng)))
    observer = data.draw(st.integers(0, rules.players - 1))
    seen = game[-1].observe(observer)
    dealt = seen.events[0]
    assert isinstance(dealt, cr.events.Dealt)
    return game, observer, _sampling_plan.Plan(seen.rules, seen.seat, seen.events, dealt)


@settings(examples(10))
@given(TWO_PACKS | TWO_PACKS_DISCARDING, st.integers(0, 2**32), st.integers(20, 250), st.data())
def test_a_hand_keeps_enough_cards_for_each_group_it_lays_into_a_pile_the_observer_takes(
    rules: cr.Rules, seed: int, decisions: int, data: st.DataObject
) -> None:
    # The bounds the search prunes by, met by every real game: a group laid
    # into a pile the observer takes holds only cards the observer names
    # there, so a hand that holds cards named nowhere in it must shed them
    # first, in groups laid elsewhere or fours set aside, and must hold or
    # gain (take up, draw) enough cards named there; and a hand that sets a
    # four aside holds no lower copy of its rank than those it sets aside.
    game, observer, plan = _game_and_plan(rules, seed, decisions, data)
    for state in game:
        index = len(state.events) - 1
        for seat, hand in enumerate(state.hands):
            if seat == observer:
                continue
            held = Counter(hand)
            for named, count, room, gained in plan.into_seen(index, seat):
                barred = sum(number for card, number in held.items() if not named[card])
                assert room - count >= barred, (index, seat)
                fitting = sum(min(number, named[card]) for card, number in held.items())
                assert fitting + gained >= count, (index, seat)
            for tops, below, room in plan.discards_ahead(index, seat):
                low = Counter(card for card in hand if card.key < tops.get(card.rank, -1))
                assert (low - below).total() <= room, (index, seat)


@settings(examples(10))
@given(TWO_PACKS, st.integers(0, 2**32), st.integers(20, 250), st.data())
def test_the_copies_of_a_card_in_a_real_game_can_meet_its_later_sightings(
    rules: cr.Rules, seed: int, decisions: int, data: st.DataObject
) -> None:
    # The chain test the search prunes by, met by every real game: at each
    # moment the copies of a card, from the hands holding them (a copy on the
    # table or in the stock may start anywhere), can be at each of its later
    # sightings in turn, one copy a sighting.
    game, observer, plan = _game_and_plan(rules, seed, decisions, data)
    search = _sampling_search.Search(plan, random.Random(0))
    for state in game:
        index = len(state.events) - 1
        for card, sights in plan.copy_sights.items():
            units = []
            for seat, hand in enumerate(state.hands):
                kind = "own" if seat == observer else "hand"
                units += [(kind, seat, -1)] * hand.count(card)
            units += [_sampling_search.FREE] * (plan.copies[card] - len(units))
            assert search._follows(index, card, units, sights), (index, card)


def test_a_second_sample_of_a_view_reads_its_log_once() -> None:
    # A bot samples one view many times: the log is read into a plan once per
    # view, and the searches share what they work out from it alone.
    seen = _position(cr.english(3), seed=1, decisions=40).observe(0)
    first = sampling._plan_of(seen, seen.events[0])  # type: ignore[arg-type]
    assert sampling._plan_of(seen, seen.events[0]) is first  # type: ignore[arg-type]
    assert sample(seen, random.Random(5)) == sample(seen, random.Random(5))


def test_a_view_whose_log_is_a_tuple_keeps_its_plan_by_value() -> None:
    # A view loaded or built by hand has no shared log to keep its plan
    # with: an equal view finds the plan all the same, and samples alike.
    seen = _position(cr.english(3), seed=1, decisions=40).observe(0)
    alone = attrs.evolve(seen, events=tuple(seen.events))
    again = attrs.evolve(seen, events=tuple(seen.events))
    dealt = seen.events[0]
    assert isinstance(dealt, cr.events.Dealt)
    assert sampling._plan_of(alone, dealt) is sampling._plan_of(again, dealt)
    assert sample(alone, random.Random(5)) == sample(seen, random.Random(5))


def test_a_plan_is_lent_to_one_call_at_a_time() -> None:
    # The searches fill the plan's memos as they go, so no two calls (two
    # threads) search with one plan: a call made while the kept plan is
    # lent gets a plan of its own, and the kept one comes back after.
    seen = _position(cr.english(3), seed=1, decisions=40).observe(0)
    dealt = seen.events[0]
    assert isinstance(dealt, cr.events.Dealt)
    kept = sampling._plan_of(seen, dealt)
    with sampling._lent_plan(seen, dealt) as lent:
        assert lent is kept
        assert sampling._plan_of(seen, dealt) is not kept
    assert sampling._plan_of(seen, dealt) is kept


def _benchmark_view(rules: cr.Rules, seed: int, decisions: int, seat: int) -> cr.Observation:
    """A seat's view of a seeded game played as benchmarks/sampling.py plays it."""
    rng = random.Random(seed)
    state = cr.deal(rules, seed=seed)
    for _ in range(decisions):
        if state.phase is cr.Phase.CHALLENGE and rng.random() >= 0.25:
            state = state.apply(cr.Accept())
        else:
            state = state.apply(state.legal_actions().choice(rng))
    return state.observe(seat)


def test_the_same_view_and_rng_give_the_same_game_whatever_was_sampled_before() -> None:
    # With copies, what the searches blame a labelling for leans the later
    # draws of the same call. It stays with the call: on this two-pack view
    # (139 events) the blame of four earlier samples changed the game the
    # same rng then gave, so a bot's samples depended on its earlier ones,
    # and threads sampling one view on each other's.
    seen = _benchmark_view(cr.english(4, decks=2), seed=4, decisions=120, seat=1)
    assert len(seen.events) == 139
    for seed in range(100, 104):
        sample(seen, random.Random(seed))
    fresh = _benchmark_view(cr.english(4, decks=2), seed=4, decisions=120, seat=1)
    assert sample(seen, random.Random(0)) == sample(fresh, random.Random(0))


def test_the_sampler_s_replay_checks_every_action_as_apply_does() -> None:
    # The replay makes one state for a run of acceptances, but an action the
    # game does not allow is refused with apply's own message.
    state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    actions = [cr.Play("K♦", "A"), cr.Accept(), cr.Accept(), cr.Accept()]
    with pytest.raises(cr.IllegalActionError) as raised:
        state._replay(actions)
    with pytest.raises(cr.IllegalActionError) as expected:
        state._replay(actions[:3]).apply(cr.Accept())
    assert str(raised.value) == str(expected.value)


def _parts(state: cr.GameState) -> dict[str, object]:
    """Every field of ``state``, the persistent stacks as tuples."""
    parts = {field.name: getattr(state, field.name) for field in attrs.fields(cr.GameState)}
    parts["_log"] = _persistent.oldest_first(state._log)
    parts["_groups"] = _persistent.oldest_first(state._groups)
    return parts


@settings(examples(40), deadline=None)
@given(option_combinations(), st.integers(0, 2**32), st.integers(0, 300))
def test_the_sampler_s_replay_makes_the_very_state_apply_makes(
    rules: cr.Rules, seed: int, decisions: int
) -> None:
    start = cr.deal(rules, seed=seed)
    played = play_randomly(start, seed, limit=decisions)[-1]
    replayed = start._replay(list(played.actions))
    assert replayed == played
    assert _parts(replayed) == _parts(played)  # the hidden sequence parts too
    for seat in range(rules.players):
        assert replayed.observe(seat) == played.observe(seat)


def test_asking_for_the_solver_without_it_installed_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_solver, "available", lambda: False)
    seen = _position(cr.english(3), seed=1, decisions=10).observe(0)
    with pytest.raises(ImportError, match=r"cheatrules\[solver\]"):
        sampling.sample_with(seen, random.Random(0), solver=True)
    # The search alone still serves.
    assert sampling.sample_with(seen, random.Random(0), solver=False).observe(0) == seen


def test_a_timeout_reaches_into_the_deal_of_the_cards_nobody_saw() -> None:
    # A fuzzing run's view: two packs, compulsory discards, six players, a
    # stock. The search finds where every card went in a second, and then
    # its deal of the cards nobody saw (no hand may hold a four) ran 28 s
    # through 64 attempts without reading the clock.
    rules = cr.english(
        6,
        ranks="ascending",
        claims="1-3",
        after_challenge="declarers-left",
        ending="placings",
        jokers="per-pack",
        stock=True,
    )
    rules = rules.replace(
        deck=cr.Deck(packs=2, ranks=rules.deck.ranks, jokers=rules.deck.jokers),
        discards=cr.policies.AfterPickup(compulsory=True),
    )
    rng = random.Random(2441)
    state = cr.deal(rules, seed=2441, dealer=2441 % 6)
    for _ in range(362):
        if state.phase is cr.Phase.CHALLENGE and rng.random() >= 0.25:
            state = state.apply(cr.Accept())
        else:
            state = state.apply(state.legal_actions().choice(rng))
    seen = state.observe(2)
    start = time.monotonic()
    with contextlib.suppress(SamplingTimeoutError):  # or a game, found in the time
        assert (
            sampling.sample_with(seen, random.Random(12140), solver=False, timeout=0.5).observe(2)
            == seen
        )
    assert time.monotonic() - start < 5  # half a second, and a deal's last nodes
