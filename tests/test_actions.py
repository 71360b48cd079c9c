"""Actions: plays, challenges, acceptances and discards as values."""

from __future__ import annotations

import pytest

import cheatrules as cr
from cheatrules import Rank


def test_play_reads_cards_and_rank_from_text() -> None:
    play = cr.Play("7c Kd", "7")
    assert play.cards == cr.cards("7♣ K♦")
    assert play.rank is Rank.SEVEN
    assert play.count == 2
    assert not play.is_truthful
    assert str(play) == "Play(7♣ K♦ as 7)"
    assert play == cr.Play(cr.cards("7♣ K♦"), Rank.SEVEN)


def test_play_names_bad_input() -> None:
    with pytest.raises(cr.CardError, match="'Zz'"):
        cr.Play("Zz", "7")
    with pytest.raises(cr.CardError, match="unknown rank '77'"):
        cr.Play("7c", "77")
    with pytest.raises(cr.CardError, match="cards must be"):
        cr.Play(7, "7")  # type: ignore[arg-type]


def test_discard_reads_ranks_in_any_form_and_sorts_them() -> None:
    assert cr.Discard("Q 7").ranks == (Rank.SEVEN, Rank.QUEEN)
    assert cr.Discard(["Q", Rank.SEVEN]) == cr.Discard("7 Q")
    assert cr.Discard(()).ranks == ()
    assert cr.Discard(Rank.ACE).ranks == (Rank.ACE,)
    assert str(cr.Discard("Q")) == "Discard(Q)"


@pytest.mark.parametrize("bad", [None, 7, 7.5, True, b"Q"])
def test_discard_names_bad_input(bad: object) -> None:
    with pytest.raises(cr.CardError, match="ranks must be text"):
        cr.Discard(bad)  # type: ignore[arg-type]


def test_actions_are_frozen_hashable_values() -> None:
    assert len({cr.Challenge(), cr.Challenge(), cr.Accept(), cr.Discard(())}) == 3
    with pytest.raises(AttributeError):
        cr.Play("7c", "7").rank = Rank.ACE  # type: ignore[misc]
