"""Reading the command's options: house rules, bots and match scorings, in the user's words.

Every house rule the command line offers is read from the games' records
(:data:`cheatrules.variants.VARIANTS`): each game's options (``deck``,
``jokers``, ``stock``) and decks, and the named policies of every family
(:data:`cheatrules.policies.families.FAMILIES`), each with its meaning, a
message of the catalogs. An option added there appears in ``cheatrules
rules`` without a change here.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import os
import re
import sys
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from gettext import GNUTranslations

from cheatrules._i18n import LANGUAGES, check_language, translations
from cheatrules.bots import Agent, CountingBot, HonestBot, RandomBot, SamplingBot, as_agent
from cheatrules.errors import CheatRulesError, RulesError
from cheatrules.match import BestOf, FewestLosses, FirstTo, Penalty, Scoring
from cheatrules.policies.families import Family
from cheatrules.rules import Rules
from cheatrules.variants import VARIANTS as GAMES
from cheatrules.variants import Variant

from ._screen import WIDTH

#: The games the command line offers, each with its rules, name, and challenge call
#: (read from :data:`cheatrules.variants.VARIANTS`).
VARIANTS: dict[str, tuple[Callable[..., Rules], str, str]] = {
    name: (game.build, game.title, game.call) for name, game in GAMES.items()
}

#: The bots the command line can seat, by name.
BOTS: dict[str, Callable[[], Agent]] = {
    "random": RandomBot,
    "honest": HonestBot,
    "counting": CountingBot,
    "sampling": SamplingBot,
}

#: The match scorings ``--match NAME=N`` offers: each takes one whole number.
SCORINGS: dict[str, Callable[[int], Scoring]] = {
    "first-to": FirstTo,
    "best-of": BestOf,
    "penalty": Penalty,
    "fewest-losses": FewestLosses,
}


# -- house rules ---------------------------------------------------------------------------


def _sentence(words: str) -> str:
    """A few words (``"two packs"``, in any language) as a sentence: a capital and a stop."""
    return f"{words[:1].upper()}{words[1:]}."


def variant_help() -> str:
    """The games ``--variant`` takes, each with its title and player range, for ``--help``.

    >>> variant_help()
    "english (English Cheat, 3-10 players) or verish (Verish' Ne Verish', 2-6 players)"
    """
    spelled = [
        f"{game.name} ({game.title}, {game.min_players}-{game.max_players} players)"
        for game in GAMES.values()
    ]
    return ", ".join(spelled[:-1]) + f" or {spelled[-1]}" if len(spelled) > 1 else spelled[0]


def meanings(variant: str) -> list[str]:
    """The English meanings :func:`listing` shows for ``variant``, as message ids of the catalogs.

    The game's options, its decks, each family's summary and each named
    policy's meaning, all read from the game's record, so ``rules --lang``
    says each in the language.

    >>> meanings("verish")[1:3]
    ['the short pack (6 to Ace)', 'the full pack']
    """
    game = GAMES[variant]
    found = [game.options[0].meaning, *(choice.meaning for choice in game.decks)]
    found.extend(option.meaning for option in game.options[1:])
    for family in game.families:
        found.append(family.summary)
        found.extend(choice.meaning for choice in family.choices)
    return found


def _choices(family: Family) -> str:
    spelled = [f"--with {family.name}={name}" for name in family.names]
    return ", ".join(spelled[:-1]) + f" or {spelled[-1]}" if len(spelled) > 1 else spelled[0]


def _deck_lines(game: Variant, catalog: GNUTranslations) -> list[tuple[str, str]]:
    """Each deck of ``game`` as ``--with deck=N`` with its default mark, and what it is."""
    found = []
    for choice in game.decks:
        mark = catalog.gettext("(the default for %(fewest)s to %(most)s players)")
        mark %= _span(choice.default_for)
        meaning = _sentence(catalog.gettext(choice.meaning))
        if choice.suits != (game.min_players, game.max_players):
            only = catalog.gettext("For %(fewest)s to %(most)s players only.")
            meaning += " " + only % _span(choice.suits)
        found.append((f"--with deck={choice.cards} {mark}", meaning))
    return found


def _span(players: tuple[int, int]) -> dict[str, int]:
    return {"fewest": players[0], "most": players[1]}


def listing(variant: str, language: str = "en") -> list[str]:
    """Every house rule of ``variant`` with its values and a one-line meaning, for a terminal.

    Read from the game's record (:class:`~cheatrules.variants.Variant`):
    the game is named, its player range given, and every word said in
    ``language`` through its catalog.
    """
    game = GAMES[variant]
    catalog = translations(language)
    say = catalog.gettext
    heading = catalog.gettext(
        "%(title)s (--variant %(name)s): house rules, given as --with NAME=VALUE"
    )
    players = catalog.gettext(
        "%(fewest)s to %(most)s players (--players N; %(usual)s by default)"
    ) % {
        **_span((game.min_players, game.max_players)),
        "usual": game.default_players,
    }
    lines = [heading % {"title": game.title_in(language), "name": variant}, f"  {players}", ""]

    def entry(option: str, meaning: str) -> None:
        lines.append(f"  {option}")
        lines.extend(
            textwrap.wrap(
                meaning,
                WIDTH,
                initial_indent=" " * 6,
                subsequent_indent=" " * 6,
                break_on_hyphens=False,  # never "per-" at one line's end and "pack" below
            )
        )

    def header(name: str, summary: str) -> None:
        lines.append("")
        lines.extend(textwrap.wrap(f"{name}: {say(summary)}", WIDTH, subsequent_indent="  "))

    for option in game.options[1:]:
        entry(f"--with {option.name}", say(option.meaning))
    header("deck", game.options[0].meaning)
    for spelled, meaning in _deck_lines(game, catalog):
        entry(spelled, meaning)
    for family in game.families:
        header(family.name, family.summary)
        usual = game.default(family.name)
        for choice in family.choices:
            default = " " + catalog.gettext("(the default)") if choice.name == usual else ""
            entry(f"--with {family.name}={choice.name}{default}", say(choice.meaning))
    return lines


def _value(raw: str, given: bool) -> object:
    if not given or raw.lower() in ("yes", "true", "on"):
        return True
    if raw.lower() in ("no", "false", "off"):
        return False
    if _digits(raw):
        return int(raw)
    return raw


def _digits(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits (``str.isdigit`` also takes ``²``)."""
    return text.isascii() and text.isdigit()


