"""A view record's fields as stored, and the observation they stand for.

A view record keeps an observation's fields one by one, as the
:class:`~cheatrules.Observation` of earlier versions held them.
:class:`StoredView` holds them as read, so the checks can name a field that
does not fit; :func:`observation` then builds the observation itself: the
public :class:`~cheatrules.Table` from the fields, and the decision the
seat's log leads to (worked out by the engine's own decisions as the log is
followed, :mod:`cheatrules._records.view_log`) with the seat's own parts.
"""

from __future__ import annotations

import attrs

from cheatrules._json import checked
from cheatrules.actions import Action, Challenge
from cheatrules.cards import Card, Rank
from cheatrules.decision import Decision, DiscardOffer, Turn
from cheatrules.events import Event
from cheatrules.legal import LegalActions
from cheatrules.observation import Observation
from cheatrules.rules import Rules
from cheatrules.seating import Seating
from cheatrules.table import Claim, Outcome, Phase, Table

__all__ = ["StoredView", "observation"]

_EARLIER = Challenge(earlier=True)


@attrs.frozen
class StoredView:
    """The fields of a view record, each as stored (checked one by one, not yet together)."""

    seat: int
    rules: Rules
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    claims: tuple[Claim, ...]
    to_move: int | None
    phase: Phase
    allowed_ranks: tuple[Rank, ...]
    finishing_order: tuple[int, ...]
    discarded: tuple[Card, ...]
    set_aside_count: int
    outcome: Outcome | None
    events: tuple[Event, ...]
    offered: tuple[Rank, ...]
    stock_size: int
    choices: tuple[Action, ...]

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.rules.players

    def table(self) -> Table:
        """The public table these fields describe."""
        seating = checked(
            "view.finishing_order", lambda: Seating(self.players, self.finishing_order)
        )
        return Table(
            self.rules,
            self.claims,
            self.hand_sizes,
            self.allowed_ranks,
            seating,
            self.discarded,
            self.stock_size,
            self.set_aside_count,
            self.outcome,
        )

    def legal_actions(self) -> LegalActions:
        """The seat's legal decisions, as the stored phase, choices and offer give them."""
        if self.to_move != self.seat:
            return LegalActions()
        if self.phase is Phase.DISCARD:
            return LegalActions(fours=self.offered, discarding=True)
        if self.phase is Phase.PLAY:
            return Turn(self.seat, self.choices).legal_actions(self.hand, self.table())
        return LegalActions(self.choices)


def observation(stored: StoredView, decision: Decision | None) -> Observation:
    """The observation a view record stands for, its fields and log checked already.

    ``decision`` is the one the log leads to, as another seat sees it
    (``None`` right after the deal, where the seat to move is the view's):
    the seat's own parts (its choices, its fours) are the view's.
    """
    table = stored.table()
    mine = stored.to_move == stored.seat
    if decision is None:
        assert stored.to_move is not None  # the checks saw to it
        decision = Turn(stored.to_move)
    if isinstance(decision, Turn):
        decision = Turn(decision.seat, stored.choices if mine else ())
    elif isinstance(decision, DiscardOffer) and mine:
        decision = attrs.evolve(decision, fours=stored.offered)
    return Observation(stored.seat, stored.hand, table, decision, stored.events)
