"""The message catalogs: one ``gettext`` translation per language, chosen per call.

The catalogs are ``locale/<language>/LC_MESSAGES/cheatrules.mo`` inside the
package, compiled from the ``.po`` files beside them (see the languages
guide). Each is read once, on first use, and kept; nothing here is a global
switch: every caller names the language it wants, so two tables of one
server, or two threads, can speak different languages at once.

>>> translations("pt").ngettext("seat %(seat)s takes %(count)s card",
...                             "seat %(seat)s takes %(count)s cards", 2) % {"seat": 1, "count": 2}
'o jogador 1 pega 2 cartas'
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Iterable
from importlib import resources

from cheatrules.cards import Rank
from cheatrules.errors import N_, Message, RulesError, either

__all__ = ["LANGUAGES", "N_", "check_language", "claim", "count_word", "rank_name", "translations"]

#: The languages the library speaks, English (the default) first.
LANGUAGES: tuple[str, ...] = ("en", "pt", "es", "fr", "ru")

DOMAIN = "cheatrules"


def check_language(language: str) -> str:
    """Return ``language`` if the library speaks it.

    Raises:
        RulesError: any other value; the message names the languages.

    """
    if not isinstance(language, str) or language not in LANGUAGES:
        raise RulesError(
            N_("unknown language %(language)s; the languages are %(first)s and %(last)s"),
            language=repr(language),
            first=", ".join(f"'{code}'" for code in LANGUAGES[:-1]),
            last=f"'{LANGUAGES[-1]}'",
        )
    return language


@functools.cache
def _load(language: str) -> gettext.GNUTranslations:
    catalog = resources.files("cheatrules") / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with catalog.open("rb") as file:
        return gettext.GNUTranslations(file)


def translations(language: str) -> gettext.GNUTranslations:
    """The catalog of ``language``, read once and kept (``gettext``, ``ngettext``, ``pgettext``...).

    Raises:
        RulesError: a language the library does not speak.

    """
    return _load(check_language(language))


# Each rank's name, in the forms a count takes (one Ace, two Aces; in Russian
# один туз, два туза, пять тузов), and the grammatical gender of that name,
# which the count words before it agree with (um Ás / uma Dama). The calls are
# spelled out one by one so that ``pybabel extract`` finds every message.
def _rank_forms(rank: Rank, count: int, catalog: gettext.GNUTranslations) -> str:
    match rank:
        case Rank.ACE:
            return catalog.npgettext("rank", "Ace", "Aces", count)
        case Rank.TWO:
            return catalog.npgettext("rank", "2", "2s", count)
        case Rank.THREE:
            return catalog.npgettext("rank", "3", "3s", count)
        case Rank.FOUR:
            return catalog.npgettext("rank", "4", "4s", count)
        case Rank.FIVE:
            return catalog.npgettext("rank", "5", "5s", count)
        case Rank.SIX:
            return catalog.npgettext("rank", "6", "6s", count)
        case Rank.SEVEN:
            return catalog.npgettext("rank", "7", "7s", count)
        case Rank.EIGHT:
            return catalog.npgettext("rank", "8", "8s", count)
        case Rank.NINE:
            return catalog.npgettext("rank", "9", "9s", count)
        case Rank.TEN:
            return catalog.npgettext("rank", "10", "10s", count)
        case Rank.JACK:
            return catalog.npgettext("rank", "Jack", "Jacks", count)
        case Rank.QUEEN:
            return catalog.npgettext("rank", "Queen", "Queens", count)
        case Rank.KING:
            return catalog.npgettext("rank", "King", "Kings", count)
        case _:
            return catalog.npgettext("rank", "Joker", "Jokers", count)


def _gender(rank: Rank, catalog: gettext.GNUTranslations) -> str:
    # Translators: answer "masculine" or "feminine" (those English words), the
    # gender of this rank's name in your language; the count words agree with it.
    match rank:
        case Rank.ACE:
            return catalog.pgettext("gender of Ace", "masculine")
        case Rank.TWO:
            return catalog.pgettext("gender of 2", "masculine")
        case Rank.THREE:
            return catalog.pgettext("gender of 3", "masculine")
        case Rank.FOUR:
            return catalog.pgettext("gender of 4", "masculine")
        case Rank.FIVE:
            return catalog.pgettext("gender of 5", "masculine")
        case Rank.SIX:
            return catalog.pgettext("gender of 6", "masculine")
        case Rank.SEVEN:
            return catalog.pgettext("gender of 7", "masculine")
        case Rank.EIGHT:
            return catalog.pgettext("gender of 8", "masculine")
        case Rank.NINE:
            return catalog.pgettext("gender of 9", "masculine")
        case Rank.TEN:
            return catalog.pgettext("gender of 10", "masculine")
        case Rank.JACK:
            return catalog.pgettext("gender of Jack", "masculine")
        case Rank.QUEEN:
            return catalog.pgettext("gender of Queen", "masculine")
        case Rank.KING:
            return catalog.pgettext("gender of King", "masculine")
        case _:
            return catalog.pgettext("gender of Joker", "masculine")


def _count_words(feminine: bool, catalog: gettext.GNUTranslations) -> tuple[str, ...]:
    if feminine:
        return (
            catalog.pgettext("count word, feminine", "one"),
            catalog.pgettext("count word, feminine", "two"),
            catalog.pgettext("count word, feminine", "three"),
            catalog.pgettext("count word, feminine", "four"),
            catalog.pgettext("count word, feminine", "five"),
            catalog.pgettext("count word, feminine", "six"),
            catalog.pgettext("count word, feminine", "seven"),
            catalog.pgettext("count word, feminine", "eight"),
        )
    return (
        catalog.pgettext("count word, masculine", "one"),
        catalog.pgettext("count word, masculine", "two"),
        catalog.pgettext("count word, masculine", "three"),
        catalog.pgettext("count word, masculine", "four"),
        catalog.pgettext("count word, masculine", "five"),
        catalog.pgettext("count word, masculine", "six"),
        catalog.pgettext("count word, masculine", "seven"),
        catalog.pgettext("count word, masculine", "eight"),
    )


def rank_name(rank: Rank, count: int, language: str) -> str:
    """The rank's name in ``language`` in the form ``count`` cards of it take.

    >>> rank_name(Rank.KING, 2, "en"), rank_name(Rank.KING, 5, "ru"), rank_name(Rank.SEVEN, 2, "pt")
    ('Kings', 'королей', 'cartas 7')
    """
    return _rank_forms(rank, count, translations(language))


def count_word(count: int, rank: Rank, language: str) -> str:
    """``count`` as a word agreeing with the rank's name (one to eight), else in digits.

    >>> count_word(2, Rank.QUEEN, "pt"), count_word(2, Rank.KING, "pt")
    ('duas', 'dois')
    >>> count_word(9, Rank.KING, "ru")
    '9'
    """
    catalog = translations(language)
    if not 1 <= count <= 8:
        return str(count)
    return _count_words(_gender(rank, catalog) == "feminine", catalog)[count - 1]


@functools.lru_cache(maxsize=4096)
def claim(count: int, rank: Rank, language: str) -> str:
    """A claim the way a player announces it in ``language``: ``"two Kings"``, ``"dois Reis"``.

    Kept once worded (a view tells every claim of the pile again).

    >>> claim(2, Rank.KING, "es"), claim(2, Rank.KING, "fr"), claim(2, Rank.KING, "ru")
    ('dos Reyes', 'deux Rois', 'два короля')
    """
    catalog = translations(language)
    # Translators: a claim, such as "two Kings"; put the words in your language's order.
    return catalog.pgettext("claim", "%(count)s %(rank)s") % {
        "count": count_word(count, rank, language),
        "rank": rank_name(rank, count, language),
    }


def rank_letter(rank: Rank, language: str = "en") -> str:
    """The letter players of ``language`` write ``rank`` with (the French ``D``, the Russian ``Д``).

    Every letter it gives is read back by :meth:`Rank.parse`.
    """
    catalog = translations(language)
    # Translators: the letter your rule books write each rank with; cheatrules reads
    # the French V D R and the Russian В Д К Т beside the English A J Q K.
    match rank:
        case Rank.ACE:
            return catalog.pgettext("rank letter", "A")
        case Rank.JACK:
            return catalog.pgettext("rank letter", "J")
        case Rank.QUEEN:
            return catalog.pgettext("rank letter", "Q")
        case Rank.KING:
            return catalog.pgettext("rank letter", "K")
        case _:
            return str(rank)


def listed(items: Iterable[str], language: str) -> str:
    """``items`` as a list of ``language``: commas, and its "and" before the last (:func:`either`).

    >>> listed(["four Kings", "four 7s"], "en"), listed(["a", "b", "c"], "ru")
    ('four Kings and four 7s', 'a, b и c')
    """
    joined = either(items, "and")
    return joined.render(language) if isinstance(joined, Message) else str(joined)


def decimal(value: float, places: int, language: str) -> str:
    """``value`` with ``places`` decimals, written with ``language``'s decimal mark.

    >>> decimal(0.6, 3, "en"), decimal(0.6, 3, "fr"), decimal(166.3, 1, "ru")
    ('0.600', '0,600', '166,3')
    """
    # Translators: the mark between a number's whole part and its decimals: "." or ",".
    mark = translations(language).pgettext("decimal mark", ".")
    return f"{value:.{places}f}".replace(".", mark)
