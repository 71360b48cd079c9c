"""The policy registry: the names records give policy classes.

Every policy class the library ships, and :class:`~cheatrules.Deck`, is
registered under its class name when this module is imported;
:func:`register_policy` (public as ``cheatrules.register_policy``) adds a
class of your own. Records write a policy as its registered name and its
settings, and read it back through :func:`policy_class`.
"""

from __future__ import annotations

import attrs

from cheatrules import policies
from cheatrules.cards import Deck
from cheatrules.errors import N_, RecordError

__all__ = ["policy_class", "policy_name", "register_policy", "registered"]

_POLICIES: dict[str, type] = {}


def register_policy(cls: type, name: str | None = None) -> type:
    """Let records name a policy class of your own (usable as a class decorator).

    The class must be an ``attrs`` class whose fields hold JSON-friendly
    values (numbers, strings, ranks, tuples of them).

    Args:
        cls: the policy class.
        name: the name records give it; the class name if left out.

    Returns:
        ``cls`` itself, so that the function works as a decorator.

    Raises:
        RecordError: the name is taken by another class, or ``cls`` is not
            an attrs class.

    """
    if not attrs.has(cls):
        raise RecordError(
            N_("only attrs classes can be named in records; got %(got)s"), got=repr(cls)
        )
    name = name or cls.__name__
    if _POLICIES.get(name, cls) is not cls:
        raise RecordError(N_("a policy named %(name)s is registered already"), name=repr(name))
    _POLICIES[name] = cls
    return cls


def policy_class(name: str) -> type | None:
    """The class registered as ``name``, or ``None``."""
    return _POLICIES.get(name)


def policy_name(cls: type) -> str | None:
    """The name ``cls`` is registered under (the first, if several), or ``None``."""
    return next((key for key, known in _POLICIES.items() if known is cls), None)


def registered() -> dict[str, type]:
    """Every registered name and its class (a copy)."""
    return dict(_POLICIES)


register_policy(Deck)
for _name in policies.__all__:
    _item = getattr(policies, _name)
    if isinstance(_item, type) and attrs.has(_item):
        register_policy(_item)
