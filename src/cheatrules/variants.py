"""The games the library names, and what a game pays each seat.

One table, :data:`VARIANTS`, names the games: English Cheat (``"english"``,
also ``"cheat"``) and Verish' Ne Verish' (``"verish"``). Each is a
:class:`Variant` record holding every fact about its game: its title and
challenge call (in every language, through the catalogs), its player range,
the decks its ``deck=`` option names, its other house options and their
meanings, its own choice in every family of policies, and its reward
schemes. The factories :func:`~cheatrules.english` and
:func:`~cheatrules.verish` build their rules from it; records, the command
line, the web table and the PettingZoo, Gymnasium and OpenSpiel adapters
read it. (The records are defined beside :class:`~cheatrules.Rules` in
``cheatrules.rules``, which builds from them, and named here.)

:func:`rules_for` builds rules from a game's name, a player count and house
options. :func:`rewards` gives each seat's reward under one of the
:data:`REWARDS` schemes, as the adapters pay them.

>>> import cheatrules as cr
>>> rules_for("verish", 3, check="one-card") == cr.verish(3, check="one-card")
True
>>> challenge_call(rules_for("verish")), variant("cheat").title
("I don't believe!", 'English Cheat')
>>> [(game.name, game.min_players, game.max_players) for game in VARIANTS.values()]
[('english', 3, 10), ('verish', 2, 6)]
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from cheatrules import rules as _rules
from cheatrules.errors import N_, RulesError, either
from cheatrules.rules import DeckChoice, HouseOption, Rules, Variant

if TYPE_CHECKING:
    from cheatrules.state import GameState

__all__ = [
    "REWARDS",
    "VARIANTS",
    "DeckChoice",
    "HouseOption",
    "Variant",
    "challenge_call",
    "payouts",
    "reward_scheme",
    "rewards",
    "rules_for",
    "variant",
]


#: The games the library names, English Cheat and Verish' Ne Verish', by name, one
#: :class:`Variant` record each, which the factories build from.
VARIANTS: dict[str, Variant] = _rules.VARIANTS

#: The reward schemes :func:`rewards` knows, ``"win-loss"`` (the default) and ``"placing"``.
REWARDS: tuple[str, ...] = _rules.REWARDS


def _names() -> str:
    spelled = [
        f"'{game.name}'" + "".join(f" (or '{alias}')" for alias in game.aliases)
        for game in VARIANTS.values()
    ]
    return ", ".join(spelled[:-1]) + f" and {spelled[-1]}"


def variant(name: str) -> Variant:
    """The game named ``name`` (or one of its aliases).

    Raises:
        RulesError: no game has that name; the message names the games.

    """
    if isinstance(name, str):
        for game in VARIANTS.values():
            if name == game.name or name in game.aliases:
                return game
    raise RulesError(
        N_("unknown game %(name)s; the games are %(games)s"), name=repr(name), games=_names()
    )


def rules_for(game: str | Rules = "english", players: int | None = None, **options: Any) -> Rules:
    """The rules of the game named ``game`` for ``players`` seats, with house options.

    Args:
        game: a name of :data:`VARIANTS` (``"english"``, ``"cheat"``,
            ``"verish"``), or a complete :class:`~cheatrules.Rules` value,
            returned as it is (then no ``players`` nor options).
        players: the number of seats; ``None`` for the game's default (4).
        options: house options for the game's function
            (:func:`~cheatrules.english` or :func:`~cheatrules.verish`).

    Raises:
        RulesError: an unknown game (the message names the games), a
            player count or house option the game refuses, or a Rules value
            with players or options.

    """
    if isinstance(game, Rules):
        if players is not None or options:
            raise RulesError(
                N_(
                    "a Rules value is complete: pass either the Rules alone, or a game name "
                    "with players and house options"
                )
            )
        return game
    return variant(game).build(players, **options)


def challenge_call(rules: Rules, *, language: str = "en") -> str:
    """What a challenger calls out in the game these rules are named after, in ``language``.

    ``"Cheat!"`` (in ``language``) for rules of no named game (``Rules.name``
    not in :data:`VARIANTS`). Pass it to :func:`cheatrules.narration.narrate`.

    >>> import cheatrules as cr
    >>> challenge_call(cr.english(3)), challenge_call(cr.verish(3))
    ('Cheat!', "I don't believe!")
    >>> challenge_call(cr.verish(3), language="ru")
    'Не верю!'

    Raises:
        RulesError: a language the library does not speak.

    """
    return VARIANTS.get(rules.name, VARIANTS["english"]).call_in(language)


def asks_belief(rules: Rules) -> bool:
    """Whether the game these rules are named after asks "do you believe it?" of a claim.

    There "yes" lets a claim stand and "no" calls it; in Cheat, and for rules
    of no named game, the question is "Cheat?", where "yes" calls.

    >>> import cheatrules as cr
    >>> asks_belief(cr.english(3)), asks_belief(cr.verish(3))
    (False, True)
    """
    return VARIANTS.get(rules.name, VARIANTS["english"]).believing


def reward_scheme(scheme: object) -> str:
    """``scheme``, checked to be one of :data:`REWARDS`.

    Raises:
        RulesError: any other value; the message names the schemes.

    """
    if scheme not in REWARDS:
        raise RulesError(
            N_("unknown reward %(scheme)s; the rewards are %(schemes)s"),
            scheme=repr(scheme),
            schemes=either(map(repr, REWARDS), "and"),
        )
    return str(scheme)


# The kind of number payouts() pays in: exact fractions, or floats.
_Number = TypeVar("_Number", Fraction, float)


def payouts(
    players: int,
    order: tuple[int, ...],
    winners: tuple[int, ...],
    losers: tuple[int, ...],
    scheme: str,
    number: Callable[[int], _Number],
) -> tuple[_Number, ...]:
    """What ``scheme`` pays each seat of a game over: the one table of rewards.

    ``order`` is the seats in the order they left, ``winners`` and
    ``losers`` the ending's result. ``"win-loss"``: +1 each winner, -1 each
    loser, 0 any other seat. ``"placing"``: the seats in ``order`` take
    places 0, 1, ..., place ``k`` of ``P`` worth ``1 - 2k/(P-1)``, and the
    seats still in share the places left, each getting their mean.
    ``number`` is the kind of number to pay in: ``float`` (as :func:`rewards`
    pays) or ``Fraction`` (exact, as the adapters share the places of a game
    cut short).

    >>> [str(paid) for paid in payouts(4, (2, 0), (2,), (1, 3), "placing", Fraction)]
    ['1/3', '-2/3', '1', '-2/3']

    Raises:
        RulesError: ``scheme`` is not one of :data:`REWARDS`.

    """
    scheme = reward_scheme(scheme)
    paid = [number(0)] * players
    if scheme == "win-loss":
        for seat in winners:
            paid[seat] = number(1)
        for seat in losers:
            paid[seat] = number(-1)
        return tuple(paid)
    worth = [1 - number(2 * place) / (players - 1) for place in range(players)]
    for place, seat in enumerate(order):
        paid[seat] = worth[place]
    rest = [seat for seat in range(players) if seat not in order]
    for seat in rest:
        paid[seat] = sum(worth[len(order) :], number(0)) / len(rest)
    return tuple(paid)


def rewards(state: GameState, scheme: str = "win-loss") -> tuple[float, ...]:
    """Each seat's reward for the game so far: 0 for a seat whose result is still open.

    ``"win-loss"``: once the game is over, +1 for each winner and -1 for
    each loser (0 for a seat that is neither, which no ending the library
    ships has); before, +1 for each seat that has left (both endings the
    library ships count every seat that leaves among the winners).
    Over a finished game they sum to ``len(winners) - len(losers)``:
    ``2 - P`` in English Cheat (one winner), ``P - 2`` in Verish' Ne
    Verish' (one loser).

    ``"placing"``: the seats that left take places 0, 1, ... in the order
    they left, place ``k`` of ``P`` worth ``1 - 2k/(P-1)`` (+1 first, -1
    last), at once; once the game is over, the seats still in share the
    places left, each getting their mean. Over a finished game they sum to
    0, whatever the ending: in a game that ends at the first seat out the
    winner gets +1 and every other seat ``-1/(P-1)``.

    Both are read from ``payouts``, in floats.

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["7♣", "A♠ 2♥", "A♥ 9♣"], dealer=2)
    >>> state = state.apply(cr.Play("7♣", "A")).apply(cr.Accept()).apply(cr.Accept())
    >>> rewards(state), rewards(state, "placing")
    ((1.0, -1.0, -1.0), (1.0, -0.5, -0.5))

    Raises:
        RulesError: ``scheme`` is not one of :data:`REWARDS`.

    """
    order = state.finishing_order
    outcome = state.outcome if state.is_over else None
    if outcome is not None:
        return payouts(state.players, order, outcome.winners, outcome.losers, scheme, float)
    # Before the end only the seats that left are paid, each as it will be at the end.
    paid = payouts(state.players, order, order, (), scheme, float)
    return tuple(paid[seat] if seat in order else 0.0 for seat in range(state.players))
