"""The games the library names, the reward schemes, and the encoders' bounds: shared by adapters."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules.encoding import ObservationEncoder
from cheatrules.information_state import InformationStateEncoder
from cheatrules.variants import (
    REWARDS,
    VARIANTS,
    challenge_call,
    payouts,
    rewards,
    rules_for,
    variant,
)

from .budget import examples
from .strategies import deals, option_combinations, play_randomly

# -- the games ---------------------------------------------------------------------------


def test_the_table_names_each_game_with_its_rules_title_and_call() -> None:
    assert list(VARIANTS) == ["english", "verish"]
    english, verish = VARIANTS["english"], VARIANTS["verish"]
    assert (english.title, english.call, english.aliases) == ("English Cheat", "Cheat!", ("cheat",))
    assert (verish.title, verish.call) == ("Verish' Ne Verish'", "I don't believe!")
    assert english.build(5) == cr.english(5) and verish.build(3) == cr.verish(3)
    assert variant("cheat") is english


def test_rules_for_builds_a_game_by_name_players_and_house_options() -> None:
    assert rules_for("verish", 3, check="one-card") == cr.verish(3, check="one-card")
    assert rules_for("cheat") == cr.english(4)
    assert rules_for("english", None) == cr.english()
    custom = cr.english(5, ranks="free")
    assert rules_for(custom) is custom


def test_a_game_the_library_does_not_name_is_a_rules_error_naming_the_games() -> None:
    with pytest.raises(
        cr.RulesError,
        match=r"unknown game 'poker'; the games are 'english' \(or 'cheat'\) and 'verish'",
    ):
        rules_for("poker")
    with pytest.raises(cr.RulesError, match="a Rules value is complete"):
        rules_for(cr.english(4), players=4)
    with pytest.raises(cr.RulesError, match="English Cheat is played by 3 to 10 players"):
        rules_for("english", 2)


def test_the_challenge_call_follows_the_rules_name() -> None:
    assert challenge_call(cr.verish(3)) == "I don't believe!"
    assert challenge_call(cr.english(3)) == "Cheat!"
    assert challenge_call(cr.english(3).replace(name="house")) == "Cheat!"


# -- rewards ---------------------------------------------------------------------------------


def test_win_loss_gives_each_winner_one_and_each_loser_minus_one() -> None:
    # Verish' Ne Verish', 3 players: seat 0 lays its last card; seat 1 plays on, so it stands.
    state = cr.deal(cr.verish(3), hands=["7♣", "A♠ 9♥", "A♥ 8♣"], hidden=["6♠"], dealer=2)
    state = state.apply(cr.Play("7♣", "7")).apply(cr.Play("A♠", "7"))
    assert state.finishing_order == (0,) and not state.is_over
    assert rewards(state) == (1.0, 0.0, 0.0)
    assert cr.rewards is rewards and REWARDS == cr.REWARDS == ("win-loss", "placing")


def test_placing_in_a_game_ended_at_the_first_out_shares_the_places_left() -> None:
    state = cr.deal(cr.english(3), hands=["7♣", "A♠ 2♥", "A♥ 9♣"], dealer=2)
    state = state.apply(cr.Play("7♣", "A")).apply(cr.Accept()).apply(cr.Accept())
    assert state.is_over
    assert rewards(state, "win-loss") == (1.0, -1.0, -1.0)
    assert rewards(state, "placing") == (1.0, -0.5, -0.5)


def test_an_unknown_scheme_is_a_rules_error_naming_the_schemes() -> None:
    state = cr.deal(cr.english(3), seed=1)
    with pytest.raises(
        cr.RulesError, match="unknown reward 'outcome'; the rewards are 'win-loss' and 'placing'"
    ):
        rewards(state, "outcome")


@given(deal=deals(), seed=st.integers(0, 2**32))
@examples(40)
def test_the_rewards_sum_as_documented(deal: cr.GameState, seed: int) -> None:
    states = play_randomly(deal, seed, limit=400)
    for state in states[:: max(1, len(states) // 6)] + states[-1:]:
        win_loss, placing = rewards(state), rewards(state, "placing")
        order = state.finishing_order
        if state.is_over:
            outcome = state.outcome
            assert outcome is not None
            assert sum(win_loss) == len(outcome.winners) - len(outcome.losers)
            assert math.isclose(sum(placing), 0.0, abs_tol=1e-9)
        else:  # only the seats that left have a result yet
            assert sum(win_loss) == len(order)
            assert [seat for seat in range(state.players) if placing[seat]] == sorted(
                seat for seat in order if placing[seat]
            )
        assert all(-1.0 <= value <= 1.0 for value in win_loss + placing)


def test_the_one_table_of_rewards_pays_a_finished_game_and_a_cut_one_alike() -> None:
    # Four seats, placing: seat 2 out first, seat 0 second, seats 1 and 3 share the last places.
    exact = payouts(4, (2, 0), (2,), (1, 3), "placing", Fraction)
    assert exact == (Fraction(1, 3), Fraction(-2, 3), Fraction(1), Fraction(-2, 3))
    assert payouts(4, (2, 0), (2,), (1, 3), "win-loss", Fraction) == tuple(
        map(Fraction, (0, -1, 1, -1))
    )
    floats = payouts(4, (2, 0), (2,), (1, 3), "placing", float)
    assert all(math.isclose(a, float(b)) for a, b in zip(floats, exact, strict=True))
    with pytest.raises(cr.RulesError, match="the rewards are 'win-loss' and 'placing'"):
        payouts(4, (), (), (), "best", float)


@given(deal=deals(), seed=st.integers(0, 2**32))
@examples(30)
def test_rewards_are_the_tables_for_the_game_so_far(deal: cr.GameState, seed: int) -> None:
    state = play_randomly(deal, seed, limit=400)[-1]
    order = state.finishing_order
    for scheme in REWARDS:
        if state.is_over:
            outcome = state.outcome
            assert outcome is not None
            paid = payouts(state.players, order, outcome.winners, outcome.losers, scheme, float)
            assert rewards(state, scheme) == paid
        else:
            assert [rewards(state, scheme)[seat] for seat in order] == [
                payouts(state.players, order, order, (), scheme, float)[seat] for seat in order
            ]
        for game in VARIANTS.values():
            assert scheme in game.rewards


# -- the encoders' bounds ------------------------------------------------------------------------


def test_the_bounds_are_read_from_the_documented_sections() -> None:
    rules = cr.english(4, decks=2)
    encoder = InformationStateEncoder(rules)
    low, high = encoder.bounds()
    assert len(low) == len(high) == encoder.size and set(low) == {0.0}
    assert set(encoder.section(high, "seat")) == {1.0}
    assert set(encoder.section(high, "hand")) == {2.0}  # two packs: two copies of each card
    assert set(encoder.section(high, "hand_sizes")) == {104.0}
    assert set(encoder.section(high, "group_count")) == {4.0}  # the largest claim
    assert set(encoder.section(high, "offered")) == {2.0}  # 8 copies of a rank: two fours
    assert set(encoder.section(high, "claims_made")) == {math.inf}  # "0 and up"
    observation_low, observation_high = ObservationEncoder(rules).bounds()
    assert observation_high == high[: len(observation_high)]
    assert observation_low == low[: len(observation_low)]


@given(rules=option_combinations())
@examples(25)
def test_every_vector_of_a_random_game_lies_within_its_bounds(rules: cr.Rules) -> None:
    encoders: tuple[ObservationEncoder | InformationStateEncoder, ...] = (
        ObservationEncoder(rules),
        InformationStateEncoder(rules),
    )
    bounds = [encoder.bounds() for encoder in encoders]
    state = cr.deal(rules, seed=7)
    rng = random.Random(7)
    for _ in range(60):
        for seat in range(rules.players):
            seen = state.observe(seat)
            for encoder, (low, high) in zip(encoders, bounds, strict=True):
                vector = encoder.encode(seen)
                outside = [
                    name
                    for name, start, length in encoder.layout
                    for at in range(start, start + length)
                    if not low[at] <= vector[at] <= high[at]
                ]
                assert outside == []
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
