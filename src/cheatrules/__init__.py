"""cheatrules: a rules engine for the Cheat family of bluffing card games.

Everything a program needs is importable from here::

    import cheatrules as cr

    state = cr.deal(cr.english(players=4), seed=1)
    while not state.is_over:
        state = state.apply(state.legal_actions()[-1])
"""

from cheatrules.actions import Accept, Action, Challenge, Discard, Play
from cheatrules.cards import STANDARD_RANKS, Card, Deck, Rank, Suit, cards, ranks
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
    Event,
    GameOver,
    PileTaken,
    Played,
    Revealed,
    Visibility,
    WentOut,
)
from cheatrules.observation import Observation
from cheatrules.realtime import settle_window
from cheatrules.records import dumps, loads, loads_view, register_policy
from cheatrules.rules import Rules, english, verish
from cheatrules.seating import Seating
from cheatrules.state import Claim, GameState, Outcome, Phase

__version__ = "0.1.0.dev0"

__all__ = [
    "STANDARD_RANKS",
    "Accept",
    "Accepted",
    "Action",
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
    "Event",
    "GameOver",
    "GameState",
    "IllegalActionError",
    "Observation",
    "Outcome",
    "Phase",
    "PileTaken",
    "Play",
    "Played",
    "Rank",
    "RecordError",
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
    "english",
    "loads",
    "loads_view",
    "ranks",
    "register_policy",
    "settle_window",
    "verish",
]
