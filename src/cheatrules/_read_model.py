"""The read-model questions a state and a seat's view both answer, from their table and decision.

:class:`~cheatrules.GameState` and :class:`~cheatrules.Observation` each hold
a :class:`~cheatrules.Table` (the very same object for a state and its
views) and a decision; :class:`ReadModel` answers ``to_move``,
``last_claim``, ``required_rank`` and the rest from those two, once for both.
"""

from __future__ import annotations

from collections.abc import Sequence

from cheatrules.cards import Card, Rank
from cheatrules.decision import Decision
from cheatrules.rules import Rules
from cheatrules.seating import Seating
from cheatrules.table import Claim, Outcome, Phase, Table

__all__ = ["ReadModel"]


class ReadModel:
    """The questions anyone at the table may ask, answered from ``table`` and ``decision``."""

    __slots__ = ()

    table: Table
    decision: Decision

    @property
    def rules(self) -> Rules:
        """The rules being played."""
        return self.table.rules

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.table.rules.players

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now; ``None`` once the game is over."""
        return self.decision.to_move

    @property
    def phase(self) -> Phase:
        """The kind of decision :attr:`to_move` faces (the label of the decision)."""
        return self.decision.phase

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return self.table.hand_sizes

    @property
    def claims(self) -> Sequence[Claim]:
        """The claims on the table, oldest first, one per group (counts are the group sizes)."""
        return self.table.claims

    @property
    def pile_size(self) -> int:
        """How many cards are on the table."""
        return self.table.pile_size

    @property
    def last_claim(self) -> Claim | None:
        """The newest claim on the table; ``None`` when the table is empty."""
        return self.table.last_claim

    @property
    def required_rank(self) -> Rank | None:
        """The rank the next :class:`~cheatrules.Play` must announce.

        During a challenge window, the rank of the play that will follow it;
        ``None`` when the player may choose among several (see
        :attr:`allowed_ranks`) or the game is over.
        """
        return self.table.required_rank

    @property
    def allowed_ranks(self) -> tuple[Rank, ...]:
        """Every rank the next play may announce (empty once the game is over)."""
        return self.table.allowed_ranks

    @property
    def discarded(self) -> tuple[Card, ...]:
        """The cards set aside in complete fours, shown to everyone, in the order they went."""
        return self.table.discarded

    @property
    def seating(self) -> Seating:
        """Who is still in the game, and who has left in which order."""
        return self.table.seating

    @property
    def finishing_order(self) -> tuple[int, ...]:
        """The seats that have left the game, in the order they left."""
        return self.table.seating.out

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.table.outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        """The winners and losers once the game is over, else ``None``."""
        return self.table.outcome
