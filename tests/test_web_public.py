"""The web table fit for a public server: nothing lost, nothing unbounded, no 500s.

Each test is one defect a public server met, read from outside: a table
whose actions were shown and never saved, a client that fills the server,
a link that stalls it, a request that makes it fail, and the protocol's
answers to them. The real-browser tests (tests/test_web_browser.py) play
the pages to the end of a game.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import cheatrules as cr
from cheatrules.web import create_app, protocol
from cheatrules.web.app import SECURITY_HEADERS, _Connection
from cheatrules.web.limits import Limits
from cheatrules.web.storage import MemoryStore, StoreError

from .web_client import Seat, create, kept, token

#: A scripted seat plays as fast as the server answers: past a person's rate limit.
FAST = Limits(messages_per_second=10_000, message_burst=10_000)


def _client(data: Path | None, **options: Any) -> TestClient:
    settings: dict[str, Any] = {"bot_delay": 0.0, "window": 60.0, "limits": FAST, **options}
    return TestClient(create_app(data, seed=7, **settings))


def _made(client: TestClient, **settings: Any) -> dict[str, Any]:
    settings = {"game": "english", "players": 3, "seats": ["human"] * 3, **settings}
    return create(client, **settings)


def _first_play(seat: Seat) -> str:
    view = seat.view
    return f"play {view['hand'][0]} as {view['allowed_ranks'][0]}"


# -- nothing shown that was not saved ---------------------------------------------------


def test_each_action_is_saved_before_anyone_is_shown_it(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        made = _made(client)
        with client.websocket_connect(f"/ws/{made['table']}") as socket:
            seat = Seat(socket, token(made["seats"]["0"]), version=2)
            first = seat.view["decision"]["to_move"]
        with client.websocket_connect(f"/ws/{made['table']}") as socket:
            seat = Seat(socket, token(made["seats"][str(first)]), version=2)
            seat.act(_first_play(seat))
            shown = seat.next("view", lambda m: m["n"] == 1)
            saved = kept(tmp_path, made["table"])
            assert saved is not None and len(saved.actions) == shown["n"] == 1


def test_a_refused_write_refuses_the_action_and_shows_nothing_unsaved(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        made = _made(client)
        hall = client.app.state.hall
        room = hall.rooms[made["table"]]
        first = room.state.to_move
        with client.websocket_connect(f"/ws/{made['table']}") as socket:
            seat = Seat(socket, token(made["seats"][str(first)]), version=2)
            before = room.state
            # The database refuses every write, as a read-only folder makes it.
            hall.store.db.execute("PRAGMA query_only = ON")
            play = _first_play(seat)
            seat.act(play)
            message = seat.error()
            assert message["code"] == "not-saved"
            assert "could not be saved" in message["message"]
            assert room.state is before  # the table is as it was
            saved = kept(tmp_path, made["table"])
            assert saved is not None and saved.actions == before.actions == ()
            # Once the database takes writes again, the same action goes through.
            hall.store.db.execute("PRAGMA query_only = OFF")
            seat.act(play)
            assert seat.next("view", lambda m: m["n"] == 1)["n"] == 1
            saved = kept(tmp_path, made["table"])
            assert saved is not None and len(saved.actions) == 1


class _RefusingStore(MemoryStore):
    """A store whose disk is full."""

    def create(self, stored: object) -> None:
        raise StoreError("the table could not be saved just now, so nothing changed; try again")


def test_a_table_that_cannot_be_saved_is_not_made() -> None:
    with TestClient(create_app(None, store=_RefusingStore())) as client:
        response = client.post("/api/tables", json={"players": 3})
        assert response.status_code == 503
        assert "could not be saved" in response.json()["error"]
        assert not client.app.state.hall.rooms


# -- no one can fill the server ----------------------------------------------------------


def test_tables_are_created_from_json_alone_and_with_the_token_where_one_is_set() -> None:
    with TestClient(create_app(None, create_token="sesame")) as client:
        body = json.dumps({"players": 3})
        plain = {"content-type": "text/plain"}
        assert client.post("/api/tables", content=body, headers=plain).status_code == 415
        assert client.post("/api/tables", json={"players": 3}).status_code == 401
        wrong = {"authorization": "Bearer open"}
        assert client.post("/api/tables", json={"players": 3}, headers=wrong).status_code == 401
        right = {"authorization": "Bearer sesame"}
        assert client.post("/api/tables", json={"players": 3}, headers=right).status_code == 201


def test_one_address_creates_only_so_many_tables() -> None:
    limits = Limits(tables_per_address=3, tables_window=3600)
    with TestClient(create_app(None, limits=limits)) as client:
        answers = [client.post("/api/tables", json={"players": 3}).status_code for _ in range(5)]
        assert answers == [201, 201, 201, 429, 429]


def test_finished_and_idle_tables_expire_and_free_their_places(tmp_path: Path) -> None:
    # Expiry as the server's sweep would make it, called here at chosen moments (the sweep
    # itself comes every 30 s, after this test).
    limits = Limits(tables=2, idle_seconds=1000, finished_seconds=500)
    with _client(tmp_path, limits=limits) as client:
        hall = client.app.state.hall
        one, two = _made(client), _made(client)
        assert client.post("/api/tables", json={"players": 3}).status_code == 400  # full
        room = hall.rooms[one["table"]]
        with client.websocket_connect(f"/ws/{one['table']}") as socket:
            watching = Seat(socket, token(one["spectator"]), version=2)
            last = max(room.changed_at, hall.rooms[two["table"]].changed_at)
            assert hall.expire(room.changed_at + 999) == []
            assert hall.expire(last + 1000) == [one["table"], two["table"]]
            assert "expired" in watching.next("closed")["reason"]
        assert hall.rooms == {} and kept(tmp_path, one["table"]) is None
        _made(client)  # places again
        # A finished game goes sooner than an idle one.
        finished = hall.rooms[_made(client, seats=["counting", "random", "counting"])["table"]]
        finished.state = _played_out(finished.state)
        assert hall.expire(finished.changed_at + 500) == [finished.table_id]


def _played_out(state: cr.GameState) -> cr.GameState:
    """The game played to its end by random moves (a challenge one time in four)."""
    rng = random.Random(0)
    while not state.is_over:
        if state.phase is cr.Phase.CHALLENGE and rng.random() >= 0.25:
            state = state.apply(cr.Accept())
        else:
            state = state.apply(state.legal_actions().choice(rng))
    return state


# -- one link cannot stall the server ----------------------------------------------------


def test_a_connection_that_sends_too_fast_is_told_and_closed() -> None:
    limits = Limits(messages_per_second=1, message_burst=5, language_cost=3)
    with TestClient(create_app(None, limits=limits)) as client:
        made = _made(client)
        with client.websocket_connect(f"/ws/{made['table']}") as socket:
            seat = Seat(socket, token(made["spectator"]), version=2)
            for _ in range(2):
                seat.send({"type": "language", "v": 2, "lang": "fr"})
            error = seat.error()
            assert error["code"] == "too-fast"
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_text()
            assert closed.value.code == 4429


class _Socket:
    """A websocket whose reader never reads: what is sent piles up unless the server bounds it."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int) -> None:
        self.closed = code


