"""Helpers for real-time tables, where players shout instead of taking turns.

In Cheat anyone may call "Cheat!" after a claim, and several may call at
once; the rule books give the call to the first challenger clockwise from
the declarer. The engine asks the opponents one at a time in exactly that
order, so a front-end that collects the calls made during a short window can
feed them in with :func:`settle_window`.
"""

from __future__ import annotations

from collections.abc import Iterable

from cheatrules.actions import Accept, Challenge
from cheatrules.decision import Window
from cheatrules.errors import N_, IllegalActionError
from cheatrules.state import GameState

__all__ = ["settle_window"]


def settle_window(state: GameState, callers: Iterable[int]) -> GameState:
    """Close the challenge window given the seats that called "Cheat!" during it.

    The first caller clockwise from the declarer challenges; everyone asked
    before that caller accepts; with no callers, everyone accepts.

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(4), hands=["A♣ 5♣", "2♥ 3♣", "A♦ 4♣", "3♥ 6♣"])
    >>> state = state.apply(cr.Play("5♣", "A"))            # seat 0 bluffs
    >>> after = settle_window(state, callers={3, 2})       # seats 2 and 3 shout together
    >>> after.events[-3]                                   # seat 1 let it pass; seat 2 comes first
    Challenged(seat=2, declarer=0, earlier=False)

    Raises:
        IllegalActionError: no challenge window is open, or a caller is the
            declarer, a seat that has left, or not a seat at the table.

    """
    window = state.decision
    if not isinstance(window, Window):
        raise IllegalActionError(
            N_("no challenge window is open: the phase is %(phase)s"), phase=state.phase.value
        )
    claim = window.claim
    shouted = set(callers)
    allowed = set(state.rules.window.askers(state.seating, claim.seat))
    wrong = sorted(shouted - allowed, key=repr)
    if wrong:
        raise IllegalActionError(
            N_(
                "only seat %(seat)s's opponents still in the game may challenge its claim "
                "(seats %(allowed)s); got %(got)s"
            ),
            seat=claim.seat,
            allowed=" ".join(map(str, sorted(allowed))),
            got=repr(wrong),
        )
    while isinstance(state.decision, Window) and state.to_move not in shouted:
        state = state.apply(Accept())
    if isinstance(state.decision, Window):
        state = state.apply(Challenge())
    return state
