"""The table every seat sees, and the decision asked for: one small value per kind."""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules import Accept, Challenge, Discard, Pass, Play, Refuse

from .budget import examples
from .strategies import option_combinations, play_randomly

KINDS = (cr.Turn, cr.Window, cr.Consent, cr.DiscardOffer, cr.Over)
# The error's sentence on what is asked, after "illegal action X: ".
ILLEGAL = (
    Play("A♠", "A"),
    Challenge(),
    Challenge(earlier=True),
    Accept(),
    Pass(),
    Refuse(),
    Discard((cr.Rank.KING,)),
)


def three_seats() -> cr.GameState:
    return cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])


# -- scenarios, as the rule book tells them -------------------------------------------


def test_a_claim_opens_a_window_asking_each_opponent_in_turn() -> None:
    state = three_seats()
    assert state.decision == cr.Turn(0)
    state = state.apply(Play("K♦", "A"))
    claim = cr.Claim(0, 1, "A")
    assert state.decision == cr.Window(1, claim, askers=(2,))
    state = state.apply(Accept())
    assert state.decision == cr.Window(2, claim, askers=())
    state = state.apply(Accept())
    assert state.decision == cr.Turn(1)  # the claim stands; the declarer's left plays


def test_a_window_says_what_it_asks_and_lists_its_choices() -> None:
    state = three_seats().apply(Play("K♦", "A"))
    window = state.decision
    assert isinstance(window, cr.Window)
    assert window.phase is cr.Phase.CHALLENGE and window.to_move == 1
    assert window.choices == (Challenge(), Accept())
    assert window.asked(state.table) == "seat 1 must challenge or accept seat 0's claim of one Ace"
    assert state.legal_actions() == window.legal_actions(state.hands[1], state.table)


def test_an_extended_window_reaches_the_claim_beneath_but_not_for_its_declarer() -> None:
    rules = cr.english(3, window="extended")
    state = cr.deal(rules, hands=["A♣ 3♣ 9♦", "2♠ 5♥ 9♥", "Q♥ 8♣ 7♣"])
    state = state.apply(Play("A♣", "A")).apply(Accept()).apply(Accept())
    state = state.apply(Play("5♥", "2"))
    window = state.decision
    assert isinstance(window, cr.Window)
    assert window.earlier == cr.Claim(0, 1, "A")
    assert window.seat == 2 and Challenge(earlier=True) in window.choices
    after = state.apply(Accept()).decision
    assert isinstance(after, cr.Window) and after.seat == 0
    assert after.earlier == cr.Claim(0, 1, "A")  # the window still reaches it...
    assert Challenge(earlier=True) not in after.choices  # ...but not for its own declarer


def test_a_pass_with_consent_asks_each_opponent() -> None:
    rules = cr.english(3, passing="consent")
    state = cr.deal(rules, hands=["9♣ 4♦", "7♥ 2♥", "Q♥ 8♣"])
    turn = state.decision
    assert isinstance(turn, cr.Turn) and turn.may_pass and not turn.may_challenge
    state = state.apply(Pass())
    assert state.decision == cr.Consent(1, passer=0, askers=(2,))
    refused = state.apply(Refuse())
    assert refused.decision == cr.Turn(0)  # refused: it lays cards, and may not ask again
    assert not refused.decision.may_pass


def test_the_taker_alone_sees_the_fours_it_is_offered() -> None:
    # Seat 1 challenges a true Queen and takes the pile: with it, four Queens.
    state = cr.deal(cr.verish(3), hands=["Q♠ 6♣", "Q♣ Q♦ Q♥ 9♣", "10♣ J♣"], hidden="A♠")
    state = state.apply(Play("Q♠", "Q")).apply(Challenge())
    offer = state.decision
    assert isinstance(offer, cr.DiscardOffer)
    assert offer.seat == 1 and offer.fours == (cr.Rank.QUEEN,)
    assert offer.asked(state.table) == "seat 1 must discard fours of Q, or decline with Discard(())"
    assert state.observe(1).decision == offer
    other = state.observe(0).decision
    assert other == cr.DiscardOffer(1, fours=(), opener=offer.opener)
    assert state.observe(0).offered == ()


