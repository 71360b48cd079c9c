"""A bot against bots: a small seeded tournament, seats rotated.

Each bot sees only its seat's observation and gets its own random
generator, so every game replays exactly from its seed.

Run: ``python examples/bot_vs_bots.py``
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import cheatrules as cr

Bot = Callable[[cr.Observation, random.Random], cr.Action]


def random_bot(seen: cr.Observation, rng: random.Random) -> cr.Action:
    """Any legal action, uniformly."""
    return rng.choice(list(seen.legal_actions()))


def honest_bot(seen: cr.Observation, rng: random.Random) -> cr.Action:
    """Tell the truth when possible; doubt claims the seat knows to be impossible."""
    actions = seen.legal_actions()
    claim = seen.last_claim
    if claim is not None and cr.Challenge() in actions:
        known = seen.knowledge()
        # Copies of the claimed rank the claimant cannot hold: in this hand,
        # known elsewhere, or discarded.
        elsewhere = sum(card.rank is claim.rank for card in seen.hand)
        elsewhere += sum(
            card.rank is claim.rank
            for seat, cards in enumerate(known.hands)
            if seat not in (seen.seat, claim.seat)
            for card in cards
        )
        if claim.count > seen.rules.deck.copies(claim.rank) - elsewhere:
            return cr.Challenge()
    if seen.phase is cr.Phase.CHALLENGE:
        return cr.Accept()
    true = [action for action in actions if isinstance(action, cr.Play) and action.is_truthful]
    return rng.choice(
        true or [action for action in actions if not isinstance(action, cr.Challenge)]
    )


def play(bots: list[Bot], rules: cr.Rules, seed: int) -> cr.GameState:
    state = cr.deal(rules, seed=seed)
    rngs = [random.Random(seed * 1000 + seat) for seat in range(rules.players)]
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state = state.apply(bots[seat](state.observe(seat), rngs[seat]))
    return state


def main(games: int = 60) -> None:
    names = ["honest", "random", "random"]
    bots: dict[str, Bot] = {"honest": honest_bot, "random": random_bot}
    rules = cr.english(3)
    wins: Counter[str] = Counter()
    for seed in range(games):
        shift = seed % 3  # rotate seats to cancel the opener's advantage
        seating = names[shift:] + names[:shift]
        final = play([bots[name] for name in seating], rules, seed)
        assert final.outcome is not None
        wins[seating[final.outcome.winners[0]]] += 1
    for name in sorted(bots):
        share = wins[name] / (games * names.count(name))
        print(f"{name:>7}: {wins[name]} wins, {share:.0%} of its seats' games")


if __name__ == "__main__":
    main()
