"""The errors cheatrules raises on purpose, and how to say them in each language.

Every one of them derives from :class:`CheatRulesError`, and every one that
reports bad input also derives from :class:`ValueError`, so ``except
ValueError`` catches a wrong card, a bad option and an illegal action alike.

An error keeps two things: its English text, which ``str(error)`` gives
unchanged whatever language a player speaks (logs and tests match on it),
and what is needed to say it in another language:

* :attr:`CheatRulesError.template`, the English message with ``%(name)s``
  placeholders, which is a message id of the catalogs (written ``N_("...")``
  where it is raised, so that ``pybabel extract`` finds it; a message with a
  count in it is written ``NN_("... card", "... cards", count)`` and takes
  the plural form the count needs in each language);
* :attr:`CheatRulesError.params`, the values of the placeholders: text and
  numbers stay as they are (cards and ranks are symbols, ``Q♠`` in every
  language), and the values that are themselves words (a rank's name, a
  claim, what a player is asked to do, a list of allowed values joined by
  "or") are :class:`Message` values or rank words, rendered in the language
  asked for.

:meth:`CheatRulesError.describe` renders the error through the catalog of a
language:

>>> error = SeatError(N_("seat %(seat)s is not at this table"), seat=7)
>>> str(error)
'seat 7 is not at this table'
>>> error.template, error.params
('seat %(seat)s is not at this table', {'seat': 7})

A message raised as plain text, ``XError("something")``, still works: it is
its own template, with no parameters. The errors pickle, and keep their
classes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Protocol, TypeAlias

import attrs

if TYPE_CHECKING:
    from cheatrules.cards import Card, Rank

__all__ = [
    "ILLEGAL",
    "NN_",
    "N_",
    "YOURS",
    "CardError",
    "CardText",
    "CheatRulesError",
    "ClaimWords",
    "DealError",
    "IllegalActionError",
    "Message",
    "RankWord",
    "RecordError",
    "RulesError",
    "SeatError",
    "either",
    "for_player",
    "to_player",
]


class Words(Protocol):
    """A parameter that is words: rendered in the language asked for."""

    def render(self, language: str = "en") -> str:
        """The words in ``language``."""
        ...  # pragma: no cover - a protocol


#: What a placeholder may hold: text or a number, shown as it is, or words.
Param: TypeAlias = "str | int | float | Words"


def _param(value: object) -> Param:
    if isinstance(value, CheatRulesError):
        return value.message
    if isinstance(value, (str, int, float, Message, RankWord, ClaimWords, CardText)):
        return value
    from cheatrules.cards import Card, Rank

    if isinstance(value, (Card, Rank)):
        return CardText(value)  # its rank written with the reader's letter
    return str(value)


def _render(value: Param, language: str, reader: int | None = None) -> str | int | float:
    if isinstance(value, (str, int, float)):
        return value
    if isinstance(value, Message):
        return value.render(language, reader=reader)
    return value.render(language)


@attrs.frozen
class Message:
    """A catalog message with its placeholders: English by ``str``, any language by :meth:`render`.

    ``plural`` and ``count`` are set for a message whose wording follows a
    count (``NN_``): the catalog picks the form ``count`` needs.

    >>> str(Message("%(a)s or %(b)s", (("a", "'x'"), ("b", "'y'"))))
    "'x' or 'y'"
    """

    template: str
    pairs: tuple[tuple[str, Param], ...] = ()
    plural: str | None = None
    count: int = 1

    @classmethod
    def of(cls, template: str, params: Mapping[str, object]) -> Message:
        """The message ``template`` with ``params`` (words kept, errors as their messages)."""
        return cls(template, tuple((name, _param(value)) for name, value in params.items()))

    @property
    def params(self) -> dict[str, Param]:
        """The placeholders' values by name."""
        return dict(self.pairs)

    def render(self, language: str = "en", *, reader: int | None = None) -> str:
        """The message in ``language``, through its catalog (English as written for ``"en"``).

        With ``reader``, a seat, a message about that seat is said to the
        person sitting there ("you"), where the catalogs have it so
        (:data:`~cheatrules.errors.YOURS`), and so is each message it holds.

        Raises:
            RulesError: a language the library does not speak.

        """
        from cheatrules._i18n import translations

        catalog = translations(language)
        template = self.template
        if reader is not None and self.params.get("seat") == reader:
            template = YOURS.get(template, template)
        if language == "en":
            text = template if self.plural is None or self.count == 1 else self.plural
        elif self.plural is None:
            text = catalog.gettext(template)
        else:
            text = catalog.ngettext(template, self.plural, self.count)
        if not self.pairs:
            return text
        values = {name: _render(value, language, reader) for name, value in self.pairs}
        if language == "es" and text in _SPANISH_BEFORE_A_SOUND:
            vowel, changed = _SPANISH_BEFORE_A_SOUND[text]
            if vowel.match(str(values["then"])):
                text = changed
        return text % values

    def __str__(self) -> str:
        return self.render("en")


