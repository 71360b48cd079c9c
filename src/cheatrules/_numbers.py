"""Whole numbers and flags: the checks that need no card.

They are kept apart from :mod:`cheatrules._checks`, which re-exports them,
so that :mod:`cheatrules.cards` can use them while the rank checks there
use the cards: neither module imports the other back.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, SupportsIndex

from cheatrules.errors import N_, CheatRulesError, RulesError

__all__ = ["Validator", "field_name", "index", "to_flag", "whole", "whole_number"]

#: An attrs validator: called with the instance, the attribute and the value.
Validator = Callable[[Any, Any, Any], None]


def index(value: SupportsIndex) -> int:
    """``value`` as a plain ``int`` when :func:`operator.index` takes it (never a bool).

    Anything else is returned unchanged, for the field's validator to refuse
    with a message that names the field.
    """
    if type(value) is int or isinstance(value, bool):
        return value
    try:
        return operator.index(value)
    except TypeError:
        return value  # type: ignore[return-value]


def to_flag(value: Any) -> Any:
    """A NumPy bool as a plain ``bool``; anything else unchanged, for a validator to judge.

    >>> import numpy as np
    >>> to_flag(np.True_) is True
    True
    """
    kind = type(value)
    if kind.__module__ == "numpy" and kind.__name__ in ("bool_", "bool"):
        return bool(value)
    return value


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _refuse(
    value: object, what: str, low: int | None, high: int | None, error: type[CheatRulesError]
) -> CheatRulesError:
    got = repr(value)
    if low is not None and high is not None:
        return error(
            N_("%(what)s must be a whole number from %(low)s to %(high)s; got %(got)s"),
            what=what,
            low=low,
            high=high,
            got=got,
        )
    if low is not None:
        return error(
            N_("%(what)s must be a whole number of at least %(low)s; got %(got)s"),
            what=what,
            low=low,
            got=got,
        )
    if high is not None:
        return error(
            N_("%(what)s must be a whole number of at most %(high)s; got %(got)s"),
            what=what,
            high=high,
            got=got,
        )
    return error(N_("%(what)s must be a whole number; got %(got)s"), what=what, got=got)


def whole_number(
    value: object,
    what: str,
    low: int | None = None,
    high: int | None = None,
    error: type[CheatRulesError] = RulesError,
) -> int:
    """``value`` as a plain ``int``, or ``error`` naming ``what`` and the range allowed.

    >>> whole_number(3, "seed")
    3
    >>> whole_number(True, "dealer", 0, 3)
    Traceback (most recent call last):
    ...
    cheatrules.errors.RulesError: dealer must be a whole number from 0 to 3; got True
    """
    number = index(value)  # type: ignore[arg-type]
    if not _is_whole(number) or (low is not None and number < low):
        raise _refuse(value, what, low, high, error)
    if high is not None and number > high:
        raise _refuse(value, what, low, high, error)
    return number


def field_name(instance: object, attribute: Any) -> str:
    """The field a validator judges, as an error names it: ``Deck.packs``."""
    return f"{type(instance).__name__}.{attribute.name}"


def whole(
    low: int | None = None, high: int | None = None, error: type[CheatRulesError] = RulesError
) -> Validator:
    """A validator: a whole number from ``low`` to ``high`` (use with ``converter=index``)."""

    def check(instance: object, attribute: Any, value: object) -> None:
        if type(value) is int and (low is None or value >= low) and (high is None or value <= high):
            return  # the common case, without building the field's name
        whole_number(value, field_name(instance, attribute), low, high, error)

    return check
