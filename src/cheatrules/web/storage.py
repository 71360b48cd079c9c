"""Keeping tables: a small store interface, in memory or in an SQLite database.

A table is kept as its settings and tokens, the record of its game when it
was dealt (:func:`cheatrules.dumps`), and one row per action since, so that
saving an action writes that action, not the whole game again. A restarted
server deals nothing new and every link still works.

:class:`Store` is the interface the tables use; :class:`MemoryStore` keeps
nothing (a server without ``--data``), :class:`SQLiteStore` keeps one
database file through the standard library's :mod:`sqlite3`. Each call is
one transaction: an action is committed before any player is shown its
result, and a failed write raises :class:`StoreError`, so the table shows
nothing it did not save. The database's schema is versioned
(``PRAGMA user_version``) and migrated forward when opened; table files
written by earlier versions (one JSON file per table) are read into it.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

import attrs

from cheatrules.actions import parse_action
from cheatrules.errors import CheatRulesError, RecordError
from cheatrules.records import loads
from cheatrules.state import GameState

from .words import N_, WordedError

__all__ = [
    "DATABASE",
    "FORMAT",
    "SCHEMA",
    "MemoryStore",
    "SQLiteStore",
    "Store",
    "StoreConflictError",
    "StoreError",
    "Stored",
    "read_file",
    "valid_id",
]

_log = logging.getLogger("cheatrules.web")

#: The database's file name in the data folder.
DATABASE = "tables.sqlite3"
#: The value of an earlier version's table file's ``"format"`` field.
FORMAT = "cheatrules-web-table"
#: The schema version this module writes (``PRAGMA user_version``).
SCHEMA = 1

#: A table id: what :func:`secrets.token_urlsafe` makes, 8 to 64 characters.
_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


class StoreError(WordedError):
    """A table the store could not save (a full disk, a read-only folder): nothing was changed."""


class StoreConflictError(StoreError):
    """Actions that follow a version of the table other than the one kept: nothing was changed.

    A table's version is the number of actions kept for it. Another
    server process (or an earlier call) saved actions first, so these
    would follow a game that is no longer the table's; the caller reads
    what was kept since and decides again.
    """

    def __init__(self, table_id: str, expected: int, found: int) -> None:
        #: The table whose version moved on.
        self.table_id = table_id
        #: The version the refused actions follow (their first action's number).
        self.expected = expected
        #: The version kept.
        self.found = found
        super().__init__(
            N_(
                "table %(table)s moved on before this change was saved: its stored version is"
                " %(found)s, the change follows version %(expected)s; nothing changed, try again"
            ),
            table=table_id,
            found=found,
            expected=expected,
        )


@attrs.frozen
class Stored:
    """A table as the store holds it."""

    #: The table's id.
    table_id: str
    #: The settings (game, players, house options, seats, window, bot delay, seats' names).
    settings: dict[str, Any]
    #: The tokens (``host``, ``spectator``, and ``seats``: one per human seat, by seat number).
    tokens: dict[str, Any]
    #: The game's record when the table was dealt (or as an earlier version's file held it).
    record: str
    #: Every action of the game, in their text form, in order (the record's first).
    actions: tuple[str, ...] = ()
    #: When the table last changed, in seconds since the epoch.
    changed: float = 0.0

    def game(self) -> GameState:
        """The game kept: the record's, with the actions after the record's applied.

        Raises:
            CheatRulesError: the record does not read, or an action is not
                legal in the game (a :class:`~cheatrules.errors.RecordError`
                or :class:`~cheatrules.errors.IllegalActionError`, say).

        """
        state = loads(self.record)
        for action in self.actions[len(state.actions) :]:
            state = state.apply(parse_action(action))
        return state


def valid_id(table_id: object) -> bool:
    """Whether ``table_id`` is a table id this server makes (letters, digits, ``-``, ``_``)."""
    return isinstance(table_id, str) and _ID.fullmatch(table_id) is not None


class Store(Protocol):
    """Where a server keeps its tables. Every method is one transaction; a failure raises.

    A server database can take the place of :class:`SQLiteStore` by giving
    these methods.
    """

    def load(self) -> Iterator[Stored | RecordError]:
        """Every open table kept (a table that will not read gives its error instead)."""

    def create(self, stored: Stored) -> None:
        """Keep a new table.

        Raises:
            StoreError: it could not be written.

        """

    def append(self, table_id: str, first: int, actions: Sequence[str]) -> None:
        """Keep a table's ``actions``, the first of them its action number ``first``.

        Raises:
            StoreConflictError: the table keeps other than ``first`` actions
                (none of them is kept).
            StoreError: they could not be written (none of them is kept).

        """

    def update(self, table_id: str, settings: dict[str, Any]) -> None:
        """Keep a table's new settings (a seat's name).

        Raises:
            StoreError: they could not be written.

        """

    def remove(self, table_id: str) -> None:
        """Forget a table (closed or expired)."""

    def close(self) -> None:
        """Let the store go."""


class MemoryStore:
    """A store that keeps nothing: the tables live as long as the server."""

    def load(self) -> Iterator[Stored | RecordError]:
        """Every open table kept (a table that will not read gives its error instead)."""
        return iter(())

    def create(self, stored: Stored) -> None:
        """Keep a new table (:meth:`Store.create`)."""

    def append(self, table_id: str, first: int, actions: Sequence[str]) -> None:
        """Keep a table's actions (:meth:`Store.append`)."""

    def update(self, table_id: str, settings: dict[str, Any]) -> None:
        """Keep a table's new settings (:meth:`Store.update`)."""

    def remove(self, table_id: str) -> None:
        """Forget a table."""

    def close(self) -> None:
        """Let the store go."""


