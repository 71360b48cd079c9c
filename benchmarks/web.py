"""The web table under load: 50 tables of bots on one server, timed from action to broadcast.

Run: ``python benchmarks/web.py [tables] [seconds]`` (defaults: 50 tables, 20
seconds). It starts ``cheatrules serve`` in a subprocess (real uvicorn, a
data folder written after every action), creates the tables over HTTP (four
seats of bots each; English Cheat), and connects one real websocket client
per table as a spectator; every seat is a bot, so the server does all the
work. For each ``view`` a client receives it
takes the latency from the moment the server began the action (the view's
``"at"``) to the moment the client has the message, and prints the median and
the 95th percentile, with the actions per second the server kept up.

The clients run in this process on the same machine, so the server shares
the two cores with them; the figures are an upper bound of what a server
alone would show.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from websockets.asyncio.client import connect

BOT_DELAY = 0.2  # seconds a bot waits before it acts: about 20 actions a second per 4 tables
WINDOW = 2.0  # the challenge window (bots answer at once, so it closes early)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _post(url: str, body: dict[str, object]) -> dict[str, object]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, object] = json.loads(response.read())
        return answer


def _wait_for(port: int) -> None:
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the server did not start")


async def _watch(url: str, token: str, until: float, latencies: list[float]) -> int:
    """Watch one table as a spectator until ``until``; the views received."""
    views = 0
    async with connect(url, max_size=2**22) as websocket:
        await websocket.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        while (left := until - time.time()) > 0:
            try:
                text = await asyncio.wait_for(websocket.recv(), left)
            except asyncio.TimeoutError:
                break
            now = time.time()
            message = json.loads(text)
            if message["type"] != "view":
                continue
            views += 1
            if views > 1:  # the first view is the table as it stood on connecting
                latencies.append(now - message["at"])
            if message["outcome"] is not None:
                break
    return views


async def _run(port: int, tables: int, seconds: float) -> None:
    made = [
        _post(
            f"http://127.0.0.1:{port}/api/tables",
            {"game": "english", "players": 4, "seats": ["counting", "honest", "random", "random"]},
        )
        for _ in range(tables)
    ]
    latencies: list[float] = []
    until = time.time() + seconds
    views = await asyncio.gather(
        *(
            _watch(
                f"ws://127.0.0.1:{port}/ws/{table['table']}",
                str(table["spectator"]).split("#")[1],
                until,
                latencies,
            )
            for table in made
        )
    )
    latencies.sort()
    median = statistics.median(latencies) * 1000
    p95 = latencies[int(len(latencies) * 0.95)] * 1000
    print(f"{tables} tables of 4 bots, bot delay {BOT_DELAY} s, {seconds:.0f} s measured")
    print(f"  views received: {sum(views)} ({sum(views) / seconds:.0f} a second)")
    print(f"  action-to-broadcast latency: median {median:.1f} ms, 95th percentile {p95:.1f} ms")


def main() -> None:
    tables = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
    port = _free_port()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cheatrules",
                "serve",
                "--port",
                str(port),
                "--data",
                data,
                "--bot-delay",
                str(BOT_DELAY),
                "--window",
                str(WINDOW),
            ],
            stdout=subprocess.DEVNULL,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            _wait_for(port)
            asyncio.run(_run(port, tables, seconds))
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
