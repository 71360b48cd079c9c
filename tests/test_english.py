"""Cheat, English ascending-rank form: one scenario per rule of docs/rules/english.md."""

from __future__ import annotations

import pytest

import cheatrules as cr
from cheatrules import Accept, Challenge, Phase, Play, Rank

# -- helpers -------------------------------------------------------------


def accept_all(state: cr.GameState) -> cr.GameState:
    """Every remaining opponent accepts the last claim."""
    while state.phase is Phase.CHALLENGE:
        state = state.apply(Accept())
    return state


def play_and_accept(state: cr.GameState, cards: str, rank: str) -> cr.GameState:
    return accept_all(state.apply(Play(cards, rank)))


def worked_example(laid: str = "7♣ K♦") -> cr.GameState:
    """The rule book's position: 7 is required, the pile holds 5 cards, A = seat 0 plays.

    Seats: A=0, B=1, C=2, D=3. The dealer is seat 1, so seat 2 opens with
    Aces; a true Ace challenged by seat 3 empties the pile, then seats 3, 0,
    1, 2, 3 lay one card each for 2 to 6.
    """
    sevens = "7♣ 7♦" if laid == "7♣ 7♦" else "7♣ K♦"
    state = cr.deal(
        cr.english(4),
        dealer=1,
        hands=[f"3♦ {sevens} Q♣", "4♥ 8♥ J♣", "A♣ 5♣ 9♠", "2♠ 6♠ 10♣"],
    )
    state = state.apply(Play("A♣", "A")).apply(Challenge())  # seat 3 takes the Ace
    for cards, rank in [("2♠", "2"), ("3♦", "3"), ("4♥", "4"), ("5♣", "5"), ("6♠", "6")]:
        state = play_and_accept(state, cards, rank)
    assert (state.to_move, state.required_rank, state.pile_size) == (0, Rank.SEVEN, 5)
    return state


# -- setup -----------------------------------------------------------------


def test_the_centre_starts_empty() -> None:
    state = cr.deal(cr.english(4), seed=5)
    assert state.pile == () and state.pile_size == 0 and state.last_claim is None


def test_suits_never_matter() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ A♦ 5♠", "2♥", "3♥"])
    listed = state.legal_actions()
    # A♣ and A♦ are the same choice; only rank multisets are listed.
    assert Play("A♣", "A") in tuple(listed)
    assert Play("A♦", "A") not in tuple(listed)
    # Membership follows the rules, though: the play in other suits is legal.
    assert state.is_legal(Play("A♦", "A"))
    assert Play("A♦", "A") in listed
    assert listed.index(Play("A♦", "A")) == listed.index(Play("A♣", "A")) == 0


# -- a turn ------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_a_player_lays_one_to_four_cards(count: int) -> None:
    state = cr.deal(cr.english(3), hands=["A♣ A♦ A♥ A♠ 5♠", "2♥", "3♥"])
    laid = " ".join(["A♣", "A♦", "A♥", "A♠"][:count])
    after = state.apply(Play(laid, "A"))
    assert after.last_claim == cr.Claim(seat=0, count=count, rank=Rank.ACE)
    assert after.pile_size == count
    assert len(after.hands[0]) == 5 - count


def test_five_cards_or_none_are_refused() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ A♦ A♥ A♠ 5♠", "2♥", "3♥"])
    with pytest.raises(cr.IllegalActionError, match="a claim holds 1 to 4 cards; this one holds 5"):
        state.apply(Play("A♣ A♦ A♥ A♠ 5♠", "A"))
    with pytest.raises(cr.IllegalActionError, match="a claim holds 1 to 4 cards; this one holds 0"):
        state.apply(Play((), "A"))


def test_a_player_never_lays_more_than_they_hold() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ A♦", "2♥", "3♥"])
    plays = [action for action in state.legal_actions() if isinstance(action, Play)]
    assert max(play.count for play in plays) == 2


