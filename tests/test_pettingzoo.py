"""The PettingZoo environment: PettingZoo's own checkers, random masked play, rewards, bad input."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.env_logger import EnvLogger

import cheatrules as cr
from cheatrules.encoding import EncodingError
from cheatrules.narration import narrate
from cheatrules.pettingzoo import AgentError, env, observation_bounds, raw_env

from .budget import examples, scaled
from .strategies import option_combinations
from .test_cut_rewards import standing

#: Games the checkers run: (game, players, house options).
CHECKED: list[tuple[str, int, dict[str, Any]]] = [
    ("english", 3, {}),
    ("cheat", 4, {}),
    ("english", 6, {"jokers": True}),
    ("english", 4, {"discards": "after-pickup", "window": "extended"}),
    ("english", 4, {"ranks": "free", "passing": "consent"}),
    ("english", 5, {"ending": "placings", "stock": True}),
    ("verish", 2, {}),
    ("verish", 4, {}),
    ("verish", 6, {"check": "one-card"}),
    ("verish", 3, {"discards": "any-time", "after_challenge": "taker"}),
]

# The checker warns that a dict observation is not a Box and not a NumPy array; it leaves out,
# by name, PettingZoo's own classic games, which have the same {"observation", "action_mask"}.
DICT_OBSERVATION_WARNINGS = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


def ids(case: tuple[str, int, dict[str, Any]]) -> str:
    game, players, options = case
    return f"{game}{players}" + "".join(f"-{key}={value}" for key, value in options.items())


@pytest.fixture(autouse=True)
def quiet_env_logger() -> Any:
    """PettingZoo's logger queues its warnings; start each test with none."""
    EnvLogger.mqueue.clear()
    yield
    EnvLogger.mqueue.clear()


# -- PettingZoo's checkers ---------------------------------------------------------


@pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
@pytest.mark.parametrize("case", CHECKED, ids=ids)
def test_pettingzoo_api_test_passes(case: tuple[str, int, dict[str, Any]]) -> None:
    game, players, options = case
    api_test(env(game, players, **options), num_cycles=60)


@pytest.mark.parametrize("case", CHECKED, ids=ids)
def test_pettingzoo_seed_test_passes(case: tuple[str, int, dict[str, Any]]) -> None:
    game, players, options = case
    seed_test(lambda: env(game, players, **options), num_cycles=60)


# -- random masked play ------------------------------------------------------------


def numbered_legal_actions(state: cr.GameState) -> int:
    """The legal actions the action space numbers: all but several fours set aside on a turn.

    Where fours go aside on a turn (``discards="any-time"``) the turn goes on after a
    discard, so the space numbers one four at a time (docs/guide/encoding.md).
    """
    legal = state.legal_actions()
    discards = state.rules.discards
    declared = cr.policies.declared
    if not declared(discards, "sets_fours_aside") or declared(discards, "asks_after_pickup"):
        return len(legal)
    return sum(
        1 for action in legal if not (isinstance(action, cr.Discard) and len(action.ranks) > 1)
    )


def play(
    environment: Any, seed: int, *, checks: bool = True
) -> tuple[dict[str, float], dict[str, str], int]:
    """Random masked play to the end: each agent's return, how it ended, the decisions taken."""
    game = environment.unwrapped
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    returns = dict.fromkeys(game.possible_agents, 0.0)
    ended: dict[str, str] = {}
    decisions = 0
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        returns[agent] += reward
        if terminated or truncated:
            ended[agent] = "terminated" if terminated else "truncated"
            environment.step(None)
            continue
        mask = observation["action_mask"]
        if checks:
            state = game.game
            assert state.to_move == game.possible_agents.index(agent)
            assert int(mask.sum()) == numbered_legal_actions(state)
            assert environment.observation_space(agent).contains(observation)
        action = int(rng.choice(np.flatnonzero(mask)))
        environment.step(action)  # every masked action is accepted: a refusal would raise
        decisions += 1
    assert not environment.agents
    return returns, ended, decisions


#: Where random play is cut short (truncated) in the random-play tests.
CUT = 200


