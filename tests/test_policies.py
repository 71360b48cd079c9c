"""Each policy of the English composition, on its own."""

from __future__ import annotations

import pytest

import cheatrules as cr
from cheatrules import STANDARD_RANKS, Rank
from cheatrules.policies import (
    Ascending,
    AskEachOpponent,
    ClaimSize,
    DealersLeft,
    DeclarersLeft,
    FirstOutWins,
    NoDiscards,
    WholeGroup,
)

FULL = STANDARD_RANKS
SHORT = cr.Deck.short().ranks


def test_ascending_starts_with_aces_and_climbs() -> None:
    rule = Ascending()
    assert rule.allowed(None, True, FULL) == (Rank.ACE,)
    assert rule.allowed(Rank.ACE, False, FULL) == (Rank.TWO,)
    assert rule.allowed(Rank.TEN, True, FULL) == (Rank.JACK,)  # a challenge changes nothing
    assert rule.allowed(Rank.KING, False, FULL) == (Rank.ACE,)


def test_ascending_skips_ranks_the_deck_lacks() -> None:
    rule = Ascending()
    assert rule.allowed(Rank.ACE, False, SHORT) == (Rank.SIX,)
    assert rule.allowed(Rank.KING, False, SHORT) == (Rank.ACE,)
    assert rule.allowed(Rank.TWO, False, SHORT) == (Rank.SIX,)  # a rank outside the deck
    assert Ascending(start=Rank.TWO).allowed(None, True, SHORT) == (Rank.ACE,)


@pytest.mark.parametrize("start", list(STANDARD_RANKS))
def test_ascending_from_any_start_visits_every_rank_in_thirteen_claims(start: Rank) -> None:
    rule = Ascending(start=start)
    seen = [rule.allowed(None, True, FULL)[0]]
    for _ in range(12):
        seen.append(rule.allowed(seen[-1], False, FULL)[0])
    assert seen[0] is start
    assert sorted(seen) == list(STANDARD_RANKS)


def test_claim_size_caps_at_the_hand() -> None:
    assert list(ClaimSize().sizes(10)) == [1, 2, 3, 4]
    assert list(ClaimSize().sizes(2)) == [1, 2]
    assert list(ClaimSize(2, 3).sizes(1)) == [1]  # a hand below the smallest claim lays it all
    assert list(ClaimSize(3, 4).sizes(2)) == [2]
    assert list(ClaimSize(2, 3).sizes(0)) == []
    assert ClaimSize(2, 4).allows(1, hand_size=1) and not ClaimSize(2, 4).allows(1, hand_size=3)


def test_ask_each_opponent_skips_the_declarer_and_players_who_left() -> None:
    window = AskEachOpponent()
    assert window.askers(cr.Seating(5), 3) == (4, 0, 1, 2)
    assert window.askers(cr.Seating(5, out=(0,)), 3) == (4, 1, 2)
    assert window.on_turn is False


def test_whole_group_needs_every_card_to_match() -> None:
    check, chance = WholeGroup(), cr.policies.Chance("0")
    group = cr.cards("7c 7d 7h Ks")
    assert check.shown(group, chance) == group
    assert cr.policies.holds(cr.cards("7c 7d 7h 7s"), Rank.SEVEN)
    assert not cr.policies.holds(group, Rank.SEVEN)


def test_one_card_shows_a_card_of_the_group_each_equally_often() -> None:
    check, group = cr.policies.OneCard(), cr.cards("7c 7d 7h Ks")
    drawn = [check.shown(group, cr.policies.Chance(str(seed)))[0] for seed in range(400)]
    assert {card: drawn.count(card) > 60 for card in group} == dict.fromkeys(group, True)


def test_declarers_left_plays_next() -> None:
    turn = DeclarersLeft()
    assert turn.opener(cr.Seating(4), declarer=3, challenger=1, truthful=True) == 0
    assert turn.opener(cr.Seating(4, out=(0,)), declarer=3, challenger=1, truthful=False) == 1


def test_dealers_left_opens() -> None:
    assert DealersLeft().first(0, ((), (), ())) == 1
    assert DealersLeft().first(2, ((), (), ())) == 0


def test_no_discards_offers_nothing() -> None:
    assert NoDiscards().after_pickup(cr.cards("Qc Qd Qh Qs")) is None
    assert cr.policies.AfterPickup().after_pickup(cr.cards("Qc Qd Qh 7s")) == ()


def test_first_out_wins() -> None:
    ending = FirstOutWins()
    assert not ending.is_over(cr.Seating(3))
    assert ending.is_over(cr.Seating(3, out=(1,)))
    assert ending.result(cr.Seating(3, out=(1,))) == ((1,), (0, 2))


def test_seating() -> None:
    seating = cr.Seating(4)
    assert seating.active == (0, 1, 2, 3)
    assert seating.next_active(3) == 0
    after = seating.leave(0).leave(2)
    assert after.out == (0, 2)
    assert after.active == (1, 3)
    assert after.next_active(3) == 1
    assert after.next_active(1) == 3
    assert after.others_clockwise(1) == (3,)
    assert not after.is_active(2)
    alone = after.leave(1)
    assert alone.next_active(3) == 3
    assert alone.others_clockwise(3) == ()


def test_english_with_placings_plays_on_until_one_player_is_left() -> None:
    rules = cr.english(4, ending=cr.policies.LastInLoses())
    state = cr.deal(rules, hands=["A♣", "2♥ 9♣", "3♥ 8♣", "4♦ 6♦"])
    state = state.apply(cr.Play("A♣", "A"))
    for _ in range(3):
        state = state.apply(cr.Accept())
    assert not state.is_over
    assert state.finishing_order == (0,)
    assert (state.to_move, state.required_rank) == (1, Rank.TWO)
    state = state.apply(cr.Play("2♥", "2"))
    assert state.to_move == 2  # seat 0 is out and no longer asked


def test_english_holding_the_rank_until_a_challenge() -> None:
    rules = cr.english(3, ranks=cr.policies.HoldUntilChallenge())
    state = cr.deal(rules, hands=["7♣ 5♦", "7♦ 9♣", "3♥ 8♣"])
    assert len(state.allowed_ranks) == 13
    state = state.apply(cr.Play("7♣", "7")).apply(cr.Accept()).apply(cr.Accept())
    assert state.required_rank is Rank.SEVEN
    state = state.apply(cr.Play("9♣", "7")).apply(cr.Challenge())
    assert state.required_rank is None
