"""What the encodings cost: the legal mask per decision, the action spaces' sizes and build times.

Run: ``python benchmarks/encoding.py``. It prints, each measured in this run:

* per decision, ``ActionSpace.mask_array(observation)`` as a multiple of
  the ``apply`` that made the state, in 8-player English over decisions 200
  to 1200 of seeded random games played as a bot plays them (apply,
  observe, mask; the observation is made outside the timing), and the same
  for ``InformationStateEncoder.encode``; targets: mask at most 3 times;
* the mask late in long 8-player games (decisions 3000 to 3300) over early
  (the first 300), and the same for the information-state vector; target
  at most 1.3;
* the mask of a 25-card hand, in microseconds;
* the size of the action space of several option sets, and the time to
  build it (target: well under a second for the largest named options).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import attrs
from parts import decide

import cheatrules as cr
from cheatrules.encoding import ActionSpace, InformationStateEncoder

#: The option sets whose action spaces are measured.
SPACES: tuple[tuple[str, Callable[[], cr.Rules]], ...] = (
    ("english(4)", lambda: cr.english(4)),
    ("english(8)", lambda: cr.english(8)),
    ("verish(3)", lambda: cr.verish(3)),
    ("verish(4, pack=52)", lambda: cr.verish(4, pack=52)),
    ('english(8, discards="any-time")', lambda: cr.english(8, discards="any-time")),
    ('english(8, discards="after-pickup")', lambda: cr.english(8, discards="after-pickup")),
    ('english(4, ranks="free")', lambda: cr.english(4, ranks="free")),
    (
        'english(4, ranks="hold", window="extended", passing="consent")',
        lambda: cr.english(4, ranks="hold", window="extended", passing="consent"),
    ),
    ('english(6, jokers=True, claims="any")', lambda: cr.english(6, jokers=True, claims="any")),
    (
        'english(6, decks=2, jokers=True, claims="any", ranks="free")',
        lambda: cr.english(6, decks=2, jokers=True, claims="any", ranks="free"),
    ),
)


RULES = cr.english(8)
#: One space and one encoder for every game, as a bot keeps them (the space builds its
#: tables on its first mask, here before any timing).
SPACE, ENCODER = ActionSpace(RULES), InformationStateEncoder(RULES)
SPACE.mask_array(cr.deal(RULES, seed=0).observe(0))


def bot_loop(seed: int, decisions: int, challenge: float) -> tuple[list[float], ...]:
    """One game: the time of each ``apply``, of the mask after it and of the info-state vector."""
    rng = random.Random(seed)
    space, encoder = SPACE, ENCODER
    state = cr.deal(RULES, seed=seed)
    applies: list[float] = []
    masks: list[float] = []
    vectors: list[float] = []
    clock = time.perf_counter
    while not state.is_over and len(applies) < decisions:
        action = decide(state, rng, challenge)
        start = clock()
        state = state.apply(action)
        applies.append(clock() - start)
        seen = state.observe(state.to_move if state.to_move is not None else 0)
        start = clock()
        space.mask_array(seen)
        middle = clock()
        encoder.encode(seen)
        end = clock()
        masks.append(middle - start)
        vectors.append(end - middle)
    return applies, masks, vectors


def per_decision(first: int = 200, last: int = 1200, repeat: int = 3) -> tuple[float, float]:
    """Mask and info-state vector over ``apply``, summed over decisions ``first`` to ``last``."""
    apply = mask = vector = 0.0
    seed = counted = 0
    while counted < repeat * (last - first):
        applies, masks, vectors = bot_loop(seed, last, challenge=0.1)
        seed += 1
        apply += sum(applies[first:])
        mask += sum(masks[first:])
        vector += sum(vectors[first:])
        counted += len(applies[first:])
    return mask / apply, vector / apply


def late_over_early(games: int = 3) -> tuple[float, float]:
    """Mean mask (and vector) time over decisions 3000-3300 over its mean over the first 300."""
    early = [0.0, 0.0]
    late = [0.0, 0.0]
    seed, played = 100, 0
    while played < games:
        _, masks, vectors = bot_loop(seed, 3300, challenge=0.9)
        seed += 1
        if len(masks) < 3300:
            continue
        played += 1
        for slot, times in enumerate((masks, vectors)):
            early[slot] += sum(times[:300])
            late[slot] += sum(times[3000:3300])
    return late[0] / early[0], late[1] / early[1]


def big_hand(repeat: int = 2000) -> tuple[float, float]:
    """Microseconds for the mask of a 25-card hand (a fresh view each time), and for ``apply``."""
    rules = cr.english(3)
    deck = sorted(rules.deck.cards())
    state = cr.deal(rules, hands=[deck[:25], deck[25:38], deck[38:]], dealer=2)
    seen = state.observe(0)
    space = ActionSpace(rules)
    space.mask_array(seen)  # its tables, built once
    play = state.legal_actions()[0]
    clock = time.perf_counter
    start = clock()
    for _ in range(repeat):
        attrs.evolve(seen)  # the cost of a fresh view, taken off below
    copying = clock() - start
    start = clock()
    for _ in range(repeat):
        space.mask_array(attrs.evolve(seen))
    masking = clock() - start - copying
    start = clock()
    for _ in range(repeat):
        state.apply(play)
    applying = clock() - start
    return masking / repeat * 1e6, applying / repeat * 1e6


def spaces() -> None:
    """Each option set's action space: its size, its blocks and the time to build it."""
    for name, make in SPACES:
        rules = make()
        start = time.perf_counter()
        space = ActionSpace(rules)
        built = time.perf_counter() - start
        blocks = ", ".join(f"{block} {length:,}" for block, _, length in space.layout)
        print(f"  {name:62} {space.size:>12,} indices  {built * 1e3:6.2f} ms  ({blocks})")


def main() -> None:
    mask, vector = per_decision()
    print(f"mask_array / apply, 8-player English, decisions 200-1200     {mask:8.2f} x")
    print(f"information-state vector / apply, same decisions             {vector:8.2f} x")
    mask_late, vector_late = late_over_early()
    print(f"mask_array late (3000-3300) / early (first 300)              {mask_late:8.2f} x")
    print(f"information-state vector late / early                        {vector_late:8.2f} x")
    mask_big, apply_big = big_hand()
    print(f"mask_array for a 25-card hand: {mask_big:.1f} µs (apply: {apply_big:.1f} µs)")
    print("action spaces: size and build time")
    spaces()


if __name__ == "__main__":
    main()
