"""The Gymnasium environment: one learner's seat against reference bots, checked by Gymnasium."""

from __future__ import annotations

import pickle
import subprocess
import sys
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules.bots import CountingBot, HonestBot, RandomBot
from cheatrules.encoding import ActionSpace
from cheatrules.gymnasium import CheatEnv, ResetNeededError
from cheatrules.information_state import InformationStateEncoder
from cheatrules.variants import rewards

from .strategies import NAMES, deals, play_randomly
from .test_cut_rewards import standing

IDS = ["cheatrules/Cheat-v0", "cheatrules/Verish-v0"]


def random_episode(env: Any, seed: int, rng: np.random.Generator) -> tuple[list[float], bool, bool]:
    """Play one episode with random masked actions; the rewards, and how it ended."""
    observation, info = env.reset(seed=seed)
    got: list[float] = []
    while True:
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
        assert observation in env.observation_space
        legal = np.flatnonzero(mask)
        state = env.unwrapped.state
        assert state.to_move == env.unwrapped.seat
        # every legal action has an index, but several fours set aside on a turn at once
        blocks = [name for name, _, _ in env.unwrapped.action_encoding.layout]
        one_at_a_time = "discard-four" in blocks
        assert len(legal) == len(state.legal_actions()) or (one_at_a_time and len(legal) > 0)
        observation, reward, terminated, truncated, info = env.step(rng.choice(legal))
        got.append(float(reward))
        if terminated or truncated:
            assert observation in env.observation_space
            return got, terminated, truncated


# -- Gymnasium's own checker ----------------------------------------------------------


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.filterwarnings(
    "ignore:.*is different from the unwrapped version"
)  # wrapped on purpose
def test_gymnasiums_checker_passes_the_registered_environments(env_id: str) -> None:
    env = gymnasium.make(env_id, players=3, illegal="lose")
    check_env(env, skip_render_check=False)
    check_env(env.unwrapped, skip_render_check=False)


def test_the_checker_steps_an_action_sampled_before_its_reset_which_the_default_refuses() -> None:
    # check_env samples an action, resets with a seed, then steps it: legal
    # before that reset, it need not be after; by default that is an error.
    with pytest.raises(cr.IllegalActionError, match="refused"):
        check_env(CheatEnv("english", 3))


def test_the_action_space_samples_a_legal_action_now() -> None:
    env = CheatEnv("verish", 4)
    env.action_space.seed(1)
    assert 0 <= env.action_space.sample() < env.action_space.n  # before a reset: any index
    _, info = env.reset(seed=1)
    for _ in range(20):
        action = env.action_space.sample()
        assert info["action_mask"][action] == 1
        _, _, terminated, _, info = env.step(action)
        if terminated:
            break
    assert env.action_space == gymnasium.spaces.Discrete(env.action_space.n)
    copied = pickle.loads(pickle.dumps(env.action_space))
    assert copied == env.action_space and 0 <= copied.sample() < env.action_space.n


def test_with_illegal_lose_a_masked_out_action_ends_the_episode_with_a_loss() -> None:
    env = CheatEnv("english", 3, illegal="lose")
    _, info = env.reset(seed=2)
    before = env.state
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    assert env.state is before
    with pytest.raises(ResetNeededError):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    env.reset()
    with pytest.raises(cr.IllegalActionError, match="from 0 to"):  # outside the space: always
        env.step(-1)


def test_the_registered_ids_make_each_game_and_pass_options_on() -> None:
    cheat = gymnasium.make("cheatrules/Cheat-v0", players=3, discards="after-pickup")
    verish = gymnasium.make("cheatrules/Verish-v0", players=4, reward="placing")
    assert isinstance(cheat.unwrapped, CheatEnv) and isinstance(verish.unwrapped, CheatEnv)
    assert cheat.unwrapped.rules == cr.english(3, discards="after-pickup")
    assert verish.unwrapped.rules == cr.verish(4)
    assert (
        cheat.unwrapped.action_space.n == ActionSpace(cr.english(3, discards="after-pickup")).size
    )


def test_the_module_and_id_form_finds_the_environments_without_an_import() -> None:
    script = (
        "import gymnasium, sys\n"
        "assert 'cheatrules.gymnasium' not in sys.modules\n"
        "env = gymnasium.make('cheatrules.gymnasium:cheatrules/Verish-v0', players=3)\n"
        "print(type(env.unwrapped).__name__, env.unwrapped.rules.players)\n"
    )
    output = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True)
    assert output.stdout.decode().split() == ["CheatEnv", "3"]


# -- spaces and layouts -----------------------------------------------------------------


