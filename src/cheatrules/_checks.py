"""Small shared checks for the values the library accepts: whole numbers, flags, ranks, words.

Each public value says what a field accepts in one line, with a validator
made here; a refused value raises the library's own error (a ``ValueError``
subclass), whose message names the class, the field and what it accepts:
``AfterPickup.compulsory must be true or false; got Rank.ACE``.

Wherever a whole number is taken, anything :func:`operator.index` accepts
is taken too (a NumPy integer, say) and stored as a plain ``int``, so that
records and hashes never see another type; ``True`` and ``False`` are
refused, since a flag where a count belongs is a mistake.

The number and flag checks are made in :mod:`cheatrules._numbers` and
offered here too: the cards use them there, and the rank checks here use
the cards, so neither module needs the other back.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import Any

from cheatrules._numbers import Validator, index, to_flag, whole, whole_number
from cheatrules._numbers import field_name as _name
from cheatrules.cards import Rank, ranks
from cheatrules.errors import N_, CardError, CheatRulesError, RulesError, either

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
    "to_flag",
    "to_rank",
    "to_ranks",
    "whole",
    "whole_number",
]


def seats(value: Any) -> tuple[int, ...]:
    """A converter: a tuple of plain ints from any iterable of whole numbers; else unchanged."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        return value  # type: ignore[no-any-return]
    return tuple(index(item) for item in value)


def flag(error: type[CheatRulesError] = RulesError) -> Validator:
    """A validator: ``True`` or ``False``, nothing else (use with ``converter=to_flag``)."""

    def check(instance: object, attribute: Any, value: object) -> None:
        if not isinstance(value, bool):
            raise error(
                N_("%(what)s must be true or false; got %(got)s"),
                what=_name(instance, attribute),
                got=repr(value),
            )

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
            what, got = _name(instance, attribute), repr(value)
            if high is not None:
                raise error(
                    N_("%(what)s must be a number from %(low)s to %(high)s; got %(got)s"),
                    what=what,
                    low=low,
                    high=high,
                    got=got,
                )
            if above:
                raise error(
                    N_("%(what)s must be a number above %(low)s; got %(got)s"),
                    what=what,
                    low=low,
                    got=got,
                )
            raise error(
                N_("%(what)s must be a number of at least %(low)s; got %(got)s"),
                what=what,
                low=low,
                got=got,
            )

    return check


def one_of(*words: str, error: type[CheatRulesError] = RulesError) -> Validator:
    """A validator: one of ``words``."""

    def check(instance: object, attribute: Any, value: object) -> None:
        if not isinstance(value, str) or value not in words:
            raise error(
                N_("%(what)s must be %(allowed)s; got %(got)s"),
                what=_name(instance, attribute),
                allowed=either(repr(word) for word in words),
                got=repr(value),
            )

    return check


def optional(validator: Validator, what: str = "None") -> Validator:
    """A validator: ``None``, or whatever ``validator`` accepts."""

    def check(instance: object, attribute: Any, value: object) -> None:
        if value is None:
            return
        try:
            validator(instance, attribute, value)
        except CheatRulesError as error:
            raise type(error)(N_("%(error)s (or %(what)s)"), error=error, what=what) from None

    return check


def to_rank(value: Rank | str) -> Rank:
    """A converter: a :class:`Rank` from its text; anything else unchanged, for :func:`rank`."""
    try:
        return Rank.parse(value)
    except CardError:
        return value  # type: ignore[return-value]


def to_ranks(value: str | Rank | Iterable[Rank | str]) -> tuple[Rank, ...]:
    """A converter: a tuple of ranks from text or an iterable; anything else unchanged."""
    try:
        return ranks(value)
    except CardError:
        return value  # type: ignore[return-value]


def rank(error: type[CheatRulesError] = RulesError) -> Validator:
    """A validator: a rank players announce (never the joker); use with ``converter=to_rank``."""

    def check(instance: object, attribute: Any, value: object) -> None:
        if not isinstance(value, Rank) or value is Rank.JOKER:
            raise error(
                N_("%(what)s must be a rank such as 'A', '7' or 'K'; got %(got)s"),
                what=_name(instance, attribute),
                got=repr(value),
            )

    return check


def rank_tuple(error: type[CheatRulesError] = RulesError) -> Validator:
    """A validator: a tuple of ranks players announce; use with ``converter=to_ranks``."""

    def check(instance: object, attribute: Any, value: object) -> None:
        if not isinstance(value, tuple) or not all(
            isinstance(item, Rank) and item is not Rank.JOKER for item in value
        ):
            raise error(
                N_("%(what)s must be ranks such as 'Q 7'; got %(got)s"),
                what=_name(instance, attribute),
                got=repr(value),
            )

    return check