#: Each schema version's statements, run in order from the database's version to :data:`SCHEMA`.
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        """CREATE TABLE tables (
            id TEXT PRIMARY KEY,
            settings TEXT NOT NULL,
            tokens TEXT NOT NULL,
            record TEXT NOT NULL,
            created REAL NOT NULL,
            changed REAL NOT NULL
        )""",
        """CREATE TABLE actions (
            table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            n INTEGER NOT NULL,
            action TEXT NOT NULL,
            PRIMARY KEY (table_id, n)
        ) WITHOUT ROWID""",
    ),
}


def _refused(error: sqlite3.Error) -> StoreError:
    _log.error("the table store refused a write: %s", error)
    return StoreError(N_("the table could not be saved just now, so nothing changed; try again"))


class SQLiteStore:
    """The tables in one SQLite database file, ``folder/tables.sqlite3``.

    The database runs in write-ahead mode with ``synchronous=NORMAL``: a
    committed action survives the server being killed; a power cut may lose
    the last few. On opening, the schema is migrated forward, and the table
    files of earlier versions found in ``folder`` (``*.json``) are read in
    once (the files are left as they are; a table already kept is not read
    again).

    Raises:
        StoreError: the database cannot be opened, or was written by a
            newer version.

    """

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self._db: sqlite3.Connection | None = None
        try:
            self._migrate()
        except sqlite3.Error as error:
            raise StoreError(
                N_("cannot open the table database in %(folder)s: %(reason)s"),
                folder=str(self.folder),
                reason=str(error),
            ) from None
        self._import_files()

    def _connect(self) -> sqlite3.Connection:
        """A connection, used by the server's event loop alone (maybe not the thread opening it)."""
        db = sqlite3.connect(self.folder / DATABASE, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        return db

    def _migrate(self) -> None:
        (version,) = self.db.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA:
            raise sqlite3.DatabaseError(
                f"it has schema version {version}; this version reads up to {SCHEMA}"
            )
        for step in range(version + 1, SCHEMA + 1):
            with self._transaction():
                for statement in _MIGRATIONS[step]:
                    self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version = {step}")

    def _transaction(self) -> _Transaction:
        """A transaction: ``with store._transaction(): ...`` commits, or rolls back on an error."""
        return _Transaction(self.db)

    def _import_files(self) -> None:
        """Read the table files of earlier versions into the database, once each."""
        for path in sorted(self.folder.glob("*.json")):
            try:
                stored = read_file(path)
            except RecordError as error:
                _log.warning("a table file was not read: %s", error)
                continue
            if stored is None:
                continue  # a table its host closed: nothing to play
            try:
                with self._transaction():
                    found = self.db.execute("SELECT 1 FROM tables WHERE id = ?", (stored.table_id,))
                    if found.fetchone() is None:
                        self._insert(stored)
            except sqlite3.Error as error:
                _log.warning("the table file %s was not read: %s", path, error)

    def _insert(self, stored: Stored) -> None:
        now = stored.changed or time.time()
        self.db.execute(
            "INSERT INTO tables (id, settings, tokens, record, created, changed)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (
                stored.table_id,
                json.dumps(stored.settings, ensure_ascii=False),
                json.dumps(stored.tokens),
                stored.record,
                now,
                now,
            ),
        )
        self._actions(stored.table_id, 0, stored.actions)

    def _actions(self, table_id: str, first: int, actions: Sequence[str]) -> None:
        self.db.executemany(
            "INSERT INTO actions (table_id, n, action) VALUES (?, ?, ?)",
            [(table_id, first + index, action) for index, action in enumerate(actions)],
        )

    def load(self) -> Iterator[Stored | RecordError]:
        """Every open table kept (a table that will not read gives its error instead)."""
        rows = self.db.execute(
            "SELECT id, settings, tokens, record, changed FROM tables ORDER BY id"
        ).fetchall()
        for table_id, settings, tokens, record, changed in rows:
            try:
                numbered = self.db.execute(
                    "SELECT n, action FROM actions WHERE table_id = ? ORDER BY n", (table_id,)
                ).fetchall()
                if [n for n, _ in numbered] != list(range(len(numbered))):
                    raise ValueError("its actions are not numbered 0, 1, 2...")
                actions = tuple(action for _, action in numbered)
                settings, tokens = json.loads(settings), json.loads(tokens)
                if not isinstance(settings, dict) or not isinstance(tokens, dict):
                    raise ValueError("settings and tokens must be JSON objects")
            except (sqlite3.Error, ValueError) as error:
                yield RecordError(f"table {table_id}: {error}")
                continue
            yield Stored(table_id, settings, tokens, record, actions, changed)

    def create(self, stored: Stored) -> None:
        """Keep a new table (:meth:`Store.create`)."""
        try:
            with self._transaction():
                self._insert(stored)
        except sqlite3.Error as error:
            raise _refused(error) from None

    def append(self, table_id: str, first: int, actions: Sequence[str]) -> None:
        """Keep a table's actions (:meth:`Store.append`)."""
        try:
            with self._transaction():
                kept, found = self.db.execute(
                    "SELECT (SELECT 1 FROM tables WHERE id = ?),"
                    " (SELECT count(*) FROM actions WHERE table_id = ?)",
                    (table_id, table_id),
                ).fetchone()
                if kept is None:
                    raise sqlite3.IntegrityError(f"table {table_id} is not kept")
                if found != first:
                    raise StoreConflictError(table_id, first, found)
                self._actions(table_id, first, actions)
                self.db.execute(
                    "UPDATE tables SET changed = ? WHERE id = ?", (time.time(), table_id)
                )
        except sqlite3.Error as error:
            raise _refused(error) from None

    def update(self, table_id: str, settings: dict[str, Any]) -> None:
        """Keep a table's new settings (:meth:`Store.update`)."""
        try:
            with self._transaction():
                self.db.execute(
                    "UPDATE tables SET settings = ? WHERE id = ?",
                    (json.dumps(settings, ensure_ascii=False), table_id),
                )
        except sqlite3.Error as error:
            raise _refused(error) from None

    def remove(self, table_id: str) -> None:
        """Forget a table."""
        try:
            with self._transaction():
                self.db.execute("DELETE FROM tables WHERE id = ?", (table_id,))
        except sqlite3.Error as error:
            _log.error("cannot forget table %s: %s", table_id, error)

    def close(self) -> None:
        """Let the database go; the store opens it again if it is used after."""
        if self._db is not None:
            self._db.close()
            self._db = None

    @property
    def db(self) -> sqlite3.Connection:
        """The database connection (opened again after :meth:`close`: an app started twice)."""
        if self._db is None:
            self._db = self._connect()
        return self._db