def test_the_observation_is_the_learners_information_state_vector() -> None:
    env = CheatEnv("english", 4, seat=2)
    observation, info = env.reset(seed=5)
    encoder = InformationStateEncoder(cr.english(4))
    seen = env.state.observe(2)
    assert env.state.to_move == 2
    assert observation.dtype == np.float32
    assert observation.tolist() == encoder.encode(seen)
    assert info["action_mask"].tolist() == [
        int(legal) for legal in ActionSpace(cr.english(4)).mask(seen)
    ]
    assert info["seat"] == 2
    assert env.observation_space.shape == (encoder.size,)


def test_the_bounds_follow_the_encoders_layout() -> None:
    env = CheatEnv("verish", 3)
    layout = {name: (start, length) for name, start, length in env.observation_encoding.layout}
    high = env.observation_space.high

    def top(name: str) -> set[float]:
        start, length = layout[name]
        return set(high[start : start + length].tolist())

    assert top("seat") == top("phase") == top("group_rank") == {1.0}
    assert top("hand") == top("taken") == {1.0}  # one copy of each card in one pack
    assert top("hand_sizes") == top("pile_size") == {36.0}
    assert top("claims_made") == {float(np.finfo(np.float32).max)}  # "0 and up"
    assert set(env.observation_space.low.tolist()) == {0.0}


# -- seeds and bots -----------------------------------------------------------------------


def test_the_same_seed_plays_the_same_episode() -> None:
    def actions_of(seed: int) -> tuple[Any, ...]:
        env = CheatEnv("english", 4, seat="random")
        random_episode(env, seed, np.random.default_rng(0))
        return env.state.actions, env.seat

    assert actions_of(11) == actions_of(11)
    assert actions_of(11) != actions_of(12)


def test_resets_without_a_seed_go_on_from_the_first_seed() -> None:
    def deals(env: CheatEnv) -> list[tuple[Any, ...]]:
        env.reset(seed=3)
        found = [env.state.hands]
        for _ in range(3):
            env.reset()
            found.append(env.state.hands)
        return found

    first = deals(CheatEnv("verish", 3))
    assert first == deals(CheatEnv("verish", 3))
    assert len(set(first)) == 4


def test_the_bots_hold_the_other_seats_in_order() -> None:
    class Recorder:
        def __init__(self, inner: Any) -> None:
            self.inner, self.seats = inner, set[int]()

        def act(self, observation: cr.Observation, rng: Any) -> cr.Action:
            self.seats.add(observation.seat)
            action: cr.Action = self.inner.act(observation, rng)
            return action

    honest, counting = Recorder(HonestBot()), Recorder(CountingBot())
    env = CheatEnv("english", 3, seat=1, opponents=[honest, counting])
    random_episode(env, 4, np.random.default_rng(4))
    assert honest.seats == {0} and counting.seats == {2}


def test_by_default_counting_bots_hold_the_other_seats() -> None:
    env = CheatEnv("verish", 4)
    assert env.opponents == (CountingBot(), CountingBot(), CountingBot())


# -- rewards and endings ----------------------------------------------------------------------


def test_cheat_gives_one_for_a_win_and_minus_one_for_a_loss_at_the_end() -> None:
    results = set()
    for seed in range(12):
        env = CheatEnv("english", 3, opponents=RandomBot())
        rewards, terminated, _ = random_episode(env, seed, np.random.default_rng(seed))
        assert terminated and env.state.is_over
        assert all(reward == 0.0 for reward in rewards[:-1])
        assert env.state.outcome is not None
        won = 0 in env.state.outcome.winners
        assert rewards[-1] == (1.0 if won else -1.0)
        results.add(won)
    assert results == {True, False}


def test_in_verish_the_episode_ends_when_the_learners_seat_leaves() -> None:
    left_early = 0
    for seed in range(15):
        env = CheatEnv("verish", 4, opponents=RandomBot())
        rewards, terminated, _ = random_episode(env, seed, np.random.default_rng(seed))
        assert terminated
        order = env.state.finishing_order
        if 0 in order:
            assert order[-1] == 0  # nothing was played after the learner left
            left_early += not env.state.is_over
            assert rewards[-1] == 1.0
        else:
            assert env.state.outcome is not None and env.state.outcome.losers == (0,)
            assert rewards[-1] == -1.0
    assert left_early > 0


def test_placing_rewards_go_from_one_to_minus_one_by_the_order_of_leaving() -> None:
    places: dict[int, float] = {}
    for seed in range(25):
        env = CheatEnv("verish", 3, reward="placing", opponents=RandomBot())
        rewards, _, _ = random_episode(env, seed, np.random.default_rng(seed))
        order = env.state.finishing_order
        place = order.index(0) if 0 in order else 2
        places[place] = rewards[-1]
    assert places == {0: 1.0, 1: 0.0, 2: -1.0}