def _plain(message: str) -> str:
    """A library message in command-line words: yes and no for True and False, values unquoted."""
    message = re.sub(r"\bTrue\b", "yes", message)
    message = re.sub(r"\bFalse\b", "no", message)
    message = re.sub(r"\bgot '([^']*)'", r"got \1", message)
    return re.sub(r"\b(\w+)= ", r"\1 ", message)


def house_rules(variant: str, players: int, items: Sequence[str]) -> Rules:
    """The rules of ``variant`` for ``players`` with the ``--with`` house rules in ``items``.

    Raises:
        CheatRulesError: a player count the game does not take, or a house
            rule that is unknown, given twice, or given a value it does not
            take; the message names the ``--with NAME=VALUE`` at fault.

    """
    game = GAMES[variant]
    make_rules, title = game.build, game.title
    try:
        plain = make_rules(players)
    except CheatRulesError as error:
        raise CheatRulesError(f"--players {players}: {_plain(str(error))}") from None
    named = {family.name: family for family in game.families}
    known = [*game.option_names, *named]
    # The options the game takes by name: its own (and the deck's older spelling), and the
    # families with named policies (a family such as dealing= takes only a policy object).
    taken = {*known, game.deck_alias}
    options: dict[str, object] = {}
    spelled: dict[str, str] = {}
    for item in items:
        name, given, raw = item.partition("=")
        key = name.strip().lower().replace("-", "_")
        shown = f"--with {item}"
        if not key:
            raise CheatRulesError(f"{shown}: name a house rule, such as --with jokers")
        if key == "players":
            raise CheatRulesError(
                f"{shown}: the number of seats is not a house rule; give --players {raw or 'N'}"
            )
        if key in options:
            raise CheatRulesError(
                f"--with {name} given twice ({spelled[key]} and {shown}); give each house rule once"
            )
        value = _house_value(named.get(key), name, raw, bool(given), shown)
        try:
            make_rules(players, **{key: value})
        except CheatRulesError as error:
            if key not in taken:
                raise CheatRulesError(
                    f"unknown option {name} for {title}{suggestion(key, known)}; "
                    f"the options are {', '.join(known)} "
                    "(cheatrules rules lists them with their values)"
                ) from None
            raise CheatRulesError(f"{shown}: {_plain(str(error))}") from None
        options[key] = value
        spelled[key] = shown
    try:
        return make_rules(players, **options) if options else plain
    except CheatRulesError as error:
        raise CheatRulesError(f"{' '.join(spelled.values())}: {_plain(str(error))}") from None


