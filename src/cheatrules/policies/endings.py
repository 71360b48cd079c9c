"""Endings: when a game is over, and who won and lost."""

from __future__ import annotations

from typing import Protocol

import attrs

from cheatrules.seating import Seating

__all__ = ["Ending", "FirstOutWins", "LastInLoses"]


class Ending(Protocol):
    """Decides, each time a player goes out, whether the game is over and how it ended."""

    def is_over(self, seating: Seating) -> bool:
        """Whether the game ends with this seating (``seating.out`` in the order players left)."""
        ...

    def result(self, seating: Seating) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The winners and the losers, each a tuple of seats, once :meth:`is_over` holds."""
        ...


@attrs.frozen
class FirstOutWins:
    """Cheat: the first player to go out wins at once; everyone else loses.

    >>> FirstOutWins().result(Seating(4, out=(2,)))
    ((2,), (0, 1, 3))
    """

    def is_over(self, seating: Seating) -> bool:
        """Over as soon as one player is out."""
        return len(seating.out) >= 1

    def result(self, seating: Seating) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The first player out wins; the others lose."""
        winner = seating.out[0]
        return (winner,), tuple(seat for seat in range(seating.players) if seat != winner)


@attrs.frozen
class LastInLoses:
    """Verish' Ne Verish': players leave as they empty their hands; the last one in loses.

    The winners are listed in the order they left.

    >>> LastInLoses().is_over(Seating(3, out=(2,))), LastInLoses().result(Seating(3, out=(2, 0)))
    (False, ((2, 0), (1,)))
    """

    def is_over(self, seating: Seating) -> bool:
        """Over when at most one player is still in."""
        return len(seating.active) <= 1

    def result(self, seating: Seating) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Everyone who left wins, in order; the one left loses."""
        return seating.out, seating.active
