"""The web table's JSON messages: what a seat is sent, and reading what it sends.

Every message is a JSON object with a ``"type"`` and a protocol version
``"v"`` (:data:`VERSION`). The server sends ``welcome``, ``view``,
``error``, ``closed`` and ``pong``; a client sends ``hello`` (its token, the
language it reads, a seat's name, and the log lines it holds already),
``action``, ``language`` (to read another) and ``ping``.
docs/guide/web-table.md describes each field.

Version 2 sends the narrated log in parts: each ``view`` carries the lines
from ``log_from`` on, those the connection has not been sent (after a
``hello`` with ``"since": n``, from line ``n``). A version 1 client (its
``hello`` says ``"v": 1``) is sent the whole log in every view, as before.

Everything a connection is sent that a person reads (the narrated log, the
claims, the buttons' labels, the errors) is in that connection's language,
chosen per call: two seats of one table may read two languages at once.

A seat's ``view`` is made from :meth:`GameState.observe
<cheatrules.GameState.observe>` alone, and a spectator's from the public
:class:`~cheatrules.Table` and the public log, so no message can hold a card
its reader has not seen.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from cheatrules._i18n import LANGUAGES
from cheatrules._i18n import claim as said_claim
from cheatrules.actions import Action, parse_action
from cheatrules.cards import Card
from cheatrules.decision import Decision, Window
from cheatrules.events import Drew, Event, PileTaken, Played, Visibility
from cheatrules.narration import narrate
from cheatrules.observation import Observation
from cheatrules.table import Claim, Table

from .words import N_, WordedError, action_label, checked

__all__ = [
    "LEGAL_LIMIT",
    "MAX_MESSAGE",
    "VERSION",
    "Incoming",
    "ProtocolError",
    "claim_json",
    "message",
    "public_events",
    "read_message",
    "seat_view",
    "spectator_view",
]

#: The protocol version every message the server sends carries as ``"v"``.
VERSION = 2
#: The versions a client may speak (its ``hello`` chooses; each message says it).
VERSIONS = (1, 2)
#: The longest name a seat may give, in characters.
MAX_NAME = 24
#: The longest message a client may send, in characters.
MAX_MESSAGE = 4096
#: A seat's legal actions are listed in full when there are at most this many.
LEGAL_LIMIT = 200
#: The messages a client may send.
CLIENT_TYPES = ("hello", "action", "language", "ping")


class ProtocolError(WordedError):
    """A client's message that is too long, not JSON, or not one of the protocol's messages.

    ``str(error)`` is the English message; ``error.describe(language)`` tells it
    in a reader's language.
    """


@attrs.frozen
class Incoming:
    """A client's message, checked: its type and what it carries."""

    #: ``"hello"``, ``"action"``, ``"language"`` or ``"ping"``.
    type: str
    #: The token of a ``hello``; else ``None``.
    token: str | None = None
    #: The language a ``hello`` or a ``language`` message asks for, checked; else ``None``.
    lang: str | None = None
    #: The action of an ``action`` message, read from its text form; else ``None``.
    action: Action | None = None
    #: The seat an ``action`` message says it acts for, if it says; else ``None``.
    seat: int | None = None
    #: The protocol version the message speaks.
    version: int = VERSION
    #: The name a ``hello`` gives its seat, if it gives one (trimmed); else ``None``.
    name: str | None = None
    #: The log lines a ``hello`` says its client holds already (0 if it says nothing).
    since: int = 0


def message(kind: str, **fields: Any) -> str:
    """One server message as JSON text: ``{"type": kind, "v": 1, ...fields}``."""
    return json.dumps({"type": kind, "v": VERSION, **fields}, ensure_ascii=False)


def read_message(text: str | bytes | None) -> Incoming:
    """Check one client message and read it.

    Raises:
        ProtocolError: the message is longer than :data:`MAX_MESSAGE`, not a
            JSON object, of an unknown type or version, or lacks a field;
            the message says what is expected.
        LanguageError: a ``"lang"`` the library does not speak (the message names the five).
        ActionTextError: an ``action`` whose text spells no action.
        CardError: an ``action`` whose cards or ranks cannot be read.

    """
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_MESSAGE * 4:
            raise ProtocolError(
                N_("a message may be at most %(limit)s characters"), limit=MAX_MESSAGE
            )
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError(N_("a message must be UTF-8 JSON text")) from None
    if not isinstance(text, str):
        raise ProtocolError(N_("a message must be JSON text"))
    if len(text) > MAX_MESSAGE:
        raise ProtocolError(
            N_("a message may be at most %(limit)s characters; this one has %(length)s"),
            limit=MAX_MESSAGE,
            length=len(text),
        )
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError(
            N_("a message must be a JSON object such as %(example)s"),
            example='{"type": "action", "v": 1, "action": "play 7♣ as 7"}',
        ) from None
    if not isinstance(data, dict):
        raise ProtocolError(N_('a message must be a JSON object with "type" and "v"'))
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            N_("unknown message type %(kind)s; the types are %(types)s"),
            kind=repr(kind),
            types=", ".join(map(repr, CLIENT_TYPES)),
        )
    version = data.get("v")
    if type(version) is not int or version not in VERSIONS:
        raise ProtocolError(
            N_('this server speaks version %(version)s: send "v": %(version)s'), version=VERSION
        )
    return attrs.evolve(_read(kind, data), version=version)


