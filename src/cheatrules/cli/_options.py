"""Reading the command's options: house rules, bots and match scorings, in the user's words.

Every house rule the command line offers is read from the library's own
tables: the policy names of :data:`cheatrules.rules.NAMED_POLICIES` (with
each policy's docstring for its meaning) and the shorthands documented in
the Args of :func:`~cheatrules.english` and :func:`~cheatrules.verish`.
An option added there appears in ``cheatrules rules`` without a change here.
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
from typing import Any

import attrs

from cheatrules._i18n import LANGUAGES, N_, check_language, translations
from cheatrules.bots import Agent, CountingBot, HonestBot, RandomBot, SamplingBot, as_agent
from cheatrules.cards import Deck
from cheatrules.errors import CheatRulesError, RulesError
from cheatrules.match import BestOf, FewestLosses, FirstTo, Penalty, Scoring
from cheatrules.rules import NAMED_POLICIES, POLICY_FAMILIES, Rules
from cheatrules.variants import VARIANTS as GAMES

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

# Where several names of a family make the same kind of policy, its docstring
# cannot tell them apart: these say what each name changes. (The meanings read
# from docstrings are marked for the catalogs in ._meanings.)
_MEANINGS: dict[tuple[str, str], str] = {
    ("claims", "1-4"): N_("A claim lays 1 to 4 cards."),
    ("claims", "1-3"): N_("A claim lays 1 to 3 cards."),
    ("claims", "one"): N_("A claim lays exactly 1 card."),
    ("claims", "any"): N_("A claim lays any number of cards of one rank the deck can hold."),
    ("window", "immediate"): N_(
        "Each opponent, from the declarer's left, may challenge the claim "
        "until the next claim is made."
    ),
    ("window", "extended"): N_(
        "As immediate, and the last claim but one may still be challenged (answer 'e')."
    ),
    ("discards", "compulsory"): N_(
        "Right after taking the pile, the taker must set aside complete fours."
    ),
    ("after_challenge", "challenger-if-right"): N_(
        "A caught bluff: the challenger plays next. A true claim: the declarer's left neighbour."
    ),
    ("after_challenge", "challenger-or-next"): N_(
        "Verish' Ne Verish': a caught bluff, the challenger plays next; a true claim, "
        "the player after the challenger."
    ),
}


# -- house rules ---------------------------------------------------------------------------


def _first_line(text: str | None) -> str:
    paragraph = (text or "").strip().split("\n\n")[0]
    return re.sub(r"``([^`]*)``", r"\1", " ".join(paragraph.split()))


def shorthands(make_rules: Callable[..., Rules]) -> dict[str, str]:
    """The options a game's function takes besides the policy families, with their meaning.

    Read from the ``Args:`` of its docstring: every argument but ``players``
    and ``**options``.
    """
    found: dict[str, str] = {}
    doc = inspect.getdoc(make_rules) or ""
    lines = doc.split("Args:\n", 1)[1].splitlines() if "Args:\n" in doc else []
    name = ""
    for line in lines:
        if not line.strip():
            break
        if not line.startswith("    "):
            break
        if not line.startswith("     "):  # a new argument
            name, _, text = line.strip().partition(":")
            if name.startswith("*") or name == "players":
                name = ""
                continue
            found[name] = text.strip()
        elif name:
            found[name] += " " + line.strip()
    return {key: re.sub(r"``([^`]*)``", r"\1", value) for key, value in found.items()}


def _meaning(family: str, name: str, deck: Deck) -> str:
    if (family, name) in _MEANINGS:
        return _MEANINGS[family, name]
    return _first_line(type(NAMED_POLICIES[family][name](deck)).__doc__)


def _shorthand(meaning: str) -> str:
    """A game function's argument as ``rules`` says it: a capital first, command-line words."""
    return _plain(meaning[:1].upper() + meaning[1:])


def _summary(family: str) -> str:
    """What a policy family decides, as ``rules`` says it."""
    return _first_line(POLICY_FAMILIES[family].__doc__)


