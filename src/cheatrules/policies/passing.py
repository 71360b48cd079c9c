"""Passing: whether a player may pass the turn instead of laying cards."""

from __future__ import annotations

from typing import ClassVar, Protocol

import attrs

from cheatrules.cards import Rank

__all__ = ["NoPassing", "PassRule", "WhenAllRevealed", "WithConsent"]


class PassRule(Protocol):
    """Decides when the player to move may pass instead of laying cards.

    Whatever the rule, the last active player who has not passed since the
    last claim may not pass too: someone lays cards. A pass moves the turn to
    the next player, and the rank sequence moves on as if a claim of the
    required rank had been made. With a stock, the passer draws from it.

    A pass rule may declare, as class attributes, ``offers_pass`` (whether
    a pass may ever be allowed; ``True`` when left out) and
    ``needs_single_rank`` (whether it works only under a rank rule that
    requires one rank after a claim; ``False`` when left out). See
    ``cheatrules.policies.declared()``.
    """

    @property
    def consent(self) -> bool:
        """Whether every opponent must agree to a pass (each answers Accept or Refuse)."""
        ...

    def allows(self, rank: Rank | None, revealed: int, copies: int) -> bool:
        """Whether a pass is allowed now.

        ``rank`` is the rank required (``None`` when the player may choose);
        ``revealed`` is how many cards of it have been shown face up in
        challenges, counting each copy once; ``copies`` is how many the deck
        holds.
        """
        ...


@attrs.frozen
class NoPassing:
    """Nobody may pass: every turn lays cards (the rule books' default).

    >>> NoPassing().allows(Rank.SEVEN, 4, 4)
    False
    """

    consent: ClassVar[bool] = False
    offers_pass: ClassVar[bool] = False
    needs_single_rank: ClassVar[bool] = False

    def allows(self, rank: Rank | None, revealed: int, copies: int) -> bool:
        """Never."""
        return False


@attrs.frozen
class WhenAllRevealed:
    """A pass is allowed once every card of the required rank has been shown in challenges.

    A copy counts as shown once it has been turned over face up; with two
    packs, both copies of a card must have been seen together in one
    group to count twice, since nobody can tell them apart otherwise.

    >>> rule = WhenAllRevealed()
    >>> rule.allows(Rank.SEVEN, 4, 4), rule.allows(Rank.SEVEN, 3, 4), rule.allows(None, 4, 4)
    (True, False, False)
    """

    consent: ClassVar[bool] = False
    offers_pass: ClassVar[bool] = True
    needs_single_rank: ClassVar[bool] = True

    def allows(self, rank: Rank | None, revealed: int, copies: int) -> bool:
        """When a rank is required and all its copies have been shown."""
        return rank is not None and revealed >= copies


@attrs.frozen
class WithConsent:
    """A player may ask to pass; the pass happens only if every opponent agrees.

    The opponents are asked clockwise from the asker's left; one refusal
    ends the request, and the asker must then lay cards.

    >>> WithConsent().allows(None, 0, 4), WithConsent().consent
    (True, True)
    """

    consent: ClassVar[bool] = True
    offers_pass: ClassVar[bool] = True
    needs_single_rank: ClassVar[bool] = False

    def allows(self, rank: Rank | None, revealed: int, copies: int) -> bool:
        """Always (subject to the opponents' consent)."""
        return True
