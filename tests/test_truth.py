"""One meaning of a truthful card: a joker counts as the announced rank, everywhere.

The engine judges a challenge with :func:`cheatrules.policies.proves` (the
rules' check policy); the cards themselves, without a check, are judged by
:func:`cheatrules.policies.holds`. ``Play.is_truthful``, the bots and the
arena must all give the same answer.
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules import arena, bots
from cheatrules.events import Played, Revealed
from cheatrules.policies import holds, proves

from .budget import examples
from .strategies import option_combinations, random_action


def test_a_joker_laid_as_the_announced_rank_is_truthful() -> None:
    # Reported: Play('7♣ ★♥','7').is_truthful was False while holds() said True.
    play = cr.Play("7♣ ★♥", "7")
    assert play.is_truthful
    assert play.is_truthful == holds(play.cards, play.rank)


def test_jokers_alone_back_a_claim() -> None:
    assert cr.Play("★♥ ★♠", "K").is_truthful
    assert not cr.Play("★♥ K♦", "7").is_truthful  # without jokers-protect, K♦ is a lie


def test_is_truthful_agrees_with_the_engine_on_a_challenged_joker() -> None:
    state = cr.deal(cr.english(3, jokers=True), hands=["7♣ ★♥ 2♦", "A♠ 9♣", "Q♥ 8♣"])
    rank = state.allowed_ranks[0]
    play = cr.Play("★♥", rank)
    after = state.apply(play).apply(cr.Challenge())
    revealed = next(event for event in after.events if isinstance(event, Revealed))
    assert revealed.truthful
    assert play.is_truthful == revealed.truthful


def test_the_sampling_bot_counts_jokers_as_true_cards() -> None:
    # The sampling bot asks whether the declarer could have told the truth:
    # jokers stand in for the claimed rank.
    state = cr.deal(cr.english(3, jokers=True), hands=["★♥ ★♠ 9♦", "A♠ 9♣", "Q♥ 8♣"])
    state = state.apply(cr.Play("9♦ ★♥", "A"))
    assert state.last_claim is not None
    assert bots._could_be_honest(state, state.last_claim)
    lie = state.apply(cr.Accept()).apply(cr.Accept()).apply(cr.Play("A♠ 9♣", "2"))
    assert lie.last_claim is not None
    assert not bots._could_be_honest(lie, lie.last_claim)  # no Two, no joker


def test_the_arena_counts_a_joker_play_as_no_bluff() -> None:
    state = cr.deal(cr.english(3, jokers=True), hands=["★♥ 2♦", "A♠ 9♣", "Q♥ 8♣"])
    rank = state.allowed_ranks[0]
    state = state.apply(cr.Play("★♥", rank))
    assert arena.seat_stats(state)[0].bluffs == 0


@examples(40)
@given(option_combinations(), st.integers(0, 2**32))
def test_every_judge_of_truth_agrees_with_the_engine(rules: cr.Rules, seed: int) -> None:
    state = cr.deal(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(150):
        if state.is_over:
            break
        state = state.apply(random_action(state, rng, challenge=0.5))
    stats = arena.seat_stats(state)
    bluffs = [0] * rules.players
    played: list[Played] = []
    for event in state.events:
        if isinstance(event, Played):
            played.append(event)
            play = cr.Play(event.cards, event.rank)
            assert play.is_truthful == holds(event.cards, event.rank)
            judged = proves(rules.check, event.cards, event.rank)
            bluffs[event.seat] += not judged
            # Wherever the check turns the whole group over, the engine's
            # judgement of it is the one judgement of the cards laid.
            if not isinstance(rules.check, cr.policies.JokerProtects):
                assert judged == play.is_truthful
        elif isinstance(event, Revealed):
            group = played[-2] if event.earlier else played[-1]
            assert event.rank is group.rank
            assert set(event.cards) <= set(group.cards)
            assert event.truthful == proves(rules.check, event.cards, event.rank)
            if len(event.cards) == group.count:
                assert event.truthful == proves(rules.check, group.cards, group.rank)
    assert [each.bluffs for each in stats] == bluffs
