"""Encodings for learning code: the action space, the legal mask, observation vectors."""

from __future__ import annotations

import itertools
import pickle
import random
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules._multisets import Capped
from cheatrules.encoding import (
    ActionSpace,
    EncodingError,
    InformationStateEncoder,
    ObservationEncoder,
)

from .budget import examples
from .strategies import deals, option_combinations, play_randomly


def ranks_of(action: cr.Action) -> object:
    if isinstance(action, cr.Play):
        return ("play", sorted(card.rank for card in action.cards), action.rank)
    return action


def numbered(action: cr.Action, rules: cr.Rules) -> bool:
    """Whether the action space numbers ``action``: all but several fours set aside on a turn."""
    declared = cr.policies.declared
    whole_choices = declared(rules.discards, "asks_after_pickup")
    return not (isinstance(action, cr.Discard) and len(action.ranks) > 1 and not whole_choices)


def described(action: cr.Action, seen: cr.Observation) -> str:
    """What ``describe`` should say of the index of ``action``, written out by hand."""
    if not isinstance(action, cr.Play):
        return action.text()
    kinds = [*seen.rules.deck.ranks, cr.Rank.JOKER]
    counts = Counter(card.rank for card in action.cards)
    laid = " ".join(f"{counts[kind]}×{kind}" for kind in kinds if counts[kind])
    required = len(seen.allowed_ranks) == 1 and cr.policies.declared(
        seen.rules.ranks, "names_one_rank"
    )
    return f"lay {laid} as {'the required rank' if required else action.rank}"


def expected_indices(space: ActionSpace, seen: cr.Observation) -> list[int]:
    """The mask as the legal actions say it, each encoded."""
    legal = seen.legal_actions()
    return sorted(space.encode(action, seen) for action in legal if numbered(action, space.rules))


@examples(20)
@given(deals(), st.integers(0, 2**32))
def test_indices_and_actions_round_trip(state: cr.GameState, seed: int) -> None:
    space = ActionSpace(state.rules)
    for current in play_randomly(state, seed, limit=150)[::5]:
        if current.is_over:
            continue
        seen = current.observe(current.to_move)  # type: ignore[arg-type]
        legal = current.legal_actions()
        mask = space.mask(seen)
        assert len(mask) == space.size
        assert sum(mask) == len(legal)
        rng = random.Random(seed)
        for action in rng.sample(list(legal), min(len(legal), 40)):
            index = space.encode(action, seen)
            assert mask[index]
            assert ranks_of(space.decode(index, seen)) == ranks_of(action)
        for index in rng.sample(space.legal_indices(seen), min(len(legal), 40)):
            assert space.encode(space.decode(index, seen), seen) == index
            assert current.is_legal(space.decode(index, seen))


@examples(20)
@given(option_combinations(), st.integers(0, 2**32))
def test_the_mask_is_the_legal_actions_under_every_option(rules: cr.Rules, seed: int) -> None:
    space = ActionSpace(rules)
    for current in play_randomly(cr.deal(rules, seed=seed), seed, limit=80)[::4]:
        seat = current.to_move if current.to_move is not None else 0
        seen = current.observe(seat)
        indices = space.legal_indices(seen)
        assert indices == expected_indices(space, seen)
        assert [index for index, legal in enumerate(space.mask(seen)) if legal] == indices
        for index in random.Random(seed).sample(indices, min(len(indices), 12)):
            action = space.decode(index, seen)
            assert current.is_legal(action)
            assert space.encode(action, seen) == index
            assert space.describe(index) == described(action, seen)
        other = (seat + 1) % current.players
        if other != current.to_move:
            assert space.legal_indices(current.observe(other)) == []


