"""Keeping tables on disk: one JSON file per table, replaced atomically after every action.

A table's file is an envelope around the game record
(:func:`cheatrules.dumps`): the table's settings and tokens beside it, so a
restarted server deals nothing new and every link still works. A file is
written to a temporary name in the same folder and moved over the old one
with :func:`os.replace`, so a crash leaves either the old file or the new
one, never half of one.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from cheatrules.errors import RecordError

__all__ = ["FORMAT", "VERSION", "Stored", "read_all", "write"]

#: The value of a table file's ``"format"`` field.
FORMAT = "cheatrules-web-table"
#: The table file format version.
VERSION = 1


@attrs.frozen
class Stored:
    """A table as its file holds it."""

    #: The table's id (the file's name without ``.json``).
    table_id: str
    #: The settings: game, players, house options, seats, window and bot delay.
    settings: dict[str, Any]
    #: The tokens: ``host``, ``spectator`` and ``seats`` (one per human seat, by seat number).
    tokens: dict[str, Any]
    #: The game record, as :func:`cheatrules.dumps` wrote it.
    record: str
    #: Whether the host closed the table.
    closed: bool = False


def _path(folder: Path, table_id: str) -> Path:
    return folder / f"{table_id}.json"


def write(folder: Path, stored: Stored) -> None:
    """Write ``stored`` to its file in ``folder``: a temporary file, then an atomic replace."""
    envelope = {
        "format": FORMAT,
        "version": VERSION,
        "table": stored.table_id,
        "settings": stored.settings,
        "tokens": stored.tokens,
        "closed": stored.closed,
        "record": stored.record,
    }
    text = json.dumps(envelope, ensure_ascii=False, indent=1)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{stored.table_id}.", dir=folder)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, _path(folder, stored.table_id))
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def read(path: Path) -> Stored:
    """The table in the file at ``path``.

    Raises:
        RecordError: the file is not a table file this version reads.

    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise RecordError(f"cannot read the table file {path}: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{path} is not a cheatrules web table file")
    if data.get("version") != VERSION:
        raise RecordError(f"{path} has table file version {data.get('version')!r}; read {VERSION}")
    table_id, settings, tokens = data.get("table"), data.get("settings"), data.get("tokens")
    record, closed = data.get("record"), data.get("closed", False)
    if (
        not isinstance(table_id, str)
        or not isinstance(settings, dict)
        or not isinstance(tokens, dict)
        or not isinstance(record, str)
        or not isinstance(closed, bool)
    ):
        raise RecordError(f"{path} lacks the table's id, settings, tokens or record")
    return Stored(table_id, settings, tokens, record, closed)


def read_all(folder: Path) -> Iterator[Stored | RecordError]:
    """Every table file in ``folder`` (a file that will not read gives its error instead)."""
    for path in sorted(folder.glob("*.json")):
        try:
            yield read(path)
        except RecordError as error:
            yield error
