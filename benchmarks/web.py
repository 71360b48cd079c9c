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
  the moment it has the view that shows it (median, 95th and 99th
  percentiles; targets at 200 tables: median under 50 ms, 99th percentile
  under 250 ms);
- the bytes of an update early in a game and late in it (the log comes in
  parts, so the two should be alike);
- the server's memory before and after clients that never read watch the
  busiest tables for a while (a reader too slow for its queue is dropped,
  so the memory should stay flat).

The clients run in this process on the same machine, so the server shares
the two cores with them; the figures are an upper bound of what a server
alone would show.
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


async def _person(url: str, token: str, until: float, think: float, seen: _Measures) -> None:
    """One scripted person at one table, until ``until``."""
    rng = random.Random(token)
    async with connect(url, max_size=2**22) as websocket:
        await websocket.send(json.dumps({"type": "hello", "v": 2, "token": token}))
        view: dict[str, Any] = {}
        sent_at: float | None = None
        sent_n = -1
        while (left := until - time.time()) > 0:
            try:
                text = await asyncio.wait_for(websocket.recv(), left)
            except asyncio.TimeoutError:
                return
            message = json.loads(text)
            if message["type"] != "view":
                continue
            view = message
            n = view["n"]
            size = len(text.encode() if isinstance(text, str) else text)
            if 1 <= n <= 40:
                seen.early.append(size)
            elif n >= 120:
                seen.late.append(size)
            if sent_at is not None and n > sent_n:
                seen.latencies.append(time.time() - sent_at)
                sent_at = None
            if view["outcome"] is not None:
                seen.games += 1
                return
            mine = view["my_turn"] and view["decision"]["phase"] == "play"
            answer = view["window"] is not None and "accept" in view["choices"]
            if sent_at is None and (mine or answer):
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                if answer:
                    action = "challenge" if rng.random() < 0.2 else "accept"
                else:
                    action = f"play {view['hand'][0]} as {view['allowed_ranks'][0]}"
                sent_at, sent_n = time.time(), n
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
    before = _memory(pid)
    stuck = [
        _never_reading(
            f"ws://{base}/ws/{table['table']}", table["spectator"].split("#")[1], seconds
        )
        for table in made[:20]
    ]
    await asyncio.gather(*people, *stuck)
    after = _memory(pid)
    latencies = sorted(seen.latencies)
    if not latencies:
        raise SystemExit("no action was answered")

    def at(share: float) -> float:
        return latencies[min(len(latencies) - 1, int(share * len(latencies)))] * 1000

    print(
        f"{tables} tables (two scripted people and a counting bot each, thinking {think} s),"
        f" {seconds:.0f} s, {len(latencies)} actions ({len(latencies) / seconds:.0f} a second),"
        f" {seen.games} games ended"
    )
    print(
        f"  action-to-update latency: median {statistics.median(latencies) * 1000:.0f} ms"
        f" (target < 50 ms), 95th percentile {at(0.95):.0f} ms, 99th {at(0.99):.0f} ms"
        f" (target < 250 ms)"
    )
    early = statistics.median(seen.early) if seen.early else float("nan")
    late = statistics.median(seen.late) if seen.late else float("nan")
    print(
        f"  bytes of an update: median {early:.0f} at actions 1-40, {late:.0f} at action 120"
        f" or later ({len(seen.late)} updates)"
    )
    print(
        f"  server memory: {before:.0f} MB before, {after:.0f} MB after 20 clients that never"
        " read watched for the whole run"
    )


def main() -> None:
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
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