def test_the_count_is_always_true() -> None:
    # A claim's count is the number of cards laid: the API cannot say otherwise.
    state = cr.deal(cr.english(3), hands=["A♣ 9♦ K♠", "2♥", "3♥"]).apply(Play("9♦ K♠", "A"))
    assert state.last_claim is not None and state.last_claim.count == 2
    assert state.events[-1] == cr.Played(0, cr.cards("9♦ K♠"), Rank.ACE)


def test_passing_is_not_allowed_so_a_player_without_the_rank_must_bluff() -> None:
    state = cr.deal(cr.english(3), hands=["9♦ K♠", "2♥", "3♥"])
    actions = state.legal_actions()
    assert all(isinstance(action, Play) and action.rank is Rank.ACE for action in actions)
    assert len(actions) == 3  # 9, K, 9+K: every play is a bluff
    assert not state.is_legal(Accept())
    assert not state.is_legal(Challenge())


def test_the_announced_rank_must_be_the_required_one() -> None:
    state = cr.deal(cr.english(3), hands=["9♦ K♠", "2♥", "3♥"])
    with pytest.raises(cr.IllegalActionError, match="the announced rank must be A, not 9"):
        state.apply(Play("9♦", "9"))


def test_the_next_player_claims_the_next_rank_whatever_the_count() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ A♦ A♥ 2♣", "2♥ 5♦", "3♥ 6♦"])
    state = play_and_accept(state, "A♣ A♦ A♥", "A")
    assert (state.to_move, state.required_rank) == (1, Rank.TWO)
    state = play_and_accept(state, "5♦", "2")
    assert (state.to_move, state.required_rank) == (2, Rank.THREE)


def test_the_sequence_wraps_from_king_to_ace() -> None:
    hands = ["A♣ 4♣ 7♣ 10♣ K♣ 3♦", "2♣ 5♣ 8♣ J♣ 5♦", "3♣ 6♣ 9♣ Q♣ 6♦"]
    state = cr.deal(cr.english(3), hands=hands)
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    for index, rank in enumerate(ranks):
        seat = index % 3
        card = next(card for card in state.hands[seat] if str(card.rank) == rank)
        state = play_and_accept(state, str(card), rank)
    assert state.required_rank is Rank.ACE
    assert state.to_move == 1


def test_a_challenge_never_resets_the_sequence_to_ace() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ 2♦", "9♥ 5♦", "3♥ 6♦"])
    state = play_and_accept(state, "A♣", "A")
    state = state.apply(Play("9♥", "2")).apply(Challenge())
    assert state.pile == ()
    assert state.required_rank is Rank.THREE
    assert state.to_move == 2


def test_the_same_card_twice_is_refused() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ 9♦", "2♥", "3♥"])
    with pytest.raises(cr.IllegalActionError, match="A♣ is laid 2 times but seat 0 holds 1"):
        state.apply(Play("A♣ A♣", "A"))


def test_a_card_not_in_hand_is_refused() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ 9♦", "2♥", "3♥"])
    with pytest.raises(
        cr.IllegalActionError, match="illegal action Play\\(2♥ as A\\): 2♥ is not in seat 0's hand"
    ):
        state.apply(Play("2♥", "A"))


# -- challenging ---------------------------------------------------------------


def test_after_a_play_the_opponents_are_asked_clockwise_from_the_declarers_left() -> None:
    state = cr.deal(cr.english(4), dealer=1, hands=["A♣", "2♥", "A♦ 5♣", "3♥"])
    state = state.apply(Play("A♦", "A"))
    asked = []
    while state.phase is Phase.CHALLENGE:
        asked.append(state.to_move)
        assert state.legal_actions() == (Challenge(), Accept())
        state = state.apply(Accept())
    assert asked == [3, 0, 1]  # never the declarer, seat 2
    assert state.to_move == 3