def _house_value(family: Family | None, name: str, raw: str, given: bool, shown: str) -> object:
    """The value ``--with NAME=VALUE`` gives: a policy's name, checked, or a plain value."""
    if family is None:
        return _value(raw, given)
    if not raw:
        raise CheatRulesError(f"--with {name} needs a value: {_choices(family)}")
    if raw not in family.names:
        hint = suggestion(raw, family.names)
        raise CheatRulesError(f"{shown}: no such {family.name}{hint}; give {_choices(family)}")
    return raw


def house_rule_words(variant: str, players: int, items: Sequence[str]) -> list[str]:
    """The ``--with`` house rules in ``items`` that change the game, as ``rules`` names them.

    Each is ``NAME=VALUE`` (or ``NAME`` alone where given so), in the order
    given; one that gives the default (``window=immediate`` in Cheat, 52
    cards for four in Verish') is left out. Call it on items
    :func:`house_rules` has accepted.

    >>> house_rule_words("english", 4, ["window=extended", "ranks=ascending", "jokers"])
    ['window=extended', 'jokers']
    """
    game = GAMES[variant]
    make_rules = game.build
    named = {family.name for family in game.families}
    plain = make_rules(players)
    words = []
    for item in items:
        name, given, raw = item.partition("=")
        key = name.strip().lower().replace("-", "_")
        value = raw if key in named else _value(raw, bool(given))
        if make_rules(players, **{key: value}) != plain:
            words.append(f"{key}={raw.strip()}" if given else key)
    return words


# -- the language ---------------------------------------------------------------------------

