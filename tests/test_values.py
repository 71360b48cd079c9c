"""Every public value checks its input, and raises the library's own errors when refused."""

from __future__ import annotations

import random
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules import _registry
from cheatrules.bots import CountingBot, RandomBot, SamplingBot
from cheatrules.encoding import ActionSpace, ObservationEncoder
from cheatrules.policies import (
    AfterPickup,
    Ascending,
    AskEachOpponent,
    ChallengerIfRight,
    ClaimSize,
    Dealing,
    HolderOf,
)
from cheatrules.rules import POLICY_FAMILIES, _fits

from .budget import examples
from .strategies import random_action

# -- policies check their fields ------------------------------------------------------


def test_a_policy_flag_given_a_rank_is_refused_naming_the_field() -> None:
    with pytest.raises(
        cr.RulesError, match=r"AfterPickup.compulsory must be true or false; got Rank.ACE"
    ):
        AfterPickup(compulsory=cr.Rank.ACE)


def test_a_policy_number_given_bytes_is_refused_before_a_record_is_written() -> None:
    with pytest.raises(cr.RulesError, match=r"Dealing.set_aside must be a whole number"):
        Dealing(set_aside=b"1")  # type: ignore[arg-type]
    with pytest.raises(cr.RulesError, match=r"Dealing.hand_size must be a whole number"):
        Dealing(hand_size=b"7")  # type: ignore[arg-type]


def test_policy_words_and_ranks_are_checked() -> None:
    with pytest.raises(cr.RulesError, match=r"ChallengerIfRight.otherwise must be 'challenger'"):
        ChallengerIfRight(otherwise=b"declarer")  # type: ignore[arg-type]
    with pytest.raises(cr.RulesError, match=r"Ascending.start must be a rank"):
        Ascending(start=b"K")  # type: ignore[arg-type]
    with pytest.raises(cr.RulesError, match=r"Ascending.start must be a rank"):
        Ascending(start=cr.Rank.JOKER)
    with pytest.raises(cr.RulesError, match=r"HolderOf.card must be one card"):
        HolderOf(7)  # type: ignore[arg-type]


def test_a_rules_name_must_be_text() -> None:
    with pytest.raises(cr.RulesError, match=r"Rules.name must be text"):
        cr.Rules(players=4, name=b"house")  # type: ignore[arg-type]


# Arbitrary values of every kind a careless caller might pass.
ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-3, 12),
    st.integers(min_value=2**63),
    st.integers(0, 12).map(np.int64),
    st.floats(allow_nan=True),
    st.text(max_size=6),
    st.sampled_from(["A", "7", "K", "★", "challenger", "declarer", "A♠", "Q 7", "*c"]),
    st.binary(max_size=4),
    st.sampled_from(list(cr.Rank)),
    st.lists(st.sampled_from(list(cr.Rank)), max_size=4).map(tuple),
    st.lists(st.integers(-2, 4), max_size=3).map(tuple),
    st.sampled_from([*cr.cards("A♠ ★♥ 7♣"), cr.Card(cr.Rank.JOKER, cr.Suit.CLUBS)]),
)
POLICY_CLASSES = sorted(_registry.registered().items())


def family_of(policy: object) -> str:
    return next(family for family in POLICY_FAMILIES if _fits(family, policy))


@st.composite
def built_policies(draw: st.DrawFn) -> tuple[type, dict[str, Any]]:
    _, cls = draw(st.sampled_from(POLICY_CLASSES))
    values = {
        field.name: draw(ANY_VALUE)
        for field in attrs.fields(cls)
        if field.init and (field.default is attrs.NOTHING or draw(st.booleans()))
    }
    return cls, values