def test_the_action_space_sizes() -> None:
    # English Cheat names the rank: 2 (challenge, accept) + 2,379 multisets of 1-4 cards.
    assert ActionSpace(cr.english(4)).size == 2 + 2379
    # Verish, 36 cards: 512 choices of fours; 219 multisets of 1-3 as the round's rank,
    # and 219 x 9 ranks for the round's first claim, which names it.
    assert ActionSpace(cr.verish(3)).size == 2 + 2**9 + 219 + 219 * 9
    # Fours set aside on a turn go one at a time: 13 ranks, not 3**13 choices.
    assert ActionSpace(cr.english(8, discards="any-time")).size == 2 + 13 + 2379
    # Free choice of rank: every multiset times every rank.
    assert ActionSpace(cr.english(4, ranks="free")).size == 2 + 2379 * 13
    assert ActionSpace(cr.english(4)) == ActionSpace(cr.english(4))
    assert len(ActionSpace(cr.verish(3))) == ActionSpace(cr.verish(3)).size  # Discrete(len(space))


def test_the_layout_names_each_block() -> None:
    assert ActionSpace(cr.verish(3)).layout == (
        ("challenge", 0, 1),
        ("accept", 1, 1),
        ("discard", 2, 512),
        ("play", 514, 219),
        ("play-as", 733, 1971),
    )
    extended = ActionSpace(cr.english(4, window="extended", passing="consent"))
    assert [name for name, _, _ in extended.layout] == [
        "challenge", "accept", "play", "challenge-earlier", "pass", "refuse"
    ]  # fmt: skip


def test_the_first_indices_are_challenge_and_accept() -> None:
    space = ActionSpace(cr.verish(3))
    assert space.encode(cr.Challenge()) == 0
    assert space.encode(cr.Accept()) == 1
    assert space.encode(cr.Discard(())) == 2
    assert space.describe(2) == "discard"


def test_english_cheat_lays_as_the_required_rank_without_naming_it() -> None:
    # Aces first: the index says which ranks are laid, the rules say which rank is announced.
    rules = cr.english(3)
    space = ActionSpace(rules)
    state = cr.deal(rules, hands=["7♣ 7♦ K♠ 2♥", "A♠ 2♣", "A♥ 9♣"], dealer=2)
    seen = state.observe(0)
    index = space.encode(cr.Play("7♣ 7♦ K♠", "A"))
    assert space.describe(index) == "lay 2×7 1×K as the required rank"
    assert space.decode(index, seen) == cr.Play("7♣ 7♦ K♠", "A")
    after = state.apply(cr.Play("K♠", "A")).apply(cr.Accept()).apply(cr.Accept())
    seen = after.observe(1)  # Twos now: the same index lays as 2
    assert space.decode(space.encode(cr.Play("A♠", "2")), seen) == cr.Play("A♠", "2")
    assert space.encode(cr.Play("A♠", "2")) == space.encode(cr.Play("A♣", "A"))


def test_in_verish_the_rounds_first_claim_names_the_rank_and_the_rest_follow() -> None:
    rules = cr.verish(2)
    space = ActionSpace(rules)
    state = cr.deal(rules, hands=["Q♣ Q♦ 7♥", "Q♠ K♣ 8♥"])
    opening = state.observe(state.to_move)  # type: ignore[arg-type]
    play = cr.Play("Q♣ Q♦", "Q") if state.to_move == 0 else cr.Play("Q♠ K♣", "K")
    chosen = space.encode(play, opening)
    assert space.describe(chosen).endswith(f"as {play.rank}")
    assert space.decode(chosen, opening) == play
    following = state.apply(play)
    seen = following.observe(following.to_move)  # type: ignore[arg-type]
    reply = cr.Play(seen.hand[:1], play.rank)
    required = space.encode(reply, seen)
    assert space.describe(required).endswith("as the required rank")
    assert space.decode(required, seen) == reply
    assert space.mask(seen)[required] and not space.mask(seen)[space.encode(reply, opening)]
    with pytest.raises(EncodingError, match="pass the observation"):
        space.encode(reply)
    other = "A" if play.rank is not cr.Rank.ACE else "K"
    with pytest.raises(EncodingError, match=f"the rank required is {play.rank}"):
        space.encode(cr.Play(seen.hand[:1], other), seen)


