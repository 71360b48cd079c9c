"""The rule book's worked example, scripted with a fixed deal.

Required rank 7, the pile already holds 5 cards. A (seat 0) plays 7♣ and K♦
announcing "two 7s"; B (seat 1, A's left neighbour) challenges. K♦ proves the
lie: A picks up 5 + 2 = 7 cards, and B plays next, announcing 8.

Run: ``python examples/worked_example.py``
"""

from __future__ import annotations

import cheatrules as cr
from cheatrules.events import describe_claim


def position() -> cr.GameState:
    """Reach the example's position: 7s required, five cards on the pile, seat 0 to play."""
    state = cr.deal(
        cr.english(players=4),
        dealer=1,  # seat 2 opens with Aces
        hands=["3♦ 7♣ K♦ Q♣", "4♥ 8♥ J♣", "A♣ 5♣ 9♠", "2♠ 6♠ 10♣"],
    )
    # Seat 2's true Ace is challenged by seat 3, who takes it: the pile empties.
    state = state.apply(cr.Play("A♣", "A")).apply(cr.Challenge())
    # Seats 3, 0, 1, 2, 3 lay one card each for 2 to 6, and nobody challenges.
    for card, rank in [("2♠", "2"), ("3♦", "3"), ("4♥", "4"), ("5♣", "5"), ("6♠", "6")]:
        state = state.apply(cr.Play(card, rank))
        while state.phase is cr.Phase.CHALLENGE:
            state = state.apply(cr.Accept())
    return state


def main() -> None:
    state = position()
    print(f"required rank {state.required_rank}, pile {state.pile_size} cards")
    print(f"seat {state.to_move} to play")
    state = state.apply(cr.Play("7♣ K♦", "7"))
    claim = state.last_claim
    assert claim is not None
    said = describe_claim(claim.count, claim.rank)
    print(f"seat {claim.seat} claims {said}; seat {state.to_move} may challenge")
    state = state.apply(cr.Challenge())
    for event in state.events[-3:]:
        print(" ", event)
    print(f"seat 0 now holds {len(state.hands[0])} cards; the pile holds {state.pile_size}")
    print(f"seat {state.to_move} plays next and must announce {state.required_rank}")


if __name__ == "__main__":
    main()
