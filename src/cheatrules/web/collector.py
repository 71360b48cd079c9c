"""A server's garbage collection: full collections that do not hold every table up for long.

A server holds every open table's game: hundreds of thousands of objects
that live as long as their tables, free of reference cycles, and freed by
reference counting when a table goes. CPython's full collection still
looks at every one of them, and no table moves meanwhile: 150 to 250 ms
per full collection at 400 tables on the benchmark's machine
(``benchmarks/web.py --postgres``), several times a minute.

A :class:`Collector` freezes the objects that survive each full
collection (:func:`gc.freeze`), so the next one looks only at the objects
made since (40 to 110 ms there). A frozen object is still freed when its
last reference goes; only a reference cycle among frozen objects would
outlive its use. So every ``thaw_seconds`` the collector lets them all go
back (:func:`gc.unfreeze`) instead, and the next full collection looks at
every object once, freeing any such cycle.

:func:`cheatrules.web.serve` runs one in its server processes;
:func:`~cheatrules.web.create_app` runs one when given it.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from typing import Any

__all__ = ["Collector"]


class Collector:
    """Freezes what survives each full collection; thaws it all every ``thaw_seconds``.

    Args:
        thaw_seconds: the longest an object stays frozen (ten minutes); the
            attribute of that name may be changed while the collector runs.

    Raises:
        ValueError: ``thaw_seconds`` is not a number of seconds above 0.

    """

    def __init__(self, thaw_seconds: float = 600.0) -> None:
        if (
            isinstance(thaw_seconds, bool)
            or not isinstance(thaw_seconds, (int, float))
            or not thaw_seconds > 0
        ):
            raise ValueError(
                f"thaw_seconds is how long objects stay frozen, in seconds above 0;"
                f" got {thaw_seconds!r}"
            )
        self.thaw_seconds = float(thaw_seconds)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thawed = 0.0

    def start(self) -> None:
        """Follow the full collections from now; on the event loop, which does the freezing."""
        self._loop = asyncio.get_running_loop()
        self._thawed = self._loop.time()
        if self._heard not in gc.callbacks:
            gc.callbacks.append(self._heard)

    def stop(self) -> None:
        """Stop following, and let every frozen object go back to the collector."""
        if self._heard in gc.callbacks:
            gc.callbacks.remove(self._heard)
        self._loop = None
        gc.unfreeze()

    def _heard(self, phase: str, info: dict[str, Any]) -> None:
        # Any thread may collect: the freezing is left to the loop, after the collection.
        loop = self._loop
        if phase == "stop" and info["generation"] == 2 and loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._after_full_collection)

    def _after_full_collection(self) -> None:
        if self._loop is None:
            return  # stopped meanwhile
        now = self._loop.time()
        if now - self._thawed >= self.thaw_seconds:
            self._thawed = now
            gc.unfreeze()  # the next full collection looks at every object again
        else:
            gc.freeze()
