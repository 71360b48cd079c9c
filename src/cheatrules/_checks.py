"""Small shared checks for the values the library accepts: whole numbers, flags, ranks, words.

Each public value says what a field accepts in one line, with a validator
made here; a refused value raises the library's own error (a ``ValueError``
subclass), whose message names the class, the field and what it accepts:
``AfterPickup.compulsory must be true or false; got Rank.ACE``.

Wherever a whole number is taken, anything :func:`operator.index` accepts
is taken too (a NumPy integer, say) and stored as a plain ``int``, so that
records and hashes never see another type; ``True`` and ``False`` are
refused, since a flag where a count belongs is a mistake.
"""

from __future__ import annotations

import math
import numbers
import operator
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, SupportsIndex

from cheatrules.errors import CardError, CheatRulesError, RulesError

if TYPE_CHECKING:
    from cheatrules.cards import Rank

__all__ = [
    "Validator",
    "flag",
    "index",
    "number",
    "one_of",
    "optional",
    "rank",
    "rank_tuple",
    "seats",
    "to_rank",
    "to_ranks",
    "whole",
    "whole_number",
]

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


def seats(value: Any) -> tuple[int, ...]:
    """A converter: a tuple of plain ints from any iterable of whole numbers; else unchanged."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        return value  # type: ignore[no-any-return]
    return tuple(index(item) for item in value)


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _range_text(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" of at least {low}"
    if high is not None:
        return f" of at most {high}"
    return ""


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
        raise error(f"{what} must be a whole number{_range_text(low, high)}; got {value!r}")
    if high is not None and number > high:
        raise error(f"{what} must be a whole number{_range_text(low, high)}; got {value!r}")
    return number


def _name(instance: object, attribute: Any) -> str:
    return f"{type(instance).__name__}.{attribute.name}"


def whole(
    low: int | None = None, high: int | None = None, error: type[CheatRulesError] = RulesError
) -> Validator:
    """A validator: a whole number from ``low`` to ``high`` (use with ``converter=index``)."""

    def check(instance: object, attribute: Any, value: object) -> None:
        whole_number(value, _name(instance, attribute), low, high, error)

    return check


def flag(error: type[CheatRulesError] = RulesError) -> Validator:
    """A validator: ``True`` or ``False``, nothing else (use with ``converter=to_flag``)."""

    def check(instance: object, attribute: Any, value: object) -> None:
        if not isinstance(value, bool):
            raise error(f"{_name(instance, attribute)} must be true or false; got {value!r}")

    return check


def number(
    low: float,
    high: float | None = None,
    *,
    above: bool = False,
    error: type[CheatRulesError] = RulesError,
) -> Validator:
    """A validator: a finite real number (never a bool) from ``low`` (``above`` it) to ``high``."""

    def check(instance: object, attribute: Any, value: object) -> None:
        if (
            not isinstance(value, numbers.Real)
            or isinstance(value, bool)
            or not math.isfinite(value)
            or float(value) < low
            or (above and float(value) == low)
            or (high is not None and float(value) > high)
        ):
            if high is not None:
                span = f"from {low} to {high}"
            else:
                span = f"above {low}" if above else f"of at least {low}"
            raise error(f"{_name(instance, attribute)} must be a number {span}; got {value!r}")

    return check


def one_of(*words: str, error: type[CheatRulesError] = RulesError) -> Validator:
    """A validator: one of ``words``."""

    def check(instance: object, attribute: Any, value: object) -> None:
        if not isinstance(value, str) or value not in words:
            allowed = " or ".join(repr(word) for word in words)
            raise error(f"{_name(instance, attribute)} must be {allowed}; got {value!r}")

    return check


def optional(validator: Validator, what: str = "None") -> Validator:
    """A validator: ``None``, or whatever ``validator`` accepts."""

    def check(instance: object, attribute: Any, value: object) -> None:
        if value is None:
            return
        try:
            validator(instance, attribute, value)
        except CheatRulesError as error:
            raise type(error)(f"{error} (or {what})") from None

    return check


def to_rank(value: Rank | str) -> Rank:
    """A converter: a :class:`Rank` from its text; anything else unchanged, for :func:`rank`."""
    from cheatrules.cards import Rank

    try:
        return Rank.parse(value)
    except CardError:
        return value  # type: ignore[return-value]


def to_ranks(value: str | Rank | Iterable[Rank | str]) -> tuple[Rank, ...]:
    """A converter: a tuple of ranks from text or an iterable; anything else unchanged."""
    from cheatrules.cards import ranks

    try:
        return ranks(value)
    except CardError:
        return value  # type: ignore[return-value]


_RANK_WORDS = "a rank such as 'A', '7' or 'K'"


def rank(error: type[CheatRulesError] = RulesError) -> Validator:
    """A validator: a rank players announce (never the joker); use with ``converter=to_rank``."""

    def check(instance: object, attribute: Any, value: object) -> None:
        from cheatrules.cards import Rank

        if not isinstance(value, Rank) or value is Rank.JOKER:
            raise error(f"{_name(instance, attribute)} must be {_RANK_WORDS}; got {value!r}")

    return check


def rank_tuple(error: type[CheatRulesError] = RulesError) -> Validator:
    """A validator: a tuple of ranks players announce; use with ``converter=to_ranks``."""

    def check(instance: object, attribute: Any, value: object) -> None:
        from cheatrules.cards import Rank

        if not isinstance(value, tuple) or not all(
            isinstance(item, Rank) and item is not Rank.JOKER for item in value
        ):
            raise error(f"{_name(instance, attribute)} must be ranks such as 'Q 7'; got {value!r}")

    return check
