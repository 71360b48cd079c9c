"""cheatrules: a rules engine for the Cheat family of bluffing card games.

Everything a program needs is importable from here::

    import cheatrules as cr

    state = cr.deal(cr.english(players=4), seed=1)
    while not state.is_over:
        state = state.apply(state.legal_actions()[-1])

The engine (cards, rules, the state, a seat's view, the deal) is loaded
with the package; matches and records are loaded the first time one of
their names is asked for, so that a program that only plays games never
loads them. ``cheatrules.Match`` and ``from cheatrules import dumps`` work
as any other name does.
"""

from typing import TYPE_CHECKING

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
from cheatrules.decision import Consent, Decision, DiscardOffer, Over, Turn, Window
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
from cheatrules.observation import Observation
from cheatrules.realtime import settle_window
from cheatrules.rules import Rules, english, verish
from cheatrules.seating import Seating
from cheatrules.state import Claim, GameState, Outcome, Phase
from cheatrules.table import Table
from cheatrules.variants import REWARDS, rewards

if TYPE_CHECKING:
    from cheatrules.match import (
        BestOf,
        FewestLosses,
        FirstTo,
        Match,
        Penalty,
        dumps_match,
        loads_match,
    )
    from cheatrules.records import dumps, loads, loads_view, register_policy

__version__ = "0.1.0.dev0"

#: The names loaded on first use, each with the module that defines it.
_LAZY: dict[str, str] = {
    **dict.fromkeys(
        (
            "BestOf",
            "FewestLosses",
            "FirstTo",
            "Match",
            "Penalty",
            "dumps_match",
            "loads_match",
        ),
        "cheatrules.match",
    ),
    **dict.fromkeys(("dumps", "loads", "loads_view", "register_policy"), "cheatrules.records"),
}
#: The modules offered as attributes of the package, loaded on first use.
_LAZY_MODULES = ("match", "records")

__all__ = [
    "JOKER_SUITS",
    "REWARDS",
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
    "Consent",
    "DealError",
    "Dealt",
    "Decision",
    "Deck",
    "Discard",
    "DiscardOffer",
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
    "Over",
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
    "Table",
    "Turn",
    "Visibility",
    "WentOut",
    "Window",
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
    "rewards",
    "settle_window",
    "verish",
]


if not TYPE_CHECKING:  # hidden from type checkers, which would take any name for it

    def __getattr__(name: str) -> object:
        """A name of ``_LAZY`` or a module of ``_LAZY_MODULES``, loaded now (PEP 562)."""
        import importlib

        if name in _LAZY:
            value = getattr(importlib.import_module(_LAZY[name]), name)
        elif name in _LAZY_MODULES:
            value = importlib.import_module(f"{__name__}.{name}")
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        globals()[name] = value  # asked once: later look-ups find it directly
        return value


def __dir__() -> list[str]:
    """The package's names, the ones not loaded yet included."""
    return sorted({*globals(), *_LAZY, *_LAZY_MODULES})
