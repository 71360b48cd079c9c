"""The policy families a :class:`~cheatrules.Rules` value is composed of.

Each family is a small protocol with one or two methods; each concrete policy
is a frozen ``attrs`` class, so a ``Rules`` value stays hashable and
comparable. The engine asks the policies; it never asks which game it plays.
See the "Rules as policies" page of the documentation for the design.
"""

from cheatrules.policies.challenges import (
    AskEachOpponent,
    ChallengeCheck,
    ChallengeWindow,
    DeclarersLeft,
    TurnAfterChallenge,
    WholeGroup,
)
from cheatrules.policies.claims import ClaimSize
from cheatrules.policies.dealing import DealersLeft, Dealing, Opening
from cheatrules.policies.discards import DiscardRule, NoDiscards
from cheatrules.policies.endings import Ending, FirstOutWins
from cheatrules.policies.ranks import Ascending, RankRule

__all__ = [
    "Ascending",
    "AskEachOpponent",
    "ChallengeCheck",
    "ChallengeWindow",
    "ClaimSize",
    "DealersLeft",
    "Dealing",
    "DeclarersLeft",
    "DiscardRule",
    "Ending",
    "FirstOutWins",
    "NoDiscards",
    "Opening",
    "RankRule",
    "TurnAfterChallenge",
    "WholeGroup",
]
