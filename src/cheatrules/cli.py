"""The ``cheatrules`` command: watch a narrated game among random bots.

Run ``python -m cheatrules --seed 7`` (or ``cheatrules --seed 7`` once
installed).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from cheatrules.actions import Accept, Action, Challenge, Play
from cheatrules.deal import deal
from cheatrules.errors import CheatRulesError
from cheatrules.narration import narrate
from cheatrules.rules import english
from cheatrules.state import GameState, Phase

__all__ = ["main", "random_decision"]


def random_decision(state: GameState, rng: random.Random, challenge: float = 0.15) -> Action:
    """A random bot's decision: lay 1-4 random cards of its hand, challenge now and then.

    It announces the required rank (or a random allowed one), and each time it
    is asked, challenges with probability ``challenge``. It reads only its own
    hand and the public table.
    """
    if state.phase is Phase.PLAY:
        hand = state.hands[state.to_move]  # type: ignore[index]
        claims = state.rules.claims
        count = rng.randint(claims.minimum, min(claims.maximum, len(hand)))
        return Play(tuple(rng.sample(hand, count)), rng.choice(state.allowed_ranks))
    if state.phase is Phase.CHALLENGE:
        return Challenge() if rng.random() < challenge else Accept()
    return rng.choice(list(state.legal_actions()))


def watch(seed: int, players: int, delay: float, out: TextIO) -> GameState:
    """Deal a seeded game, let random bots play it, and narrate it line by line."""
    rules = english(players)
    state = deal(rules, seed=seed)
    rng = random.Random(seed)
    out.write(f"English Cheat, {players} players, seed {seed}.\n")
    while not state.is_over:
        state = state.apply(random_decision(state, rng))
    for line in narrate(state.events):
        out.write(line + "\n")
        if delay:
            out.flush()
            time.sleep(delay)
    out.write(f"{len(state.actions)} decisions, {state.players} players, seed {seed}.\n")
    return state


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(
        prog="cheatrules",
        description="Watch a game of Cheat among random bots, narrated move by move.",
    )
    parser.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    parser.add_argument("--players", type=int, default=4, help="3 to 10 (default: 4)")
    parser.add_argument(
        "--delay", type=float, default=0.0, help="seconds to pause between lines (default: 0)"
    )
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    try:
        watch(seed, args.players, max(0.0, args.delay), sys.stdout)
    except CheatRulesError as error:
        parser.error(str(error))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as other tools do.
        sys.stdout = None
        return 0
    return 0
