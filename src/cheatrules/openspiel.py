"""OpenSpiel games for Cheat and Verish' Ne Verish' (the ``openspiel`` extra).

Importing this module registers two Python games with OpenSpiel,
``python_cheat`` (English Cheat) and ``python_verish`` (Verish' Ne
Verish'), so ``pyspiel.load_game`` finds them::

    import cheatrules.openspiel  # registers the games
    import pyspiel

    game = pyspiel.load_game("python_cheat(players=3,check=one-card)")

Players are the seat numbers. The deal is dealt by chance nodes, one card
at a time, each outcome a position among the cards not yet dealt in a
fixed order; where the rules turn over one card of a challenged group,
every challenge is followed by a chance node that draws a position in the
group. So whether a chance node comes, and how many outcomes it has, never
depends on a hidden card. Actions are the indices of
:class:`~cheatrules.encoding.ActionSpace`; the information-state string is
exact (equal exactly when the seat's views are), the information-state
tensor is :class:`~cheatrules.information_state.InformationStateEncoder`'s
vector and the observation tensor
:class:`~cheatrules.encoding.ObservationEncoder`'s (both summaries).
``resample_from_infostate`` deals a game the player cannot tell from the
real one with :func:`cheatrules.sampling.sample`, so OpenSpiel's IS-MCTS
can play. See the OpenSpiel guide in the docs for the parameters, rewards
and layouts.

Raises:
    ImportError: OpenSpiel or NumPy is not installed (``pip install
        "cheatrules[openspiel]"``).

"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs

try:
    import numpy
    import pyspiel
except ImportError as error:  # pragma: no cover - exercised in a subprocess by the tests
    from cheatrules._extras import install_hint

    raise ImportError(
        "cheatrules.openspiel needs OpenSpiel and NumPy, which the 'openspiel' extra "
        f"installs: {install_hint('openspiel')}"
    ) from error

from cheatrules import _adapters
from cheatrules._adapters import DEFAULT_MAX_STEPS
from cheatrules._view_text import view_text
from cheatrules.actions import Challenge
from cheatrules.cards import CARD_BY_KEY, Card
from cheatrules.deal import deal
from cheatrules.encoding import ActionSpace, ObservationEncoder
from cheatrules.errors import IllegalActionError, RulesError
from cheatrules.events import Dealt
from cheatrules.information_state import InformationStateEncoder
from cheatrules.observation import Observation
from cheatrules.policies.challenges import chance_chooses
from cheatrules.rules import NAMED_POLICIES, Rules
from cheatrules.sampling import sample
from cheatrules.state import GameState
from cheatrules.variants import REWARDS, VARIANTS, Variant, reward_scheme

__all__ = [
    "DEFAULT_MAX_STEPS",
    "RESAMPLE_SECONDS",
    "REWARDS",
    "CheatGame",
    "CheatState",
    "Observer",
    "VerishGame",
    "rules_from_parameters",
]

#: The most seconds :meth:`CheatState.resample_from_infostate` waits for a sample (the
#: ``timeout`` it gives :func:`cheatrules.sampling.sample`). IS-MCTS resamples at every
#: simulation: with the ``cheatrules[solver]`` extra a sample takes milliseconds, and the
#: slowest of the benchmarks' views well under this.
RESAMPLE_SECONDS = 2.0

#: The policy families a game takes by name; ``"default"`` keeps the game's own choice.
POLICY_PARAMETERS = tuple(NAMED_POLICIES)

#: The game each registered name plays, by its name in :data:`cheatrules.variants.VARIANTS`:
#: ``python_<short_name>`` for every game there.
GAMES = {f"python_{game.short_name}": game.name for game in VARIANTS.values()}


def _parameters(game: Variant) -> dict[str, Any]:
    """A game's parameters with their defaults: 0 for a house option not given."""
    parameters: dict[str, Any] = {"players": game.default_players}
    parameters |= dict.fromkeys((*game.option_names, game.deck_alias), 0)
    parameters |= dict.fromkeys(POLICY_PARAMETERS, "default")
    parameters |= {"reward": game.rewards[0], "max_steps": DEFAULT_MAX_STEPS}
    return parameters


