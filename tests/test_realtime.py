"""settle_window: simultaneous calls fed to the engine in priority order."""

from __future__ import annotations

import pytest

import cheatrules as cr
from cheatrules import Phase


def window() -> cr.GameState:
    state = cr.deal(cr.english(4), hands=["A♣ 5♣", "2♥ 3♣", "A♦ 4♣", "3♥ 6♣"])
    return state.apply(cr.Play("5♣", "A"))


def test_the_first_caller_clockwise_from_the_declarer_challenges() -> None:
    state = cr.settle_window(window(), callers=[3, 1])
    assert state.events[-3] == cr.Challenged(seat=1, declarer=0)
    state = cr.settle_window(window(), callers=[3])
    assert [type(event) for event in state.events[-5:]] == [
        cr.Accepted,
        cr.Accepted,
        cr.Challenged,
        cr.Revealed,
        cr.PileTaken,
    ]


def test_with_no_callers_everyone_accepts() -> None:
    state = cr.settle_window(window(), callers=())
    assert state.phase is Phase.PLAY
    assert state.events[-3:] == (cr.Accepted(1), cr.Accepted(2), cr.Accepted(3))


def test_wrong_callers_and_closed_windows_are_refused() -> None:
    with pytest.raises(cr.IllegalActionError, match=r"only seat 0's opponents .* got \[0\]"):
        cr.settle_window(window(), callers=[0])
    with pytest.raises(cr.IllegalActionError, match="no challenge window is open"):
        cr.settle_window(cr.deal(cr.english(3), seed=1), callers=[1])
