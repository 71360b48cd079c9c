"""Rank rules: which ranks the next claim may announce."""

from __future__ import annotations

from typing import ClassVar, Protocol

import attrs

from cheatrules import _checks as checks
from cheatrules.cards import STANDARD_RANKS, Rank  # noqa: F401 (the doctests use it)

__all__ = ["Adjacent", "Ascending", "Descending", "FreeChoice", "HoldUntilChallenge", "RankRule"]


class RankRule(Protocol):
    """Decides which ranks the next claim may announce.

    The engine calls :meth:`allowed` once after every claim and every
    challenge, and keeps the answer; a rule that allows one rank makes it the
    state's ``required_rank``, a rule that allows several leaves the choice to
    the player.

    A rank rule may declare, as a class attribute, ``names_one_rank``:
    whether, after a claim that does not open a round, exactly one rank is
    allowed (``True`` when left out). A pass rule that needs a single
    required rank (``passing="all-revealed"``) is refused beside a rank
    rule that declares ``names_one_rank = False``. See ``cheatrules.policies.declared()``.
    """

    def allowed(
        self, previous: Rank | None, table_empty: bool, ranks: tuple[Rank, ...]
    ) -> tuple[Rank, ...]:
        """The ranks the next claim may announce, in rank order.

        Args:
            previous: the rank of the latest claim of the game (challenged or
                not), or ``None`` before the first claim.
            table_empty: whether the table is empty, so that the next claim
                opens a new round (the start of the game, or just after a
                challenge took the pile).
            ranks: the ranks of the deck in use, in rank order.

        """
        ...


@attrs.frozen
class Ascending:
    """Cheat's sequence: ``start`` first, then each claim one rank above the last, wrapping round.

    A challenge never resets the sequence. Ranks absent from the deck are
    skipped (with the 36-card pack, 10 follows 9 and 6 follows Ace).

    >>> rule = Ascending()
    >>> ranks = STANDARD_RANKS
    >>> rule.allowed(None, True, ranks), rule.allowed(Rank.KING, True, ranks)
    ((Rank.ACE,), (Rank.ACE,))
    >>> rule.allowed(Rank.SEVEN, False, ranks)
    (Rank.EIGHT,)
    """

    start: Rank = attrs.field(default=Rank.ACE, converter=checks.to_rank, validator=checks.rank())

    names_one_rank: ClassVar[bool] = True

    def allowed(
        self, previous: Rank | None, table_empty: bool, ranks: tuple[Rank, ...]
    ) -> tuple[Rank, ...]:
        """The single rank that comes next in the sequence."""
        if previous is None:
            return (self.start,) if self.start in ranks else (ranks[0],)
        if previous in ranks:
            return (ranks[(ranks.index(previous) + 1) % len(ranks)],)
        following = [rank for rank in ranks if rank > previous]
        return (following[0] if following else ranks[0],)


@attrs.frozen
class HoldUntilChallenge:
    """Verish' Ne Verish': the opener of a round names any rank; everyone after keeps it.

    A round opens at the start of the game and after every challenge, when
    the table is empty.

    >>> rule, ranks = HoldUntilChallenge(), STANDARD_RANKS
    >>> len(rule.allowed(None, True, ranks)), rule.allowed(Rank.QUEEN, False, ranks)
    (13, (Rank.QUEEN,))
    """

    names_one_rank: ClassVar[bool] = True

    def allowed(
        self, previous: Rank | None, table_empty: bool, ranks: tuple[Rank, ...]
    ) -> tuple[Rank, ...]:
        """Every rank of the deck when a round opens, else the round's rank."""
        if table_empty or previous is None:
            return ranks
        return (previous,)


def _step(rank: Rank, ranks: tuple[Rank, ...], by: int) -> Rank:
    """The rank ``by`` places along the deck's ranks from ``rank``, wrapping round."""
    if rank in ranks:
        return ranks[(ranks.index(rank) + by) % len(ranks)]
    following = [other for other in ranks if (other > rank if by > 0 else other < rank)]
    if by > 0:
        return following[0] if following else ranks[0]
    return following[-1] if following else ranks[-1]


@attrs.frozen
class Descending:
    """The sequence downwards: ``start`` first (Aces), then K, Q, J ... 2, A again.

    A challenge never resets it.

    >>> rule, ranks = Descending(), STANDARD_RANKS
    >>> rule.allowed(None, True, ranks), rule.allowed(Rank.ACE, False, ranks)
    ((Rank.ACE,), (Rank.KING,))
    >>> rule.allowed(Rank.TWO, True, ranks)
    (Rank.ACE,)
    """

    start: Rank = attrs.field(default=Rank.ACE, converter=checks.to_rank, validator=checks.rank())

    names_one_rank: ClassVar[bool] = True

    def allowed(
        self, previous: Rank | None, table_empty: bool, ranks: tuple[Rank, ...]
    ) -> tuple[Rank, ...]:
        """The single rank one below the last, wrapping from the lowest to the highest."""
        if previous is None:
            return (self.start,) if self.start in ranks else (ranks[-1],)
        return (_step(previous, ranks, -1),)


@attrs.frozen
class FreeChoice:
    """Free-choice Cheat: every claim names any rank of the deck.

    >>> len(FreeChoice().allowed(Rank.SEVEN, False, STANDARD_RANKS))
    13
    """

    names_one_rank: ClassVar[bool] = False

    def allowed(
        self, previous: Rank | None, table_empty: bool, ranks: tuple[Rank, ...]
    ) -> tuple[Rank, ...]:
        """Every rank of the deck."""
        return ranks


@attrs.frozen
class Adjacent:
    """The same rank as the last claim, or one above or below it (Ace both high and low).

    The first claim of the game names any rank.

    >>> rule, ranks = Adjacent(), STANDARD_RANKS
    >>> rule.allowed(Rank.SEVEN, False, ranks)
    (Rank.SIX, Rank.SEVEN, Rank.EIGHT)
    >>> rule.allowed(Rank.ACE, True, ranks)
    (Rank.ACE, Rank.TWO, Rank.KING)
    """

    names_one_rank: ClassVar[bool] = False

    def allowed(
        self, previous: Rank | None, table_empty: bool, ranks: tuple[Rank, ...]
    ) -> tuple[Rank, ...]:
        """The last rank and its two neighbours, in rank order (any rank to open the game)."""
        if previous is None:
            return ranks
        near = {_step(previous, ranks, -1), _step(previous, ranks, 0), _step(previous, ranks, 1)}
        return tuple(sorted(near))
