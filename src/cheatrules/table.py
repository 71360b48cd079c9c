"""The public record of a game: the :class:`Table`, its :class:`Claim` values, its :class:`Outcome`.

A :class:`Table` is everything every seat may see at one moment. A
:class:`~cheatrules.GameState` holds one, and every
:class:`~cheatrules.Observation` made from that state holds the very same
object, so a state and its seats' views answer the read-model questions
(``last_claim``, ``pile_size``, ``required_rank``...) from one place.

>>> import cheatrules as cr
>>> state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
>>> table = state.apply(cr.Play("K♦", "A")).table
>>> table.last_claim, table.pile_size, table.hand_sizes
(Claim(seat=0, count=1, rank=Rank.ACE), 1, (1, 2, 2))
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import attrs

from cheatrules import _checks as checks
from cheatrules._persistent import Log, maker
from cheatrules.cards import Card, Rank
from cheatrules.errors import CardError, SeatError
from cheatrules.events import (
    Accepted,
    Dealt,
    Discarded,
    Drew,
    Event,
    GameOver,
    Passed,
    PileTaken,
    Played,
    WentOut,
    describe_claim,
)
from cheatrules.rules import Rules
from cheatrules.seating import Seating

__all__ = ["Claim", "Outcome", "Phase", "Table"]


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


@attrs.frozen(init=False)
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

    def __init__(self, seat: int, count: int, rank: Rank | str) -> None:
        # The engine makes a claim at every play, from values it has checked:
        # plain ints and a rank go straight in. Anything else takes the fields'
        # converters and validators, as attrs' own __init__ would.
        plain = (
            type(seat) is int
            and type(count) is int
            and type(rank) is Rank
            and seat >= 0
            and count >= 1
            and rank is not Rank.JOKER
        )
        if not plain:
            seat, count = checks.index(seat), checks.index(count)
            rank = checks.to_rank(rank)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "rank", rank)
        if not plain:
            attrs.validate(self)

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


def _claims(claims: Iterable[Claim]) -> Sequence[Claim]:
    """The claims as given when they are a tuple or a shared log, else as a tuple."""
    return claims if isinstance(claims, (tuple, Log)) else tuple(claims)


def _pile_size(table: Table) -> int:
    return sum(claim.count for claim in table.claims)


@attrs.frozen
class Table:
    """Everything every seat may see of a game at one moment. Frozen and comparable.

    Read it from :attr:`GameState.table <cheatrules.GameState.table>` or
    :attr:`Observation.table <cheatrules.Observation.table>` (the same
    object for every seat's view of one state). It holds no card that any
    seat has not been shown: the hands are sizes, the pile is its claims.
    """

    #: The rules of the game.
    rules: Rules
    #: The claims on the table, oldest first, one per group laid since the last pickup;
    #: their counts are the group sizes. A tuple, or a read-only sequence that compares
    #: equal to the tuple of the same claims (successive tables of a game share it).
    claims: Sequence[Claim] = attrs.field(converter=_claims)
    #: How many cards each seat holds.
    hand_sizes: tuple[int, ...]
    #: Every rank the next play may announce (empty once the game is over).
    allowed_ranks: tuple[Rank, ...]
    #: Who is still in the game, and who has left in which order.
    seating: Seating
    #: The cards set aside in complete fours, shown to everyone, in the order they went.
    discarded: tuple[Card, ...] = ()
    #: How many cards are left in the stock (the fixed-hand variation).
    stock_size: int = 0
    #: How many cards were set aside unseen at the deal.
    set_aside_count: int = 0
    #: The winners and losers once the game is over, else ``None``.
    outcome: Outcome | None = None
    #: How many cards are on the table (the sum of the claims' counts).
    pile_size: int = attrs.field(default=attrs.Factory(_pile_size, takes_self=True))

    @classmethod
    def dealt(cls, rules: Rules, event: Dealt) -> Table:
        """The table right after the deal ``event`` (as any seat sees it): where a game starts.

        >>> import cheatrules as cr
        >>> state = cr.deal(cr.english(3), seed=1)
        >>> cr.Table.dealt(state.rules, state.events[0]) == state.table
        True
        """
        return cls(
            rules,
            (),
            event.hand_sizes,
            rules.ranks.allowed(None, True, rules.deck.ranks),
            Seating(rules.players),
            stock_size=event.stock_count,
            set_aside_count=event.set_aside_count,
            pile_size=0,
        )

    def after(self, event: Event) -> Table:
        """The table after ``event``: the one rule of how the public table moves.

        Pure: it reads the event's facts (the claim laid, the groups a
        pickup took and kept, the cards drawn and set aside, the seat that
        left, the result) and this table, never a card nobody was shown, so
        the same step serves the engine, every seat's view of the log and
        every reader that follows one. An event that moves nothing public
        (a challenge, a reveal, a refusal, an acceptance of a claim) leaves
        this very table.

        The engine makes each state's table so, event by event:

        >>> import cheatrules as cr
        >>> state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
        >>> state = state.apply(cr.Play("K♦", "A")).apply(cr.Challenge())
        >>> table = cr.Table.dealt(state.rules, state.events[0])
        >>> for event in state.observe(2).events[1:]:
        ...     table = table.after(event)
        >>> table == state.table
        True

        Raises:
            TypeError: ``event`` is not an event, or is a deal (see :meth:`dealt`).

        """
        step = STEPS.get(type(event))
        if step is None:
            if not isinstance(event, Event) or isinstance(event, Dealt):
                raise TypeError(
                    f"Table.after takes an event of the game after the deal, "
                    f"not {type(event).__name__}; a deal starts a table: Table.dealt"
                )
            return self  # a challenge, a reveal, a refusal: nothing public moves
        return step(self, event)

    @classmethod
    def course(cls, rules: Rules, events: Iterable[Event]) -> Iterator[Table]:
        """The table after each of ``events``, a log that starts with the deal, in order.

        >>> import cheatrules as cr
        >>> state = cr.deal(cr.english(3), seed=1).apply(cr.Play("2♣", "A"))
        >>> [table.pile_size for table in cr.Table.course(state.rules, state.events)]
        [0, 1]
        """
        iterator = iter(events)
        first = next(iterator, None)
        if not isinstance(first, Dealt):
            raise TypeError("Table.course takes a log that starts with the deal (a Dealt event)")
        table = cls.dealt(rules, first)
        yield table
        for event in iterator:
            table = table.after(event)
            yield table

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.rules.players

    @property
    def group_sizes(self) -> tuple[int, ...]:
        """The number of cards in each group on the table, oldest first."""
        return tuple(claim.count for claim in self.claims)

    @property
    def last_claim(self) -> Claim | None:
        """The newest claim on the table; ``None`` when the table is empty."""
        return self.claims[-1] if self.claims else None

    @property
    def required_rank(self) -> Rank | None:
        """The rank the next play must announce; ``None`` when there is a choice or none."""
        allowed = self.allowed_ranks
        return allowed[0] if len(allowed) == 1 else None

    @property
    def finishing_order(self) -> tuple[int, ...]:
        """The seats that have left the game, in the order they left."""
        return self.seating.out

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome is not None


# -- the fold: one step for each event that moves the public table ------------------


# Each step makes a table from values it has worked out (see _persistent.maker).
_made = maker(Table, [field.name for field in attrs.fields(Table)])
_made_claim = maker(Claim, [field.name for field in attrs.fields(Claim)])


def _moved(table: Table, claims: Sequence[Claim], sizes: tuple[int, ...], **changes: Any) -> Table:
    """``table`` with these claims and hand sizes, and any other field in ``changes``."""
    return _made(
        table.rules,
        claims,
        sizes,
        changes.get("allowed_ranks", table.allowed_ranks),
        changes.get("seating", table.seating),
        changes.get("discarded", table.discarded),
        changes.get("stock_size", table.stock_size),
        table.set_aside_count,
        changes.get("outcome", table.outcome),
        changes.get("pile_size", table.pile_size),
    )


def _resized(sizes: tuple[int, ...], seat: int, change: int) -> tuple[int, ...]:
    changed = list(sizes)
    changed[seat] += change
    return tuple(changed)


def _played(table: Table, event: Played) -> Table:
    """A group laid: its claim joins the table, its cards leave the hand, the sequence moves on."""
    claim = _made_claim(event.seat, event.count, event.rank)
    claims = table.claims  # a tuple at first, then a log successive tables share
    claims = claims.extended((claim,)) if isinstance(claims, Log) else Log.of((*claims, claim))
    rules = table.rules
    return _made(
        rules,
        claims,
        _resized(table.hand_sizes, event.seat, -event.count),
        rules.ranks.allowed(event.rank, False, rules.deck.ranks),
        table.seating,
        table.discarded,
        table.stock_size,
        table.set_aside_count,
        None,
        table.pile_size + event.count,
    )


def _taken(table: Table, event: PileTaken) -> Table:
    """A pickup: the taker takes the groups the event says, the ``kept`` newest stay."""
    claims = table.claims
    newest = claims[-1] if claims else None
    kept: tuple[Claim, ...] = ()
    if event.kept:
        kept = tuple(claims[len(claims) - event.kept :])
    rules = table.rules
    return _made(
        rules,
        kept,
        _resized(table.hand_sizes, event.seat, event.count),
        # A new round opens, whatever stays on the table.
        rules.ranks.allowed(None if newest is None else newest.rank, True, rules.deck.ranks),
        table.seating,
        table.discarded,
        table.stock_size,
        table.set_aside_count,
        None,
        sum(claim.count for claim in kept) if kept else 0,
    )


def _passed(table: Table) -> Table:
    """A pass takes effect: a sequence moves on as if its required rank had been claimed."""
    allowed = table.allowed_ranks
    if len(allowed) != 1:
        return table
    rules = table.rules
    return _moved(
        table,
        table.claims,
        table.hand_sizes,
        allowed_ranks=rules.ranks.allowed(allowed[0], False, rules.deck.ranks),
    )


def _drew(table: Table, event: Drew) -> Table:
    return _moved(
        table,
        table.claims,
        _resized(table.hand_sizes, event.seat, event.count),
        stock_size=table.stock_size - event.count,
    )


def _discarded(table: Table, event: Discarded) -> Table:
    if not event.cards:
        return table
    return _moved(
        table,
        table.claims,
        _resized(table.hand_sizes, event.seat, -len(event.cards)),
        discarded=table.discarded + event.cards,
    )


def _went_out(table: Table, event: WentOut) -> Table:
    return _moved(table, table.claims, table.hand_sizes, seating=table.seating.leave(event.seat))


def _game_over(table: Table, event: GameOver) -> Table:
    return _moved(
        table,
        table.claims,
        table.hand_sizes,
        allowed_ranks=(),
        outcome=Outcome(event.winners, event.losers),
    )


#: The step of :meth:`Table.after` for each kind of event that moves the table (the engine
#: takes its step from here directly, saving the call of the method at every event).
STEPS: dict[type, Callable[[Table, Any], Table]] = {
    Played: _played,
    PileTaken: _taken,
    # A pass takes effect at once, or where the rules want consent, with the
    # acceptance that completes it (the one that names the passer).
    Passed: lambda table, event: table if table.rules.passing.consent else _passed(table),
    Accepted: lambda table, event: table if event.passer is None else _passed(table),
    Drew: _drew,
    Discarded: _discarded,
    WentOut: _went_out,
    GameOver: _game_over,
}
