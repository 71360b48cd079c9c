"""What a transition builds at every decision: persistent stacks, and frozen values made fast.

``None`` is the empty stack; ``(top, rest)`` is a stack whose rest is shared,
never copied. Pushing is O(1), so a transition costs the same early and late
in a game, and every state of a game can be kept for the price of its own
changes. :class:`Log` reads such a stack of chunks as a sequence.

:func:`maker` makes a frozen value from its slots without its ``__init__``,
for the values the engine makes at every decision from parts it has
already checked (a state, its table, a claim's window, a play's event).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar, overload

T = TypeVar("T")

#: ``None`` when empty, else ``(top, rest)``.
Stack = tuple[T, Any] | None


def oldest_first(stack: Stack[T]) -> list[T]:
    """The items of ``stack`` from the bottom up."""
    items = []
    while stack is not None:
        items.append(stack[0])
        stack = stack[1]
    items.reverse()
    return items


def from_items(items: list[T]) -> Stack[T]:
    """The stack holding ``items`` (the last one on top)."""
    stack: Stack[T] = None
    for item in items:
        stack = (item, stack)
    return stack


def same(first: Stack[Any], second: Stack[Any]) -> bool:
    """Whether two stacks hold equal items; stops where they share their rest."""
    # Iterative: a long game's log is far deeper than the recursion limit.
    while first is not second:
        if first is None or second is None or first[0] != second[0]:
            return False
        first, second = first[1], second[1]
    return True


class Log(Sequence[T]):
    """A read-only sequence over a stack of chunks: ``(items, rest)``, ``items`` a tuple.

    Extending a log by a few items pushes one chunk and shares the rest, so
    the logs of every state of a game together cost about one log. It
    compares equal to a tuple (or another :class:`Log`) holding the same
    items, hashes like that tuple, and pickles flat. Reading near the end
    (``log[-1]``, ``log[-3:]``) walks only the newest chunks.

    ``shared`` is a dict that a log and every log extended from it share
    (a new one for a log made otherwise): a place for tools that read the
    log to keep what they worked out for its chunks, keyed by chunk
    identity (the knowledge module keeps each seat's card knowledge there).
    It takes no part in equality, hashing or pickling.
    """

    __slots__ = ("_chunks", "_hash", "_length", "shared")

    def __init__(
        self,
        chunks: Stack[tuple[T, ...]] = None,
        length: int | None = None,
        shared: dict[str, Any] | None = None,
    ) -> None:
        self._chunks = chunks
        if length is None:
            length = sum(len(items) for items in oldest_first(chunks))
        self._length = length
        self._hash: int | None = None
        self.shared: dict[str, Any] = {} if shared is None else shared

    @classmethod
    def of(cls, items: Iterable[T]) -> Log[T]:
        """The log holding ``items``, oldest first, in one chunk."""
        chunk = tuple(items)
        return cls((chunk, None) if chunk else None, len(chunk))

    def extended(self, items: Iterable[T]) -> Log[T]:
        """The log with ``items`` added at the end; this one is shared, not copied."""
        chunk = tuple(items)
        if not chunk:
            return self
        return Log((chunk, self._chunks), self._length + len(chunk), self.shared)

    @property
    def chunks(self) -> Stack[tuple[T, ...]]:
        """The chunks, newest first, as ``(items, rest)`` (``None`` when empty); shared, not copied.

        A log extended from this one holds this very stack as its rest, so
        code that folds a log can keep its result per chunk node and go on
        from there.
        """
        return self._chunks

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[T]:
        for items in oldest_first(self._chunks):
            yield from items

    def __reversed__(self) -> Iterator[T]:
        chunks = self._chunks
        while chunks is not None:
            yield from reversed(chunks[0])
            chunks = chunks[1]

    def _newest(self, count: int) -> list[T]:
        """At least the newest ``count`` items, oldest first (whole chunks)."""
        parts: list[tuple[T, ...]] = []
        have = 0
        chunks = self._chunks
        while chunks is not None and have < count:
            parts.append(chunks[0])
            have += len(chunks[0])
            chunks = chunks[1]
        return [item for items in reversed(parts) for item in items]

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if index == -1 and self._chunks is not None:
            return self._chunks[0][-1]  # the newest, read at every play
        length = self._length
        if isinstance(index, slice):
            start, stop, step = index.indices(length)
            low = min(start, stop + 1) if step < 0 else start
            low = max(low, 0)
            newest = self._newest(length - low)
            offset = length - len(newest)
            return tuple(newest[i - offset] for i in range(start, stop, step))
        index = operator.index(index)
        if index < 0:
            index += length
        if not 0 <= index < length:
            raise IndexError("log index out of range")
        back = length - index  # 1 for the newest item
        chunks = self._chunks
        while chunks is not None:
            items = chunks[0]
            if back <= len(items):
                return items[len(items) - back]
            back -= len(items)
            chunks = chunks[1]
        raise AssertionError("a log's chunks hold its length")  # pragma: no cover

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        """The position of the first item equal to ``value`` (from ``start``, before ``stop``)."""
        return tuple(self).index(value, start, self._length if stop is None else stop)

    def __add__(self, other: tuple[T, ...] | Log[T]) -> tuple[T, ...]:
        """The items of both, as a tuple (as ``tuple + tuple`` gives)."""
        if not isinstance(other, (tuple, Log)):
            return NotImplemented
        return (*self, *other)

    def __radd__(self, other: tuple[T, ...]) -> tuple[T, ...]:
        if not isinstance(other, tuple):
            return NotImplemented
        return (*other, *self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Log):
            return self._length == other._length and _same_items(self._chunks, other._chunks)
        if isinstance(other, tuple):
            return self._length == len(other) and all(
                mine == theirs for mine, theirs in zip(reversed(self), reversed(other), strict=True)
            )
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self))
        return self._hash

    def __repr__(self) -> str:
        return f"Log({tuple(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Flat: pickling the chunks nested would recurse once per chunk.
        return (Log.of, (tuple(self),))


def _same_items(first: Stack[tuple[Any, ...]], second: Stack[tuple[Any, ...]]) -> bool:
    """Whether two chunk stacks of equal length hold equal items, newest first.

    Stops where both reach one shared chunk node at once (their rest is shared).
    """
    mine: tuple[Any, ...] = ()
    theirs: tuple[Any, ...] = ()
    at_mine = at_theirs = 0
    while True:
        if at_mine == len(mine) and at_theirs == len(theirs):
            if first is second:
                return True
            mine, theirs, at_mine, at_theirs = (), (), 0, 0
        if at_mine == len(mine):
            if first is None:
                return second is None and at_theirs == len(theirs)
            mine, first, at_mine = first[0], first[1], 0
            continue
        if at_theirs == len(theirs):
            if second is None:
                return False
            theirs, second, at_theirs = second[0], second[1], 0
            continue
        if mine[-1 - at_mine] != theirs[-1 - at_theirs]:
            return False
        at_mine += 1
        at_theirs += 1


def maker(cls: type[T], names: Sequence[str]) -> Callable[..., T]:
    """A function that makes a ``cls`` from the values of its slots ``names``, by position.

    It sets each slot through the slot's own descriptor, where an attrs
    ``__init__`` sets each field of a frozen class through
    ``object.__setattr__``, which looks the slot up first; and it runs no
    converter, validator, default or ``__attrs_post_init__``. So every slot
    must be named, each value given in the form the class keeps it, checked
    by the caller. The transitions make a state, and often a table and a
    window, at every decision: made this way they cost about a third less,
    and a decision about a tenth less.

    >>> import attrs
    >>> @attrs.frozen
    ... class Point:
    ...     x: int
    ...     y: int
    >>> point = maker(Point, ["x", "y"])
    >>> point(1, 2) == Point(1, 2)
    True
    """
    values = [f"value{index}" for index in range(len(names))]
    lines = [f"def make({', '.join(values)}):", "    made = new(cls)"]
    lines += [f"    set{index}(made, {value})" for index, value in enumerate(values)]
    lines.append("    return made")
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    for index, name in enumerate(names):
        namespace[f"set{index}"] = getattr(cls, name).__set__
    exec("\n".join(lines), namespace)  # one line per slot: no loop at each call
    made: Callable[..., T] = namespace["make"]
    return made
