"""A view record's fields as stored, and the observation they stand for.

A view record keeps an observation's fields one by one, as the
:class:`~cheatrules.Observation` of earlier versions held them.
:class:`StoredView` holds them as read, so the checks can name a field that
does not fit; :func:`observation` then builds the observation itself: the
public :class:`~cheatrules.Table` from the fields, and the decision from the
phase, the seat to move and the seat's log (who is still to be asked in a
window or about a pass, whether a window reaches the claim beneath, who
opens after a discard offer).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from cheatrules._json import checked
from cheatrules.actions import Action, Challenge
from cheatrules.cards import Card, Rank
from cheatrules.decision import Consent, Decision, DiscardOffer, Over, Turn, Window
from cheatrules.errors import N_, Message, RecordError
from cheatrules.events import (
    Accepted,
    Challenged,
    Event,
    Passed,
    Played,
    Refused,
    Revealed,
)
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


def observation(stored: StoredView) -> Observation:
    """The observation a view record stands for, its fields and log checked already.

    Raises:
        RecordError: the log does not lead to the stored decision.

    """
    table = stored.table()
    return Observation(stored.seat, stored.hand, table, _decision(stored, table), stored.events)


def _decision(stored: StoredView, table: Table) -> Decision:
    mover = stored.to_move
    if stored.phase is Phase.OVER or mover is None:
        assert stored.outcome is not None  # the checks saw to it
        return Over(stored.outcome)
    mine = mover == stored.seat
    if stored.phase is Phase.PLAY:
        return Turn(mover, stored.choices if mine else ())
    if stored.phase is Phase.DISCARD:
        return DiscardOffer(mover, stored.offered if mine else (), _opener(stored, table))
    if stored.phase is Phase.CONSENT:
        passer = next((e.seat for e in reversed(stored.events) if isinstance(e, Passed)), None)
        if passer is None:
            raise RecordError(N_("view.phase: a consent request follows a pass"))
        askers = _after(table.seating.others_clockwise(passer), mover, N_("the pass"))
        return Consent(mover, passer, askers)
    return _window(stored, table, mover)


def _after(askers: tuple[int, ...], mover: int, what: str) -> tuple[int, ...]:
    """The seats asked after ``mover``, who must be one of ``askers``; ``what`` is marked ``N_``."""
    if mover not in askers:
        raise RecordError(
            N_("view.to_move: seat %(seat)s is not asked about %(what)s"),
            seat=mover,
            what=Message(what),
        )
    return askers[askers.index(mover) + 1 :]


def _window(stored: StoredView, table: Table, mover: int) -> Window:
    claim = table.last_claim
    if claim is None:
        raise RecordError(N_("view.phase: a challenge window needs a claim on the table"))
    seating = table.seating
    opened = next(e for e in reversed(stored.events) if not isinstance(e, Accepted))
    if isinstance(opened, Played):
        askers = stored.rules.window.askers(seating, claim.seat)
        return Window(mover, claim, _after(askers, mover, N_("the claim")), _reached(stored, table))
    # A final play kept on the table after the claim beneath it was
    # challenged: asked again from that challenger on, clockwise.
    challenge = next((e for e in reversed(stored.events) if isinstance(e, Challenged)), None)
    if challenge is None or not challenge.earlier:
        raise RecordError(N_("view.phase: a challenge window follows a claim"))
    challenger = challenge.seat
    order = stored.rules.window.askers(seating, claim.seat)
    resume = order[order.index(challenger) :] if challenger in order else order
    return Window(mover, claim, _after(resume, mover, N_("the final play")))


def _reached(stored: StoredView, table: Table) -> Claim | None:
    """The claim beneath the newest, where an extended window reaches it."""
    claims = table.claims
    if not stored.rules.window.extended or len(claims) < 2:
        return None
    beneath = claims[-2]
    if not table.seating.is_active(beneath.seat):
        return None
    # No pass took effect between the two claims (a pass lets a claim stand).
    events = stored.events
    newest = max((i for i, event in enumerate(events) if isinstance(event, Played)), default=0)
    previous = max(
        (i for i, event in enumerate(events[:newest]) if isinstance(event, Played)), default=0
    )
    between = events[previous + 1 : newest]
    passes = [i for i, event in enumerate(between) if isinstance(event, Passed)]
    ends = [*passes[1:], len(between)]
    for number, start in enumerate(passes):
        if not any(isinstance(event, Refused) for event in between[start : ends[number]]):
            return None
    return beneath


def _opener(stored: StoredView, table: Table) -> int:
    """The seat the last challenge chose to open, once the taker has chosen its fours."""
    events: Sequence[Event] = stored.events
    index = max((i for i, e in enumerate(events) if isinstance(e, Challenged)), default=-1)
    revealed = events[index + 1] if 0 <= index < len(events) - 1 else None
    if not isinstance(revealed, Revealed):
        raise RecordError(N_("view.phase: a discard offer follows a challenge"))
    challenge = events[index]
    assert isinstance(challenge, Challenged)
    return stored.rules.after_challenge.opener(
        table.seating, challenge.declarer, challenge.seat, revealed.truthful
    )
