"""The web table: people play Cheat in their browsers, each seeing only their own seat.

``cheatrules serve`` runs it (the ``web`` extra, which brings Starlette,
uvicorn and websockets: ``pip install ".[web]"`` from a checkout, or
``pip install "cheatrules[web]"`` once cheatrules is on PyPI). A host
creates a table on the server's front page and hands out one link per
human seat; each link's page talks to the server over a websocket and is
sent only its seat's observation, legal actions and narrated log. The
server keeps one :class:`~cheatrules.GameState` per table, saves each
action in the data folder's database before anyone is shown it, and picks
every unfinished table up again when it restarts. The tables can be kept in
PostgreSQL instead (:class:`~cheatrules.web.postgres.PostgresStore`, the
``server`` extra), where several server processes can share them. Every bound a public
server needs (message rates, send queues, connections and tables per
address, expiry) is in :class:`~cheatrules.web.limits.Limits`.

The JSON messages are in :mod:`cheatrules.web.protocol`, and described in
docs/guide/web-table.md for anyone building another front-end on them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from starlette.applications import Starlette

try:
    from .app import create_app
except ImportError as missing:  # the web extra is not installed
    from cheatrules._extras import install_hint

    raise ImportError(
        f"cheatrules.web needs the web extra ({missing}): {install_hint('web')}",
        name=missing.name,
    ) from missing
from . import _psycopg
from .collector import Collector
from .limits import Limits
from .postgres import PostgresStore
from .protocol import VERSION, ProtocolError
from .storage import SQLiteStore, Store, StoreConflictError, StoreError
from .tables import Hall, RefusedActionError, Room, TableError
from .words import LanguageError

__all__ = [
    "SETTINGS_VARIABLE",
    "VERSION",
    "Collector",
    "Hall",
    "LanguageError",
    "Limits",
    "PostgresStore",
    "ProtocolError",
    "RefusedActionError",
    "Room",
    "SQLiteStore",
    "Store",
    "StoreConflictError",
    "StoreError",
    "TableError",
    "app_from_environment",
    "app_from_settings",
    "create_app",
    "serve",
    "shown_store",
]


#: The environment variable that hands a worker process the server's settings, as JSON.
SETTINGS_VARIABLE = "CHEATRULES_SERVE"


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    data: Path | str | None = None,
    bot_delay: float = 1.0,
    window: float = 5.0,
    create_token: str | None = None,
    limits: Limits | None = None,
    store: str | None = None,
    workers: int = 1,
) -> None:
    """Run the web table with uvicorn until interrupted.

    Args:
        host: the address to listen on (``127.0.0.1``: this machine only).
        port: the port to listen on.
        data: the folder whose database keeps the tables; ``None`` keeps them
            in memory only.
        bot_delay: seconds a bot waits before it acts.
        window: seconds the challenge window stays open after a claim.
        create_token: the token creating a table needs (``None``: none).
        limits: the server's bounds (``None``: the defaults of :class:`Limits`),
            counted by each worker process on its own.
        store: a PostgreSQL database's URL (``postgresql://...``) that keeps
            the tables, in place of ``data``; several processes may share it.
        workers: the processes serving the port (uvicorn's workers, each
            building the application from :data:`SETTINGS_VARIABLE`); more
            than one needs ``store``.

    Raises:
        ValueError: more than one worker without a ``store``, or both
            ``data`` and ``store``.

    """
    import uvicorn

    if workers > 1 and store is None:
        raise ValueError(
            f"{workers} worker processes need a server database to share (a PostgreSQL URL);"
            " the data folder's SQLite database serves one process"
        )
    if data is not None and store is not None:
        raise ValueError("the tables are kept in a data folder or a server database, not both")
    if store is not None:
        _psycopg.require("a server database (--store)")
    settings = {
        "data": None if data is None else str(data),
        "store": store,
        "bot_delay": bot_delay,
        "window": window,
        "create_token": create_token,
        "limits": attrs.asdict(Limits() if limits is None else limits),
    }
    options: dict[str, Any] = {"host": host, "port": port, "ws_max_size": 65536}
    if workers == 1:
        uvicorn.run(app_from_settings(settings), log_level="warning", **options)
        return
    os.environ[SETTINGS_VARIABLE] = json.dumps(settings)
    target = f"{__name__}:app_from_environment"
    uvicorn.run(target, factory=True, workers=workers, log_level="warning", **options)


def shown_store(url: str) -> str:
    """The database ``url`` names, as a message may show it: without its password.

    Raises:
        ImportError: psycopg is not installed (the ``server`` extra).

    """
    _psycopg.require("a server database (--store)")
    return _psycopg.where(url)


def app_from_settings(settings: dict[str, Any]) -> Starlette:
    """The application that :func:`serve`'s settings describe (in one process, or each worker).

    It owns its process, so it runs a :class:`~cheatrules.web.collector.Collector`.

    Raises:
        StoreError: the database cannot be opened.

    """
    url = settings.get("store")
    return create_app(
        settings.get("data"),
        bot_delay=settings["bot_delay"],
        window=settings["window"],
        create_token=settings.get("create_token"),
        limits=Limits(**settings["limits"]),
        store=None if url is None else PostgresStore(url),
        collector=Collector(),
    )


def app_from_environment() -> Starlette:
    """A worker's application, from the settings :func:`serve` put in :data:`SETTINGS_VARIABLE`."""
    return app_from_settings(json.loads(os.environ[SETTINGS_VARIABLE]))
