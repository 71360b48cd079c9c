"""The errors cheatrules raises on purpose.

Every one of them derives from :class:`CheatRulesError`, and every one that
reports bad input also derives from :class:`ValueError`, so ``except
ValueError`` catches a wrong card, a bad option and an illegal action alike.
"""

from __future__ import annotations

__all__ = [
    "CardError",
    "CheatRulesError",
    "DealError",
    "IllegalActionError",
    "RecordError",
    "RulesError",
    "SeatError",
]


class CheatRulesError(Exception):
    """Base of every error the library raises on purpose."""


class CardError(CheatRulesError, ValueError):
    """Text or a value that is not a card, a rank or a suit, or a bad deck."""


class RulesError(CheatRulesError, ValueError):
    """Rules that cannot be played: a player count, option or policy outside what is allowed."""


class DealError(CheatRulesError, ValueError):
    """A deal that does not fit the rules: a wrong dealer, seed, fixed hand or hidden card."""


class IllegalActionError(CheatRulesError, ValueError):
    """An action that is not legal in the current state; the message says why.

    The state the action was offered to is left unchanged.
    """


class SeatError(CheatRulesError, ValueError):
    """A seat number that is not a seat at this table."""


class RecordError(CheatRulesError, ValueError):
    """A game record that cannot be read: malformed, of an unknown version, or illegal."""
