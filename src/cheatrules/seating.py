"""Who sits where and who is still in the game: the :class:`Seating` value."""

from __future__ import annotations

from functools import cached_property

import attrs

from cheatrules import _checks
from cheatrules.errors import N_, SeatError

__all__ = ["Seating"]


@attrs.frozen
class Seating:
    """Seats ``0 .. players-1`` clockwise, and the seats that have left, in the order they left.

    Policies receive a seating to decide who is asked, who opens and whether
    the game is over; players who have left are skipped for every purpose.

    >>> seating = Seating(4).leave(2)
    >>> seating.next_active(1), seating.others_clockwise(0), seating.active
    (3, (1, 3), (0, 1, 3))

    Raises:
        SeatError: ``players`` is not a whole number of at least 1, or
            ``out`` names a seat off the table or a seat twice.

    """

    players: int = attrs.field(converter=_checks.index, validator=_checks.whole(1, error=SeatError))
    out: tuple[int, ...] = attrs.field(default=(), converter=_checks.seats)

    def __attrs_post_init__(self) -> None:
        out = self.out
        if (
            not isinstance(out, tuple)
            or not all(type(seat) is int and 0 <= seat < self.players for seat in out)
            or len(set(out)) != len(out)
        ):
            raise SeatError(
                N_("Seating.out must be distinct seats from 0 to %(last)s; got %(got)s"),
                last=self.players - 1,
                got=repr(out),
            )

    @cached_property
    def active(self) -> tuple[int, ...]:
        """The seats still in the game, in seat order."""
        return tuple(seat for seat in range(self.players) if seat not in self.out)

    def is_active(self, seat: int) -> bool:
        """Whether ``seat`` is still in the game.

        Raises:
            SeatError: ``seat`` is not a seat at this table (so for every method below).

        """
        return self._seat(seat) not in self.out

    def next_active(self, seat: int) -> int:
        """The first seat still in the game clockwise after ``seat`` (``seat`` itself if alone)."""
        return self._next[self._seat(seat)]

    def active_from(self, seat: int) -> int:
        """``seat`` while it is still in the game, else the first seat still in clockwise after it.

        The seat that plays when the rules name one that may have left since.

        >>> Seating(4, (1,)).active_from(1), Seating(4, (1,)).active_from(2)
        (2, 2)
        """
        return seat if self.is_active(seat) else self._next[seat]

    def others_clockwise(self, seat: int) -> tuple[int, ...]:
        """Every other seat still in the game, clockwise from ``seat``'s left neighbour."""
        return self._others[self._seat(seat)]

    def leave(self, seat: int) -> Seating:
        """The seating after ``seat`` leaves the game."""
        return Seating(self.players, (*self.out, seat))

    def _seat(self, seat: object) -> int:
        if type(seat) is int and 0 <= seat < self.players:
            return seat  # the engine's own calls: no more checking than this
        return _checks.whole_number(seat, "seat", 0, self.players - 1, SeatError)

    @cached_property
    def _others(self) -> tuple[tuple[int, ...], ...]:
        players = self.players
        return tuple(
            tuple(
                other
                for other in ((seat + step) % players for step in range(1, players))
                if other not in self.out
            )
            for seat in range(players)
        )

    @cached_property
    def _next(self) -> tuple[int, ...]:
        return tuple(others[0] if others else seat for seat, others in enumerate(self._others))