@examples(100)
@given(built_policies(), st.booleans(), st.integers(0, 2**32))
def test_every_policy_is_refused_with_a_library_error_or_plays_and_round_trips(
    built: tuple[type, dict[str, Any]], english: bool, seed: int
) -> None:
    cls, values = built
    # A deck's own errors are card errors; every other policy raises RulesError.
    expected = cr.CardError if cls is cr.Deck else cr.RulesError
    try:
        policy = cls(**values)
    except expected:
        event("refused by the policy")
        return
    for value in attrs.astuple(policy, recurse=False):
        assert not isinstance(value, np.integer)  # stored as plain ints
    base = cr.english(4) if english else cr.verish(4)
    try:
        rules = attrs.evolve(base, **{family_of(policy): policy})
    except cr.RulesError:
        event("refused by Rules")
        return  # a combination Rules itself refuses
    event(f"played with {cls.__name__}")
    state = cr.deal(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(6):
        if state.is_over:
            break
        state = state.apply(random_action(state, rng))
    assert cr.loads(cr.dumps(state)) == state


# -- public constructors raise the library's errors -----------------------------------


def untyped(make: Any) -> Any:
    """``make`` with its signature hidden from mypy, to call it with values it would refuse."""
    return make


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (
            lambda: untyped(cr.Challenge)(earlier=1),
            cr.IllegalActionError,
            "Challenge.earlier must be",
        ),
        (
            lambda: untyped(AskEachOpponent)(extended="yes"),
            cr.RulesError,
            "AskEachOpponent.extended",
        ),
        (
            lambda: untyped(ClaimSize)(minimum="2"),
            cr.RulesError,
            "ClaimSize.minimum must be a whole",
        ),
        (lambda: untyped(cr.Deck)(packs=2.0), cr.CardError, "Deck.packs must be a whole number"),
        (lambda: untyped(cr.Claim)("0", 2, "7"), cr.SeatError, "Claim.seat must be a whole number"),
        (lambda: untyped(cr.Claim)(0, 0, "7"), cr.RulesError, "Claim.count must be a whole number"),
        (lambda: untyped(cr.Claim)(0, 2, b"7"), cr.CardError, "Claim.rank must be a rank"),
        (lambda: untyped(cr.Outcome)((0,), ("1",)), cr.SeatError, "Outcome.losers must be seats"),
        (lambda: untyped(cr.Outcome)(0, (1,)), cr.SeatError, "Outcome.winners must be seats"),
        (
            lambda: untyped(RandomBot)(challenge="often"),
            cr.RulesError,
            "RandomBot.challenge must be a",
        ),
        (lambda: untyped(RandomBot)(challenge=1.5), cr.RulesError, "RandomBot.challenge must be a"),
        (lambda: untyped(CountingBot)(doubt=None), cr.RulesError, "CountingBot.doubt must be a"),
        (lambda: untyped(CountingBot)(pile_scale=0), cr.RulesError, "CountingBot.pile_scale"),
        (lambda: untyped(SamplingBot)(samples=0), cr.RulesError, "SamplingBot.samples must be"),
        (lambda: untyped(SamplingBot)(fallback=3), cr.RulesError, "SamplingBot.fallback must be"),
        (
            lambda: untyped(ActionSpace)("english"),
            cr.RulesError,
            "ActionSpace.rules must be a Rules",
        ),
        (lambda: untyped(ObservationEncoder)(4), cr.RulesError, "ObservationEncoder.rules must be"),
        (
            lambda: untyped(cr.FirstTo)(wins="3"),
            cr.RulesError,
            "FirstTo.wins must be a whole number",
        ),
        (
            lambda: untyped(cr.BestOf)(games=2.5),
            cr.RulesError,
            "BestOf.games must be a whole number",
        ),
    ],
)
def test_public_constructors_raise_the_librarys_errors(
    make: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        make()


# -- NumPy integers are whole numbers ------------------------------------------------


def test_numpy_integers_are_taken_wherever_a_whole_number_is() -> None:
    rules = cr.english(np.int64(4), decks=np.int64(1))
    assert rules == cr.english(4) and type(rules.players) is int
    state = cr.deal(rules, seed=np.int64(3), dealer=np.int32(3))
    assert state == cr.deal(cr.english(4), seed=3)
    assert type(state.seed) is int
    assert state.observe(np.int64(0)) == state.observe(0)
    assert cr.verish(np.int8(3), pack=np.int64(36)) == cr.verish(3)
    assert ClaimSize(np.int64(1), np.int64(3)) == ClaimSize(1, 3)
    assert cr.Deck(packs=np.int64(2)) == cr.Deck(packs=2)
    assert cr.english(4, stock=np.int64(5)).dealing.hand_size == 5
    space = ActionSpace(rules)
    seen = state.observe(0)
    index = space.encode(state.legal_actions()[0])
    assert space.decode(np.int64(index), seen) == space.decode(index, seen)
    assert cr.FirstTo(np.int64(2)) == cr.FirstTo(2)
    assert '"seed": 3\n' in cr.dumps(state)  # written as a plain int


def test_numpy_integers_in_a_match_and_a_claim() -> None:
    match = cr.Match.start(cr.english(3), cr.FirstTo(1), seed=np.int64(5))
    assert match == cr.Match.start(cr.english(3), cr.FirstTo(1), seed=5)
    assert cr.Claim(np.int64(1), np.int64(2), "7") == cr.Claim(1, 2, cr.Rank.SEVEN)


@pytest.mark.parametrize("bad", [True, 1.0, "1", None])
def test_flags_floats_and_text_are_not_seats(bad: object) -> None:
    state = cr.deal(cr.english(4), seed=1)
    with pytest.raises(cr.SeatError, match=r"seat must be a whole number"):
        state.observe(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [True, 3.0, "3"])
def test_flags_floats_and_text_are_not_seeds_or_player_counts(bad: object) -> None:
    with pytest.raises(cr.DealError, match=r"seed must be a whole number"):
        cr.deal(cr.english(4), seed=bad)  # type: ignore[arg-type]
    with pytest.raises(cr.RulesError, match=r"played by 3 to 10 players"):
        cr.english(bad)  # type: ignore[arg-type]


def test_a_seating_checks_its_seats() -> None:
    assert cr.Seating(np.int64(4), (np.int64(2),)) == cr.Seating(4, (2,))
    with pytest.raises(cr.SeatError, match=r"Seating\.players must be a whole number"):
        untyped(cr.Seating)("4")
    with pytest.raises(cr.SeatError, match=r"Seating\.out must be distinct seats from 0 to 3"):
        cr.Seating(4, (4,))
    with pytest.raises(cr.SeatError, match=r"Seating\.out must be distinct seats"):
        cr.Seating(4, (1, 1))
