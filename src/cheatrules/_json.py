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
from cheatrules.errors import N_, Message, RecordError, either

_A_RECORD = N_("a record")


def json_object(text: object, what: str | Message = _A_RECORD) -> dict[str, Any]:
    """Decode ``text`` (str or UTF-8 bytes) as a JSON object, or raise a RecordError.

    ``what`` names the record in the messages: text marked ``N_`` (said in
    each language), or a :class:`~cheatrules.errors.Message`.
    """
    named = what if isinstance(what, Message) else Message(what)
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordError(
                N_("%(what)s must be UTF-8 text: %(error)s"), what=named, error=str(error)
            ) from None
    if not isinstance(text, str):
        raise RecordError(
            N_("%(what)s must be JSON text; got %(got)s"), what=named, got=type(text).__name__
        )
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise RecordError(
            N_("%(what)s must be JSON: %(error)s"), what=named, error=str(error)
        ) from None
    if not isinstance(record, dict):
        raise RecordError(N_("%(what)s must be a JSON object"), what=named)
    return record


def get(mapping: object, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``mapping[key]``, which must be of ``kind`` (a bool is not an int); ``where`` names it."""
    if not isinstance(mapping, dict):
        raise RecordError(N_("%(where)s must be a JSON object"), where=where)
    if key not in mapping:
        raise RecordError(N_("%(where)s lacks %(key)s"), where=where, key=repr(key))
    value = mapping[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        names = kind.__name__ if isinstance(kind, type) else either(k.__name__ for k in kind)
        raise RecordError(
            N_("%(where)s.%(key)s must be %(names)s; got %(got)s"),
            where=where,
            key=key,
            names=names,
            got=repr(value),
        )
    return value


def checked(where: str, make: Callable[[], Any]) -> Any:
    """Run ``make``, turning the library's own bad-input errors into a RecordError at ``where``."""
    try:
        return make()
    except RecordError:
        raise
    except (ValueError, TypeError) as error:
        raise RecordError(N_("%(where)s: %(error)s"), where=where, error=error) from None


def read_action(text: object, index: int) -> Action:
    """The action a record holds at ``actions[index]`` (or ``choices[index]``), from its text."""
    where = f"actions[{index}]"
    if not isinstance(text, str):
        raise RecordError(
            N_("%(where)s must be text such as 'play 7♣ as 7'; got %(got)s"),
            where=where,
            got=repr(text),
        )
    try:
        return parse_action(text)
    except ValueError as error:  # text that spells no action, or a card that cannot be read
        raise RecordError(N_("%(where)s: %(error)s"), where=where, error=error) from None


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