#: Spanish writes "e" for "y" before a word that opens with the sound /i/ (i-, hi-, but not
#: hie-, hia-...) and "u" for "o" before one that opens with /o/ (o-, ho-, and the numbers
#: said ocho..., ochenta..., once): "francés e inglés", "7 u 8". Each joiner of two list
#: items, as the catalog says it, with the opening it changes before and the joiner it becomes.
_SPANISH_BEFORE_A_SOUND = {
    "%(first)s y %(then)s": (re.compile(r"h?[iíIÍ](?![aeoáéóAEO])"), "%(first)s e %(then)s"),
    "%(first)s o %(then)s": (re.compile(r"h?[oóOÓ]|8|11\b"), "%(first)s u %(then)s"),
}


@attrs.frozen
class RankWord:
    """A rank's name as a word, in the form ``count`` cards of it take: ``Kings``, ``королей``."""

    rank: Rank
    count: int = 2

    def render(self, language: str = "en") -> str:
        """The rank's name in ``language``."""
        if language == "en":
            return self.rank.singular if self.count == 1 else self.rank.plural
        from cheatrules._i18n import rank_name

        return rank_name(self.rank, self.count, language)

    def __str__(self) -> str:
        return self.render("en")


@attrs.frozen
class CardText:
    """A card or a rank as its text, the rank written with the letter of the reader's language.

    >>> from cheatrules.cards import Rank, cards
    >>> CardText(Rank.KING).render("fr"), str(CardText(Rank.KING))
    ('R', 'K')
    >>> CardText(cards("A♠")[0]).render("ru")
    'Т♠'
    """

    value: Card | Rank

    def render(self, language: str = "en") -> str:
        """The card (``K♣``, ``К♣``) or the rank (``K``, ``К``) in ``language``."""
        if language == "en":
            return str(self.value)
        from cheatrules._i18n import rank_letter
        from cheatrules.cards import Rank

        if isinstance(self.value, Rank):
            return rank_letter(self.value, language)
        return rank_letter(self.value.rank, language) + str(self.value.suit)

    def __str__(self) -> str:
        return self.render("en")


@attrs.frozen
class ClaimWords:
    """A claim the way a player announces it, as words: ``two Kings``, ``два короля``."""

    count: int
    rank: Rank

    def render(self, language: str = "en") -> str:
        """The claim in ``language``."""
        if language == "en":
            from cheatrules.events import describe_claim

            return describe_claim(self.count, self.rank)
        from cheatrules._i18n import claim

        return claim(self.count, self.rank, language)

    def __str__(self) -> str:
        return self.render("en")


def N_(template: str) -> str:  # noqa: N802 - the name ``pybabel extract`` looks for
    """Mark ``template`` for the catalogs where it is written; it is rendered where it is shown."""
    return template


def NN_(singular: str, plural: str, count: int, /, **params: object) -> Message:  # noqa: N802
    """A message whose wording follows ``count``; ``pybabel extract -k NN_:1,2`` finds it.

    >>> str(NN_("%(n)s copy", "%(n)s copies", 2, n=2))
    '2 copies'
    """
    return attrs.evolve(Message.of(singular, params), plural=plural, count=count)