@pytest.mark.parametrize("case", CHECKED, ids=ids)
def test_random_masked_play_ends_and_returns_sum_as_documented(
    case: tuple[str, int, dict[str, Any]],
) -> None:
    game, players, options = case
    environment = env(game, players, max_steps=CUT, **options)
    decisions = 0
    for seed in range(scaled(3)):
        returns, ended, taken = play(environment, seed)
        decisions += taken
        assert set(ended) == set(environment.unwrapped.possible_agents)
        state = environment.unwrapped.game
        if state.is_over:
            assert set(ended.values()) == {"terminated"}
            outcome = state.outcome
            for seat in range(players):
                expected = 1.0 if seat in outcome.winners else -1.0
                assert returns[f"seat_{seat}"] == expected
            assert sum(returns.values()) == len(outcome.winners) - len(outcome.losers)
        else:
            assert taken == CUT
            # Seats that left before the cut won and were terminated; the rest are truncated
            # and paid by their standing.
            out = {f"seat_{seat}" for seat in state.finishing_order}
            assert returns == pytest.approx(standing(state))
            assert {agent for agent, how in ended.items() if how == "truncated"} == (
                set(ended) - out
            )
    assert decisions >= 40  # the cases together take a few thousand


@pytest.mark.parametrize(("game", "players"), [("verish", 4), ("verish", 5), ("english", 4)])
def test_placing_rewards_follow_the_finishing_order_and_sum_to_zero(
    game: str, players: int
) -> None:
    environment = env(game, players, reward="placing", max_steps=None)
    for seed in range(scaled(3)):
        returns, _, _ = play(environment, seed, checks=False)
        state = environment.unwrapped.game
        assert sum(returns.values()) == pytest.approx(0.0)
        order = state.finishing_order
        for place, seat in enumerate(order):
            assert returns[f"seat_{seat}"] == pytest.approx(1 - 2 * place / (players - 1))
        still_in = [seat for seat in range(players) if seat not in order]
        if game == "verish":
            assert [returns[f"seat_{seat}"] for seat in still_in] == [-1.0]
        else:  # the first out wins; the others share second place to last
            assert len(order) == 1
            for seat in still_in:
                assert returns[f"seat_{seat}"] == pytest.approx(-1 / (players - 1))


def test_a_seat_that_leaves_verish_is_terminated_at_once_and_takes_its_dead_step() -> None:
    environment = env("verish", 4)
    environment.reset(seed=2)
    game = environment.unwrapped
    rng = np.random.default_rng(0)
    while not game.game.finishing_order:
        observation = environment.observe(environment.agent_selection)
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    leaver = f"seat_{game.game.finishing_order[0]}"
    to_move = f"seat_{game.game.to_move}"
    assert not game.game.is_over
    assert environment.agent_selection == leaver
    _, reward, terminated, truncated, _ = environment.last()
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert not any(
        environment.terminations[agent] for agent in environment.agents if agent != leaver
    )
    with pytest.raises(ValueError, match="only valid action is None"):
        environment.step(0)
    environment.step(None)
    assert leaver not in environment.agents
    assert environment.agent_selection == to_move
    assert len(environment.agents) == 3


def test_max_steps_truncates_every_agent_and_pays_the_fewest_cards_as_the_winner() -> None:
    environment = env("english", 4, max_steps=5)
    returns, ended, decisions = play(environment, 1)
    assert decisions == 5
    assert set(ended.values()) == {"truncated"}
    assert environment.unwrapped.game.hand_sizes == (9, 11, 13, 13)
    assert returns == {"seat_0": 1.0, "seat_1": -1.0, "seat_2": -1.0, "seat_3": -1.0}
    assert returns == standing(environment.unwrapped.game)


def test_a_cut_leaves_a_seat_out_its_place_and_pays_the_rest_the_places_after() -> None:
    environment = env("verish", 4, reward="placing", max_steps=20)
    returns, ended, _ = play(environment, 4)
    state = environment.unwrapped.game
    assert not state.is_over and state.finishing_order == (1,)
    assert state.hand_sizes == (1, 0, 2, 3)  # seat 1 out first; then seats 0, 2, 3 by size
    assert ended == {
        "seat_0": "truncated", "seat_1": "terminated", "seat_2": "truncated", "seat_3": "truncated"
    }  # fmt: skip
    assert returns == pytest.approx(
        {"seat_0": 1 / 3, "seat_1": 1.0, "seat_2": -1 / 3, "seat_3": -1.0}
    )


# -- seeds and observations --------------------------------------------------------


def test_the_same_seed_deals_the_same_game_and_plays_it_the_same_way() -> None:
    first, second = raw_env("verish", 4, check="one-card"), raw_env("verish", 4, check="one-card")
    runs = []
    for environment in (first, second, first):
        environment.reset(seed=11)
        dealt = environment.game
        play(environment, 11)
        runs.append((dealt, environment.game))
    assert runs[0] == runs[1] == runs[2]
    first.reset(seed=12)
    assert first.game != runs[0][0]


