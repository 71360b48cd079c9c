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
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from cheatrules.errors import CheatRulesError

from . import protocol
from .collector import Collector
from .limits import Bucket, Limits
from .storage import Store, StoreError
from .tables import MAX_CONNECTIONS, Hall, Room, TableError, games
from .words import (
    LANGUAGE_NAMES,
    N_,
    LanguageError,
    WordedError,
    accepted_language,
    checked,
    page_words,
    to_player,
    told,
)

__all__ = ["create_app"]

STATIC = Path(__file__).parent / "static"
#: The longest request body the host's requests take, in bytes.
MAX_BODY = 4096

#: The websocket close codes: a token of no seat of the table; no such table (unknown,
#: closed or expired); no hello in time; a slow reader; too many messages or connections.
CLOSE_BAD_TOKEN, CLOSE_NO_TABLE, CLOSE_NO_HELLO, CLOSE_SLOW, CLOSE_TOO_MANY = (
    4403,
    4404,
    4408,
    4413,
    4429,
)

#: Every page's and answer's security headers: the pages load only their own script and
#: style, talk only to their own server, and are never framed.
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
        "style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
        "form-action 'self'"
    ),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


class _Connection:
    """One websocket, with the queue its messages wait in, sent in order by one task.

    The queue holds at most ``limit`` messages: a client that reads more
    slowly is dropped (code 4413) rather than buffered without end.
    """

    def __init__(
        self,
        socket: WebSocket,
        role: str,
        seat: int | None,
        language: str,
        version: int,
        limit: int = 256,
    ) -> None:
        self.socket = socket
        self.role = role
        self.seat = seat
        self.language = language
        self.version = version
        self.sent = 0  # log lines sent
        self.limit = limit
        self.slow = False
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()

    def send(self, text: str) -> None:
        if self.slow:
            return
        if self.queue.qsize() >= self.limit:
            # Too slow a reader: what waits is dropped, and the pump closes the socket.
            self.slow = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    async def pump(self) -> None:
        while (text := await self.queue.get()) is not None:
            await self.socket.send_text(text)
        if self.slow:
            await self.socket.close(code=CLOSE_SLOW)


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
    except (ValueError, RecursionError):
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
    limits: Limits | None = None,
    create_token: str | None = None,
    store: Store | None = None,
    collector: Collector | None = None,
) -> Starlette:
    """The web table's application, keeping its tables in ``data``.

    Args:
        data: the folder whose database (``tables.sqlite3``) keeps the
            tables, each action committed before anyone is shown it, and
            reloaded from when the application starts; ``None`` keeps them
            in memory only.
        bot_delay: seconds a bot waits before it acts (0 to 60).
        window: seconds the challenge window stays open after a claim.
        seed: deal the tables from this seed's sequence (for tests and
            benchmarks only: it makes the hands known); ``None`` deals from
            the system's randomness.
        limits: the server's bounds (:class:`~cheatrules.web.limits.Limits`;
            ``None`` for its defaults).
        create_token: the token ``POST /api/tables`` must carry
            (``Authorization: Bearer ...``); ``None`` lets anyone create
            tables (a server on localhost). ``cheatrules serve`` sets one
            when it listens beyond localhost.
        store: where the tables are kept, in place of ``data``'s database
            (a :class:`~cheatrules.web.storage.Store`).
        collector: the process's garbage collection while the application
            runs (:class:`~cheatrules.web.collector.Collector`; ``None``
            leaves it as it is). :func:`~cheatrules.web.serve` gives one:
            the application then owns its process.

    Raises:
        TableError: a delay or window out of range.
        StoreError: the database cannot be opened.

    """
    hall = Hall(data, bot_delay=bot_delay, window=window, seed=seed, limits=limits, store=store)
    handlers = _Handlers(hall, create_token, collector)
    app = Starlette(
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
        middleware=[Middleware(_SecurityHeaders)],
        lifespan=handlers.lifespan,
    )
    app.state.hall = hall  # the tables, for tests and tools that set one up by hand
    return app


class _SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP answer, the static files' included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, with_headers)


def _address(request: Request | WebSocket) -> str:
    """The client's address, as the server sees it (a proxy's, unless it forwards it)."""
    return request.client.host if request.client is not None else "?"