def either(words: Iterable[object], joiner: str = "or") -> Param:
    """``'a', 'b' or 'c'``-style lists as the words of a language: ``"a or b"``, ``"a ou b"``.

    Each item is shown as given (use ``repr`` first for quoted values); the
    items are separated by commas and the last joined by ``" or "`` in
    English (``joiner="and"`` for ``"and"``).

    >>> str(either(["'x'", "'y'", "'z'"]))
    "'x', 'y' or 'z'"
    >>> either(["francés", "inglés"], joiner="and").render("es"), either(["7", "8"]).render("es")
    ('francés e inglés', '7 u 8')
    """
    items = [_param(word) for word in words]
    if not items:
        return ""
    joined: Param = items[0]
    for item in items[1:-1]:
        joined = Message.of(N_("%(first)s, %(then)s"), {"first": joined, "then": item})
    if len(items) > 1:
        last = N_("%(first)s and %(then)s") if joiner == "and" else N_("%(first)s or %(then)s")
        joined = Message.of(last, {"first": joined, "then": items[-1]})
    return joined


class CheatRulesError(Exception):
    """Base of every error the library raises on purpose.

    Args:
        template: the English message, with ``%(name)s`` placeholders (or a
            :class:`~cheatrules.errors.Message` already built, or plain text with no
            placeholders).
        params: the placeholders' values.

    ``str(error)`` is the English text; :meth:`describe` says it in another
    language.

    """

    def __init__(self, template: str | Message = "", /, **params: object) -> None:
        message = template if isinstance(template, Message) else Message.of(template, params)
        super().__init__(str(message))
        self.message = message

    @property
    def template(self) -> str:
        """The English message id, with its ``%(name)s`` placeholders."""
        return self.message.template

    @property
    def params(self) -> dict[str, Param]:
        """The placeholders' values by name (text, numbers, or words to render)."""
        return self.message.params

    def describe(self, language: str = "en", *, seat: int | None = None) -> str:
        """The error in ``language``, through the catalogs; ``"en"`` gives ``str(error)``.

        With ``seat``, the error is told to the person at that seat: what it
        says of that seat it says as "you" (``K♣ is not in your hand``).

        Raises:
            RulesError: a language the library does not speak.

        """
        return self.message.render(language, reader=seat)


class CardError(CheatRulesError, ValueError):
    """Text or a value that is not a card, a rank or a suit, or a bad deck."""


class RulesError(CheatRulesError, ValueError):
    """Rules that cannot be played: a player count, option or policy outside what is allowed."""


class DealError(CheatRulesError, ValueError):
    """A deal that does not fit the rules: a wrong dealer, seed, fixed hand or hidden card."""


class IllegalActionError(CheatRulesError, ValueError):
    """An action that is not legal in the current state; the message says why.

    The state the action was offered to is left unchanged.
    """


#: The template of the engine's refusal of an action (the action as code, then the reason).
ILLEGAL = N_("illegal action %(action)s: %(reason)s")


def for_player(error: CheatRulesError) -> CheatRulesError:
    """``error`` as a player reads it: an engine refusal without the action written as code.

    The engine says ``illegal action Play(K♣ as A): K♣ is not in seat 0's
    hand``; a player who just pressed a button, or typed an answer, is told
    the reason alone, in any language (its ``describe``).
    Any other error is returned as it is.

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    >>> try:
    ...     state.apply(cr.Play("A♠", "A"))
    ... except cr.IllegalActionError as error:
    ...     print(for_player(error).describe("pt"))
    A♠ não está na mão do jogador 0
    """
    if error.template == ILLEGAL:
        reason = error.params.get("reason")
        if isinstance(reason, Message):
            return IllegalActionError(reason)
    return error


