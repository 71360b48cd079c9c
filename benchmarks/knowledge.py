"""What a seat's card knowledge costs as a game goes on: ``knowledge()`` against ``apply()``.

Run: ``python benchmarks/knowledge.py``. It prints, each as a ratio measured
in this one run:

* per decision, ``observe(to_move).knowledge()`` as a multiple of the
  ``apply`` that made the state, in 8-player English (two packs) over
  decisions 200 to 1200 of seeded random games played as a bot plays them
  (apply, observe, ask for the knowledge, decide);
* the cost of ``knowledge()`` late in long 8-player games (decisions 3000 to
  3300) over its cost early (the first 300 decisions);
* the same figures for 4-player English (one pack, every card followed),
  whose games are shorter: decisions 0 to 600 (twenty times over, since a
  few thousand decisions take a fraction of a second and a shared machine
  makes so short a measure noisy), and late means decisions 300 to 600;
* for reference, the knowledge worked out afresh from the whole log (as an
  observation loaded from a record is) over the incremental one, late in
  the long games.

The long games are long because the players challenge nine claims in ten.
"""

from __future__ import annotations

import random
import time

from parts import decide

import cheatrules as cr
from cheatrules.knowledge import card_knowledge


def bot_loop(
    players: int, seed: int, decisions: int, challenge: float
) -> tuple[list[float], list[float], list[cr.Observation]]:
    """A game played as a bot plays it: each ``apply``, and ``knowledge()`` of the view after."""
    rng = random.Random(seed)
    state = cr.deal(cr.english(players), seed=seed)
    applies: list[float] = []
    knows: list[float] = []
    views: list[cr.Observation] = []
    clock = time.perf_counter
    while not state.is_over and len(applies) < decisions:
        action = decide(state, rng, challenge)
        start = clock()
        state = state.apply(action)
        applies.append(clock() - start)
        if state.to_move is None:
            knows.append(0.0)
            continue
        seen = state.observe(state.to_move)
        start = clock()
        seen.knowledge()
        knows.append(clock() - start)
        views.append(seen)
    return applies, knows, views


def per_decision(players: int, first: int = 200, last: int = 1200, repeat: int = 3) -> float:
    """``knowledge()`` over ``apply``, summed over decisions ``first`` to ``last``.

    Games of random play are shorter than ``last``: each gives its decisions
    from ``first`` on, game after game, until ``last - first`` are counted
    (``repeat`` times over).
    """
    apply = know = 0.0
    seed = counted = 0
    while counted < repeat * (last - first):
        applies, knows, _ = bot_loop(players, seed, last, challenge=0.1)
        seed += 1
        apply += sum(applies[first:])
        know += sum(knows[first:])
        counted += len(applies[first:])
    return know / apply


def late_over_early(
    players: int, late: int = 3000, games: int = 5, seed: int = 100
) -> tuple[float, float]:
    """Mean ``knowledge()`` over decisions ``late`` to ``late + 300`` over that of the first 300.

    Also the knowledge worked out afresh from a copy of the log with no
    shared history (a tuple), over the incremental one, at those late
    decisions.
    """
    early = later = 0.0
    afresh = 0.0
    played = 0
    while played < games:
        _, knows, views = bot_loop(players, seed, late + 300, challenge=0.9)
        seed += 1
        if len(knows) < late + 300:
            continue
        played += 1
        early += sum(knows[:300])
        later += sum(knows[late : late + 300])
        start = time.perf_counter()
        for seen in views[-30:]:
            card_knowledge(
                cr.Observation(seen.seat, seen.hand, seen.table, seen.decision, tuple(seen.events))
            )
        afresh += (time.perf_counter() - start) / 30 * 300
    return later / early, afresh / later


def main() -> None:
    ratio = per_decision(8)
    flat, afresh = late_over_early(8)
    print("8-player English, two packs:")
    print(f"  knowledge() / apply, decisions 200-1200              {ratio:8.2f} x")
    print(f"  knowledge() late (3000-3300) / early (first 300)      {flat:8.2f} x")
    print(f"  from the whole log afresh / incremental, late          {afresh:8.0f} x")
    ratio = per_decision(4, first=0, last=600, repeat=20)  # short games: more of them
    flat, afresh = late_over_early(4, late=300)
    print("4-player English, one pack (every card followed):")
    print(f"  knowledge() / apply, decisions 0-600                 {ratio:8.2f} x")
    print(f"  knowledge() late (300-600) / early (first 300)        {flat:8.2f} x")
    print(f"  from the whole log afresh / incremental, late          {afresh:8.0f} x")


if __name__ == "__main__":
    main()