def test_fours_set_aside_on_a_turn_go_one_at_a_time() -> None:
    rules = cr.english(3, discards="any-time")
    space = ActionSpace(rules)
    state = cr.deal(rules, hands=["Q♣ Q♦ Q♥ Q♠ K♣ K♦ K♥ K♠ 2♣", "2♥ 3♣", "4♦ 5♣"], dealer=2)
    seen = state.observe(0)
    queens, kings = space.encode(cr.Discard("Q")), space.encode(cr.Discard("K"))
    assert space.describe(queens) == "discard Q"
    assert queens in space.legal_indices(seen) and kings in space.legal_indices(seen)
    assert state.is_legal(cr.Discard("Q K"))
    with pytest.raises(EncodingError, match="one four at a time"):
        space.encode(cr.Discard("Q K"))
    after = state.apply(space.decode(queens, seen))  # the turn goes on
    assert after.to_move == 0
    assert space.decode(kings, after.observe(0)) == cr.Discard("K")


def test_a_discard_phase_numbers_every_choice_of_fours() -> None:
    space = ActionSpace(cr.verish(3))
    both = space.encode(cr.Discard("Q K"))
    assert space.describe(both) == "discard Q K"
    assert space.encode(cr.Discard("K Q")) == both
    assert len({space.describe(index) for index in range(2, 2 + 512)}) == 512


def test_every_index_has_its_own_description() -> None:
    for rules in (cr.verish(2), cr.english(3, ranks="hold", window="extended", jokers=True)):
        space = ActionSpace(rules)
        texts = [space.describe(index) for index in range(space.size)]
        assert len(set(texts)) == space.size


def test_the_largest_spaces_are_counted_not_listed() -> None:
    # 1,844,780 multisets of up to ten cards of two packs and two jokers, times 13 ranks.
    space = ActionSpace(cr.english(6, decks=2, jokers=True, claims="any", ranks="free"))
    assert space.size == 2 + 13 * 1_844_780
    last = space.describe(space.size - 1)
    assert last.startswith("lay ") and last.endswith(" as K")


def test_the_space_is_bounded_by_the_deck_not_by_the_claims_maximum() -> None:
    # Rules refuse a claim above the deck's size; a value made past that check
    # (unpickled from elsewhere, say) still numbers only the plays a deck can make.
    rules = cr.verish(3, claims=cr.policies.ClaimSize(1, 36))
    absurd = cr.verish(3)
    object.__setattr__(absurd, "claims", cr.policies.ClaimSize(1, 10**23))
    space = ActionSpace(absurd)  # was: OverflowError (and 9.5 s for a maximum of 10**6)
    assert space.layout == ActionSpace(rules).layout
    seen = cr.deal(absurd, seed=3).observe(0)
    assert space.legal_indices(seen) == ActionSpace(rules).legal_indices(seen)


def test_a_mask_array_when_numpy_is_installed() -> None:
    numpy = pytest.importorskip("numpy")
    rules = cr.english(4)
    space = ActionSpace(rules)
    for state in play_randomly(cr.deal(rules, seed=4), 4, limit=40):
        for seat in range(4):
            seen = state.observe(seat)
            array = space.mask_array(seen)
            assert array.dtype == numpy.bool_ and array.shape == (space.size,)
            assert array.tolist() == space.mask(seen)
            assert numpy.flatnonzero(array).tolist() == space.legal_indices(seen)


def test_large_spaces_enumerate_the_hand_instead_of_anding_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = cr.english(4, jokers=True, claims="any")
    states = play_randomly(cr.deal(rules, seed=3), 3, limit=60)[::3]
    tabled = [ActionSpace(rules).legal_indices(s.observe(s.to_move or 0)) for s in states]
    monkeypatch.setattr("cheatrules._multisets.TABLE_LIMIT", 0)
    listed = [ActionSpace(rules).legal_indices(s.observe(s.to_move or 0)) for s in states]
    assert listed == tabled and any(tabled)


# -- bad input -------------------------------------------------------------------------


