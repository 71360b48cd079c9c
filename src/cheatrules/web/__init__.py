"""The web table: people play Cheat in their browsers, each seeing only their own seat.

``cheatrules serve`` runs it (the ``web`` extra, which brings Starlette,
uvicorn and websockets: ``pip install ".[web]"`` from a checkout, or
``pip install "cheatrules[web]"`` once cheatrules is on PyPI). A host
creates a table on the server's front page and hands out one link per
human seat; each link's page talks to the server over a websocket and is
sent only its seat's observation, legal actions and narrated log. The
server keeps one :class:`~cheatrules.GameState` per table, writes each
table's record to the data folder after every action, and picks every
unfinished table up again when it restarts.

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
from .protocol import VERSION, ProtocolError
from .tables import Hall, RefusedActionError, Room, TableError
from .words import LanguageError

__all__ = [
    "VERSION",
    "Hall",
    "LanguageError",
    "ProtocolError",
    "RefusedActionError",
    "Room",
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
) -> None:
    """Run the web table with uvicorn until interrupted.

    Args:
        host: the address to listen on (``127.0.0.1``: this machine only).
        port: the port to listen on.
        data: the folder tables are kept in; ``None`` keeps them in memory only.
        bot_delay: seconds a bot waits before it acts.
        window: seconds the challenge window stays open after a claim.

    """
    import uvicorn

    app = create_app(data, bot_delay=bot_delay, window=window)
    uvicorn.run(app, host=host, port=port, ws_max_size=65536, log_level="warning")
