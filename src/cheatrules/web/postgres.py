"""Keeping tables in a PostgreSQL database, which several server processes can share.

:class:`PostgresStore` is a :class:`~cheatrules.web.storage.Store` over a
PostgreSQL server (the ``server`` extra, which brings psycopg 3). It keeps
what :class:`~cheatrules.web.storage.SQLiteStore` keeps, in the same two
tables, and adds what several processes need to share them:

- each table's row holds its *version*, the number of actions kept, and
  :meth:`PostgresStore.append` moves it on only from the version the new
  actions follow, in the transaction that writes them: of two processes
  that act on one state, one wins and the other gets a
  :class:`~cheatrules.web.storage.StoreConflictError`;
- every change sends a notification (``pg_notify`` on
  :data:`~cheatrules.web.notifications.CHANNEL`) in its own transaction, so
  it is heard only once committed; a
  :class:`~cheatrules.web.notifications.Listener`
  (:meth:`PostgresStore.listen`) hears them, and
  :meth:`PostgresStore.actions_since` reads what a table kept since a
  version.

docs/design/server.md says why, and what a listener does when its
connection drops. The schema is versioned (the ``cheatrules_schema``
table) and migrated forward when the store opens, under a lock, so two
processes starting at once migrate it once.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cheatrules.errors import RecordError

from . import _psycopg
from .notifications import CHANNEL, Kind, Listener, Notification
from .storage import StoreConflictError, Stored, StoreError
from .words import N_

if TYPE_CHECKING:
    import psycopg

__all__ = ["SCHEMA", "PostgresStore"]

_log = logging.getLogger("cheatrules.web")

#: The schema version this module writes (the one row of the ``cheatrules_schema`` table).
SCHEMA = 2

# The advisory lock that migrations hold: the bytes "cheatrul" read as one number.
_MIGRATION_LOCK = int.from_bytes(b"cheatrul", "big")

#: Each schema version's statements, run in order from the database's version to :data:`SCHEMA`.
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        """CREATE TABLE tables (
            id text PRIMARY KEY,
            settings text NOT NULL,
            tokens text NOT NULL,
            record text NOT NULL,
            version integer NOT NULL CHECK (version >= 0),
            created double precision NOT NULL,
            changed double precision NOT NULL
        )""",
        """CREATE TABLE actions (
            table_id text NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            n integer NOT NULL CHECK (n >= 0),
            action text NOT NULL,
            PRIMARY KEY (table_id, n)
        )""",
    ),
    # The answers given in a table's open challenge window, by seats on any process.
    2: (
        """CREATE TABLE answers (
            table_id text NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            version integer NOT NULL CHECK (version >= 0),
            seat integer NOT NULL CHECK (seat >= 0),
            action text NOT NULL,
            PRIMARY KEY (table_id, version, seat)
        )""",
    ),
}

# Each table with its actions in order, read in one statement (so from one snapshot).
_TABLES = """
    SELECT t.id, t.settings, t.tokens, t.record, t.version, t.changed,
        coalesce(array_agg(a.n ORDER BY a.n) FILTER (WHERE a.n IS NOT NULL), '{}'),
        coalesce(array_agg(a.action ORDER BY a.n) FILTER (WHERE a.n IS NOT NULL), '{}')
    FROM tables AS t LEFT JOIN actions AS a ON a.table_id = t.id
"""


# An append in one statement, so one round trip (autocommit makes it one transaction): the
# row moves on only from the version the actions follow, the actions are written from the
# moved row alone, and the notification is sent only if it moved.
_APPEND = f"""
    WITH moved AS (
        UPDATE tables SET version = %(version)s, changed = %(now)s
        WHERE id = %(table)s AND version = %(first)s
        RETURNING id
    ), added AS (
        INSERT INTO actions (table_id, n, action)
        SELECT moved.id, %(first)s + number - 1, action
        FROM moved, unnest(%(actions)s::text[]) WITH ORDINALITY AS given (action, number)
    )
    SELECT count(*), CASE WHEN count(*) > 0 AND %(notify)s
        THEN pg_notify('{CHANNEL}', %(payload)s) END
    FROM moved
