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
  "version": 1,
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
one player's view; :func:`loads_view` reads it back as that seat's
:class:`~cheatrules.Observation`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs

from cheatrules import policies
from cheatrules.actions import Accept, Action, Challenge, Discard, Pass, Play, Refuse
from cheatrules.cards import Card, Deck, Rank, cards, ranks
from cheatrules.deal import deal, shuffled_deal
from cheatrules.errors import CheatRulesError, RecordError
from cheatrules.events import (
    Dealt,
    Event,
)
from cheatrules.observation import Observation
from cheatrules.rules import POLICY_FAMILIES, Rules, english, verish
from cheatrules.state import GameState

__all__ = ["FORMAT", "VERSION", "dumps", "loads", "loads_view", "register_policy"]

#: The value of a record's ``"format"`` field.
FORMAT = "cheatrules"
#: The record format version this library writes and reads.
VERSION = 1
_FACTORIES: dict[str, Callable[..., Rules]] = {"english": english, "verish": verish}
_GAMES = (*_FACTORIES, "custom")

_POLICIES: dict[str, type] = {}


def register_policy(cls: type, name: str | None = None) -> type:
    """Let records name a policy class of your own (usable as a class decorator).

    The class must be an ``attrs`` class whose fields hold JSON-friendly
    values (numbers, strings, ranks, tuples of them).

    Raises:
        RecordError: the name is taken by another class, or ``cls`` is not
            an attrs class.

    """
    if not attrs.has(cls):
        raise RecordError(f"only attrs classes can be named in records; got {cls!r}")
    name = name or cls.__name__
    if _POLICIES.get(name, cls) is not cls:
        raise RecordError(f"a policy named {name!r} is registered already")
    _POLICIES[name] = cls
    return cls


register_policy(Deck)
for _name in policies.__all__:
    _item = getattr(policies, _name)
    if isinstance(_item, type) and attrs.has(_item):
        register_policy(_item)


# -- writing -----------------------------------------------------------------


def _to_json(value: Any) -> Any:
    if isinstance(value, Rank):
        return str(value)
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, (tuple, list)):
        return [_to_json(item) for item in value]
    return value


def _policy(value: object) -> dict[str, Any]:
    cls = type(value)
    name = next((key for key, known in _POLICIES.items() if known is cls), None)
    if name is None:
        raise RecordError(
            f"records cannot name the policy {cls.__name__}; "
            f"register it first with cheatrules.register_policy({cls.__name__})"
        )
    settings = {
        field.name: _to_json(getattr(value, field.name))
        for field in attrs.fields(_POLICIES[name])
        if field.init
    }
    return {"type": name, **settings}


def _rules(rules: Rules) -> dict[str, Any]:
    game = rules.name if rules.name in _FACTORIES else "custom"
    named = {} if game == rules.name else {"name": rules.name}
    return {
        "game": game,
        **named,
        "players": rules.players,
        "policies": {family: _policy(getattr(rules, family)) for family in POLICY_FAMILIES},
    }


def _action(action: Action) -> str:
    if isinstance(action, Play):
        return f"play {' '.join(map(str, action.cards))} as {action.rank}"
    if isinstance(action, Discard):
        return " ".join(["discard", *map(str, action.ranks)])
    if isinstance(action, Challenge):
        return "challenge earlier" if action.earlier else "challenge"
    return {Accept: "accept", Pass: "pass", Refuse: "refuse"}[type(action)]


def _show(group: tuple[Card, ...]) -> str:
    return " ".join(map(str, group))


def dumps(state: GameState, *, seat: int | None = None) -> str:
    """Write ``state`` as a JSON game record (or, with ``seat``, as that seat saw it).

    Raises:
        RecordError: the rules use a policy class records cannot name (see
            :func:`register_policy`).
        SeatError: ``seat`` is not a seat at this table.

    """
    if seat is not None:
        return _dump_view(state.observe(seat))
    dealt = state.events[0]
    assert isinstance(dealt, Dealt)
    record: dict[str, Any] = {"format": FORMAT, "version": VERSION, "rules": _rules(state.rules)}
    seeded = state.seed is not None and shuffled_deal(state.rules, state.seed, state.dealer) == (
        dealt.hands,
        dealt.set_aside,
        dealt.stock,
    )
    record["deal"] = {"dealer": state.dealer, "seed": state.seed}
    if not seeded:
        record["deal"]["hands"] = [_show(hand) for hand in dealt.hands]
        record["deal"]["hidden"] = _show(dealt.set_aside)
        if dealt.stock:
            record["deal"]["stock"] = _show(dealt.stock)
    record["actions"] = [_action(action) for action in state.actions]
    return json.dumps(record, ensure_ascii=False, indent=2)


