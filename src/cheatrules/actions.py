"""The decisions a player can make: play, challenge, accept, discard, pass, refuse.

An action names only *what* is decided; the actor is always the seat the
state says is to move (:attr:`GameState.to_move`).

>>> str(Play("7♣ K♦", "7"))
'Play(7♣ K♦ as 7)'
>>> Play("7c Kd", Rank.SEVEN).count
2
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

import attrs

from cheatrules import _checks as checks
from cheatrules.cards import Card, Rank, _to_rank, cards, ranks
from cheatrules.errors import IllegalActionError

__all__ = ["Accept", "Action", "Challenge", "Discard", "Pass", "Play", "Refuse"]


def _to_cards(value: str | Iterable[Card | str]) -> tuple[Card, ...]:
    # The legal-action generator builds thousands of plays from cards it
    # already holds; let those through without re-reading them.
    if type(value) is tuple and all(type(card) is Card for card in value):
        return value
    return cards(value)


def _to_ranks(value: str | Rank | Iterable[Rank | str]) -> tuple[Rank, ...]:
    return tuple(sorted(ranks(value)))


@attrs.frozen
class Action:
    """Base class of every action."""


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
        """Whether every card laid is of the announced rank."""
        return all(card.rank is self.rank for card in self.cards)

    def __str__(self) -> str:
        return f"Play({' '.join(map(str, self.cards))} as {self.rank})"

    __repr__ = __str__


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


@attrs.frozen(repr=False)
class Accept(Action):
    """Let the last claim stand (Cheat's challenge window, including a final play)."""

    def __str__(self) -> str:
        return "Accept()"

    __repr__ = __str__


@attrs.frozen(repr=False)
class Pass(Action):
    """Pass the turn without laying cards, where the rules allow it.

    Under a rule that needs every opponent's consent, this asks for it:
    each opponent answers :class:`Accept` (agree) or :class:`Refuse`.
    """

    def __str__(self) -> str:
        return "Pass()"

    __repr__ = __str__


@attrs.frozen(repr=False)
class Refuse(Action):
    """Refuse another player's request to pass; that player must lay cards."""

    def __str__(self) -> str:
        return "Refuse()"

    __repr__ = __str__


@attrs.frozen(repr=False)
class Discard(Action):
    """Set aside one complete four of each rank in ``ranks``; ``Discard(())`` declines.

    ``ranks`` may be given as text: ``Discard("Q 7")`` or ``Discard(["Q", "7"])``.
    """

    ranks: tuple[Rank, ...] = attrs.field(converter=_to_ranks)

    #: Declining to discard.
    NONE: ClassVar[tuple[Rank, ...]] = ()

    def __str__(self) -> str:
        return f"Discard({' '.join(map(str, self.ranks))})"

    __repr__ = __str__
