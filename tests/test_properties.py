"""Properties that hold in every game: conservation, immutability, the action generator."""

from __future__ import annotations

import copy
import itertools
import pickle
import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules import Phase, Play

from .budget import examples
from .strategies import deals, play_randomly, random_action, small_deals, verish_rules


def all_cards(state: cr.GameState) -> Counter[cr.Card]:
    dealt = state.events[0]
    assert isinstance(dealt, cr.Dealt)
    return Counter([card for hand in dealt.hands for card in hand])


def cards_in_play(state: cr.GameState) -> Counter[cr.Card]:
    return Counter([card for hand in state.hands for card in hand]) + Counter(state.pile)


def snapshot(state: cr.GameState) -> tuple[object, ...]:
    return (
        state.hands,
        state.pile,
        state.events,
        state.to_move,
        state.phase,
        state.required_rank,
        state.last_claim,
        state.outcome,
        state.legal_actions(),
    )


def play_signature(play: Play) -> tuple[tuple[cr.Rank, ...], cr.Rank]:
    return tuple(sorted(card.rank for card in play.cards)), play.rank


@examples(30)
@given(deals(), st.integers(0, 2**32))
def test_cards_are_conserved(state: cr.GameState, seed: int) -> None:
    expected = all_cards(state)
    for current in play_randomly(state, seed):
        assert cards_in_play(current) + Counter(current.discarded) == expected
        assert current.pile_size == len(current.pile)
        assert sum(current.hand_sizes) + current.pile_size + len(current.discarded) == sum(
            expected.values()
        )
        assert current.set_aside == state.set_aside


