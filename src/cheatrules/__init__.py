"""cheatrules: a rules engine for the Cheat family of bluffing card games.

Everything a program needs is importable from here::

    import cheatrules as cr

    state = cr.deal(cr.english(players=4), seed=1)
    while not state.is_over:
        state = state.apply(state.legal_actions()[-1])
"""

from cheatrules.actions import (
    Accept,
    Action,
    ActionTextError,
    Challenge,
    Discard,
    Pass,
    Play,
    Refuse,
    parse_action,
)
from cheatrules.cards import JOKER_SUITS, STANDARD_RANKS, Card, Deck, Rank, Suit, cards, ranks
from cheatrules.deal import deal
from cheatrules.errors import (
    CardError,
    CheatRulesError,
    DealError,
    IllegalActionError,
    RecordError,
    RulesError,
    SeatError,
)
from cheatrules.events import (
    Accepted,
    Challenged,
    Dealt,
    Discarded,
    Drew,
    Event,
    GameOver,
    Passed,
    PileTaken,
    Played,
    Refused,
    Revealed,
    Visibility,
    WentOut,
)
from cheatrules.legal import LegalActions
from cheatrules.match import (
    BestOf,
    FewestLosses,
    FirstTo,
    Match,
    Penalty,
    dumps_match,
    loads_match,
)
from cheatrules.observation import Observation
from cheatrules.realtime import settle_window
from cheatrules.records import dumps, loads, loads_view, register_policy
from cheatrules.rules import Rules, english, verish
from cheatrules.seating import Seating
from cheatrules.state import Claim, GameState, Outcome, Phase

__version__ = "0.1.0.dev0"

__all__ = [
    "JOKER_SUITS",
    "STANDARD_RANKS",
    "Accept",
    "Accepted",
    "Action",
    "ActionTextError",
    "BestOf",
    "Card",
    "CardError",
    "Challenge",
    "Challenged",
    "CheatRulesError",
    "Claim",
    "DealError",
    "Dealt",
    "Deck",
    "Discard",
    "Discarded",
    "Drew",
    "Event",
    "FewestLosses",
    "FirstTo",
    "GameOver",
    "GameState",
    "IllegalActionError",
    "LegalActions",
    "Match",
    "Observation",
    "Outcome",
    "Pass",
    "Passed",
    "Penalty",
    "Phase",
    "PileTaken",
    "Play",
    "Played",
    "Rank",
    "RecordError",
    "Refuse",
    "Refused",
    "Revealed",
    "Rules",
    "RulesError",
    "SeatError",
    "Seating",
    "Suit",
    "Visibility",
    "WentOut",
    "cards",
    "deal",
    "dumps",
    "dumps_match",
    "english",
    "loads",
    "loads_match",
    "loads_view",
    "parse_action",
    "ranks",
    "register_policy",
    "settle_window",
    "verish",
]
