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

Languages. The pages are rendered in the language of their ``?lang=`` query,
else the first of the browser's ``Accept-Language`` the library speaks, else
English; so are the host's requests' errors. Each websocket connection reads
its own language (the hello's ``"lang"``, or the ``Accept-Language`` its
browser sent), and may change it with a ``language`` message.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from cheatrules.errors import CheatRulesError

from . import protocol
from .tables import MAX_CONNECTIONS, Hall, Room, TableError, games
from .words import (
    LANGUAGE_NAMES,
    N_,
    LanguageError,
    WordedError,
    accepted_language,
    checked,
    page_words,
    told,
)

__all__ = ["create_app"]

STATIC = Path(__file__).parent / "static"
#: The longest request body the host's requests take, in bytes.
MAX_BODY = 4096
#: Seconds a connection has to say hello before it is closed.
HELLO_TIMEOUT = 30.0


class _Connection:
    """One websocket, with the queue its messages wait in, sent in order by one task."""

    def __init__(self, socket: WebSocket, role: str, seat: int | None, language: str) -> None:
        self.socket = socket
        self.role = role
        self.seat = seat
        self.language = language
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()

    def send(self, text: str) -> None:
        self.queue.put_nowait(text)

    async def pump(self) -> None:
        while (text := await self.queue.get()) is not None:
            await self.socket.send_text(text)


def _error(error: CheatRulesError | str, language: str, code: str = "bad-message") -> str:
    """An ``error`` message, told in ``language`` (a text is a message of the catalogs)."""
    text = (
        WordedError(error).describe(language) if isinstance(error, str) else told(error, language)
    )
    return protocol.message("error", code=code, message=text)


async def _body(request: Request) -> dict[str, Any]:
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise TableError(N_("a request body may be at most %(limit)s bytes"), limit=MAX_BODY)
    try:
        data = json.loads(raw or b"{}")
    except ValueError:
        raise TableError(N_("the request body must be a JSON object")) from None
    if not isinstance(data, dict):
        raise TableError(N_("the request body must be a JSON object"))
    return data


def _language(request: Request | WebSocket) -> str:
    """The language of a page or request: its ``?lang=``, else the browser's; else English.

    Raises:
        LanguageError: a ``?lang=`` the library does not speak (the message names the five).

    """
    asked = request.query_params.get("lang")
    if asked is not None:
        return checked(asked)
    return accepted_language(request.headers.get("accept-language"))


_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


@functools.cache
def _page(name: str, language: str) -> str:
    """The page ``name`` (``host.html``, ``table.html``) in ``language``.

    Each ``{{key}}`` of the page is its word in ``language``; ``{{lang}}`` is
    the language's code and ``{{words}}`` the words table as JSON, for the
    page's script.
    """
    shown = page_words(language)
    table = json.dumps(
        {**shown, "lang": language, "languages": LANGUAGE_NAMES}, ensure_ascii=False
    ).replace("</", "<\\/")

    def word(found: re.Match[str]) -> str:
        key = found.group(1)
        if key == "lang":
            return language
        if key == "words":
            return table
        return html.escape(shown[key])

    return _PLACEHOLDER.sub(word, (STATIC / name).read_text(encoding="utf-8"))


