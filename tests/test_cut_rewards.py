"""What a game cut short at ``max_steps`` pays in every adapter: each seat by its standing.

Fewer cards is better. The seats still in are paid as the rules' ending
would pay them had they left in order of hand size, ties sharing, on the
scale of a finished game, so stalling never pays the seat that is losing
more than playing on.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules._adapters import cut_rewards
from cheatrules.policies.endings import FirstOutWins
from cheatrules.variants import rewards

from .budget import examples
from .strategies import deals, play_randomly


def standing(state: cr.GameState) -> dict[str, float]:
    """What a cut pays each agent under win-loss, worked out by hand: fewer cards is better.

    The seats out have won. First out wins: the seats holding the fewest cards share one
    +1 and the -1s of the rest of their places; every other seat gets -1. The last one in
    loses: the seats holding the most cards share one -1 and the +1s of the rest of their
    places; every other seat gets +1.
    """
    sizes = state.hand_sizes
    still_in = [seat for seat in range(state.players) if seat not in state.finishing_order]
    paid = {f"seat_{seat}": 1.0 for seat in state.finishing_order}
    first_out = state.rules.ending == FirstOutWins()
    edge = (min if first_out else max)(sizes[seat] for seat in still_in)
    tied = sum(sizes[seat] == edge for seat in still_in)
    for seat in still_in:
        if sizes[seat] != edge:
            paid[f"seat_{seat}"] = -1.0 if first_out else 1.0
        elif first_out:
            paid[f"seat_{seat}"] = (1.0 - (tied - 1)) / tied
        else:
            paid[f"seat_{seat}"] = ((tied - 1) - 1.0) / tied
    return paid


def dealt(rules: cr.Rules, *hands: str) -> cr.GameState:
    return cr.deal(rules, hands=list(hands), dealer=rules.players - 1)


def test_english_cheat_pays_the_fewest_cards_as_the_winner_and_the_others_as_losers() -> None:
    state = dealt(cr.english(4), "7♣", "A♠ 2♥", "A♥ 9♣", "3♦ 4♦ 5♦")
    assert cut_rewards(state, "win-loss") == (1.0, -1.0, -1.0, -1.0)
    assert cut_rewards(state, "placing") == (1.0, -1 / 3, -1 / 3, -1 / 3)


def test_seats_tied_for_fewest_cards_share_the_one_win() -> None:
    state = dealt(cr.english(4), "7♣ 8♣", "A♠ 2♥", "A♥ 9♣", "3♦ 4♦ 5♦")
    # Three seats of two cards share one +1 and two -1s.
    assert cut_rewards(state, "win-loss") == (-1 / 3, -1 / 3, -1 / 3, -1.0)
    everyone = dealt(cr.english(3), "7♣", "A♠", "A♥")
    assert cut_rewards(everyone, "win-loss") == (-1 / 3, -1 / 3, -1 / 3)
    assert cut_rewards(everyone, "placing") == (0.0, 0.0, 0.0)


def test_verish_pays_the_most_cards_as_the_one_left_in_and_every_other_seat_as_out() -> None:
    state = dealt(cr.verish(4), "7♣", "A♠ 9♥", "A♥ 9♣ 10♦", "K♦ Q♦")
    assert cut_rewards(state, "win-loss") == (1.0, 1.0, -1.0, 1.0)  # sums to P - 2
    # Places by hand size: seat 0 first, seats 1 and 3 share second and third, seat 2 last.
    assert cut_rewards(state, "placing") == (1.0, 0.0, -1.0, 0.0)


def test_english_with_the_placings_ending_pays_as_verish_does() -> None:
    state = dealt(cr.english(3, ending="placings"), "7♣", "A♠ 2♥", "A♥ 9♣ 3♦")
    assert cut_rewards(state, "win-loss") == (1.0, 1.0, -1.0)  # sums to P - 2
    assert cut_rewards(state, "placing") == (1.0, 0.0, -1.0)


def test_seats_already_out_keep_their_places() -> None:
    # Seat 0 lays its last card and nobody challenges: it leaves first, and is paid so.
    state = dealt(cr.verish(4), "7♣", "A♠ 9♥", "A♥ 9♣ 10♦", "K♦ Q♦")
    state = state.apply(cr.Play("7♣", "7")).apply(cr.Play("A♠", "7"))
    assert state.finishing_order == (0,) and not state.is_over
    assert cut_rewards(state, "placing") == (1.0, 1 / 3, -1.0, -1 / 3)
    assert cut_rewards(state, "placing")[0] == rewards(state, "placing")[0]


@examples(25)
@given(deal=deals(), seed=st.integers(0, 2**32), scheme=st.sampled_from(cr.variants.REWARDS))
def test_a_cut_pays_on_a_finished_games_scale_and_never_pays_the_last_seat_more_than_losing(
    deal: cr.GameState, seed: int, scheme: str
) -> None:
    states = play_randomly(deal, seed, limit=300)
    players = deal.players
    first_out = deal.rules.ending == FirstOutWins()
    for state in states[:: max(1, len(states) // 6)] + states[-1:]:
        paid = cut_rewards(state, scheme)
        if state.is_over:
            assert paid == rewards(state, scheme)
            continue
        one_winner, one_loser = 2 - players, players - 2
        total = 0.0 if scheme == "placing" else one_winner if first_out else one_loser
        assert sum(paid) == pytest.approx(total)
        if scheme == "win-loss":
            by_hand = standing(state)
            assert paid == pytest.approx(tuple(by_hand[f"seat_{seat}"] for seat in range(players)))
        assert all(-1.0 <= reward <= 1.0 for reward in paid)
        sizes = state.hand_sizes
        still_in = [seat for seat in range(players) if seat not in state.finishing_order]
        for seat in still_in:
            for other in still_in:
                if sizes[seat] < sizes[other]:
                    assert paid[seat] >= paid[other]
                elif sizes[seat] == sizes[other]:
                    assert paid[seat] == paid[other]
        for seat in state.finishing_order:  # paid as they left, as the adapters pay them
            assert paid[seat] == rewards(state, scheme)[seat]
        most = max(sizes[seat] for seat in still_in)
        last = [seat for seat in still_in if sizes[seat] == most]
        if len(last) == 1 and len(still_in) > 1:
            assert paid[last[0]] == -1.0 or (scheme == "placing" and first_out)
            assert paid[last[0]] == min(rewards_of_a_finished_game(players, scheme, first_out))


def rewards_of_a_finished_game(players: int, scheme: str, first_out: bool) -> list[float]:
    """Every reward a finished game can pay a seat."""
    if scheme == "win-loss":
        return [1.0, -1.0]
    if first_out:
        return [1.0, -1.0 / (players - 1)]
    return [1.0 - 2.0 * place / (players - 1) for place in range(players)]


def test_an_unknown_scheme_is_refused() -> None:
    with pytest.raises(cr.RulesError, match="unknown reward 'score'"):
        cut_rewards(cr.deal(cr.english(3), seed=1), "score")
