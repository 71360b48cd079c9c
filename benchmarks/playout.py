"""Random playouts through the public API, against a minimal mutable loop.

Run: ``python benchmarks/playout.py [--games N] [--players P]``.

Both loops play English Cheat with the same policy and the same random
draws, so they play the very same games; the script checks that they agree
decision for decision, then prints:

* decisions per second through the public API, and in the minimal loop (the
  floor: lists mutated in place, no checks, no log), and their ratio;
* the cost of a decision late in a long game against early in it, which
  stays flat because the log and the pile are persistent (never copied).

The policy: the player to move lays k = uniform(1..min(4, hand size)) cards
drawn uniformly from the hand, announcing the required rank; each opponent
asked in the challenge window challenges with probability ``--challenge``
(0.1 by default).
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc

import cheatrules as cr

CHALLENGE = cr.Challenge()
ACCEPT = cr.Accept()


def decide(state: cr.GameState, rng: random.Random, challenge: float) -> cr.Action:
    """The benchmark policy, through the public API."""
    if state.phase is cr.Phase.PLAY:
        hand = state.hands[state.to_move]  # type: ignore[index]
        count = rng.randint(1, min(4, len(hand)))
        rank = state.required_rank
        assert rank is not None
        return cr.Play(tuple(rng.sample(hand, count)), rank)
    return CHALLENGE if rng.random() < challenge else ACCEPT


def engine_game(seed: int, players: int, challenge: float) -> list[float]:
    """Play one game through the public API; return the time each decision took."""
    rng = random.Random(seed)
    state = cr.deal(cr.english(players), seed=seed)
    times: list[float] = []
    clock = time.perf_counter
    while not state.is_over:
        start = clock()
        state = state.apply(decide(state, rng, challenge))
        times.append(clock() - start)
    return times


def engine_states(seed: int, players: int, challenge: float) -> list[cr.GameState]:
    """Play the same game, keeping every state it passes through."""
    rng = random.Random(seed)
    states = [cr.deal(cr.english(players), seed=seed)]
    while not states[-1].is_over:
        states.append(states[-1].apply(decide(states[-1], rng, challenge)))
    return states


def minimal_game(seed: int, players: int, challenge: float) -> int:
    """The same game in a minimal mutable loop; return its number of decisions."""
    rng = random.Random(seed)
    deck = [card.key for card in cr.english(players).deck.cards()]
    random.Random(seed).shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(players)]
    for index, key in enumerate(deck):
        hands[(index) % players].append(key)
    for hand in hands:
        hand.sort()
    pile: list[int] = []
    rank = 1
    seat = 0
    decisions = 0
    while True:
        hand = hands[seat]
        count = rng.randint(1, min(4, len(hand)))
        laid = rng.sample(hand, count)
        for key in laid:
            hand.remove(key)
        pile.extend(laid)
        decisions += 1
        challenger = None
        for step in range(1, players):
            decisions += 1
            if rng.random() < challenge:
                challenger = (seat + step) % players
                break
        if challenger is not None:
            lie = any(key // 4 != rank for key in laid)
            taker = seat if lie else challenger
            hands[taker].extend(pile)
            hands[taker].sort()
            pile.clear()
            if not lie and not hand:
                return decisions
        elif not hand:
            return decisions
        rank = rank % 13 + 1
        seat = (seat + 1) % players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--challenge", type=float, default=0.1)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    args = parser.parse_args()

    engine_seconds = minimal_seconds = float("inf")
    for _ in range(args.repeat):
        engine_decisions = 0
        start = time.perf_counter()
        for seed in range(args.games):
            engine_decisions += len(engine_game(seed, args.players, args.challenge))
        engine_seconds = min(engine_seconds, time.perf_counter() - start)

        minimal_decisions = 0
        start = time.perf_counter()
        for seed in range(args.games):
            minimal_decisions += minimal_game(seed, args.players, args.challenge)
        minimal_seconds = min(minimal_seconds, time.perf_counter() - start)

    if engine_decisions != minimal_decisions:
        raise SystemExit(
            f"the two loops disagree: {engine_decisions} decisions through the API, "
            f"{minimal_decisions} in the minimal loop"
        )
    engine_rate = engine_decisions / engine_seconds
    minimal_rate = minimal_decisions / minimal_seconds
    print(f"{args.games} games, {args.players} players, {engine_decisions} decisions")
    print(f"public API:   {engine_rate:>12,.0f} decisions/s")
    print(f"minimal loop: {minimal_rate:>12,.0f} decisions/s")
    print(f"ratio:        {minimal_rate / engine_rate:>12.2f}x slower than the floor (target <= 6)")

    # A long game: ten seats on two packs, where frequent challenges keep the
    # pile moving between hands (seed 0 runs to some 15,000 decisions and
    # 20,000 events). Compare a window early in it with the last one.
    window = 2_000
    times = engine_game(seed=0, players=10, challenge=0.7)
    early = sum(times[500 : 500 + window]) / window
    late = sum(times[-window:]) / window
    print(
        f"long game:    {len(times)} decisions; early {early * 1e6:.1f} us/decision, "
        f"late {late * 1e6:.1f} us/decision, late/early {late / early:.2f} (target <= 1.2)"
    )

    # Memory: keeping every state of that long game (as a search tree or an
    # undo list would) costs little, because states share their log and pile.
    tracemalloc.start()
    states = engine_states(seed=0, players=10, challenge=0.7)
    kept, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"memory:       all {len(states)} states of the long game kept: "
        f"{kept / 2**20:.1f} MiB, {kept / len(states):,.0f} bytes per state"
    )


if __name__ == "__main__":
    main()
