"""The policy families a :class:`~cheatrules.Rules` value is composed of.

Each family is a small protocol with one or two methods; each concrete policy
is a frozen ``attrs`` class, so a ``Rules`` value stays hashable and
comparable. The engine asks the policies; it never asks which game it plays.
See the "Rules as policies" page of the documentation for the design.
"""

from cheatrules.policies.challenges import (
    AskEachOpponent,
    ChallengeCheck,
    ChallengerIfRight,
    ChallengeWindow,
    DeclarersLeft,
    NextPlayerDecides,
    TurnAfterChallenge,
    WholeGroup,
)
from cheatrules.policies.claims import ClaimSize
from cheatrules.policies.dealing import DealersLeft, Dealing, Opening
from cheatrules.policies.discards import AfterPickup, DiscardRule, NoDiscards, complete_fours
from cheatrules.policies.endings import Ending, FirstOutWins, LastInLoses
from cheatrules.policies.ranks import Ascending, HoldUntilChallenge, RankRule

__all__ = [
    "AfterPickup",
    "Ascending",
    "AskEachOpponent",
    "ChallengeCheck",
    "ChallengeWindow",
    "ChallengerIfRight",
    "ClaimSize",
    "DealersLeft",
    "Dealing",
    "DeclarersLeft",
    "DiscardRule",
    "Ending",
    "FirstOutWins",
    "HoldUntilChallenge",
    "LastInLoses",
    "NextPlayerDecides",
    "NoDiscards",
    "Opening",
    "RankRule",
    "TurnAfterChallenge",
    "WholeGroup",
    "complete_fours",
]
