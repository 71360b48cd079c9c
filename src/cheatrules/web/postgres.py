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
import queue
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cheatrules.errors import RecordError
from cheatrules.rules import MAX_PLAYERS

from . import _psycopg
from .notifications import CHANNEL, Kind, Listener, Notification
from .storage import StoreConflictError, Stored, StoreError
from .words import N_

if TYPE_CHECKING:
    import psycopg

__all__ = ["SCHEMA", "PostgresStore"]

_log = logging.getLogger("cheatrules.web")

#: The schema version this module writes (the one row of the ``cheatrules_schema`` table).
SCHEMA = 3

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
    # The open window's answers in the table's row (seat as text -> action), so that one
    # statement can close the window on a condition the row's lock covers.
    3: (
        "ALTER TABLE tables ADD COLUMN answers jsonb NOT NULL DEFAULT '{}'",
        """UPDATE tables SET answers = kept.answers
        FROM (
            SELECT given.table_id, jsonb_object_agg(given.seat::text, given.action) AS answers
            FROM answers AS given JOIN tables AS t
                ON t.id = given.table_id AND t.version = given.version
            GROUP BY given.table_id
        ) AS kept
        WHERE tables.id = kept.table_id""",
        "DROP TABLE answers",
    ),
}

# Each table with its actions in order, read in one statement (so from one snapshot).
_TABLES = """
    SELECT t.id, t.settings, t.tokens, t.record, t.version, t.changed,
        coalesce(array_agg(a.n ORDER BY a.n) FILTER (WHERE a.n IS NOT NULL), '{}'),
        coalesce(array_agg(a.action ORDER BY a.n) FILTER (WHERE a.n IS NOT NULL), '{}')
    FROM tables AS t LEFT JOIN actions AS a ON a.table_id = t.id
"""


# An append, or a window's close, in one statement, so one round trip (autocommit makes it
# one transaction): the row moves on only from the version the actions follow and, for a
# close, only while it holds exactly the answers the close was decided from (``known``).
# Both conditions are on the row, so when the UPDATE waited for the row's lock, they are
# checked again on the row as committed: an answer kept meanwhile is never left out. The
# actions are written from the moved row alone; a change (new actions, or a close) forgets
# the window's answers and is told, only if the row moved.
_APPEND = f"""
    WITH moved AS (
        UPDATE tables SET version = %(version)s, changed = %(now)s,
            answers = CASE WHEN %(changes)s THEN '{{}}'::jsonb ELSE answers END
        WHERE id = %(table)s AND version = %(first)s
            AND (%(known)s::jsonb IS NULL OR answers = %(known)s::jsonb)
        RETURNING id
    ), added AS (
        INSERT INTO actions (table_id, n, action)
        SELECT moved.id, %(first)s + number - 1, action
        FROM moved, unnest(%(actions)s::text[]) WITH ORDINALITY AS given (action, number)
    )
    SELECT count(*), CASE WHEN count(*) > 0 AND %(changes)s
        THEN pg_notify('{CHANNEL}', %(payload)s) END
    FROM moved
"""

# An answer in one statement: added to the row's answers only while the row is at the
# window's version and the seat has not answered, and told only if added.
_ANSWER = f"""
    WITH kept AS (
        UPDATE tables SET answers = answers || jsonb_build_object(%(seat)s::text, %(action)s::text)
        WHERE id = %(table)s AND version = %(version)s AND NOT (answers ? %(seat)s::text)
        RETURNING id
    )
    SELECT count(*), CASE WHEN count(*) > 0 THEN pg_notify('{CHANNEL}', %(payload)s) END
    FROM kept
"""

# A table's version and its open window's answers.
_WINDOW = "SELECT version, answers FROM tables WHERE id = %s"

# How often a close (or an answer) is tried before it gives up: a close that fails at the
# window's version found an answer kept meanwhile, and a window has one a seat at most.
_TRIES = MAX_PLAYERS + 1


def _refused(error: Exception) -> StoreError:
    _log.error("the table store refused a write: %s", error)
    return StoreError(N_("the table could not be saved just now, so nothing changed; try again"))


def _notify(db: psycopg.Connection[Any], kind: Kind, table_id: str, version: int) -> None:
    """Tell the listeners of a change, when (and only if) its transaction commits."""
    payload = Notification(kind, table_id, version).payload()
    db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))


