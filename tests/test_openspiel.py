"""The OpenSpiel games: OpenSpiel's own checker, chance nodes, resampling, cheap clones, bad input."""

from __future__ import annotations

import copy
import random
import subprocess
import sys

import numpy
import pyspiel  # the dev extra installs OpenSpiel: CI runs these, never skips them
import pytest

import cheatrules as cr
from cheatrules.encoding import EncodingError, ObservationEncoder
from cheatrules.errors import IllegalActionError, RulesError
from cheatrules.events import Revealed
from cheatrules.information_state import InformationStateEncoder
from cheatrules.openspiel import DEFAULT_MAX_STEPS, CheatGame, CheatState


def position(state: CheatState, card: str) -> int:
    """The deal's chance outcome that deals ``card`` next: its position among the cards left."""
    for outcome, _ in state.chance_outcomes():
        if state.action_to_string(pyspiel.PlayerId.CHANCE, outcome).startswith(f"deal {card} "):
            return outcome
    raise AssertionError(f"{card} is not left to deal")


def load(name: str, **parameters: object) -> CheatGame:
    game: CheatGame = pyspiel.load_game(name, parameters)
    return game


def dealt(game: CheatGame, rng: random.Random) -> CheatState:
    """A new game past its deal, the chance outcomes drawn from ``rng``."""
    state: CheatState = game.new_initial_state()
    while state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, weights)[0])
    return state


def game_of(state: CheatState) -> cr.GameState:
    """The library's state under ``state`` (past the deal)."""
    assert state.game_state is not None
    return state.game_state


def seen_by(state: CheatState, seat: int) -> cr.Observation:
    seen = state.observation_of(seat)
    assert seen is not None
    return seen


def outcome_of(state: CheatState) -> cr.Outcome:
    outcome = game_of(state).outcome
    assert outcome is not None
    return outcome


def step(state: CheatState, rng: random.Random) -> None:
    if state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, weights)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


# -- OpenSpiel's own checker -------------------------------------------------


@pytest.mark.parametrize(
    ("name", "parameters", "sims"),
    [
        ("python_cheat", {"players": 3, "max_steps": 150}, 2),
        ("python_cheat", {"players": 4, "check": "one-card", "stock": 7, "max_steps": 120}, 1),
        ("python_verish", {"players": 3}, 3),
        ("python_verish", {"players": 4, "reward": "placing", "check": "one-card"}, 2),
    ],
)
def test_openspiel_random_sim_test_passes(
    name: str, parameters: dict[str, object], sims: int
) -> None:
    pyspiel.random_sim_test(load(name, **parameters), num_sims=sims, serialize=False, verbose=False)


def test_the_games_are_registered_under_their_names() -> None:
    names = set(pyspiel.registered_names())
    assert {"python_cheat", "python_verish"} <= names
    game = pyspiel.load_game("python_cheat(players=3,ranks=free)")
    assert game.rules == cr.english(3, ranks="free")
    assert game.num_players() == 3
    assert game.num_distinct_actions() == game.action_space.size
    assert game.max_game_length() == DEFAULT_MAX_STEPS
    assert pyspiel.load_game("python_verish").rules == cr.verish(4)
    assert pyspiel.load_game("python_verish(players=3,pack=52)").rules == cr.verish(3, pack=52)


# -- chance nodes ---------------------------------------------------------------


def test_the_deal_is_one_chance_node_per_card_each_card_left_equally_likely() -> None:
    game = load("python_cheat", players=3)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(outcome, 1 / 52) for outcome in range(52)]
    # Outcome i deals the i-th card left, in key order: at first the deck's lowest key.
    lowest = min(cr.english(3).deck.cards(), key=lambda card: card.key)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == f"deal {lowest} to seat 0"
    for card in ("7♣", "K♦", "A♠", "2♥"):
        state.apply_action(position(state, card))
    assert state.chance_outcomes() == [(outcome, 1 / 48) for outcome in range(48)]
    assert position(state, "3♣") >= 0
    with pytest.raises(AssertionError, match="K♦ is not left to deal"):
        position(state, "K♦")
    rng = random.Random(3)
    while state.is_chance_node():
        step(state, rng)
    # Dealt round from seat 0 (the dealer is the last seat): 7♣ and 2♥ to seat 0.
    hands = game_of(state).hands
    assert {"7♣", "2♥"} <= {str(card) for card in hands[0]}
    assert "K♦" in {str(card) for card in hands[1]}
    assert "A♠" in {str(card) for card in hands[2]}
    assert len(state.history()) == 52


