"""Random playouts through the public API, against a minimal mutable loop.

Run: ``python benchmarks/playout.py [--games N] [--players P] [--short]``.

Both loops play English Cheat with the same policy and the same random
draws, so they play the very same games; the script checks that they agree
decision for decision, then prints:

* decisions per second through the public API, and in the minimal loop (the
  floor: lists mutated in place, no checks, no log), and their ratio
  (target: at most 5 times);
* the same against a tighter floor (cards popped from the hand by index, no
  sorting; the same policy, so games of the same kind, not the very same
  games), and that ratio (target: at most 8 times);
* ``apply`` alone, in microseconds a decision, replaying the games' own
  actions (the policy's time left out), and as a multiple of a decision of
  the floor: the figure to compare between two versions, run after run;
* the cost of a decision late in a long game against early in it, which
  stays flat because the log and the pile are persistent (never copied);
* where OpenSpiel is installed, decisions per second of its own Python game
  ``python_liars_poker`` (two players, its default) against cheatrules'
  English Cheat for four, both played by uniformly random legal actions
  (``legal_actions().choice(rng)`` here), the deal's time counted in both
  (its chance nodes there, :func:`cheatrules.deal` here), and their ratio.

The script uses only public API that every version since the first arc's
end has, so one copy of it can time two installed versions side by side
(the OpenSpiel comparison needs ``LegalActions.choice`` and is left out
where it is missing).

The policy: the player to move lays k = uniform(1..min(4, hand size)) cards
drawn uniformly from the hand, announcing the required rank; each opponent
asked in the challenge window challenges with probability ``--challenge``
(0.1 by default).
"""

from __future__ import annotations

import argparse
import importlib
import random
import time
import tracemalloc
from collections.abc import Callable

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


def engine_playout(seed: int, players: int, challenge: float) -> int:
    """Play one game through the public API; return its number of decisions."""
    rng = random.Random(seed)
    state = cr.deal(cr.english(players), seed=seed)
    decisions = 0
    while not state.is_over:
        state = state.apply(decide(state, rng, challenge))
        decisions += 1
    return decisions


def engine_actions(seed: int, players: int, challenge: float) -> list[cr.Action]:
    """The actions of the game :func:`engine_playout` plays, in order."""
    rng = random.Random(seed)
    state = cr.deal(cr.english(players), seed=seed)
    actions = []
    while not state.is_over:
        action = decide(state, rng, challenge)
        actions.append(action)
        state = state.apply(action)
    return actions


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


def tight_game(seed: int, players: int, challenge: float) -> int:
    """The minimal loop at its tightest: each card laid popped at a random index, no sorting.

    The same rules and policy as :func:`minimal_game` (k cards drawn
    uniformly from the hand), but the cards come from hands in the order
    they came, one random index each, so its games are others of the same
    kind, not the very same games.
    """
    rng = random.Random(seed)
    deck = [card.key for card in cr.english(players).deck.cards()]
    random.Random(seed).shuffle(deck)
    hands = [deck[seat::players] for seat in range(players)]
    pile: list[int] = []
    rank = 1
    seat = 0
    decisions = 0
    while True:
        hand = hands[seat]
        count = rng.randint(1, min(4, len(hand)))
        lie = False
        for _ in range(count):
            index = rng.randrange(len(hand))
            key = hand[index]
            hand[index] = hand[-1]  # the last card fills its place: nothing shifts
            hand.pop()
            pile.append(key)
            lie = lie or key // 4 != rank
        decisions += 1
        challenger = None
        for step in range(1, players):
            decisions += 1
            if rng.random() < challenge:
                challenger = (seat + step) % players
                break
        if challenger is not None:
            hands[seat if lie else challenger].extend(pile)
            pile.clear()
            if not lie and not hand:
                return decisions
        elif not hand:
            return decisions
        rank = rank % 13 + 1
        seat = (seat + 1) % players


def best_rate(play: Callable[[int], int], games: int, repeat: int) -> tuple[int, float]:
    """Decisions in ``games`` seeded games of ``play``, and the best rate over ``repeat`` runs."""
    best = float("inf")
    decisions = 0
    for _ in range(repeat):
        decisions = 0
        start = time.perf_counter()
        for seed in range(games):
            decisions += play(seed)
        best = min(best, time.perf_counter() - start)
    return decisions, decisions / best


