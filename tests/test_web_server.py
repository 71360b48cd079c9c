"""The web table served for real: uvicorn on a free port, a websocket client playing a move."""

from __future__ import annotations

import json
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from cheatrules.web import create_app

from .web_client import served


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with served(create_app(tmp_path, bot_delay=0.0, window=60.0, seed=3)) as address:
        yield address


def _post(url: str, body: dict[str, object]) -> dict[str, object]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, object] = json.loads(response.read())
        return answer


def test_a_real_server_plays_a_move_over_a_real_websocket(server: str) -> None:
    made = _post(
        f"http://{server}/api/tables",
        {"game": "english", "players": 3, "seats": ["human", "counting", "counting"]},
    )
    seats = made["seats"]
    assert isinstance(seats, dict)
    link = seats["0"]
    assert link.startswith(f"http://{server}/table/")
    with urllib.request.urlopen(link.split("#")[0], timeout=10) as page:
        assert b'id="hand"' in page.read()
    with connect(f"ws://{server}/ws/{made['table']}", open_timeout=10) as websocket:
        websocket.send(json.dumps({"type": "hello", "v": 1, "token": link.split("#")[1]}))
        welcome = json.loads(websocket.recv(timeout=10))
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        view = json.loads(websocket.recv(timeout=10))
        while not view["my_turn"]:
            view = json.loads(websocket.recv(timeout=10))
        card = view["hand"][0]
        websocket.send(
            json.dumps(
                {"type": "action", "v": 1, "action": f"play {card} as {view['allowed_ranks'][0]}"}
            )
        )
        after = json.loads(websocket.recv(timeout=10))
        while after["type"] != "view" or after["n"] == view["n"]:
            after = json.loads(websocket.recv(timeout=10))
        assert card not in after["hand"]
        assert len(after["hand"]) == len(view["hand"]) - 1
        assert after["last_claim"]["seat"] == 0


def test_the_wheel_ships_the_pages(tmp_path: Path) -> None:
    from hatchling.builders.wheel import WheelBuilder

    root = Path(__file__).resolve().parent.parent
    built = list(WheelBuilder(str(root)).build(directory=str(tmp_path), versions=["standard"]))
    names = set(zipfile.ZipFile(built[0]).namelist())
    for page in ("host.html", "table.html", "table.js", "host.js", "style.css"):
        assert f"cheatrules/web/static/{page}" in names