def _links(request: Request, room: Room, language: str = "en") -> dict[str, Any]:
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
        "settings": room.describe(language),
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

    async def _rendered(self, request: Request, name: str) -> Response:
        try:
            language = _language(request)
        except CheatRulesError as error:
            return PlainTextResponse(str(error), status_code=400)
        return HTMLResponse(_page(name, language), headers={"Content-Language": language})

    async def host_page(self, request: Request) -> Response:
        return await self._rendered(request, "host.html")

    async def table_page(self, request: Request) -> Response:
        return await self._rendered(request, "table.html")

    async def list_games(self, request: Request) -> Response:
        try:
            language = _language(request)
        except CheatRulesError as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        return JSONResponse(games(language))

    async def create(self, request: Request) -> Response:
        language = accepted_language(request.headers.get("accept-language"))
        try:
            language = _language(request)
            body = await _body(request)
            room = self.hall.create(
                body.get("game", "english"),
                body.get("players", 4),
                body.get("options"),
                body.get("seats"),
            )
        except CheatRulesError as error:
            return JSONResponse({"error": told(error, language)}, status_code=400)
        return JSONResponse(_links(request, room, language), status_code=201)

    async def _hosted(self, request: Request) -> tuple[Room, str] | Response:
        """The table the request names and the request's language, if it carries the host token."""
        language = accepted_language(request.headers.get("accept-language"))
        try:
            language = _language(request)
            body = await _body(request)
            room = self.hall.room(request.path_params["table"])
        except CheatRulesError as error:
            return JSONResponse({"error": told(error, language)}, status_code=404)
        host = body.get("host")
        if not isinstance(host, str) or not room.is_host(host):
            refused = WordedError(N_("this needs the table's host token")).describe(language)
            return JSONResponse({"error": refused}, status_code=403)
        return room, language

    async def links(self, request: Request) -> Response:
        hosted = await self._hosted(request)
        if isinstance(hosted, Response):
            return hosted
        return JSONResponse(_links(request, *hosted))

    async def close(self, request: Request) -> Response:
        hosted = await self._hosted(request)
        if isinstance(hosted, Response):
            return hosted
        room = hosted[0]
        self.hall.close(room.table_id, room.tokens["host"])
        return JSONResponse({"closed": room.table_id})

    async def socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        # Until the hello names one, the language is the browser's.
        language = accepted_language(websocket.headers.get("accept-language"))
        try:
            room = self.hall.room(websocket.path_params["table"])
        except TableError as error:
            await websocket.send_text(_error(error, language, "unknown-table"))
            await websocket.close(code=4404)
            return
        role, seat, language = await _hello(websocket, room, language)
        if role == "":
            return
        if len(room.connections) >= MAX_CONNECTIONS:
            await websocket.send_text(
                _error(N_("this table has too many connections"), language, "full")
            )
            await websocket.close(code=4429)
            return
        kind = "seat" if role == "seat" else "spectator"
        connection = _Connection(websocket, kind, seat, language)
        pump = asyncio.create_task(connection.pump())
        _greet(room, connection)
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


def _greet(room: Room, connection: _Connection) -> None:
    """Send ``welcome`` and the table's ``view`` in the connection's language."""
    language = connection.language
    connection.send(
        protocol.message(
            "welcome",
            role=connection.role,
            seat=connection.seat,
            table=room.describe(language),
            lang=language,
            languages=LANGUAGE_NAMES,
            words=page_words(language),
        )
    )
    connection.send(room.view(connection.role, connection.seat, language))


async def _hello(websocket: WebSocket, room: Room, language: str) -> tuple[str, int | None, str]:
    """Wait for the hello: the role its token gives, and the language.

    The role is ``""`` once the connection is refused (and closed).
    """
    while True:
        try:
            text = await asyncio.wait_for(websocket.receive_text(), HELLO_TIMEOUT)
        except asyncio.TimeoutError:
            await websocket.close(code=4408)
            return "", None, language
        try:
            incoming = protocol.read_message(text)
        except LanguageError as error:
            await websocket.send_text(_error(error, language, "bad-language"))
            continue
        except CheatRulesError as error:
            await websocket.send_text(_error(error, language))
            continue
        if incoming.type != "hello" or incoming.token is None:
            await websocket.send_text(
                _error(
                    N_('say hello first: {"type": "hello", "v": 1, "token": "..."}'),
                    language,
                    "hello-first",
                )
            )
            continue
        if incoming.lang is not None:
            language = incoming.lang
        try:
            role, seat = room.role_of(incoming.token)
        except TableError as error:
            await websocket.send_text(_error(error, language, "bad-token"))
            await websocket.close(code=4403)
            return "", None, language
        return role, seat, language


async def _serve(websocket: WebSocket, room: Room, connection: _Connection) -> None:
    """Read the connection's messages until it goes: actions for its own seat only."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            text = message.get("bytes")
        language = connection.language
        try:
            incoming = protocol.read_message(text)
        except LanguageError as error:
            connection.send(_error(error, language, "bad-language"))
            continue
        except CheatRulesError as error:
            connection.send(_error(error, language))
            continue
        if incoming.type == "ping":
            connection.send(protocol.message("pong"))
            continue
        if incoming.type == "language":
            assert incoming.lang is not None
            connection.language = incoming.lang
            _greet(room, connection)
            continue
        if incoming.type == "hello":
            connection.send(
                _error(N_("this connection has said hello already"), language, "hello-again")
            )
            continue
        if connection.seat is None:
            connection.send(_error(N_("a spectator cannot act"), language, "not-a-seat"))
            continue
        if incoming.seat is not None and incoming.seat != connection.seat:
            refused = WordedError(
                N_("this link acts for seat %(seat)s only, not for seat %(other)s"),
                seat=connection.seat,
                other=incoming.seat,
            )
            connection.send(_error(refused, language, "wrong-seat"))
            continue
        assert incoming.action is not None
        try:
            room.act(connection.seat, incoming.action)
        except CheatRulesError as error:
            connection.send(_error(error, language, "illegal"))
