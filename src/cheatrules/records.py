"""Game records: a game written as JSON, and read back by replaying it.

A record holds a format version, the rules with every policy and its
settings, the deal (a seed, or the hands and the card set aside) and the
actions. :func:`loads` deals again and replays every action through the
engine, so a record that loads is a legal game, and ``loads(dumps(state)) ==
state``. Anything else raises :class:`~cheatrules.RecordError`, a
``ValueError``, naming the problem.

>>> import cheatrules as cr
>>> state = cr.deal(cr.english(3), hands=["A♣ 7♦", "2♥ K♣", "3♠ 9♥"])
>>> state = state.apply(cr.Play("7♦", "A")).apply(cr.Challenge())
>>> text = cr.dumps(state)
>>> cr.loads(text) == state
True
>>> print(text)  # doctest: +ELLIPSIS
{
  "format": "cheatrules",
  "version": 2,
  "rules": {
    "game": "english",
    "players": 3,
...
  "deal": {
    "dealer": 2,
    "seed": null,
    "hands": [
      "A♣ 7♦",
      "2♥ K♣",
      "3♠ 9♥"
    ],
    "hidden": ""
  },
  "actions": [
    "play 7♦ as A",
    "challenge"
  ]
}

``dumps(state, seat=k)`` writes the game as seat ``k`` saw it, for sharing
one player's view, and ``dumps(observation)`` writes an observation the
same way; :func:`loads_view` reads it back as that seat's
:class:`~cheatrules.Observation`.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import attrs

from cheatrules._json import checked, get, json_object, read_action, show, to_json
from cheatrules._records.rules_json import read_rules, rules_to_json
from cheatrules._records.views import read_view
from cheatrules._registry import register_policy
from cheatrules.cards import Card
from cheatrules.deal import deal, shuffled_deal
from cheatrules.errors import N_, CheatRulesError, RecordError, SeatError
from cheatrules.events import Challenged, Dealt, Event, Revealed
from cheatrules.observation import Observation
from cheatrules.state import GameState

__all__ = ["FORMAT", "VERSION", "dumps", "loads", "loads_view", "register_policy"]

#: The value of a record's ``"format"`` field.
FORMAT = "cheatrules"
#: The record format version this library writes. It reads every version up to it: version 1
#: view records lack the facts version 2's events carry (the places a check turned over, the
#: groups a pickup took and kept), and their reader works those out as they were.
VERSION = 2

#: The record format versions this library reads.
VERSIONS = (1, 2)


def dumps(state: GameState | Observation, *, seat: int | None = None) -> str:
    """Write ``state`` as a JSON game record (or, with ``seat``, as that seat saw it).

    An :class:`~cheatrules.Observation` is written as the view record of its
    seat: ``dumps(state.observe(k)) == dumps(state, seat=k)``, and
    :func:`loads_view` reads either back as an equal observation.

    Raises:
        RecordError: ``state`` is neither a game state nor an observation,
            or the rules use a policy class records cannot name (see
            :func:`register_policy`).
        SeatError: ``seat`` is not a seat at this table, or, for an
            observation, not the seat it belongs to.

    """
    if isinstance(state, Observation):
        if seat is not None and seat != state.seat:
            raise SeatError(
                N_("seat=%(asked)s, but this observation is seat %(seat)s's view"),
                asked=repr(seat),
                seat=state.seat,
            )
        return _dump_view(state)
    if not isinstance(state, GameState):
        raise RecordError(
            N_("dumps writes a GameState or an Observation; got %(got)s"),
            got=type(state).__name__,
        )
    if seat is not None:
        return _dump_view(state.observe(seat))
    dealt = state.events[0]
    assert isinstance(dealt, Dealt)
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": rules_to_json(state.rules),
    }
    seeded = state.seed is not None and shuffled_deal(state.rules, state.seed, state.dealer) == (
        dealt.hands,
        dealt.set_aside,
        dealt.stock,
    )
    record["deal"] = {"dealer": state.dealer, "seed": state.seed}
    if not seeded:
        record["deal"]["hands"] = [show(hand) for hand in dealt.hands]
        record["deal"]["hidden"] = show(dealt.set_aside)
        if dealt.stock:
            record["deal"]["stock"] = show(dealt.stock)
    if state.draws:
        # A sampled game's draws are scripted, not seeded: write them.
        record["deal"]["draws"] = [[moment, str(card)] for moment, card in state.draws]
    record["actions"] = [action.text() for action in state.actions]
    return json.dumps(record, ensure_ascii=False, indent=2)


def _event(event: Event) -> dict[str, Any]:
    fields = {
        field.name: to_json(getattr(event, field.name)) for field in attrs.fields(type(event))
    }
    return {"event": type(event).__name__, **fields}


def _dump_view(seen: Observation) -> str:
    record = {
        "format": FORMAT,
        "version": VERSION,
        "view": {
            "seat": seen.seat,
            "rules": rules_to_json(seen.rules),
            "hand": show(seen.hand),
            "hand_sizes": list(seen.hand_sizes),
            "claims": [[claim.seat, claim.count, str(claim.rank)] for claim in seen.claims],
            "to_move": seen.to_move,
            "phase": seen.phase.value,
            "allowed_ranks": to_json(seen.allowed_ranks),
            "finishing_order": list(seen.finishing_order),
            "discarded": show(seen.discarded),
            "set_aside_count": seen.set_aside_count,
            "outcome": None
            if seen.outcome is None
            else {"winners": list(seen.outcome.winners), "losers": list(seen.outcome.losers)},
            "offered": to_json(seen.offered),
            "stock_size": seen.stock_size,
            "choices": [action.text() for action in seen.choices],
            "events": [_event(event) for event in seen.events],
        },
    }
    return json.dumps(record, ensure_ascii=False, indent=2)


# -- reading -----------------------------------------------------------------


def _parse(text: object) -> dict[str, Any]:
    record = json_object(text)
    if record.get("format") != FORMAT:
        raise RecordError(
            N_("not a cheatrules record: format is %(found)s"), found=repr(record.get("format"))
        )
    version = record.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        raise RecordError(
            N_("unknown record version %(version)s; this library reads versions 1 and 2"),
            version=repr(version),
        )
    return record


def loads(text: str | bytes) -> GameState:
    """Read a game record written by :func:`dumps`, replaying it; return the final state.

    Raises:
        RecordError: the text is not JSON, not a cheatrules record, of an
            unknown version, names an unknown game, policy or setting, holds
            a deal that does not fit the rules, or an action that is
            unreadable or illegal; the message names the problem. Nothing is
            returned half-built.

    """
    record = _parse(text)
    if "view" in record:
        raise RecordError(N_("this record holds one seat's view; read it with loads_view()"))
    rules = read_rules(get(record, "rules", dict, "record"))
    dealt = get(record, "deal", dict, "record")
    dealer = get(dealt, "dealer", int, "deal")
    seed = dealt.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(
            N_("deal.seed must be a whole number or null; got %(got)s"), got=repr(seed)
        )
    if "hands" in dealt:
        hands = get(dealt, "hands", list, "deal")
        hidden = dealt.get("hidden", "")
        stock = dealt.get("stock", "")
        if not all(isinstance(item, str) for item in (*hands, hidden, stock)):
            raise RecordError(
                N_("deal.hands, deal.hidden and deal.stock must hold card text such as '7♣ K♦'")
            )
        state = checked(
            "deal",
            lambda: deal(
                rules,
                seed=seed,
                dealer=dealer,
                hands=hands,
                hidden=hidden or None,
                stock=stock or None,
            ),
        )
    elif seed is None:
        raise RecordError(N_("deal needs either a seed or the hands"))
    else:
        state = checked("deal", lambda: deal(rules, seed=seed, dealer=dealer))
    draws = _read_draws(dealt.get("draws", []))
    if draws:
        state = attrs.evolve(state, draws=draws)
    actions = get(record, "actions", list, "record")
    for index, item in enumerate(actions):
        action = read_action(item, index)
        try:
            state = state.apply(action)
        except CheatRulesError as error:
            raise RecordError(
                N_("actions[%(index)s] (%(item)s): %(error)s"), index=index, item=item, error=error
            ) from None
    _check_draws(state)
    return state  # type: ignore[no-any-return]


def _read_draws(data: object) -> tuple[tuple[int, Card], ...]:
    """The scripted draws of a record's deal: pairs of a moment and a card, moments rising.

    A check that turned over several cards at one moment has a pair for each
    card, in the order shown, so a moment may repeat but never fall.
    """
    if not isinstance(data, list):
        raise RecordError(
            N_("deal.draws must be a list of [moment, card] pairs; got %(got)s"), got=repr(data)
        )
    draws: list[tuple[int, Card]] = []
    for index, item in enumerate(data):
        where = f"deal.draws[{index}]"
        if not (isinstance(item, list) and len(item) == 2):
            raise RecordError(
                N_("%(where)s must be a [moment, card] pair such as [4, '7♣']"), where=where
            )
        moment, text = item
        if not isinstance(moment, int) or isinstance(moment, bool) or moment < 1:
            raise RecordError(
                N_("%(where)s: the moment must be a whole number of 1 or more"), where=where
            )
        if draws and moment < draws[-1][0]:
            raise RecordError(
                N_("%(where)s: the moments must rise; %(moment)s follows %(before)s"),
                where=where,
                moment=moment,
                before=draws[-1][0],
            )
        draws.append((moment, checked(where, partial(Card.parse, text))))
    return tuple(draws)


def _check_draws(state: GameState) -> None:
    """Every scripted draw turned over its cards at a challenge of the game."""
    events = state.events
    scripted: dict[int, tuple[Card, ...]] = {}
    for moment, card in state.draws:
        scripted[moment] = (*scripted.get(moment, ()), card)
    for index, (moment, card) in enumerate(state.draws):
        challenged, shown = events[moment : moment + 2] if moment + 1 < len(events) else (None,) * 2
        if not (
            isinstance(challenged, Challenged)
            and isinstance(shown, Revealed)
            and shown.cards == scripted[moment]
        ):
            raise RecordError(
                N_("deal.draws[%(index)s]: no challenge at moment %(moment)s turned over %(card)s"),
                index=index,
                moment=moment,
                card=card,
            )


def loads_view(text: str | bytes) -> Observation:
    """Read one seat's view written by ``dumps(state, seat=k)`` or ``dumps(observation)``.

    Returns that seat's observation: ``loads_view(dumps(observation)) ==
    observation``.

    The view is checked against the rules before it is returned: its event
    log is followed from the deal, and every stored field must be what those
    events give (see the records guide). A view that loads can be narrated,
    sampled, encoded and written again.

    Raises:
        RecordError: the text is not such a record, is malformed, or holds
            a view no game could give; the message names the field.

    """
    record = _parse(text)
    return read_view(get(record, "view", dict, "record"), record["version"])