def _event(event: Event) -> dict[str, Any]:
    fields = {
        field.name: _to_json(getattr(event, field.name)) for field in attrs.fields(type(event))
    }
    return {"event": type(event).__name__, **fields}


def _dump_view(seen: Observation) -> str:
    record = {
        "format": FORMAT,
        "version": VERSION,
        "view": {
            "seat": seen.seat,
            "rules": _rules(seen.rules),
            "hand": _show(seen.hand),
            "hand_sizes": list(seen.hand_sizes),
            "claims": [[claim.seat, claim.count, str(claim.rank)] for claim in seen.claims],
            "to_move": seen.to_move,
            "phase": seen.phase.value,
            "allowed_ranks": _to_json(seen.allowed_ranks),
            "finishing_order": list(seen.finishing_order),
            "discarded": _show(seen.discarded),
            "set_aside_count": seen.set_aside_count,
            "outcome": None
            if seen.outcome is None
            else {"winners": list(seen.outcome.winners), "losers": list(seen.outcome.losers)},
            "offered": _to_json(seen.offered),
            "stock_size": seen.stock_size,
            "choices": [_action(action) for action in seen.choices],
            "events": [_event(event) for event in seen.events],
        },
    }
    return json.dumps(record, ensure_ascii=False, indent=2)


# -- reading -----------------------------------------------------------------


def _json_object(text: object, what: str = "a record") -> dict[str, Any]:
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


def _parse(text: object) -> dict[str, Any]:
    record = _json_object(text)
    if record.get("format") != FORMAT:
        raise RecordError(f"not a cheatrules record: format is {record.get('format')!r}")
    version = record.get("version")
    if version != VERSION or isinstance(version, bool):
        raise RecordError(f"unknown record version {version!r}; this library reads version 1")
    return record


