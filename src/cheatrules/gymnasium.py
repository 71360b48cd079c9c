"""A Gymnasium environment: one learner's seat against the library's bots.

Needs the ``gymnasium`` extra (``pip install "cheatrules[gymnasium]"``,
which brings Gymnasium and NumPy). Importing this module registers two
environment ids, ``cheatrules/Cheat-v0`` (English Cheat) and
``cheatrules/Verish-v0`` (Verish' Ne Verish'); ``gymnasium.make`` passes
the player count and any house option on to :class:`CheatEnv`. Without the
import, the ids are found through their module:
``gymnasium.make("cheatrules.gymnasium:cheatrules/Cheat-v0")``.

>>> import gymnasium
>>> import cheatrules.gymnasium
>>> env = gymnasium.make("cheatrules/Cheat-v0", players=3)
>>> observation, info = env.reset(seed=1)
>>> observation.shape == env.observation_space.shape, int(info["action_mask"].sum()) > 0
(True, True)

The guide page *Gymnasium* (``docs/guide/gymnasium.md``) gives the layouts.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Sequence
from typing import Any, SupportsFloat

try:
    import gymnasium
    import numpy
    from gymnasium import spaces
except ImportError as error:  # the extra is missing
    from cheatrules._extras import install_hint

    raise ImportError(
        f"cheatrules.gymnasium needs Gymnasium and NumPy ({error}); install them with "
        f"{install_hint('gymnasium')}"
    ) from error

from cheatrules import _adapters, _checks
from cheatrules._adapters import DEFAULT_MAX_STEPS
from cheatrules.actions import Action
from cheatrules.bots import Agent, CountingBot
from cheatrules.deal import deal
from cheatrules.encoding import ActionSpace, EncodingError
from cheatrules.errors import CheatRulesError, IllegalActionError, RulesError
from cheatrules.information_state import InformationStateEncoder
from cheatrules.narration import narrate
from cheatrules.rules import Rules
from cheatrules.state import GameState
from cheatrules.variants import VARIANTS, challenge_call, reward_scheme, rewards, rules_for

__all__ = ["DEFAULT_MAX_STEPS", "IDS", "CheatEnv", "LegalDiscrete", "ResetNeededError"]

#: The registered ids, each with the game it plays, one per game of
#: :data:`cheatrules.variants.VARIANTS` (``cheatrules/<Short_name>-v0``).
IDS: dict[str, str] = {
    f"cheatrules/{game.short_name.capitalize()}-v0": game.name for game in VARIANTS.values()
}


class ResetNeededError(CheatRulesError, gymnasium.error.ResetNeeded):
    """A step before the first :meth:`CheatEnv.reset`, or after the episode ended.

    It is Gymnasium's ``ResetNeeded`` (what its order-enforcing wrapper
    raises for a step before a reset) and a :class:`~cheatrules.CheatRulesError`.
    """


class LegalDiscrete(spaces.Discrete):
    """A ``Discrete`` action space whose ``sample()`` draws a legal action of its environment now.

    Without a ``mask``, ``sample()`` draws uniformly among the indices legal
    for the learner at this moment (the ones ``info["action_mask"]`` marks),
    so random baselines and Gymnasium's own checker, which step with
    ``env.action_space.sample()``, take legal actions. With ``mask=`` or
    ``probability=`` it is Gymnasium's ``Discrete.sample``. Before the first
    reset, or once pickled (the environment is not kept), it samples the
    whole space. It equals ``Discrete(n)``.
    """

    def __init__(self, n: int, env: CheatEnv) -> None:
        super().__init__(n)
        self._env: weakref.ref[CheatEnv] | None = weakref.ref(env)

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        """A random action: a legal one now, unless ``mask`` or ``probability`` says otherwise."""
        env = self._env() if self._env is not None else None
        if mask is None and probability is None and env is not None:
            mask = env.legal_mask()
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_env"] = None
        return state


class CheatEnv(gymnasium.Env[Any, Any]):
    """One seat of a game for a learner; bots play the others between its decisions.

    An episode is one game. :meth:`reset` deals it (from ``reset(seed=)``:
    the deal, the learner's seat when it is ``"random"`` and the bots' random
    choices all come from that seed) and lets the bots play until the
    learner's seat has a decision; :meth:`step` applies the learner's action
    and lets the bots play until its next decision or the end.

    * Actions: ``Discrete(len(ActionSpace(rules)))``, numbered by
      :class:`~cheatrules.encoding.ActionSpace`; the legal ones are where
      ``info["action_mask"]`` (numpy ``int8``, as Gymnasium's
      ``Discrete.sample(mask=)`` takes it) is 1.
    * Observations: the learner's
      :class:`~cheatrules.information_state.InformationStateEncoder` vector,
      numpy ``float32``, in a ``Box`` from 0 to each section's documented
      bound (a count documented as "0 and up" is bounded by float32's
      largest value).
    * Rewards: 0 until the learner's result is known, then its
      :func:`cheatrules.variants.rewards` entry (``reward="win-loss"`` or
      ``"placing"``), as the PettingZoo and OpenSpiel adapters pay it.
    * ``terminated`` when the game is over or the learner's seat leaves
      (Verish' Ne Verish'); the bots do not play the rest out, since the
      learner's place is fixed when it leaves. ``truncated`` once the game
      has taken ``max_steps`` decisions in all (the learner's and the
      bots', as the PettingZoo and OpenSpiel adapters count them), with
      the reward of the learner's standing at the cut: what the rules'
      ending would pay had the seats still in left in order of hand size,
      fewest cards first (seats with as many cards as each other share
      their places' pay), so a learner holding the most cards gets what
      losing pays. Gymnasium's ``max_episode_steps`` counts the learner's
      steps instead.

    Args:
        game: a name of :data:`cheatrules.variants.VARIANTS` (``"english"``,
            or ``"cheat"``, or ``"verish"``), or a complete
            :class:`~cheatrules.Rules` value (then no ``players`` nor options).
        players: the number of seats (4 by default).
        seat: the learner's seat, or ``"random"`` to draw one at each reset.
        opponents: one agent for every other seat, or a sequence of
            ``players - 1`` agents for the other seats in seat order
            (default: :class:`~cheatrules.bots.CountingBot`).
        reward: ``"win-loss"`` or ``"placing"`` (see :func:`cheatrules.variants.rewards`).
        illegal: what a masked-out action does: ``"raise"`` an
            :class:`~cheatrules.IllegalActionError` (a ``ValueError``),
            leaving the game unchanged, or ``"lose"``: the episode ends at
            once with reward -1 and ``info["illegal"]`` set, the game
            unchanged (for learners that do not read the mask, and for
            Gymnasium's ``check_env``, which steps an action sampled before
            a reset). An index outside the space always raises.
        max_steps: the game's decisions (every seat's) before the episode
            is truncated, or ``None`` for no limit; :data:`DEFAULT_MAX_STEPS`
            (2,000) by default. The bots stop there too.
        render_mode: ``None`` or ``"ansi"`` (the narrated log as the learner saw it).
        options: house options for :func:`cheatrules.english` or :func:`cheatrules.verish`.

    Raises:
        RulesError: a setting or house option that is not allowed; the
            message says what is.

    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012
    action_space: LegalDiscrete
    observation_space: spaces.Box

    def __init__(
        self,
        game: str | Rules = "english",
        players: int | None = None,
        *,
        seat: int | str = 0,
        opponents: Agent | Sequence[Agent] | None = None,
        reward: str = "win-loss",
        illegal: str = "raise",
        max_steps: int | None = DEFAULT_MAX_STEPS,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        #: The rules of every game the environment deals.
        self.rules: Rules = rules_for(game, players, **options)
        players = self.rules.players
        if seat != "random" and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players
        ):
            raise RulesError(
                f"seat must be a seat number from 0 to {players - 1} or 'random'; got {seat!r}"
            )
        reward = reward_scheme(reward)
        if illegal not in ("raise", "lose"):
            raise RulesError(f"illegal must be 'raise' or 'lose'; got {illegal!r}")
        #: What a masked-out action does, ``"raise"`` or ``"lose"``.
        self.illegal = illegal
        max_steps = _adapters.max_steps(max_steps)
        if render_mode not in (None, "ansi"):
            raise RulesError(f"render_mode must be None or 'ansi'; got {render_mode!r}")
        #: The bots at the other seats, in seat order.
        self.opponents: tuple[Agent, ...] = _lineup(opponents, players)
        self.reward, self.max_steps, self.render_mode = reward, max_steps, render_mode
        self._seat_setting = seat
        #: The numbering of the actions.
        self.action_encoding = ActionSpace(self.rules)
        #: The encoder of the observations.
        self.observation_encoding = InformationStateEncoder(self.rules)
        self.action_space = LegalDiscrete(self.action_encoding.size, self)
        low, high = _adapters.box_bounds(self.observation_encoding)
        self.observation_space = spaces.Box(low, high, dtype=numpy.float32)
        self._state: GameState | None = None
        self._seat = 0 if seat == "random" else int(seat)
        self._bots: dict[int, Agent] = {}
        self._bot_rng = random.Random(0)
        self._steps = 0
        self._done = True

    @property
    def state(self) -> GameState:
        """The game now, as the library holds it (immutable, so keep it as long as you like).

        Raises:
            ResetNeededError: no game was dealt yet.

        """
        if self._state is None:
            raise ResetNeededError("no game yet: call env.reset() first")
        return self._state

    @property
    def seat(self) -> int:
        """The learner's seat in the current game."""
        return self._seat

    def legal_mask(self) -> Any:
        """The learner's legal actions now, as ``info["action_mask"]`` gives them.

        ``None`` before the first reset; all zeros once the episode is over.
        """
        if self._state is None:
            return None
        seen = self._state.observe(self._seat)
        return self.action_encoding.mask_array(seen).view(numpy.int8)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Deal a new game and play the bots up to the learner's first decision.

        Args:
            seed: seeds the environment's random numbers; ``None`` goes on
                from the last seed given (or a fresh one).
            options: none are taken (``None`` or ``{}``).

        Returns:
            The observation and ``info``: ``"action_mask"`` and ``"seat"``.

        Raises:
            RulesError: ``options`` is not empty.

        """
        if options:
            raise RulesError(f"reset takes no options; got {options!r}")
        super().reset(seed=seed)
        draws = self.np_random.integers(0, 2**62, size=2)
        players = self.rules.players
        if self._seat_setting == "random":
            self._seat = int(self.np_random.integers(players))
        others = [other for other in range(players) if other != self._seat]
        self._bots = dict(zip(others, self.opponents, strict=True))
        self._bot_rng = random.Random(int(draws[1]))
        # The bots before the learner's first decision always play (and count).
        self._steps, self._done = 0, False
        self._state = self._play_bots(deal(self.rules, seed=int(draws[0])), None)
        observation, info, _ = self._outcome()
        return observation, info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Take the learner's action, then let the bots play up to its next decision.

        Args:
            action: an index where ``info["action_mask"]`` is 1 (an ``int`` or
                a NumPy integer).

        Returns:
            ``(observation, reward, terminated, truncated, info)``.

        Raises:
            IllegalActionError: ``action`` is not a whole number inside the
                action space, or its mask entry is 0 (unless ``illegal="lose"``);
                the game is unchanged.
            ResetNeededError: the episode is over (or never began): call
                :meth:`reset`.

        """
        if self._done or self._state is None:
            raise ResetNeededError(
                "the episode is over: call env.reset() before stepping again"
                if self._state is not None
                else "cannot step before the first env.reset()"
            )
        state = self._state
        chosen = self._decode(action, state)
        if chosen is None:  # refused, and illegal="lose"
            self._done = True
            observation, info, _ = self._outcome()
            info["illegal"] = True
            return observation, -1.0, True, False, info
        self._steps += 1
        self._state = self._play_bots(state.apply(chosen), self.max_steps)
        observation, info, terminated = self._outcome()
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        self._done = terminated or truncated
        reward = 0.0
        if terminated:
            reward = rewards(self._state, self.reward)[self._seat]
        elif truncated:
            reward = _adapters.cut_rewards(self._state, self.reward)[self._seat]
        return observation, reward, terminated, truncated, info

    def _decode(self, action: Any, state: GameState) -> Action | None:
        """The learner's action at index ``action``; ``None`` for a masked-out one that loses."""
        hint = (
            'Legal actions are the indices where info["action_mask"] is 1, e.g. '
            'numpy.flatnonzero(info["action_mask"]) or env.action_space.sample()'
        )
        size = self.action_encoding.size
        try:
            index = _checks.whole_number(action, "action", 0, size - 1, IllegalActionError)
        except IllegalActionError as error:
            raise IllegalActionError(f"{error}. {hint}") from None
        try:
            return self.action_encoding.decode(index, state.observe(self._seat))
        except EncodingError as error:
            if self.illegal == "lose":
                return None
            raise IllegalActionError(f"action {index} refused: {error}. {hint}") from None

    def render(self) -> str | None:
        """With ``render_mode="ansi"``, the game so far as the learner's seat saw it, one line each.

        Returns ``None`` without a render mode, or before the first reset.
        """
        if self.render_mode != "ansi" or self._state is None:
            return None
        seen = self._state.observe(self._seat)
        lines = narrate(seen.events, challenge_word=challenge_call(self.rules))
        return "\n".join(lines) + "\n"

    def _play_bots(self, state: GameState, limit: int | None) -> GameState:
        """The state once the bots have played to the learner's decision, result, or ``limit``.

        ``limit`` is the game's decisions in all (``None``: no limit); each
        decision played is counted in ``_steps``.
        """
        bots, rng, learner = self._bots, self._bot_rng, self._seat
        while not state.is_over and learner not in state.finishing_order:
            seat = state.to_move
            if seat == learner or seat is None or (limit is not None and self._steps >= limit):
                break
            state = state.apply(bots[seat].act(state.observe(seat), rng))
            self._steps += 1
        return state

    def _outcome(self) -> tuple[Any, dict[str, Any], bool]:
        """The learner's observation, the info and whether its episode is over."""
        state = self.state
        seen = state.observe(self._seat)
        info = {"action_mask": self.legal_mask(), "seat": self._seat}
        terminated = state.is_over or self._seat in state.finishing_order
        return self.observation_encoding.array(seen), info, terminated


def _lineup(opponents: Agent | Sequence[Agent] | None, players: int) -> tuple[Agent, ...]:
    """The bots for the other seats, in seat order."""
    if opponents is None:
        return (CountingBot(),) * (players - 1)
    if isinstance(opponents, Sequence) and not isinstance(opponents, str):
        bots = tuple(opponents)
        if len(bots) != players - 1:
            raise RulesError(
                f"opponents: {players} players need {players - 1} bots, one for each other "
                f"seat (or one bot for them all); got {len(bots)}"
            )
    else:
        bots = (opponents,) * (players - 1)
    for bot in bots:
        if not callable(getattr(bot, "act", None)):
            raise RulesError(
                f"opponents: {bot!r} is not an agent: it needs an act(observation, rng) method"
            )
    return bots


def _register() -> None:
    for env_id, game in IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id, entry_point="cheatrules.gymnasium:CheatEnv", kwargs={"game": game}
            )


_register()
