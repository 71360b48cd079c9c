"""A game saved as a record, read back, and narrated; and one seat's view of it.

Run: ``python examples/replay_record.py``
"""

from __future__ import annotations

import random

import cheatrules as cr
from cheatrules.narration import narrate
from cheatrules.variants import challenge_call


def main() -> None:
    state = cr.deal(cr.verish(3), seed=21)
    rng = random.Random(21)
    for _ in range(12):
        if state.is_over:
            break
        state = state.apply(rng.choice(list(state.legal_actions())))
    text = cr.dumps(state)
    print(f"the record is {len(text)} characters of JSON")

    replayed = cr.loads(text)
    assert replayed == state
    for line in narrate(replayed.events, challenge_word=challenge_call(replayed.rules)):
        print(" ", line)

    # Seat 1's view, for sharing without giving away anyone's cards.
    view = cr.loads_view(cr.dumps(state, seat=1))
    assert view == state.observe(1)
    print(view)


if __name__ == "__main__":
    main()