def test_two_packs_deal_from_as_many_outcomes_whichever_cards_went_before() -> None:
    # With two packs, counting the distinct cards left would tell how many pairs were dealt.
    game = load("python_cheat", players=3, decks=2)
    rng = random.Random(4)
    state = game.new_initial_state()
    for dealt in range(104):
        assert state.chance_outcomes() == [
            (outcome, 1 / (104 - dealt)) for outcome in range(104 - dealt)
        ]
        step(state, rng)
    assert not state.is_chance_node() and sum(game_of(state).hand_sizes) == 104


def test_verish_sets_the_first_card_dealt_aside_unseen() -> None:
    state = load("python_verish", players=3).new_initial_state()
    assert len(state.chance_outcomes()) == 36
    queen = position(state, "Q♠")
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, queen) == "deal Q♠ face down, set aside"
    state.apply_action(queen)
    rng = random.Random(1)
    while state.is_chance_node():
        step(state, rng)
    assert [str(card) for card in game_of(state).set_aside] == ["Q♠"]
    assert "Q♠" not in state.information_state_string(0)


def test_the_one_card_check_draws_its_card_at_a_chance_node() -> None:
    game = load("python_cheat", players=3, check="one-card")
    rng = random.Random(5)
    state = dealt(game, rng)
    space = game.action_space
    seen = seen_by(state, 0)
    # Two cards of different ranks (a bluff); seat 1 challenges.
    laid = [seen.hand[0], next(card for card in seen.hand if card.rank != seen.hand[0].rank)]
    state.apply_action(space.encode(cr.Play(laid, "A"), seen))
    state.apply_action(space.encode(cr.Challenge()))
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]  # positions in the group
    told = {state.action_to_string(pyspiel.PlayerId.CHANCE, outcome): outcome for outcome in (0, 1)}
    assert set(told) == {f"turn over {card}" for card in laid}
    state.apply_action(told[f"turn over {laid[1]}"])
    revealed = [event for event in game_of(state).events if isinstance(event, Revealed)]
    assert revealed[-1].cards == (laid[1],)
    assert state.current_player() >= 0


# -- tensors, strings, actions ------------------------------------------------------


def test_tensors_are_the_library_encoders_vectors_and_strings_the_seats_view() -> None:
    game = load("python_cheat", players=3)
    rng = random.Random(2)
    state = dealt(game, rng)
    for _ in range(40):
        step(state, rng)
    info = InformationStateEncoder(game.rules)
    plain = ObservationEncoder(game.rules)
    for seat in range(3):
        seen = seen_by(state, seat)
        assert state.information_state_tensor(seat) == pytest.approx(info.encode(seen))
        assert state.observation_tensor(seat) == pytest.approx(plain.encode(seen))
        assert state.observation_string(seat) == str(seen)
        assert state.information_state_string(seat).startswith(str(seen))
    assert game.information_state_tensor_shape() == [info.size]
    assert game.observation_tensor_shape() == [plain.size]
    for index in state.legal_actions():
        assert state.action_to_string(index) == game.action_space.describe(index)


def test_returns_are_plus_one_for_the_winner_minus_one_for_the_losers() -> None:
    game = load("python_cheat", players=3)
    rng = random.Random(8)
    state = dealt(game, rng)
    while not state.is_terminal():
        step(state, rng)
    assert game_of(state).is_over
    (winner,) = outcome_of(state).winners
    assert state.returns() == [1.0 if seat == winner else -1.0 for seat in range(3)]


def played_out(game: CheatGame, seed: int) -> CheatState:
    """A game dealt and played to its end at random."""
    rng = random.Random(seed)
    state = dealt(game, rng)
    while not state.is_terminal():
        step(state, rng)
    return state


def test_placing_rewards_go_down_the_finishing_order_and_sum_to_zero() -> None:
    game = load("python_verish", players=3, reward="placing")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    state = played_out(game, 4)
    first, second = game_of(state).finishing_order
    (last,) = outcome_of(state).losers
    returns = state.returns()
    assert (returns[first], returns[second], returns[last]) == (1.0, 0.0, -1.0)


def test_the_reward_schemes_are_the_other_adapters_ones() -> None:
    game = load("python_cheat", players=3)
    assert game.get_parameters()["reward"] == "win-loss"
    assert load("python_verish", players=3, reward="win-loss").context.rules == cr.verish(3)


def test_placing_in_cheat_gives_the_winner_one_and_shares_the_places_left() -> None:
    game = load("python_cheat", players=3, reward="placing")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    state = played_out(game, 8)
    (winner,) = outcome_of(state).winners
    assert state.returns() == [1.0 if seat == winner else -0.5 for seat in range(3)]
    assert tuple(state.returns()) == cr.rewards(game_of(state), "placing")


