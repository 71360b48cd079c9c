"""Verish' Ne Verish', the Russian form: one scenario per rule of docs/rules/verish.md."""

from __future__ import annotations

import pytest

import cheatrules as cr
from cheatrules import STANDARD_RANKS, Challenge, Discard, Phase, Play, Rank

SHORT_RANKS = cr.Deck.short().ranks


def worked_example(laid: str = "K♥ 7♣") -> cr.GameState:
    """The rule book's round: four cards on the table, then A (seat 0) adds "two kings".

    Seats: A=0, B=1, C=2; the dealer is seat 0, so B opens. B lays two cards
    as Kings (a lie), C adds two more (another lie), and A adds two.
    """
    kings = "K♥ K♦" if laid == "K♥ K♦" else "K♥ 7♣"
    state = cr.deal(
        cr.verish(3),
        dealer=0,
        hands=[f"{kings} 10♦", "6♠ 6♣ J♠", "8♠ 8♣ Q♥"],
        hidden="A♠",
    )
    state = state.apply(Play("6♠ 6♣", "K")).apply(Play("8♠ 8♣", "K"))
    assert (state.pile_size, state.to_move) == (4, 0)
    return state.apply(Play(laid, "K"))


# -- setup -----------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 7))
def test_two_to_six_players(players: int) -> None:
    assert cr.verish(players).players == players


@pytest.mark.parametrize("players", [0, 1, 7, 10])
def test_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(
        cr.RulesError, match=f"Verish' Ne Verish' is played by 2 to 6 players; got {players}"
    ):
        cr.verish(players)


def test_thirty_six_cards_for_two_or_three_players_fifty_two_for_four_to_six() -> None:
    assert [cr.verish(players).deck.size for players in range(2, 7)] == [36, 36, 52, 52, 52]
    assert cr.verish(2).deck.ranks == SHORT_RANKS


def test_the_pack_may_be_chosen() -> None:
    assert cr.verish(3, pack=52).deck.size == 52
    assert cr.verish(5, pack=36).deck.size == 36
    with pytest.raises(cr.RulesError, match="pack must be 36 or 52; got 40"):
        cr.verish(3, pack=40)
    with pytest.raises(cr.RulesError, match="pack= and deck= contradict"):
        cr.verish(3, pack=36, deck=cr.Deck.short())
    with pytest.raises(cr.RulesError, match="unknown option decks for Verish"):
        cr.verish(3, decks=2)


def test_one_card_is_set_aside_unseen_and_the_rest_dealt() -> None:
    state = cr.deal(cr.verish(3), seed=9)
    assert len(state.set_aside) == 1
    assert sum(state.hand_sizes) == 35
    assert state.set_aside[0] not in {card for hand in state.hands for card in hand}
    assert state.hand_sizes == (12, 12, 11)  # a one-card difference does not matter


def test_a_fixed_deal_names_the_set_aside_card() -> None:
    state = cr.deal(cr.verish(2), hands=["6♣ 7♣", "8♣ 9♣"], hidden="A♠")
    assert state.set_aside == cr.cards("A♠")
    with pytest.raises(cr.DealError, match="hidden= holds 2 cards but these rules set aside 1"):
        cr.deal(cr.verish(2), hands=["6♣", "8♣"], hidden="A♠ K♠")
    with pytest.raises(cr.DealError, match="6♣ 2 times"):
        cr.deal(cr.verish(2), hands=["6♣", "8♣"], hidden="6♣")
    with pytest.raises(cr.DealError, match="2♣, which this deck lacks"):
        cr.deal(cr.verish(2), hands=["2♣", "8♣"])


def test_the_player_who_received_the_first_card_opens_with_any_rank() -> None:
    state = cr.deal(cr.verish(4), seed=1, dealer=2)
    assert state.to_move == 3
    assert state.required_rank is None
    assert state.allowed_ranks == STANDARD_RANKS
    short = cr.deal(cr.verish(3), seed=1)
    assert short.to_move == 0
    assert short.allowed_ranks == SHORT_RANKS


# -- a round -------------------------------------------------------------------


def test_the_opener_lays_one_to_three_cards_of_any_rank_of_the_pack() -> None:
    state = cr.deal(cr.verish(2), hands=["6♣ 7♣ 8♣ 9♣ 10♣", "6♦"], hidden="A♠")
    assert state.apply(Play("6♣ 7♣ 8♣", "Q")).last_claim == cr.Claim(0, 3, Rank.QUEEN)
    with pytest.raises(cr.IllegalActionError, match="a claim holds 1 to 3 cards; this one holds 4"):
        state.apply(Play("6♣ 7♣ 8♣ 9♣", "Q"))
    with pytest.raises(cr.IllegalActionError, match="must be one of A 6 7 8 9 10 J Q K, not 2"):
        state.apply(Play("6♣", "2"))
    assert not state.is_legal(Challenge())  # nothing on the table to doubt


