"""The one public fold: ``Table.after(event)`` moves the public table by one event.

The engine makes each state's table by it, and a seat's log folded by it
from the deal gives the very table that seat sees, whatever the rules and
house rules, a policy of one's own included.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from tests.budget import examples
from tests.strategies import house_options, option_combinations, play_randomly
from tests.test_policies_end_to_end import SERVED


def _folded(rules: cr.Rules, events: Sequence[cr.events.Event]) -> cr.Table:
    *_, table = cr.Table.course(rules, events)
    return table


# -- the rule book, one event at a time ---------------------------------------------


def test_a_play_lays_its_claim_and_the_sequence_moves_on() -> None:
    state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    table = state.table.after(cr.events.Played(0, (), cr.Rank.ACE, 1))
    assert table.claims == (cr.Claim(0, 1, "A"),)
    assert table.hand_sizes == (1, 2, 2)
    assert table.pile_size == 1
    assert table.required_rank is cr.Rank.TWO


def test_a_pickup_takes_the_groups_it_names_and_keeps_the_newest_it_keeps() -> None:
    table = cr.deal(cr.english(3, window="extended"), seed=1).table
    for seat, rank in ((0, cr.Rank.ACE), (1, cr.Rank.TWO)):
        table = table.after(cr.events.Played(seat, (), rank, 2))
    kept = table.after(cr.events.PileTaken(2, (), 2, groups=1, kept=1))
    assert kept.claims == (cr.Claim(1, 2, "2"),)
    assert kept.pile_size == 2
    assert kept.hand_sizes == (16, 15, 19)
    taken = table.after(cr.events.PileTaken(2, (), 4, groups=2, kept=0))
    assert taken.claims == () and taken.pile_size == 0
    assert taken.hand_sizes == (16, 15, 21)


def test_a_pass_moves_the_sequence_at_once_or_with_the_last_consent() -> None:
    plain = cr.deal(cr.english(3, passing="all-revealed"), seed=2).table
    assert plain.after(cr.events.Passed(0)).required_rank is cr.Rank.TWO
    asked = cr.deal(cr.english(3, passing="consent"), seed=2).table
    requested = asked.after(cr.events.Passed(0))
    assert requested is asked  # asked for, not yet agreed
    assert requested.after(cr.events.Accepted(1)) is asked
    assert requested.after(cr.events.Accepted(2, passer=0)).required_rank is cr.Rank.TWO


def test_a_seat_that_goes_out_leaves_and_the_end_names_the_result() -> None:
    table = cr.deal(cr.verish(3), seed=3).table
    table = table.after(cr.events.WentOut(1))
    assert table.finishing_order == (1,)
    over = table.after(cr.events.GameOver((1,), (0, 2)))
    assert over.outcome == cr.Outcome((1,), (0, 2))
    assert over.allowed_ranks == ()


def test_events_that_move_nothing_public_leave_the_very_table() -> None:
    table = cr.deal(cr.english(3), seed=4).table
    for event in (
        cr.events.Challenged(1, 0),
        cr.events.Refused(2),
        cr.events.Accepted(1),
        cr.events.Discarded(0, ()),
    ):
        assert table.after(event) is table


def test_the_fold_refuses_what_is_not_an_event_after_the_deal() -> None:
    state = cr.deal(cr.english(3), seed=5)
    with pytest.raises(TypeError, match=r"Table\.dealt"):
        state.table.after(state.events[0])
    with pytest.raises(TypeError, match="not Play"):
        state.table.after(cr.Play("2♣", "A"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="starts with the deal"):
        list(cr.Table.course(state.rules, state.events[1:]))


# -- properties: the fold is the engine's, for the state and for every seat -------------


def _check_game(states: list[cr.GameState]) -> None:
    rules = states[0].rules
    for state in states:
        assert _folded(rules, state.events) == state.table
    last = states[-1]
    for seat in range(rules.players):
        seen = last.observe(seat)
        assert _folded(rules, seen.events) == seen.table


@examples(20)
@given(option_combinations(), st.integers(0, 2**32))
def test_every_composition_s_table_is_the_fold_of_its_log(rules: cr.Rules, seed: int) -> None:
    _check_game(play_randomly(cr.deal(rules, seed=seed), seed, limit=300))


@examples(10)
@given(st.integers(0, 2**32), st.booleans())
def test_every_house_rule_s_table_is_the_fold_of_its_log(seed: int, english: bool) -> None:
    rng = random.Random(seed)
    options = house_options(rng)
    rules = cr.english(4, **options) if english else cr.verish(4, **options)
    _check_game(play_randomly(cr.deal(rules, seed=seed), seed, limit=400))


@examples(10)
@given(st.sampled_from(sorted(SERVED)), st.integers(0, 2**32))
def test_a_policy_of_one_s_own_folds_too(name: str, seed: int) -> None:
    _check_game(play_randomly(cr.deal(SERVED[name], seed=seed), seed, limit=300))