def test_a_game_cut_at_max_steps_pays_the_fewest_cards_as_the_winner() -> None:
    game = load("python_cheat", players=4, max_steps=5)
    assert game.max_game_length() == 5
    rng = random.Random(1)
    state = dealt(game, rng)
    for _ in range(4):
        step(state, rng)
        assert not state.is_terminal()
        assert state.returns() == [0.0] * 4
    step(state, rng)
    assert state.is_terminal() and not game_of(state).is_over
    assert state.steps == 5
    sizes = game_of(state).hand_sizes
    fewest = [seat for seat in range(4) if sizes[seat] == min(sizes)]
    # One winner's +1 and the losers' -1, the seats tied for fewest cards sharing the win.
    share = (1 - (len(fewest) - 1)) / len(fewest)
    assert state.returns() == [share if seat in fewest else -1.0 for seat in range(4)]
    assert state.legal_actions() == []


def test_a_cut_placing_game_pays_the_places_the_hand_sizes_give_and_sums_to_zero() -> None:
    game = load("python_verish", players=4, max_steps=6, reward="placing")
    rng = random.Random(4)
    state = dealt(game, rng)
    while not state.is_terminal():
        step(state, rng)
    assert game_of(state).hand_sizes == (7, 8, 10, 10) and not game_of(state).is_over
    # Places 0 to 3 pay 1, 1/3, -1/3, -1; the two seats of 10 cards share the last two.
    assert state.returns() == [1.0, 1 / 3, -2 / 3, -2 / 3]
    assert sum(state.returns()) == 0.0


# -- many random masked steps ---------------------------------------------------


def test_thousands_of_random_masked_steps_follow_the_library() -> None:
    setups: list[tuple[str, dict[str, object], int]] = [
        ("python_verish", {"players": 3}, 40),
        ("python_verish", {"players": 4, "check": "one-card", "jokers": 2}, 30),
        ("python_cheat", {"players": 3, "max_steps": 300}, 4),
        (
            "python_cheat",
            {"players": 4, "passing": "consent", "window": "extended", "max_steps": 250},
            3,
        ),
    ]
    steps = games = 0
    for name, parameters, count in setups:
        game = load(name, **parameters)
        players = game.num_players()
        space = game.action_space
        rng = random.Random(name + str(parameters))
        for _ in range(count):
            state = dealt(game, rng)
            while not state.is_terminal():
                if state.is_chance_node():
                    step(state, rng)
                    continue
                seat = state.current_player()
                seen = seen_by(state, seat)
                legal = state.legal_actions()
                assert legal == space.legal_indices(seen)
                assert len(legal) == len(game_of(state).legal_actions())
                if steps % 25 == 0:  # the whole mask, now and then (2,381 entries and up)
                    assert state.legal_actions_mask() == [int(bit) for bit in space.mask(seen)]
                state.apply_action(rng.choice(legal))
                steps += 1
            games += 1
            returns = state.returns()
            if name == "python_cheat":  # finished or cut, one winner's worth
                assert sum(returns) == pytest.approx(2 - players)
            else:
                assert sum(returns) == pytest.approx(players - 2)
    assert steps >= 3000 and games == 77, steps


# -- resampling and cloning -----------------------------------------------------------


def test_resampling_keeps_the_players_information_state_and_moves_the_hidden_cards() -> None:
    game = load("python_cheat", players=3)
    rng = random.Random(6)
    state = dealt(game, rng)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others_moved = False
    for _ in range(8):
        for _ in range(12):
            step(state, rng)
        for seat in range(3):
            resampled = state.resample_from_infostate(seat, sampler)
            assert resampled.information_state_string(seat) == state.information_state_string(seat)
            assert numpy.array_equal(
                resampled.information_state_tensor(seat), state.information_state_tensor(seat)
            )
            assert resampled.current_player() == state.current_player()
            assert resampled.legal_actions() == state.legal_actions() or (
                resampled.current_player() != seat
            )
            others_moved |= game_of(resampled).hands != game_of(state).hands
    assert others_moved


def test_resampling_during_the_deal_keeps_the_players_cards() -> None:
    game = load("python_cheat", players=3)
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(20):
        step(state, rng)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    resampled = state.resample_from_infostate(1, sampler)
    assert resampled.information_state_string(1) == state.information_state_string(1)
    assert len(resampled.chance_outcomes()) == len(state.chance_outcomes())
    mine = state.information_state_string(1).split("mine: ")[1].split()
    assert len(mine) == 7  # seat 1 was dealt cards 2, 5, ..., 20


