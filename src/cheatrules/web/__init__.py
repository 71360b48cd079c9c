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

from pathlib import Path

try:
    from .app import create_app
except ImportError as missing:  # the web extra is not installed
    from cheatrules._extras import install_hint

    raise ImportError(
        f"cheatrules.web needs the web extra ({missing}): {install_hint('web')}",
        name=missing.name,
    ) from missing
from .limits import Limits
from .postgres import PostgresStore
from .protocol import VERSION, ProtocolError
from .storage import SQLiteStore, Store, StoreConflictError, StoreError
from .tables import Hall, RefusedActionError, Room, TableError
from .words import LanguageError

__all__ = [
    "VERSION",
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
    "create_app",
    "serve",
]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    data: Path | str | None = None,
    bot_delay: float = 1.0,
    window: float = 5.0,
    create_token: str | None = None,
    limits: Limits | None = None,
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
        limits: the server's bounds (``None``: the defaults of :class:`Limits`).

    """
    import uvicorn

    app = create_app(
        data, bot_delay=bot_delay, window=window, limits=limits, create_token=create_token
    )
    uvicorn.run(app, host=host, port=port, ws_max_size=65536, log_level="warning")
