"""What the PettingZoo, Gymnasium and OpenSpiel adapters share: the game length and the box.

Imported only by those modules, once each has imported NumPy (their
extras install it); the core never imports it.
"""

from __future__ import annotations

from typing import Any

import numpy

from cheatrules import _checks
from cheatrules.errors import RulesError
from cheatrules.information_state import InformationStateEncoder

__all__ = ["DEFAULT_MAX_STEPS", "FLOAT32_MAX", "box_bounds", "max_steps"]

#: The decisions (every seat's, chance not counted) after which a game is cut short.
DEFAULT_MAX_STEPS = 2000

#: The upper bound of an entry documented as "0 and up": finite, as Gymnasium's checker asks.
FLOAT32_MAX = float(numpy.finfo(numpy.float32).max)


def box_bounds(encoder: InformationStateEncoder) -> tuple[Any, Any]:
    """The encoder's bounds as two float32 arrays, "0 and up" capped at :data:`FLOAT32_MAX`."""
    low, high = encoder.bounds()
    top = numpy.minimum(numpy.asarray(high, dtype=numpy.float64), FLOAT32_MAX)
    return numpy.asarray(low, dtype=numpy.float32), top.astype(numpy.float32)


def max_steps(value: object, *, optional: bool = True) -> int | None:
    """``value`` checked as a ``max_steps`` setting: a whole number of 1 or more (or ``None``).

    Raises:
        RulesError: anything else; the message says what is allowed.

    """
    if value is None and optional:
        return None
    return _checks.whole_number(value, "max_steps", 1, None, RulesError)
