"""What one seat knows: the :class:`Observation` a bot or a player's screen receives.

An observation holds the seat's own hand, every hand's size, the table as
everyone sees it, whose decision it is, and the event log as that seat saw it
(other players' laid cards hidden unless revealed). It holds no reference to
the game state, so it cannot leak a hidden card.

>>> import cheatrules as cr
>>> state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
>>> state = state.apply(cr.Play("K♦", "A"))
>>> seen = state.observe(1)
>>> seen.hand, seen.hand_sizes, seen.pile_size
((Card(rank=Rank.ACE, suit=Suit.SPADES), Card(rank=Rank.TWO, suit=Suit.HEARTS)), (1, 2, 2), 1)
>>> seen.events[-1]
Played(seat=0, cards=(), rank=Rank.ACE, count=1)
>>> seen.legal_actions() == state.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import attrs

from cheatrules._persistent import Log
from cheatrules._read_model import ReadModel
from cheatrules.actions import Action
from cheatrules.cards import Card, Rank
from cheatrules.decision import Decision, DiscardOffer
from cheatrules.events import Event, describe_claim
from cheatrules.legal import LegalActions
from cheatrules.table import Table

if TYPE_CHECKING:
    from cheatrules.knowledge import CardKnowledge
    from cheatrules.state import GameState

__all__ = ["Observation"]


def _events(events: Iterable[Event]) -> Sequence[Event]:
    """A seat's log as given when it is a shared one, else as a tuple."""
    return events if isinstance(events, (tuple, Log)) else tuple(events)


