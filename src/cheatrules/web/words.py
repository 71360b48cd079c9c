"""The web table's words in each seat's language: the pages' texts, the buttons, the errors.

Every word the pages show is a message of the catalogs, marked here with
:func:`~cheatrules._i18n.N_` so that ``pybabel extract`` finds it, and
translated per call: the server renders each page in the language its
reader asked for, and sends each connection the table of its words
(:func:`page_words`) in its ``welcome``. Nothing here is a global switch:
two seats of one table may read two languages at once.

>>> page_words("pt")["play"], page_words("ru")["ranks"]["K"]
('Jogar as cartas escolhidas', 'король')
>>> accepted_language("de-DE,de;q=0.9,pt-BR;q=0.8,en;q=0.5")
'pt'
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable
from typing import Any

from cheatrules._i18n import LANGUAGES, N_, claim, listed, rank_name, translations
from cheatrules.actions import Accept, Action, Challenge, Discard, Pass, Refuse, parse_action
from cheatrules.cards import Rank
from cheatrules.errors import CheatRulesError, for_player, to_player

__all__ = [
    "LANGUAGE_NAMES",
    "N_",
    "LanguageError",
    "WordedError",
    "accepted_language",
    "action_label",
    "bot_words",
    "checked",
    "for_player",
    "house_rule_words",
    "page_words",
    "to_player",
    "told",
    "unknown_language",
]

#: Each language's own name for itself, as the language menus list them.
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "pt": "Português",
    "es": "Español",
    "fr": "Français",
    "ru": "Русский",
}

# The pages' words, by the key the pages know them by. A text with
# %(name)s placeholders is filled in by the page's script.
_WORDS: dict[str, str] = {
    # Both pages.
    "language": N_("Language"),
    "seat": N_("seat %(seat)s"),
    # The table page.
    "table_title": N_("cheatrules: table"),
    "connecting": N_("connecting…"),
    "connected": N_("connected"),
    "reconnecting": N_("reconnecting…"),
    "table_closed": N_("the table is closed"),
    "link_not_valid": N_("this link is not valid"),
    "connection_closed": N_("closed"),
    "pile": N_("Cards in the pile:"),
    "last_claim": N_("Last claim:"),
    "next_claim": N_("Next claim:"),
    "let_it_stand": N_("Let it stand"),
    # Translators: the button that challenges the claim made before the newest one.
    "the_claim_before": N_("… the claim before"),
    "your_hand": N_("Your hand"),
    "announce": N_("Announce"),
    "play": N_("Play the selected cards"),
    "game_so_far": N_("The game so far"),
    "spectator": N_("spectator"),
    "page_title": N_("%(game)s: %(who)s"),
    "closed_title": N_("%(title)s (closed)"),
    "game_over": N_("Game over. Winners: %(winners)s; losers: %(losers)s"),
    # Translators: %(call)s is the game's challenge call, such as "Cheat!".
    "window_open": N_("%(call)s window open: %(claim)s"),
    "your_decision": N_("Your decision (%(phase)s)"),
    "to_decide": N_("seat %(seat)s to decide (%(phase)s)"),
    # Translators: as "seat %(seat)s to decide", for a seat that gave its name.
    "named_to_decide": N_("%(name)s to decide (%(phase)s)"),
    "you_won": N_("You won!"),
    "you_lost": N_("You lost."),
    # Translators: a seat at the table and how many cards it holds; the count follows.
    "cards_held": N_("%(name)s — cards:"),
    "bot_seat": N_("%(name)s (bot %(bot)s)"),
    # Translators: a claim and who made it: "two Kings (seat 1)".
    "group": N_("%(claim)s (%(seat)s)"),
    "claim_by": N_("%(seat)s: %(claim)s"),
    "stock": N_("Stock: %(count)s"),
    "discarded": N_("Set aside: %(cards)s"),
    "window_claim": N_("Claim: %(claim)s. Answered: %(seats)s"),
    "nobody_yet": N_("nobody yet"),
    # Translators: seconds left, as the countdown shows them ("4.2 s").
    "seconds": N_("%(seconds)s s"),
    "table_gone": N_("this table is gone: it was closed, or it expired"),
    "too_busy": N_("too many messages or connections; reconnecting in a few seconds…"),
    "fell_behind": N_("this page fell behind; catching up…"),
    "hello_late": N_("the server waited too long for this page; reconnecting…"),
    "your_name": N_("Your name:"),
    "use_name": N_("Use this name"),
    # Translators: a card of the hand that the seat has just taken in (a pickup, a draw).
    "new_card": N_("%(card)s (just taken)"),
    "most_cards": N_("Cards per claim: at most %(most)s"),
    "least_cards": N_("Cards per claim: at least %(least)s"),
    "choose_fours": N_("You may set aside complete fours: choose them, then confirm."),
    "discard_chosen": N_("Set aside the chosen fours"),
    "discard_none": N_("Set nothing aside"),
    # Translators: %(fours)s lists fours, such as "four 7s, four Kings".
    "set_aside": N_("Set aside: %(fours)s"),
    # The host page.
    "host_title": N_("cheatrules: a new table"),
    "game": N_("Game"),
    "players": N_("Players"),
    "house_rules": N_("House rules"),
    "other_rules": N_("Other rules"),
    "create": N_("Create the table"),
    "your_table": N_("Your table"),
    "send_links": N_("Send each player their own link: whoever holds a link plays that seat."),
    "spectators": N_("Spectators:"),
    "host_token": N_("Host token (keep it to close the table):"),
    "close": N_("Close the table"),
    "human": N_("a person"),
    "games_own": N_("(the game's own)"),
    # Translators: a bot in the host page's seat menu: "bot: counting".
    "bot_choice": N_("bot: %(bot)s"),
    "host_link": N_("Your host link (keep it: it shows these links again and closes the table):"),
    "this_table": N_("This table:"),
    "yes": N_("yes"),
    "no": N_("no"),
}

# The host page's short names of the families of house rules (its menus' labels).
_FAMILY_WORDS: dict[str, str] = {
    # Translators: the label of the host page's menu of a family of house rules.
    "ranks": N_("Ranks announced"),
    "claims": N_("Cards per claim"),
    "window": N_("Who may call a bluff"),
    "check": N_("What a challenge turns over"),
    "after_challenge": N_("Who plays after a challenge"),
    "passing": N_("Passing"),
    "discards": N_("Setting fours aside"),
    "ending": N_("End of the game"),
}

# The host page's short names of the house rules, by family and by the name options give them.
_POLICY_WORDS: dict[str, dict[str, str]] = {
    "ranks": {
        # Translators: house rules for the rank announced (the host page's menu).
        "ascending": N_("upwards: A, 2, 3 … K"),
        "descending": N_("downwards: A, K, Q … 2"),
        "free": N_("any rank"),
        "adjacent": N_("the same rank, or one above or below"),
        "hold": N_("the opener's rank, until a challenge"),
    },
    "claims": {
        # Translators: house rules for the number of cards a claim lays.
        "1-4": N_("1 to 4"),
        "1-3": N_("1 to 3"),
        "one": N_("exactly 1"),
        "any": N_("any number of one rank"),
    },
    "window": {
        # Translators: house rules for who may challenge a claim.
        "immediate": N_("any opponent, before the next claim"),
        "extended": N_("any opponent; the claim before too"),
        "next-player": N_("the next player, on their turn"),
    },
    "check": {
        # Translators: house rules for what a challenge turns over.
        "whole-group": N_("the whole group"),
        "one-card": N_("one card, drawn by chance"),
        "jokers-protect": N_("the whole group; a joker makes it true"),
    },
    "after_challenge": {
        # Translators: house rules for who plays after a challenge.
        "declarers-left": N_("the declarer's left neighbour"),
        "taker": N_("whoever took the pile"),
        "challenger-if-right": N_("the challenger if right, else the declarer's left"),
        "challenger-or-next": N_("the challenger if right, else the player after"),
    },
    "passing": {
        # Translators: house rules for passing.
        "never": N_("never"),
        "all-revealed": N_("once every card of the rank was shown"),
        "consent": N_("if every opponent agrees"),
    },
    "discards": {
        # Translators: house rules for setting complete fours aside.
        "never": N_("never"),
        "after-pickup": N_("may, after taking the pile"),
        "compulsory": N_("must, after taking the pile"),
        "any-time": N_("at any turn"),
    },
    "ending": {
        # Translators: house rules for the end of a game.
        "first-out": N_("the first out wins"),
        "placings": N_("the last one in loses"),
    },
}


def house_rule_words(language: str) -> dict[str, Any]:
    """The house rules' short names in ``language``: ``families`` by name, ``policies`` by family.

    A family or a policy with no word here keeps its own name.

    >>> house_rule_words("en")["families"]["after_challenge"]
    'Who plays after a challenge'
    """
    say = translations(language).gettext
    return {
        "families": {family: say(text) for family, text in _FAMILY_WORDS.items()},
        "policies": {
            family: {name: say(text) for name, text in names.items()}
            for family, names in _POLICY_WORDS.items()
        },
    }


def bot_words(language: str) -> dict[str, str]:
    """Each bot's name in ``language``, by the name the server knows it by.

    >>> bot_words("en")["counting"]
    'counting'
    """
    catalog = translations(language)
    return {
        # Translators: the bots' names, as the host page's seat menu ("bot: counting")
        # and a table's seats ("seat 2 (bot counting)") show them.
        "random": catalog.pgettext("bot", "random"),
        "honest": catalog.pgettext("bot", "honest"),
        "counting": catalog.pgettext("bot", "counting"),
        "sampling": catalog.pgettext("bot", "sampling"),
    }


def _phases(catalog: gettext.GNUTranslations) -> dict[str, str]:
    return {
        "play": catalog.pgettext("phase", "play"),
        "challenge": catalog.pgettext("phase", "challenge"),
        "discard": catalog.pgettext("phase", "discard"),
        "consent": catalog.pgettext("phase", "consent"),
        "over": catalog.pgettext("phase", "over"),
    }


def page_words(language: str) -> dict[str, Any]:
    """Every word the pages show, in ``language``: texts by key, and the tables below.

    ``ranks`` and ``fours`` (``"four Kings"``) are by rank code, ``phases`` by
    phase, and ``bots`` (each bot's name) by the name the server knows it by.

    Raises:
        RulesError: a language the library does not speak.

    """
    catalog = translations(language)
    shown: dict[str, Any] = {key: catalog.gettext(text) for key, text in _WORDS.items()}
    shown["nobody"] = catalog.pgettext("nobody", "none")
    shown["ranks"] = {str(rank): rank_name(rank, 1, language) for rank in Rank}
    shown["phases"] = _phases(catalog)
    shown["fours"] = {
        str(rank): claim(4, rank, language) for rank in Rank if rank is not Rank.JOKER
    }
    shown["bots"] = bot_words(language)
    return shown


def accepted_language(header: str | None) -> str:
    """The first language of an ``Accept-Language`` header the library speaks; else ``"en"``.

    The header's languages are taken in the order of their ``q`` weights
    (``q=0`` refuses one); ``pt-BR`` counts as ``pt``.

    >>> accepted_language("ru-RU,ru;q=0.9"), accepted_language("de"), accepted_language(None)
    ('ru', 'en', 'en')
    """
    weighed: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "").split(",")):
        name, _, parameters = part.partition(";")
        weight = 1.0
        for parameter in parameters.split(";"):
            key, _, value = parameter.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        code = name.strip().split("-")[0].lower()
        if code in LANGUAGES and weight > 0:
            weighed.append((-weight, index, code))
    return min(weighed)[2] if weighed else "en"


@functools.lru_cache(maxsize=4096)
def action_label(text: str, phase: str, language: str, *, call: str | None = None) -> str:
    """What a button that sends the action ``text`` says, in ``language`` (kept once worded).

    Args:
        text: the action's text form (``"accept"``, ``"discard 7 K"``...).
        phase: the decision's phase: an ``accept`` lets a claim stand in a
            ``challenge`` window and agrees to a pass in ``consent``.
        language: the language of the label.
        call: the game's challenge call in ``language``; ``"Cheat!"`` in it when ``None``.

    >>> action_label("accept", "challenge", "pt"), action_label("discard 7 K", "discard", "ru")
    ('Deixar passar', 'Отложить: четыре семёрки и четыре короля')

    """
    catalog = translations(language)
    action: Action = parse_action(text)
    said = catalog.gettext("Cheat!") if call is None else call
    match action:
        case Challenge(earlier=True):
            return catalog.gettext("%(call)s (the claim before)") % {"call": said}
        case Challenge():
            return said
        case Accept() if phase == "consent":
            return catalog.gettext("Agree")
        case Accept():
            return catalog.gettext("Let it stand")
        case Pass():
            return catalog.gettext("Pass")
        case Refuse():
            return catalog.gettext("Refuse")
        case Discard(ranks=()):
            return catalog.gettext("Set nothing aside")
        case Discard(ranks=ranks):
            fours = listed([claim(4, rank, language) for rank in ranks], language)
            return catalog.gettext("Set aside: %(fours)s") % {"fours": fours}
    return text  # pragma: no cover - plays are built on the page, never labelled


class WordedError(CheatRulesError, ValueError):
    """An error whose message is a catalog message with its values: it can be told in any language.

    ``str(error)`` is the English message, for logs and tests; :meth:`describe`
    tells it in another language. A value may be a function of the language
    (a seat's name, the game's call), called when the message is told.
    """

    def __init__(self, message: str, **values: object) -> None:
        self.wording = message
        self.values = values
        super().__init__(self.describe("en"))

    @property
    def template(self) -> str:
        """The English message id, with its ``%(name)s`` placeholders."""
        return self.wording

    def describe(self, language: str = "en", *, seat: int | None = None) -> str:
        """The message in ``language`` (the same to every seat).

        Raises:
            RulesError: a language the library does not speak.

        """
        text = translations(language).gettext(self.wording)
        if not self.values:
            return text
        filled = {
            name: value(language) if callable(value) else value
            for name, value in self.values.items()
        }
        return text % filled


def told(error: CheatRulesError, language: str) -> str:
    """``error``'s message in ``language`` if the error can tell it (``describe``), else its own.

    An engine error that cannot yet tell itself in another language keeps its English message.
    """
    describe: Callable[[str], str] | None = getattr(error, "describe", None)
    return describe(language) if callable(describe) else str(error)


class LanguageError(WordedError):
    """A language the library does not speak; the message names the five."""


def unknown_language(language: object) -> LanguageError:
    """The refusal of a language the library does not speak, naming the five."""
    return LanguageError(
        N_("unknown language %(language)s; the languages are %(first)s and %(last)s"),
        language=repr(language),
        first=", ".join(f"'{code}'" for code in LANGUAGES[:-1]),
        last=f"'{LANGUAGES[-1]}'",
    )


def checked(language: object) -> str:
    """``language`` if the library speaks it.

    Raises:
        LanguageError: any other value; the message names the five, in any language.

    """
    if not isinstance(language, str) or language not in LANGUAGES:
        raise unknown_language(language)
    return language