def _read(kind: str, data: dict[str, Any]) -> Incoming:
    """The fields of one client message of a known type and version."""
    if kind == "hello":
        token = data.get("token")
        if not isinstance(token, str) or not 0 < len(token) <= 200:
            raise ProtocolError(N_('a hello needs "token": the token of your link'))
        lang = data.get("lang")
        since = data.get("since", 0)
        if type(since) is not int or since < 0:
            raise ProtocolError(N_('"since", when given, must be a whole number of log lines'))
        return Incoming(
            "hello",
            token=token,
            lang=None if lang is None else checked(lang),
            name=_name(data.get("name")),
            since=since,
        )
    if kind == "language":
        if "lang" not in data:
            raise ProtocolError(
                N_('a language message needs "lang": %(languages)s'), languages=_codes()
            )
        return Incoming("language", lang=checked(data["lang"]))
    if kind == "ping":
        return Incoming("ping")
    text_form = data.get("action")
    if not isinstance(text_form, str):
        raise ProtocolError(
            N_(
                'an action message needs "action": the action as text, such as %(play)s, '
                "%(challenge)s or %(accept)s"
            ),
            play='"play 7♣ as 7"',
            challenge='"challenge"',
            accept='"accept"',
        )
    seat = data.get("seat")
    if seat is not None and type(seat) is not int:
        raise ProtocolError(N_('"seat", when given, must be a whole number'))
    return Incoming("action", action=parse_action(text_form), seat=seat)


def _name(name: object) -> str | None:
    """A seat's name as a ``hello`` gives it: trimmed, 1 to :data:`MAX_NAME` printable signs."""
    if name is None:
        return None
    if isinstance(name, str):
        name = " ".join(name.split())
        if 0 < len(name) <= MAX_NAME and name.isprintable():
            return name
    raise ProtocolError(
        N_('"name", when given, must be 1 to %(most)s letters, digits or signs'), most=MAX_NAME
    )


def _codes() -> str:
    return ", ".join(f'"{code}"' for code in LANGUAGES)


# -- what is sent ------------------------------------------------------------------


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def claim_json(claim: Claim | None, language: str = "en") -> dict[str, Any] | None:
    """A claim as JSON: ``seat``, ``count``, ``rank``, and ``said``, the claim in ``language``."""
    if claim is None:
        return None
    return {
        "seat": claim.seat,
        "count": claim.count,
        "rank": str(claim.rank),
        "said": said_claim(claim.count, claim.rank, language),
    }


def _table(table: Table, language: str) -> dict[str, Any]:
    """What every seat sees, as JSON."""
    outcome = table.outcome
    required = table.required_rank
    return {
        "players": table.players,
        "hand_sizes": list(table.hand_sizes),
        "groups": [claim_json(claim, language) for claim in table.claims],
        "pile_size": table.pile_size,
        "last_claim": claim_json(table.last_claim, language),
        "allowed_ranks": [str(rank) for rank in table.allowed_ranks],
        "required_rank": None if required is None else str(required),
        "active": list(table.seating.active),
        "finishing_order": list(table.finishing_order),
        "discarded": _cards(table.discarded),
        "stock_size": table.stock_size,
        "set_aside_count": table.set_aside_count,
        "outcome": None
        if outcome is None
        else {"winners": list(outcome.winners), "losers": list(outcome.losers)},
    }


def _decision(decision: Decision, language: str) -> dict[str, Any]:
    shown: dict[str, Any] = {"phase": decision.phase.value, "to_move": decision.to_move}
    if isinstance(decision, Window):
        shown["claim"] = claim_json(decision.claim, language)
        shown["askers"] = [decision.seat, *decision.askers]
    return shown


def public_events(events: Iterable[Event]) -> list[Event]:
    """The log as someone at no seat sees it: every card only one seat saw left out."""
    return [
        event if event.visibility is Visibility.EVERYONE else event.seen_by(-1) for event in events
    ]