def test_bad_indices_and_actions_are_refused() -> None:
    space = ActionSpace(cr.english(4))
    seen = cr.deal(cr.english(4), seed=1).observe(0)
    with pytest.raises(EncodingError, match="index must be a whole number from 0 to 2380"):
        space.decode(space.size, seen)
    with pytest.raises(EncodingError, match="has no index"):
        space.encode(cr.Discard("Q"))
    with pytest.raises(EncodingError, match="has no index"):
        space.encode(cr.Play("2c 3c 4c 5c 6c", "A"))
    with pytest.raises(EncodingError, match="expected an action"):
        space.encode("challenge")  # type: ignore[arg-type]
    short = ActionSpace(cr.verish(3))  # 36 cards: no Twos, no jokers
    with pytest.raises(EncodingError, match="the deck has no 2"):
        short.encode(cr.Play("2c", "A"), seen)
    with pytest.raises(EncodingError, match="the deck has no 2 to announce"):
        short.encode(cr.Play("6c", "2"), seen)
    with pytest.raises(EncodingError, match="the deck has no ★"):
        short.encode(cr.Play("★♥", "A"), seen)


@pytest.mark.parametrize("bad", [2.0, "3", True, None, -1])
def test_an_index_must_be_a_whole_number_inside_the_space(bad: object) -> None:
    space = ActionSpace(cr.english(4))
    seen = cr.deal(cr.english(4), seed=1).observe(0)
    with pytest.raises(EncodingError, match="index must be a whole number from 0 to 2380"):
        space.decode(bad, seen)  # type: ignore[arg-type]
    with pytest.raises(EncodingError, match="index must be a whole number from 0 to 2380"):
        space.describe(bad)  # type: ignore[arg-type]


