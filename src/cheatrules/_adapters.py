"""What the PettingZoo, Gymnasium and OpenSpiel adapters share: the game length, the box, the pay.

Imported only by those modules, once each has imported NumPy (their
extras install it); the core never imports it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy

from cheatrules import _checks
from cheatrules.errors import RulesError
from cheatrules.information_state import InformationStateEncoder
from cheatrules.seating import Seating
from cheatrules.state import GameState
from cheatrules.variants import payouts, reward_scheme, rewards

__all__ = [
    "DEFAULT_MAX_STEPS",
    "FLOAT32_MAX",
    "box_bounds",
    "cut_rewards",
    "max_steps",
]

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


def cut_rewards(state: GameState, scheme: str) -> tuple[float, ...]:
    """Every seat's reward for a game cut short now, by its standing: fewer cards is better.

    The seats still in are put in order of hand size, fewest cards first,
    after the seats already out (in the order they left); the rules'
    ending then says who would win and lose had they left in that order,
    and ``scheme`` pays that ending as :func:`cheatrules.variants.rewards`
    pays a finished game. Seats holding as many cards as each other share
    equally what their places pay. A finished game pays its own rewards.

    So the seat holding the most cards, alone, gets the lowest reward a
    finished game pays, what losing pays: for it a cut never pays more
    than playing on. The rewards sum as a finished game's do (``2 - P``
    where the first out wins and ``P - 2`` where the last one in loses,
    under win-loss; 0 under placing).

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["7♣", "A♠ 2♥", "A♥ 9♣ 3♦"], dealer=2)
    >>> cut_rewards(state, "win-loss"), cut_rewards(state, "placing")
    ((1.0, -1.0, -1.0), (1.0, -0.5, -0.5))
    >>> tied = cr.deal(cr.verish(3), hands=["7♣ 8♣", "A♠ 9♥", "A♥ 9♣ 10♦"], dealer=2)
    >>> cut_rewards(tied, "win-loss"), cut_rewards(tied, "placing")
    ((1.0, 1.0, -1.0), (0.5, 0.5, -1.0))

    Raises:
        RulesError: ``scheme`` is not one of :data:`cheatrules.variants.REWARDS`.

    """
    scheme = reward_scheme(scheme)
    if state.is_over:
        return rewards(state, scheme)
    players = state.players
    sizes = state.hand_sizes
    ending = state.rules.ending
    seating = Seating(players, state.finishing_order)
    standing = sorted(seating.active, key=lambda seat: (sizes[seat], seat))
    for seat in standing:
        if ending.is_over(seating):
            break
        seating = seating.leave(seat)
    winners, losers = ending.result(seating)
    paid = payouts(players, seating.out, winners, losers, scheme, Fraction)
    shared = list(paid)
    for size in {sizes[seat] for seat in standing}:
        tied = [seat for seat in standing if sizes[seat] == size]
        for seat in tied:
            shared[seat] = sum((paid[other] for other in tied), Fraction()) / len(tied)
    # The seats out keep, to the last bit, what the adapters paid them as they left.
    so_far = rewards(state, scheme)
    out = state.finishing_order
    return tuple(so_far[seat] if seat in out else float(shared[seat]) for seat in range(players))