@examples(60)
@given(deals(), st.integers(0, 2**32))
def test_apply_never_mutates(state: cr.GameState, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        if state.is_over:
            break
        before, saved_hash = snapshot(state), hash(state)
        state.apply(random_action(state, rng))
        assert snapshot(state) == before
        assert hash(state) == saved_hash
        state = state.apply(random_action(state, rng))


@examples(20)
@given(small_deals(max_cards=7), st.integers(0, 2**32))
def test_listed_actions_are_exactly_the_legal_rank_choices(state: cr.GameState, seed: int) -> None:
    rng = random.Random(seed)
    for current in play_randomly(state, seed, limit=40):
        listed = current.legal_actions()
        assert all(current.is_legal(action) for action in listed)
        assert len(set(listed)) == len(listed)
        if current.phase is not Phase.PLAY:
            continue
        signatures = {play_signature(action) for action in listed if isinstance(action, Play)}
        challenges = [action for action in listed if not isinstance(action, Play)]
        assert len(signatures) + len(challenges) == len(listed)
        assert challenges in ([], [cr.Challenge()])
        hand = current.hands[current.to_move]  # type: ignore[index]
        # Random concrete plays, legal or not: legal exactly when listed.
        for _ in range(20):
            count = rng.randint(0, min(5, len(hand)))
            play = Play(tuple(rng.sample(hand, count)), rng.choice(list(cr.Rank)))
            assert current.is_legal(play) == (play_signature(play) in signatures)


@examples(10)
@given(deals(), st.integers(0, 2**32))
def test_the_same_seed_gives_the_same_game(state: cr.GameState, seed: int) -> None:
    first = play_randomly(state, seed)
    second = play_randomly(copy.copy(state), seed)
    assert len(first) == len(second)
    assert first[-1] == second[-1]
    assert first[-1].events == second[-1].events
    assert [hash(current) for current in first] == [hash(current) for current in second]
    # Two different histories never compare equal.
    assert len({hash(current) for current in first}) == len(first)
    assert len(set(first[:200])) == len(first[:200])


@examples(20)
@given(deals(), st.integers(0, 2**32))
def test_random_legal_play_ends_with_one_winner_or_one_loser(
    state: cr.GameState, seed: int
) -> None:
    final = play_randomly(state, seed, limit=20_000)[-1]
    assert final.is_over
    assert final.outcome is not None
    assert sorted(final.outcome.winners + final.outcome.losers) == list(range(final.players))
    if final.rules.name == "english":  # the first player out wins
        (winner,) = final.outcome.winners
        assert final.hands[winner] == ()
        assert final.finishing_order == (winner,)
    else:  # the last player in loses; the others won in the order they left
        assert len(final.outcome.losers) == 1
        assert final.outcome.winners == final.finishing_order
        assert all(not final.hands[seat] for seat in final.outcome.winners)
    assert isinstance(final.events[-1], cr.GameOver)
    assert final.to_move is None and final.legal_actions() == ()


@examples(40)
@given(deals(), st.integers(0, 2**32))
def test_every_state_keeps_its_invariants(state: cr.GameState, seed: int) -> None:
    for current in play_randomly(state, seed, limit=500):
        if current.is_over:
            continue
        seat = current.to_move
        assert seat is not None
        assert current.seating.is_active(seat), "players who left are skipped"
        if current.phase is Phase.PLAY:
            assert current.hands[seat], "a player to lay cards always holds some"
            assert current.allowed_ranks
            if current.last_claim is not None:
                assert seat != current.last_claim.seat, "a declarer never doubts itself"
        elif current.phase is Phase.DISCARD:
            # Right after the pickup (and after a declarer's true last cards
            # took it out of the game).
            taken = [event for event in current.events[-2:] if isinstance(event, cr.PileTaken)]
            assert taken, "discards are offered only right after a pickup"
            assert taken[-1].seat == seat, "only the player who took the pile discards"
        else:
            assert current.phase is Phase.CHALLENGE
            assert current.last_claim is not None
            assert seat != current.last_claim.seat, "a declarer never challenges itself"


@examples(20)
@given(deals(), st.integers(0, 2**32))
def test_states_survive_pickling_and_copying(state: cr.GameState, seed: int) -> None:
    for current in play_randomly(state, seed, limit=200)[::25]:
        assert pickle.loads(pickle.dumps(current)) == current
        assert copy.deepcopy(current) == current
        restored = pickle.loads(pickle.dumps(current))
        assert restored.events == current.events and restored.pile == current.pile


@examples(30)
@given(deals(), st.integers(0, 2**32))
def test_replaying_the_actions_gives_the_same_state(state: cr.GameState, seed: int) -> None:
    final = play_randomly(state, seed, limit=400)[-1]
    replayed = state
    for action in final.actions:
        replayed = replayed.apply(action)
    assert replayed == final
    assert replayed.events == final.events


def test_states_compare_by_history() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ A♦ 5♣", "2♥", "3♥"])
    one = state.apply(Play("A♣", "A"))
    other = state.apply(Play("A♦", "A"))
    assert one != other
    assert one == state.apply(Play("A♣", "A"))
    assert one != "a state"


@examples(60)
@given(deals(verish_rules()), st.integers(0, 2**32))
def test_cards_leave_play_only_in_fours(state: cr.GameState, seed: int) -> None:
    for current in play_randomly(state, seed):
        assert len(current.discarded) % 4 == 0
    for event in current.events:
        if isinstance(event, cr.Discarded):
            assert Counter(card.rank for card in event.cards) == Counter(
                {rank: 4 * event.ranks.count(rank) for rank in event.ranks}
            )


@examples(60)
@given(deals(verish_rules()), st.integers(0, 2**32))
def test_the_set_aside_rank_never_forms_a_four(state: cr.GameState, seed: int) -> None:
    if not state.set_aside:
        return
    (hidden,) = state.set_aside
    for current in play_randomly(state, seed):
        for hand in current.hands:
            assert sum(1 for card in hand if card.rank is hidden.rank) <= 3
        assert hidden.rank not in {card.rank for card in current.discarded}


@examples(40)
@given(deals(verish_rules()), st.integers(0, 2**32))
def test_discards_are_offered_only_right_after_a_pickup(state: cr.GameState, seed: int) -> None:
    # After every pickup the taker decides, fours or not, so that being asked
    # tells nobody whether the taker holds a four.
    states = play_randomly(state, seed)
    for before, after in itertools.pairwise(states):
        picked_up = before.pile_size > 0 and after.pile_size == 0
        if after.phase is Phase.DISCARD:
            assert picked_up
            seen = after.observe(after.to_move)  # type: ignore[arg-type]
            assert seen.offered == cr.policies.complete_fours(seen.hand)
            assert seen.legal_actions()[0] == cr.Discard(())
        elif picked_up:
            assert after.phase is Phase.OVER
