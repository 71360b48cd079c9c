"""The engine against independent naive models of both games, action for action."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules import Phase

from .budget import examples
from .reference import ReferenceCheat, ReferenceVerish
from .strategies import english_rules, random_action, small_deals, verish_rules

Model = ReferenceCheat | ReferenceVerish
PHASES = {
    "play": Phase.PLAY,
    "window": Phase.CHALLENGE,
    "discard": Phase.DISCARD,
    "over": Phase.OVER,
}


def as_pair(card: cr.Card) -> tuple[int, int]:
    return card.rank.value, card.suit.value


def model_for(state: cr.GameState) -> Model:
    hands = [[as_pair(card) for card in hand] for hand in state.hands]
    if state.rules.name == "english":
        return ReferenceCheat(hands, state.dealer)
    ranks = tuple(rank.value for rank in state.rules.deck.ranks)
    return ReferenceVerish(hands, state.dealer, ranks)


def as_choice(action: cr.Action) -> tuple[str, tuple[int, ...], int]:
    if isinstance(action, cr.Play):
        return "play", tuple(sorted(card.rank.value for card in action.cards)), action.rank.value
    if isinstance(action, cr.Discard):
        return "discard", tuple(rank.value for rank in action.ranks), 0
    return type(action).__name__.lower(), (), 0


def agree(state: cr.GameState, model: Model) -> None:
    assert [[as_pair(card) for card in hand] for hand in state.hands] == model.hands
    assert [as_pair(card) for card in state.pile] == model.pile_cards
    assert state.to_move == model.to_move
    assert state.phase is PHASES[model.phase]
    assert sorted(map(as_choice, state.legal_actions())) == sorted(model.legal())
    if model.phase != "over":
        if isinstance(model, ReferenceCheat):
            expected: tuple[int, ...] = (model.rank,)
        else:
            expected = model.ranks if model.rank is None else (model.rank,)
        assert tuple(rank.value for rank in state.allowed_ranks) == expected
    if isinstance(model, ReferenceVerish):
        assert list(state.finishing_order) == model.out
    elif model.phase == "over":
        assert state.outcome is not None and state.outcome.winners == (model.winner,)


def step(model: Model, action: cr.Action) -> None:
    if isinstance(action, cr.Play):
        model.play([as_pair(card) for card in action.cards], action.rank.value)
    elif isinstance(action, cr.Challenge):
        model.challenge()
    elif isinstance(action, cr.Discard) and isinstance(model, ReferenceVerish):
        model.discard(tuple(rank.value for rank in action.ranks))
    else:
        assert isinstance(model, ReferenceCheat)
        model.accept()


def play_both(state: cr.GameState, seed: int) -> None:
    rng = random.Random(seed)
    model = model_for(state)
    for _ in range(400):
        agree(state, model)
        if state.is_over:
            return
        action = random_action(state, rng)
        state = state.apply(action)
        step(model, action)


@examples(150)
@given(small_deals(english_rules(), max_cards=6), st.integers(0, 2**32))
def test_english_engine_and_reference_model_agree(state: cr.GameState, seed: int) -> None:
    play_both(state, seed)


@examples(75)
@given(small_deals(verish_rules(), max_cards=7), st.integers(0, 2**32))
def test_verish_engine_and_reference_model_agree(state: cr.GameState, seed: int) -> None:
    play_both(state, seed)