def _move(
    db: psycopg.Connection[Any],
    table_id: str,
    first: int,
    actions: list[str],
    known: Mapping[int, str] | None = None,
) -> bool:
    """Run ``_APPEND``: whether the table's row moved on (a window's close when ``known``)."""
    given = {
        "table": table_id,
        "first": first,
        "version": first + len(actions),
        "now": time.time(),
        "actions": actions,
        "known": None if known is None else json.dumps({str(seat): known[seat] for seat in known}),
        # New actions, or a window closed: the answers are forgotten and the change told.
        "changes": bool(actions) or known is not None,
        "payload": Notification.appended(table_id, first, actions).payload(),
    }
    row = db.execute(_APPEND, given).fetchone()
    return row is not None and row[0] == 1


def _window(db: psycopg.Connection[Any], table_id: str) -> tuple[int, dict[int, str]]:
    """The version ``table_id`` keeps and its window's answers, read in a statement of its own.

    Raises:
        StoreError: the table is not kept.

    """
    row = db.execute(_WINDOW, (table_id,)).fetchone()
    if row is None:
        raise _refused(LookupError(f"table {table_id} is not kept"))
    return row[0], _seats(row[1])


def _open_window(db: psycopg.Connection[Any], table_id: str, version: int) -> dict[int, str]:
    """The answers kept for ``table_id``'s window open at ``version``.

    Raises:
        StoreConflictError: the table is at another version (the window closed).
        StoreError: the table is not kept.

    """
    found, answers = _window(db, table_id)
    if found != version:
        raise StoreConflictError(table_id, version, found)
    return answers


def _seats(answers: Mapping[str, str]) -> dict[int, str]:
    """A row's answers (JSON, so keyed by text) by seat number."""
    return {int(seat): action for seat, action in answers.items()}


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
        connections: how many connections the store may hold at once. Each
            method is one transaction on a connection of its own while it
            runs, so that many threads may call the store at once; one
            found closed or lost is let go, and another opened next time.

    A write that fails raises :class:`~cheatrules.web.storage.StoreError`
    and changes nothing.

    Raises:
        ValueError: ``connections`` is not a whole number of 1 or more.
        ImportError: psycopg is not installed (the ``server`` extra).
        StoreError: the database cannot be reached, or was written by a
            newer version.

    """

    def __init__(self, url: str, *, connections: int = 4) -> None:
        if isinstance(connections, bool) or not isinstance(connections, int) or connections < 1:
            raise ValueError(
                "connections is how many connections the store may hold at once,"
                f" a whole number of 1 or more; got {connections!r}"
            )
        _psycopg.require("PostgresStore")
        self.url = url
        self._connections = _Connections(url, connections)
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
        """An idle connection of the store's in autocommit mode (the one it lends next).

        For tests and tools, while no other thread uses the store (it may
        lend the connection at any time). One is opened if none is idle.
        """
        with self._connections.lent() as db:
            return db

    @contextlib.contextmanager
    def _statement(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection for one statement (its own transaction), this thread's alone."""
        with self._connections.lent() as db:
            yield db

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection in a transaction, this thread's alone: it commits, or rolls back."""
        with self._connections.lent() as db, db.transaction():
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
        in the statement that writes the actions and sends the
        notification: of two calls that follow one version, the second to
        commit changes nothing and raises.

        Raises:
            StoreConflictError: the table keeps other than ``first`` actions
                (none of these is kept).
            StoreError: they could not be written (none of them is kept).

        """
        import psycopg

        try:
            with self._statement() as db:
                if not _move(db, table_id, first, list(actions)):
                    found, _ = _window(db, table_id)
                    raise StoreConflictError(table_id, first, found)
        except psycopg.Error as error:
            raise _refused(error) from None

    def answer(self, table_id: str, version: int, seat: int, action: str) -> bool:
        """Keep ``seat``'s answer to the window open at ``version``, and tell the listeners.

        The answer is added to the table's row only while the row is at
        ``version`` (the window is open), in one statement: a
        :meth:`settle` of the same version waits for it, or it for the
        settle.

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
                for _ in range(_TRIES):
                    row = db.execute(_ANSWER, given).fetchone()
                    if row is not None and row[0] == 1:
                        return True
                    # Not kept: a fresh statement says why (its snapshot is newer).
                    found, answers = _window(db, table_id)
                    if found != version:
                        raise StoreConflictError(table_id, version, found)
                    if seat in answers:
                        return False
                    # A close that kept no actions forgot the answers, and the
                    # window is open again at the same version: answer again.
        except psycopg.Error as error:
            raise _refused(error) from None
        raise _refused(RuntimeError(f"table {table_id}'s answers changed {_TRIES} times"))

    def answers(self, table_id: str, version: int) -> dict[int, str]:
        """The answers kept for ``table_id``'s window at ``version``, by seat.

        Raises:
            StoreError: the database did not answer.

        """
        import psycopg

        try:
            with self._statement() as db:
                row = db.execute(_WINDOW, (table_id,)).fetchone()
        except psycopg.Error as error:
            raise _psycopg.unanswered(self.url, error) from None
        if row is None or row[0] != version:
            return {}
        return _seats(row[1])

    def settle(
        self,
        table_id: str,
        version: int,
        decide: Callable[[Mapping[int, str]], Sequence[str]],
        *,
        known: Mapping[int, str] | None = None,
    ) -> Sequence[str]:
        """Close the window open at ``version``: keep the actions ``decide`` makes of its answers.

        The actions ``decide`` makes of ``known`` are kept, as :meth:`append`
        keeps them, in one statement that also forgets the window's answers,
        and only if the answers kept are exactly ``known``: an answer kept
        meanwhile (even while the statement waited for the table's row) is
        never left out. Otherwise the answers kept are read, given to
        ``decide`` again, and the close tried again with them.

        Args:
            table_id: the table.
            version: the version the window follows.
            decide: the actions that close the window, given the answers by
                seat. It may be called more than once, so it must depend on
                the answers it is given alone.
            known: the answers the caller holds; with ``None`` they are
                read first (one more round trip).

        Returns:
            The actions kept.

        Raises:
            StoreConflictError: the table is at another version (another
                process closed the window); nothing was kept.
            StoreError: the database did not answer, or the table is not kept.

        """
        import psycopg

        try:
            with self._statement() as db:
                answers = None if known is None else dict(known)
                for _ in range(_TRIES):
                    if answers is None:
                        answers = _open_window(db, table_id, version)
                    actions = list(decide(answers))
                    if _move(db, table_id, version, actions, answers):
                        return actions
                    answers = None  # an answer came in meanwhile, or the window closed
        except psycopg.Error as error:
            raise _refused(error) from None
        raise _refused(RuntimeError(f"table {table_id}'s answers changed {_TRIES} times"))

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
        """Let every connection go, once given back; the store opens others if used after."""
        self._connections.close()

    def listen(self) -> Listener:
        """A listener to this store's database: ``async with store.listen() as listener``.

        See :class:`~cheatrules.web.notifications.Listener`.
        """
        return Listener(self.url)


