"""Hearing of every change to the tables, made by any server process, as it commits.

:class:`~cheatrules.web.postgres.PostgresStore` tells of each change it
commits with ``pg_notify`` on :data:`CHANNEL`, in the change's own
transaction: a :class:`Listener`, on a connection of its own, hears each
committed change once, in the order of the commits, and never one that
was rolled back. A :class:`Notification` names the table and its
version, never the events (docs/design/server.md says why); an appended
one carries the actions it added too, where they fit, so that the other
processes need not read them back.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any, Literal, cast, get_args

import attrs

from . import _psycopg
from .storage import valid_id

if TYPE_CHECKING:
    from types import TracebackType

    import psycopg

__all__ = ["CARRIED_BYTES", "CHANNEL", "Kind", "Listener", "Notification"]

_log = logging.getLogger("cheatrules.web")

#: The channel every change is told on (``LISTEN cheatrules_tables`` hears them all).
CHANNEL = "cheatrules_tables"
#: What happened to a table (its row was made, actions were added, its settings changed,
#: it was forgotten, or a seat answered its open challenge window).
Kind = Literal["created", "appended", "updated", "removed", "answered"]


#: The most bytes of actions an ``appended`` notification carries; PostgreSQL refuses a
#: payload of 8000 bytes or more, and the kind, id and version take under a hundred.
CARRIED_BYTES = 7_000


@attrs.frozen
class Notification:
    """One committed change to a table, as a :class:`Listener` hears it.

    It names the table and its version, not the events: a notification
    holds under 8000 bytes, and each seat sees the events differently. An
    ``appended`` one carries the actions it added (the same for every
    seat) where they fit in :data:`CARRIED_BYTES`, so a process at the
    version before them applies them without a read; any other process
    reads what it lacks with
    :meth:`~cheatrules.web.postgres.PostgresStore.actions_since`. An
    ``answered`` one carries the seat and its answer.

    >>> Notification.read("appended 7RkQ2bXw 12")
    Notification(kind='appended', table_id='7RkQ2bXw', version=12, actions=(), seat=None)
    >>> Notification.appended("7RkQ2bXw", 11, ["play K♦ as 7"]).payload()
    'appended 7RkQ2bXw 12 ["play K♦ as 7"]'
    >>> Notification.read('appended 7RkQ2bXw 12 ["play K♦ as 7"]').actions
    ('play K♦ as 7',)
    >>> Notification.answered("7RkQ2bXw", 12, 2, "challenge").payload()
    'answered 7RkQ2bXw 12 [2, "challenge"]'
    """

    #: What happened.
    kind: Kind
    #: The table it happened to.
    table_id: str
    #: The table's version after the change, which is the number of actions it keeps.
    version: int
    #: The actions an ``appended`` change added, where they fit (else none); the answer an
    #: ``answered`` one kept.
    actions: tuple[str, ...] = ()
    #: The seat that answered, in an ``answered`` notification that carries its answer.
    seat: int | None = None

    @classmethod
    def appended(cls, table_id: str, first: int, actions: list[str]) -> Notification:
        """The notification of ``actions`` kept from action number ``first`` on, carrying them."""
        version = first + len(actions)
        text = json.dumps(actions, ensure_ascii=False)
        carried = tuple(actions) if len(text.encode()) <= CARRIED_BYTES else ()
        return cls("appended", table_id, version, carried)

    @classmethod
    def answered(cls, table_id: str, version: int, seat: int, action: str) -> Notification:
        """The notification of ``seat``'s answer to the window open at ``version``, carrying it."""
        return cls("answered", table_id, version, (action,), seat)

    def payload(self) -> str:
        """The notification's text: its kind, table id and version, and what it carries as JSON."""
        head = f"{self.kind} {self.table_id} {self.version}"
        if self.seat is not None and len(self.actions) == 1:
            return f"{head} {json.dumps([self.seat, self.actions[0]], ensure_ascii=False)}"
        if not self.actions:
            return head
        return f"{head} {json.dumps(list(self.actions), ensure_ascii=False)}"

    @classmethod
    def read(cls, payload: str) -> Notification:
        """The notification whose :meth:`payload` is ``payload``.

        Raises:
            ValueError: ``payload`` is not a kind, a table id and a version,
                followed for ``appended`` by nothing or a JSON list of texts.

        """
        parts = payload.split(" ", 3)
        kinds = get_args(Kind)
        carried = _carried(parts[0], parts[3]) if len(parts) == 4 else None
        if (
            len(parts) not in (3, 4)
            or (len(parts) == 4 and carried is None)
            or parts[0] not in kinds
            or not valid_id(parts[1])
            or not (parts[2].isascii() and parts[2].isdigit())
        ):
            raise ValueError(
                f"a table notification reads 'kind table version': the kind one of "
                f"{', '.join(kinds)}, a table id, and the version a whole number (then, for "
                f"appended, the actions as a JSON list of texts, and for answered, a JSON list"
                f" of the seat and its answer); got {payload!r}"
            )
        actions, seat = carried or ((), None)
        return cls(cast(Kind, parts[0]), parts[1], int(parts[2]), actions, seat)