#: The environment variables that name the user's locale, the first set one deciding.
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def environment_language(environ: Mapping[str, str]) -> str:
    """The language the environment's locale asks for, if the library speaks it, else ``"en"``.

    The first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set decides,
    as for other programs: ``pt_BR.UTF-8`` speaks ``"pt"``, ``ru_RU.UTF-8``
    ``"ru"``; ``C``, ``POSIX``, a language the library does not speak, or
    none set, English.

    >>> environment_language({"LANG": "pt_BR.UTF-8"}), environment_language({"LANG": "C.UTF-8"})
    ('pt', 'en')
    >>> environment_language({"LC_ALL": "ru_RU.UTF-8", "LANG": "fr_FR.UTF-8"})
    'ru'
    """
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "")
        if value:
            code = re.split(r"[_.@-]", value, maxsplit=1)[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


def language(given: str | None, environ: Mapping[str, str]) -> str:
    """The language ``--lang`` names if given, else the locale's (:func:`environment_language`).

    Raises:
        CheatRulesError: a ``--lang`` the library does not speak; the message names the languages.

    """
    if given is None:
        return environment_language(environ)
    try:
        return check_language(given)
    except RulesError as error:
        raise CheatRulesError(
            f"--lang {given}{suggestion(given.lower(), LANGUAGES)}: {error}"
        ) from None


# -- bots and scorings ---------------------------------------------------------------------


def suggestion(word: str, choices: Iterable[str]) -> str:
    """``" (did you mean X?)"`` for the choice closest to a mistyped ``word``; ``""`` if none is.

    >>> suggestion("wacth", ["watch", "play"]), suggestion("zzz", ["watch", "play"])
    (' (did you mean watch?)', '')
    """
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


#: How ``--bots`` names a bot of one's own: an importable module, a colon, a name in it.
BOT_SPEC = "MODULE:NAME"


def lineup(names: str | None, players: int, skip: int | None = None) -> list[Agent]:
    """The bots named in ``names`` (comma-separated), one per seat but ``skip``.

    A name is one of :data:`BOTS`, or ``MODULE:NAME`` for a bot of one's own
    (:func:`load_bot`). By default a counting bot, an honest bot, and random
    bots in the other seats.

    Raises:
        CheatRulesError: an unknown bot, a bot that will not load, or a
            count of bots that is neither one nor one per seat.

    """
    seats = players - (skip is not None)
    if names is None:
        names = ",".join(["counting", "honest", *["random"] * seats][:seats])
    wanted = [_bot_name(name) for name in names.split(",") if name.strip()]
    unknown = [name for name in dict.fromkeys(wanted) if name not in BOTS and ":" not in name]
    if unknown:
        raise CheatRulesError(
            f"unknown bot {', '.join(unknown)}{suggestion(unknown[0], BOTS)}; "
            f"the bots are {', '.join(BOTS)}, or {BOT_SPEC} for a bot of your own "
            "(such as --bots mybots:MyBot,counting,random)"
        )
    if len(wanted) == 1:
        wanted *= seats
    if len(wanted) != seats:
        raise CheatRulesError(
            f"--bots names {len(wanted)} bots; give one, or one per seat ({seats}), "
            "such as --bots counting,random,random"
        )
    makers = {name: BOTS[name] if name in BOTS else load_bot(name) for name in set(wanted)}
    return [makers[name]() for name in wanted]


def _bot_name(text: str) -> str:
    """A built-in bot's name in lower case; ``MODULE:NAME`` as written (Python names have case)."""
    text = text.strip()
    return text if ":" in text else text.lower()


def load_bot(spec: str) -> Callable[[], Agent]:
    """What makes the bot ``spec`` names, ``MODULE:NAME``, for each seat it takes.

    The module is imported as ``python -m`` would find it (the current
    directory first, then the installed packages); ``NAME`` (dotted for an
    attribute of an attribute) is a bot class, a function with no arguments
    that returns a bot (a factory), a bot object itself, or a function
    ``(observation, rng) -> Action`` (seated as a
    :class:`~cheatrules.bots.FunctionBot`). A class or factory makes a bot
    for each seat.

    Raises:
        CheatRulesError: the module does not import, has no ``NAME``, or
            ``NAME`` is not a bot; the message says which, and what a bot is.

    """
    module_name, _, attribute = spec.partition(":")
    where = f"--bots {spec}"
    if not module_name or not attribute:
        raise CheatRulesError(
            f"{where}: give a module and a name in it, such as --bots mybots:MyBot"
        )
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())  # as python -m does: the current directory first
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name is not None and module_name.startswith(error.name):
            raise CheatRulesError(
                f"{where}: no module named {error.name} (looked in the current directory "
                "and the installed packages)"
            ) from None
        raise CheatRulesError(f"{where}: importing {module_name} failed: {error}") from None
    except Exception as error:  # the module's own code failed: say how
        raise CheatRulesError(
            f"{where}: importing {module_name} failed: {type(error).__name__}: {error}"
        ) from None
    found: object = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            names = [name for name in vars(module) if not name.startswith("_")]
            raise CheatRulesError(
                f"{where}: {module_name} has no {attribute}{suggestion(part, names)}"
            )
        found = getattr(found, part)
    return _bot_maker(found, where)


_WHAT_A_BOT_IS = (
    "a bot is a class whose instances have act(observation, rng), a factory returning one, "
    "or a function (observation, rng) -> Action"
)


