"""The web table under load: 200 tables on one server, two scripted people and a bot at each.

Run: ``python benchmarks/web.py [tables] [seconds] [think]`` (defaults: 200
tables, 30 seconds, 1.0 s). It starts ``cheatrules serve`` in a subprocess
(real uvicorn, a database in a data folder, bot delay 0, a 0.5 s window, the
bounds per address raised to fit every client of this one machine),
creates the tables over HTTP (English Cheat, three seats: two people and a
counting bot), and connects the two people of every table as real
websocket clients speaking protocol version 2. A person waits ``think``
seconds, then lays its first card as the first rank allowed, or lets a claim
stand (one time in five it calls "Cheat!"). It prints:

- the action-to-update latency: from the moment a person sends an action to
  the moment it has the view that shows it (its play laid, its answer in the
  window's answers; median, 95th and 99th
  percentiles; targets at 200 tables: median under 50 ms, 99th percentile
  under 250 ms);
- the bytes of an update early in a game and late in it (the log comes in
  parts, so the two should be alike);
- the server's memory through the run, while clients that never read watch
  twenty tables (a reader too slow for its queue is dropped, so it should
  grow with the tables' games alone).

A second run at ten tables whose people think 0.15 s plays games long
enough to compare the size of late updates with early ones.

The clients run in this process on the same machine, so the server shares
the two cores with them; the figures are an upper bound of what a server
alone would show.

``python benchmarks/web.py --postgres [tables] [seconds] [think]`` (defaults:
400 tables, 30 seconds, 1.0 s) runs the tables on two server processes over
one PostgreSQL database instead (started from Debian's binaries, as the
tests start it: ``tests/postgres_server.py``). Each table is made on one
process, its first person connects to one and its second to the other, so
every update of the other's action crosses the database's notifications.
Four fifths of the way through, one process is killed (``SIGKILL``) under
load: the run then counts the tables whose people were shown an action the
database does not keep (there must be none). Before the kill it prints the
two servers' processor time per person's action (their user and system
time from ``/proc``), a figure that a busy machine disturbs less than the
latency.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

WINDOW = 0.5  # the challenge window (the people and the bot answer sooner)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _post(url: str, body: dict[str, object]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def _wait_for(port: int) -> None:
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the server did not start")


def _processor_seconds(pid: int) -> float:
    """The processor time ``pid`` has used so far (user and system), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _memory(pid: int) -> float:
    """The process's resident memory, in megabytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class _Measures:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.early: list[int] = []  # bytes of updates at actions 1 to 40
        self.late: list[int] = []  # bytes of updates at action 120 or later
        self.games = 0


def _due(view: dict[str, Any]) -> bool:
    """Whether the view asks this person for something: a play on its turn, or an answer."""
    if view.get("outcome") is not None or not view:
        return False
    mine = view["my_turn"] and view["decision"]["phase"] == "play"
    return bool(mine or (view["window"] is not None and "accept" in view["choices"]))


def _shows(view: dict[str, Any], seat: int, sent_n: int, answer: bool) -> bool:
    """Whether ``view`` shows the action this person sent when the game had ``sent_n`` actions."""
    if view["n"] > sent_n:
        return True
    return answer and view["window"] is not None and seat in view["window"]["answered"]


async def _person(
    url: str,
    token: str,
    until: float,
    think: float,
    seen: _Measures,
    shown: dict[str, int] | None = None,
) -> None:
    """One scripted person at one table, until ``until``: thinks, then acts on the latest view.

    ``shown`` gathers the most actions each table's views showed (its process
    may be killed: the person then stops).
    """
    with contextlib.suppress(ConnectionClosed):
        await _play(url, token, until, think, seen, {} if shown is None else shown)


async def _play(
    url: str, token: str, until: float, think: float, seen: _Measures, shown: dict[str, int]
) -> None:
    rng = random.Random(token)
    table_id = url.rsplit("/", 1)[1]
    async with connect(url, max_size=2**22) as websocket:
        await websocket.send(json.dumps({"type": "hello", "v": 2, "token": token}))
        view: dict[str, Any] = {}
        seat = -1
        sent: tuple[float, int, bool] | None = None  # when, at which n, whether an answer
        act_at: float | None = None
        while (now := time.time()) < until:
            wait = until - now if act_at is None else max(0.0, act_at - now)
            try:
                text = await asyncio.wait_for(websocket.recv(), wait)
            except asyncio.TimeoutError:
                text = None
            if text is not None:
                message = json.loads(text)
                if message["type"] == "welcome":
                    seat = message["seat"]
                elif message["type"] == "error":
                    sent = None  # refused (the window closed meanwhile): decide again
                elif message["type"] == "view":
                    view = message
                    shown[table_id] = max(shown.get(table_id, 0), view["n"])
                    size = len(text.encode() if isinstance(text, str) else text)
                    if 1 <= view["n"] <= 40:
                        seen.early.append(size)
                    elif view["n"] >= 120:
                        seen.late.append(size)
                    if sent is not None and _shows(view, seat, sent[1], sent[2]):
                        seen.latencies.append(time.time() - sent[0])
                        sent = None
                    if view["outcome"] is not None:
                        seen.games += 1
                        return
            if sent is None and act_at is None and _due(view):
                act_at = time.time() + think * rng.uniform(0.5, 1.5)
            if act_at is not None and time.time() >= act_at:
                act_at = None
                if sent is None and _due(view):  # the latest view still asks
                    answer = view["window"] is not None
                    if answer:
                        action = "challenge" if rng.random() < 0.2 else "accept"
                    else:
                        action = f"play {view['hand'][0]} as {view['allowed_ranks'][0]}"
                    sent = (time.time(), view["n"], answer)
                    await websocket.send(json.dumps({"type": "action", "v": 2, "action": action}))


async def _never_reading(url: str, token: str, seconds: float) -> None:
    """A spectator that says hello and never reads again."""
    with contextlib.suppress(Exception):
        async with connect(url, max_size=2**22, max_queue=1) as websocket:
            await websocket.send(json.dumps({"type": "hello", "v": 2, "token": token}))
            websocket.transport.pause_reading()
            await asyncio.sleep(seconds)


async def _run(port: int, pid: int, tables: int, seconds: float, think: float) -> None:
    base = f"127.0.0.1:{port}"
    made = [
        _post(
            f"http://{base}/api/tables",
            {"game": "english", "players": 3, "seats": ["human", "human", "counting"]},
        )
        for _ in range(tables)
    ]
    seen = _Measures()
    until = time.time() + seconds
    people = [
        _person(f"ws://{base}/ws/{table['table']}", link.split("#")[1], until, think, seen)
        for table in made
        for link in table["seats"].values()
    ]
    memory: list[float] = []

    async def sample_memory() -> None:
        while time.time() < until:
            memory.append(_memory(pid))
            await asyncio.sleep(seconds / 6)

    stuck = [
        _never_reading(
            f"ws://{base}/ws/{table['table']}", table["spectator"].split("#")[1], seconds
        )
        for table in made[:20]
    ]
    await asyncio.gather(*people, *stuck, sample_memory())
    memory.append(_memory(pid))
    _report(tables, seconds, think, seen)
    early = statistics.median(seen.early) if seen.early else float("nan")
    late = statistics.median(seen.late) if seen.late else float("nan")
    print(
        f"  bytes of an update: median {early:.0f} at actions 1-40, {late:.0f} at action 120"
        f" or later ({len(seen.late)} updates)"
    )
    shown = ", ".join(f"{megabytes:.0f}" for megabytes in memory)
    print(f"  server memory through the run, 20 clients never reading: {shown} MB")


def _report(tables: int, seconds: float, think: float, seen: _Measures, what: str = "") -> None:
    """The run's line, and the latency's median and percentiles against their targets."""
    latencies = sorted(seen.latencies)
    if not latencies:
        raise SystemExit("no action was answered")

    def at(share: float) -> float:
        return latencies[min(len(latencies) - 1, int(share * len(latencies)))] * 1000

    print(
        f"{tables} tables{' ' if what else ''}{what} (two scripted people and a counting bot"
        f" each, thinking"
        f" {think} s), {seconds:.0f} s, {len(latencies)} actions"
        f" ({len(latencies) / seconds:.0f} a second), {seen.games} games ended"
    )
    print(
        f"  action-to-update latency: median {statistics.median(latencies) * 1000:.0f} ms"
        f" (target < 50 ms), 95th percentile {at(0.95):.0f} ms, 99th {at(0.99):.0f} ms"
        f" (target < 250 ms)"
    )


def _kept_versions(url: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(url) as db:
        return dict(db.execute("SELECT id, version FROM tables").fetchall())


async def _run_shared(
    url: str,
    servers: list[tuple[int, subprocess.Popen[bytes]]],
    tables: int,
    seconds: float,
    think: float,
) -> None:
    bases = [f"127.0.0.1:{port}" for port, _ in servers]
    body = {"game": "english", "players": 3, "seats": ["human", "human", "counting"]}
    made = [_post(f"http://{bases[n % 2]}/api/tables", body) for n in range(tables)]
    seen, shown = _Measures(), dict[str, int]()
    started = time.time()
    until = started + seconds
    people = [
        _person(
            f"ws://{bases[(n + seat) % 2]}/ws/{table['table']}",
            link.split("#")[1],
            until,
            think,
            seen,
            shown,
        )
        for n, table in enumerate(made)
        for seat, link in enumerate(table["seats"].values())
    ]

    pids = [server.pid for _, server in servers]
    used = sum(map(_processor_seconds, pids))

    async def kill() -> tuple[float, int]:
        await asyncio.sleep(seconds * 0.8)
        # The servers' processor time per person's action, up to the kill: a figure a busy
        # machine disturbs less than the latency.
        cost = (sum(map(_processor_seconds, pids)) - used) / max(1, len(seen.latencies))
        print(f"  the two servers' processor time per person's action: {cost * 1000:.2f} ms")
        port, victim = servers[1]
        victim.kill()
        victim.wait()
        snapshot, at = dict(shown), time.time()
        kept = await asyncio.to_thread(_kept_versions, url)
        lost = sum(1 for table, n in snapshot.items() if kept.get(table, -1) < n)
        print(f"  (process on port {port} killed at {at - started:.1f} s)")
        return at - started, lost

    killer = asyncio.create_task(kill())
    await asyncio.gather(*people)
    killed_at, lost = await killer
    _report(tables, seconds, think, seen, "on two processes over PostgreSQL")
    print(
        f"  one process killed at {killed_at:.0f} s: {lost} of {len(shown)} tables had shown"
        " an action the database does not keep"
    )


def main_shared(tables: int, seconds: float, think: float) -> None:
    """Two server processes over one PostgreSQL server that this run starts."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests import postgres_server

    with postgres_server.running() as database:
        url = database.fresh_url()
        servers = []
        try:
            for _ in range(2):
                port = _free_port()
                launch = (
                    "from cheatrules.web import Limits, serve; "
                    f"serve('127.0.0.1', {port}, store={url!r}, bot_delay=0, window={WINDOW}, "
                    f"limits=Limits(connections_per_address={4 * tables + 100}, "
                    f"tables_per_address={tables + 10}))"
                )
                server = subprocess.Popen([sys.executable, "-c", launch])
                servers.append((port, server))
            for port, _ in servers:
                _wait_for(port)
            asyncio.run(_run_shared(url, servers, tables, seconds, think))
        finally:
            for _, server in servers:
                if server.poll() is None:
                    server.terminate()
                    server.wait(10)


def main() -> None:
    if sys.argv[1:2] == ["--postgres"]:
        del sys.argv[1]
        main_shared(
            int(sys.argv[1]) if len(sys.argv) > 1 else 400,
            float(sys.argv[2]) if len(sys.argv) > 2 else 30.0,
            float(sys.argv[3]) if len(sys.argv) > 3 else 1.0,
        )
        return
    tables = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
    think = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    port = _free_port()
    with tempfile.TemporaryDirectory() as data:
        # Every client comes from this machine's one address: the bounds per address
        # are raised to fit them all; the rest are the server's own.
        launch = (
            "from cheatrules.web import Limits, serve; "
            f"serve('127.0.0.1', {port}, data={data!r}, bot_delay=0, window={WINDOW}, "
            f"limits=Limits(connections_per_address={4 * tables + 100}, "
            f"tables_per_address={tables + 10}))"
        )
        server = subprocess.Popen(
            [sys.executable, "-c", launch],
            stdout=subprocess.DEVNULL,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            _wait_for(port)
            asyncio.run(_run(port, server.pid, tables, seconds, think))
            # Long games, for the size of late updates: ten tables whose people think fast
            # (within the rate a connection may send at).
            asyncio.run(_run(port, server.pid, 10, seconds, 0.15))
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