class _Transaction:
    """``BEGIN IMMEDIATE`` on entry; ``COMMIT``, or ``ROLLBACK`` on an error, on exit."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is None:
            try:
                self.db.execute("COMMIT")
                return
            except sqlite3.Error:
                self.db.execute("ROLLBACK")
                raise
        self.db.execute("ROLLBACK")


def read_file(path: Path) -> Stored | None:
    """The table in an earlier version's table file at ``path``; ``None`` for a closed one.

    Raises:
        RecordError: the file is not a table file, its record does not
            read, or its table id is not one this server makes (a file may
            not name where it is kept).

    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as error:
        raise RecordError(f"cannot read the table file {path}: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{path} is not a cheatrules web table file")
    if data.get("version") != 1:
        raise RecordError(f"{path} has table file version {data.get('version')!r}; read 1")
    table_id, settings, tokens = data.get("table"), data.get("settings"), data.get("tokens")
    record, closed = data.get("record"), data.get("closed", False)
    if (
        not isinstance(settings, dict)
        or not isinstance(tokens, dict)
        or not isinstance(record, str)
        or not isinstance(closed, bool)
    ):
        raise RecordError(f"{path} lacks the table's settings, tokens or record")
    if not valid_id(table_id) or path.stem != table_id:
        raise RecordError(f"{path} names the table {table_id!r}, not a table id of its own name")
    assert isinstance(table_id, str)
    try:
        actions = tuple(action.text() for action in loads(record).actions)
    except CheatRulesError as error:
        raise RecordError(f"{path}: {error}") from None
    if closed:
        return None
    return Stored(table_id, settings, tokens, record, actions, path.stat().st_mtime)