"""

# An answer in one statement: kept only while the row (share-locked) is at the window's
# version, and told only if kept. The first column is the version the row holds.
_ANSWER = f"""
    WITH locked AS (
        SELECT version FROM tables WHERE id = %(table)s FOR SHARE
    ), kept AS (
        INSERT INTO answers (table_id, version, seat, action)
        SELECT %(table)s, %(version)s, %(seat)s, %(action)s FROM locked
        WHERE locked.version = %(version)s
        ON CONFLICT DO NOTHING
        RETURNING seat
    )
    SELECT (SELECT version FROM locked), (SELECT count(*) FROM kept),
        CASE WHEN EXISTS (SELECT 1 FROM kept) THEN pg_notify('{CHANNEL}', %(payload)s) END
"""


# A window's close, once its row is locked: the version moves on, the actions are written,
# the window's answers forgotten and the change told, in one statement.
_SETTLE = f"""
    WITH moved AS (
        UPDATE tables SET version = %(version)s, changed = %(now)s WHERE id = %(table)s
        RETURNING id
    ), added AS (
        INSERT INTO actions (table_id, n, action)
        SELECT moved.id, %(first)s + number - 1, action
        FROM moved, unnest(%(actions)s::text[]) WITH ORDINALITY AS given (action, number)
    ), forgotten AS (
        DELETE FROM answers WHERE table_id = %(table)s
    )
    SELECT pg_notify('{CHANNEL}', %(payload)s)
