"""Edge inputs a review found escaping: each test is the minimal reproduction of a defect.

The comments say what the library did before the fix ("was: ...").
"""

from __future__ import annotations

import io
import json
import random
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import cheatrules as cr
from cheatrules.arena import tournament
from cheatrules.bots import CountingBot, HonestBot, SamplingBot
from cheatrules.cli import main
from cheatrules.deal import shuffled_deal
from cheatrules.encoding import ActionSpace, EncodingError
from cheatrules.policies import AskEachOpponent, ClaimSize

# -- 1. bots lay one joker where a claim needs two or more ---------------------------


@pytest.mark.parametrize("bot", [HonestBot(), CountingBot(), SamplingBot(samples=2)])
def test_a_bot_with_only_a_joker_to_back_its_claim_still_lays_a_legal_claim(bot: object) -> None:
    # Jokers and a smallest claim of two: the hand holds no Ace, one joker.
    rules = cr.english(3, jokers=True, claims=ClaimSize(2, 4))
    state = cr.deal(rules, hands=["★♥ 7♣ 9♦", "2♥ 3♥", "4♥ 5♥"])
    action = bot.act(state.observe(0), random.Random(0))  # type: ignore[attr-defined]
    assert state.is_legal(action), action  # was: Play(★♥ as A), a one-card claim


# -- 2. NumPy integers refused or kept as NumPy where an int belongs -----------------


def test_a_numpy_joker_count_is_a_whole_number() -> None:
    assert cr.english(4, jokers=np.int64(1)).deck.jokers == 1  # was: RulesError
    assert cr.verish(4, jokers=np.int32(2)).deck.jokers == 2  # was: RulesError


def test_a_deck_takes_a_numpy_joker_count() -> None:
    deck = cr.Deck(jokers=np.int64(2))  # was: CardError
    assert deck.jokers == 2 and type(deck.jokers) is int


def test_a_numpy_loss_count_is_stored_as_an_int_and_the_match_saves() -> None:
    scoring = cr.FewestLosses(np.int64(2))
    assert type(scoring.losses) is int  # was: numpy.int64
    match = cr.Match.start(cr.verish(3), scoring, seed=8)
    record = json.loads(cr.dumps_match(match))  # was: TypeError, int64 not JSON
    assert record["format"] == "cheatrules-match"


# -- 3. the command line ends in a traceback ----------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["watch", "--seed", "1", "--with", "stock=²"],
        ["watch", "--seed", "1", "--match", "first-to=²"],
    ],
)
def test_a_superscript_digit_is_a_usage_error_not_a_traceback(argv: list[str]) -> None:
    # str.isdigit() says yes to '²', int() says no: ValueError escapes main().
    err = io.StringIO()
    with pytest.raises(SystemExit) as leaving:
        main(argv, stdin=io.StringIO(""), stdout=io.StringIO(), stderr=err)
    assert leaving.value.code == 2
    assert "²" in err.getvalue()


# -- 4. public functions that let Python errors escape ------------------------------


@pytest.mark.parametrize("method", ["next_active", "others_clockwise", "is_active"])
def test_seating_refuses_a_seat_off_the_table(method: str) -> None:
    # was: IndexError (9), TypeError ('x'), and is_active(9) answers True
    for seat in (9, "x"):
        with pytest.raises(cr.SeatError):
            getattr(cr.Seating(4), method)(seat)


@pytest.mark.parametrize(
    "arguments",
    [
        {"workers": "2"},
        {"max_steps": "5"},
        {"max_steps": None},
        {"workers": 2.5},
    ],
)
def test_a_tournament_refuses_bad_settings_with_a_library_error(
    arguments: dict[str, object],
) -> None:
    # was: TypeError for the first three; workers=2.5 is silently taken
    rules = cr.english(3)
    with pytest.raises(cr.CheatRulesError):
        tournament(
            rules,
            [HonestBot()] * 3,
            2,
            executor=ThreadPoolExecutor(1),
            **arguments,  # type: ignore[arg-type]
        )


def test_a_tournament_refuses_rules_that_are_not_rules() -> None:
    with pytest.raises(cr.CheatRulesError):  # was: AttributeError
        tournament("english", [HonestBot()] * 3, 2, executor=ThreadPoolExecutor(1))  # type: ignore[arg-type]


# -- 5. NumPy bools where a flag belongs ----------------------------------------------


def test_a_numpy_bool_is_a_flag() -> None:
    # NumPy integers are taken as ints, so NumPy bools are taken as flags (they
    # were refused with "must be true or false; got np.True_").
    assert AskEachOpponent(extended=np.bool_(True)).extended is True
    assert cr.Challenge(earlier=np.bool_(True)).earlier is True


def test_a_numpy_seed_deals_as_its_int() -> None:
    rules = cr.english(3)
    assert shuffled_deal(rules, np.int64(3), 2) == shuffled_deal(rules, 3, 2)


# -- 6. two inputs that crashed a fuzzing run -----------------------------------------


def test_a_claim_larger_than_the_deck_is_refused_before_any_space_is_built() -> None:
    with pytest.raises(cr.RulesError, match="a claim may lay 1 to 36 cards with this deck"):
        cr.verish(3, claims=ClaimSize(1, 10**23))  # was: accepted; ActionSpace: OverflowError


@pytest.mark.parametrize("ranks", ["ascending", "descending"])
def test_encoding_a_play_with_a_finished_games_view_is_an_encoding_error(ranks: str) -> None:
    rules = cr.english(3, ranks=ranks)
    state = cr.deal(rules, hands=["7♣", "A♠ 2♥", "A♥ 9♣"], dealer=2)
    state = state.apply(cr.Play("7♣", state.allowed_ranks[0])).apply(cr.Accept()).apply(cr.Accept())
    with pytest.raises(EncodingError, match="has no index for seat 1 now: the game is over"):
        ActionSpace(rules).encode(cr.Play("A♠", "A"), state.observe(1))  # was: KeyError 'play-as'
