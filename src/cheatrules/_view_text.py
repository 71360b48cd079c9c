"""One seat's view as an exact text: two views give the same text exactly when they are equal.

:func:`view_text` writes an :class:`~cheatrules.Observation` whole: the
summary ``str(observation)`` gives a reader, then every field the
observation's equality compares (the seat, its hand, the table but for
its rules, the decision, and the log as the seat saw it, one event a
line), each value written so that no two values of a field write alike.
It is the information-state string of the OpenSpiel games: equal views
(perfect recall: the seat's whole history as it saw it, its dealt hand
included) give equal texts, and views that differ in anything give
different texts. Views of different rules are told apart only by the
rules' name, which is enough within one game.

The log's lines are kept with the log: a view's log shares its older
chunks with the seat's earlier views of the game, and the text of each
chunk lineage is kept in the log's ``shared`` dict (the few newest), so a
text costs the events since the last one, plus copying the text.

>>> import cheatrules as cr
>>> state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"], dealer=2)
>>> print(view_text(state.apply(cr.Play("K♦", "A")).observe(0)).splitlines()[-1])
Played(seat=0, cards=[K♦], rank=A, count=1)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from cheatrules._caches import kept_with, newest_kept
from cheatrules._persistent import Log
from cheatrules.cards import Card, Rank
from cheatrules.events import Event
from cheatrules.observation import Observation
from cheatrules.table import Table

__all__ = ["view_text"]

#: Where a log's texts are kept in its ``shared`` dict, and how many are kept there.
_BOX, _KEPT = "view text", 32
#: The fields of a table its equality compares, but for the rules (written by name).
_TABLE_FIELDS = tuple(
    field.name for field in attrs.fields(Table) if field.eq and field.name != "rules"
)


def view_text(observation: Observation) -> str:
    """The whole view as text: its summary, then every field its equality compares."""
    table = observation.table
    lines = [
        str(observation),
        f"seat={observation.seat}",
        f"hand={_value(observation.hand)}",
        "table=Table("
        + ", ".join(f"{name}={_value(getattr(table, name))}" for name in _TABLE_FIELDS)
        + f", rules={table.rules.name!r})",
        f"decision={_value(observation.decision)}",
        "log:",
    ]
    log = _log_text(observation.seat, observation.events)
    return "\n".join(lines) + "\n" + log[:-1]  # every line of the log ends in a newline


def _log_text(seat: int, events: Sequence[Event]) -> str:
    """The log, one event a line, each line ending the text; kept per chunk where it is shared.

    Kept with the log: in its lineage's ``shared`` dict, by chunk node, the
    newest :data:`_KEPT` texts, for the seat they were written for. Shared
    by threads: a text never changes, and two threads that miss at once
    both write the same one.
    """
    if not isinstance(events, Log):
        return "".join(_value(event) + "\n" for event in events)
    box = kept_with(events, _BOX, _KEPT)
    found: str | None
    found, fresh = newest_kept(box, events.chunks, seat)
    text = found or ""
    if not fresh:
        return text
    text += "".join(_value(event) + "\n" for chunk in fresh for event in chunk)
    box.put(events.chunks, text, seat)
    return text


#: How each type of value is written, worked out the first time it is met, for the
#: whole process (the types met are the library's few). Shared by threads: each
#: store is one dict item (atomic), and a race works out the same writer twice.
_WRITERS: dict[type, Callable[[Any], str]] = {}


def _value(value: object) -> str:
    """``value`` as text that no other value of its field writes alike.

    Cards and ranks as they print (no two alike), other enums by name,
    sequences in brackets, attrs classes by name with every field their
    equality compares, anything else by ``repr``.
    """
    kind = type(value)
    writer = _WRITERS.get(kind)
    if writer is None:
        writer = _WRITERS[kind] = _writer(kind)
    return writer(value)


def _writer(kind: type) -> Callable[[Any], str]:
    """The function that writes a value of type ``kind`` (see :func:`_value`)."""
    if issubclass(kind, (Card, Rank)):
        return str
    if issubclass(kind, enum.Enum):
        return _name
    if issubclass(kind, (tuple, Log)):
        return _sequence
    if not attrs.has(kind):
        return repr
    names = tuple(field.name for field in attrs.fields(kind) if field.eq)
    opening = f"{kind.__name__}("

    def write(value: Any) -> str:
        return opening + ", ".join(f"{name}={_value(getattr(value, name))}" for name in names) + ")"

    return write


def _name(value: enum.Enum) -> str:
    return value.name


def _sequence(values: Sequence[object]) -> str:
    return "[" + " ".join(map(_value, values)) + "]"
