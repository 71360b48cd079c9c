"""What the legal-action view costs: counting and drawing, as a ratio to one ``apply``.

Run: ``python benchmarks/legal.py``. It prints, for each case, the time of
one ``apply`` and the cost of the operations below it as a multiple of that
time:

* a 50-card hand under ``english(6, decks=2, jokers=True, claims="any",
  ranks="free")`` (millions of distinct plays): ``len(legal_actions())``
  and a uniformly random legal action (``legal_actions().choice(rng)``);
* 8-player English over decisions 200 to 1200 of seeded random games: a
  uniformly random legal action, and for comparison the old way (list every
  action, then ``rng.choice``).

Each operation is timed on a fresh ``Observation.legal_actions()`` (a state
keeps its own list once made, an observation makes a new one each call), so
nothing is measured from a warm memo.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import cheatrules as cr


def best(function: Callable[[], object], repeat: int = 3, number: int = 20) -> float:
    """The fastest mean time of ``number`` calls, over ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            function()
        times.append((time.perf_counter() - start) / number)
    return min(times)


def huge_hand() -> None:
    rules = cr.english(6, decks=2, jokers=True, claims="any", ranks="free")
    deck = sorted(rules.deck.cards())
    random.Random(0).shuffle(deck)
    hands = [sorted(deck[:50])] + [[card] for card in deck[50:55]]
    state = cr.deal(rules, hands=hands, dealer=5)
    seen = state.observe(0)
    rng = random.Random(1)
    play = state.legal_actions().choice(rng)
    apply = best(lambda: state.apply(play))
    count = best(lambda: len(seen.legal_actions()))
    draw = best(lambda: seen.legal_actions().choice(rng))
    print(f"50-card hand, {len(state.legal_actions()):,} legal actions")
    print(f"  apply                      {apply * 1e6:9.1f} us")
    print(f"  len(legal_actions())       {count / apply:9.2f} x apply")
    print(f"  legal_actions().choice()   {draw / apply:9.2f} x apply")


def long_games(players: int = 8, first: int = 200, last: int = 1200) -> list[cr.GameState]:
    """States ``first`` to ``last`` of seeded random games (another game where one ends)."""
    states: list[cr.GameState] = []
    seed = 0
    while len(states) < last - first:
        rng = random.Random(seed)
        state = cr.deal(cr.english(players), seed=seed)
        for decision in range(last):
            if state.is_over:
                break
            if decision >= first:
                states.append(state)
            if state.phase is cr.Phase.CHALLENGE and rng.random() > 0.1:
                action: cr.Action = cr.Accept()
            else:
                action = state.legal_actions().choice(rng)
            state = state.apply(action)
        seed += 1
    return states[: last - first]


def eight_players() -> None:
    states = long_games()
    rng = random.Random(2)
    seen = [state.observe(state.to_move) for state in states]  # type: ignore[arg-type]
    actions = [view.legal_actions().choice(rng) for view in seen]

    def apply_all() -> None:
        for state, action in zip(states, actions, strict=True):
            state.apply(action)

    def draw_all() -> None:
        for view in seen:
            view.legal_actions().choice(rng)

    def listed_all() -> None:
        for view in seen:
            rng.choice(list(view.legal_actions()))

    apply = best(apply_all, number=2)
    draw = best(draw_all, number=2)
    listed = best(listed_all, number=2)
    per = len(states)
    print(f"8-player English, decisions 200-1200 ({per} states)")
    print(f"  apply                      {apply / per * 1e6:9.1f} us")
    print(f"  legal_actions().choice()   {draw / apply:9.2f} x apply")
    print(f"  rng.choice(list(...))      {listed / apply:9.2f} x apply (listing every action)")


def main() -> None:
    huge_hand()
    eight_players()


if __name__ == "__main__":
    main()
