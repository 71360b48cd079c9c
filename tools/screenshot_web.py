"""Make docs/_static/web-table.png: the web table's own page, photographed mid-game.

Starts the server on a free port with a seeded table (two people and a bot),
plays a few moves over the websocket as the two people, leaves a claim's
"Cheat!" window open, and has headless Chromium save seat 1's page as it
shows then. Needs the ``web`` and ``browser`` extras and Debian's
``chromium`` and ``chromium-driver``::

    python tools/screenshot_web.py            # writes docs/_static/web-table.png
    python tools/screenshot_web.py out.png
"""

from __future__ import annotations

import json
import shutil
import socket
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait
from websockets.sync.client import ClientConnection, connect

from cheatrules.web import create_app

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "docs" / "_static" / "web-table.png"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Seat:
    """A seat's websocket: sends actions, reads views."""

    def __init__(self, socket: ClientConnection, link: str) -> None:
        self.socket = socket
        self.socket.send(json.dumps({"type": "hello", "v": 1, "token": link.split("#")[1]}))
        self.view: dict[str, Any] = {}

    def until(self, wanted: Any) -> dict[str, Any]:
        """The first view (the current one included) for which ``wanted(view)`` holds."""
        while not (self.view and wanted(self.view)):
            message = json.loads(self.socket.recv(timeout=10))
            if message["type"] == "error":
                raise RuntimeError(message["message"])
            if message["type"] == "view":
                self.view = message
        return self.view

    def act(self, action: str) -> None:
        """Send ``action``; the views read after it are newer than it."""
        self.view = {}
        self.socket.send(json.dumps({"type": "action", "v": 1, "action": action}))


def _asked(view: dict[str, Any]) -> bool:
    return view["window"] is not None and "accept" in view["choices"]


def _play(seat: Seat, count: int) -> None:
    view = seat.until(lambda v: v["my_turn"] and v["decision"]["phase"] == "play")
    rank = view["allowed_ranks"][0]
    cards = sorted(view["hand"], key=lambda card: card[:-1] != rank)[:count]
    seat.act(f"play {' '.join(cards)} as {rank}")


def main(target: Path) -> None:
    """Play to a mid-game position with a window open and save seat 1's page to ``target``."""
    browser, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if browser is None or driver is None:
        raise SystemExit(
            "needs chromium and its driver: apt-get install -y chromium chromium-driver"
        )
    app = create_app(tempfile.mkdtemp(), bot_delay=0.05, window=30.0, seed=3)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    base = f"127.0.0.1:{port}"
    request = urllib.request.Request(
        f"http://{base}/api/tables",
        json.dumps(
            {"game": "english", "players": 3, "seats": ["human", "human", "counting"]}
        ).encode(),
        {"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        made = json.loads(response.read())
    with (
        connect(f"ws://{base}/ws/{made['table']}", open_timeout=10) as socket_zero,
        connect(f"ws://{base}/ws/{made['table']}", open_timeout=10) as socket_one,
    ):
        zero, one = Seat(socket_zero, made["seats"]["0"]), Seat(socket_one, made["seats"]["1"])
        _play(zero, 1)
        one.until(_asked)
        one.act("accept")
        _play(one, 2)
        zero.until(_asked)
        zero.act("accept")
        for seat in (zero, one):  # the bot's claim
            seat.until(_asked)
            seat.act("accept")
        _play(zero, 3)  # a claim of three cards: seat 1 sees the "Cheat!" window
        _photograph(made["seats"]["1"], target, browser, driver)
    server.should_exit = True
    thread.join(10)
    print(f"wrote {target}")


def _photograph(link: str, target: Path, browser: str, driver: str) -> None:
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    options.add_argument("--window-size=900,1000")
    options.add_argument("--hide-scrollbars")
    page = webdriver.Chrome(service=Service(driver), options=options)
    try:
        page.get(link)
        WebDriverWait(page, 10).until(
            lambda d: not d.execute_script('return document.getElementById("window").hidden'),
            message="the window never showed",
        )
        # The page's height, plus what the window's frame takes from the viewport.
        height = page.execute_script(
            "return document.body.getBoundingClientRect().bottom + 16"
            " + window.outerHeight - window.innerHeight"
        )
        page.set_window_size(900, int(height))
        target.parent.mkdir(parents=True, exist_ok=True)
        page.save_screenshot(str(target))
    finally:
        page.quit()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else TARGET)
