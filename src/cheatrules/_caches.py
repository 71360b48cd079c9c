"""A small cache keyed by an object's identity, safe to share between threads.

Some of what the seat tools work out belongs to one object that makes a
poor dictionary key: a chunk node of a view's log (a nested tuple that
hashes by value, through the whole log) or an observation (whose hash reads
its whole log). :class:`IdentityCache` keeps it by the object's identity
instead, for the newest few objects, and :func:`kept_with` gives each tool
one such cache per log lineage, in the log's ``shared`` dict, so that what
is worked out for a game's views lives as long as their logs do. The design
page ``docs/design/caches.md`` lists every cache of the library.
"""

from __future__ import annotations

import threading
from typing import Any, Generic, TypeVar

from cheatrules._persistent import Log, Stack

__all__ = ["IdentityCache", "kept_with", "newest_kept"]

V = TypeVar("V")


class IdentityCache(Generic[V]):
    """The values worked out for the newest ``size`` objects, by the objects' identity.

    Each entry holds its object as well as its value, so while the entry is
    kept no other object can have that object's ``id``: a lookup by ``id``
    finds that very object's value (and checks it with ``is`` all the same).
    A value may be kept with a ``context`` (the rules it was worked out
    for, say), and is found only in that one (or an equal one).

    A lookup takes no lock (one dict read); storing and taking take the
    cache's lock, so a store that drops the oldest entry never races
    another, and nothing here raises under concurrent use. Two threads that
    miss at once both work the value out and the later store is kept: the
    values cached must be ones that any thread may be given.

    >>> cache: IdentityCache[str] = IdentityCache(2)
    >>> first, second, third = ["a"], ["b"], ["c"]
    >>> cache.put(first, "A"); cache.put(second, "B"); cache.put(third, "C")
    >>> cache.get(first) is None, cache.get(third)  # the oldest was dropped
    (True, 'C')
    >>> cache.get(["c"]) is None  # an equal object is another object
    True
    """

    __slots__ = ("_entries", "_lock", "size")

    def __init__(self, size: int) -> None:
        #: How many objects are kept at most (the oldest stored is dropped first).
        self.size = size
        self._entries: dict[int, tuple[object, object, V]] = {}
        self._lock = threading.Lock()

    def get(self, key: object, context: object = None) -> V | None:
        """The value kept for ``key`` itself in ``context``, else ``None``."""
        entry = self._entries.get(id(key))
        if entry is None or entry[0] is not key:
            return None
        kept = entry[1]
        return entry[2] if kept is context or kept == context else None

    def put(self, key: object, value: V, context: object = None) -> None:
        """Keep ``value`` for ``key`` in ``context``, as the newest (the oldest may go)."""
        entries = self._entries
        with self._lock:
            entries.pop(id(key), None)
            entries[id(key)] = (key, context, value)
            if len(entries) > self.size:
                del entries[next(iter(entries))]

    def take(self, key: object, context: object = None) -> V | None:
        """The value kept for ``key`` in ``context``, removed (lent to one caller), else ``None``.

        The caller may :meth:`put` it back once done with it. A value kept in
        another context is left where it is.
        """
        with self._lock:
            entry = self._entries.get(id(key))
            if entry is None or entry[0] is not key:
                return None
            kept = entry[1]
            if kept is not context and kept != context:
                return None
            del self._entries[id(key)]
        return entry[2]

    def __len__(self) -> int:
        return len(self._entries)


def kept_with(log: Log[Any], name: str, size: int) -> IdentityCache[Any]:
    """The cache named ``name`` that ``log`` shares with every log extended from it (and it from).

    Made on the first call (of ``size`` entries); two threads that make it
    at once get the same one (``dict.setdefault`` is atomic).
    """
    cache = log.shared.get(name)
    if cache is None:
        cache = log.shared.setdefault(name, IdentityCache(size))
    assert isinstance(cache, IdentityCache)
    return cache


def newest_kept(
    cache: IdentityCache[V], chunks: Stack[tuple[Any, ...]], context: object = None
) -> tuple[V | None, list[tuple[Any, ...]]]:
    """The value kept for the newest node of ``chunks`` that has one, and the chunks after it.

    Only a value kept in ``context`` counts (see :meth:`IdentityCache.get`).
    Returns the value (``None`` when no node has one) and the items of the
    newer chunks, oldest first: what is left to fold onto the value.

    >>> cache: IdentityCache[str] = IdentityCache(4)
    >>> log = Log.of("ab").extended("cd")
    >>> cache.put(log.chunks[1], "ab", context=0)
    >>> newest_kept(cache, log.extended("e").chunks, 0)
    ('ab', [('c', 'd'), ('e',)])
    >>> newest_kept(cache, log.chunks, 1)  # kept for another context
    (None, [('a', 'b'), ('c', 'd')])
    """
    fresh: list[tuple[Any, ...]] = []
    entries = cache._entries  # read as IdentityCache.get reads it, without a call a node
    node = chunks
    while node is not None:
        entry = entries.get(id(node))
        if entry is not None and entry[0] is node and (entry[1] is context or entry[1] == context):
            fresh.reverse()
            return entry[2], fresh
        fresh.append(node[0])
        node = node[1]
    fresh.reverse()
    return None, fresh
