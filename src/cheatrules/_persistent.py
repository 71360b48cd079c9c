"""A persistent stack: the structure behind a game's log and pile.

``None`` is the empty stack; ``(top, rest)`` is a stack whose rest is shared,
never copied. Pushing is O(1), so a transition costs the same early and late
in a game, and every state of a game can be kept for the price of its own
changes.
"""

from __future__ import annotations

from typing import Any, TypeVar

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
