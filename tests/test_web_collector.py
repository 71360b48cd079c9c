"""The server's garbage collection: survivors of a full collection frozen, all thawed in time.

A server process holds every open table's game; a :class:`Collector`
freezes what survives each full collection, so the next looks only at the
objects made since, and lets them all go back every ``thaw_seconds``, so
that a reference cycle among frozen objects is freed in the end.
"""

from __future__ import annotations

import asyncio
import gc
import time
import weakref

import pytest
from starlette.testclient import TestClient

from cheatrules.web import Collector, create_app

from .web_client import create


class _Linked:
    """An object in a reference cycle with itself."""

    def __init__(self) -> None:
        self.me = self


async def _full_collection() -> None:
    """A full collection, then a turn of the loop, where the collector acts on it."""
    gc.collect()
    await asyncio.sleep(0)


def test_what_survives_a_full_collection_is_frozen_and_a_cycle_among_it_freed_after_the_thaw() -> (
    None
):
    async def run() -> None:
        collector = Collector(thaw_seconds=3600)  # longer than any full collection here
        collector.start()
        try:
            linked = _Linked()
            gone = weakref.ref(linked)
            await _full_collection()
            assert gc.get_freeze_count() > 0  # the survivors, the cycle among them
            del linked
            await _full_collection()
            assert gone() is not None  # frozen: the collection did not look at it
            collector.thaw_seconds = 0.0  # the time to thaw has come
            await _full_collection()  # the thaw: everything goes back to the collector
            assert gc.get_freeze_count() == 0
            await _full_collection()
            assert gone() is None  # freed
        finally:
            collector.stop()

    asyncio.run(run())


def test_a_stopped_collector_thaws_everything_and_no_longer_freezes() -> None:
    async def run() -> None:
        collector = Collector(thaw_seconds=3600)
        collector.start()
        await _full_collection()
        assert gc.get_freeze_count() > 0
        collector.stop()
        assert gc.get_freeze_count() == 0
        await _full_collection()
        assert gc.get_freeze_count() == 0

    asyncio.run(run())


def test_an_application_given_a_collector_runs_it_while_it_serves() -> None:
    with TestClient(create_app(collector=Collector())) as client:
        create(client, players=3)
        deadline = time.monotonic() + 5
        gc.collect()  # in this thread: the application's loop, in another, freezes
        while gc.get_freeze_count() == 0:
            assert time.monotonic() < deadline, "nothing was frozen"
            time.sleep(0.01)
    assert gc.get_freeze_count() == 0  # stopped with the application
    gc.collect()
    assert gc.get_freeze_count() == 0


@pytest.mark.parametrize("wrong", [0, -1.0, True, "600", float("nan")])
def test_the_time_objects_stay_frozen_is_a_number_of_seconds_above_0(wrong: object) -> None:
    with pytest.raises(ValueError, match="seconds above 0; got"):
        Collector(wrong)  # type: ignore[arg-type]
