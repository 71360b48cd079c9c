"""JSON helpers shared by game records, view records and match records.

Reading: :func:`json_object` decodes a record's text, :func:`get` takes a
field of a given type, :func:`checked` turns the library's own bad-input
errors into a :class:`~cheatrules.RecordError` naming the field, and
:func:`read_action` reads an action's text form. Writing: :func:`to_json`
turns ranks, cards and tuples into JSON values, :func:`show` writes cards as
text. Every reading error is a ``RecordError`` whose message names the field.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from cheatrules.actions import Action, parse_action
from cheatrules.cards import Card, Rank
from cheatrules.errors import RecordError


def json_object(text: object, what: str = "a record") -> dict[str, Any]:
    """Decode ``text`` (str or UTF-8 bytes) as a JSON object, or raise a RecordError."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordError(f"{what} must be UTF-8 text: {error}") from None
    if not isinstance(text, str):
        raise RecordError(f"{what} must be JSON text; got {type(text).__name__}")
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise RecordError(f"{what} must be JSON: {error}") from None
    if not isinstance(record, dict):
        raise RecordError(f"{what} must be a JSON object")
    return record


def get(mapping: object, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``mapping[key]``, which must be of ``kind`` (a bool is not an int); ``where`` names it."""
    if not isinstance(mapping, dict):
        raise RecordError(f"{where} must be a JSON object")
    if key not in mapping:
        raise RecordError(f"{where} lacks {key!r}")
    value = mapping[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise RecordError(f"{where}.{key} must be {names}; got {value!r}")
    return value


def checked(where: str, make: Callable[[], Any]) -> Any:
    """Run ``make``, turning the library's own bad-input errors into a RecordError at ``where``."""
    try:
        return make()
    except RecordError:
        raise
    except (ValueError, TypeError) as error:
        raise RecordError(f"{where}: {error}") from None


def read_action(text: object, index: int) -> Action:
    """The action a record holds at ``actions[index]`` (or ``choices[index]``), from its text."""
    where = f"actions[{index}]"
    if not isinstance(text, str):
        raise RecordError(f"{where} must be text such as 'play 7♣ as 7'; got {text!r}")
    try:
        return parse_action(text)
    except ValueError as error:  # text that spells no action, or a card that cannot be read
        raise RecordError(f"{where}: {error}") from None


def to_json(value: Any) -> Any:
    """``value`` as JSON: a rank or card as its text, a tuple or list as a list."""
    if isinstance(value, (Rank, Card)):
        return str(value)
    if isinstance(value, (tuple, list)):
        return [to_json(item) for item in value]
    return value


def show(group: tuple[Card, ...]) -> str:
    """Cards as record text: ``"7♣ K♦"``."""
    return " ".join(map(str, group))