def test_the_next_player_challenges_or_adds_cards_of_the_same_rank() -> None:
    state = cr.deal(cr.verish(3), hands=["6♣ 7♣", "8♣ 9♣", "10♣ J♣"], hidden="A♠")
    state = state.apply(Play("6♣", "Q"))
    assert (state.to_move, state.phase, state.required_rank) == (1, Phase.PLAY, Rank.QUEEN)
    actions = state.legal_actions()
    assert actions[0] == Challenge()
    assert all(action.rank is Rank.QUEEN for action in actions[1:])  # type: ignore[attr-defined]
    assert not state.is_legal(cr.Accept())  # no passing, and no window
    with pytest.raises(cr.IllegalActionError, match="the announced rank must be Q, not 8"):
        state.apply(Play("8♣", "8"))


def test_only_the_last_group_can_be_checked() -> None:
    # Seat 0's lie is covered by seat 1's true Queen: the challenge checks
    # seat 1's group only, and the challenger is wrong.
    state = cr.deal(cr.verish(3), hands=["6♣ 7♣", "Q♣ 9♣", "10♣ J♣"], hidden="A♠")
    state = state.apply(Play("6♣", "Q")).apply(Play("Q♣", "Q")).apply(Challenge())
    assert state.events[-2] == cr.Revealed(1, cr.cards("Q♣"), Rank.QUEEN, truthful=True)
    assert state.events[-1] == cr.PileTaken(2, cr.cards("6♣ Q♣"), groups=2)


# -- challenges: the rule book's example in both versions --------------------------


def test_worked_example_the_bluff_is_caught() -> None:
    state = worked_example("K♥ 7♣").apply(Challenge())
    assert state.events[-3:] == (
        cr.Challenged(seat=1, declarer=0),
        cr.Revealed(0, cr.cards("7♣ K♥"), Rank.KING, truthful=False),
        cr.PileTaken(0, cr.cards("6♣ 6♠ 8♣ 8♠ 7♣ K♥"), groups=3),
    )
    assert len(state.hands[0]) == 1 + 6
    assert state.pile == ()
    # A, who took the pile, is asked about fours (it holds none) ...
    assert (state.phase, state.to_move, tuple(state.legal_actions())) == (
        Phase.DISCARD,
        0,
        (Discard(()),),
    )
    state = state.apply(Discard(()))
    # ... then the challenger opens the next round, with any rank.
    assert (state.to_move, state.required_rank) == (1, None)
    assert state.allowed_ranks == SHORT_RANKS


def test_worked_example_the_claim_is_true_and_the_older_cards_play_no_part() -> None:
    state = worked_example("K♥ K♦").apply(Challenge())
    # The four older cards are all lies, yet only A's group decides.
    assert state.events[-2] == cr.Revealed(0, cr.cards("K♦ K♥"), Rank.KING, truthful=True)
    assert state.events[-1] == cr.PileTaken(1, cr.cards("6♣ 6♠ 8♣ 8♠ K♦ K♥"), groups=3)
    assert len(state.hands[1]) == 1 + 6
    state = state.apply(Discard(()))
    # The next active player after the challenger opens.
    assert (state.to_move, state.required_rank) == (2, None)


# -- discarding fours ----------------------------------------------------------------


def test_after_taking_the_pile_a_complete_four_may_be_discarded() -> None:
    state = cr.deal(cr.verish(3), hands=["Q♠ 6♣", "Q♣ Q♦ Q♥ 9♣", "10♣ J♣"], hidden="A♠")
    state = state.apply(Play("Q♠", "Q")).apply(Challenge())  # true: seat 1 takes the Queen
    assert (state.phase, state.to_move) == (Phase.DISCARD, 1)
    assert state.legal_actions() == (Discard(()), Discard([Rank.QUEEN]))
    after = state.apply(Discard(["Q"]))
    assert after.events[-1] == cr.Discarded(1, (Rank.QUEEN,), cr.cards("Q♣ Q♦ Q♥ Q♠"))
    assert after.hands[1] == cr.cards("9♣")
    assert after.discarded == cr.cards("Q♣ Q♦ Q♥ Q♠")
    # Then the opener chosen by the challenge plays: the seat after the challenger.
    assert (after.phase, after.to_move, after.required_rank) == (Phase.PLAY, 2, None)


