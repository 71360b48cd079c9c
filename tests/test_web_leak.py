"""No message of the web table names a card its reader has not seen.

Whole random games, a human seat played at random by the test and bots in
the other seats, a spectator watching: every message each of them receives
is checked against the true game at that moment (the record the server
wrote). A seat has seen the cards dealt to it, the cards it laid, drew or
took with a pile, the cards turned over in challenges and the fours set
aside; a spectator only the last two.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import cheatrules as cr
from cheatrules.events import Dealt, Discarded, Drew, PileTaken, Played, Revealed
from cheatrules.web import create_app
from cheatrules.web.limits import Limits

from .web_client import Seat, create, kept, token

CARD = re.compile(r"(?:10|[2-9AJQK★])[♣♦♥♠]")


def _seen(state: cr.GameState, seat: int | None) -> set[str]:
    """Every card ``seat`` (``None``: a spectator) has seen by ``state``."""
    seen: set[str] = set()
    for event in state.events:
        shown: tuple[cr.Card, ...] = ()
        if isinstance(event, (Revealed, Discarded)):
            shown = event.cards
        elif isinstance(event, Dealt) and seat is not None:
            shown = event.hands[seat]
        elif isinstance(event, (Drew, PileTaken, Played)) and event.seat == seat:
            shown = event.cards
        seen.update(map(str, shown))
    return seen


def _states(game: cr.GameState) -> list[cr.GameState]:
    """The game after each number of actions, replayed from the record."""
    data = json.loads(cr.dumps(game))
    data["actions"] = []
    state = cr.loads(json.dumps(data))
    states = [state]
    for action in game.actions:
        state = state.apply(action)
        states.append(state)
    return states


def _choose(view: dict[str, object], rng: random.Random) -> str:
    legal = view["legal"]
    if isinstance(legal, list) and legal:
        # Challenge now and then (a game of challenges at random runs long), else anything.
        calm = [action for action in legal if not action.startswith("challenge")]
        return str(rng.choice(calm if calm and rng.random() < 0.8 else legal))
    hand, ranks = view["hand"], view["allowed_ranks"]
    assert isinstance(hand, list) and isinstance(ranks, list)
    laid = rng.sample(hand, rng.randint(1, min(2, len(hand))))
    return f"play {' '.join(laid)} as {rng.choice(ranks)}"


def _play_out(seat: Seat, rng: random.Random) -> None:
    """Play the human seat at random until the game is over."""
    for _ in range(50_000):
        view = seat.view
        if view["outcome"] is not None:
            return
        if view["my_turn"] or (view["window"] and view["choices"]):
            seat.act(_choose(view, rng))
        message = seat.receive()
        if message["type"] == "error":  # a random play the rules refuse: try another
            assert message["code"] == "illegal", message
    raise AssertionError("the game did not end")


def _check(received: list[str], states: list[cr.GameState], seat: int | None) -> int:
    n = 0
    checked = 0
    seen: dict[int, set[str]] = {}
    for text in received:
        message = json.loads(text)
        if message["type"] == "view":
            n = message["n"]
            truth = states[n]
            if seat is None:
                assert "hand" not in message
            else:
                assert message["hand"] == [str(card) for card in truth.hands[seat]]
        allowed = seen[n] if n in seen else seen.setdefault(n, _seen(states[n], seat))
        named = set(CARD.findall(text))
        assert named <= allowed, (seat, n, named - allowed, message["type"])
        checked += 1
    return checked


GAMES = [
    ("english", 3, ["human", "counting", "random"], {}),
    (
        "english",
        4,
        ["human", "counting", "honest", "random"],
        {"jokers": True, "window": "extended"},
    ),
    ("verish", 3, ["human", "counting", "random"], {}),
    ("english", 3, ["human", "random", "counting"], {"stock": True, "discards": "compulsory"}),
]


@pytest.mark.parametrize(("game", "players", "seats", "options"), GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_no_message_names_a_card_its_reader_has_not_seen(
    tmp_path: Path,
    game: str,
    players: int,
    seats: list[str],
    options: dict[str, object],
    seed: int,
) -> None:
    # A scripted seat plays as fast as the server answers: past a person's rate limit.
    fast = Limits(messages_per_second=10_000, message_burst=10_000)
    app = create_app(tmp_path, bot_delay=0.0, window=60.0, seed=seed, limits=fast)
    with TestClient(app) as client:
        made = create(client, game=game, players=players, seats=seats, options=options)
        path = f"/ws/{made['table']}"
        with client.websocket_connect(path) as me, client.websocket_connect(path) as watching:
            spectator = Seat(watching, token(made["spectator"]))
            seat = Seat(me, token(made["seats"]["0"]))
            _play_out(seat, random.Random(seed))
            final = seat.view["n"]
            spectator.next("view", lambda m: m["n"] == final)
    game_kept = kept(tmp_path, made["table"])
    assert game_kept is not None
    states = _states(game_kept)
    assert states[-1].is_over and len(states) - 1 == final
    assert _check(seat.received, states, 0) > final
    assert _check(spectator.received, states, None) > final
