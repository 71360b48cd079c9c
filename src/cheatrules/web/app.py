"""The web table's Starlette application: the pages, the host's requests and the websocket.

Routes:

- ``GET /``: the host page (create a table).
- ``GET /api/games``: the games, house rules and bots a host may choose.
- ``POST /api/tables``: create a table; answers with the join links and the host token.
- ``POST /api/tables/{id}/links``: the links again (host token needed).
- ``POST /api/tables/{id}/close``: close a table (host token needed).
- ``GET /table/{id}``: a seat's or a spectator's page (the token is in the link's ``#``).
- ``WS /ws/{id}``: the table's websocket; the first message is ``hello`` with the token.
- ``GET /static/...``: the pages' script and style.

No route sends the game state: a seat gets its observation, a spectator the public table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from cheatrules.errors import CheatRulesError

from . import protocol
from .tables import MAX_CONNECTIONS, Hall, Room, TableError, games

__all__ = ["create_app"]

STATIC = Path(__file__).parent / "static"
#: The longest request body the host's requests take, in bytes.
MAX_BODY = 4096
#: Seconds a connection has to say hello before it is closed.
HELLO_TIMEOUT = 30.0


class _Connection:
    """One websocket, with the queue its messages wait in, sent in order by one task."""

    def __init__(self, socket: WebSocket, role: str, seat: int | None) -> None:
        self.socket = socket
        self.role = role
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()

    def send(self, text: str) -> None:
        self.queue.put_nowait(text)

    async def pump(self) -> None:
        while (text := await self.queue.get()) is not None:
            await self.socket.send_text(text)


def _error(text: str, code: str = "bad-message") -> str:
    return protocol.message("error", code=code, message=text)


async def _body(request: Request) -> dict[str, Any]:
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise TableError(f"a request body may be at most {MAX_BODY} bytes")
    try:
        data = json.loads(raw or b"{}")
    except ValueError:
        raise TableError("the request body must be a JSON object") from None
    if not isinstance(data, dict):
        raise TableError("the request body must be a JSON object")
    return data


def _links(request: Request, room: Room) -> dict[str, Any]:
    base = str(request.base_url).rstrip("/")
    page = f"{base}/table/{room.table_id}"
    return {
        "table": room.table_id,
        "host": room.tokens["host"],
        "seats": {
            seat: f"{page}#{token}"
            for seat, token in sorted(room.tokens["seats"].items(), key=lambda item: int(item[0]))
        },
        "spectator": f"{page}#{room.tokens['spectator']}",
        "settings": room.describe(),
    }


def create_app(
    data: Path | str | None = None,
    *,
    bot_delay: float = 1.0,
    window: float = 5.0,
    seed: int | None = None,
) -> Starlette:
    """The web table's application, keeping its tables in ``data``.

    Args:
        data: the folder tables are written to after every action, and
            reloaded from when the application starts; ``None`` keeps them
            in memory only.
        bot_delay: seconds a bot waits before it acts (0 to 60).
        window: seconds the challenge window stays open after a claim.
        seed: deal the tables from this seed's sequence (for tests and
            benchmarks only: it makes the hands known); ``None`` deals from
            the system's randomness.

    Raises:
        TableError: a delay or window out of range.

    """
    handlers = _Handlers(Hall(data, bot_delay=bot_delay, window=window, seed=seed))
    return Starlette(
        routes=[
            Route("/", handlers.host_page),
            Route("/api/games", handlers.list_games),
            Route("/api/tables", handlers.create, methods=["POST"]),
            Route("/api/tables/{table}/links", handlers.links, methods=["POST"]),
            Route("/api/tables/{table}/close", handlers.close, methods=["POST"]),
            Route("/table/{table}", handlers.table_page),
            WebSocketRoute("/ws/{table}", handlers.socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=handlers.lifespan,
    )


class _Handlers:
    """The routes' handlers, over one hall of tables."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        self.hall.start()
        yield

    async def host_page(self, request: Request) -> Response:
        return FileResponse(STATIC / "host.html")

    async def table_page(self, request: Request) -> Response:
        return FileResponse(STATIC / "table.html")

    async def list_games(self, request: Request) -> Response:
        return JSONResponse(games())

    async def create(self, request: Request) -> Response:
        try:
            body = await _body(request)
            room = self.hall.create(
                body.get("game", "english"),
                body.get("players", 4),
                body.get("options"),
                body.get("seats"),
            )
        except CheatRulesError as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        return JSONResponse(_links(request, room), status_code=201)

    async def _hosted(self, request: Request) -> Room | Response:
        """The table the request names, if it carries the host token; else the refusal."""
        try:
            body = await _body(request)
            room = self.hall.room(request.path_params["table"])
        except CheatRulesError as error:
            return JSONResponse({"error": str(error)}, status_code=404)
        host = body.get("host")
        if not isinstance(host, str) or not room.is_host(host):
            return JSONResponse({"error": "this needs the table's host token"}, status_code=403)
        return room

    async def links(self, request: Request) -> Response:
        room = await self._hosted(request)
        if isinstance(room, Response):
            return room
        return JSONResponse(_links(request, room))

    async def close(self, request: Request) -> Response:
        room = await self._hosted(request)
        if isinstance(room, Response):
            return room
        self.hall.close(room.table_id, room.tokens["host"])
        return JSONResponse({"closed": room.table_id})

    async def socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            room = self.hall.room(websocket.path_params["table"])
        except TableError as error:
            await websocket.send_text(_error(str(error), "unknown-table"))
            await websocket.close(code=4404)
            return
        role, seat = await _hello(websocket, room)
        if role == "":
            return
        if len(room.connections) >= MAX_CONNECTIONS:
            await websocket.send_text(_error("this table has too many connections", "full"))
            await websocket.close(code=4429)
            return
        connection = _Connection(websocket, "seat" if role == "seat" else "spectator", seat)
        pump = asyncio.create_task(connection.pump())
        connection.send(
            protocol.message("welcome", role=connection.role, seat=seat, table=room.describe())
        )
        connection.send(room.view(connection.role, seat))
        room.connections.append(connection)
        try:
            await _serve(websocket, room, connection)
        except WebSocketDisconnect:
            pass
        finally:
            if connection in room.connections:
                room.connections.remove(connection)
            connection.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await pump


