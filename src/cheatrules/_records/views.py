"""Reading one seat's view record, and refusing any view that no game could give.

:func:`read_view` builds the :class:`~cheatrules.Observation` a view record
holds and then follows the seat's event log from the deal, the way the seat
saw the game, checking at every event that it could have happened:

* every seat an event names is at the table (and still in the game where it
  acts), every count is bounded by the cards that could move, and every
  card is one the deck holds, never more copies of it than the deck has
  across what the seat holds, laid, was shown and saw discarded;
* the deal's sizes add up to at most the deck, one per seat, the seat's own
  hand matching its size, and the other hands, the hidden cards and the
  stock hidden as a seat sees them;
* a challenge is followed by the cards it turned over (of the group it
  named, as truthful as they show) and by the right player taking the pile;
  after a claim, the seats its window asks answer in turn, then the next
  player acts; a draw comes from a stock that holds the cards; a four
  discarded is four cards of its rank; a player goes out with an empty
  hand; the game ends when the rules' ending says so, with the winners and
  losers it gives.

Then the stored fields must be what those events imply: the hand sizes, the
seat's hand, the claims on the table, the discards, the stock, the finishing
order and the outcome. Last, the decision: a game not over has an active
seat to move, the ranks the next play may announce, and, when this seat is
to move, the choices its phase offers and at least one legal action.

Every refusal is a :class:`~cheatrules.RecordError` naming the field.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

import attrs

from cheatrules._generation import CONSENT_ACTIONS, EARLIER_WINDOW_ACTIONS, WINDOW_ACTIONS
from cheatrules._json import checked as _checked
from cheatrules._json import get as _get
from cheatrules._json import read_action as _read_action
from cheatrules._records.rules_json import read_rules as _read_rules
from cheatrules._records.stored_view import StoredView, observation
from cheatrules._records.view_log import _count, _deck_check, _rank, _Replay, _seat
from cheatrules.actions import Action, Challenge, Pass
from cheatrules.cards import Rank, cards, ranks
from cheatrules.errors import N_, Message, RecordError, either
from cheatrules.events import KINDS, Dealt, Discarded, Event, PileTaken, Played
from cheatrules.observation import Observation
from cheatrules.table import Claim, Outcome, Phase

__all__ = ["read_view"]


def read_view(view: dict[str, Any], version: int = 2) -> Observation:
    """The observation a view record's ``"view"`` object holds, checked to be one a game gives.

    A record of ``version`` 1 holds events without the facts version 2's
    carry (:data:`V2_FIELDS`); they are worked out while the log is
    followed, as the engine states them.

    Raises:
        RecordError: a field is missing, of the wrong kind, or does not fit
            the rest of the view; the message names the field.

    """
    stored = _read_view(view, version)
    _check_fields(stored)
    replay = _Replay(stored, filling=version < 2)
    replay.run()
    if replay.filled:
        events = tuple(replay.filled.get(index, event) for index, event in enumerate(stored.events))
        stored = attrs.evolve(stored, events=events)
    _check_decision(stored)
    return observation(stored, replay.decision())


# -- reading the fields ---------------------------------------------------------------


def _read_view(view: dict[str, Any], version: int) -> StoredView:
    rules = _read_rules(_get(view, "rules", dict, "view"))
    outcome = view.get("outcome")
    return StoredView(
        seat=_get(view, "seat", int, "view"),
        rules=rules,
        hand=_checked("view.hand", lambda: tuple(sorted(cards(_get(view, "hand", str, "view"))))),
        hand_sizes=tuple(_ints(_get(view, "hand_sizes", list, "view"), "view.hand_sizes")),
        claims=tuple(_read_claim(item) for item in _get(view, "claims", list, "view")),
        to_move=_seat_or_none(view.get("to_move")),
        phase=_checked("view.phase", lambda: Phase(view.get("phase"))),
        allowed_ranks=_checked(
            "view.allowed_ranks", lambda: ranks(_get(view, "allowed_ranks", list, "view"))
        ),
        finishing_order=tuple(
            _ints(_get(view, "finishing_order", list, "view"), "view.finishing_order")
        ),
        discarded=_checked("view.discarded", lambda: cards(_get(view, "discarded", str, "view"))),
        set_aside_count=_get(view, "set_aside_count", int, "view"),
        outcome=None
        if outcome is None
        else _checked(
            "view.outcome",
            lambda: Outcome(
                tuple(
                    _ints(_get(outcome, "winners", list, "view.outcome"), "view.outcome.winners")
                ),
                tuple(_ints(_get(outcome, "losers", list, "view.outcome"), "view.outcome.losers")),
            ),
        ),
        events=tuple(
            _read_event(item, index, version)
            for index, item in enumerate(_get(view, "events", list, "view"))
        ),
        offered=_checked(
            "view.offered", lambda: tuple(sorted(ranks(_get(view, "offered", list, "view"))))
        ),
        stock_size=_get(view, "stock_size", int, "view"),
        choices=tuple(
            _read_action(item, index)
            for index, item in enumerate(_get(view, "choices", list, "view"))
        ),
    )


def _seat_or_none(value: object) -> int | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise RecordError(
        N_("view.to_move must be a seat number or null; got %(got)s"), got=repr(value)
    )


def _read_claim(item: object) -> Claim:
    if not isinstance(item, list) or len(item) != 3:
        raise RecordError(N_("view.claims must hold [seat, count, rank] triples"))
    seat, count = _ints(item[:2], "view.claims")
    rank = item[2]
    if not isinstance(rank, str):
        raise RecordError(
            N_("view.claims: a claim's rank must be text such as 'A'; got %(got)s"), got=repr(rank)
        )
    announced = _checked("view.claims", lambda: Rank.parse(rank))
    made: Claim = _checked("view.claims", lambda: Claim(seat, count, announced))
    return made


def _ints(values: list[Any], where: str) -> list[int]:
    if not all(isinstance(value, int) and not isinstance(value, bool) for value in values):
        raise RecordError(N_("%(where)s must hold whole numbers"), where=where)
    return values


_EVENTS: dict[str, type[Event]] = {kind.__name__: kind for kind in KINDS}


#: The fields of events that version-1 view records lack, with what stands in for each until the
#: log is followed (the reader then works out the fact itself).
V2_FIELDS: dict[str, Any] = {"positions": (), "drawn": False, "groups": 0, "kept": 0}


#: Facts a record may lack whatever its version (they came after records of version 2 were
#: first written), with what stands in for each until the reader works the fact out.
LATER_FIELDS: dict[str, Any] = {"passer": None}


def _read_event(data: object, index: int, version: int = 2) -> Event:
    name = _get(data, "event", str, f"view.events[{index}]")
    cls = _EVENTS.get(name)
    if cls is None:
        known = ", ".join(_EVENTS)
        raise RecordError(
            N_("view.events[%(index)s]: unknown event %(name)s; known: %(known)s"),
            index=index,
            name=repr(name),
            known=known,
        )
    assert isinstance(data, dict)
    known_fields = {field.name for field in attrs.fields(cls)} | {"event"}
    extra = sorted(set(data) - known_fields)
    if extra:
        raise RecordError(
            N_("view.events[%(index)s]: %(name)s has no field %(extra)s"),
            index=index,
            name=name,
            extra=", ".join(extra),
        )
    values: dict[str, Any] = {}
    for field in attrs.fields(cls):
        if field.name not in data and field.name in LATER_FIELDS:
            values[field.name] = LATER_FIELDS[field.name]
            continue
        if field.name not in data and version < 2 and field.name in V2_FIELDS:
            values[field.name] = V2_FIELDS[field.name]
            continue
        if field.name not in data:
            raise RecordError(
                N_("view.events[%(index)s]: %(name)s lacks %(field)s"),
                index=index,
                name=name,
                field=repr(field.name),
            )
        where = f"view.events[{index}]: {name}.{field.name}"
        values[field.name] = _checked(
            where, partial(_event_value, field.name, data[field.name], where)
        )
        if field.name in _HEAPS.get(cls, ()):
            values[field.name] = _heap(field.name, values[field.name])
    return cls(**values)


#: The fields of events whose cards are a heap, in no order that carries a fact: the engine
#: writes them sorted, and so the reader sorts them, as :func:`_heap` does (a reveal's cards come
#: in the order the check showed them, and a draw's in the stock's).
_HEAPS: dict[type[Event], tuple[str, ...]] = {
    Dealt: ("hands",),
    Played: ("cards",),
    PileTaken: ("cards",),
    Discarded: ("cards",),
}


def _heap(name: str, value: Any) -> Any:
    """The cards of field ``name`` (of each hand, in ``hands``) sorted, as the engine writes."""
    if name == "hands":
        return tuple(tuple(sorted(hand)) for hand in value)
    return tuple(sorted(value))


def _event_value(name: str, raw: Any, where: str) -> Any:
    if name in ("cards", "set_aside", "stock"):
        return cards(_list(raw, where))
    if name == "hands":
        return tuple(cards(_list(hand, where)) for hand in _list(raw, where))
    if name == "rank":
        if not isinstance(raw, str):
            raise RecordError(
                N_("%(where)s must be a rank such as 'A'; got %(got)s"), where=where, got=repr(raw)
            )
        return Rank.parse(raw)
    if name == "ranks":
        return ranks(_list(raw, where))
    if name in ("winners", "losers", "hand_sizes", "positions"):
        return tuple(_ints(_list(raw, where), where))
    if name in ("truthful", "forced", "earlier", "drawn"):
        if not isinstance(raw, bool):
            raise RecordError(
                N_("%(where)s must be true or false; got %(got)s"), where=where, got=repr(raw)
            )
        return raw
    if name == "passer" and raw is None:
        return raw  # an acceptance that completed no pass
    if not isinstance(raw, int) or isinstance(raw, bool):
        raise RecordError(
            N_("%(where)s must be a whole number; got %(got)s"), where=where, got=repr(raw)
        )
    return raw


def _list(raw: object, where: str) -> list[Any]:
    if not isinstance(raw, list):
        raise RecordError(N_("%(where)s must be a list; got %(got)s"), where=where, got=repr(raw))
    return raw


# -- the fields on their own ----------------------------------------------------------


def _check_fields(seen: StoredView) -> None:
    """Each field in range on its own: seats at the table, counts within the deck."""
    players = seen.players
    deck = seen.rules.deck
    size = deck.size
    seat = partial(_seat, players)
    seat(seen.seat, "view.seat")
    if seen.to_move is not None:
        seat(seen.to_move, "view.to_move")
    if len(seen.hand_sizes) != players:
        raise RecordError(
            N_("view.hand_sizes must give %(players)s sizes, one per seat; got %(got)s"),
            players=players,
            got=len(seen.hand_sizes),
        )
    for value in seen.hand_sizes:
        _count(value, 0, size, "view.hand_sizes")
    if len(seen.hand) != seen.hand_sizes[seen.seat]:
        raise RecordError(
            N_("view.hand holds %(held)s cards; hand_sizes says %(said)s"),
            held=len(seen.hand),
            said=seen.hand_sizes[seen.seat],
        )
    _deck_check(
        seen,
        Counter(seen.hand) + Counter(seen.discarded),
        either(["view.hand", "view.discarded"], joiner="and"),
    )
    for claim in seen.claims:
        seat(claim.seat, "view.claims")
        _count(claim.count, 1, size, "view.claims (a claim's count)")
        _rank(seen, claim.rank, "view.claims")
    for index in seen.finishing_order:
        seat(index, "view.finishing_order")
    if len(set(seen.finishing_order)) != len(seen.finishing_order):
        raise RecordError(N_("view.finishing_order names a seat twice"))
    if (seen.phase is Phase.OVER) != (seen.outcome is not None):
        raise RecordError(N_("view.outcome must be given exactly when the phase is over"))
    if seen.outcome is not None:
        for index in (*seen.outcome.winners, *seen.outcome.losers):
            seat(index, "view.outcome")
    _count(seen.set_aside_count, 0, size, "view.set_aside_count")
    _count(seen.stock_size, 0, size, "view.stock_size")
    for rank in seen.offered:
        _rank(seen, rank, "view.offered")
    for rank in seen.allowed_ranks:
        _rank(seen, rank, "view.allowed_ranks")


# -- the decision ---------------------------------------------------------------------


def _check_decision(seen: StoredView) -> None:
    """Whose decision it is, and what it may be, fit the phase."""
    phase = seen.phase
    if phase is Phase.OVER:
        _check_nothing_to_decide(seen)
        return
    mover = _check_mover(seen)
    if mover != seen.seat:
        if seen.offered or seen.choices:
            raise RecordError(
                N_("view.offered and view.choices are empty when another seat is to move")
            )
        return
    _check_choices(seen)
    _check_offered(seen)
    if not _has_decision(seen):
        raise RecordError(
            N_(
                "view.to_move: seat %(seat)s is to move but has no legal decision in the "
                "%(phase)s phase"
            ),
            seat=seen.seat,
            phase=phase.value,
        )


def _check_nothing_to_decide(seen: StoredView) -> None:
    """Once the game is over, nobody is to move and nothing is offered."""
    if seen.to_move is not None or seen.allowed_ranks or seen.offered or seen.choices:
        raise RecordError(
            N_(
                "view.to_move, allowed_ranks, offered and choices must be empty "
                "once the game is over"
            )
        )


def _check_mover(seen: StoredView) -> int:
    """The seat to move in a game not over: one still playing. Returns it."""
    mover = seen.to_move
    if mover is None:
        raise RecordError(
            N_("view.to_move: the phase is %(phase)s, so a seat must be to move"),
            phase=seen.phase.value,
        )
    if mover in seen.finishing_order:
        raise RecordError(N_("view.to_move: seat %(seat)s has left the game"), seat=mover)
    return mover


def _check_choices(seen: StoredView) -> None:
    """The seat's own choices (challenge, pass...) are those its phase and rules give."""
    phase = seen.phase
    allowed: tuple[tuple[Action, ...], ...]
    if phase is Phase.CHALLENGE:
        allowed = (WINDOW_ACTIONS, EARLIER_WINDOW_ACTIONS)
    elif phase is Phase.CONSENT:
        allowed = (CONSENT_ACTIONS,)
    elif phase is Phase.DISCARD:
        allowed = ((),)
    else:
        allowed = ((), (Challenge(),), (Pass(),), (Challenge(), Pass()))
    if seen.choices not in allowed:
        said = either("[" + ", ".join(map(str, choice)) + "]" for choice in allowed)
        raise RecordError(
            N_("view.choices: in the %(phase)s phase they are %(said)s"),
            phase=phase.value,
            said=said,
        )
    if Challenge() in seen.choices and not seen.claims:
        raise RecordError(N_("view.choices: there is no claim on the table to challenge"))
    if Challenge(earlier=True) in seen.choices and (
        not seen.rules.window.extended or len(seen.claims) < 2 or seen.claims[-2].seat == seen.seat
    ):
        raise RecordError(N_("view.choices: there is no earlier claim this seat may challenge"))
    if Challenge() in seen.choices and phase is Phase.PLAY and not seen.rules.window.on_turn:
        raise RecordError(N_("view.choices: these rules allow no challenge on a turn"))


def _check_offered(seen: StoredView) -> None:
    """The fours offered: in the discard phase those the seat holds, else none."""
    if seen.phase is Phase.DISCARD:
        fours = seen.rules.discards.after_pickup(seen.hand)
        if fours is None or seen.offered != tuple(sorted(fours)):
            said: str | Message = " ".join(map(str, fours or ())) or Message(N_("none"))
            raise RecordError(
                N_("view.offered must be the fours seat %(seat)s holds (%(said)s)"),
                seat=seen.seat,
                said=said,
            )
    elif seen.offered:
        raise RecordError(N_("view.offered is empty outside the discard phase"))


def _has_decision(seen: StoredView) -> bool:
    """Whether :meth:`Observation.legal_actions` is non-empty.

    The legal actions are counted, never listed, so this is cheap even
    under house rules with millions of plays.
    """
    return bool(seen.legal_actions())