def test_placing_in_cheat_shares_the_losers_places() -> None:
    env = CheatEnv("english", 3, reward="placing", opponents=RandomBot())
    finals = {random_episode(env, seed, np.random.default_rng(seed))[0][-1] for seed in range(12)}
    assert finals == {1.0, -0.5}


@settings(max_examples=40, deadline=None)
@given(deal=deals(), seed=st.integers(0, 2**32))
def test_rewards_follow_the_outcome_and_placings_sum_to_zero(deal: cr.GameState, seed: int) -> None:
    states = play_randomly(deal, seed, limit=400)
    for state in states[:: max(1, len(states) // 8)] + states[-1:]:
        win_loss, placing = rewards(state), rewards(state, "placing")
        players, order = state.players, state.finishing_order
        for seat in range(players):
            if seat in order:
                assert placing[seat] == pytest.approx(1.0 - 2.0 * order.index(seat) / (players - 1))
            elif not state.is_over:
                assert placing[seat] == 0.0
            if state.outcome is not None:
                assert win_loss[seat] == (1.0 if seat in state.outcome.winners else -1.0)
            else:
                assert win_loss[seat] == (1.0 if seat in order else 0.0)
        if state.is_over:
            assert sum(placing) == pytest.approx(0.0)
            assert max(placing) == 1.0


def test_the_episode_is_truncated_after_max_steps_decisions_in_all() -> None:
    # As in the PettingZoo and OpenSpiel adapters: every seat's decisions count, the bots' too.
    env = CheatEnv("english", 4, max_steps=10)
    rewards, terminated, truncated = random_episode(env, 1, np.random.default_rng(1))
    assert (terminated, truncated) == (False, True)
    assert len(env.state.actions) == 10 and not env.state.is_over
    assert rewards[:-1] == [0.0] * (len(rewards) - 1) and 1 < len(rewards) < 10
    assert rewards[-1] == standing(env.state)[f"seat_{env.seat}"]


def test_a_truncated_episode_pays_the_learner_by_its_standing_at_the_cut() -> None:
    # The learner holding the most cards at the cut gets what losing pays, so stalling
    # never pays it more than playing on; holding the fewest, what winning pays.
    finals: dict[str, set[float]] = {"most": set(), "fewest": set()}
    for seed in range(30):
        env = CheatEnv("english", 3, max_steps=12, opponents=RandomBot())
        rewards, _, truncated = random_episode(env, seed, np.random.default_rng(seed))
        sizes = env.state.hand_sizes
        assert truncated and rewards[-1] == standing(env.state)["seat_0"]
        if sizes[0] > max(sizes[1:]):
            finals["most"].add(rewards[-1])
        if sizes[0] < min(sizes[1:]):
            finals["fewest"].add(rewards[-1])
    assert finals == {"most": {-1.0}, "fewest": {1.0}}


def test_the_default_game_length_is_the_other_adapters_one() -> None:
    from cheatrules.pettingzoo import raw_env

    assert CheatEnv("english", 3).max_steps == raw_env("english", 3).max_steps == 2000


# -- random masked play over games and house options --------------------------------------------

OPTION_SETS: list[tuple[str, int, dict[str, Any]]] = [
    ("english", 3, {}),
    ("english", 5, {"discards": "after-pickup", "passing": "consent"}),
    ("english", 4, {"ranks": "free", "window": "extended"}),
    ("english", 3, {"jokers": True, "claims": "any"}),
    ("verish", 2, {}),
    ("verish", 3, {"reward": "placing"}),
    ("verish", 4, {"pack": 52, "check": "one-card"}),
    ("verish", 5, {"discards": "any-time"}),
]


@pytest.mark.parametrize(("game", "players", "options"), OPTION_SETS)
def test_thousands_of_random_masked_steps_are_all_accepted(
    game: str, players: int, options: dict[str, Any]
) -> None:
    env = gymnasium.make(
        f"cheatrules/{'Cheat' if game == 'english' else 'Verish'}-v0",
        players=players,
        max_steps=150,
        opponents=RandomBot(),
        **options,
    )
    rng = np.random.default_rng(players)
    steps = 0
    for seed in range(12):
        rewards, terminated, truncated = random_episode(env, seed, rng)
        steps += len(rewards)
        assert terminated != truncated
        assert all(reward == 0.0 for reward in rewards[:-1])
        assert -1.0 <= rewards[-1] <= 1.0
        assert rewards[-1] != 0.0 or truncated or options.get("reward") == "placing"
    assert steps >= 100


@settings(max_examples=15, deadline=None)
@given(
    options=st.fixed_dictionaries(
        {}, optional={family: st.sampled_from(names) for family, names in NAMES.items()}
    ),
    game=st.sampled_from(["english", "verish"]),
    seed=st.integers(0, 2**32),
)
def test_any_house_options_play_through_the_environment(
    options: dict[str, Any], game: str, seed: int
) -> None:
    try:
        env = CheatEnv(game, 3, max_steps=40, **options)
    except cr.RulesError as error:
        assume("contradict" not in str(error) and "cannot deal" not in str(error))
        raise
    random_episode(env, seed, np.random.default_rng(seed))


# -- bad input ---------------------------------------------------------------------------------


def test_a_masked_out_action_is_refused_and_the_game_is_unchanged() -> None:
    env = CheatEnv("english", 3)
    _, info = env.reset(seed=2)
    before = env.state
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(
        cr.IllegalActionError, match=rf'action {illegal} refused: .*info\["action_mask"\] is 1'
    ):
        env.step(illegal)
    assert env.state is before
    for wrong in (-1, env.action_space.n, 2.5, "3"):
        with pytest.raises(ValueError, match="action_mask"):
            env.step(wrong)
        assert env.state is before
    legal = int(np.flatnonzero(info["action_mask"])[0])
    env.step(np.int64(legal))
    assert env.state is not before


def test_a_step_after_the_end_or_before_a_reset_asks_for_a_reset() -> None:
    env = CheatEnv("verish", 2, max_steps=3)
    with pytest.raises(gymnasium.error.ResetNeeded, match="reset"):
        env.step(0)
    random_episode(env, 0, np.random.default_rng(0))
    ended = env.state
    with pytest.raises(ResetNeededError, match="reset"):
        env.step(0)
    assert env.state is ended
    assert issubclass(ResetNeededError, cr.CheatRulesError)


def test_a_game_is_named_as_in_the_other_adapters_or_given_as_rules() -> None:
    assert CheatEnv("cheat", 3).rules == cr.english(3)
    rules = cr.english(5, ranks="free")
    assert CheatEnv(rules).rules is rules
    with pytest.raises(cr.RulesError, match="a Rules value is complete"):
        CheatEnv(rules, 5)


def test_bad_settings_are_refused_with_what_is_allowed() -> None:
    with pytest.raises(
        cr.RulesError, match=r"unknown game 'poker'; the games are 'english' \(or 'cheat'\) and"
    ):
        CheatEnv("poker")
    with pytest.raises(cr.RulesError, match="seat must be a seat number from 0 to 2 or 'random'"):
        CheatEnv("english", 3, seat=3)
    with pytest.raises(cr.RulesError, match="opponents: 3 players need 2 bots"):
        CheatEnv("english", 3, opponents=[RandomBot()])
    with pytest.raises(cr.RulesError, match="not an agent"):
        CheatEnv("english", 3, opponents="random")  # type: ignore[arg-type]
    with pytest.raises(cr.RulesError, match="unknown reward 'score'; the rewards are 'win-loss'"):
        CheatEnv("verish", 3, reward="score")
    with pytest.raises(cr.RulesError, match="illegal must be 'raise' or 'lose'"):
        CheatEnv("verish", 3, illegal="ignore")
    with pytest.raises(cr.RulesError, match="max_steps"):
        CheatEnv("verish", 3, max_steps=0)
    with pytest.raises(cr.RulesError, match="render_mode must be None or 'ansi'"):
        CheatEnv("verish", 3, render_mode="human")
    with pytest.raises(cr.RulesError, match="unknown option"):
        CheatEnv("verish", 3, colour="red")
    with pytest.raises(cr.RulesError, match="reset takes no options"):
        CheatEnv("verish", 3).reset(options={"seat": 1})


# -- rendering and the optional dependency ----------------------------------------------------------


def test_ansi_rendering_narrates_the_learners_view() -> None:
    env = CheatEnv("english", 3, render_mode="ansi")
    _, info = env.reset(seed=1)
    env.step(int(np.flatnonzero(info["action_mask"])[-1]))
    text = env.render()
    assert isinstance(text, str)
    assert text.splitlines()[0].startswith("seat 2 deals")
    assert "seat 0 lays" in text
    assert CheatEnv("english", 3).render() is None


def test_without_the_extra_the_import_names_it() -> None:
    script = (
        "import sys\n"
        "sys.modules['gymnasium'] = None  # as if it were not installed\n"
        "import cheatrules\n"
        "try:\n"
        "    import cheatrules.gymnasium\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    output = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True)
    assert 'pip install "cheatrules[gymnasium]"' in output.stdout.decode()
