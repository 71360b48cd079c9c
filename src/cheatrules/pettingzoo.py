"""A PettingZoo AEC environment for English Cheat and Verish' Ne Verish'.

Install the extra (``pip install "cheatrules[pettingzoo]"``), then::

    from cheatrules.pettingzoo import env
    game = env("verish", players=4)
    game.reset(seed=1)

Agents are ``"seat_0"``, ``"seat_1"``, ...; each one's action space is a
``Discrete`` over :class:`~cheatrules.encoding.ActionSpace`; an observation
is ``{"observation": float32 information-state vector, "action_mask": int8
mask}``. See the guide page "PettingZoo" for the layouts, the rewards and
what bad input does.

>>> game = env("english", players=3)
>>> game.reset(seed=7)
>>> observation, reward, terminated, truncated, info = game.last()
>>> game.agent_selection, observation["action_mask"].dtype, reward
('seat_0', dtype('int8'), 0.0)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as missing:  # pragma: no cover - exercised in a subprocess by the tests
    from cheatrules._extras import install_hint

    raise ImportError(
        f"cheatrules.pettingzoo needs PettingZoo, Gymnasium and NumPy ({missing}); "
        f"install them with: {install_hint('pettingzoo')}"
    ) from missing

from cheatrules import _adapters
from cheatrules import _checks as checks
from cheatrules._adapters import DEFAULT_MAX_STEPS
from cheatrules.deal import deal
from cheatrules.encoding import ActionSpace
from cheatrules.errors import CheatRulesError, RulesError
from cheatrules.information_state import InformationStateEncoder
from cheatrules.narration import narrate
from cheatrules.observation import Observation
from cheatrules.rules import Rules
from cheatrules.state import GameState
from cheatrules.variants import REWARDS, VARIANTS, challenge_call, reward_scheme, rewards, rules_for

__all__ = [
    "DEFAULT_MAX_STEPS",
    "GAMES",
    "REWARDS",
    "AgentError",
    "env",
    "observation_bounds",
    "raw_env",
]

#: The game names ``env`` and ``raw_env`` accept (read from
#: :data:`cheatrules.variants.VARIANTS`), each with the function that builds its rules.
GAMES: dict[str, Callable[..., Rules]] = {
    name: game.build for game in VARIANTS.values() for name in (game.name, *game.aliases)
}


class AgentError(CheatRulesError, ValueError):
    """An agent name that is not one of the environment's, or a step the game cannot take."""


def observation_bounds(rules: Rules) -> tuple[Any, Any]:
    """The lowest and highest value of each element of the information-state vector.

    :meth:`InformationStateEncoder.bounds
    <cheatrules.information_state.InformationStateEncoder.bounds>`, read
    from the sections the encoder documents, as float32 arrays; a count
    documented as "0 and up" is bounded by float32's largest value (as in
    the Gymnasium environment: Gymnasium's checker warns of infinite bounds).

    Returns:
        Two float32 numpy arrays, ``(low, high)``, of the encoder's size.

    """
    return _adapters.box_bounds(InformationStateEncoder(rules))


