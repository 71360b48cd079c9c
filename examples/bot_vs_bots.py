"""Your bot against the reference bots: a seeded tournament, seats rotated.

A bot is any object with ``act(observation, rng)``. This one trusts every
claim and lays a single card each turn, true when it can. The arena seats it
beside CountingBot and RandomBot, rotates the seats every game, and prints
each bot's win rate with its 95% confidence interval.

Run: ``python examples/bot_vs_bots.py`` (the games run on every core).
"""

from __future__ import annotations

import random

import cheatrules as cr
from cheatrules.arena import tournament
from cheatrules.bots import Agent, CountingBot, RandomBot


class OneCardBot:
    """Believes every claim; lays one card a turn, a true one when it holds one."""

    def act(self, seen: cr.Observation, rng: random.Random) -> cr.Action:
        if seen.phase is cr.Phase.CHALLENGE:
            return cr.Accept()
        if seen.phase is not cr.Phase.PLAY:
            return seen.legal_actions()[0]
        rank = rng.choice(seen.allowed_ranks)
        true = [card for card in seen.hand if card.rank is rank]
        return cr.Play((true or [rng.choice(seen.hand)])[:1], rank)


def main(games: int = 30) -> None:
    lineup: list[Agent] = [OneCardBot(), CountingBot(), RandomBot()]
    results = tournament(cr.english(3), lineup, games, seed=2026)
    print(results.table())


if __name__ == "__main__":
    main()