class _Handlers:
    """The routes' handlers, over one hall of tables, with the bounds of :class:`Limits`."""

    def __init__(self, hall: Hall, create_token: str | None, collector: Collector | None) -> None:
        self.hall = hall
        self.collector = collector
        self.limits = hall.limits
        self.create_token = create_token
        self.connections: Counter[str] = Counter()  # open websockets by address
        self.creations: dict[str, Bucket] = {}

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        self.hall.start()
        sweeper = asyncio.create_task(self._sweep())
        if self.collector is not None:
            self.collector.start()
        try:
            yield
        finally:
            if self.collector is not None:
                self.collector.stop()
            sweeper.cancel()
            await self.hall.stop()
            self.hall.store.close()

    async def _sweep(self) -> None:
        """Let the tables go that expired, every few seconds."""
        every = min(30.0, self.limits.idle_seconds / 4, self.limits.finished_seconds / 4)
        while True:
            await asyncio.sleep(every)
            self.hall.expire(time.time())
            now = time.monotonic()
            self.creations = {
                address: bucket
                for address, bucket in self.creations.items()
                if now - bucket.at < self.limits.tables_window
            }

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

    def _refusal(self, request: Request, language: str) -> Response | None:
        """Why a request that changes something is refused before it is read, if it is."""
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            refused = WordedError(N_("send the request as JSON (Content-Type: application/json)"))
            return JSONResponse({"error": refused.describe(language)}, status_code=415)
        return None

    def _may_create(self, request: Request, language: str) -> Response | None:
        """Why this client may not create a table now, if it may not."""
        if self.create_token is not None:
            given = request.headers.get("authorization", "")
            scheme, _, token = given.partition(" ")
            if scheme.lower() != "bearer" or not secrets.compare_digest(
                token.strip().encode(), self.create_token.encode()
            ):
                refused = WordedError(N_("creating a table needs this server's creation token"))
                return JSONResponse({"error": refused.describe(language)}, status_code=401)
        limits = self.limits
        address = _address(request)
        now = time.monotonic()
        bucket = self.creations.get(address)
        if bucket is None:
            rate = limits.tables_per_address / limits.tables_window
            bucket = self.creations[address] = Bucket(rate, limits.tables_per_address, now)
        if not bucket.take(1, now):
            refused = WordedError(
                N_("too many tables from one address; try again in a few minutes")
            )
            return JSONResponse({"error": refused.describe(language)}, status_code=429)
        return None

    async def create(self, request: Request) -> Response:
        language = accepted_language(request.headers.get("accept-language"))
        try:
            language = _language(request)
        except CheatRulesError as error:
            return JSONResponse({"error": told(error, language)}, status_code=400)
        refused = self._refusal(request, language) or self._may_create(request, language)
        if refused is not None:
            return refused
        try:
            body = await _body(request)
            room = self.hall.create(
                body.get("game", "english"),
                body.get("players", 4),
                body.get("options"),
                body.get("seats"),
            )
        except StoreError as error:
            return JSONResponse({"error": error.describe(language)}, status_code=503)
        except CheatRulesError as error:
            return JSONResponse({"error": told(error, language)}, status_code=400)
        return JSONResponse(_links(request, room, language), status_code=201)

    async def _hosted(self, request: Request) -> tuple[Room, str] | Response:
        """The table the request names and the request's language, if it carries the host token."""
        language = accepted_language(request.headers.get("accept-language"))
        try:
            language = _language(request)
        except CheatRulesError as error:
            return JSONResponse({"error": told(error, language)}, status_code=400)
        refused = self._refusal(request, language)
        if refused is not None:
            return refused
        try:
            body = await _body(request)
            room = self.hall.room(request.path_params["table"])
        except CheatRulesError as error:
            return JSONResponse({"error": told(error, language)}, status_code=404)
        host = body.get("host")
        if not isinstance(host, str) or not room.is_host(host):
            refused_host = WordedError(N_("this needs the table's host token")).describe(language)
            return JSONResponse({"error": refused_host}, status_code=403)
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
        address = _address(websocket)
        limits = self.limits
        # Until the hello names one, the language is the browser's.
        language = accepted_language(websocket.headers.get("accept-language"))
        await websocket.accept()
        if (
            self.connections[address] >= limits.connections_per_address
            or self.connections.total() >= limits.connections
        ):
            await _refuse(websocket, N_("too many connections"), language, "full", CLOSE_TOO_MANY)
            return
        self.connections[address] += 1
        try:
            await self._seated(websocket, language)
        finally:
            self.connections[address] -= 1
            if not self.connections[address]:
                del self.connections[address]

    async def _seated(self, websocket: WebSocket, language: str) -> None:
        """A counted connection: its hello, then its messages until it goes."""
        try:
            room = self.hall.room(websocket.path_params["table"])
        except (TableError, StoreError) as error:
            await websocket.send_text(_error(error, language, "unknown-table"))
            await websocket.close(code=CLOSE_NO_TABLE)
            return
        hello = await _hello(websocket, room, language, self.limits.hello_seconds)
        if hello is None:
            return
        role, seat, incoming = hello
        language = incoming.lang or language
        if len(room.connections) >= MAX_CONNECTIONS:
            await _refuse(
                websocket, N_("this table has too many connections"), language, "full", 4429
            )
            return
        if role == "seat" and incoming.name is not None:
            assert seat is not None
            try:
                room.rename(seat, incoming.name)
            except StoreError as error:
                await websocket.send_text(_error(error, language, "not-saved"))
        kind = "seat" if role == "seat" else "spectator"
        connection = _Connection(
            websocket, kind, seat, language, incoming.version, self.limits.send_queue
        )
        connection.sent = incoming.since
        pump = asyncio.create_task(connection.pump())
        _greet(room, connection)
        room.connections.append(connection)
        try:
            await _serve(websocket, room, connection, self.limits)
        except WebSocketDisconnect:
            pass
        finally:
            if connection in room.connections:
                room.connections.remove(connection)
            connection.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await pump