def env(
    game: str | Rules = "english",
    players: int | None = None,
    *,
    reward: str = "win-loss",
    max_steps: int | None = DEFAULT_MAX_STEPS,
    render_mode: str | None = None,
    **options: Any,
) -> Any:
    """A game as a PettingZoo AEC environment, wrapped as PettingZoo's classic games are.

    The wrappers, outermost first: ``OrderEnforcingWrapper`` (an error for
    ``step``, ``observe`` or ``render`` before ``reset``; a warning, and
    nothing done, for ``step`` once every agent is gone),
    ``AssertOutOfBoundsWrapper`` (an ``AssertionError`` for an action outside
    the ``Discrete`` space) and ``TerminateIllegalWrapper`` (an action the
    mask rules out ends the game: the agent that took it gets ``-1``, every
    other ``0``, every agent is terminated; the cards are left as they were).
    :func:`raw_env` has no wrappers: there a masked-out action raises.

    Args:
        game: a name of :data:`cheatrules.variants.VARIANTS` (``"english"``,
            or ``"cheat"``, or ``"verish"``), or a complete
            :class:`~cheatrules.Rules` value (then no ``players`` nor options),
            as :func:`cheatrules.variants.rules_for` reads them.
        players: the number of seats (4 by default), as
            :func:`~cheatrules.english` and :func:`~cheatrules.verish` allow.
        reward: ``"win-loss"`` or ``"placing"``; see :class:`raw_env`.
        max_steps: decisions (every seat's) after which the game is
            truncated, or ``None`` for no limit; :data:`DEFAULT_MAX_STEPS`
            (2,000), as in the Gymnasium and OpenSpiel adapters.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the text) or
            ``"human"`` (printed after each step).
        options: house options, passed to :func:`~cheatrules.english` or
            :func:`~cheatrules.verish` (``discards="after-pickup"``, ...).

    Raises:
        RulesError: an unknown game, reward or render mode, a bad player
            count, house option or ``max_steps``.

    """
    wrapped: Any = raw_env(
        game, players, reward=reward, max_steps=max_steps, render_mode=render_mode, **options
    )
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 - PettingZoo's name for the bare class
    """A game as a PettingZoo AEC environment, without wrappers (see :func:`env`).

    Agents are ``"seat_0"`` to ``"seat_{P-1}"``; ``agent_selection`` is the
    seat to move. Every agent's action space is ``Discrete(n)`` over the
    indices of :class:`~cheatrules.encoding.ActionSpace`; its observation is
    a dict:

    * ``"observation"``: the seat's
      :class:`~cheatrules.information_state.InformationStateEncoder` vector,
      float32 (the counts of things that happened can grow past any small
      integer type), inside the bounds of :func:`observation_bounds` (a
      count documented as "0 and up" bounded by float32's largest value);
    * ``"action_mask"``: int8, 1 at each legal index of the seat to move;
      all zeros for every other agent.

    Rewards are 0 until a seat's game ends, then its entry of
    :func:`cheatrules.variants.rewards` for the ``reward`` scheme (the one
    the Gymnasium and OpenSpiel adapters pay too). With ``reward="win-loss"``, a
    seat that wins gets +1 and a seat that loses -1: in English Cheat the
    first seat out wins and every other loses (the rewards sum to
    ``2 - P``); in Verish' Ne Verish' each seat that empties its hand wins
    and the last one in loses (they sum to ``P - 2``). With
    ``reward="placing"``, the ``k``-th seat out (from 0) gets
    ``1 - 2k / (P - 1)``, and the seats still in at the end share the places
    left equally: in Verish' Ne Verish' first +1, last -1, the rest evenly
    between; in English Cheat the winner +1 and every other
    ``-1 / (P - 1)``. Placings sum to 0.

    A seat that leaves while the game goes on (Verish' Ne Verish', or
    ``ending="placings"``) is terminated at that moment, with its reward
    (a win: both endings the library ships count every seat that leaves
    before the end among the winners), and takes PettingZoo's dead step
    (``step(None)``) next. After ``max_steps`` decisions without an end,
    every agent still in is truncated and paid by its standing at the cut:
    what the rules' ending would pay had the seats still in left in order
    of hand size, fewest cards first, seats with as many cards as each
    other sharing their places' pay (so the seat with the most cards, alone,
    gets what losing pays: -1).

    ``reset(seed=s)`` deals the same cards for the same ``s`` (and the same
    random draws during play, where the rules have any); resets without a
    seed go on from the last seeded one. ``step`` raises an
    :class:`~cheatrules.encoding.EncodingError` (a ``ValueError``) for an
    index that is not legal now, naming it and what is asked instead, and
    an :class:`AgentError` after the game is over; either way nothing changes.

    Raises:
        RulesError: as :func:`env`.

    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "render_modes": ["ansi", "human"],
        "name": "cheatrules_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Rules = "english",
        players: int | None = None,
        *,
        reward: str = "win-loss",
        max_steps: int | None = DEFAULT_MAX_STEPS,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        rules = rules_for(game, players, **options)
        reward = reward_scheme(reward)
        max_steps = _adapters.max_steps(max_steps)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = ", ".join(self.metadata["render_modes"])
            raise RulesError(f"unknown render_mode {render_mode!r}; the modes are {modes} or None")
        #: The rules played.
        self.rules = rules
        self.reward_scheme = reward
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"cheatrules_{rules.name}_v0"}
        self.space = ActionSpace(rules)
        self.encoder = InformationStateEncoder(rules)
        self.possible_agents = [f"seat_{seat}" for seat in range(rules.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        low, high = _adapters.box_bounds(self.encoder)
        size = self.space.size
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(size,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._chance = random.Random()
        self._state: GameState | None = None
        self.steps = 0
        self._observed: dict[str, dict[str, Any]] = {}
        self._viewer = 0

    # -- spaces ------------------------------------------------------------------------

    def _seat(self, agent: str) -> int:
        seat = self._seats.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise AgentError(
                f"unknown agent {agent!r}; the agents are seat_0 to seat_{self.rules.players - 1}"
            )
        return seat

    def observation_space(self, agent: str) -> spaces.Dict:
        """The agent's observation space (the same object each time)."""
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The agent's action space (the same object each time: seeding it holds)."""
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    # -- the game ----------------------------------------------------------------------

    def seed(self, seed: int | None = None) -> None:
        """Seed the deals of the next resets, as ``reset(seed=seed)`` would (older PettingZoo API).

        ``env.seed(7); env.reset()`` deals what ``env.reset(seed=7)`` deals;
        ``None`` seeds from the operating system.

        Raises:
            RulesError: ``seed`` is not a whole number of at least 0.

        """
        self._chance.seed(None if seed is None else checks.whole_number(seed, "seed", 0))

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; with ``seed``, the same one each time."""
        if seed is not None:
            self.seed(seed)
        self._state = deal(self.rules, seed=self._chance.getrandbits(63))
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._observed = {}
        self._viewer = self._to_move(self._state)
        self.agent_selection = self.possible_agents[self._viewer]

    @staticmethod
    def _to_move(state: GameState) -> int:
        seat = state.to_move
        assert seat is not None  # only asked while the game goes on
        return seat

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation now: its information-state vector and its action mask.

        Asked again before the next step, it costs nothing (the same arrays).

        Raises:
            AgentError: an unknown agent, or no game dealt yet.

        """
        seat = self._seat(agent)
        found = self._observed.get(agent)
        if found is not None:
            return found
        state = self.game
        view = state.observe(seat)
        if seat == state.to_move:
            mask = self.space.mask_array(view).view(np.int8)
        else:
            mask = np.zeros(self.space.size, dtype=np.int8)
        found = {"observation": self.encoder.array(view), "action_mask": mask}
        self._observed[agent] = found
        return found

    @property
    def game(self) -> GameState:
        """The game being played, a :class:`~cheatrules.GameState` (immutable).

        Raises:
            AgentError: no game dealt yet (call ``reset()``).

        """
        if self._state is None:
            raise AgentError("no game yet: call reset() first")
        return self._state

    def step(self, action: Any) -> None:
        """Take the selected agent's decision: an index of the action space, or ``None`` if dead.

        Raises:
            EncodingError: ``action`` is not an index legal for the seat now
                (nothing changes).
            AgentError: the game is over and every agent has taken its dead
                step, or no game is dealt (call ``reset()``).
            ValueError: an action other than ``None`` for a terminated or
                truncated agent (PettingZoo's rule).

        """
        state = self.game
        if not self.agents:
            raise AgentError("the game is over and every agent has left; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seats[agent]
        decided = self.space.decode(action, state.observe(seat))  # raises; nothing changed yet
        before = len(state.finishing_order)
        state = state.apply(decided)
        self._state = state
        self.steps += 1
        self._observed = {}
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._pay(state, state.finishing_order[before:])
        if not state.is_over and self.max_steps is not None and self.steps >= self.max_steps:
            standing = _adapters.cut_rewards(state, self.reward_scheme)
            for other in self.agents:
                if not self.terminations[other]:
                    self.truncations[other] = True
                    self.rewards[other] = standing[self._seats[other]]
        self._accumulate_rewards()
        if not state.is_over:
            self._viewer = self._to_move(state)
        self.agent_selection = self.possible_agents[self._viewer]
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _pay(self, state: GameState, left: tuple[int, ...]) -> None:
        """Terminate, with its reward, each seat that left now, or every agent at the end."""
        if not left and not state.is_over:
            return
        paid = rewards(state, self.reward_scheme)
        ended = self.agents if state.is_over else [self.possible_agents[seat] for seat in left]
        for agent in ended:
            self.terminations[agent] = True
            self.rewards[agent] = paid[self._seats[agent]]

    # -- rendering ---------------------------------------------------------------------

    def render(self) -> str | None:
        """The game as the seat to move saw it (after the end, the last seat to move).

        The narrated log of that seat's view, then its hand. ``"ansi"``
        returns the text; ``"human"`` prints it; without a render mode,
        nothing happens.
        """
        if self.render_mode is None or self._state is None:
            return None
        text = self.view_text(self._state.observe(self._viewer))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def view_text(self, view: Observation) -> str:
        """A seat's view as text: its log narrated, then who is to move and the seat's hand."""
        lines = list(narrate(view.events, challenge_word=challenge_call(self.rules)))
        hand = " ".join(map(str, view.hand)) or "no cards"
        moving = "the game is over" if view.to_move is None else f"seat {view.to_move} to move"
        lines.append(f"{moving}; seat {view.seat} holds {hand}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""