def test_the_first_challenge_ends_the_window() -> None:
    state = cr.deal(cr.english(4), hands=["A♣ 5♣", "2♥ 3♣", "A♦ 4♣", "3♥ 6♣"])
    state = state.apply(Play("5♣", "A")).apply(Accept()).apply(Challenge())
    assert state.phase is Phase.PLAY
    assert [type(event) for event in state.events[-5:]] == [
        cr.Played,
        cr.Accepted,
        cr.Challenged,
        cr.Revealed,
        cr.PileTaken,
    ]
    assert state.events[-3] == cr.Challenged(seat=2, declarer=0)


def test_during_the_window_the_required_rank_is_that_of_the_next_play() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ 5♣", "2♥", "3♥"]).apply(Play("A♣", "A"))
    assert state.phase is Phase.CHALLENGE
    assert state.required_rank is Rank.TWO


def test_only_the_last_group_is_turned_over() -> None:
    # Seat 0 lied with an accepted "one Ace"; seat 1's true "one 2" is
    # challenged: only seat 1's group is checked, so the challenger loses.
    state = cr.deal(cr.english(3), hands=["K♣ 5♣", "2♥ 9♣", "3♥ 8♣"])
    state = play_and_accept(state, "K♣", "A")
    state = state.apply(Play("2♥", "2")).apply(Challenge())
    assert state.events[-2] == cr.Revealed(1, cr.cards("2♥"), Rank.TWO, truthful=True)
    assert state.events[-1] == cr.PileTaken(2, cr.cards("K♣ 2♥"), groups=2)
    assert cr.Card.parse("K♣") in state.hands[2]


def test_a_lie_makes_the_declarer_take_the_whole_pile() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ 5♣", "2♥ 9♣", "3♥ 8♣"])
    state = play_and_accept(state, "A♣", "A")
    state = state.apply(Play("9♣", "2")).apply(Accept()).apply(Challenge())
    assert state.hands[1] == cr.cards("A♣ 2♥ 9♣")
    assert state.pile == ()
    assert state.last_claim is None


def test_a_true_claim_makes_the_challenger_take_the_whole_pile() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ 5♣", "2♥ 9♣", "3♥ 8♣"])
    state = play_and_accept(state, "A♣", "A")
    state = state.apply(Play("2♥", "2")).apply(Challenge())
    assert state.hands[2] == cr.cards("A♣ 2♥ 3♥ 8♣")
    assert state.pile == ()


@pytest.mark.parametrize("laid", ["9♣", "2♥"])
def test_whatever_the_outcome_the_declarers_left_neighbour_plays_next(laid: str) -> None:
    state = cr.deal(cr.english(4), hands=["A♣ 5♣", "2♥ 9♣", "3♥ 8♣", "4♦ 6♦"])
    state = play_and_accept(state, "A♣", "A")
    state = state.apply(Play(laid, "2")).apply(Accept()).apply(Challenge())
    assert (state.to_move, state.required_rank, state.phase) == (2, Rank.THREE, Phase.PLAY)


# -- the rule book's worked example, in each form ------------------------------


def test_worked_example_the_left_neighbour_challenges() -> None:
    state = worked_example().apply(Play("7♣ K♦", "7")).apply(Challenge())
    assert state.events[-3:] == (
        cr.Challenged(seat=1, declarer=0),
        cr.Revealed(0, cr.cards("7♣ K♦"), Rank.SEVEN, truthful=False),
        cr.PileTaken(0, cr.cards("2♠ 3♦ 4♥ 5♣ 6♠ 7♣ K♦"), groups=6),
    )
    assert len(state.hands[0]) == 1 + 7  # Q♣ and the 5 + 2 = 7 cards picked up
    assert state.pile == ()
    assert (state.to_move, state.required_rank) == (1, Rank.EIGHT)


def test_worked_example_a_later_opponent_challenges_after_the_left_neighbour_accepts() -> None:
    state = worked_example().apply(Play("7♣ K♦", "7")).apply(Accept()).apply(Challenge())
    assert state.events[-3] == cr.Challenged(seat=2, declarer=0)
    assert state.events[-1] == cr.PileTaken(0, cr.cards("2♠ 3♦ 4♥ 5♣ 6♠ 7♣ K♦"), groups=6)
    assert (state.to_move, state.required_rank) == (1, Rank.EIGHT)