def meanings(variant: str) -> list[str]:
    """The English meanings :func:`listing` shows for ``variant``: shorthands, families, policies.

    Each is a message id of the catalogs (the table in :mod:`._meanings`), so
    ``rules --lang`` says it in the language; a docstring that changes drops
    its meaning out of the catalogs, which the tests notice.

    >>> meanings("verish")[:1]
    ['36 (6 to Ace) or 52 cards. By default 36 for 2-3 players and 52 for 4-6.']
    """
    make_rules = VARIANTS[variant][0]
    deck = make_rules().deck
    found = [_shorthand(meaning) for meaning in shorthands(make_rules).values()]
    for family, choices in NAMED_POLICIES.items():
        found.append(_summary(family))
        found.extend(_meaning(family, name, deck) for name in choices)
    return found


def _choices(family: str) -> str:
    names = list(NAMED_POLICIES[family])
    spelled = [f"--with {family}={name}" for name in names]
    return ", ".join(spelled[:-1]) + f" or {spelled[-1]}" if len(spelled) > 1 else spelled[0]


def listing(variant: str, language: str = "en") -> list[str]:
    """Every house rule of ``variant`` with its values and a one-line meaning, for a terminal.

    The game is named and the listing's own words are said in ``language``;
    the meanings, read from the library's docstrings, in the language's words
    where its catalog has them.
    """
    catalog = translations(language)
    make_rules = VARIANTS[variant][0]
    usual = make_rules()
    heading = catalog.gettext(
        "%(title)s (--variant %(name)s): house rules, given as --with NAME=VALUE"
    )
    lines = [heading % {"title": GAMES[variant].title_in(language), "name": variant}, ""]

    def entry(option: str, meaning: str) -> None:
        lines.append(f"  {option}")
        lines.extend(
            textwrap.wrap(
                catalog.gettext(meaning),
                WIDTH,
                initial_indent=" " * 6,
                subsequent_indent=" " * 6,
                break_on_hyphens=False,  # never "per-" at one line's end and "pack" below
            )
        )

    for name, meaning in shorthands(make_rules).items():
        entry(f"--with {name}", _shorthand(meaning))
    for family, choices in NAMED_POLICIES.items():
        lines.append("")
        summary = catalog.gettext(_summary(family))
        lines.extend(textwrap.wrap(f"{family}: {summary}", WIDTH, subsequent_indent="  "))
        marked = False
        for name, make in choices.items():
            usual_one = not marked and make(usual.deck) == getattr(usual, family)
            marked = marked or usual_one
            default = " " + catalog.gettext("(the default)") if usual_one else ""
            entry(f"--with {family}={name}{default}", _meaning(family, name, usual.deck))
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
    make_rules, title, _ = VARIANTS[variant]
    try:
        plain = make_rules(players)
    except CheatRulesError as error:
        raise CheatRulesError(f"--players {players}: {_plain(str(error))}") from None
    extra = shorthands(make_rules)
    known = [*extra, *NAMED_POLICIES]
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
        if key in NAMED_POLICIES:
            if not raw:
                raise CheatRulesError(f"--with {name} needs a value: {_choices(key)}")
            if raw not in NAMED_POLICIES[key]:
                hint = suggestion(raw, NAMED_POLICIES[key])
                raise CheatRulesError(f"{shown}: no such {key}{hint}; give {_choices(key)}")
            value: object = raw
        else:
            value = _value(raw, bool(given))
        try:
            make_rules(players, **{key: value})
        except CheatRulesError as error:
            if key not in known or key in POLICY_FAMILIES:
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


def house_rule_words(variant: str, players: int, items: Sequence[str]) -> list[str]:
    """The ``--with`` house rules in ``items`` that change the game, as ``rules`` names them.

    Each is ``NAME=VALUE`` (or ``NAME`` alone where given so), in the order
    given; one that gives the default (``window=immediate`` in Cheat, 52
    cards for four in Verish') is left out. Call it on items
    :func:`house_rules` has accepted.

    >>> house_rule_words("english", 4, ["window=extended", "ranks=ascending", "jokers"])
    ['window=extended', 'jokers']
    """
    make_rules = VARIANTS[variant][0]
    plain = make_rules(players)
    words = []
    for item in items:
        name, given, raw = item.partition("=")
        key = name.strip().lower().replace("-", "_")
        value = raw if key in NAMED_POLICIES else _value(raw, bool(given))
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

    The library's scorings are told through the catalogs (in English, the first
    line of the scoring's docstring); any other scoring by its docstring.

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
    kind: Any = type(chosen)
    text = kind.__doc__ or kind.__name__
    if attrs.has(kind):
        for field in attrs.fields(kind):
            text = text.replace(f"``{field.name}``", str(getattr(chosen, field.name)))
    return _first_line(text)