class _NewerSchemaError(Exception):
    """The database was written by a newer version of this module."""


class _Connections:
    """The connections of one store: at most ``most`` at once, each lent to one thread at a time.

    The idle ones wait in a stack, so the one used last is lent first (and
    the others stay idle when one thread calls alone). A connection is
    opened when none is idle, and let go when it comes back closed, lost,
    or inside a transaction.
    """

    def __init__(self, url: str, most: int) -> None:
        self.url = url
        self.most = most
        self._idle: queue.LifoQueue[psycopg.Connection[Any]] = queue.LifoQueue()
        # One permit for each connection lent, or that may be opened: at most ``most`` exist.
        self._permits = threading.BoundedSemaphore(most)
        self._closing = threading.Lock()  # two closes would each take some of the permits

    @contextlib.contextmanager
    def lent(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection in autocommit mode, this thread's until the block ends.

        Waits while ``most`` are lent.

        Raises:
            psycopg.Error: no connection could be opened.

        """
        import psycopg

        with self._permits:
            try:
                db = self._idle.get_nowait()
            except queue.Empty:
                db = psycopg.connect(self.url, autocommit=True)
            try:
                yield db
            finally:
                self._give_back(db)

    def _give_back(self, db: psycopg.Connection[Any]) -> None:
        from psycopg.pq import TransactionStatus

        if db.closed or db.info.transaction_status != TransactionStatus.IDLE:
            db.close()
        else:
            self._idle.put(db)

    def close(self) -> None:
        """Close every connection, waiting for those lent to come back."""
        with self._closing:
            for _ in range(self.most):  # every permit: no connection is lent meanwhile
                self._permits.acquire()
            try:
                while not self._idle.empty():
                    self._idle.get_nowait().close()
            finally:
                for _ in range(self.most):
                    self._permits.release()