def test_worked_example_the_claim_is_true() -> None:
    state = worked_example("7♣ 7♦").apply(Play("7♣ 7♦", "7")).apply(Challenge())
    assert state.events[-2] == cr.Revealed(0, cr.cards("7♣ 7♦"), Rank.SEVEN, truthful=True)
    assert state.events[-1].seat == 1  # type: ignore[attr-defined]
    assert len(state.hands[1]) == 2 + 7
    assert (state.to_move, state.required_rank) == (1, Rank.EIGHT)


def test_worked_example_nobody_challenges() -> None:
    state = accept_all(worked_example().apply(Play("7♣ K♦", "7")))
    assert state.pile_size == 7
    assert state.pile[-2:] == cr.cards("7♣ K♦")
    assert (state.to_move, state.required_rank) == (1, Rank.EIGHT)


# -- going out and winning -----------------------------------------------------


def test_playing_the_last_cards_does_not_win_yet() -> None:
    state = cr.deal(cr.english(3), hands=["K♣", "2♥ 9♣", "3♥ 8♣"]).apply(Play("K♣", "A"))
    assert state.hands[0] == ()
    assert not state.is_over
    assert state.phase is Phase.CHALLENGE


def test_an_accepted_final_bluff_wins() -> None:
    state = cr.deal(cr.english(3), hands=["K♣", "2♥ 9♣", "3♥ 8♣"]).apply(Play("K♣", "A"))
    state = state.apply(Accept()).apply(Accept())
    assert state.is_over and state.phase is Phase.OVER
    assert state.to_move is None
    assert state.outcome == cr.Outcome(winners=(0,), losers=(1, 2))
    assert state.events[-2:] == (cr.WentOut(0), cr.GameOver((0,), (1, 2)))
    assert state.legal_actions() == ()


def test_a_true_final_play_that_is_challenged_wins() -> None:
    state = cr.deal(cr.english(3), hands=["A♣", "2♥ 9♣", "3♥ 8♣"]).apply(Play("A♣", "A"))
    state = state.apply(Accept()).apply(Challenge())
    assert state.outcome == cr.Outcome(winners=(0,), losers=(1, 2))
    assert state.events[-3] == cr.PileTaken(2, cr.cards("A♣"))


def test_a_caught_final_bluff_takes_the_pile_and_play_goes_on() -> None:
    state = cr.deal(cr.english(3), hands=["K♣", "2♥ 9♣", "3♥ 8♣"]).apply(Play("K♣", "A"))
    state = state.apply(Challenge())
    assert not state.is_over
    assert state.hands[0] == cr.cards("K♣")
    assert (state.to_move, state.required_rank) == (1, Rank.TWO)


def test_the_game_ends_at_once_with_exactly_one_winner() -> None:
    state = cr.deal(cr.english(4), hands=["A♣", "2♥ 9♣", "3♥ 8♣", "4♦"]).apply(Play("A♣", "A"))
    state = accept_all(state)
    assert state.outcome is not None
    assert len(state.outcome.winners) == 1
    assert set(state.outcome.winners + state.outcome.losers) == {0, 1, 2, 3}


# -- refusals ------------------------------------------------------------------


def test_not_the_decision_asked_for_now() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ 5♣", "2♥", "3♥"])
    with pytest.raises(
        cr.IllegalActionError, match="no claim for seat 0 to accept now; seat 0 must lay cards as A"
    ):
        state.apply(Accept())
    with pytest.raises(
        cr.IllegalActionError, match="the table is empty, so there is no claim to challenge"
    ):
        state.apply(Challenge())
    window = state.apply(Play("A♣", "A"))
    with pytest.raises(
        cr.IllegalActionError,
        match="seat 1 must challenge or accept seat 0's claim of one Ace",
    ):
        window.apply(Play("2♥", "2"))
    after = accept_all(window)
    with pytest.raises(cr.IllegalActionError, match="only be challenged in its challenge window"):
        after.apply(Challenge())


