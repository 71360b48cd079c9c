"""Records saved by earlier versions of the library keep loading, to the same game.

The files in ``tests/data/records`` were written by the library as it was
when the record format was at version 1; ``expected.json`` pins what each one
holds (the final position, the seat's view, the match score). A change that
reads any of them differently breaks a saved game somewhere.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import cheatrules as cr
from cheatrules.match import loads_match

RECORDS = Path(__file__).parent / "data" / "records"
EXPECTED: dict[str, Any] = json.loads((RECORDS / "expected.json").read_text(encoding="utf-8"))


def _show(cards: tuple[cr.Card, ...]) -> str:
    return " ".join(map(str, cards))


def _state_facts(state: cr.GameState) -> dict[str, Any]:
    outcome = state.outcome
    return {
        "actions": len(state.actions),
        "to_move": state.to_move,
        "phase": state.phase.value,
        "hands": [_show(hand) for hand in state.hands],
        "pile": _show(state.pile),
        "outcome": None if outcome is None else [list(outcome.winners), list(outcome.losers)],
        "events": len(state.events),
    }


def test_every_saved_record_is_pinned() -> None:
    saved = {path.name for path in RECORDS.glob("*.json")} - {"expected.json"}
    assert saved == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(name for name in EXPECTED if ".view" not in name))
def test_a_saved_game_record_replays_to_the_same_position(name: str) -> None:
    text = (RECORDS / name).read_text(encoding="utf-8")
    if name.startswith("match"):
        match = loads_match(text)
        facts = {
            "games": len(match.games),
            "wins": list(match.wins),
            "game": _state_facts(match.game),
        }
    else:
        state = cr.loads(text)
        facts = _state_facts(state)
        assert cr.loads(cr.dumps(state)) == state
    assert facts == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(name for name in EXPECTED if ".view" in name))
def test_a_saved_view_record_reads_as_the_same_view(name: str) -> None:
    seen = cr.loads_view((RECORDS / name).read_text(encoding="utf-8"))
    facts = {
        "seat": seen.seat,
        "hand": _show(seen.hand),
        "hand_sizes": list(seen.hand_sizes),
        "events": len(seen.events),
        "to_move": seen.to_move,
        "phase": seen.phase.value,
    }
    assert facts == EXPECTED[name]
    game = name.split(".view")[0] + ".json"
    assert seen == cr.loads((RECORDS / game).read_text(encoding="utf-8")).observe(seen.seat)
