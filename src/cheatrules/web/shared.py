"""One server process's part in tables that several processes share through PostgreSQL.

A :class:`~cheatrules.web.tables.Hall` over a
:class:`~cheatrules.web.postgres.PostgresStore` holds every open table,
as each process does, and follows the database with a :class:`Shared`:

- it hears every committed change
  (:class:`~cheatrules.web.notifications.Listener`) and brings its copy of
  the table up to the version told: new actions applied, new window answers
  mirrored, new settings read, a removed table closed;
- it runs the timers and bots of the tables whose advisory lock it holds,
  one lock per table on a session connection of its own, so that each
  table's bots move once whatever the number of processes; the lock goes
  with the session when its process dies, and a sweep every
  ``sweep`` seconds takes up the tables nobody runs.

docs/design/server.md says why.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from cheatrules.errors import CheatRulesError

from .storage import StoreError

if TYPE_CHECKING:
    import psycopg

    from .notifications import Notification
    from .postgres import PostgresStore
    from .tables import Hall, Room

__all__ = ["Shared", "lock_key"]

_log = logging.getLogger("cheatrules.web")


def lock_key(table_id: str) -> int:
    """The advisory lock number of a table: eight bytes of its id's hash, signed.

    >>> lock_key("7RkQ2bXw") == lock_key("7RkQ2bXw") != lock_key("7RkQ2bXx")
    True
    """
    digest = hashlib.blake2b(f"cheatrules table {table_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class Shared:
    """A hall's link to the other processes that share its store.

    Args:
        hall: the hall whose tables follow the database.
        store: the database they are kept in.
        sweep: seconds between two looks for tables that no process runs
            (one whose runner died), and the longest a listener waits.

    """

    def __init__(self, hall: Hall, store: PostgresStore, sweep: float = 1.0) -> None:
        self.hall = hall
        self.store = store
        self.sweep_seconds = sweep
        #: The ids of the tables this process runs, whose advisory locks it holds.
        self.held: set[str] = set()
        self._locks: psycopg.Connection[Any] | None = None
        self._task: asyncio.Task[None] | None = None

    # -- which process runs a table -------------------------------------------------

    def runs(self, table_id: str) -> bool:
        """Whether this process runs the table's timers and bots."""
        return table_id in self.held

    def claim(self, table_ids: Iterable[str]) -> set[str]:
        """Take the locks of those tables that no process runs; the ids taken now.

        A lost lock connection lets every lock go (the database did too):
        the tables' timers stop here, and the next sweep takes them again.
        """
        import psycopg

        keys = {lock_key(table_id): table_id for table_id in table_ids if table_id not in self.held}
        try:
            if self._locks is None or self._locks.closed:
                self._locks = psycopg.connect(self.store.url, autocommit=True)
            rows = self._locks.execute(
                "SELECT key FROM unnest(%s::bigint[]) AS key WHERE pg_try_advisory_lock(key)",
                (list(keys),),
            ).fetchall()
        except psycopg.Error as error:
            self._lost(error)
            return set()
        taken = {keys[row[0]] for row in rows}
        self.held |= taken
        return taken

    def release(self, table_id: str) -> None:
        """Let the table's lock go (it was closed or removed)."""
        import psycopg

        if table_id not in self.held:
            return
        self.held.discard(table_id)
        try:
            if self._locks is not None:
                self._locks.execute("SELECT pg_advisory_unlock(%s)", (lock_key(table_id),))
        except psycopg.Error as error:
            self._lost(error)

    def _lost(self, error: Exception) -> None:
        _log.error("the table locks' connection was lost: %s; every lock is let go", error)
        if self._locks is not None:
            self._locks.close()
            self._locks = None
        held, self.held = self.held, set()
        for table_id in held:
            room = self.hall.rooms.get(table_id)
            if room is not None:
                room.run_timers()

    def sweep(self) -> None:
        """Take up the tables no process runs: catch each up, then set its timers going."""
        rooms = self.hall.rooms
        for table_id in self.claim([key for key, room in rooms.items() if not room.closed]):
            room = rooms.get(table_id)
            if room is not None:
                self.catch_up(room)
                room.take_over()

    # -- hearing the other processes ------------------------------------------------

    def catch_up(self, room: Room, answers: bool = True) -> None:
        """Bring ``room`` to the version kept: new actions applied, the window's answers mirrored.

        Args:
            room: the table.
            answers: read the open window's answers too; following an
                ``appended`` notification, they need not be read: each answer
                kept since is told after it.

        Raises:
            StoreError: the database did not answer.

        """
        actions = self.store.actions_since(room.table_id, room.version)
        if actions is None:
            self.hall.forget(room.table_id)
            return
        if actions:
            room.apply_kept(actions)
        if answers and room.window is not None:
            room.mirror(self.store.answers(room.table_id, room.version))

    def catch_up_all(self) -> None:
        """Catch every table up: those held, those made and those removed meanwhile.

        Raises:
            StoreError: the database did not answer.

        """
        kept = self.store.ids()
        for table_id in list(self.hall.rooms):
            if table_id not in kept:
                self.hall.forget(table_id)
        for table_id in kept - set(self.hall.rooms):
            self.hall.load(table_id)
        for room in list(self.hall.rooms.values()):
            self.catch_up(room)

    def hear(self, notification: Notification) -> None:
        """Follow one change told by any process (this one's own included).

        Raises:
            StoreError: the database did not answer.

        """
        hall, table_id = self.hall, notification.table_id
        room = hall.rooms.get(table_id)
        if notification.kind == "created":
            if room is None:
                hall.load(table_id)
            return
        if room is None:
            return
        if notification.kind == "removed":
            hall.forget(table_id)
        elif notification.kind == "updated":
            hall.refresh(table_id)
        elif room.version < notification.version:
            carried = notification.actions
            if carried and room.version == notification.version - len(carried):
                room.apply_kept(carried)  # the actions came with the notification: no read
            else:
                self.catch_up(room, answers=notification.kind == "answered")
        elif notification.kind == "answered" and room.version == notification.version:
            seat, carried = notification.seat, notification.actions
            if seat is not None and len(carried) == 1:
                room.mirror({seat: carried[0]})  # the answer came with the notification
            else:
                room.mirror(self.store.answers(table_id, notification.version))

    def start(self) -> None:
        """Take the locks of the tables no process runs, and start hearing; on the event loop."""
        self.claim(self.hall.rooms)
        self._task = asyncio.get_running_loop().create_task(self._follow())

    async def stop(self) -> None:
        """Stop hearing, and let every lock go."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        if self._locks is not None:
            self._locks.close()
            self._locks = None
        self.held.clear()

    async def _follow(self) -> None:
        """Hear the changes until stopped; after a lost connection, listen, then catch up."""
        listener = self.store.listen()
        loop = asyncio.get_running_loop()
        lost, swept = True, loop.time()
        try:
            while True:
                try:
                    await listener.open()
                    if lost:  # listening first: nothing committed from now on is missed
                        self.catch_up_all()
                        lost = False
                    for notification in await listener.heard(self.sweep_seconds):
                        self._hear_one(notification)
                    if loop.time() - swept >= self.sweep_seconds:
                        swept = loop.time()
                        self.sweep()
                except StoreError as error:
                    _log.error("the tables' notifications were not heard: %s", error)
                    lost = True
                    await listener.close()
                    await asyncio.sleep(self.sweep_seconds)
        finally:
            await listener.close()

    def _hear_one(self, notification: Notification) -> None:
        try:
            self.hear(notification)
        except CheatRulesError as error:
            if isinstance(error, StoreError):
                raise
            _log.error("table %s did not follow: %s", notification.table_id, error)
