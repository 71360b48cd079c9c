"""Rules as JSON and back, shared by game records, view records and match records.

:func:`rules_to_json` writes the game's name, the player count and every
policy with its settings (policies are named through the registry in
:mod:`cheatrules._registry`); :func:`read_rules` reads that back, checking
it as the game's own factory does, and raises a
:class:`~cheatrules.RecordError` naming the field for anything else.
"""

from __future__ import annotations

from typing import Any

import attrs

from cheatrules._json import checked, get, to_json
from cheatrules._registry import policy_class, policy_name
from cheatrules.cards import Rank
from cheatrules.errors import N_, CheatRulesError, Message, RecordError
from cheatrules.rules import POLICY_FAMILIES, VARIANTS, Rules

# The games a record may name: every game of VARIANTS (built by its record), or custom rules.
_GAMES = (*VARIANTS, "custom")


# -- writing -----------------------------------------------------------------


def _policy(value: object) -> dict[str, Any]:
    cls: type = type(value)
    name = policy_name(cls)
    if name is None:
        raise RecordError(
            N_(
                "records cannot name the policy %(policy)s; "
                "register it first with cheatrules.register_policy(%(policy)s)"
            ),
            policy=cls.__name__,
        )
    settings = {
        field.name: to_json(getattr(value, field.name)) for field in attrs.fields(cls) if field.init
    }
    return {"type": name, **settings}


def rules_to_json(rules: Rules) -> dict[str, Any]:
    """``rules`` as a record's ``"rules"`` object.

    Raises:
        RecordError: a policy's class is not registered.

    """
    game = rules.name if _made_by_its_game(rules) else "custom"
    named = {} if game == rules.name else {"name": rules.name}
    return {
        "game": game,
        **named,
        "players": rules.players,
        "policies": {family: _policy(getattr(rules, family)) for family in POLICY_FAMILIES},
    }


def _made_by_its_game(rules: Rules) -> bool:
    """Whether the game ``rules`` is named after makes exactly these rules.

    Only then may a record name the game, whose own checks reading it runs
    again; rules changed past those checks (``attrs.evolve``) are written as
    custom rules under the same name, and read back equal.
    """
    game = VARIANTS.get(rules.name)
    if game is None:
        return False
    policies = {family: getattr(rules, family) for family in POLICY_FAMILIES}
    try:
        return bool(game.build(rules.players, **policies) == rules)
    except CheatRulesError:
        return False


# -- reading -----------------------------------------------------------------


def _read_policy(family: str, data: object) -> object:
    where = f"rules.policies.{family}"
    name = get(data, "type", str, where)
    cls = policy_class(name)
    if cls is None:
        raise RecordError(
            N_("%(where)s: unknown policy type %(name)s"), where=where, name=repr(name)
        )
    assert isinstance(data, dict)
    settings = {key: value for key, value in data.items() if key != "type"}
    allowed = {field.name for field in attrs.fields(cls) if field.init}
    unknown = sorted(set(settings) - allowed)
    if unknown:
        known: str | Message = ", ".join(sorted(allowed)) or Message(N_("none"))
        raise RecordError(
            N_("%(where)s: unknown setting %(unknown)s for %(name)s (known: %(known)s)"),
            where=where,
            unknown=", ".join(unknown),
            name=name,
            known=known,
        )
    for key, value in settings.items():
        if not _plain(value):
            raise RecordError(
                N_("%(where)s.%(key)s must be a number, text, true/false or a list"),
                where=where,
                key=key,
            )
    types = attrs.fields_dict(_resolved(cls))
    typed = {
        key: _typed(types[key].type, value, f"{where}.{key}") for key, value in settings.items()
    }
    return checked(where, lambda: cls(**typed))


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
        raise RecordError(N_("%(where)s: %(error)s"), where=where, error=error) from None
    return value


def _plain(value: object) -> bool:
    if isinstance(value, list):
        return all(isinstance(item, (str, int)) and not isinstance(item, bool) for item in value)
    # A bool is a setting too (compulsory=true), and so is null (hand_size=null).
    return value is None or isinstance(value, (str, int))


def read_rules(data: object) -> Rules:
    """The rules a record's ``"rules"`` object holds, checked as the game's factory checks them.

    Raises:
        RecordError: an unknown game, family, policy or setting, or rules
            that cannot be played; the message names the field.

    """
    game = get(data, "game", str, "rules")
    if game not in _GAMES:
        raise RecordError(
            N_("rules.game: unknown game %(game)s; known: %(known)s"),
            game=repr(game),
            known=", ".join(_GAMES),
        )
    players = get(data, "players", int, "rules")
    found = get(data, "policies", dict, "rules")
    unknown = sorted(set(found) - set(POLICY_FAMILIES))
    if unknown:
        raise RecordError(
            N_("rules.policies: unknown family %(unknown)s; known: %(known)s"),
            unknown=", ".join(unknown),
            known=", ".join(POLICY_FAMILIES),
        )
    chosen: dict[str, Any] = {family: _read_policy(family, found[family]) for family in found}
    named = VARIANTS.get(game)
    if named is not None:
        # A named game's own checks hold too (its player count, its deck).
        made: Rules = checked("rules", lambda: named.build(players, **chosen))
        return made
    name = data.get("name", "custom") if isinstance(data, dict) else "custom"
    if not isinstance(name, str):
        raise RecordError(N_("rules.name must be text; got %(got)s"), got=repr(name))
    custom: Rules = checked("rules", lambda: Rules(players=players, name=name, **chosen))
    return custom