def test_nothing_is_legal_once_the_game_is_over() -> None:
    state = accept_all(cr.deal(cr.english(3), hands=["A♣", "2♥", "3♥"]).apply(Play("A♣", "A")))
    for action in (Play("2♥", "2"), Accept(), Challenge()):
        assert not state.is_legal(action)
        with pytest.raises(cr.IllegalActionError, match="the game is over"):
            state.apply(action)


def test_something_that_is_not_an_action_is_refused() -> None:
    state = cr.deal(cr.english(3), hands=["A♣", "2♥", "3♥"])
    with pytest.raises(cr.IllegalActionError, match="'A♣' is not an action"):
        state.apply("A♣")  # type: ignore[arg-type]
    with pytest.raises(
        cr.IllegalActionError, match="no fours to discard now; seat 0 must lay cards as A"
    ):
        state.apply(cr.Discard(()))


def test_a_refused_action_changes_nothing() -> None:
    state = worked_example()
    before = (state.hands, state.pile, state.events, state.to_move, state.phase, hash(state))
    for action in (Play("Q♣ Q♣", "7"), Play("8♥", "7"), Play("7♣", "8"), Accept()):
        with pytest.raises(cr.IllegalActionError):
            state.apply(action)
    assert (
        state.hands,
        state.pile,
        state.events,
        state.to_move,
        state.phase,
        hash(state),
    ) == before
    assert state == worked_example()


def test_illegal_action_error_is_a_value_error() -> None:
    assert issubclass(cr.IllegalActionError, ValueError)
    assert issubclass(cr.IllegalActionError, cr.CheatRulesError)


# -- more of the same rules, in corners ----------------------------------------


def test_two_decks_let_a_player_lay_two_identical_cards() -> None:
    state = cr.deal(cr.english(7), hands=["A♣ A♣ 5♦", "2♥", "3♥", "4♥", "5♥", "6♥", "7♥"])
    assert state.is_legal(Play("A♣ A♣", "A"))
    with pytest.raises(cr.IllegalActionError, match="A♣ is laid 3 times but seat 0 holds 2"):
        state.apply(Play("A♣ A♣ A♣", "A"))
    state = state.apply(Play("A♣ A♣", "A")).apply(Challenge())
    assert state.events[-2] == cr.Revealed(0, cr.cards("A♣ A♣"), Rank.ACE, truthful=True)
    assert state.hands[1] == cr.cards("A♣ A♣ 2♥")


def test_play_wraps_from_the_last_seat_to_seat_zero() -> None:
    state = cr.deal(cr.english(3), dealer=1, hands=["2♥ 9♦", "3♥ 9♣", "A♣ 5♦"])
    assert state.to_move == 2
    state = state.apply(Play("5♦", "A")).apply(Challenge())  # seat 0 catches seat 2
    assert (state.to_move, state.required_rank) == (0, Rank.TWO)
    assert state.hands[2] == cr.cards("A♣ 5♦")


def test_a_later_opponent_catches_a_final_bluff() -> None:
    state = cr.deal(cr.english(4), hands=["K♣", "2♥ 9♣", "3♥ 8♣", "4♦ 6♦"])
    state = state.apply(Play("K♣", "A")).apply(Accept()).apply(Accept()).apply(Challenge())
    assert state.events[-3] == cr.Challenged(seat=3, declarer=0)
    assert not state.is_over
    assert state.hands[0] == cr.cards("K♣")
    assert (state.to_move, state.required_rank) == (1, Rank.TWO)


def test_the_same_cards_laid_in_another_order_reach_the_same_state() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ A♦ 5♣", "2♥", "3♥"])
    assert state.apply(Play("A♣ A♦", "A")) == state.apply(Play("A♦ A♣", "A"))
    assert hash(state.apply(Play("A♣ A♦", "A"))) == hash(state.apply(Play("A♦ A♣", "A")))