async def _hello(websocket: WebSocket, room: Room) -> tuple[str, int | None]:
    """Wait for the hello; the role its token gives, or ``("", None)`` once refused."""
    while True:
        try:
            text = await asyncio.wait_for(websocket.receive_text(), HELLO_TIMEOUT)
        except asyncio.TimeoutError:
            await websocket.close(code=4408)
            return "", None
        try:
            incoming = protocol.read_message(text)
        except CheatRulesError as error:
            await websocket.send_text(_error(str(error)))
            continue
        if incoming.type != "hello" or incoming.token is None:
            await websocket.send_text(
                _error('say hello first: {"type": "hello", "v": 1, "token": "..."}', "hello-first")
            )
            continue
        try:
            return room.role_of(incoming.token)
        except TableError as error:
            await websocket.send_text(_error(str(error), "bad-token"))
            await websocket.close(code=4403)
            return "", None


async def _serve(websocket: WebSocket, room: Room, connection: _Connection) -> None:
    """Read the connection's messages until it goes: actions for its own seat only."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            text = message.get("bytes")
        try:
            incoming = protocol.read_message(text)
        except CheatRulesError as error:
            connection.send(_error(str(error)))
            continue
        if incoming.type == "ping":
            connection.send(protocol.message("pong"))
            continue
        if incoming.type == "hello":
            connection.send(_error("this connection has said hello already", "hello-again"))
            continue
        if connection.seat is None:
            connection.send(_error("a spectator cannot act", "not-a-seat"))
            continue
        if incoming.seat is not None and incoming.seat != connection.seat:
            connection.send(
                _error(
                    f"this link acts for seat {connection.seat} only, not for seat {incoming.seat}",
                    "wrong-seat",
                )
            )
            continue
        assert incoming.action is not None
        try:
            room.act(connection.seat, incoming.action)
        except CheatRulesError as error:
            connection.send(_error(str(error), "illegal"))
