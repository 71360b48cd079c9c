"""The policy families a :class:`~cheatrules.Rules` value is composed of.

Each family is a small protocol with one or two methods; each concrete policy
is a frozen ``attrs`` class, so a ``Rules`` value stays hashable and
comparable. The engine asks the policies; it never asks which game it plays.
See the "Rules as policies" page of the documentation for the design.
"""

from cheatrules.chance import Chance
from cheatrules.policies.challenges import (
    AskEachOpponent,
    ChallengeCheck,
    ChallengerIfRight,
    ChallengeWindow,
    DeclarersLeft,
    JokerProtects,
    NextPlayerDecides,
    OneCard,
    TakerPlays,
    TurnAfterChallenge,
    WholeGroup,
    chance_chooses,
    holds,
    proves,
)
from cheatrules.policies.claims import ClaimSize
from cheatrules.policies.dealing import DealersLeft, Dealing, HolderOf, Opening
from cheatrules.policies.declarations import declared
from cheatrules.policies.discards import (
    AfterPickup,
    AnyTime,
    DiscardRule,
    NoDiscards,
    complete_fours,
)
from cheatrules.policies.endings import Ending, FirstOutWins, LastInLoses
from cheatrules.policies.passing import NoPassing, PassRule, WhenAllRevealed, WithConsent
from cheatrules.policies.ranks import (
    Adjacent,
    Ascending,
    Descending,
    FreeChoice,
    HoldUntilChallenge,
    RankRule,
)

__all__ = [
    "Adjacent",
    "AfterPickup",
    "AnyTime",
    "Ascending",
    "AskEachOpponent",
    "ChallengeCheck",
    "ChallengeWindow",
    "ChallengerIfRight",
    "Chance",
    "ClaimSize",
    "DealersLeft",
    "Dealing",
    "DeclarersLeft",
    "Descending",
    "DiscardRule",
    "Ending",
    "FirstOutWins",
    "FreeChoice",
    "HoldUntilChallenge",
    "HolderOf",
    "JokerProtects",
    "LastInLoses",
    "NextPlayerDecides",
    "NoDiscards",
    "NoPassing",
    "OneCard",
    "Opening",
    "PassRule",
    "RankRule",
    "TakerPlays",
    "TurnAfterChallenge",
    "WhenAllRevealed",
    "WholeGroup",
    "WithConsent",
    "chance_chooses",
    "complete_fours",
    "declared",
    "holds",
    "proves",
]