def test_resets_without_a_seed_go_on_from_the_last_seeded_one() -> None:
    first, second = raw_env("english", 3), raw_env("english", 3)
    deals = []
    for environment in (first, second):
        environment.reset(seed=5)
        environment.reset()
        deals.append(environment.game)
    assert deals[0] == deals[1]


def test_seed_then_reset_deals_what_reset_with_that_seed_deals() -> None:
    first, second = raw_env("english", 3), raw_env("english", 3)
    first.seed(9)
    first.reset()
    second.reset(seed=9)
    assert first.game == second.game
    first.seed(10)
    first.reset()
    assert first.game != second.game
    with pytest.raises(cr.RulesError, match="seed must be a whole number"):
        first.seed(-1)


def test_the_observation_is_the_information_state_vector_and_mask_of_the_seat() -> None:
    environment = raw_env("english", 4)
    environment.reset(seed=3)
    state = environment.game
    observation = environment.observe("seat_0")
    vector = environment.encoder.encode(state.observe(0))
    assert observation["observation"].dtype == np.float32
    assert observation["observation"].tolist() == vector
    assert np.flatnonzero(observation["action_mask"]).tolist() == environment.space.legal_indices(
        state.observe(0)
    )
    other = environment.observe("seat_2")
    assert not other["action_mask"].any()
    assert other["observation"].tolist() == environment.encoder.encode(state.observe(2))
    # Asked again before the next step: the same arrays, nothing recomputed.
    assert environment.observe("seat_0") is observation


def test_the_observation_bounds_are_the_documented_ones() -> None:
    rules = cr.english(4, decks=2)
    low, high = observation_bounds(rules)
    encoder = raw_env(rules).encoder
    assert not low.any()
    assert set(encoder.section(high, "seat")) == {1.0}
    assert set(encoder.section(high, "hand")) == {2.0}  # two packs: two copies of each card
    assert set(encoder.section(high, "hand_sizes")) == {104.0}
    assert set(encoder.section(high, "group_count")) == {4.0}
    # "0 and up": capped at float32's largest value, as in the Gymnasium environment.
    assert set(encoder.section(high, "claims_made")) == {float(np.finfo(np.float32).max)}


@given(option_combinations())
@examples(12)
def test_every_house_option_plays_inside_the_spaces(rules: cr.Rules) -> None:
    environment = raw_env(rules, max_steps=40)
    environment.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        assert environment.observation_space(agent).contains(observation)
        mask = observation["action_mask"]
        assert int(mask.sum()) == numbered_legal_actions(environment.game)
        environment.step(int(rng.choice(np.flatnonzero(mask))))


def first_legal(environment: Any) -> int:
    mask = environment.observe(environment.agent_selection)["action_mask"]
    return int(np.flatnonzero(mask)[0])


# -- rendering ---------------------------------------------------------------------


def test_ansi_render_narrates_the_view_of_the_seat_to_move() -> None:
    environment = env("english", 3, render_mode="ansi")
    environment.reset(seed=4)
    for _ in range(4):
        environment.step(first_legal(environment))
    text = environment.render()
    state = environment.unwrapped.game
    seat = state.to_move
    view = state.observe(seat)
    lines = text.splitlines()
    assert lines[0].startswith("seat 2 deals")
    assert lines[:-1] == list(narrate(view.events))
    assert lines[-1] == f"seat {seat} to move; seat {seat} holds " + " ".join(map(str, view.hand))


def test_human_render_prints_after_each_step(capsys: pytest.CaptureFixture[str]) -> None:
    environment = env("verish", 3, render_mode="human")
    environment.reset(seed=1)
    environment.step(first_legal(environment))
    assert "to move; seat" in capsys.readouterr().out


# -- bad input ---------------------------------------------------------------------


def test_unknown_games_rewards_and_modes_are_refused_naming_what_is_allowed() -> None:
    with pytest.raises(
        cr.RulesError, match=r"unknown game 'poker'; the games are 'english' \(or 'cheat'\) and"
    ):
        env("poker")
    with pytest.raises(
        cr.RulesError, match="unknown reward 'money'; the rewards are 'win-loss' and 'placing'"
    ):
        env("verish", reward="money")
    with pytest.raises(cr.RulesError, match="unknown render_mode 'rgb_array'"):
        env(render_mode="rgb_array")
    with pytest.raises(cr.RulesError, match="max_steps must be a whole number"):
        env(max_steps=0)
    with pytest.raises(cr.RulesError, match="a Rules value is complete"):
        env(cr.english(4), players=4)
    with pytest.raises(cr.RulesError):
        env("english", 4, discards="sometimes")  # the house option is checked by cr.english