def _game_type(
    name: str,
    long: str,
    low: int,
    high: int,
    parameters: dict[str, Any],
    utility: Any = pyspiel.GameType.Utility.GENERAL_SUM,
) -> Any:
    return pyspiel.GameType(
        short_name=name,
        long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def _variant_type(name: str) -> Any:
    """The OpenSpiel game type of the registered game ``name``, read from its game's record."""
    game = VARIANTS[GAMES[name]]
    long = f"{game.title} (cheatrules)"
    return _game_type(name, long, game.min_players, game.max_players, _parameters(game))


def rules_from_parameters(game: str, parameters: dict[str, Any]) -> Rules:
    """The :class:`~cheatrules.Rules` a game's OpenSpiel parameters stand for.

    Args:
        game: ``"python_cheat"`` or ``"python_verish"`` (a name of ``GAMES``).
        parameters: the game's parameters (missing ones take their defaults);
            ``reward`` and ``max_steps`` are read by the game, not here.

    Raises:
        RulesError: an unknown game or parameter, or a value the rules refuse
            (the message says what is allowed).

    >>> rules_from_parameters("python_cheat", {"players": 3, "check": "one-card"}).check
    OneCard()

    """
    if game not in GAMES:
        raise RulesError(f"unknown game {game!r}; the games are {' and '.join(GAMES)}")
    record = VARIANTS[GAMES[game]]
    known = _parameters(record)
    unknown = sorted(set(parameters) - set(known))
    if unknown:
        raise RulesError(
            f"unknown parameter {', '.join(unknown)} for {game}; the parameters are "
            f"{', '.join(known)}"
        )
    values = {name: parameters.get(name, value) for name, value in known.items()}
    options: dict[str, Any] = {}
    for name in (*record.option_names, record.deck_alias):
        if values[name] != 0:
            options[name] = values[name]
    for name in POLICY_PARAMETERS:
        if values[name] != "default":
            options[name] = values[name]
    return record.build(values["players"], **options)


@attrs.frozen
class _Context:
    """What every state of one game shares: the rules, the numbering and the encoders."""

    rules: Rules
    space: ActionSpace
    observation: ObservationEncoder
    information: InformationStateEncoder
    max_steps: int
    reward: str  # a scheme of cheatrules.variants.REWARDS
    deck: tuple[int, ...]  # the key of every card of the deck, with copies, ascending
    check_draws: bool  # the check turns over a card drawn at random
    # Action strings already made, by index (OpenSpiel asks for them often).
    described: dict[int, str] = attrs.field(factory=dict, eq=False, repr=False)

    def describe(self, index: int) -> str:
        """``space.describe(index)``, made once per index."""
        text = self.described.get(index)
        if text is None:
            text = self.described[index] = self.space.describe(index)
        return text

    def __deepcopy__(self, memo: dict[int, Any]) -> _Context:
        return self  # shared by every state of the game; never changed


def _draws_on_check(rules: Rules) -> bool:
    """Whether the rules' check draws from chance (the one-card check does), for two cards."""
    cards = tuple(sorted({card.rank: card for card in rules.deck.cards()}.values()))[:2]
    return chance_chooses(rules.check, cards)


@attrs.frozen
class _Node:
    """One OpenSpiel state's value: immutable, so a clone shares it (and the game's log).

    Before the deal ends, ``game`` is ``None``, ``dealt`` holds the keys
    of the cards dealt so far, in order, and ``undealt`` the keys of the
    others, ascending (the order the deal's positions count in).
    ``pending`` is a challenge waiting for the chance node that draws the
    card its check turns over.
    """

    game: GameState | None
    dealt: tuple[int, ...] = ()
    undealt: tuple[int, ...] = ()
    pending: Challenge | None = None
    steps: int = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self


class CheatState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type hints
    """An OpenSpiel state over an immutable :class:`~cheatrules.GameState`.

    :attr:`game_state` is the library's state (``None`` while the deal is
    dealt). ``clone()`` shares it: OpenSpiel copies a Python state's
    attributes with ``copy.deepcopy``, and this state keeps one immutable
    value whose deep copy is itself.
    """

    def __init__(self, game: CheatGame, node: _Node | None = None) -> None:
        super().__init__(game)
        self._context: _Context = game.context
        self._node: _Node = node if node is not None else _Node(None, undealt=game.context.deck)

    # -- reading ---------------------------------------------------------------

    @property
    def game_state(self) -> GameState | None:
        """The library's game state (before a pending check's draw); ``None`` during the deal."""
        return self._node.game

    @property
    def steps(self) -> int:
        """The decisions taken so far (chance outcomes not counted)."""
        return self._node.steps

    def observation_of(self, player: int) -> Observation | None:
        """What seat ``player`` sees of :attr:`game_state`; ``None`` during the deal."""
        game = self._node.game
        return None if game is None else game.observe(player)

    def current_player(self) -> int:
        """The seat to decide, or OpenSpiel's chance or terminal player."""
        node = self._node
        game = node.game
        if game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if node.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = game.to_move
        assert seat is not None
        return seat

    def is_terminal(self) -> bool:
        """Whether the game is over, or cut short after ``max_steps`` decisions."""
        node = self._node
        game = node.game
        if game is None:
            return False
        return game.is_over or node.steps >= self._context.max_steps

    def returns(self) -> list[float]:
        """Each seat's reward: 0 until the end; cut short, by its standing at the cut.

        A finished game pays :func:`cheatrules.variants.rewards`; a game
        cut short at ``max_steps`` pays what the rules' ending would if the
        seats still in left in order of hand size, fewest cards first (seats
        with as many cards as each other share their places' pay). See the
        OpenSpiel guide.
        """
        game = self._node.game
        if game is None or not self.is_terminal():
            return [0.0] * self._context.rules.players
        return list(_adapters.cut_rewards(game, self._context.reward))

    def _legal_actions(self, player: int) -> list[int]:
        game = self._node.game
        assert game is not None
        # space.legal_indices(seen), read from the mask: quicker where hundreds of plays are legal.
        mask = self._context.space.mask_array(game.observe(player))
        indices: list[int] = numpy.flatnonzero(mask).tolist()
        return indices

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance outcomes, positions ``0`` to ``k - 1``, each with probability ``1 / k``.

        During the deal, position ``i`` deals the ``i``-th of the ``k``
        cards not yet dealt, counted in key order (every copy of the deck
        equally likely). At a check's draw, position ``i`` turns over the
        ``i``-th card of the challenged group of ``k`` cards. ``k`` is the
        number of cards left to deal, or the group's size: never a hidden
        card's identity.
        """
        count = self._chance_count()
        return [(position, 1.0 / count) for position in range(count)]

    def _chance_count(self) -> int:
        """How many outcomes this chance node has: cards left to deal, or the group's size."""
        node = self._node
        return len(node.undealt) if node.game is None else len(self._challenged())

    def _challenged(self) -> tuple[Card, ...]:
        """The cards of the group the pending challenge turns over a card of."""
        game = self._node.game
        assert game is not None and self._node.pending is not None
        groups = game.groups
        return groups[-2 if self._node.pending.earlier else -1][1]

    # -- moving on -----------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        node = self._node
        context = self._context
        if node.game is None or node.pending is not None:
            self._node = self._chance(node, action)
            return
        game = node.game
        seat = game.to_move
        assert seat is not None
        decided = context.space.decode(action, game.observe(seat))  # EncodingError if illegal
        if isinstance(decided, Challenge) and context.check_draws:
            # Every challenge draws, even from a group of one card or of copies of one card.
            self._node = _Node(game, pending=decided, steps=node.steps + 1)
            return
        self._node = _Node(game.apply(decided), steps=node.steps + 1)

    def _chance(self, node: _Node, action: int) -> _Node:
        count = self._chance_count()
        if not 0 <= action < count:
            drawn = "cards not yet dealt" if node.game is None else "cards of the challenged group"
            raise IllegalActionError(
                f"chance outcome {action!r} is not possible now; the outcomes are the positions "
                f"0 to {count - 1} of the {count} {drawn}"
            )
        if node.game is None:
            undealt = node.undealt
            dealt = (*node.dealt, undealt[action])
            undealt = undealt[:action] + undealt[action + 1 :]
            if undealt:
                return _Node(None, dealt=dealt, undealt=undealt)
            return _Node(_dealt(self._context.rules, dealt), dealt=dealt)
        game = node.game
        card = self._challenged()[action]
        scripted = attrs.evolve(game, draws=(*game.draws, (len(game.events), card)))
        assert node.pending is not None
        return _Node(scripted.apply(node.pending), steps=node.steps)

    def _action_to_string(self, player: int, action: int) -> str:
        if player != pyspiel.PlayerId.CHANCE:
            return self._context.describe(action)
        node = self._node
        if node.game is None and 0 <= action < len(node.undealt):
            card = CARD_BY_KEY[node.undealt[action]]
            return f"deal {card} {_destination(self._context.rules, len(node.dealt))}"
        if node.pending is not None and 0 <= action < len(group := self._challenged()):
            return f"turn over {group[action]}"
        return f"chance outcome {action}"

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> CheatState:
        """A state ``player_id`` cannot tell from this one, hidden cards placed at random.

        The game comes from :func:`cheatrules.sampling.sample` (during the
        deal: the cards others were dealt, shuffled), seeded by two draws of
        ``probability_sampler`` (OpenSpiel's samplers return a float in
        [0, 1)). The new state has the same information state for
        ``player_id``; it carries no OpenSpiel action history
        (``history()`` is empty), but the same :attr:`steps`.

        Raises:
            SamplingTimeoutError: no game found in :data:`RESAMPLE_SECONDS`
                (with the ``cheatrules[solver]`` extra, a view that takes so
                long is rare; see the seat-view guide).

        """
        seed = int(probability_sampler() * 2**26) << 26 | int(probability_sampler() * 2**26)
        rng = random.Random(seed)
        node = self._node
        if node.game is None:
            dealt = self._redealt(player_id, rng)
            undealt = Counter(self._context.deck)
            undealt.subtract(dealt)
            resampled = _Node(None, dealt=dealt, undealt=tuple(sorted(undealt.elements())))
        else:
            game = sample(node.game.observe(player_id), rng, timeout=RESAMPLE_SECONDS)
            resampled = attrs.evolve(node, game=game)
        return CheatState(self.get_game(), resampled)

    def _redealt(self, player: int, rng: random.Random) -> tuple[int, ...]:
        """The deal so far with every card ``player`` was not dealt shuffled among the others."""
        rules = self._context.rules
        dealt = self._node.dealt
        mine = [
            position
            for position in range(len(dealt))
            if _destination(rules, position) == f"to seat {player}"
        ]
        unseen = Counter(self._context.deck)
        unseen.subtract(dealt[position] for position in mine)
        pool = list(unseen.elements())
        rng.shuffle(pool)
        others = iter(pool)
        kept = set(mine)
        return tuple(dealt[p] if p in kept else next(others) for p in range(len(dealt)))

    def __str__(self) -> str:
        node = self._node
        if node.game is None:
            return f"dealing: {len(node.dealt)} of {len(self._context.deck)} cards dealt"
        hands = " | ".join(
            " ".join(_CARD_TEXT[card.key] for card in hand) for hand in node.game.hands
        )
        text = f"{node.game!r}\nhands: {hands}\nsteps: {node.steps}"
        if node.pending is not None:
            text += f"\ndrawing the card a challenge by seat {node.game.to_move} turns over"
        return text


#: The text of each card, by key (``str(card)`` formats its rank and suit each time).
_CARD_TEXT = {key: str(card) for key, card in CARD_BY_KEY.items()}


def _destination(rules: Rules, position: int) -> str:
    """Where the card dealt ``position``-th goes: set aside, to a seat, or to the stock."""
    aside = rules.dealing.set_aside
    if position < aside:
        return "face down, set aside"
    position -= aside
    size = rules.dealing.hand_size
    players = rules.players
    if size is not None and position >= size * players:
        return "to the stock"
    return f"to seat {position % players}"  # the dealer is the last seat


def _dealt(rules: Rules, keys: Sequence[int]) -> GameState:
    """The game the cards dealt in this order start: set aside, dealt round, then the stock."""
    aside = rules.dealing.set_aside
    players = rules.players
    cards = [CARD_BY_KEY[key] for key in keys]
    hidden, rest = cards[:aside], cards[aside:]
    size = rules.dealing.hand_size
    stock: list[Card] = []
    if size is not None:
        rest, stock = rest[: size * players], rest[size * players :]
    hands = [rest[seat::players] for seat in range(players)]
    return deal(rules, hands=hands, hidden=hidden or None, stock=stock or None)


class CheatGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """``python_cheat`` or ``python_verish``: the OpenSpiel game for a set of parameters.

    Made by ``pyspiel.load_game``; :attr:`rules` are the rules played.

    Returns at the end are :func:`cheatrules.variants.rewards` for the
    ``reward`` parameter (``"win-loss"`` or ``"placing"``, as in the
    PettingZoo and Gymnasium adapters); a game cut short at ``max_steps``
    pays each seat by its standing at the cut (:meth:`CheatState.returns`).

    Raises:
        RulesError: a parameter the rules refuse, ``reward`` other than
            ``"win-loss"`` or ``"placing"``, or ``max_steps`` below 1.

    """

    _TYPE = _variant_type("python_cheat")

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game_type = self._TYPE
        usual = VARIANTS[GAMES[game_type.short_name]].rewards[0]
        reward = reward_scheme(params.pop("reward", usual))
        max_steps = _adapters.max_steps(params.pop("max_steps", DEFAULT_MAX_STEPS), optional=False)
        assert max_steps is not None  # not optional
        rules = rules_from_parameters(game_type.short_name, params)
        placing = reward == "placing"
        deck = tuple(sorted(card.key for card in rules.deck.cards()))
        self.context = _Context(
            rules,
            ActionSpace(rules),
            ObservationEncoder(rules),
            InformationStateEncoder(rules),
            max_steps,
            reward,
            deck,
            _draws_on_check(rules),
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=self.context.space.size,
            max_chance_outcomes=len(deck),
            num_players=rules.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if placing else None,
            max_game_length=max_steps,
        )
        if placing:  # the rewards of every ending, and of a game cut short, sum to 0
            game_type = _game_type(
                game_type.short_name,
                game_type.long_name,
                game_type.min_num_players,
                game_type.max_num_players,
                game_type.parameter_specification,
                pyspiel.GameType.Utility.ZERO_SUM,
            )
        super().__init__(game_type, info, {**params, "reward": reward, "max_steps": max_steps})

    @property
    def rules(self) -> Rules:
        """The rules this game plays."""
        return self.context.rules

    @property
    def action_space(self) -> ActionSpace:
        """The numbering of the actions (OpenSpiel's action ``i`` is this space's index ``i``)."""
        return self.context.space

    def new_initial_state(self) -> CheatState:
        """The state before the deal: a chance node that deals the first card."""
        return CheatState(self)

    def deal_outcomes(self, state: GameState) -> list[int]:
        """The chance outcomes that deal ``state``'s cards from :meth:`new_initial_state`, in order.

        Each is a position among the cards not yet dealt, in key order: the
        cards set aside, then the hands round from seat 0, then the stock,
        as the game deals them.

        >>> import cheatrules as cr
        >>> game = pyspiel.load_game("python_cheat(players=3)")
        >>> state = game.new_initial_state()
        >>> for outcome in game.deal_outcomes(cr.deal(cr.english(3), seed=1)):
        ...     state.apply_action(outcome)
        >>> state.game_state.hands == cr.deal(cr.english(3), seed=1).hands
        True

        Raises:
            RulesError: ``state`` plays other rules, was dealt by another
                seat than the last, or holds a deal the game cannot deal
                (hands not dealt round one card at a time, or not the whole deck).

        """
        rules = self.rules
        if state.rules != rules:
            raise RulesError("deal_outcomes: the state plays other rules than this game")
        dealt = state.events[0]
        assert isinstance(dealt, Dealt)
        players = rules.players
        total = sum(dealt.hand_sizes)
        round_sizes = [total // players + (seat < total % players) for seat in range(players)]
        if state.dealer != players - 1 or list(dealt.hand_sizes) != round_sizes:
            raise RulesError(
                "deal_outcomes: the game deals one card at a time round from seat 0, the "
                f"last seat ({players - 1}) dealing; this deal was dealt by seat "
                f"{state.dealer} with hands of {', '.join(map(str, dealt.hand_sizes))} cards"
            )
        cards = [*dealt.set_aside]
        cards += [dealt.hands[position % players][position // players] for position in range(total)]
        cards += dealt.stock
        undealt = list(self.context.deck)
        if sorted(card.key for card in cards) != undealt:
            raise RulesError(
                f"deal_outcomes: the game deals the whole deck of {len(undealt)} cards; "
                f"this deal holds {len(cards)}"
            )
        outcomes = []
        for card in cards:
            position = undealt.index(card.key)
            outcomes.append(position)
            del undealt[position]
        return outcomes

    def max_chance_nodes_in_history(self) -> int:
        """The deal's cards, and at most one draw per decision."""
        return len(self.context.deck) + self.context.max_steps

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        """The observer OpenSpiel asks for tensors and strings (see :class:`Observer`)."""
        return Observer(self.context, iig_obs_type, params)


class VerishGame(CheatGame):
    """``python_verish``: Verish' Ne Verish' (see :class:`CheatGame`)."""

    _TYPE = _variant_type("python_verish")


class Observer:
    """OpenSpiel's observer: a seat's view as a tensor and a string.

    With perfect recall (the information state), the tensor is
    :class:`~cheatrules.information_state.InformationStateEncoder`'s vector
    (a summary of the seat's history) and the string is exact: the seat's
    view (``str(observation)``), then every field of the observation, its
    log one event a line with the cards the seat saw, so two states give
    the same string exactly when the seat's views are equal. Without (the
    observation), the tensor is :class:`~cheatrules.encoding.ObservationEncoder`'s
    vector and the string ``str(observation)``, a summary of the view
    alone. ``dict`` holds the encoder's sections by name. Before the deal
    ends the tensor is zeros and the string lists the cards the seat was
    dealt so far, in order.

    Raises:
        RulesError: ``params`` given, or an observation type other than a
            seat's own view of the public and its private information.

    """

    def __init__(self, context: _Context, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise RulesError(f"the observer takes no parameters; got {params!r}")
        recall = False
        if iig_obs_type is not None:
            if (
                not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            ):
                raise RulesError(
                    "the observer gives a seat's own view (public information and its own "
                    f"private information); got {iig_obs_type!r}"
                )
            recall = bool(iig_obs_type.perfect_recall)
        self._context = context
        self._recall = recall
        encoder = context.information if recall else context.observation
        self._encode = encoder.encode
        self.tensor = numpy.zeros(encoder.size, numpy.float32)
        self.dict = {
            name: self.tensor[start : start + length] for name, start, length in encoder.layout
        }

    def set_from(self, state: CheatState, player: int) -> None:
        """Write ``player``'s view of ``state`` into ``tensor``."""
        seen = state.observation_of(player)
        if seen is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self._encode(seen)

    def string_from(self, state: CheatState, player: int) -> str:
        """``player``'s view of ``state`` as text (with its log, under perfect recall)."""
        node = state._node
        rules = self._context.rules
        if node.game is None:
            mine = " ".join(
                str(CARD_BY_KEY[key])
                for position, key in enumerate(node.dealt)
                if _destination(rules, position) == f"to seat {player}"
            )
            return f"seat {player}: dealing, {len(node.dealt)} cards dealt; mine: {mine}"
        seen = node.game.observe(player)
        text = view_text(seen) if self._recall else str(seen)
        if node.pending is not None:
            text += f"\nseat {node.game.to_move} challenges: a card is drawn"
        return text


def _register() -> None:
    """Register every game of :data:`GAMES`: a game with no class of its own plays as CheatGame."""
    classes = {cls._TYPE.short_name: cls for cls in (CheatGame, VerishGame)}
    for name in GAMES:
        game_class = classes.get(name) or _game_class(name)
        pyspiel.register_game(game_class._TYPE, game_class)


def _game_class(name: str) -> type[CheatGame]:
    """A CheatGame playing the registered game ``name``, for a game with no class of its own."""

    class Game(CheatGame):
        _TYPE = _variant_type(name)

    return Game


_register()