def two_fours_offered() -> cr.GameState:
    """Seat 1 wrongly doubts seat 0's true Queen and picks up a Jack and a Queen.

    Both complete a four in seat 1's hand. The dealer is seat 1, so seat 2
    opens, laying J♣ as a Queen; seat 0 adds a true Queen.
    """
    state = cr.deal(
        cr.verish(3),
        dealer=1,
        hands=["Q♠ 6♣", "Q♣ Q♦ Q♥ J♦ J♥ J♠ 9♣", "J♣ 10♣"],
        hidden="A♠",
    )
    state = state.apply(Play("J♣", "Q")).apply(Play("Q♠", "Q")).apply(Challenge())
    assert state.events[-1] == cr.PileTaken(1, cr.cards("J♣ Q♠"), groups=2)
    return state


def test_any_subset_of_several_fours_may_be_discarded() -> None:
    state = two_fours_offered()
    assert (state.phase, state.to_move) == (Phase.DISCARD, 1)
    assert state.legal_actions() == (
        Discard(()),
        Discard(["J"]),
        Discard(["Q"]),
        Discard(["J", "Q"]),
    )


def test_one_of_several_fours() -> None:
    state = two_fours_offered().apply(Discard(["Q"]))
    assert state.hands[1] == cr.cards("9♣ J♣ J♦ J♥ J♠")
    assert state.discarded == cr.cards("Q♣ Q♦ Q♥ Q♠")
    assert (state.phase, state.to_move) == (Phase.PLAY, 2)
    # The Jacks are not offered again until seat 1 takes another pile.
    assert not any(isinstance(action, Discard) for action in state.legal_actions())


def test_every_four() -> None:
    state = two_fours_offered().apply(Discard(["Q", "J"]))
    assert state.events[-1] == cr.Discarded(
        1, (Rank.JACK, Rank.QUEEN), cr.cards("J♣ J♦ J♥ J♠ Q♣ Q♦ Q♥ Q♠")
    )
    assert state.hands[1] == cr.cards("9♣")
    assert str(state.events[-1]) == "seat 1 discards four Jacks and four Queens"


def test_no_four() -> None:
    state = two_fours_offered().apply(Discard(()))
    assert len(state.hands[1]) == 9
    assert state.discarded == ()
    with pytest.raises(
        cr.IllegalActionError,
        match="no fours to discard now; seat 2 must lay cards announcing any rank",
    ):
        state.apply(Discard(()))


def test_fours_held_from_the_deal_wait_for_a_pickup() -> None:
    state = cr.deal(cr.verish(2), hands=["Q♣ Q♦ Q♥ Q♠ 6♣", "7♣ 8♣"], hidden="A♠")
    assert state.phase is Phase.PLAY
    with pytest.raises(cr.IllegalActionError, match="no fours to discard now"):
        state.apply(Discard(["Q"]))
    # After the player takes a pile, the four held from the deal is offered.
    state = state.apply(Play("6♣", "7")).apply(Challenge())
    assert (state.phase, state.to_move) == (Phase.DISCARD, 0)
    assert state.legal_actions() == (Discard(()), Discard(["Q"]))


def test_declining_keeps_the_fours() -> None:
    state = cr.deal(cr.verish(2), hands=["Q♣ Q♦ Q♥ Q♠ 6♣", "7♣ 8♣"], hidden="A♠")
    state = state.apply(Play("6♣", "7")).apply(Challenge()).apply(Discard(()))
    assert state.events[-1] == cr.Discarded(0, ())
    assert len(state.hands[0]) == 5
    assert state.discarded == ()
    # The caught bluffer's challenger opens.
    assert (state.to_move, state.phase) == (1, Phase.PLAY)


def test_a_four_not_held_cannot_be_discarded() -> None:
    state = cr.deal(cr.verish(2), hands=["Q♣ Q♦ Q♥ Q♠ 6♣", "7♣ 8♣"], hidden="A♠")
    state = state.apply(Play("6♣", "7")).apply(Challenge())
    with pytest.raises(cr.IllegalActionError, match="seat 0 holds no complete four of 7s"):
        state.apply(Discard(["7"]))
    with pytest.raises(cr.IllegalActionError, match="must discard fours of Q, or decline"):
        state.apply(Play("6♣", "7"))


# -- leaving the game and the loser ---------------------------------------------------


def test_last_cards_trusted_leave_the_game() -> None:
    state = cr.deal(cr.verish(3), hands=["6♣", "7♣ 8♣", "9♣ 10♣"], hidden="A♠")
    state = state.apply(Play("6♣", "K"))
    assert not state.is_over and state.hands[0] == ()
    state = state.apply(Play("7♣", "K"))  # seat 1 trusts and adds
    assert state.events[-2:] == (cr.Played(1, cr.cards("7♣"), Rank.KING), cr.WentOut(0))
    assert state.finishing_order == (0,)
    assert state.to_move == 2
    assert state.seating.active == (1, 2)