def test_a_reader_too_slow_for_its_queue_is_dropped_not_buffered() -> None:
    socket = _Socket()
    connection = _Connection(socket, "seat", 0, "en", 2, limit=3)  # type: ignore[arg-type]
    for number in range(10):
        connection.send(f"message {number}")
    assert connection.slow and connection.queue.qsize() == 1  # only the end waits
    asyncio.run(connection.pump())
    assert socket.sent == [] and socket.closed == 4413


def test_hello_is_due_within_its_seconds_in_all_and_silent_connections_count() -> None:
    limits = Limits(hello_seconds=1.0, connections_per_address=2)
    with TestClient(create_app(None, limits=limits)) as client:
        made = _made(client)
        path = f"/ws/{made['table']}"
        with client.websocket_connect(path) as first, client.websocket_connect(path):
            opened = time.monotonic()
            # Two silent connections hold the address's places: a third is refused.
            with client.websocket_connect(path) as third:
                assert json.loads(third.receive_text())["code"] == "full"
            # Pings do not restart the time: a ping every 0.4 s, and the connection is
            # closed a second after it opened, not a second after the last ping.
            for _ in range(3):
                first.send_text(json.dumps({"type": "ping", "v": 2}))
                answer = json.loads(first.receive_text())["code"]
                if answer == "no-hello":
                    break
                assert answer == "hello-first"
                time.sleep(0.4)
            else:
                answer = json.loads(first.receive_text())["code"]
            assert answer == "no-hello"
            assert time.monotonic() - opened < 1.7  # restarted at the last ping, it is 1.8 s
            with pytest.raises(WebSocketDisconnect) as closed:
                first.receive_text()
            assert closed.value.code == 4408


