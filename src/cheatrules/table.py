"""The values that describe a table: the :class:`Phase`, a :class:`Claim`, an :class:`Outcome`."""

from __future__ import annotations

import enum

import attrs

from cheatrules.cards import Rank
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
    """A claim on the table: ``seat`` announced ``count`` cards of ``rank``."""

    seat: int
    count: int
    rank: Rank

    def __str__(self) -> str:
        return f"seat {self.seat}: {describe_claim(self.count, self.rank)}"


@attrs.frozen
class Outcome:
    """How a game ended: the winning seats and the losing seats.

    Where players leave one by one (Verish' Ne Verish'), ``winners`` lists
    them in the order they left.
    """

    #: The seats that won, in the order they went out.
    winners: tuple[int, ...]
    #: The seats that lost, in seat order.
    losers: tuple[int, ...]
