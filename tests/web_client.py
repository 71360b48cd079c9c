"""A small client of the web table's protocol for the tests, over Starlette's test client."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from starlette.testclient import TestClient, WebSocketTestSession

from cheatrules import GameState
from cheatrules.web.storage import SQLiteStore, Stored

Message = dict[str, Any]


@contextmanager
def served(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a thread on a free local port; yields ``host:port``."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=65536
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    for _ in range(500):
        if running.started:
            break
        time.sleep(0.01)
    assert running.started
    try:
        yield f"127.0.0.1:{port}"
    finally:
        running.should_exit = True
        thread.join(10)


def kept(folder: Path, table_id: str) -> GameState | None:
    """The game the server's database in ``folder`` keeps for ``table_id``; ``None`` if none."""
    store = SQLiteStore(folder)
    try:
        for stored in store.load():
            if isinstance(stored, Stored) and stored.table_id == table_id:
                return stored.game()
    finally:
        store.close()
    return None


def create(client: TestClient, **settings: Any) -> Message:
    """Create a table; the answer holds the links and the host token."""
    response = client.post("/api/tables", json=settings)
    assert response.status_code == 201, response.text
    answer: Message = response.json()
    return answer


def token(link: str) -> str:
    """The token of a join link (after the ``#``)."""
    return link.split("#", 1)[1]


class Seat:
    """One websocket connection to a table: says hello, then reads messages as they come."""

    def __init__(
        self, session: WebSocketTestSession, link_token: str, version: int = 1, **hello: Any
    ) -> None:
        self.session = session
        self.version = version
        self.received: list[str] = []
        self.view: Message = {}
        self.welcome: Message = {}
        self.lines: list[str] = hello.pop("lines", [])  # the log as a version 2 page keeps it
        self.send({"type": "hello", "v": version, "token": link_token, **hello})
        self.welcome = self.next("welcome")
        self.view = self.next("view")

    def send(self, message: Message) -> None:
        self.session.send_text(json.dumps(message))

    def act(self, action: str, **extra: Any) -> None:
        self.send({"type": "action", "v": self.version, "action": action, **extra})

    def receive(self) -> Message:
        text = self.session.receive_text()
        self.received.append(text)
        message: Message = json.loads(text)
        if message["type"] == "view":
            self.view = message
            self.lines = self.lines[: message["log_from"]] + message["log"]
        return message

    def next(self, kind: str, until: Callable[[Message], bool] = lambda m: True) -> Message:
        """The next message of type ``kind`` for which ``until`` holds (at most 2000 read)."""
        for _ in range(2000):
            message = self.receive()
            if message["type"] == kind and until(message):
                return message
        raise AssertionError(f"no {kind} message came")

    def wait(self, until: Callable[[Message], bool]) -> Message:
        """The view as it stands if ``until`` holds for it, else the next view for which it does."""
        return self.view if until(self.view) else self.next("view", until)

    def error(self) -> Message:
        return self.next("error")
