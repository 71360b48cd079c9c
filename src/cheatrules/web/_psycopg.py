"""The psycopg driver, imported when first used, and its errors told in words.

The ``server`` extra brings psycopg; without it ``cheatrules.web`` still
imports, and only the PostgreSQL store and its listener say what to install.
"""

from __future__ import annotations

from cheatrules._extras import install_hint

from .storage import StoreError
from .words import N_

__all__ = ["reason", "require", "unanswered", "where"]


def require(who: str) -> None:
    """Check that psycopg can be imported, or say what ``who`` needs installed."""
    try:
        import psycopg  # noqa: F401
    except ImportError as missing:
        raise ImportError(
            f"{who} needs the server extra ({missing}): {install_hint('server')}",
            name=missing.name,
        ) from missing


def where(url: str) -> str:
    """The database ``url`` names, as a message may show it: without its password."""
    from psycopg import ProgrammingError
    from psycopg.conninfo import conninfo_to_dict

    try:
        parts = conninfo_to_dict(url)
    except ProgrammingError:
        return "the database URL given"
    host = parts.get("host") or "localhost"
    port = f":{parts['port']}" if parts.get("port") else ""
    user = f"{parts['user']}@" if parts.get("user") else ""
    return f"postgresql://{user}{host}{port}/{parts.get('dbname') or ''}"


def reason(error: Exception) -> str:
    """The first line of a driver's error: the rest repeats the query or gives hints."""
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def unanswered(url: str, error: Exception) -> StoreError:
    """The error that says the database at ``url`` did not answer, and why."""
    return StoreError(
        N_("the table database in %(where)s did not answer: %(reason)s"),
        where=where(url),
        reason=reason(error),
    )
