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
    raise ImportError(
        f"cheatrules.gymnasium needs Gymnasium and NumPy ({error}); install them with "
        'pip install "cheatrules[gymnasium]"'
    ) from error

from cheatrules import _checks
from cheatrules.actions import Action
from cheatrules.bots import Agent, CountingBot
from cheatrules.deal import deal
from cheatrules.encoding import ActionSpace, EncodingError
from cheatrules.errors import CheatRulesError, IllegalActionError, RulesError
from cheatrules.information_state import InformationStateEncoder
from cheatrules.narration import narrate
from cheatrules.rules import Rules, english, verish
from cheatrules.state import GameState

__all__ = ["DEFAULT_MAX_STEPS", "IDS", "CheatEnv", "LegalDiscrete", "ResetNeededError", "rewards"]

#: The learner's decisions an episode allows before it is truncated, unless told otherwise.
DEFAULT_MAX_STEPS = 1000

#: The registered ids, each with the game it plays.
IDS: dict[str, str] = {"cheatrules/Cheat-v0": "english", "cheatrules/Verish-v0": "verish"}

_GAMES = {"english": (english, "Cheat!"), "verish": (verish, "I don't believe!")}
_REWARDS = ("win-loss", "placing")
#: The bound of a count the encoder documents as "0 and up": finite, as Gymnasium asks.
_UNBOUNDED = float(numpy.finfo(numpy.float32).max)
#: Sections whose values are 0 or 1.
_ONE_HOT = frozenset(
    {
        "seat", "to_move", "phase", "active", "claim_seat", "claim_rank", "allowed_ranks",
        "group_seat", "group_rank",
    }
)  # fmt: skip
#: Sections counting copies of each card.
_PER_CARD = frozenset(
    {"hand", "mine_on_table", "shown_on_table", "taken", "discarded_cards", "last_revealed"}
)
#: Sections counting cards, at most the deck's size.
_CARD_COUNTS = frozenset(
    {
        "hand_sizes", "pile_size", "groups", "claim_count", "discarded", "offered", "set_aside",
        "stock", "group_count",
    }
)  # fmt: skip


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


def rewards(state: GameState, reward: str = "win-loss") -> tuple[float, ...]:
    """Each seat's reward for the game so far: 0 for a seat whose result is still open.

    ``"win-loss"``: +1 for each winner, -1 for each loser once the game is
    over; a seat that left before the end counts as a winner (as it is under
    every ending the library names). ``"placing"``: the seats that left take
    places 0, 1, ... in the order they left, place ``k`` of ``P`` worth
    ``1 - 2k/(P-1)``; once the game is over, the seats still in share the
    places left, each getting their mean. Over a finished game the placing
    rewards sum to 0.

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["7♣", "A♠ 2♥", "A♥ 9♣"], dealer=2)
    >>> state = state.apply(cr.Play("7♣", "A")).apply(cr.Accept()).apply(cr.Accept())
    >>> rewards(state), rewards(state, "placing")
    ((1.0, -1.0, -1.0), (1.0, -0.5, -0.5))

    Raises:
        RulesError: ``reward`` is neither ``"win-loss"`` nor ``"placing"``.

    """
    _check_reward(reward)
    players = state.players
    found = [0.0] * players
    order = state.finishing_order
    if reward == "win-loss":
        for seat in order:
            found[seat] = 1.0
        if state.is_over and state.outcome is not None:
            for seat in state.outcome.winners:
                found[seat] = 1.0
            for seat in state.outcome.losers:
                found[seat] = -1.0
        return tuple(found)
    worth = [1.0 - 2.0 * place / (players - 1) for place in range(players)]
    for place, seat in enumerate(order):
        found[seat] = worth[place]
    if state.is_over:
        rest = [seat for seat in range(players) if seat not in order]
        for seat in rest:
            found[seat] = sum(worth[len(order) :]) / len(rest)
    return tuple(found)