def test_last_cards_caught_in_a_bluff_take_the_pile_and_stay() -> None:
    state = cr.deal(cr.verish(3), hands=["6♣", "7♣ 8♣", "9♣ 10♣"], hidden="A♠")
    state = state.apply(Play("6♣", "K")).apply(Challenge()).apply(Discard(()))
    assert state.hands[0] == cr.cards("6♣")
    assert state.finishing_order == ()
    assert state.to_move == 1  # the challenger opens


def test_true_last_cards_leave_and_the_wrong_challenger_keeps_the_pile() -> None:
    state = cr.deal(cr.verish(3), hands=["K♣", "7♣ 8♣", "9♣ 10♣"], hidden="A♠")
    state = state.apply(Play("K♣", "K")).apply(Challenge())
    assert state.events[-2:] == (cr.PileTaken(1, cr.cards("K♣")), cr.WentOut(0))
    assert state.hands[1] == cr.cards("7♣ 8♣ K♣")
    state = state.apply(Discard(()))
    assert state.to_move == 2  # the next active player after the challenger


def test_a_whole_hand_discarded_in_fours_leaves_the_game() -> None:
    state = cr.deal(cr.verish(3), hands=["Q♠ 6♣", "Q♣ Q♦ Q♥", "10♣ J♣"], hidden="A♠")
    state = state.apply(Play("Q♠", "Q")).apply(Challenge())
    state = state.apply(Discard(["Q"]))
    assert state.events[-2:] == (
        cr.Discarded(1, (Rank.QUEEN,), cr.cards("Q♣ Q♦ Q♥ Q♠")),
        cr.WentOut(1),
    )
    assert state.seating.active == (0, 2)
    assert state.to_move == 2


def test_players_who_have_left_are_skipped() -> None:
    state = cr.deal(cr.verish(4, pack=36), hands=["6♣", "7♣ 8♣", "9♣ 10♣", "J♣ Q♣"], hidden="A♠")
    state = state.apply(Play("6♣", "K")).apply(Play("7♣", "K"))  # seat 0 leaves
    state = state.apply(Play("9♣", "K")).apply(Play("J♣", "K"))
    assert state.to_move == 1  # seat 3 is followed by seat 1, not seat 0
    state = state.apply(Challenge()).apply(Discard(()))  # seat 1 doubts seat 3's lie
    assert state.to_move == 1
    assert 0 not in state.seating.active


def test_the_last_player_in_loses() -> None:
    state = cr.deal(cr.verish(3), hands=["6♣", "7♣", "9♣ 10♣"], hidden="A♠")
    state = state.apply(Play("6♣", "K")).apply(Play("7♣", "K"))  # seat 0 leaves
    state = state.apply(Play("9♣", "K"))  # seat 1 trusted: leaves; seat 2 is alone
    assert state.is_over
    assert state.outcome == cr.Outcome(winners=(0, 1), losers=(2,))
    assert state.finishing_order == (0, 1)
    assert state.events[-1] == cr.GameOver((0, 1), (2,))
    assert str(state.events[-1]) == "game over: seat 2 loses"


def test_two_players_the_last_cards_trusted() -> None:
    # B trusts A's last card by adding its own; A leaves and B, alone, loses,
    # although B's own group is still unchecked on the table.
    state = cr.deal(cr.verish(2), hands=["6♣", "7♣ 8♣"], hidden="A♠")
    state = state.apply(Play("6♣", "K")).apply(Play("7♣", "K"))
    assert state.outcome == cr.Outcome(winners=(0,), losers=(1,))
    assert state.pile == cr.cards("6♣ 7♣")


def test_two_players_the_last_cards_challenged_and_true() -> None:
    state = cr.deal(cr.verish(2), hands=["K♣", "7♣ 8♣"], hidden="A♠")
    state = state.apply(Play("K♣", "K")).apply(Challenge())
    assert state.outcome == cr.Outcome(winners=(0,), losers=(1,))
    assert state.hands[1] == cr.cards("7♣ 8♣ K♣")


def test_two_players_the_last_cards_challenged_and_false() -> None:
    state = cr.deal(cr.verish(2), hands=["6♣", "7♣ 8♣"], hidden="A♠")
    state = state.apply(Play("6♣", "K")).apply(Challenge())
    assert not state.is_over
    assert (state.phase, state.to_move) == (Phase.DISCARD, 0)
    assert state.apply(Discard(())).to_move == 1


def test_the_engine_never_branches_on_the_variant_name() -> None:
    # A Rules value with English policies but the label "verish" plays English.
    relabelled = cr.Rules(players=3, name="verish")
    state = cr.deal(relabelled, hands=["A♣", "2♥", "3♥"]).apply(Play("A♣", "A"))
    assert state.phase is Phase.CHALLENGE