def test_raw_env_refuses_a_masked_out_action_and_leaves_the_game_alone() -> None:
    environment = raw_env("english", 4)
    environment.reset(seed=9)
    state, selected = environment.game, environment.agent_selection
    before = environment.observe(selected)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    for action in (illegal, -1, environment.space.size, 2.5, "play"):
        with pytest.raises(EncodingError, match="index"):
            environment.step(action)
        assert environment.game is state and environment.agent_selection == selected
        assert environment.observe(selected) is before
        assert environment.rewards == dict.fromkeys(environment.agents, 0.0)
    legal = int(np.flatnonzero(before["action_mask"])[0])
    environment.step(np.int64(legal))
    assert environment.game == state.apply(environment.space.decode(legal, state.observe(0)))


def test_env_ends_the_game_on_a_masked_out_action_with_minus_one_for_its_taker() -> None:
    environment = env("verish", 4)
    environment.reset(seed=3)
    state, selected = environment.unwrapped.game, environment.agent_selection
    mask = environment.observe(selected)["action_mask"]
    environment.step(int(np.flatnonzero(mask == 0)[0]))
    assert EnvLogger.mqueue and "Illegal move" in EnvLogger.mqueue[-1]
    assert environment.unwrapped.game is state  # the cards are left as they were
    returns = {}
    for agent in environment.agent_iter():
        _, reward, terminated, truncated, _ = environment.last()
        assert terminated and truncated
        returns[agent] = reward
        environment.step(None)
    assert returns == {agent: (-1.0 if agent == selected else 0.0) for agent in returns}
    assert set(returns) == set(environment.unwrapped.possible_agents)


def test_env_asserts_an_action_outside_the_space() -> None:
    environment = env("english", 3)
    environment.reset(seed=0)
    state = environment.unwrapped.game
    with pytest.raises(AssertionError, match="not in action space"):
        environment.step(environment.unwrapped.space.size)
    assert environment.unwrapped.game is state


def test_an_agent_that_is_not_to_act_has_an_empty_mask_and_unknown_agents_are_refused() -> None:
    environment = raw_env("english", 3)
    environment.reset(seed=0)
    for agent in ("seat_1", "seat_2"):
        assert not environment.observe(agent)["action_mask"].any()
    for bad in ("seat_3", "player_0", 0):
        with pytest.raises(AgentError, match=r"unknown agent .*; the agents are seat_0 to seat_2"):
            environment.observe(bad)  # type: ignore[arg-type]
        with pytest.raises(AgentError, match="unknown agent"):
            environment.action_space(bad)  # type: ignore[arg-type]


def test_steps_before_the_deal_and_after_the_end() -> None:
    bare = raw_env("verish", 2)
    with pytest.raises(AgentError, match=r"call reset\(\) first"):
        bare.step(0)
    play(bare, 0, checks=False)
    over = bare.game
    with pytest.raises(AgentError, match=r"the game is over .*call reset\(\)"):
        bare.step(0)
    assert bare.game is over
    wrapped = env("verish", 2)
    with pytest.raises(AssertionError, match="reset"):
        wrapped.step(0)
    play(wrapped, 0, checks=False)
    wrapped.step(0)  # PettingZoo's convention: a warning, nothing done
    assert "step() called after all agents are terminated" in EnvLogger.mqueue[-1]
    assert wrapped.unwrapped.game == over


# -- the optional dependency -------------------------------------------------------

BLOCKER = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == {blocked!r}:
            raise ImportError(f"No module named {{name!r}}")
sys.meta_path.insert(0, Block())
import cheatrules
try:
    import cheatrules.pettingzoo
except ImportError as error:
    print(error)
"""


@pytest.mark.parametrize("blocked", ["pettingzoo", "gymnasium"])
def test_importing_without_the_extra_names_the_extra_to_install(blocked: str) -> None:
    output = subprocess.run(
        [sys.executable, "-c", BLOCKER.format(blocked=blocked)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert 'pip install "cheatrules[pettingzoo]"' in output
    assert blocked in output


def test_importing_cheatrules_does_not_import_pettingzoo() -> None:
    script = "import sys, cheatrules, cheatrules.encoding\nprint('pettingzoo' in sys.modules)"
    output = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout
    assert output.strip() == "False"