def test_an_index_the_seat_cannot_take_is_refused_with_the_reason() -> None:
    rules = cr.english(3)
    space = ActionSpace(rules)
    state = cr.deal(rules, hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"], dealer=2)
    four_kings = space.encode(cr.Play("Kc Kd Kh Ks", "A"))
    with pytest.raises(EncodingError, match="seat 0 holds 1 K, the play lays 4"):
        space.decode(four_kings, state.observe(0))
    with pytest.raises(EncodingError, match=r"index 0 \(challenge\) is not legal for seat 0"):
        space.decode(0, state.observe(0))
    one_ace = space.encode(cr.Play("A♠", "A"))
    with pytest.raises(EncodingError, match="not legal for seat 1 now; seat 0 must lay cards"):
        space.decode(one_ace, state.observe(1))
    over = cr.deal(rules, hands=["7♣", "A♠ 2♥", "A♥ 9♣"], dealer=2).apply(cr.Play("7♣", "A"))
    over = over.apply(cr.Accept()).apply(cr.Accept())
    assert over.is_over
    with pytest.raises(EncodingError, match="the game is over"):
        space.decode(1, over.observe(1))
    with pytest.raises(EncodingError, match="expected an Observation"):
        space.mask(state)  # type: ignore[arg-type]


# -- a finished game ---------------------------------------------------------------------

#: One action of every kind the space numbers, for rules that number them all.
EVERY_KIND = (
    cr.Challenge(),
    cr.Challenge(earlier=True),
    cr.Accept(),
    cr.Pass(),
    cr.Refuse(),
    cr.Discard(()),
    cr.Discard("Q"),
    cr.Play("7♣", "A"),
    cr.Play("A♠ 2♥", "7"),
)


def _finished(rules: cr.Rules) -> cr.GameState:
    """Seat 0 lays its last card and both opponents let it stand: the game is over."""
    state = cr.deal(rules, hands=["7♣", "A♠ 2♥", "A♥ 9♣"], dealer=2)
    state = state.apply(cr.Play("7♣", state.observe(0).allowed_ranks[0]))
    state = state.apply(cr.Accept()).apply(cr.Accept())
    assert state.is_over
    return state


@pytest.mark.parametrize("ranks", list(cr.rules.NAMED_POLICIES["ranks"]))
def test_once_the_game_is_over_no_action_has_an_index_and_none_is_legal(ranks: str) -> None:
    # Every kind of action has a block here: a discard phase, an extended window, consent.
    rules = cr.english(
        3, ranks=ranks, window="extended", passing="consent", discards="after-pickup"
    )
    space = ActionSpace(rules)
    blocks = {name for name, _, _ in space.layout}
    assert {"challenge-earlier", "pass", "refuse", "discard"} <= blocks
    assert blocks & {"play", "play-as"}
    over = _finished(rules)
    for seat in range(3):
        seen = over.observe(seat)
        for action in EVERY_KIND:
            # was: KeyError 'play-as' for a play under ascending and descending ranks
            with pytest.raises(EncodingError) as caught:
                space.encode(action, seen)
            said = f"{action} has no index for seat {seat} now: the game is over"
            assert str(caught.value) == said
        for _, start, length in space.layout:  # the first and last index of every block
            for index in {start, start + length - 1}:
                with pytest.raises(EncodingError, match=f"for seat {seat} now; the game is over"):
                    space.decode(index, seen)
        assert not any(space.mask(seen)) and space.legal_indices(seen) == []
        assert not space.mask_array(seen).any()


def test_a_finished_game_of_verish_numbers_nothing_either() -> None:
    rules = cr.verish(3)
    space = ActionSpace(rules)
    over = play_randomly(cr.deal(rules, hands=["6♣ 7♦", "8♥ 9♠", "10♣ J♦"], hidden="A♠"), 3)[-1]
    assert over.is_over and over.finishing_order
    for seat in range(3):
        seen = over.observe(seat)
        with pytest.raises(EncodingError, match="the game is over"):
            space.encode(cr.Play("6♣", "Q"), seen)
        assert space.legal_indices(seen) == []


def _any_action() -> st.SearchStrategy[cr.Action]:
    """Actions of every kind, some that no rules number and some no deck holds."""
    cards = st.sampled_from(sorted(set(cr.english(3, decks=2, jokers="per-pack").deck.cards())))
    announced = st.sampled_from([rank for rank in cr.Rank if rank is not cr.Rank.JOKER])
    plays = st.builds(cr.Play, st.lists(cards, min_size=1, max_size=6).map(tuple), announced)
    discards = st.builds(cr.Discard, st.lists(announced, max_size=3).map(tuple))
    return st.one_of(st.sampled_from(EVERY_KIND), plays, discards)


@examples(40)
@given(option_combinations(), st.integers(0, 2**32), st.data())
def test_encoding_any_action_on_any_reached_view_gives_an_index_or_an_encoding_error(
    rules: cr.Rules, seed: int, data: st.DataObject
) -> None:
    space = ActionSpace(rules)
    states = play_randomly(cr.deal(rules, seed=seed), seed, limit=60)
    for state in (states[len(states) // 2], states[-1]):
        seen = state.observe(data.draw(st.integers(0, state.players - 1)))
        legal = list(seen.legal_actions()[:5])
        actions = [*legal, *data.draw(st.lists(_any_action(), min_size=1, max_size=6))]
        for action in actions:
            for given_view in (seen, None):
                try:
                    index = space.encode(action, given_view)
                except EncodingError:
                    assert action not in legal or not numbered(action, rules) or given_view is None
                    continue
                assert 0 <= index < space.size
                if action in legal and given_view is seen:
                    assert ranks_of(space.decode(index, seen)) == ranks_of(action)


def test_numpy_integers_are_indices_everywhere() -> None:
    numpy = pytest.importorskip("numpy")
    rules = cr.english(3)
    space = ActionSpace(rules)
    state = cr.deal(rules, seed=numpy.int64(5))
    seen = state.observe(numpy.int64(0))
    with pytest.raises(cr.SeatError, match="seat must be a whole number from 0 to 2"):
        state.observe(numpy.int64(3))
    index = space.legal_indices(seen)[3]
    for kind in (numpy.int64, numpy.int32, numpy.uint16):
        assert space.decode(kind(index), seen) == space.decode(index, seen)
        assert space.describe(kind(index)) == space.describe(index)
    chosen = numpy.flatnonzero(space.mask_array(seen))[0]  # a numpy integer
    assert space.decode(chosen, seen) == seen.legal_actions()[0]


@examples(30)
@given(deals(), st.integers(0, 2**32), st.data())
def test_the_vector_agrees_with_the_observation_and_its_text(
    state: cr.GameState, seed: int, data: st.DataObject
) -> None:
    encoder = ObservationEncoder(state.rules)
    states = play_randomly(state, seed, limit=150)
    current = states[data.draw(st.integers(0, len(states) - 1))]
    seat = data.draw(st.integers(0, current.players - 1))
    seen = current.observe(seat)
    vector = encoder.encode(seen)
    assert len(vector) == encoder.size
    assert encoder.section(vector, "seat")[seat] == 1.0
    assert encoder.section(vector, "hand_sizes") == [float(size) for size in seen.hand_sizes]
    assert sum(encoder.section(vector, "hand")) == len(seen.hand)
    assert encoder.section(vector, "pile_size") == [float(seen.pile_size)]
    ranks = state.rules.deck.ranks
    allowed = [
        rank
        for rank, flag in zip(ranks, encoder.section(vector, "allowed_ranks"), strict=True)
        if flag
    ]
    assert tuple(allowed) == seen.allowed_ranks
    active = encoder.section(vector, "active")
    assert [seat for seat, flag in enumerate(active) if not flag] == sorted(seen.finishing_order)
    # The text form says the same numbers.
    text = str(seen)
    assert (
        f"hand sizes: {' '.join(str(int(size)) for size in encoder.section(vector, 'hand_sizes'))}"
        in text
    )
    assert f"pile: {int(vector[encoder.layout[6][1]])} card" in text
    if not seen.is_over:
        assert f"next claim: {' '.join(map(str, allowed))}" in text


def test_the_layout_covers_the_vector_without_gaps() -> None:
    encoder = ObservationEncoder(cr.verish(4))
    position = 0
    for _, start, length in encoder.layout:
        assert start == position
        position += length
    assert position == encoder.size
    with pytest.raises(EncodingError, match="no section 'colour'"):
        encoder.section([0.0] * encoder.size, "colour")


def test_a_numpy_array_when_numpy_is_installed() -> None:
    numpy = pytest.importorskip("numpy")
    seen = cr.deal(cr.english(4), seed=2).observe(1)
    array = ObservationEncoder(cr.english(4)).array(seen)
    assert array.dtype == numpy.float32
    assert array.tolist() == ObservationEncoder(cr.english(4)).encode(seen)


def test_random_play_through_indices_only() -> None:
    # A bot that only ever sees vectors and masks can play a whole game.
    rules = cr.verish(3)
    space, encoder = ActionSpace(rules), ObservationEncoder(rules)
    state = cr.deal(rules, seed=8)
    rng = random.Random(8)
    while not state.is_over:
        seen = state.observe(state.to_move)  # type: ignore[arg-type]
        assert len(encoder.encode(seen)) == encoder.size
        choice = rng.choice([index for index, legal in enumerate(space.mask(seen)) if legal])
        state = state.apply(space.decode(choice, seen))
    assert state.outcome is not None


@pytest.mark.parametrize(
    "options",
    [
        {"jokers": True},
        {"window": "extended"},
        {"passing": "consent", "stock": 5},
        {"passing": "all-revealed", "ranks": "hold", "jokers": True},
    ],
    ids=repr,
)
def test_every_decision_of_a_house_variation_has_its_own_index(options: dict[str, object]) -> None:
    rules = cr.english(3, **options)
    space = ActionSpace(rules)
    encoder = ObservationEncoder(rules)
    rng = random.Random(5)
    for seed in range(2):
        for state in play_randomly(cr.deal(rules, seed=seed), seed, limit=60):
            if state.is_over:
                continue
            seen = state.observe(state.to_move)  # type: ignore[arg-type]
            legal = state.legal_actions()
            indices = [space.encode(action, seen) for action in legal]
            assert len(set(indices)) == len(indices) and sum(space.mask(seen)) == len(legal)
            chosen = rng.choice(indices)
            assert state.is_legal(space.decode(chosen, seen))
            assert len(encoder.encode(seen)) == encoder.size


def test_masks_and_vectors_need_no_numpy() -> None:
    # numpy is optional: only the array methods import it.
    script = """
import sys
sys.modules["numpy"] = None  # an import of numpy now fails
import cheatrules as cr
from cheatrules.encoding import ActionSpace, InformationStateEncoder
rules = cr.verish(3)
state = cr.deal(rules, seed=3)
seen = state.observe(state.to_move)
space = ActionSpace(rules)
assert sum(space.mask(seen)) == len(space.legal_indices(seen)) == len(state.legal_actions())
assert len(InformationStateEncoder(rules).encode(seen)) == InformationStateEncoder(rules).size
try:
    space.mask_array(seen)
except ImportError:
    print("no numpy, no array")
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "no numpy, no array"


@examples(60)
@given(
    st.lists(st.integers(0, 5), min_size=1, max_size=6),
    st.integers(1, 6),
    st.lists(st.integers(0, 6), min_size=6, max_size=6),
)
def test_capped_multisets_are_numbered_as_listing_them_would(
    caps: list[int], top: int, held: list[int]
) -> None:
    listed = []
    for size in range(1, top + 1):
        for choice in itertools.combinations_with_replacement(range(len(caps)), size):
            taken = Counter(choice)
            if all(taken[kind] <= caps[kind] for kind in taken):
                listed.append(tuple(taken[kind] for kind in range(len(caps))))
    space = Capped(caps, top)
    assert space.size == len(listed) and list(space.all_counts()) == listed
    for number, counts in enumerate(listed):
        assert space.rank(counts) == number and space.unrank(number) == counts
    hand = held[: len(caps)]
    wanted = [all(map(int.__le__, counts, hand)) for counts in listed]
    expected = sum(1 << number for number, fits in enumerate(wanted) if fits)
    assert space.within(hand) == expected == space._enumerated(hand)


def test_spaces_and_encoders_pickle_as_their_rules() -> None:
    rules = cr.verish(3)
    state = cr.deal(rules, seed=1)
    space, memory = ActionSpace(rules), InformationStateEncoder(rules)
    seen = state.observe(state.to_move)  # type: ignore[arg-type]
    space.mask(seen), memory.encode(seen)  # fill their caches
    for value in (space, memory, ObservationEncoder(rules)):
        copy = pickle.loads(pickle.dumps(value))
        assert copy == value
        assert len(pickle.dumps(value)) < len(pickle.dumps(rules)) + 200  # no cache in it
    assert pickle.loads(pickle.dumps(space)).mask(seen) == space.mask(seen)


@examples(60)
@given(
    st.sampled_from([cr.english(4), cr.verish(3), cr.english(3, ranks="hold", jokers=True)]),
    st.integers(0, 2**32),
    st.one_of(
        st.integers(-5, 40_000),
        st.floats(allow_nan=True),
        st.text(max_size=3),
        st.none(),
        st.booleans(),
    ),
)
def test_any_index_decodes_to_a_legal_action_or_says_what_was_expected(
    rules: cr.Rules, seed: int, index: object
) -> None:
    space = ActionSpace(rules)
    states = play_randomly(cr.deal(rules, seed=seed), seed, limit=30)
    state = states[seed % len(states)]
    seen = state.observe(seed % state.players)
    whole = isinstance(index, int) and not isinstance(index, bool)
    if whole and index in space.legal_indices(seen):
        action = space.decode(index, seen)
        assert state.is_legal(action) and space.encode(action, seen) == index
    else:
        with pytest.raises(EncodingError, match="index"):
            space.decode(index, seen)  # type: ignore[arg-type]
    if whole and 0 <= index < space.size:  # type: ignore[operator]
        assert space.describe(index)  # type: ignore[arg-type]
    else:
        with pytest.raises(EncodingError, match="index must be a whole number"):
            space.describe(index)  # type: ignore[arg-type]
