"""The decisions a player can make: play, challenge, accept, discard, pass, refuse.

An action names only *what* is decided; the actor is always the seat the
state says is to move (:attr:`GameState.to_move`).

>>> str(Play("7♣ K♦", "7"))
'Play(7♣ K♦ as 7)'
>>> Play("7c Kd", Rank.SEVEN).count
2

Every action has a text form, the one game records hold, and
:func:`parse_action` reads it back:

>>> Play("7c Kd", "7").text()
'play 7♣ K♦ as 7'
>>> parse_action("challenge earlier")
Challenge(earlier=True)
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from cheatrules import _checks as checks
from cheatrules.cards import Card, Rank, cards, ranks
from cheatrules.errors import N_, CheatRulesError, IllegalActionError
from cheatrules.policies.challenges import holds

__all__ = [
    "Accept",
    "Action",
    "ActionTextError",
    "Challenge",
    "Discard",
    "Pass",
    "Play",
    "Refuse",
    "parse_action",
]

# The text forms parse_action reads, as its error messages list them.


class ActionTextError(CheatRulesError, ValueError):
    """Text that spells no action; the message lists the forms that do.

    A known form whose cards or ranks cannot be read raises
    :class:`~cheatrules.CardError` instead.
    """


def _to_cards(value: str | Iterable[Card | str]) -> tuple[Card, ...]:
    # The legal-action generator builds thousands of plays from cards it
    # already holds; let those through without re-reading them.
    if type(value) is tuple and all(type(card) is Card for card in value):
        return value
    return cards(value)


def _to_rank(value: Rank | str) -> Rank:
    return value if type(value) is Rank else Rank.parse(value)


def _to_ranks(value: str | Rank | Iterable[Rank | str]) -> tuple[Rank, ...]:
    return tuple(sorted(ranks(value)))


@attrs.frozen
class Action:
    """Base class of every action."""

    def text(self) -> str:
        """The action's text form, as game records hold it; :func:`parse_action` reads it back.

        >>> Discard("K 7").text(), Challenge().text()
        ('discard 7 K', 'challenge')
        """
        raise NotImplementedError(f"{type(self).__name__} has no text form")


@attrs.frozen(repr=False)
class Play(Action):
    """Lay ``cards`` face down and announce them as ``len(cards)`` cards of ``rank``.

    The count is always true; the rank may be a lie. ``cards`` may be given as
    a string (``"7♣ K♦"``) and ``rank`` as text (``"7"``, ``"K"``).
    """

    cards: tuple[Card, ...] = attrs.field(converter=_to_cards)
    rank: Rank = attrs.field(converter=_to_rank)

    @property
    def count(self) -> int:
        """How many cards are laid (and announced)."""
        return len(self.cards)

    @property
    def is_truthful(self) -> bool:
        """Whether every card laid is of the announced rank or a joker (jokers are wild).

        The cards' own truth, the same judgement as
        :func:`cheatrules.policies.holds`. A challenge is judged by the
        rules' check on the cards it turns over
        (:func:`cheatrules.policies.proves`), which agrees with this whenever
        the whole group is turned over, except that under
        ``check="jokers-protect"`` a joker makes any group true.

        >>> Play("7♣ ★♥", "7").is_truthful, Play("7♣ K♦", "7").is_truthful
        (True, False)
        """
        return holds(self.cards, self.rank)

    def __str__(self) -> str:
        return f"Play({' '.join(map(str, self.cards))} as {self.rank})"

    __repr__ = __str__

    def text(self) -> str:
        """The text form records hold: ``play <cards> as <rank>``, such as ``play 7♣ K♦ as 7``."""
        return f"play {' '.join(map(str, self.cards))} as {self.rank}"


@attrs.frozen(repr=False)
class Challenge(Action):
    """Challenge the last claim: "Cheat!" in Cheat, "I don't believe" in Verish' Ne Verish'.

    With an extended challenge window, ``Challenge(earlier=True)``
    challenges the claim made just before the newest one instead.

    Raises:
        IllegalActionError: ``earlier`` is not ``True`` or ``False``.

    """

    earlier: bool = attrs.field(
        default=False, converter=checks.to_flag, validator=checks.flag(IllegalActionError)
    )

    def __str__(self) -> str:
        return "Challenge(earlier=True)" if self.earlier else "Challenge()"

    __repr__ = __str__

    def text(self) -> str:
        """The text form records hold: ``challenge``, or ``challenge earlier``."""
        return "challenge earlier" if self.earlier else "challenge"


@attrs.frozen(repr=False)
class Accept(Action):
    """Let the last claim stand (Cheat's challenge window, including a final play)."""

    def __str__(self) -> str:
        return "Accept()"

    __repr__ = __str__

    def text(self) -> str:
        """The text form records hold: ``accept``."""
        return "accept"


@attrs.frozen(repr=False)
class Pass(Action):
    """Pass the turn without laying cards, where the rules allow it.

    Under a rule that needs every opponent's consent, this asks for it:
    each opponent answers :class:`Accept` (agree) or :class:`Refuse`.
    """

    def __str__(self) -> str:
        return "Pass()"

    __repr__ = __str__

    def text(self) -> str:
        """The text form records hold: ``pass``."""
        return "pass"


@attrs.frozen(repr=False)
class Refuse(Action):
    """Refuse another player's request to pass; that player must lay cards."""

    def __str__(self) -> str:
        return "Refuse()"

    __repr__ = __str__

    def text(self) -> str:
        """The text form records hold: ``refuse``."""
        return "refuse"


@attrs.frozen(repr=False)
class Discard(Action):
    """Set aside one complete four of each rank in ``ranks``; ``Discard(())`` declines.

    ``ranks`` may be given as text: ``Discard("Q 7")`` or ``Discard(["Q", "7"])``.
    """

    ranks: tuple[Rank, ...] = attrs.field(converter=_to_ranks)

    def __str__(self) -> str:
        return f"Discard({' '.join(map(str, self.ranks))})"

    __repr__ = __str__

    def text(self) -> str:
        """The text form records hold: ``discard`` and the ranks, such as ``discard 7 K``."""
        return " ".join(["discard", *map(str, self.ranks)])


def parse_action(text: str) -> Action:
    """Read an action from its text form (:meth:`Action.text`), the form game records hold.

    The forms are ``play <cards> as <rank>``, ``challenge``, ``challenge
    earlier``, ``accept``, ``discard <ranks>`` (``discard`` alone declines),
    ``pass`` and ``refuse``; spaces around the text are ignored. Cards and
    ranks are read as :func:`~cheatrules.cards` and
    :func:`~cheatrules.ranks` read them, so ``"play 7c Kd as 7"`` works too.

    >>> parse_action("play 7♣ K♦ as 7")
    Play(7♣ K♦ as 7)
    >>> parse_action("discard Q")
    Discard(Q)

    Args:
        text: the text of one action.

    Returns:
        The action, equal to the one whose :meth:`~Action.text` it is.

    Raises:
        ActionTextError: ``text`` is not text, or spells none of the forms.
        CardError: a card or rank in the text cannot be read.

    """
    if not isinstance(text, str):
        raise ActionTextError(
            N_("an action must be text such as 'play 7♣ as 7'; got %(got)s"), got=repr(text)
        )
    verb, _, rest = text.strip().partition(" ")
    rest = rest.strip()
    if verb == "challenge" and rest in ("", "earlier"):
        return Challenge(earlier=bool(rest))
    if verb == "accept" and not rest:
        return Accept()
    if verb == "pass" and not rest:
        return Pass()
    if verb == "refuse" and not rest:
        return Refuse()
    if verb == "discard":
        return Discard(ranks(rest))
    if verb == "play" and " as " in f" {rest}":
        laid, _, rank = f" {rest}".rpartition(" as ")
        return Play(cards(laid), rank.strip())
    raise ActionTextError(
        N_(
            "cannot read %(text)s as an action; write 'play <cards> as <rank>', 'challenge', "
            "'challenge earlier', 'accept', 'discard <ranks>', 'pass' or 'refuse'"
        ),
        text=repr(text),
    )