async def _refuse(websocket: WebSocket, reason: str, language: str, code: str, close: int) -> None:
    """Tell the client why (an ``error`` message with ``code``), then close with ``close``."""
    with contextlib.suppress(Exception):
        await websocket.send_text(_error(reason, language, code))
        await websocket.close(code=close)


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
    room.send_view(connection)


async def _hello(
    websocket: WebSocket, room: Room, language: str, seconds: float
) -> tuple[str, int | None, protocol.Incoming] | None:
    """Wait for the hello, at most ``seconds`` in all: the role its token gives, and the hello.

    ``None`` once the connection is refused (and closed).
    """
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        left = deadline - asyncio.get_running_loop().time()
        try:
            message = await asyncio.wait_for(websocket.receive(), max(left, 0.0))
        except asyncio.TimeoutError:
            await _refuse(websocket, N_("say hello first"), language, "no-hello", CLOSE_NO_HELLO)
            return None
        if message["type"] == "websocket.disconnect":
            return None
        try:
            incoming = protocol.read_message(message.get("text", message.get("bytes")))
        except LanguageError as error:
            await websocket.send_text(_error(error, language, "bad-language"))
            continue
        except CheatRulesError as error:
            await websocket.send_text(_error(error, language))
            continue
        if incoming.type != "hello" or incoming.token is None:
            await websocket.send_text(
                _error(
                    N_('say hello first: {"type": "hello", "v": 2, "token": "..."}'),
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
            await websocket.close(code=CLOSE_BAD_TOKEN)
            return None
        return role, seat, incoming


async def _serve(websocket: WebSocket, room: Room, connection: _Connection, limits: Limits) -> None:
    """Read the connection's messages until it goes: actions for its own seat only.

    A connection that sends faster than :class:`Limits` allow is told and closed.
    """
    loop = asyncio.get_running_loop()
    bucket = Bucket(limits.messages_per_second, limits.message_burst, loop.time())
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
            incoming = None
            connection.send(_error(error, language, "bad-language"))
        except CheatRulesError as error:
            incoming = None
            connection.send(_error(error, language))
        cost = limits.language_cost if incoming is not None and incoming.type == "language" else 1
        if not bucket.take(cost, loop.time()):
            await _refuse(
                websocket,
                N_("too many messages: wait a moment, then reconnect"),
                language,
                "too-fast",
                CLOSE_TOO_MANY,
            )
            return
        if incoming is not None:
            _answer(room, connection, incoming)


def _answer(room: Room, connection: _Connection, incoming: protocol.Incoming) -> None:
    """Do what one checked message asks."""
    language = connection.language
    if incoming.type == "ping":
        connection.send(protocol.message("pong"))
        return
    if incoming.type == "language":
        assert incoming.lang is not None
        connection.language = incoming.lang
        connection.sent = 0  # every line again, in the new language
        _greet(room, connection)
        return
    if incoming.type == "hello":
        connection.send(
            _error(N_("this connection has said hello already"), language, "hello-again")
        )
        return
    if connection.seat is None:
        connection.send(_error(N_("a spectator cannot act"), language, "not-a-seat"))
        return
    if incoming.seat is not None and incoming.seat != connection.seat:
        refused = WordedError(
            N_("this link acts for seat %(seat)s only, not for seat %(other)s"),
            seat=connection.seat,
            other=incoming.seat,
        )
        connection.send(_error(refused, language, "wrong-seat"))
        return
    assert incoming.action is not None
    try:
        room.act(connection.seat, incoming.action)
    except StoreError as error:
        connection.send(_error(error, language, "not-saved"))
    except CheatRulesError as error:
        told = to_player(error, language, connection.seat)
        connection.send(protocol.message("error", code="illegal", message=told))
