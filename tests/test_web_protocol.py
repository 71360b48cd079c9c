"""The web table over its websocket protocol: seats play, call "Cheat!", and see only their own.

Each test runs the application in Starlette's test client; the bots act
without delay and the challenge window is long, so nothing waits on a clock.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import cheatrules as cr
from cheatrules.cli import main
from cheatrules.events import Accepted, Challenged
from cheatrules.web import create_app, protocol
from cheatrules.web.limits import Limits

from .web_client import Seat, create, kept, token


def _client(data: Path, **options: Any) -> TestClient:
    settings = {"bot_delay": 0.0, "window": 60.0, **options}
    return TestClient(create_app(data, seed=7, **settings))


def _table(client: TestClient, players: int = 3, seats: list[str] | None = None) -> dict[str, str]:
    made = create(client, game="english", players=players, seats=seats or ["human"] * players)
    return {
        "table": made["table"],
        "host": made["host"],
        **{f"seat{seat}": token(link) for seat, link in made["seats"].items()},
        "spectator": token(made["spectator"]),
    }


def _play_any(seat: Seat) -> str:
    """The seat to move lays its first card as the rank asked for."""
    view = seat.view
    action = f"play {view['hand'][0]} as {view['allowed_ranks'][0]}"
    seat.act(action)
    return action


def _take_a_turn(seat: Seat) -> dict[str, object]:
    """Wait until the seat may act (its turn, or a window it may answer); act; wait for the result."""
    seen = seat.wait(lambda m: m["my_turn"] or bool(m["window"] and m["choices"]))
    if seen["window"] is not None:
        seat.act("accept")
        return seat.next(
            "view",
            lambda m: seat.welcome["seat"] in m["window"]["answered"] if m["window"] else True,
        )
    before = seen["n"]
    _play_any(seat)
    return seat.next("view", lambda m: m["n"] > before)


def test_two_seats_play_one_calls_cheat_and_both_see_the_result(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        ids = _table(client)
        path = f"/ws/{ids['table']}"
        with (
            client.websocket_connect(path) as a,
            client.websocket_connect(path) as b,
            client.websocket_connect(path) as c,
        ):
            seats = [Seat(a, ids["seat0"]), Seat(b, ids["seat1"]), Seat(c, ids["seat2"])]
            first = seats[0].view["decision"]["to_move"]
            declarer, caller = seats[first], seats[(first + 1) % 3]
            assert declarer.view["my_turn"] and not caller.view["my_turn"]
            _play_any(declarer)
            # The window opens for every opponent at once, with the game's call.
            window = caller.next("view", lambda m: m["window"] is not None)
            assert caller.welcome["table"]["call"] == "Cheat!"
            assert window["choices"] == ["challenge", "accept"]
            assert window["window"]["askers"] == [(first + 1) % 3, (first + 2) % 3]
            caller.act("challenge")
            for seat in (declarer, caller):
                seen = seat.next("view", lambda m: m["n"] == 2)
                assert seen["window"] is None
                assert any(
                    line.startswith(f"seat {(first + 1) % 3}: Cheat!") for line in seen["log"]
                ), seen["log"]
            # The pile went to one of the two: their hand sizes say so to everyone.
            assert declarer.view["pile_size"] == 0
            assert declarer.view["hand_sizes"] == caller.view["hand_sizes"]


def test_simultaneous_calls_go_to_the_first_caller_clockwise_from_the_declarer(
    tmp_path: Path,
) -> None:
    with _client(tmp_path) as client:
        ids = _table(client, players=4)
        path = f"/ws/{ids['table']}"
        with (
            client.websocket_connect(path) as w0,
            client.websocket_connect(path) as w1,
            client.websocket_connect(path) as w2,
            client.websocket_connect(path) as w3,
        ):
            seats = [Seat(w, ids[f"seat{k}"]) for k, w in enumerate((w0, w1, w2, w3))]
            first = seats[0].view["decision"]["to_move"]
            _play_any(seats[first])
            one, two, three = ((first + k) % 4 for k in (1, 2, 3))
            # The third opponent calls first, then the second; the first has not answered,
            # so the window stays open; once it accepts, the second opponent's call wins.
            seats[three].act("challenge")
            seen = seats[three].next("view", lambda m: m["window"]["answered"] == [three])
            assert seen["choices"] == []  # it has answered
            seats[two].act("challenge")
            seats[two].next(
                "view", lambda m: sorted(m["window"]["answered"]) == sorted([two, three])
            )
            seats[one].act("accept")
            done = seats[one].next("view", lambda m: m["window"] is None)
            record = kept(tmp_path, ids["table"])
            assert record is not None
            assert Challenged(seat=two, declarer=first) in record.events
            assert Accepted(one) in record.events
            assert not any(
                isinstance(event, Challenged) and event.seat == three for event in record.events
            )
            assert any(line.startswith(f"seat {two}: Cheat!") for line in done["log"])


def test_the_window_closes_when_its_time_runs_out_and_silence_accepts(tmp_path: Path) -> None:
    with _client(tmp_path, window=0.05) as client:
        ids = _table(client)
        path = f"/ws/{ids['table']}"
        with client.websocket_connect(path) as a, client.websocket_connect(path) as b:
            seats = {0: Seat(a, ids["seat0"]), 1: Seat(b, ids["seat1"])}
            to_move = seats[0].view["decision"]["to_move"]
            assert to_move in seats  # seed 7 deals seat 0 first
            _play_any(seats[to_move])
            after = seats[to_move].next("view", lambda m: m["window"] is None and m["n"] > 1)
            assert after["decision"]["phase"] == "play"
            assert "challenge" not in " ".join(after["log"])


def test_a_token_acts_only_for_its_own_seat(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        ids = _table(client)
        path = f"/ws/{ids['table']}"
        with client.websocket_connect(path) as a, client.websocket_connect(path) as b:
            seats = [Seat(a, ids["seat0"]), Seat(b, ids["seat1"])]
            first = seats[0].view["decision"]["to_move"]
            other = seats[1 - first] if first in (0, 1) else seats[0]
            mover = first
            # Saying it acts for the seat to move does not make it that seat.
            other.act(
                f"play {other.view['hand'][0]} as {other.view['allowed_ranks'][0]}", seat=mover
            )
            error = other.error()
            assert error["code"] == "wrong-seat"
            assert "acts for seat" in error["message"]
            # Acting out of turn is the engine's refusal, and changes nothing.
            other.act(f"play {other.view['hand'][0]} as {other.view['allowed_ranks'][0]}")
            error = other.error()
            assert error["code"] == "illegal"
            assert f"it is not your decision: seat {mover} decides now" in error["message"]
            other.send({"type": "ping", "v": 1})
            assert other.next("pong")["type"] == "pong"
            assert other.view["n"] == 0
        # A token of no seat of this table is refused, and the connection closed.
        with client.websocket_connect(path) as stranger:
            stranger.send_text(json.dumps({"type": "hello", "v": 1, "token": "made-up"}))
            answer = json.loads(stranger.receive_text())
            assert answer["type"] == "error" and answer["code"] == "bad-token"


@pytest.mark.parametrize(
    ("sent", "says"),
    [
        ("not json", "must be a JSON object"),
        ("[1, 2]", "must be a JSON object"),
        ('{"type": "shout", "v": 1}', "unknown message type 'shout'"),
        ('{"type": "action", "v": 3, "action": "accept"}', "speaks version 2"),
        ('{"type": "action", "v": 1}', 'needs "action"'),
        ('{"type": "action", "v": 1, "action": 7}', 'needs "action"'),
        ('{"type": "action", "v": 1, "action": "dance"}', "'play <cards> as <rank>'"),
        ('{"type": "action", "v": 1, "action": "play Zz as A"}', "cannot read 'Zz' as a card"),
        ('{"type": "action", "v": 1, "action": "play 7♣ as 7", "seat": "0"}', "whole number"),
        ("x" * (protocol.MAX_MESSAGE + 1), f"at most {protocol.MAX_MESSAGE} characters"),
        (
            json.dumps({"type": "action", "v": 1, "action": "play " + "A♣ " * 3000 + "as A"}),
            "at most",
        ),
    ],
)
def test_malformed_and_oversized_messages_get_an_error_and_change_nothing(
    tmp_path: Path, sent: str, says: str
) -> None:
    with _client(tmp_path) as client:
        ids = _table(client)
        with client.websocket_connect(f"/ws/{ids['table']}") as socket:
            seat = Seat(socket, ids["seat0"])
            before = kept(tmp_path, ids["table"])
            socket.send_text(sent)
            error = seat.error()
            assert says in error["message"], error
            assert error["v"] == protocol.VERSION
            # The connection is kept, and the game is as it was.
            seat.send({"type": "ping", "v": 1})
            seat.next("pong")
            assert kept(tmp_path, ids["table"]) == before


def test_an_illegal_action_gets_the_engines_message_and_changes_nothing(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        ids = _table(client)
        with client.websocket_connect(f"/ws/{ids['table']}") as socket:
            seat = Seat(socket, ids["seat0"])
            assert seat.view["my_turn"]
            missing = next(
                card for card in ("A♣", "A♦", "A♥", "A♠", "2♣") if card not in seat.view["hand"]
            )
            seat.act(f"play {missing} as {seat.view['allowed_ranks'][0]}")
            error = seat.error()
            assert f"{missing} is not in your hand" in error["message"]
            seat.send({"type": "ping", "v": 1})
            seat.next("pong")
            assert seat.view["n"] == 0


def test_a_spectator_sees_the_table_and_no_hand_and_cannot_act(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        ids = _table(client)
        with client.websocket_connect(f"/ws/{ids['table']}") as socket:
            watcher = Seat(socket, ids["spectator"])
            assert watcher.welcome["role"] == "spectator"
            assert "hand" not in watcher.view and watcher.view["seat"] is None
            assert watcher.view["hand_sizes"] == [18, 17, 17]
            watcher.act("accept")
            assert watcher.error()["code"] == "not-a-seat"


def test_reconnecting_with_the_same_link_resumes_the_seat(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        ids = _table(client)
        path = f"/ws/{ids['table']}"
        with client.websocket_connect(path) as socket:
            seat = Seat(socket, ids["seat0"])
            hand = seat.view["hand"]
            played = _play_any(seat)
        with client.websocket_connect(path) as socket:
            again = Seat(socket, ids["seat0"])
            assert again.welcome["seat"] == 0
            assert again.view["n"] == 1
            assert len(again.view["hand"]) == len(hand) - 1
            assert played.split()[1] not in again.view["hand"]


def test_a_restarted_server_resumes_every_unfinished_table_from_disk(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        ids = _table(client, seats=["human", "counting", "counting"])
        with client.websocket_connect(f"/ws/{ids['table']}") as socket:
            seat = Seat(socket, ids["seat0"])
            for _ in range(3):
                _take_a_turn(seat)
            n = seat.view["n"]
            hand = seat.view["hand"]
            log = seat.view["log"]
    assert n >= 3
    # A new server over the same folder: the same links, the same game.
    with _client(tmp_path) as client, client.websocket_connect(f"/ws/{ids['table']}") as socket:
        seat = Seat(socket, ids["seat0"])
        assert seat.view["n"] >= n
        assert seat.view["log"][: len(log)] == log
        if seat.view["n"] == n:
            assert seat.view["hand"] == hand
        # ...and play goes on.
        assert _take_a_turn(seat)["n"] > n


def test_the_host_token_closes_a_table_and_nothing_else_does(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        ids = _table(client)
        url = f"/api/tables/{ids['table']}/close"
        for wrong in (ids["seat0"], ids["spectator"], "", 7):
            assert client.post(url, json={"host": wrong}).status_code == 403
        links = client.post(f"/api/tables/{ids['table']}/links", json={"host": ids["host"]})
        assert links.status_code == 200
        assert token(links.json()["seats"]["0"]) == ids["seat0"]
        with client.websocket_connect(f"/ws/{ids['table']}") as socket:
            seat = Seat(socket, ids["seat0"])
            assert client.post(url, json={"host": ids["host"]}).status_code == 200
            assert seat.next("closed")["type"] == "closed"
        assert kept(tmp_path, ids["table"]) is None  # a closed table is forgotten
    with _client(tmp_path) as client:  # and not reloaded
        assert client.post(url, json={"host": ids["host"]}).status_code == 404


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"game": "poker"}, "unknown game 'poker'"),
        ({"players": 11}, "3 to 10 players"),
        ({"players": "4"}, "whole number"),
        ({"options": {"window": "bogus"}}, "unknown window='bogus'"),
        ({"options": {"jokers": [1]}}, "true, false, a number or a name"),
        ({"players": 3, "seats": ["human", "robot", "human"]}, "'robot' is neither"),
        ({"players": 3, "seats": ["human"]}, "each of the 3 seats"),
    ],
)
def test_a_table_the_rules_refuse_is_not_made(
    tmp_path: Path, settings: dict[str, object], says: str
) -> None:
    with _client(tmp_path) as client:
        response = client.post("/api/tables", json=settings)
        assert response.status_code == 400
        assert says in response.json()["error"]
        assert not client.app.state.hall.rooms


def test_house_rules_are_the_rules_options(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        made = create(
            client, game="verish", players=2, options={"jokers": True, "check": "one-card"}
        )
        saved = kept(tmp_path, made["table"])
        assert saved is not None
        assert saved.rules == cr.verish(2, jokers=True, check="one-card")
        assert made["settings"]["call"] == "I don't believe!"
        games = client.get("/api/games").json()
        assert [game["name"] for game in games["games"]] == ["english", "verish"]
        assert "extended" in games["policies"]["window"]
        assert client.get("/").status_code == 200
        page = client.get(f"/table/{made['table']}")
        assert page.status_code == 200 and 'id="cheat"' in page.text


def test_serve_passes_its_options_to_the_server(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import cheatrules.web

    calls: list[tuple[str, int, dict[str, object]]] = []

    def fake(host: str, port: int, **options: object) -> None:
        calls.append((host, port, options))

    monkeypatch.setattr(cheatrules.web, "serve", fake)
    argv = [
        "serve",
        "--port",
        "8123",
        "--data",
        str(tmp_path),
        "--bot-delay",
        "0.5",
        "--window",
        "3",
    ]
    assert main(argv) == 0
    expected = {
        "data": str(tmp_path),
        "bot_delay": 0.5,
        "window": 3.0,
        "create_token": None,
        "limits": Limits(),
        "store": None,
        "workers": 1,
    }
    assert calls == [("127.0.0.1", 8123, expected)]
    assert "http://127.0.0.1:8123/ " in capsys.readouterr().out
    # A server database, shared by several workers; the password is not shown.
    url = "postgresql://ada:secret@db.example/tables"
    assert main(["serve", "--store", url, "--workers", "3"]) == 0
    assert (calls[-1][2]["store"], calls[-1][2]["workers"], calls[-1][2]["data"]) == (url, 3, None)
    shown = capsys.readouterr().out
    assert "postgresql://ada@db.example/tables" in shown and "secret" not in shown
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--store", url, "--data", str(tmp_path)])
    assert stopped.value.code == 2
    assert "give --data DIR or --store URL, not both" in capsys.readouterr().err
    # Listening beyond this machine, creating a table needs a token, and the link carries it.
    assert main(["serve", "--host", "0.0.0.0", "--finished-expiry", "60"]) == 0
    made = calls[-1][2]["create_token"]
    assert isinstance(made, str) and len(made) >= 16
    assert calls[-1][2]["limits"] == Limits(finished_seconds=60)
    assert f"http://0.0.0.0:8000/#create={made} " in capsys.readouterr().out
    assert main(["serve", "--host", "0.0.0.0", "--create-token", "sesame"]) == 0
    assert calls[-1][2]["create_token"] == "sesame"
    capsys.readouterr()
    for wrong, says in (
        ("--window=0", "more than 0"),
        ("--port=70000", "0 to 65535"),
        ("--idle-expiry=0", "above 0"),
    ):
        with pytest.raises(SystemExit):
            main(["serve", wrong])
        assert says in capsys.readouterr().err


@settings(max_examples=100, deadline=None)
@given(
    st.one_of(
        st.text(max_size=300),
        st.binary(max_size=300),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(max_size=20),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(
                    st.sampled_from(["type", "v", "action", "token", "seat", "x"]),
                    inner,
                    max_size=5,
                )
            ),
            max_leaves=10,
        ).map(json.dumps),
    )
)
def test_any_message_is_read_or_refused_with_the_librarys_error(sent: str | bytes) -> None:
    refused: cr.CheatRulesError | None = None
    try:
        incoming = protocol.read_message(sent)
    except cr.CheatRulesError as error:
        refused = error
    if refused is None:
        assert incoming.type in protocol.CLIENT_TYPES
    else:
        assert isinstance(refused, ValueError) and str(refused)


def _table_file(folder: Path, table_id: str, state: cr.GameState, **changed: object) -> None:
    """A table file as the earlier versions wrote them: one JSON envelope per table."""
    envelope = {
        "format": "cheatrules-web-table",
        "version": 1,
        "table": table_id,
        "settings": {
            "game": "english",
            "players": 3,
            "options": {},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "counting"}, {"kind": "human"}],
            "window": 5.0,
            "bot_delay": 0.0,
        },
        "tokens": {
            "host": "h" * 32,
            "spectator": "s" * 32,
            "seats": {"0": "a" * 32, "2": "c" * 32},
        },
        "closed": False,
        "record": cr.dumps(state),
        **changed,
    }
    (folder / f"{table_id}.json").write_text(json.dumps(envelope), encoding="utf-8")


def test_the_table_files_of_earlier_versions_are_read_into_the_database(tmp_path: Path) -> None:
    state = cr.deal(cr.english(3), seed=5)
    assert state.to_move is not None
    state = state.apply(cr.Play(state.hands[state.to_move][:1], state.table.allowed_ranks[0]))
    _table_file(tmp_path, "oldtable01", state)
    # Each of these is skipped with a warning, and the server starts.
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    tampered = cr.dumps(state).replace('"actions": [', '"actions": ["challenge", ')
    _table_file(tmp_path, "tampered1", state, record=tampered)
    _table_file(tmp_path, "elsewhere", state, table="../../escape")
    _table_file(tmp_path, "nosuchbot", state, settings={"seats": [{"kind": "bot", "bot": "x"}]})
    _table_file(tmp_path, "notalist1", state, settings={"seats": "human"})
    _table_file(tmp_path, "closedtab1", state, closed=True)  # its host closed it: not played
    from cheatrules.web import Hall

    hall = Hall(tmp_path)
    assert list(hall.rooms) == ["oldtable01"]
    assert hall.rooms["oldtable01"].state == state
    assert hall.rooms["oldtable01"].settings["bot_delay"] == 0.0
    assert len(hall.skipped) == 2  # the two whose settings do not fit, as database rows
    assert not (tmp_path.parent / "escape.json").exists()
    # Read once: a second start reads the database, not the files again.
    hall.store.close()
    (tmp_path / "oldtable01.json").unlink()
    again = Hall(tmp_path)
    assert again.rooms["oldtable01"].state == state
    again.store.close()


def test_one_bad_row_is_skipped_with_a_warning_and_the_server_starts(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        good = _table(client)
        bad = _table(client)
    import sqlite3

    database = sqlite3.connect(tmp_path / "tables.sqlite3")
    with database:
        database.execute(
            "INSERT INTO actions (table_id, n, action) VALUES (?, 0, 'challenge')", (bad["table"],)
        )
    database.close()
    with _client(tmp_path) as client:
        hall = client.app.state.hall
        assert list(hall.rooms) == [good["table"]]
        assert any(reason.startswith(f"table {bad['table']}:") for reason in hall.skipped)