def test_the_end_of_the_game_is_a_decision_nobody_takes() -> None:
    rules = cr.english(3)
    state = cr.deal(rules, hands=["A♣", "2♥ 3♥", "4♥ 5♥"])
    state = state.apply(Play("A♣", "A")).apply(Accept()).apply(Accept())
    over = state.decision
    assert isinstance(over, cr.Over) and over.outcome == state.outcome
    assert over.to_move is None and over.choices == () and not state.legal_actions()
    assert over.asked(state.table) == "the game is over"
    assert state.table.allowed_ranks == () and state.table.is_over


def test_every_seat_observes_the_states_own_table() -> None:
    state = three_seats().apply(Play("K♦", "A"))
    assert all(state.observe(seat).table is state.table for seat in range(3))
    assert state.table.last_claim == cr.Claim(0, 1, "A")
    assert (state.table.pile_size, state.table.hand_sizes) == (1, (1, 2, 2))


def test_an_acceptance_leaves_the_table_as_it_was() -> None:
    state = three_seats().apply(Play("K♦", "A"))
    assert state.apply(Accept()).table is state.table


def test_the_table_holds_no_hidden_card() -> None:
    state = three_seats().apply(Play("K♦", "A"))
    cards_in_view = {
        value
        for field in attrs.fields(cr.Table)
        for value in _flatten(getattr(state.table, field.name))
        if isinstance(value, cr.Card)
    }
    assert cards_in_view == set()


def test_a_bot_reads_the_kind_of_decision_from_its_value() -> None:
    seen = three_seats().apply(Play("K♦", "A")).observe(1)
    match seen.decision:
        case cr.Window(claim=claim, askers=askers):
            assert (claim.seat, askers) == (0, (2,))
        case _:
            pytest.fail(f"a claim opens a window; got {seen.decision!r}")


def test_decisions_and_tables_pickle_and_compare_as_values() -> None:
    state = three_seats().apply(Play("K♦", "A"))
    for value in (state.decision, state.table, state.observe(2)):
        assert pickle.loads(pickle.dumps(value)) == value
        assert hash(pickle.loads(pickle.dumps(value))) == hash(value)


# -- properties -------------------------------------------------------------------------


@examples(15)
@given(option_combinations(), st.integers(0, 2**32))
def test_the_decision_and_the_table_agree_with_the_state(rules: cr.Rules, seed: int) -> None:
    for state in play_randomly(cr.deal(rules, seed=seed), seed, limit=300)[::3]:
        decision = state.decision
        assert isinstance(decision, KINDS)
        assert (decision.phase, decision.to_move) == (state.phase, state.to_move)
        assert decision.choices == state.choices
        hand = () if state.to_move is None else state.hands[state.to_move]
        assert decision.legal_actions(hand, state.table) == state.legal_actions()
        table = state.table
        assert table.hand_sizes == tuple(map(len, state.hands))
        assert table.pile_size == len(state.pile)
        assert table.claims == tuple(claim for claim, _ in state.groups)
        assert table.outcome == state.outcome and table.seating == state.seating
        assert table.stock_size == len(state.stock)
        for seat in range(state.players):
            seen = state.observe(seat)
            assert seen.table is table
            assert seen.decision == decision.seen_by(seat)
            assert type(seen.decision) is type(decision)


@examples(30)
@given(option_combinations(), st.integers(0, 2**32))
def test_an_illegal_action_says_what_the_decision_asks(rules: cr.Rules, seed: int) -> None:
    for state in play_randomly(cr.deal(rules, seed=seed), seed, limit=200)[::5]:
        if state.is_over:
            continue
        asked = state.decision.asked(state.table)
        for action in ILLEGAL:
            if state.is_legal(action):
                continue
            with pytest.raises(cr.IllegalActionError) as error:
                state.apply(action)
            message = str(error.value)
            # Every refusal about the kind of decision names what is asked instead.
            if "hand" not in message and "holds" not in message and "rank must" not in message:
                assert message.endswith(asked), message


def _flatten(value: Any) -> list[object]:
    if isinstance(value, Sequence) and not isinstance(value, str):
        return [item for inner in value for item in _flatten(inner)]
    if attrs.has(type(value)):
        return [
            item
            for name in attrs.asdict(value, recurse=False)
            for item in _flatten(getattr(value, name))
        ]
    return [value]