def _get(mapping: object, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(mapping, dict):
        raise RecordError(f"{where} must be a JSON object")
    if key not in mapping:
        raise RecordError(f"{where} lacks {key!r}")
    value = mapping[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise RecordError(f"{where}.{key} must be {names}; got {value!r}")
    return value


def _checked(where: str, make: Callable[[], Any]) -> Any:
    """Run ``make``, turning the library's own bad-input errors into a RecordError at ``where``."""
    try:
        return make()
    except RecordError:
        raise
    except (ValueError, TypeError) as error:
        raise RecordError(f"{where}: {error}") from None


def _read_policy(family: str, data: object) -> object:
    where = f"rules.policies.{family}"
    name = _get(data, "type", str, where)
    cls = _POLICIES.get(name)
    if cls is None:
        raise RecordError(f"{where}: unknown policy type {name!r}")
    assert isinstance(data, dict)
    settings = {key: value for key, value in data.items() if key != "type"}
    allowed = {field.name for field in attrs.fields(cls) if field.init}
    unknown = sorted(set(settings) - allowed)
    if unknown:
        known = ", ".join(sorted(allowed)) or "none"
        raise RecordError(
            f"{where}: unknown setting {', '.join(unknown)} for {name} (known: {known})"
        )
    for key, value in settings.items():
        if not _plain(value):
            raise RecordError(f"{where}.{key} must be a number, text, true/false or a list")
    types = attrs.fields_dict(_resolved(cls))
    typed = {
        key: _typed(types[key].type, value, f"{where}.{key}") for key, value in settings.items()
    }
    return _checked(where, lambda: cls(**typed))


def _resolved(cls: type) -> type:
    """``cls`` with its field annotations resolved to types (where they can be)."""
    try:
        return attrs.resolve_types(cls)
    except (NameError, TypeError):
        return cls


def _typed(kind: Any, value: Any, where: str) -> Any:
    """A JSON value as the type an attrs field declares: ranks from text, tuples from lists."""
    try:
        if kind is Rank and isinstance(value, str):
            return Rank.parse(value)
        if isinstance(value, list):
            arguments = getattr(kind, "__args__", ())
            if arguments and arguments[0] is Rank:
                return tuple(Rank.parse(item) for item in value)
            return tuple(value)
    except CheatRulesError as error:
        raise RecordError(f"{where}: {error}") from None
    return value


def _plain(value: object) -> bool:
    if isinstance(value, list):
        return all(isinstance(item, (str, int)) and not isinstance(item, bool) for item in value)
    # A bool is a setting too (compulsory=true), and so is null (hand_size=null).
    return value is None or isinstance(value, (str, int))


def _read_rules(data: object) -> Rules:
    game = _get(data, "game", str, "rules")
    if game not in _GAMES:
        raise RecordError(f"rules.game: unknown game {game!r}; known: {', '.join(_GAMES)}")
    players = _get(data, "players", int, "rules")
    found = _get(data, "policies", dict, "rules")
    unknown = sorted(set(found) - set(POLICY_FAMILIES))
    if unknown:
        raise RecordError(
            f"rules.policies: unknown family {', '.join(unknown)}; "
            f"known: {', '.join(POLICY_FAMILIES)}"
        )
    chosen: dict[str, Any] = {family: _read_policy(family, found[family]) for family in found}
    factory = _FACTORIES.get(game)
    if factory is not None:
        # A named game's own checks hold too (its player count, its deck).
        made: Rules = _checked("rules", lambda: factory(players, **chosen))
        return made
    name = data.get("name", "custom") if isinstance(data, dict) else "custom"
    if not isinstance(name, str):
        raise RecordError(f"rules.name must be text; got {name!r}")
    custom: Rules = _checked("rules", lambda: Rules(players=players, name=name, **chosen))
    return custom


def _read_action(text: object, index: int) -> Action:
    where = f"actions[{index}]"
    if not isinstance(text, str):
        raise RecordError(f"{where} must be text such as 'play 7♣ as 7'; got {text!r}")
    verb, _, rest = text.strip().partition(" ")
    if verb == "challenge" and rest in ("", "earlier"):
        return Challenge(earlier=bool(rest))
    if verb == "accept" and not rest:
        return Accept()
    if verb == "pass" and not rest:
        return Pass()
    if verb == "refuse" and not rest:
        return Refuse()
    if verb == "discard":
        return _checked(where, lambda: Discard(ranks(rest)))  # type: ignore[no-any-return]
    if verb == "play" and " as " in f" {rest}":
        laid, _, rank = f" {rest}".rpartition(" as ")
        return _checked(where, lambda: Play(cards(laid), rank))  # type: ignore[no-any-return]
    raise RecordError(
        f"{where}: cannot read {text!r}; write 'play <cards> as <rank>', 'challenge', "
        "'challenge earlier', 'accept', 'discard <ranks>', 'pass' or 'refuse'"
    )


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
        raise RecordError("this record holds one seat's view; read it with loads_view()")
    rules = _read_rules(_get(record, "rules", dict, "record"))
    dealt = _get(record, "deal", dict, "record")
    dealer = _get(dealt, "dealer", int, "deal")
    seed = dealt.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"deal.seed must be a whole number or null; got {seed!r}")
    if "hands" in dealt:
        hands = _get(dealt, "hands", list, "deal")
        hidden = dealt.get("hidden", "")
        stock = dealt.get("stock", "")
        if not all(isinstance(item, str) for item in (*hands, hidden, stock)):
            raise RecordError(
                "deal.hands, deal.hidden and deal.stock must hold card text such as '7♣ K♦'"
            )
        state = _checked(
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
        raise RecordError("deal needs either a seed or the hands")
    else:
        state = _checked("deal", lambda: deal(rules, seed=seed, dealer=dealer))
    actions = _get(record, "actions", list, "record")
    for index, item in enumerate(actions):
        action = _read_action(item, index)
        try:
            state = state.apply(action)
        except CheatRulesError as error:
            raise RecordError(f"actions[{index}] ({item}): {error}") from None
    return state  # type: ignore[no-any-return]


def loads_view(text: str | bytes) -> Observation:
    """Read one seat's view written by ``dumps(state, seat=k)``, as that seat's observation.

    The view is checked against the rules before it is returned: its event
    log is followed from the deal, and every stored field must be what those
    events give (see the records guide). A view that loads can be narrated,
    sampled, encoded and written again.

    Raises:
        RecordError: the text is not such a record, is malformed, or holds
            a view no game could give; the message names the field.

    """
    from cheatrules._view_records import read_view  # it reads rules and actions from here

    record = _parse(text)
    return read_view(_get(record, "view", dict, "record"))
