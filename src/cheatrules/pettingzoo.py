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

import math
import random
from collections.abc import Callable
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as missing:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        f"cheatrules.pettingzoo needs PettingZoo, Gymnasium and NumPy ({missing}); "
        'install them with: pip install "cheatrules[pettingzoo]"'
    ) from missing

from cheatrules import _checks as checks
from cheatrules.deal import deal
from cheatrules.encoding import ActionSpace
from cheatrules.errors import CheatRulesError, RulesError
from cheatrules.information_state import InformationStateEncoder
from cheatrules.narration import narrate
from cheatrules.observation import Observation
from cheatrules.rules import Rules, english, verish
from cheatrules.state import GameState

__all__ = ["GAMES", "REWARDS", "AgentError", "env", "observation_bounds", "raw_env"]

#: The game names ``env`` and ``raw_env`` accept, each with the function that builds its rules.
GAMES: dict[str, Callable[..., Rules]] = {"english": english, "cheat": english, "verish": verish}

#: The reward schemes: ``"win-loss"`` (the default) and ``"placing"``.
REWARDS = ("win-loss", "placing")

#: Decisions after which a game is cut short (``truncations``), unless ``max_steps`` says otherwise.
DEFAULT_MAX_STEPS = 2000

_CHALLENGE_WORDS = {"verish": "I don't believe!"}


class AgentError(CheatRulesError, ValueError):
    """An agent name that is not one of the environment's, or a step the game cannot take."""


def _rules(game: str | Rules, players: int | None, options: dict[str, Any]) -> Rules:
    if isinstance(game, Rules):
        if players is not None or options:
            raise RulesError(
                "a Rules value is complete: pass either game=rules alone, or a game name "
                "with players= and house options"
            )
        return game
    build = GAMES.get(game) if isinstance(game, str) else None
    if build is None:
        allowed = ", ".join(f'"{name}"' for name in GAMES)
        raise RulesError(f"unknown game {game!r}; the games are {allowed}, or a Rules value")
    return build(4 if players is None else players, **options)


def observation_bounds(rules: Rules) -> tuple[Any, Any]:
    """The lowest and highest value of each element of the information-state vector.

    Read from the sections documented by
    :class:`~cheatrules.information_state.InformationStateEncoder`: one-hot
    sections lie in 0..1, card counts in 0..the copies the deck holds,
    sizes in 0..the deck's size, claim sizes in 0..the largest claim, and
    the counts of things that happened ("0 and up") in 0..infinity.

    Returns:
        Two float32 numpy arrays, ``(low, high)``, of the encoder's size.

    Raises:
        RulesError: the encoder has a section this adapter does not know
            (a library bug: the two are released together).

    """
    encoder = InformationStateEncoder(rules)
    deck = rules.deck
    cards = sorted(set(deck.cards()))  # the encoder's order of cards
    per_card = [float(deck.card_copies(card)) for card in cards]
    per_rank = [float(deck.copies(rank)) for rank in deck.ranks]
    fours = [float(deck.copies(rank) // 4) for rank in deck.ranks]
    largest_claim = float(rules.claims.maximum)
    size = float(deck.size)
    high = np.zeros(encoder.size, dtype=np.float32)
    for name, start, length in encoder.layout:
        if name in (
            "seat", "to_move", "phase", "active", "claim_seat", "claim_rank", "allowed_ranks",
            "group_seat", "group_rank",
        ):  # fmt: skip
            values: Any = 1.0
        elif name in (
            "hand",
            "mine_on_table",
            "shown_on_table",
            "discarded_cards",
            "last_revealed",
        ):
            values = per_card
        elif name == "taken":
            values = per_card * rules.players
        elif name in ("hand_sizes", "pile_size", "groups", "set_aside", "stock"):
            values = size
        elif name in ("claim_count", "group_count"):
            values = largest_claim
        elif name == "discarded":
            values = per_rank
        elif name == "offered":
            values = fours
        elif name in (
            "events_seen", "claims_made", "challenges_made", "shown_lying", "shown_truthful",
            "piles_taken", "passes",
        ):  # fmt: skip
            values = math.inf
        else:
            raise RulesError(f"the information-state section {name!r} has no known bounds")
        high[start : start + length] = values
    return np.zeros(encoder.size, dtype=np.float32), high


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
        game: ``"english"`` (or ``"cheat"``), ``"verish"``, or a complete
            :class:`~cheatrules.Rules` value (then no ``players`` nor options).
        players: the number of seats (4 by default), as
            :func:`~cheatrules.english` and :func:`~cheatrules.verish` allow.
        reward: ``"win-loss"`` or ``"placing"``; see :class:`raw_env`.
        max_steps: decisions after which the game is truncated, or ``None``
            for no limit.
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
      integer type), inside the bounds of :func:`observation_bounds`;
    * ``"action_mask"``: int8, 1 at each legal index of the seat to move;
      all zeros for every other agent.

    Rewards are 0 until a seat's game ends. With ``reward="win-loss"``, a
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
    every agent still in is truncated with reward 0.

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
        rules = _rules(game, players, options)
        if reward not in REWARDS:
            raise RulesError(f"unknown reward {reward!r}; the rewards are {', '.join(REWARDS)}")
        if max_steps is not None:
            max_steps = checks.whole_number(max_steps, "max_steps", 1)
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
        low, high = observation_bounds(rules)
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

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; with ``seed``, the same one each time."""
        if seed is not None:
            self._chance.seed(checks.whole_number(seed, "seed", 0))
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
        """The game being played: a :class:`~cheatrules.GameState` (immutable).

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
        left = state.finishing_order[before:]
        if state.is_over:
            self._end(state)
        else:
            for seat_out in left:
                out = self.possible_agents[seat_out]
                self.terminations[out] = True
                self.rewards[out] = self._leaving_reward(state.finishing_order.index(seat_out))
            if self.max_steps is not None and self.steps >= self.max_steps:
                for other in self.agents:
                    if not self.terminations[other]:
                        self.truncations[other] = True
        self._accumulate_rewards()
        if not state.is_over:
            self._viewer = self._to_move(state)
        self.agent_selection = self.possible_agents[self._viewer]
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _leaving_reward(self, place: int) -> float:
        if self.reward_scheme == "win-loss":
            return 1.0
        return self._placing(place)

    def _placing(self, place: float) -> float:
        players = self.rules.players
        return 1.0 - 2.0 * place / (players - 1)

    def _end(self, state: GameState) -> None:
        outcome = state.outcome
        assert outcome is not None  # the game is over
        order = state.finishing_order
        still_in = [seat for seat in range(self.rules.players) if seat not in order]
        # The seats still in share the places after the last one out.
        shared = len(order) + (len(still_in) - 1) / 2
        for agent in self.agents:
            seat = self._seats[agent]
            self.terminations[agent] = True
            if self.reward_scheme == "placing":
                self.rewards[agent] = self._placing(
                    shared if seat in still_in else order.index(seat)
                )
            else:
                self.rewards[agent] = (
                    1.0 if seat in outcome.winners else -1.0 if seat in outcome.losers else 0.0
                )

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
        word = _CHALLENGE_WORDS.get(self.rules.name, "Cheat!")
        lines = list(narrate(view.events, challenge_word=word))
        hand = " ".join(map(str, view.hand)) or "no cards"
        moving = "the game is over" if view.to_move is None else f"seat {view.to_move} to move"
        lines.append(f"{moving}; seat {view.seat} holds {hand}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""