@attrs.frozen
class Observation(ReadModel):
    """Everything one seat knows, and nothing else. Frozen and comparable.

    Make one with :meth:`GameState.observe <cheatrules.GameState.observe>`.
    Two states that differ only in cards this seat has never seen give equal
    observations.

    It is the seat's hand and log, the state's own :attr:`table` (the very
    object the state holds) and the :attr:`decision` as this seat sees it;
    the read-model questions (:attr:`last_claim`, :attr:`pile_size`,
    :attr:`required_rank`...) are the table's answers.

    ``cheatrules.dumps(observation)`` writes it as its seat's view record,
    which :func:`cheatrules.loads_view` reads back equal.
    """

    #: The seat observing.
    seat: int
    #: The seat's own hand, sorted.
    hand: tuple[Card, ...]
    #: What every seat sees (the claims, the hand sizes, the allowed ranks, the seating...).
    table: Table
    #: The decision asked for now, as this seat sees it (another seat's discard offer
    #: shows no fours).
    decision: Decision
    #: The log as this seat saw it, oldest first. A tuple, or a read-only sequence that
    #: compares equal to the tuple of the same events (an observation from
    #: :meth:`GameState.observe <cheatrules.GameState.observe>` shares it with the
    #: seat's earlier observations of the game instead of copying it).
    events: Sequence[Event] = attrs.field(converter=_events, repr=False)

    @property
    def set_aside_count(self) -> int:
        """How many cards were set aside unseen at the deal."""
        return self.table.set_aside_count

    @property
    def offered(self) -> tuple[Rank, ...]:
        """The fours this seat may discard now (empty unless it is this seat's discard decision)."""
        decision = self.decision
        return decision.fours if isinstance(decision, DiscardOffer) else ()

    @property
    def stock_size(self) -> int:
        """How many cards are left in the stock (the fixed-hand variation)."""
        return self.table.stock_size

    @property
    def choices(self) -> tuple[Action, ...]:
        """The decisions other than plays and discards open to this seat now.

        A challenge, an earlier challenge, a pass, accepting or refusing;
        empty when it is not to move.
        """
        decision = self.decision
        return decision.choices if decision.to_move == self.seat else ()

    @property
    def group_sizes(self) -> tuple[int, ...]:
        """The number of cards in each group on the table, oldest first."""
        return self.table.group_sizes

    @property
    def is_my_turn(self) -> bool:
        """Whether this seat must decide now."""
        return self.decision.to_move == self.seat

    def legal_actions(self) -> LegalActions:
        """The seat's legal decisions: the state's own list when it is to move, else empty.

        The :attr:`decision` makes them, as it does for the state.

        A lazy :class:`~cheatrules.LegalActions`: counting, indexing, ``in``
        and :meth:`~cheatrules.LegalActions.choice` never list every play.
        """
        decision = self.decision
        if decision.to_move != self.seat:
            return LegalActions()
        return decision.legal_actions(self.hand, self.table)

    def knowledge(self) -> CardKnowledge:
        """What this seat knows for certain about where the cards are.

        See :func:`cheatrules.knowledge.card_knowledge`. That module stands a
        layer above this one and is loaded by the first call, not with the engine.
        """
        from cheatrules.knowledge import card_knowledge  # the knowledge module needs this one

        return card_knowledge(self)

    def sample(
        self, rng: random.Random, *, budget: int | None = None, timeout: float | None = None
    ) -> GameState:
        """A whole game this seat could not tell from the real one, hidden cards placed at random.

        ``observation.sample(rng).observe(observation.seat) == observation``.
        See :func:`cheatrules.sampling.sample`, to which this passes the work
        ``budget`` (the search's events replayed; its default where ``None``)
        and the ``timeout`` (seconds of wall clock for the whole call; none
        where ``None``). That module stands a layer above this one and is
        loaded by the first call, not with the engine.

        Raises:
            SamplingBudgetError: no game found in the budget or the time
                (:class:`~cheatrules.sampling.SamplingTimeoutError`), or, without
                the solver, none found by the search, which proves nothing
                (:class:`~cheatrules.sampling.SamplingUnprovenError`); each a
                :class:`~cheatrules.sampling.SamplingError`.
            SamplingError: no game gives this view (proved).

        """
        from cheatrules.sampling import sample  # the sampling module needs this one

        return sample(self, rng, budget=budget, timeout=timeout)

    def _repr_svg_(self) -> str:
        """The table as this seat sees it, for notebooks: :func:`cheatrules.svg.render`."""
        from cheatrules.svg import render  # the pictures module draws observations

        return render(self)

    def __repr__(self) -> str:
        hand = " ".join(map(str, self.hand)) or "(empty)"
        count = len(self.events)
        return (
            f"Observation(seat={self.seat}, hand={hand}, to_move={self.to_move}, "
            f"phase={self.phase.name}, {count} event{'' if count == 1 else 's'})"
        )

    def __str__(self) -> str:
        lines = [f"seat {self.seat} of {self.players} ({self.rules.name})"]
        if self.outcome is not None:
            lines.append(
                f"game over: winners {_seats(self.outcome.winners)}; "
                f"losers {_seats(self.outcome.losers)}"
            )
        else:
            lines.append(f"{self.phase.value}: seat {self.to_move} to decide")
        lines.append(f"hand: {' '.join(map(str, self.hand)) or '(empty)'}")
        lines.append(f"hand sizes: {' '.join(map(str, self.hand_sizes))}")
        claim = self.last_claim
        said = f"seat {claim.seat}, {describe_claim(claim.count, claim.rank)}" if claim else "none"
        cards, groups = self.pile_size, len(self.claims)
        lines.append(
            f"pile: {cards} card{'' if cards == 1 else 's'} in {groups} "
            f"group{'' if groups == 1 else 's'}; last claim: {said}"
        )
        if self.outcome is None:
            ranks = " ".join(map(str, self.allowed_ranks))
            lines.append(f"next claim: {ranks}")
        if self.finishing_order:
            lines.append(f"out: {_seats(self.finishing_order)}")
        return "\n".join(lines)


def _seats(seats: tuple[int, ...]) -> str:
    return " ".join(map(str, seats)) or "none"