def _carried(kind: str, text: str) -> tuple[tuple[str, ...], int | None] | None:
    """What a payload carries after its version (actions, and a seat), or ``None`` if unreadable.

    An ``appended`` notification carries a JSON list of actions; an
    ``answered`` one a JSON list of the seat and its answer; no other kind
    carries anything.
    """
    try:
        found = json.loads(text)
    except ValueError:
        return None
    if not isinstance(found, list):
        return None
    if kind == "appended" and all(isinstance(item, str) for item in found):
        return tuple(found), None
    if (
        kind == "answered"
        and len(found) == 2
        and type(found[0]) is int
        and found[0] >= 0
        and isinstance(found[1], str)
    ):
        return (found[1],), found[0]
    return None


class Listener:
    """Hears the changes to the tables, from every process, on a connection of its own.

    For an asyncio server: ``async with store.listen() as listener``, then
    ``await listener.heard()`` in a task, as often as it likes. Nothing is
    heard before the listener opens, nor while its connection is lost:
    after a :class:`~cheatrules.web.storage.StoreError`, the next call
    opens a new connection, and each table is read again from the version
    its process holds (:meth:`~cheatrules.web.postgres.PostgresStore.actions_since`).

    Args:
        url: the database, as :class:`~cheatrules.web.postgres.PostgresStore` takes it.

    Raises:
        ImportError: psycopg is not installed (the ``server`` extra).

    """

    def __init__(self, url: str) -> None:
        _psycopg.require("Listener")
        self.url = url
        self._connection: psycopg.AsyncConnection[Any] | None = None

    async def open(self) -> None:
        """Connect and ``LISTEN`` (done by :meth:`heard` too, when not open).

        Raises:
            StoreError: the database did not answer.

        """
        import psycopg

        if self._connection is not None and not self._connection.closed:
            return
        try:
            self._connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            await self._connection.execute(f"LISTEN {CHANNEL}")
        except psycopg.Error as error:
            await self.close()
            raise _psycopg.unanswered(self.url, error) from None

    async def heard(self, timeout: float | None = None) -> tuple[Notification, ...]:
        """Wait up to ``timeout`` seconds (``None``: for ever) for changes; those that came.

        The first change to come is returned with those that came with it,
        in the order they were committed; an empty tuple when none came in
        time. A payload that is not a :class:`Notification` (another
        program on the channel) is left out, with a warning in the log.

        Raises:
            StoreError: the connection was lost, or could not be opened;
                what was told meanwhile was not heard.

        """
        import psycopg

        await self.open()
        assert self._connection is not None
        try:
            # Read to the end (stop_after ends the generator): leaving it early would hold
            # the connection's lock until the generator is collected.
            told = [
                notify async for notify in self._connection.notifies(timeout=timeout, stop_after=1)
            ]
        except psycopg.Error as error:
            await self.close()
            raise _psycopg.unanswered(self.url, error) from None
        heard = []
        for notify in told:
            try:
                heard.append(Notification.read(notify.payload))
            except ValueError as error:
                _log.warning("a notification on %s was not read: %s", CHANNEL, error)
        return tuple(heard)

    async def close(self) -> None:
        """Let the connection go (``UNLISTEN`` with it)."""
        if self._connection is not None:
            connection, self._connection = self._connection, None
            await connection.close()

    async def __aenter__(self) -> Listener:
        await self.open()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.close()