def _bot_maker(found: object, where: str) -> Callable[[], Agent]:
    """How to make the bot ``found`` is: build a class or call a factory, else take it as it is."""
    if isinstance(found, type):
        if not callable(getattr(found, "act", None)):
            raise CheatRulesError(f"{where}: {found.__name__} has no act method; {_WHAT_A_BOT_IS}")
        _made(found, where)  # built once now, so that a bad class is told before any game
        return lambda: _made(found, where)
    if callable(getattr(found, "act", None)):
        return lambda: found  # type: ignore[return-value]
    if not callable(found):
        raise CheatRulesError(f"{where}: {found!r} is not a bot; {_WHAT_A_BOT_IS}")
    required = _required_arguments(found)
    if required == 0:
        _made(found, where)
        return lambda: _made(found, where)
    if required == 2:
        agent = as_agent(found)
        return lambda: agent
    raise CheatRulesError(
        f"{where}: {getattr(found, '__name__', found)} takes {required} arguments; {_WHAT_A_BOT_IS}"
    )


def _required_arguments(function: Callable[..., object]) -> int | None:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    return sum(
        1
        for parameter in signature.parameters.values()
        if parameter.default is parameter.empty
        and parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)
    )


def _made(make: Callable[[], object], where: str) -> Agent:
    """A bot from a class or factory; its failure, or a result that is no bot, told plainly."""
    name = getattr(make, "__name__", repr(make))
    try:
        made = make()
    except Exception as error:
        raise CheatRulesError(
            f"{where}: {name}() failed: {type(error).__name__}: {error}; "
            "a bot class or factory is called with no arguments"
        ) from None
    if isinstance(made, type) or not callable(getattr(made, "act", None)):
        raise CheatRulesError(f"{where}: {name}() gave {made!r}, not a bot; {_WHAT_A_BOT_IS}")
    return made  # type: ignore[return-value]


def _scorings() -> str:
    return ", ".join(f"{name}=N" for name in SCORINGS)


def scoring(text: str) -> Scoring:
    """The match scoring ``--match`` names, such as ``first-to=3``.

    Raises:
        CheatRulesError: an unknown scoring, or a number it does not take.

    """
    name, _, raw = text.partition("=")
    key = name.strip().lower()
    if key not in SCORINGS:
        raise CheatRulesError(
            f"--match {text}: no such scoring{suggestion(key, SCORINGS)}; "
            f"the scorings are {_scorings()}"
        )
    if not _digits(raw.strip()):
        raise CheatRulesError(
            f"--match {text}: give a number of 1 or more, such as --match {key}=3"
        )
    try:
        return SCORINGS[key](int(raw))
    except CheatRulesError:
        raise CheatRulesError(
            f"--match {text}: give a number of 1 or more, such as --match {key}=3"
        ) from None


def describe_scoring(chosen: Scoring, language: str = "en") -> str:
    """One line for people: what the scoring does, its settings filled in, in ``language``.

    The library's scorings are told through the catalogs; any other scoring
    by its ``repr`` (its class and settings).

    >>> describe_scoring(FirstTo(3))
    'The first seat to win 3 games takes the match.'
    >>> describe_scoring(FirstTo(3), "fr")
    'Le premier joueur à gagner 3 parties remporte le match.'
    """
    catalog = translations(language)
    match chosen:
        case FirstTo(wins=wins):
            return catalog.ngettext(
                "The first seat to win %(wins)s game takes the match.",
                "The first seat to win %(wins)s games takes the match.",
                wins,
            ) % {"wins": wins}
        case BestOf(games=games):
            return catalog.ngettext(
                "At most %(games)s game; the most game wins takes the match.",
                "At most %(games)s games; the most game wins takes the match.",
                games,
            ) % {"games": games}
        case Penalty(games=games):
            return catalog.ngettext(
                "%(games)s game; the lowest penalty total takes the match.",
                "%(games)s games; the lowest penalty total takes the match.",
                games,
            ) % {"games": games}
        case FewestLosses(losses=losses):
            return catalog.ngettext(
                "Defeats are counted: once a seat has lost %(losses)s game, "
                "the fewest defeats win.",
                "Defeats are counted: once a seat has lost %(losses)s games, "
                "the fewest defeats win.",
                losses,
            ) % {"losses": losses}
    return repr(chosen)  # a scoring of one's own: its class and settings, as written
