"""Rank rules: which ranks the next claim may announce."""

from __future__ import annotations

from typing import Protocol

import attrs

from cheatrules.cards import Rank, _to_rank

__all__ = ["Ascending", "HoldUntilChallenge", "RankRule"]


class RankRule(Protocol):
    """Decides which ranks the next claim may announce.

    The engine calls :meth:`allowed` once after every claim and every
    challenge, and keeps the answer; a rule that allows one rank makes it the
    state's ``required_rank``, a rule that allows several leaves the choice to
    the player.
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
    >>> ranks = tuple(Rank)
    >>> rule.allowed(None, True, ranks), rule.allowed(Rank.KING, True, ranks)
    ((Rank.ACE,), (Rank.ACE,))
    >>> rule.allowed(Rank.SEVEN, False, ranks)
    (Rank.EIGHT,)
    """

    start: Rank = attrs.field(default=Rank.ACE, converter=_to_rank)

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

    >>> rule, ranks = HoldUntilChallenge(), tuple(Rank)
    >>> len(rule.allowed(None, True, ranks)), rule.allowed(Rank.QUEEN, False, ranks)
    (13, (Rank.QUEEN,))
    """

    def allowed(
        self, previous: Rank | None, table_empty: bool, ranks: tuple[Rank, ...]
    ) -> tuple[Rank, ...]:
        """Every rank of the deck when a round opens, else the round's rank."""
        if table_empty or previous is None:
            return ranks
        return (previous,)
