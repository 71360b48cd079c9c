"""How hard the property tests try: sized for the README's test command, or for long runs.

The README's test command runs every property with the number of examples
written beside it, sized so that the whole command stays under three minutes
on a two-core machine. For a deeper run, multiply every budget::

    CHEATRULES_EXAMPLES=20 python -m pytest

Seeded loops that stand in for a property (``for seed in range(...)``) use
:func:`scaled` so that they grow with it.
"""

from __future__ import annotations

import os
from typing import TypeVar

from hypothesis import HealthCheck, settings

_VARIABLE = "CHEATRULES_EXAMPLES"
_Case = TypeVar("_Case")


def _scale() -> int:
    text = os.environ.get(_VARIABLE, "1")
    try:
        scale = int(text)
    except ValueError:
        raise ValueError(f"{_VARIABLE} must be a whole number of 1 or more; got {text!r}") from None
    if scale < 1:
        raise ValueError(f"{_VARIABLE} must be a whole number of 1 or more; got {text!r}")
    return scale


#: How many times its usual budget each property tries (``CHEATRULES_EXAMPLES``, default 1).
SCALE = _scale()


def scaled(count: int) -> int:
    """``count`` times :data:`SCALE`: the size of a seeded loop that stands in for a property."""
    return count * SCALE


def examples(count: int) -> settings:
    """Hypothesis settings for a property that tries ``count`` examples (times :data:`SCALE`).

    No deadline: the machine is shared and a slow example is not a failure.
    Games are slow to generate, so the health check for that is off too.
    """
    return settings(
        max_examples=scaled(count),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def tiered(usual: list[_Case], deeper: list[_Case]) -> list[_Case]:
    """The cases of a parametrized test: ``usual`` always, ``deeper`` too in a deeper run.

    The README's test command runs one case of each slow pinned position;
    ``CHEATRULES_EXAMPLES`` above 1 runs every case written down.
    """
    return usual + deeper if SCALE > 1 else list(usual)
