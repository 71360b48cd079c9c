"""The games the library names, and what a game pays each seat.

One table, :data:`VARIANTS`, names the games: English Cheat (``"english"``,
also ``"cheat"``) and Verish' Ne Verish' (``"verish"``), each with the
function that builds its rules, its title and the call a challenger makes.
:func:`rules_for` builds rules from a game's name, a player count and house
options; the command line and the PettingZoo, Gymnasium and OpenSpiel
adapters all read games through it. :func:`rewards` gives each seat's
reward under one of the :data:`REWARDS` schemes, as the adapters pay them.

>>> rules_for("verish", 3, check="one-card") == verish(3, check="one-card")
True
>>> challenge_call(rules_for("verish")), variant("cheat").title
("I don't believe!", 'English Cheat')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from cheatrules._i18n import N_, translations
from cheatrules.errors import RulesError
from cheatrules.rules import Rules, english, verish
from cheatrules.state import GameState

__all__ = [
    "REWARDS",
    "VARIANTS",
    "Variant",
    "challenge_call",
    "reward_scheme",
    "rewards",
    "rules_for",
    "variant",
]


@attrs.frozen
class Variant:
    """A game the library names: how to build its rules, and what people call it."""

    #: The game's name, as ``Rules.name`` holds it (``"english"``, ``"verish"``).
    name: str
    #: The game's title for people, such as ``"English Cheat"``.
    title: str
    #: What a challenger calls out, such as ``"Cheat!"``.
    call: str
    #: The function that builds the game's rules, ``build(players, **options)``.
    build: Callable[..., Rules]
    #: Other names the game answers to (``"cheat"`` for English Cheat).
    aliases: tuple[str, ...] = ()

    def title_in(self, language: str) -> str:
        """The game's title in ``language`` (``"en"``, ``"pt"``, ``"es"``, ``"fr"``, ``"ru"``).

        >>> variant("verish").title_in("ru"), variant("english").title_in("fr")
        ('Веришь не веришь', 'Cheat anglais')

        Raises:
            RulesError: a language the library does not speak.

        """
        return translations(language).gettext(self.title)

    def call_in(self, language: str) -> str:
        """What a challenger calls out in this game, in ``language``.

        >>> variant("verish").call_in("pt"), variant("english").call_in("fr")
        ('Não acredito!', 'Cheat !')

        Raises:
            RulesError: a language the library does not speak.

        """
        return translations(language).gettext(self.call)


#: The games the library names (English Cheat and Verish' Ne Verish'), by name.
VARIANTS: dict[str, Variant] = {
    "english": Variant("english", N_("English Cheat"), N_("Cheat!"), english, ("cheat",)),
    "verish": Variant("verish", N_("Verish' Ne Verish'"), N_("I don't believe!"), verish),
}


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
    build = variant(game).build
    return build(**options) if players is None else build(players, **options)


def challenge_call(rules: Rules, *, language: str = "en") -> str:
    """What a challenger calls out in the game these rules are named after, in ``language``.

    ``"Cheat!"`` (in ``language``) for rules of no named game (``Rules.name``
    not in :data:`VARIANTS`). Pass it to :func:`cheatrules.narration.narrate`.

    >>> challenge_call(english(3)), challenge_call(verish(3))
    ('Cheat!', "I don't believe!")
    >>> challenge_call(verish(3), language="ru")
    'Не верю!'

    Raises:
        RulesError: a language the library does not speak.

    """
    return VARIANTS.get(rules.name, VARIANTS["english"]).call_in(language)


#: The reward schemes :func:`rewards` knows: ``"win-loss"`` (the default) and ``"placing"``.
REWARDS = ("win-loss", "placing")


def reward_scheme(scheme: object) -> str:
    """``scheme``, checked to be one of :data:`REWARDS`.

    Raises:
        RulesError: any other value; the message names the schemes.

    """
    if scheme not in REWARDS:
        raise RulesError(
            N_("unknown reward %(scheme)s; the rewards are 'win-loss' and 'placing'"),
            scheme=repr(scheme),
        )
    return str(scheme)


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

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["7♣", "A♠ 2♥", "A♥ 9♣"], dealer=2)
    >>> state = state.apply(cr.Play("7♣", "A")).apply(cr.Accept()).apply(cr.Accept())
    >>> rewards(state), rewards(state, "placing")
    ((1.0, -1.0, -1.0), (1.0, -0.5, -0.5))

    Raises:
        RulesError: ``scheme`` is not one of :data:`REWARDS`.

    """
    scheme = reward_scheme(scheme)
    players = state.players
    found = [0.0] * players
    order = state.finishing_order
    outcome = state.outcome if state.is_over else None
    if scheme == "win-loss":
        if outcome is None:
            for seat in order:
                found[seat] = 1.0
        else:
            for seat in outcome.winners:
                found[seat] = 1.0
            for seat in outcome.losers:
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