def _check_reward(reward: object) -> None:
    if reward not in _REWARDS:
        raise RulesError(f"reward must be 'win-loss' or 'placing'; got {reward!r}")


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
      :func:`rewards` entry (``reward="win-loss"`` or ``"placing"``).
    * ``terminated`` when the game is over or the learner's seat leaves
      (Verish' Ne Verish'); the bots do not play the rest out, since the
      learner's place is fixed when it leaves. ``truncated`` after
      ``max_steps`` of the learner's decisions, with reward 0.

    Args:
        game: ``"english"`` or ``"verish"``.
        players: the number of seats.
        seat: the learner's seat, or ``"random"`` to draw one at each reset.
        opponents: one agent for every other seat, or a sequence of
            ``players - 1`` agents for the other seats in seat order
            (default: :class:`~cheatrules.bots.CountingBot`).
        reward: ``"win-loss"`` or ``"placing"`` (see :func:`rewards`).
        illegal: what a masked-out action does: ``"raise"`` an
            :class:`~cheatrules.IllegalActionError` (a ``ValueError``),
            leaving the game unchanged, or ``"lose"``: the episode ends at
            once with reward -1 and ``info["illegal"]`` set, the game
            unchanged (for learners that do not read the mask, and for
            Gymnasium's ``check_env``, which steps an action sampled before
            a reset). An index outside the space always raises.
        max_steps: the learner's decisions before the episode is truncated,
            or ``None`` for no limit.
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
        game: str = "english",
        players: int = 4,
        *,
        seat: int | str = 0,
        opponents: Agent | Sequence[Agent] | None = None,
        reward: str = "win-loss",
        illegal: str = "raise",
        max_steps: int | None = DEFAULT_MAX_STEPS,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if game not in _GAMES:
            raise RulesError(f"game must be 'english' or 'verish'; got {game!r}")
        make, self._challenge_word = _GAMES[game]
        #: The rules of every game the environment deals.
        self.rules: Rules = make(players, **options)
        players = self.rules.players
        if seat != "random" and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players
        ):
            raise RulesError(
                f"seat must be a seat number from 0 to {players - 1} or 'random'; got {seat!r}"
            )
        _check_reward(reward)
        if illegal not in ("raise", "lose"):
            raise RulesError(f"illegal must be 'raise' or 'lose'; got {illegal!r}")
        #: What a masked-out action does: ``"raise"`` or ``"lose"``.
        self.illegal = illegal
        if max_steps is not None:
            max_steps = _checks.whole_number(max_steps, "max_steps", 1, None, RulesError)
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
        low, high = _bounds(self.observation_encoding)
        self.observation_space = spaces.Box(low, high, dtype=numpy.float32)
        self._state: GameState | None = None
        self._seat = 0 if seat == "random" else int(seat)
        self._bots: dict[int, Agent] = {}
        self._bot_rng = random.Random(0)
        self._steps = 0
        self._done = True

    @property
    def state(self) -> GameState:
        """The game now, as the library holds it (immutable: keep it as long as you like).

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
        self._state = self._play_bots(deal(self.rules, seed=int(draws[0])))
        self._steps, self._done = 0, False
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
        self._state = self._play_bots(state.apply(chosen))
        self._steps += 1
        observation, info, terminated = self._outcome()
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        self._done = terminated or truncated
        reward = rewards(self._state, self.reward)[self._seat] if terminated else 0.0
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
        return "\n".join(narrate(seen.events, challenge_word=self._challenge_word)) + "\n"

    def _play_bots(self, state: GameState) -> GameState:
        """The state once the bots have played up to the learner's decision or its result."""
        bots, rng, learner = self._bots, self._bot_rng, self._seat
        while not state.is_over and learner not in state.finishing_order:
            seat = state.to_move
            if seat == learner or seat is None:
                break
            state = state.apply(bots[seat].act(state.observe(seat), rng))
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


def _bounds(encoder: InformationStateEncoder) -> tuple[Any, Any]:
    """Each entry's lowest and highest value, from the sections the encoder documents."""
    deck = encoder.rules.deck
    copies = max(deck.card_copies(card) for card in set(deck.cards()))
    high = numpy.full(encoder.size, _UNBOUNDED, dtype=numpy.float32)
    for name, start, length in encoder.layout:
        if name in _ONE_HOT:
            high[start : start + length] = 1.0
        elif name in _PER_CARD:
            high[start : start + length] = copies
        elif name in _CARD_COUNTS:
            high[start : start + length] = deck.size
    return numpy.zeros(encoder.size, dtype=numpy.float32), high


def _register() -> None:
    for env_id, game in IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id, entry_point="cheatrules.gymnasium:CheatEnv", kwargs={"game": game}
            )


_register()