"""


def _refused(error: Exception) -> StoreError:
    _log.error("the table store refused a write: %s", error)
    return StoreError(N_("the table could not be saved just now, so nothing changed; try again"))


def _notify(db: psycopg.Connection[Any], kind: Kind, table_id: str, version: int) -> None:
    """Tell the listeners of a change, when (and only if) its transaction commits."""
    payload = Notification(kind, table_id, version).payload()
    db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))


def _read_table(row: Sequence[Any]) -> Stored | RecordError:
    """A table as ``_TABLES`` reads it, or the error that says why it will not read."""
    table_id, settings, tokens, record, version, changed, numbers, actions = row
    try:
        if list(numbers) != list(range(len(numbers))):
            raise ValueError("its actions are not numbered 0, 1, 2...")
        if version != len(numbers):
            raise ValueError(f"its version is {version}, but it keeps {len(numbers)} actions")
        settings, tokens = json.loads(settings), json.loads(tokens)
        if not isinstance(settings, dict) or not isinstance(tokens, dict):
            raise ValueError("settings and tokens must be JSON objects")
    except (ValueError, RecursionError) as error:
        return RecordError(f"table {table_id}: {error}")
    return Stored(table_id, settings, tokens, record, tuple(actions), changed)


class PostgresStore:
    """The tables in a PostgreSQL database, shared by every server process given its URL.

    Args:
        url: the database, as libpq reads it: ``postgresql://user@host/dbname``
            or ``host=... dbname=...`` (a password is best kept in
            ``~/.pgpass`` or ``PGPASSWORD``, not in the URL).

    Every method is one transaction on the store's one connection, opened
    again if it was closed or lost; threads may share the store, and take
    turns. A write that fails raises
    :class:`~cheatrules.web.storage.StoreError` and changes nothing.

    Raises:
        ImportError: psycopg is not installed (the ``server`` extra).
        StoreError: the database cannot be reached, or was written by a
            newer version.

    """

    def __init__(self, url: str) -> None:
        _psycopg.require("PostgresStore")
        self.url = url
        self._connection: psycopg.Connection[Any] | None = None
        self._lock = threading.Lock()  # one transaction at a time on the connection
        import psycopg

        try:
            self._migrate()
        except (psycopg.Error, _NewerSchemaError) as error:
            self.close()
            raise StoreError(
                N_("cannot open the table database in %(folder)s: %(reason)s"),
                folder=_psycopg.where(url),
                reason=_psycopg.reason(error),
            ) from None

    @property
    def db(self) -> psycopg.Connection[Any]:
        """The connection, in autocommit mode (opened again after :meth:`close` or its loss)."""
        import psycopg

        if self._connection is None or self._connection.closed:
            self._connection = psycopg.connect(self.url, autocommit=True)
        return self._connection

    @contextlib.contextmanager
    def _statement(self) -> Iterator[psycopg.Connection[Any]]:
        """The connection for one statement (its own transaction), this thread's alone."""
        with self._lock:
            yield self.db

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """The connection in a transaction, this thread's alone: it commits, or rolls back."""
        with self._lock:
            db = self.db
            with db.transaction():
                yield db

    def _migrate(self) -> None:
        with self._transaction() as db:
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            db.execute("CREATE TABLE IF NOT EXISTS cheatrules_schema (version integer NOT NULL)")
            row = db.execute("SELECT version FROM cheatrules_schema").fetchone()
            if row is None:
                db.execute("INSERT INTO cheatrules_schema (version) VALUES (0)")
            version = 0 if row is None else row[0]
            if version > SCHEMA:
                raise _NewerSchemaError(
                    f"it has schema version {version}; this version reads up to {SCHEMA}"
                )
            for step in range(version + 1, SCHEMA + 1):
                for statement in _MIGRATIONS[step]:
                    db.execute(statement)
                db.execute("UPDATE cheatrules_schema SET version = %s", (step,))

    @staticmethod
    def _insert_actions(
        db: psycopg.Connection[Any], table_id: str, first: int, actions: Sequence[str]
    ) -> None:
        if actions:
            db.execute(
                "INSERT INTO actions (table_id, n, action)"
                " SELECT %s, %s + number - 1, action"
                " FROM unnest(%s::text[]) WITH ORDINALITY AS given (action, number)",
                (table_id, first, list(actions)),
            )

    def load(self) -> Iterator[Stored | RecordError]:
        """Every open table kept (a table that will not read gives its error instead).

        Raises:
            StoreError: the database did not answer.

        """
        import psycopg

        try:
            with self._transaction() as db:
                rows = db.execute(_TABLES + ' GROUP BY t.id ORDER BY t.id COLLATE "C"').fetchall()
        except psycopg.Error as error:
            raise _psycopg.unanswered(self.url, error) from None
        return iter([_read_table(row) for row in rows])

    def table(self, table_id: str) -> Stored | RecordError | None:
        """The table kept as ``table_id``: its error if it will not read, ``None`` if not kept.

        Raises:
            StoreError: the database did not answer.

        """
        import psycopg

        try:
            with self._statement() as db:
                row = db.execute(_TABLES + " WHERE t.id = %s GROUP BY t.id", (table_id,))
                found = row.fetchone()
        except psycopg.Error as error:
            raise _psycopg.unanswered(self.url, error) from None
        return None if found is None else _read_table(found)

    def ids(self) -> set[str]:
        """The ids of every table kept.

        Raises:
            StoreError: the database did not answer.

        """
        import psycopg

        try:
            with self._statement() as db:
                rows = db.execute("SELECT id FROM tables").fetchall()
        except psycopg.Error as error:
            raise _psycopg.unanswered(self.url, error) from None
        return {row[0] for row in rows}

    def actions_since(self, table_id: str, version: int) -> tuple[str, ...] | None:
        """The actions ``table_id`` keeps from action number ``version`` on; ``None`` if not kept.

        A process that hears a
        :class:`~cheatrules.web.notifications.Notification` of newer actions
        than its own reads them here, from the version it holds.

        Raises:
            ValueError: ``version`` is not a whole number of 0 or more.
            StoreError: the database did not answer.

        """
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            raise ValueError(
                f"a version is a number of actions, a whole number of 0 or more; got {version!r}"
            )
        import psycopg

        try:
            with self._statement() as db:
                found = db.execute(
                    "SELECT coalesce(array_agg(a.action ORDER BY a.n)"
                    " FILTER (WHERE a.n IS NOT NULL), '{}')"
                    " FROM tables AS t LEFT JOIN actions AS a ON a.table_id = t.id AND a.n >= %s"
                    " WHERE t.id = %s GROUP BY t.id",
                    (version, table_id),
                ).fetchone()
        except psycopg.Error as error:
            raise _psycopg.unanswered(self.url, error) from None
        return None if found is None else tuple(found[0])

    def create(self, stored: Stored) -> None:
        """Keep a new table (:meth:`~cheatrules.web.storage.Store.create`), and tell listeners."""
        import psycopg

        now = stored.changed or time.time()
        try:
            with self._transaction() as db:
                db.execute(
                    "INSERT INTO tables (id, settings, tokens, record, version, created, changed)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    (
                        stored.table_id,
                        json.dumps(stored.settings, ensure_ascii=False),
                        json.dumps(stored.tokens),
                        stored.record,
                        len(stored.actions),
                        now,
                        now,
                    ),
                )
                self._insert_actions(db, stored.table_id, 0, stored.actions)
                _notify(db, "created", stored.table_id, len(stored.actions))
        except psycopg.Error as error:
            raise _refused(error) from None

    def append(self, table_id: str, first: int, actions: Sequence[str]) -> None:
        """Keep a table's actions if it keeps ``first`` actions now, and tell the listeners.

        The table's row moves from version ``first`` to ``first + len(actions)``
        in the transaction that writes the actions and sends the
        notification: of two calls that follow one version, the second to
        commit changes nothing and raises.

        Raises:
            StoreConflictError: the table keeps other than ``first`` actions
                (none of these is kept).
            StoreError: they could not be written (none of them is kept).

        """
        import psycopg

        version = first + len(actions)
        given = {
            "table": table_id,
            "first": first,
            "version": version,
            "now": time.time(),
            "actions": list(actions),
            "notify": bool(actions),
            "payload": Notification.appended(table_id, first, list(actions)).payload(),
        }
        try:
            with self._statement() as db:
                row = db.execute(_APPEND, given).fetchone()
                if row is None or row[0] != 1:
                    # A fresh statement: the append's own snapshot may predate the winner.
                    found = db.execute("SELECT version FROM tables WHERE id = %s", (table_id,))
                    kept = found.fetchone()
                    if kept is None:
                        raise _refused(LookupError(f"table {table_id} is not kept"))
                    raise StoreConflictError(table_id, first, kept[0])
        except psycopg.Error as error:
            raise _refused(error) from None

    def answer(self, table_id: str, version: int, seat: int, action: str) -> bool:
        """Keep ``seat``'s answer to the window open at ``version``, and tell the listeners.

        The table's row is read with a share lock, so an answer is kept
        only while the window is open: a :meth:`settle` of the same version
        waits for it, or it for the settle.

        Returns:
            ``True`` if kept; ``False`` if the seat had answered already.

        Raises:
            StoreConflictError: the table is at another version (the window
                closed); nothing was kept.
            StoreError: the database did not answer, or the table is not kept.

        """
        import psycopg

        given = {
            "table": table_id,
            "version": version,
            "seat": seat,
            "action": action,
            "payload": Notification.answered(table_id, version, seat, action).payload(),
        }
        try:
            with self._statement() as db:
                row = db.execute(_ANSWER, given).fetchone()
        except psycopg.Error as error:
            raise _refused(error) from None
        assert row is not None  # a SELECT without FROM gives one row
        found, kept = row[0], row[1]
        if found is None:
            raise _refused(LookupError(f"table {table_id} is not kept"))
        if found != version:
            raise StoreConflictError(table_id, version, found)
        return bool(kept == 1)

    def answers(self, table_id: str, version: int) -> dict[int, str]:
        """The answers kept for ``table_id``'s window at ``version``, by seat.

        Raises:
            StoreError: the database did not answer.

        """
        import psycopg

        try:
            with self._statement() as db:
                rows = db.execute(
                    "SELECT seat, action FROM answers WHERE table_id = %s AND version = %s",
                    (table_id, version),
                ).fetchall()
        except psycopg.Error as error:
            raise _psycopg.unanswered(self.url, error) from None
        return dict(rows)

    def settle(
        self,
        table_id: str,
        version: int,
        decide: Callable[[Mapping[int, str]], Sequence[str]],
    ) -> Sequence[str]:
        """Close the window open at ``version``: keep the actions ``decide`` makes of its answers.

        In one transaction: the table's row is locked (so no answer can
        come in meanwhile), ``decide`` is given the answers kept, and the
        actions it returns are kept as :meth:`append` keeps them; the
        window's answers are then forgotten. ``decide`` must be quick and
        touch nothing but its own values: it runs with the row locked.

        Returns:
            The actions kept.

        Raises:
            StoreConflictError: the table is at another version (another
                process closed the window); nothing was kept.
            StoreError: the database did not answer, or the table is not kept.

        """
        import psycopg

        try:
            # Two round trips: the lock and the answers, then the write and the commit.
            with self._lock, self.db.pipeline(), self.db.transaction():
                db = self.db
                locked = db.execute(
                    "SELECT version FROM tables WHERE id = %s FOR UPDATE", (table_id,)
                )
                # A statement of its own, after the lock: it sees every answer committed.
                answered = db.execute(
                    "SELECT seat, action FROM answers WHERE table_id = %s AND version = %s",
                    (table_id, version),
                )
                row = locked.fetchone()
                if row is None:
                    raise _refused(LookupError(f"table {table_id} is not kept"))
                if row[0] != version:
                    raise StoreConflictError(table_id, version, row[0])
                actions = list(decide(dict(answered.fetchall())))
                given = {
                    "table": table_id,
                    "first": version,
                    "version": version + len(actions),
                    "now": time.time(),
                    "actions": actions,
                    "payload": Notification.appended(table_id, version, actions).payload(),
                }
                db.execute(_SETTLE, given)
        except psycopg.Error as error:
            raise _refused(error) from None
        return actions

    def update(self, table_id: str, settings: dict[str, Any]) -> None:
        """Keep a table's new settings (:meth:`~cheatrules.web.storage.Store.update`), and tell."""
        import psycopg

        try:
            with self._transaction() as db:
                row = db.execute(
                    "UPDATE tables SET settings = %s WHERE id = %s RETURNING version",
                    (json.dumps(settings, ensure_ascii=False), table_id),
                ).fetchone()
                if row is not None:
                    _notify(db, "updated", table_id, row[0])
        except psycopg.Error as error:
            raise _refused(error) from None

    def remove(self, table_id: str) -> None:
        """Forget a table, and tell the listeners (a failure is logged, as SQLite's is)."""
        import psycopg

        try:
            with self._transaction() as db:
                row = db.execute(
                    "DELETE FROM tables WHERE id = %s RETURNING version", (table_id,)
                ).fetchone()
                if row is not None:
                    _notify(db, "removed", table_id, row[0])
        except psycopg.Error as error:
            _log.error("cannot forget table %s: %s", table_id, error)

    def close(self) -> None:
        """Let the connection go; the store opens another if it is used after."""
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    def listen(self) -> Listener:
        """A listener to this store's database: ``async with store.listen() as listener``.

        See :class:`~cheatrules.web.notifications.Listener`.
        """
        return Listener(self.url)


class _NewerSchemaError(Exception):
    """The database was written by a newer version of this module."""
