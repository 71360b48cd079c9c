"""Several server processes on one PostgreSQL database, for real.

The test starts PostgreSQL (``tests/postgres_server.py``) and server
processes (:func:`cheatrules.web.serve` with a store, as ``cheatrules serve
--store`` runs it, with message rates a fast test needs), and plays over real
websockets: seats of one table on different processes, the answers to one
challenge window given through two processes, a process killed mid-game,
and ``--workers 2`` behind one port.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import psutil
import psycopg
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import cheatrules as cr
from cheatrules.web import Hall, RefusedActionError
from cheatrules.web.postgres import PostgresStore
from cheatrules.web.storage import Stored

from . import postgres_server

Message = dict[str, Any]


@pytest.fixture(scope="module")
def database() -> Iterator[postgres_server.PostgresServer]:
    with postgres_server.running() as running:
        yield running


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class _Server:
    """A ``cheatrules serve`` process (or a supervisor of workers) on a port of its own."""

    def __init__(self, url: str, folder: Path, workers: int = 1) -> None:
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.log = folder / f"serve-{self.port}.log"
        # cheatrules serve's own function, with bounds that let a test's seats play at once.
        launch = (
            "import logging, sys; from cheatrules.web import Limits, serve; "
            "logging.basicConfig(level=logging.WARNING); serve('127.0.0.1', "
            "int(sys.argv[1]), store=sys.argv[2], workers=int(sys.argv[3]), bot_delay=0.0, "
            "window=30.0, limits=Limits(messages_per_second=1000.0, message_burst=1000.0))"
        )
        command = [sys.executable, "-c", launch, str(self.port), url, str(workers)]
        with self.log.open("w") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)

    def wait(self) -> None:
        """Wait until the server answers (each process starts in about a second)."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"http://{self.address}/api/games", timeout=5),
            ):
                return
            time.sleep(0.05)
        raise AssertionError(f"the server did not start:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@contextlib.contextmanager
def _servers(url: str, folder: Path, count: int = 2, workers: int = 1) -> Iterator[list[_Server]]:
    started = [_Server(url, folder, workers) for _ in range(count)]
    try:
        for server in started:
            server.wait()
        yield started
    finally:
        for server in started:
            server.stop()


def _create(address: str, seats: list[str]) -> Message:
    request = urllib.request.Request(
        f"http://{address}/api/tables",
        json.dumps({"game": "english", "players": len(seats), "seats": seats}).encode(),
        {"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        made: Message = json.loads(response.read())
        return made


def _token(made: Message, seat: int) -> str:
    link: str = made["seats"][str(seat)]
    return link.split("#", 1)[1]


def _kept(url: str, table_id: str) -> Stored:
    with _reader(url) as kept:
        return kept(table_id)


@contextlib.contextmanager
def _reader(url: str) -> Iterator[Callable[[str], Stored]]:
    """A reader of the tables kept, connected already: to read at once after a kill."""
    store = PostgresStore(url)
    store.ids()  # the connection is made now

    def kept(table_id: str) -> Stored:
        stored = store.table(table_id)
        assert isinstance(stored, Stored)
        return stored

    try:
        yield kept
    finally:
        store.close()


class _Player:
    """A person's seat over a real websocket: hello, then views read as they come."""

    def __init__(self, address: str, table_id: str, token: str) -> None:
        self.table_id = table_id
        self.token = token
        self.seen = 0  # the most actions any view it was sent showed
        self.refused = 0  # errors it was sent (a race lost to another seat)
        self.reconnected = 0  # connections taken up again at another address
        self.view: Message = {}
        self.sockets = contextlib.ExitStack()  # every connection, closed when the test ends
        self.socket: ClientConnection = self.connect(address)

    def connect(self, address: str) -> ClientConnection:
        path = f"ws://{address}/ws/{self.table_id}"
        self.socket = self.sockets.enter_context(connect(path, open_timeout=10))
        self.send({"type": "hello", "v": 1, "token": self.token})
        assert self.next()["type"] == "welcome"
        self.until(lambda view: True)
        return self.socket

    def send(self, message: Message) -> None:
        self.socket.send(json.dumps(message))

    def next(self) -> Message:
        message: Message = json.loads(self.socket.recv(timeout=20))
        if message["type"] == "view":
            self.view = message
            self.seen = max(self.seen, message["n"])
        return message

    def until(self, wanted: Any) -> Message:
        """The next view for which ``wanted`` holds."""
        while True:
            message = self.next()
            if message["type"] == "view" and wanted(message):
                return message

    def act(self, view: Message) -> None:
        """Take any legal action: a window's accept, else the first legal action listed."""
        if view["window"] is not None:
            self.send({"type": "action", "v": 1, "action": "accept"})
            return
        legal = view["legal"] or [f"play {view['hand'][0]} as {view['allowed_ranks'][0]}"]
        self.send({"type": "action", "v": 1, "action": legal[0]})

    def play(self, addresses: list[str], stop: threading.Event, pause: _Pause | None) -> None:
        """Play to the game's end; a lost connection is taken up at the next address.

        It acts once on each decision (a view may come before its answer was
        shown, and the server refuses a second answer). With a ``pause``, it
        stops acting once shown that many actions, until the pause ends.
        """
        acted: tuple[int, bool] | None = None
        while self.view.get("outcome") is None and not stop.is_set():
            try:
                view = self.view
                if pause is not None and view["n"] >= pause.actions:
                    pause.over.wait()
                    pause = None
                decision = (view["n"], view["window"] is not None)
                if decision != acted and (
                    view["my_turn"] or (view["window"] is not None and view["choices"])
                ):
                    self.act(view)
                    acted = decision
                if self.next()["type"] == "error":
                    self.refused += 1
            except (ConnectionClosed, OSError):
                addresses = addresses[1:]
                self.connect(addresses[0])
                self.reconnected += 1
                acted = None


def _seated(made: Message, where: dict[int, str]) -> list[_Player]:
    """A player for each of ``made``'s seats in ``where``, connected to the address given."""
    return [_Player(address, made["table"], _token(made, seat)) for seat, address in where.items()]


@attrs.frozen
class _Pause:
    """The players stop acting once shown ``actions`` actions, until ``over`` is set.

    So the game stands still, far from its end, while a test kills a
    process: the bots and the windows wait for the people.
    """

    actions: int
    over: threading.Event = attrs.Factory(threading.Event)


def _playing(
    players: list[_Player],
    addresses: list[list[str]],
    stop: threading.Event,
    pause: _Pause | None = None,
) -> list[threading.Thread]:
    """Each player playing in a thread of its own, over its addresses, until ``stop``."""
    threads = [
        threading.Thread(target=player.play, args=(where, stop, pause), daemon=True)
        for player, where in zip(players, addresses, strict=True)
    ]
    for thread in threads:
        thread.start()
    return threads


def _until_seen(players: list[_Player], actions: int) -> None:
    """Wait until some player was shown ``actions`` actions."""
    while max(player.seen for player in players) < actions:
        time.sleep(0.01)


def _play_all(players: list[_Player], addresses: list[list[str]]) -> None:
    stop = threading.Event()
    _join(_playing(players, addresses, stop), stop)


def _join(threads: list[threading.Thread], stop: threading.Event, seconds: float = 30) -> None:
    """Wait for the players to end their game, ``seconds`` at most in all; then stop them."""
    deadline = time.monotonic() + seconds
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    stop.set()
    assert not any(thread.is_alive() for thread in threads), "the game did not end"


def test_seats_on_two_processes_play_a_game_to_its_end(
    database: postgres_server.PostgresServer, tmp_path: Path
) -> None:
    url = database.fresh_url()
    with _servers(url, tmp_path) as (first, second):
        made = _create(first.address, ["human", "counting", "human", "honest"])
        players = _seated(made, {0: first.address, 2: second.address})
        _play_all(players, [[first.address], [second.address]])
        kept = _kept(url, made["table"]).game()
        assert kept.is_over and kept.outcome is not None
        for player in players:
            assert player.view["n"] == len(kept.actions)
            assert player.view["outcome"]["winners"] == list(kept.outcome.winners)


def test_answers_from_two_processes_settle_one_window(
    database: postgres_server.PostgresServer, tmp_path: Path
) -> None:
    url = database.fresh_url()
    with _servers(url, tmp_path) as (first, second):
        made = _create(first.address, ["human"] * 3)
        declarer = _kept(url, made["table"]).game().to_move
        assert declarer is not None
        nearer, further = (declarer + 1) % 3, (declarer + 2) % 3
        # The declarer and the nearer seat on the first process, the further on the second.
        where = {declarer: first, nearer: first, further: second}
        seats = dict(
            zip(where, _seated(made, {seat: where[seat].address for seat in where}), strict=True)
        )
        before = seats[declarer].view["n"]
        seats[declarer].act(seats[declarer].view)
        for seat in (nearer, further):
            seats[seat].until(lambda view: view["window"] is not None)
        # The further seat calls first, through the second process; the first process hears it.
        seats[further].send({"type": "action", "v": 1, "action": "challenge"})
        seats[nearer].until(lambda view: further in view["window"]["answered"])
        seats[nearer].send({"type": "action", "v": 1, "action": "challenge"})
        for player in seats.values():
            player.until(lambda view: view["n"] > before + 1)
        # The first caller clockwise from the declarer challenged: the engine asked it first.
        assert _kept(url, made["table"]).actions[before + 1 :] == ("challenge",)
        assert {player.view["n"] for player in seats.values()} == {before + 2}


def test_a_process_killed_mid_game_loses_nothing_and_the_other_carries_on(
    database: postgres_server.PostgresServer, tmp_path: Path
) -> None:
    url = database.fresh_url()
    with _servers(url, tmp_path) as (first, second):
        # The first process makes the table, so it runs the bots until it dies.
        made = _create(first.address, ["human", "counting", "human", "random"])
        players = _seated(made, {0: first.address, 2: second.address})
        stop, pause = threading.Event(), _Pause(12)
        # Connected before the kill, to read the actions kept at once after it.
        with _reader(url) as kept_now:
            addresses = [[first.address, second.address], [second.address]]
            threads = _playing(players, addresses, stop, pause)
            _until_seen(players, pause.actions)
            os.kill(first.process.pid, signal.SIGKILL)
            first.process.wait()
            shown = max(player.seen for player in players)
            at_kill = kept_now(made["table"]).game()
            pause.over.set()
        # Every action a player was shown is kept; the game is not over.
        assert len(at_kill.actions) >= shown and not at_kill.is_over
        _join(threads, stop)
        kept = _kept(url, made["table"]).game()
        assert kept.is_over
        assert [player.view["n"] for player in players] == [len(kept.actions)] * 2
        # The seat on the killed process resumed on the other; its bots moved on there.
        assert [player.reconnected for player in players] == [1, 0]
        assert len(kept.actions) > len(at_kill.actions)


def _worker_of(server: _Server, player: _Player) -> psutil.Process:
    """The worker process behind one port that holds ``player``'s connection."""
    port = player.socket.local_address[1]
    for child in psutil.Process(server.process.pid).children():
        if any(conn.raddr and conn.raddr.port == port for conn in child.net_connections("tcp")):
            return child
    raise AssertionError(f"no worker holds the connection from port {port}")


def test_two_workers_behind_one_port_serve_a_game_and_lose_nothing_when_one_dies(
    database: postgres_server.PostgresServer, tmp_path: Path
) -> None:
    url = database.fresh_url()
    with _servers(url, tmp_path, count=1, workers=2) as (server,):
        made = _create(server.address, ["human", "counting", "human"])
        players = _seated(made, {0: server.address, 2: server.address})
        # Found before the game starts: a fast game could end while the workers are searched.
        victim = _worker_of(server, players[0])
        stop, pause = threading.Event(), _Pause(8)  # the game is fast: it waits for the kill
        again = [server.address] * 2  # a lost connection is taken up at the same port
        # Connected before the kill, to read the actions kept at once after it.
        with _reader(url) as kept_now:
            threads = _playing(players, [again, again], stop, pause)
            _until_seen(players, pause.actions)
            victim.kill()  # SIGKILL: the worker holding the first seat's connection
            victim.wait(10)
            shown = max(player.seen for player in players)
            at_kill = len(kept_now(made["table"]).actions)
            pause.over.set()
        assert at_kill >= shown  # every action a player was shown is kept
        _join(threads, stop)
        kept = _kept(url, made["table"]).game()
        assert kept.is_over and len(kept.actions) > at_kill
        assert [player.view["n"] for player in players] == [len(kept.actions)] * 2
        assert players[0].reconnected == 1  # its seat resumed on a worker still alive


def test_several_workers_without_a_server_database_are_refused_in_one_line() -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "cheatrules", "serve", "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert ran.returncode == 2
    assert ran.stderr.strip().splitlines() == [
        "cheatrules: error: --workers 2 needs --store postgresql://...: the processes share the"
        " tables there; --data's SQLite database serves one process"
    ]


# -- two halls in this process, over one database: what each process does ---------------


class _Screen:
    """A connection as a room sees it: it keeps what it is sent."""

    def __init__(self, seat: int | None, language: str = "en") -> None:
        self.role = "seat" if seat is not None else "spectator"
        self.seat = seat
        self.language = language
        self.version = 2
        self.sent = 0
        self.got: list[Message] = []

    def send(self, text: str) -> None:
        self.got.append(json.loads(text))


async def _until(check: Any, seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "it did not happen in time"
        await asyncio.sleep(0.01)


@contextlib.asynccontextmanager
async def _halls(url: str) -> AsyncIterator[tuple[Hall, Hall]]:
    """Two processes' halls over one database, following it; stopped and closed after."""
    first, second = (
        Hall(store=PostgresStore(url), bot_delay=0.0, window=60.0, seed=5) for _ in range(2)
    )
    first.start()
    second.start()
    try:
        yield first, second
    finally:
        for hall in (first, second):
            await hall.stop()
            hall.store.close()


def test_a_lost_race_is_refused_in_words_and_the_seat_sees_the_table_as_it_stands(
    database: postgres_server.PostgresServer,
) -> None:
    url = database.fresh_url()

    async def play() -> None:
        async with _halls(url) as (first, second):
            made = first.create("english", 3, seats=["human"] * 3)
            mover = made.state.to_move
            assert mover is not None
            copy = second.room(made.table_id)  # loaded from the database
            screen = _Screen(mover, "fr")
            copy.connections.append(screen)
            hand = made.state.hands[mover]
            made.act(mover, cr.Play([hand[0]], made.state.allowed_ranks[0]))
            # The second process has not heard yet: its own move for the seat loses the race.
            assert copy.version == made.version - 1
            with pytest.raises(RefusedActionError) as refused:
                copy.act(mover, cr.Play([hand[1]], copy.state.allowed_ranks[0]))
            assert refused.value.describe("fr") == (
                "un autre joueur a agi en premier, donc votre action n’a pas été prise\u202f;"
                " décidez à nouveau d’après la table telle qu’elle est maintenant"
            )
            assert copy.version == made.version and copy.state == made.state
            assert screen.got[-1]["type"] == "view" and screen.got[-1]["n"] == made.version

    asyncio.run(play())


def test_a_hall_follows_names_closes_and_catches_up_after_losing_its_listener(
    database: postgres_server.PostgresServer,
) -> None:
    url = database.fresh_url()

    async def follow() -> None:
        async with _halls(url) as (first, second):
            made = first.create("english", 3, seats=["human"] * 3)
            await _until(lambda: made.table_id in second.rooms)  # heard "created"
            copy = second.rooms[made.table_id]
            made.rename(1, "Ada")
            await _until(lambda: copy.names()[1] == "Ada")
            # The second process's listener is cut off; what is kept meanwhile is read back.
            admin = await psycopg.AsyncConnection.connect(url, autocommit=True)
            async with admin:
                await admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE query LIKE 'LISTEN %%' AND pid <> pg_backend_pid()"
                )
            mover = made.state.to_move
            assert mover is not None
            hand = made.state.hands[mover]
            made.act(mover, cr.Play([hand[0]], made.state.allowed_ranks[0]))
            await _until(lambda: copy.version == made.version and copy.window is not None)
            screen = _Screen(None)
            copy.connections.append(screen)
            first.close(made.table_id, made.tokens["host"])
            await _until(lambda: copy.closed)
            assert made.table_id not in second.rooms
            assert screen.got[-1] == {
                "type": "closed",
                "v": 2,
                "table": made.table_id,
                "reason": "the table was closed",
            }

    asyncio.run(follow())


def test_a_hall_applies_the_actions_and_answers_a_notification_carries_without_reading_them(
    database: postgres_server.PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = database.fresh_url()

    async def follow() -> None:
        async with _halls(url) as (first, second):
            read: list[tuple[str, int]] = []
            store = second.store
            assert isinstance(store, PostgresStore)
            reading = store.actions_since

            def counted(table_id: str, version: int) -> tuple[str, ...] | None:
                read.append((table_id, version))
                return reading(table_id, version)

            monkeypatch.setattr(store, "actions_since", counted)
            answers_read: list[int] = []
            reading_answers = store.answers

            def answers_counted(table_id: str, version: int) -> dict[int, str]:
                answers_read.append(version)
                return reading_answers(table_id, version)

            monkeypatch.setattr(store, "answers", answers_counted)
            made = first.create("english", 3, seats=["human"] * 3)
            await _until(lambda: made.table_id in second.rooms)
            await asyncio.sleep(0.2)  # the listener's first catching up, once open, is done
            read.clear()
            copy = second.rooms[made.table_id]
            mover = made.state.to_move
            assert mover is not None
            made.act(mover, cr.Play([made.state.hands[mover][0]], made.state.allowed_ranks[0]))
            await _until(lambda: copy.version == made.version)
            assert copy.state == made.state
            assert read == []  # the notification carried the play
            # An answer to the window, given through the first process, reaches the second's.
            asker = (mover + 1) % 3
            made.act(asker, cr.Accept())
            await _until(lambda: copy.window is not None and asker in copy.window.answers)
            assert copy.window is not None and copy.window.answers[asker] == cr.Accept()
            assert read == [] and answers_read == []  # it carried the answer

    asyncio.run(follow())