def to_player(error: CheatRulesError, language: str = "en", seat: int | None = None) -> str:
    """``error`` told to the person at ``seat`` in ``language``: the one rendering players read.

    An engine refusal is told by its reason alone (:func:`for_player`), and
    what it says of ``seat`` is said as "you"; ``cheatrules play`` and the
    web table both tell errors so.

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    >>> try:
    ...     state.apply(cr.Play("A♠", "A"))
    ... except cr.IllegalActionError as error:
    ...     print(to_player(error, "en", seat=0))
    ...     print(to_player(error, "fr", seat=0))
    ...     print(to_player(error, "ru", seat=1))
    A♠ is not in your hand
    A♠ n’est pas dans votre main
    Т♠ нет в руке игрока 0
    """
    return for_player(error).describe(language, seat=seat)


#: Each message about a seat, paired with the form the person at that seat reads (saying
#: "you"); a message takes it when rendered with ``reader`` set to its ``seat`` parameter.
YOURS: dict[str, str] = {
    N_("%(card)s is not in seat %(seat)s's hand"): N_("%(card)s is not in your hand"),
    N_("%(card)s is laid %(times)s times but seat %(seat)s holds %(held)s"): N_(
        "%(card)s is laid %(times)s times but you hold %(held)s"
    ),
    N_("there is no claim for seat %(seat)s to accept now; %(asked)s"): N_(
        "there is no claim for you to accept now; %(asked)s"
    ),
    N_("seat %(seat)s may not pass now; %(asked)s"): N_("you may not pass now; %(asked)s"),
    N_("seat %(seat)s cannot challenge its own claim; %(asked)s"): N_(
        "you cannot challenge your own claim; %(asked)s"
    ),
    N_("seat %(seat)s holds no complete four of %(rank)s; %(asked)s"): N_(
        "you hold no complete four of %(rank)s; %(asked)s"
    ),
    N_("seat %(seat)s holds only %(held)s complete fours of %(rank)s; %(asked)s"): N_(
        "you hold only %(held)s complete fours of %(rank)s; %(asked)s"
    ),
    N_("seat %(seat)s must lay cards as %(rank)s or challenge or pass"): N_(
        "you must lay cards as %(rank)s or challenge or pass"
    ),
    N_("seat %(seat)s must lay cards as %(rank)s or challenge"): N_(
        "you must lay cards as %(rank)s or challenge"
    ),
    N_("seat %(seat)s must lay cards as %(rank)s or pass"): N_(
        "you must lay cards as %(rank)s or pass"
    ),
    N_("seat %(seat)s must lay cards as %(rank)s"): N_("you must lay cards as %(rank)s"),
    N_("seat %(seat)s must lay cards announcing any rank or challenge or pass"): N_(
        "you must lay cards announcing any rank or challenge or pass"
    ),
    N_("seat %(seat)s must lay cards announcing any rank or challenge"): N_(
        "you must lay cards announcing any rank or challenge"
    ),
    N_("seat %(seat)s must lay cards announcing any rank or pass"): N_(
        "you must lay cards announcing any rank or pass"
    ),
    N_("seat %(seat)s must lay cards announcing any rank"): N_(
        "you must lay cards announcing any rank"
    ),
    N_("seat %(seat)s must challenge or accept seat %(declarer)s's claim of %(claim)s"): N_(
        "you must challenge or accept seat %(declarer)s's claim of %(claim)s"
    ),
    N_("seat %(seat)s must agree to seat %(passer)s's pass (Accept) or Refuse"): N_(
        "you must agree to seat %(passer)s's pass or refuse it"
    ),
    N_("seat %(seat)s holds no complete four and must decline with Discard(())"): N_(
        "you hold no complete four, so you must decline"
    ),
    N_("seat %(seat)s must discard fours of %(fours)s, or decline with Discard(())"): N_(
        "you must discard fours of %(fours)s, or decline"
    ),
}


class SeatError(CheatRulesError, ValueError):
    """A seat number that is not a seat at this table."""


class RecordError(CheatRulesError, ValueError):
    """A game record that cannot be read: malformed, of an unknown version, or illegal."""
