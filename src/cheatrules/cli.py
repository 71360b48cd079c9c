"""The ``cheatrules`` command: watch a narrated game among random bots.

Run ``python -m cheatrules --seed 7`` (or ``cheatrules --seed 7`` once
installed); ``--variant verish`` plays Verish' Ne Verish'.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from cheatrules.actions import Accept, Action, Challenge, Play
from cheatrules.deal import deal
from cheatrules.errors import CheatRulesError
from cheatrules.narration import narrate
from cheatrules.rules import Rules, english, verish
from cheatrules.state import GameState, Phase

__all__ = ["VARIANTS", "main", "random_decision"]

#: The games the command line offers, each with its rules, name, and challenge call.
VARIANTS: dict[str, tuple[Callable[..., Rules], str, str]] = {
    "english": (english, "English Cheat", "Cheat!"),
    "verish": (verish, "Verish' Ne Verish'", "I don't believe!"),
}


def random_decision(state: GameState, rng: random.Random, challenge: float = 0.15) -> Action:
    """A random bot's decision: lay random cards of its hand, challenge now and then.

    It lays as many cards as a claim allows, announcing the required rank (or
    a random allowed one); whenever it may challenge, it does so with
    probability ``challenge``; it discards a random choice of its fours. It
    reads only its own hand and the public table.
    """
    legal = state.legal_actions()
    if legal and isinstance(legal[0], Challenge) and rng.random() < challenge:
        return legal[0]
    if state.phase is Phase.PLAY:
        hand = state.hands[state.to_move]  # type: ignore[index]
        claims = state.rules.claims
        count = rng.randint(claims.minimum, min(claims.maximum, len(hand)))
        return Play(tuple(rng.sample(hand, count)), rng.choice(state.allowed_ranks))
    if state.phase is Phase.CHALLENGE:
        return Accept()
    return rng.choice(list(legal))


def watch(
    seed: int, players: int, delay: float, out: TextIO, variant: str = "english"
) -> GameState:
    """Deal a seeded game, let random bots play it, and narrate it line by line."""
    make_rules, title, challenge_word = VARIANTS[variant]
    state = deal(make_rules(players), seed=seed)
    rng = random.Random(seed)
    out.write(f"{title}, {players} players, seed {seed}.\n")
    while not state.is_over:
        state = state.apply(random_decision(state, rng))
    for line in narrate(state.events, challenge_word=challenge_word):
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
    parser.add_argument(
        "--variant",
        choices=sorted(VARIANTS),
        default="english",
        help="english (Cheat, 3-10 players) or verish (Verish' Ne Verish', 2-6 players)",
    )
    parser.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    parser.add_argument("--players", type=int, default=4, help="number of players (default: 4)")
    parser.add_argument(
        "--delay", type=float, default=0.0, help="seconds to pause between lines (default: 0)"
    )
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    try:
        watch(seed, args.players, min(max(0.0, args.delay), 10.0), sys.stdout, args.variant)
    except CheatRulesError as error:
        parser.error(str(error))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as other tools do.
        sys.stdout = None
        return 0
    return 0
