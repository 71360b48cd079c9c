"""The values that describe a table: the :class:`Phase`, a :class:`Claim`, an :class:`Outcome`."""

from __future__ import annotations

import enum
from typing import Any

import attrs

from cheatrules import _checks as checks
from cheatrules.cards import Rank
from cheatrules.errors import CardError, SeatError
from cheatrules.events import describe_claim

__all__ = ["Claim", "Outcome", "Phase"]


class Phase(enum.Enum):
    """What kind of decision the player to move faces."""

    #: Lay cards (in Verish' Ne Verish' the decision may also be a challenge).
    PLAY = "play"
    #: Cheat's challenge window, where the player challenges or accepts the last claim.
    CHALLENGE = "challenge"
    #: The player who just took the pile may discard complete fours.
    DISCARD = "discard"
    #: An opponent asked to agree to a pass answers Accept or Refuse.
    CONSENT = "consent"
    #: The game is over.
    OVER = "over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


@attrs.frozen
class Claim:
    """A claim on the table: ``seat`` announced ``count`` cards of ``rank``.

    ``rank`` may be given as text (``"7"``).

    Raises:
        SeatError: ``seat`` is not a whole number of 0 or more.
        RulesError: ``count`` is not a whole number of 1 or more.
        CardError: ``rank`` is not a rank players announce.

    >>> Claim(1, 2, "7")
    Claim(seat=1, count=2, rank=Rank.SEVEN)

    """

    seat: int = attrs.field(converter=checks.index, validator=checks.whole(0, error=SeatError))
    count: int = attrs.field(converter=checks.index, validator=checks.whole(1))
    rank: Rank = attrs.field(converter=checks.to_rank, validator=checks.rank(CardError))

    def __str__(self) -> str:
        return f"seat {self.seat}: {describe_claim(self.count, self.rank)}"


def _check_seats(instance: Any, attribute: Any, value: object) -> None:
    if not isinstance(value, tuple) or not all(
        isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0 for seat in value
    ):
        raise SeatError(
            f"{type(instance).__name__}.{attribute.name} must be seats, whole numbers "
            f"of 0 or more; got {value!r}"
        )


@attrs.frozen
class Outcome:
    """How a game ended: the winning seats and the losing seats.

    Where players leave one by one (Verish' Ne Verish'), ``winners`` lists
    them in the order they left.

    Raises:
        SeatError: ``winners`` or ``losers`` is not a sequence of seat numbers.

    """

    #: The seats that won, in the order they went out.
    winners: tuple[int, ...] = attrs.field(converter=checks.seats, validator=_check_seats)
    #: The seats that lost, in seat order.
    losers: tuple[int, ...] = attrs.field(converter=checks.seats, validator=_check_seats)
