"""What the encoders share: their error, the checks of their arguments, and their layouts.

:mod:`cheatrules.encoding` (the action space and the observation vector)
and :mod:`cheatrules.information_state` (the vector with the seat's memory)
both import it. A layout is a tuple of sections ``(name, start, length)``,
one after another.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cheatrules.errors import N_, CheatRulesError, RulesError
from cheatrules.observation import Observation
from cheatrules.rules import Rules

__all__ = [
    "Bounds",
    "EncodingError",
    "Layout",
    "bounds_of",
    "is_observation",
    "is_rules",
    "laid_out",
    "section_of",
    "size_of",
]

#: Sections of a vector (or blocks of an action space): ``(name, start, length)`` each.
Layout = tuple[tuple[str, int, int], ...]

#: Each entry's lowest and highest value: ``(low, high)``, two lists of a vector's length.
Bounds = tuple[list[float], list[float]]


class EncodingError(CheatRulesError, ValueError):
    """An index or action outside the action space, or one the observing seat cannot take."""


# Its public home, where users import it from: the name a traceback or a pickle shows.
EncodingError.__module__ = "cheatrules.encoding"


def is_rules(instance: object, attribute: Any, value: Any) -> None:
    """An attrs validator: ``value`` must be a :class:`~cheatrules.Rules`."""
    if not isinstance(value, Rules):
        raise RulesError(
            N_(
                "%(owner)s.%(field)s must be a Rules value such as cheatrules.english(4); "
                "got %(got)s"
            ),
            owner=type(instance).__name__,
            field=attribute.name,
            got=repr(value),
        )


def is_observation(observation: object) -> Observation:
    """``observation``, checked to be an :class:`~cheatrules.Observation`."""
    if not isinstance(observation, Observation):
        raise EncodingError(
            N_("expected an Observation (state.observe(seat)); got %(got)s"),
            got=type(observation).__name__,
        )
    return observation


def laid_out(lengths: Sequence[tuple[str, int]], start: int = 0) -> Layout:
    """Sections ``(name, length)`` one after another from ``start``: ``(name, start, length)``."""
    layout = []
    for name, length in lengths:
        layout.append((name, start, length))
        start += length
    return tuple(layout)


def size_of(layout: Layout) -> int:
    """The length of a vector laid out as ``layout`` (0 when it has no section)."""
    if not layout:
        return 0
    _, start, length = layout[-1]
    return start + length


def section_of(layout: Layout, vector: Sequence[float], name: str) -> list[float]:
    """The part of ``vector`` named ``name`` in ``layout``."""
    for found, start, length in layout:
        if found == name:
            return list(vector[start : start + length])
    raise EncodingError(
        N_("no section %(name)s; the sections are %(sections)s"),
        name=repr(name),
        sections=repr([n for n, _, _ in layout]),
    )


def bounds_of(layout: Layout, highs: dict[str, float | list[float]]) -> Bounds:
    """Each entry's bounds: 0 up to its section's value in ``highs`` (one, or one per entry).

    Raises:
        EncodingError: a section of ``layout`` has no value in ``highs``, or
            a list of the wrong length (a library bug: encoder and bounds go together).

    """
    high: list[float] = []
    for name, _, length in layout:
        value = highs.get(name)
        if isinstance(value, (int, float)):
            high += [float(value)] * length
        elif value is not None and len(value) == length:
            high += map(float, value)
        else:
            raise EncodingError(
                N_("the section %(name)s has no bounds of %(length)s entries"),
                name=repr(name),
                length=length,
            )
    return [0.0] * len(high), high