def test_resampling_at_a_checks_draw_keeps_the_chance_node_and_the_challengers_view() -> None:
    game = load("python_cheat", players=3, decks=2, check="one-card")
    state = dealt(game, random.Random(7))
    seen = seen_by(state, 0)
    state.apply_action(game.action_space.encode(cr.Play(seen.hand[:3], "A"), seen))
    state.apply_action(game.action_space.encode(cr.Challenge()))
    assert state.is_chance_node()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for seat in range(3):
        resampled = state.resample_from_infostate(seat, sampler)
        thirds = [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]  # a position in the group of three
        assert resampled.chance_outcomes() == state.chance_outcomes() == thirds
        assert resampled.information_state_string(seat) == state.information_state_string(seat)
        resampled.apply_action(0)
        assert resampled.current_player() == state.child(0).current_player() == 1


def test_ismcts_plays_a_decision_through_resampling() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("python_verish", players=3)
    state = dealt(game, random.Random(3))
    evaluator = mcts.RandomRolloutEvaluator(random_state=numpy.random.RandomState(1))
    bot = ismcts.ISMCTSBot(
        game, evaluator, 2.0, max_simulations=5, random_state=numpy.random.RandomState(2)
    )
    assert bot.step(state) in state.legal_actions()


def test_a_clone_shares_the_immutable_game_state_and_does_not_copy_the_log() -> None:
    game = load("python_cheat", players=3)
    rng = random.Random(9)
    state = dealt(game, rng)
    for _ in range(30):
        step(state, rng)
    clone = state.clone()
    assert clone.game_state is state.game_state  # the log is shared, not copied
    assert copy.deepcopy(state._node) is state._node
    assert str(clone) == str(state) and clone.history() == state.history()
    before = state.game_state
    step(clone, rng)
    assert state.game_state is before  # moving the clone on leaves the original alone
    assert clone.history()[:-1] == state.history()


# -- bad input ----------------------------------------------------------------------------


def test_an_illegal_action_raises_a_clear_error_and_leaves_the_state_unchanged() -> None:
    game = load("python_cheat", players=3)
    state = dealt(game, random.Random(4))
    before, history, node = str(state), state.history(), state._node
    with pytest.raises(EncodingError, match=r"index 0 \(challenge\) is not legal for seat 0 now"):
        state.apply_action(0)
    with pytest.raises(EncodingError, match="index must be a whole number from 0 to 2380"):
        state.apply_action(game.num_distinct_actions())
    assert str(state) == before and state.history() == history and state._node is node
    fresh = game.new_initial_state()
    fresh.apply_action(51)
    message = "chance outcome 51 is not possible now; the outcomes are the positions 0 to 50"
    with pytest.raises(IllegalActionError, match=message):
        fresh.apply_action(51)
    assert len(fresh.history()) == 1


@pytest.mark.parametrize(
    ("name", "parameters", "message"),
    [
        ("python_cheat", {"players": 2}, "English Cheat is played by 3 to 10 players; got 2"),
        ("python_cheat", {"ranks": "sideways"}, "unknown ranks='sideways'; the names are"),
        ("python_verish", {"reward": "best"}, "unknown reward 'best'; the rewards are 'win-loss'"),
        ("python_verish", {"reward": "outcome"}, "unknown reward 'outcome'"),
        ("python_verish", {"max_steps": 0}, "max_steps must be a whole number of at least 1"),
        ("python_verish", {"pack": 40}, "pack must be 36 or 52; got 40"),
    ],
)
def test_bad_parameters_raise_the_rules_error(
    name: str, parameters: dict[str, object], message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        load(name, **parameters)


def test_deal_outcomes_refuse_a_deal_the_game_cannot_deal() -> None:
    game = load("python_cheat", players=3)
    with pytest.raises(RulesError, match="the state plays other rules than this game"):
        game.deal_outcomes(cr.deal(cr.english(4), seed=1))
    with pytest.raises(RulesError, match="this deal was dealt by seat 0 with hands of 17, 18, 17"):
        game.deal_outcomes(cr.deal(cr.english(3), seed=1, dealer=0))
    with pytest.raises(RulesError, match="the whole deck of 52 cards; this deal holds 6"):
        game.deal_outcomes(cr.deal(cr.english(3), hands=["7♣ 8♣", "A♠ 2♥", "A♥ 9♣"]))


def test_an_unknown_parameter_is_refused_by_openspiel() -> None:
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        load("python_cheat", colour="red")


# -- the optional dependency ----------------------------------------------------------------


def test_without_the_extra_the_import_error_names_it() -> None:
    script = (
        "import sys\n"
        "sys.modules['pyspiel'] = None\n"
        "import cheatrules\n"
        "try:\n"
        "    import cheatrules.openspiel\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout
    assert 'pip install "cheatrules[openspiel]"' in output


def test_importing_cheatrules_does_not_import_openspiel() -> None:
    script = "import sys, cheatrules, cheatrules.encoding\nprint('pyspiel' in sys.modules)"
    output = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout
    assert output.strip() == "False"
