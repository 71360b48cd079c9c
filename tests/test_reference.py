"""The engine against an independent naive model of English Cheat, action for action."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules import Phase

from .reference import ReferenceCheat
from .strategies import random_action, small_deals


def as_pair(card: cr.Card) -> tuple[int, int]:
    return card.rank.value, card.suit.value


def reference_for(state: cr.GameState) -> ReferenceCheat:
    return ReferenceCheat([[as_pair(card) for card in hand] for hand in state.hands], state.dealer)


def agree(state: cr.GameState, model: ReferenceCheat) -> None:
    assert [[as_pair(card) for card in hand] for hand in state.hands] == model.hands
    assert [as_pair(card) for card in state.pile] == model.pile_cards
    assert state.to_move == model.to_move
    expected_phase = {"play": Phase.PLAY, "window": Phase.CHALLENGE, "over": Phase.OVER}
    assert state.phase is expected_phase[model.phase]
    if model.phase == "over":
        assert state.outcome is not None and state.outcome.winners == (model.winner,)
        return
    assert state.required_rank is not None and state.required_rank.value == model.rank
    listed = [
        (
            "play" if isinstance(action, cr.Play) else type(action).__name__.lower(),
            tuple(card.rank.value for card in action.cards) if isinstance(action, cr.Play) else (),
            action.rank.value if isinstance(action, cr.Play) else 0,
        )
        for action in state.legal_actions()
    ]
    assert sorted(listed) == sorted(model.legal())


@settings(max_examples=150, deadline=None)
@given(small_deals(max_cards=6), st.integers(0, 2**32))
def test_engine_and_reference_model_agree(state: cr.GameState, seed: int) -> None:
    rng = random.Random(seed)
    model = reference_for(state)
    for _ in range(400):
        agree(state, model)
        if state.is_over:
            return
        action = random_action(state, rng)
        state = state.apply(action)
        if isinstance(action, cr.Play):
            model.play([as_pair(card) for card in action.cards], action.rank.value)
        elif isinstance(action, cr.Challenge):
            model.challenge()
        else:
            model.accept()