def apply_seconds(games: list[list[cr.Action]], players: int, repeat: int) -> float:
    """The best time over ``repeat`` runs of replaying ``games`` with ``apply`` alone."""
    rules = cr.english(players)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for seed, actions in enumerate(games):
            state = cr.deal(rules, seed=seed)
            for action in actions:
                state = state.apply(action)
        best = min(best, time.perf_counter() - start)
    return best


def random_legal_rates(seconds: float) -> tuple[float, float] | None:
    """Decisions per second of ``python_liars_poker`` and of 4-player English, random play.

    Both play uniformly random legal actions for about ``seconds`` each,
    alternating in slices, deals included; ``None`` where OpenSpiel or
    ``LegalActions.choice`` is missing.
    """
    try:
        import pyspiel

        # Importing OpenSpiel's Python game registers it with pyspiel.
        importlib.import_module("open_spiel.python.games.liars_poker")
    except ImportError:
        return None
    if not hasattr(cr, "LegalActions"):
        return None
    game = pyspiel.load_game("python_liars_poker")
    rules = cr.english(4)
    rng = random.Random(0)
    choice = rng.choice

    def poker() -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            decisions += not state.is_chance_node()
            state.apply_action(choice(state.legal_actions()))
        return decisions

    def cheat(seed: int) -> int:
        state = cr.deal(rules, seed=seed)
        decisions = 0
        while not state.is_over:
            state = state.apply(state.legal_actions().choice(rng))
            decisions += 1
        return decisions

    counts = [0, 0]
    spent = [0.0, 0.0]
    seed = 0
    clock = time.perf_counter
    while min(spent) < seconds:
        start = clock()
        while clock() - start < 0.25:
            counts[0] += poker()
        middle = clock()
        while clock() - middle < 0.25:
            counts[1] += cheat(seed)
            seed += 1
        spent[0] += middle - start
        spent[1] += clock() - middle
    return counts[0] / spent[0], counts[1] / spent[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--challenge", type=float, default=0.1)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument(
        "--short", action="store_true", help="the playout figures only, no long game"
    )
    args = parser.parse_args()
    players, challenge, games, repeat = args.players, args.challenge, args.games, args.repeat

    engine_decisions, engine_rate = best_rate(
        lambda seed: engine_playout(seed, players, challenge), games, repeat
    )
    minimal_decisions, minimal_rate = best_rate(
        lambda seed: minimal_game(seed, players, challenge), games, repeat
    )
    _, tight_rate = best_rate(lambda seed: tight_game(seed, players, challenge), games, repeat)
    if engine_decisions != minimal_decisions:
        raise SystemExit(
            f"the two loops disagree: {engine_decisions} decisions through the API, "
            f"{minimal_decisions} in the minimal loop"
        )
    actions = [engine_actions(seed, players, challenge) for seed in range(games)]
    apply_time = apply_seconds(actions, players, repeat) / engine_decisions
    print(f"{games} games, {players} players, {engine_decisions} decisions")
    print(f"public API:   {engine_rate:>12,.0f} decisions/s")
    print(f"minimal loop: {minimal_rate:>12,.0f} decisions/s")
    print(f"tight loop:   {tight_rate:>12,.0f} decisions/s")
    print(f"ratio:        {minimal_rate / engine_rate:>12.2f}x the floor's cost (target <= 5)")
    print(f"tight ratio:  {tight_rate / engine_rate:>12.2f}x the tight floor's (target <= 8)")
    print(
        f"apply:        {apply_time * 1e6:>12.2f} us a decision, "
        f"{apply_time * minimal_rate:.2f} floor decisions"
    )

    rates = random_legal_rates(seconds=1.5)
    if rates is not None:
        liars, cheat = rates
        print(
            f"random legal: python_liars_poker {liars:,.0f} decisions/s, "
            f"cheatrules 4-player English {cheat:,.0f} decisions/s, "
            f"cheatrules/liars poker {cheat / liars:.2f} (target > 1)"
        )
    if args.short:
        return

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