def _legal(seen: Observation) -> dict[str, Any]:
    legal = seen.legal_actions()
    count = len(legal)
    return {
        "choices": [action.text() for action in seen.choices],
        # The fours the seat may set aside: offered after a pickup, or on its turn.
        "offered": [str(rank) for rank in legal.fours],
        "legal_count": count,
        "legal": [action.text() for action in legal] if count <= LEGAL_LIMIT else None,
    }


def _labels(texts: Iterable[str], phase: str, call: str, language: str) -> dict[str, str]:
    """What each button that sends one of ``texts`` says, in ``language``."""
    return {
        text: action_label(text, phase, language, call=call)
        for text in texts
        if not text.startswith("play ")
    }


def _new_cards(seen: Observation) -> list[str]:
    """The cards the seat took into its hand (pickups, draws) since it last laid cards.

    Only those it still holds: fours it set aside since are not new cards.
    """
    events = seen.events
    taken: Counter[Card] = Counter()
    # Newest first, the deal's first event aside; reversed() walks a long log once.
    for event in itertools.islice(reversed(events), len(events) - 1):
        if getattr(event, "seat", None) != seen.seat:
            continue
        if isinstance(event, Played):
            break
        if isinstance(event, (PileTaken, Drew)):
            taken.update(event.cards)
    held = taken & Counter(seen.hand)
    return _cards(sorted(held.elements(), key=lambda card: card.key))


def seat_view(
    seen: Observation,
    *,
    call: str,
    window: dict[str, Any] | None,
    answers: Sequence[str] = (),
    log: Sequence[str] | None = None,
    log_from: int = 0,
    language: str = "en",
) -> dict[str, Any]:
    """A seat's ``view`` fields, from its observation alone, in ``language``.

    Besides the table and the decision, a seat is told ``new_cards`` (the
    cards it took in since it last laid cards, for the page to mark) and
    ``claim_sizes`` (the fewest and most cards a claim of its may hold now).

    Args:
        seen: the seat's observation (``state.observe(seat)``).
        call: what a challenger calls out, in ``language`` (``"Cheat!"``).
        window: the real-time challenge window as every seat sees it, or ``None``.
        answers: the answers this seat may give in the open window (action texts).
        log: the narrated log from line ``log_from`` on, if already made from
            ``seen.events`` in ``language``; else the whole log is told.
        log_from: the number of the first line of ``log``.
        language: the language of the log, the claims' ``said`` and the ``labels``.

    Raises:
        LanguageError: a language the library does not speak.

    """
    checked(language)
    sizes = seen.rules.claims.sizes(len(seen.hand))
    view = {
        "seat": seen.seat,
        "hand": _cards(seen.hand),
        "new_cards": _new_cards(seen),
        "claim_sizes": [sizes.start, max(sizes.start, sizes.stop - 1)],
        **_table(seen.table, language),
        "decision": _decision(seen.decision, language),
        "my_turn": seen.is_my_turn and window is None,
        **_legal(seen),
        "window": window,
        **_log(log, log_from, lambda: narrate(seen.events, challenge_word=call, language=language)),
    }
    if window is not None:
        # In a real-time window every opponent answers at once: the engine's
        # one-at-a-time question is replaced by the window's answers.
        view["choices"] = list(answers)
        view["legal"] = list(answers)
        view["legal_count"] = len(answers)
    phase = seen.decision.phase.value
    shown = [*view["choices"], *(view["legal"] or [] if phase == "discard" else [])]
    view["labels"] = _labels(shown, "challenge" if window is not None else phase, call, language)
    return view


def _log(
    log: Sequence[str] | None, log_from: int, whole: Callable[[], Iterable[str]]
) -> dict[str, Any]:
    """The ``log_from`` and ``log`` fields: the lines given, else the whole log told."""
    if log is None:
        return {"log_from": 0, "log": list(whole())}
    return {"log_from": log_from, "log": list(log)}


def spectator_view(
    table: Table,
    decision: Decision,
    events: Iterable[Event],
    *,
    call: str,
    window: dict[str, Any] | None,
    log: Sequence[str] | None = None,
    log_from: int = 0,
    language: str = "en",
) -> dict[str, Any]:
    """A spectator's ``view`` fields: the public table and the public log, never a hand.

    ``call`` is the game's challenge call in ``language``, the language of the
    log; ``log`` and ``log_from`` are as for :func:`seat_view` (the public log).

    Raises:
        LanguageError: a language the library does not speak.

    """
    checked(language)
    return {
        "seat": None,
        **_table(table, language),
        "decision": _decision(decision.seen_by(-1), language),
        "my_turn": False,
        "choices": [],
        "offered": [],
        "legal_count": 0,
        "legal": [],
        "window": window,
        "labels": {},
        **_log(
            log,
            log_from,
            lambda: narrate(public_events(events), challenge_word=call, language=language),
        ),
    }