def test_an_update_carries_the_new_lines_and_a_reconnect_resumes(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        made = _made(client, seats=["human", "counting", "counting"])
        path = f"/ws/{made['table']}"
        carried: list[int] = []
        with client.websocket_connect(path) as socket:
            seat = Seat(socket, token(made["seats"]["0"]), version=2)
            for _ in range(40):
                view = seat.wait(
                    lambda m: m["my_turn"] or bool(m["window"] and m["choices"]) or m["outcome"]
                )
                if view["outcome"]:
                    break
                seat.act("accept" if view["window"] else _first_play(seat))
                update = seat.next("view")
                carried.append(len(update["log"]))
            lines = seat.lines
            assert lines == kept_lines(client, made["table"], 0)[: len(lines)]
        held = len(lines)
        assert held > 20
        # Each update carries the lines its actions added, however long the log has grown
        # (the rest of a view is the table and the hand, bounded by the deck).
        assert 0 < max(carried) <= 8, carried
        with client.websocket_connect(path) as socket:
            again = Seat(socket, token(made["seats"]["0"]), version=2, since=held, lines=lines)
            assert again.view["log_from"] == held
            assert again.lines == kept_lines(client, made["table"], 0)
        with client.websocket_connect(path) as socket:
            old = Seat(socket, token(made["spectator"]))  # version 1: the whole log, each time
            assert old.view["log_from"] == 0
            assert len(old.view["log"]) == len(kept_lines(client, made["table"], None))


def kept_lines(client: TestClient, table_id: str, seat: int | None) -> list[str]:
    """The narrated log the server keeps for ``seat`` (the public one for ``None``), in English."""
    lines: list[str] = client.app.state.hall.rooms[table_id].lines(seat, "en")  # type: ignore[attr-defined]
    return lines


# -- no 500s ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"players": 3, "options": {"game": "x"}}, "game is not a house rule"),
        ({"players": 3, "options": {"players": 4}}, "players is not a house rule"),
        ({"players": 3, "seats": [{}, {}, {}]}, "must be 'human' or a bot"),
        ("[" * 1500 + "]" * 1500, "must be a JSON object"),
    ],
)
def test_bad_requests_get_a_400_that_says_why(body: object, says: str) -> None:
    with TestClient(create_app(None), raise_server_exceptions=False) as client:
        text = body if isinstance(body, str) else json.dumps(body)
        response = client.post(
            "/api/tables", content=text, headers={"content-type": "application/json"}
        )
        assert response.status_code == 400, response.text
        assert says in response.json()["error"]


def test_a_binary_first_frame_is_answered_not_a_dropped_connection() -> None:
    with TestClient(create_app(None)) as client:
        made = _made(client)
        with client.websocket_connect(f"/ws/{made['table']}") as socket:
            socket.send_bytes(b"\xff\x00binary")
            assert json.loads(socket.receive_text())["code"] == "bad-message"
            hello = {"type": "hello", "v": 2, "token": token(made["spectator"])}
            socket.send_bytes(json.dumps(hello).encode())
            assert json.loads(socket.receive_text())["type"] == "welcome"


def test_every_answer_carries_the_security_headers() -> None:
    with TestClient(create_app(None)) as client:
        made = _made(client)
        for path in ("/", f"/table/{made['table']}", "/static/table.js", "/api/games"):
            response = client.get(path)
            for name, value in SECURITY_HEADERS.items():
                assert response.headers[name] == value, (path, name)


# -- what a seat is told ------------------------------------------------------------------


def test_a_seat_names_itself_and_every_view_names_it() -> None:
    with TestClient(create_app(None, limits=FAST)) as client:
        made = _made(client)
        path = f"/ws/{made['table']}"
        with client.websocket_connect(path) as one, client.websocket_connect(path) as two:
            watching = Seat(two, token(made["spectator"]), version=2)
            seat = Seat(one, token(made["seats"]["1"]), version=2, name="  Ana   Lúcia ")
            assert seat.view["names"] == [None, "Ana Lúcia", None]
            assert seat.welcome["table"]["seats"][1]["name"] == "Ana Lúcia"
            assert watching.next("view")["names"] == [None, "Ana Lúcia", None]
        with client.websocket_connect(path) as socket:
            socket.send_text(json.dumps({"type": "hello", "v": 2, "token": "x", "name": "\x00"}))
            assert "name" in json.loads(socket.receive_text())["message"]


def test_a_seat_is_told_its_new_cards_and_how_many_a_claim_may_hold() -> None:
    state = cr.deal(cr.english(3), hands=["7♣ K♦ 2♠", "A♠ 2♥ 3♥", "A♥ 9♣ 4♦"], dealer=2)
    with TestClient(create_app(None, limits=FAST)) as client:
        made = _made(client)
        room = client.app.state.hall.rooms[made["table"]]
        room.state = state.apply(cr.Play("K♦", "A"))
        with client.websocket_connect(f"/ws/{made['table']}") as socket:
            seat = Seat(socket, token(made["seats"]["0"]), version=2)
            assert seat.view["claim_sizes"] == [1, 2]  # two cards left
            assert seat.view["new_cards"] == []
            room.state = room.state.apply(cr.Accept()).apply(cr.Challenge())
            room.broadcast()
            view = seat.next("view")
            assert view["new_cards"] == ["K♦"] and "K♦" in view["hand"]


def test_a_discard_offer_of_many_fours_lists_them_and_takes_any_choice() -> None:
    ranks = "6 7 8 9 10 J Q K"
    hand = " ".join(f"{rank}{suit}" for rank in ranks.split() for suit in "♣♦♥♠")
    # Fours may be set aside at any time: with eight, the legal actions are past listing.
    state = cr.deal(cr.verish(2, discards="any-time"), hands=[hand + " A♣", "A♦ A♥ A♠"], dealer=1)
    with TestClient(create_app(None, limits=FAST)) as client:
        made = _made(client, game="verish", players=2, seats=["human", "human"])
        room = client.app.state.hall.rooms[made["table"]]
        room.state = state
        with client.websocket_connect(f"/ws/{made['table']}") as socket:
            seat = Seat(socket, token(made["seats"]["0"]), version=2)
            view = seat.view
            assert view["my_turn"]
            assert view["legal"] is None and view["legal_count"] > 2000
            assert view["offered"] == ranks.split()
            seat.act("discard 7 J K")
            after = seat.next("view", lambda m: m["n"] == 1)
            assert len(after["hand"]) == len(view["hand"]) - 12


def test_a_link_opened_after_the_end_shows_the_end() -> None:
    with TestClient(create_app(None, bot_delay=0.0, window=0.05, limits=FAST)) as client:
        made = _made(client, seats=["counting", "random", "counting"])
        room = client.app.state.hall.rooms[made["table"]]
        room.state = _played_out(room.state)
        room.broadcast()
        with client.websocket_connect(f"/ws/{made['table']}") as socket:
            watching = Seat(socket, token(made["spectator"]), version=2)
            assert watching.view["outcome"]["winners"]
            assert watching.view["decision"]["phase"] == "over"
            assert watching.lines[-1]


def test_a_bots_move_the_disk_refused_is_made_once_the_disk_takes_it(tmp_path: Path) -> None:
    with _client(tmp_path, bot_delay=0.2) as client:
        hall = client.app.state.hall
        made = _made(client, seats=["counting", "random", "counting"])
        hall.store.db.execute("PRAGMA query_only = ON")  # as a read-only folder would
        room = hall.rooms[made["table"]]
        time.sleep(0.6)
        assert room.state.actions == ()  # every bot's move refused, none shown
        hall.store.db.execute("PRAGMA query_only = OFF")
        for _ in range(100):
            if room.state.actions:
                break
            time.sleep(0.05)
        saved = kept(tmp_path, made["table"])
        assert room.state.actions and saved is not None
        assert saved.actions[: len(room.state.actions)] == room.state.actions[: len(saved.actions)]


def test_new_cards_are_only_those_still_held_after_fours_are_set_aside() -> None:
    rules = cr.verish(3, discards="after-pickup")
    state = cr.deal(rules, hands=["A♣ A♦ A♥ 6♣", "A♠ 6♦", "6♥ 6♠ K♣"], dealer=2)
    for action in ("play 6♣ as 6", "play A♠ as 6", "play 6♥ as 6", "challenge"):
        state = state.apply(cr.parse_action(action))
    seen = protocol.seat_view(state.observe(0), call="Cheat!", window=None)
    assert seen["new_cards"] == ["A♠", "6♣", "6♥"]  # the pile it took
    state = state.apply(cr.parse_action("discard A"))  # and the four Aces set aside
    seen = protocol.seat_view(state.observe(0), call="Cheat!", window=None)
    assert seen["hand"] == ["6♣", "6♥"] and seen["new_cards"] == ["6♣", "6♥"]
