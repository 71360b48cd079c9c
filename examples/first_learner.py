"""A first learner for the Gymnasium environment: RandomBots first, then CountingBots.

A linear policy over a few candidate moves, trained by policy gradient
(REINFORCE) with NumPy alone. Against the default CountingBots a policy
that plays at random never wins 3-player Cheat, so the game's own reward
(+1 for a win, -1 for a loss, at the end) would teach it nothing. Two
things give it something to learn from:

* easy opponents first: against RandomBots it wins from the first games;
* a signal at every decision besides the game's reward: the change in its
  standing (how many cards it holds against the others' mean, the measure
  a game cut at ``max_steps`` pays by) up to its next decision.

The candidate moves are challenge, accept, and "lay k cards as the rank
asked for" for k = 1 to 4, its true cards first, then the cards of the rank
it will be asked for last. Each has a few features (below); the policy
picks a move with probability proportional to exp(weights · features).
It prints the win rate of the random policy, and of the learner (playing
its best-scored move) before training and after each stage.

Run: ``python examples/first_learner.py [easy] [hard] [games]``: ``easy``
training games against RandomBots (default 100), then ``hard`` against
CountingBots (default 200), each win rate over ``games`` games (default
100). The defaults take under a minute.
"""

from __future__ import annotations

import sys
import time

import gymnasium
import numpy as np
from numpy.typing import NDArray

import cheatrules as cr
import cheatrules.gymnasium  # registers cheatrules/Cheat-v0
from cheatrules.bots import Agent, CountingBot, RandomBot, claim_odds

Vector = NDArray[np.float64]

#: What each weight of the policy scores, in order.
FEATURES = (
    "challenge",
    "accept",
    "challenge: the odds the claim is a lie",
    "challenge: the claim empties the declarer's hand",
    "challenge: cards on the table / 10",
    "lay: true cards / 4",
    "lay: bluffed cards / 4",
    "lay: a bluff with the last cards",
)

#: How much a decision's return counts the returns of the decisions after it.
DISCOUNT = 0.5
#: The step size of the policy gradient.
LEARNING_RATE = 0.1


def candidates(seen: cr.Observation) -> list[tuple[cr.Action, Vector]]:
    """The moves the learner weighs now, each with its features (empty when it has no choice)."""
    moves: list[tuple[cr.Action, Vector]] = []
    legal = seen.legal_actions()
    claim = seen.last_claim
    if cr.Challenge() in legal and claim is not None:
        features = np.zeros(len(FEATURES))
        features[0] = 1.0
        features[2] = 1.0 - claim_odds(seen)
        features[3] = float(seen.hand_sizes[claim.seat] == 0)
        features[4] = seen.pile_size / 10
        moves.append((cr.Challenge(), features))
    if cr.Accept() in legal:
        features = np.zeros(len(FEATURES))
        features[1] = 1.0
        moves.append((cr.Accept(), features))
    if seen.phase is cr.Phase.PLAY and seen.hand and len(seen.allowed_ranks) == 1:
        (rank,) = seen.allowed_ranks
        ranks = seen.rules.deck.ranks

        def asked_later(card: cr.Card) -> int:
            return (ranks.index(card.rank) - ranks.index(rank)) % len(ranks)

        true = [card for card in seen.hand if card.rank is rank]
        others = sorted((card for card in seen.hand if card.rank is not rank), key=asked_later)
        ordered = true + others[::-1]  # bluff with the ranks asked for last
        for count in range(1, min(seen.rules.claims.maximum, len(seen.hand)) + 1):
            laid = tuple(ordered[:count])
            bluffs = sum(card.rank is not rank for card in laid)
            features = np.zeros(len(FEATURES))
            features[5] = (count - bluffs) / 4
            features[6] = bluffs / 4
            features[7] = float(bluffs > 0 and count == len(seen.hand))
            moves.append((cr.Play(laid, rank), features))
    return moves


def standing(seen: cr.Observation) -> float:
    """The learner's standing: the others' mean hand size less its own, over 10."""
    others = [size for seat, size in enumerate(seen.hand_sizes) if seat != seen.seat]
    return (sum(others) / len(others) - len(seen.hand)) / 10


def episode(
    env: gymnasium.Env[object, object],
    weights: Vector,
    rng: np.random.Generator,
    *,
    learn: bool,
) -> float:
    """Play one game; with ``learn``, sample moves and update ``weights``, else play the best.

    Returns the game's reward to the learner: +1 for a win, -1 for a loss.
    """
    game = env.unwrapped
    assert isinstance(game, cheatrules.gymnasium.CheatEnv)
    _, info = env.reset(seed=int(rng.integers(2**31)))
    gradients: list[Vector] = []
    gains: list[float] = []
    before: float | None = None
    while True:
        seen = game.state.observe(game.seat)
        now = standing(seen)
        if before is not None:
            gains.append(now - before)  # the change since the learner's last decision
        before = now
        moves = candidates(seen)
        if not moves:  # no choice the policy weighs: any legal index
            index = int(rng.choice(np.flatnonzero(info["action_mask"])))
            gradients.append(np.zeros(len(FEATURES)))
        else:
            features = np.array([move_features for _, move_features in moves])
            scores = features @ weights
            if learn:
                chances = np.exp(scores - scores.max())
                chances /= chances.sum()
                chosen = int(rng.choice(len(moves), p=chances))
                gradients.append(features[chosen] - chances @ features)
            else:
                chosen = int(rng.choice(np.flatnonzero(scores == scores.max())))
            index = game.action_encoding.encode(moves[chosen][0], seen)
        _, reward, terminated, truncated, info = env.step(index)
        if terminated or truncated:
            gains.append(float(reward) + standing(game.state.observe(game.seat)) - before)
            break
    if learn:
        carried = 0.0
        for gradient, gain in zip(reversed(gradients), reversed(gains), strict=True):
            carried = gain + DISCOUNT * carried
            weights += LEARNING_RATE * carried * gradient
    return float(reward)


def random_episode(env: gymnasium.Env[object, object], rng: np.random.Generator) -> float:
    """One game of uniformly random legal actions: the game's reward."""
    _, info = env.reset(seed=int(rng.integers(2**31)))
    while True:
        _, reward, terminated, truncated, info = env.step(
            rng.choice(np.flatnonzero(info["action_mask"]))
        )
        if terminated or truncated:
            return float(reward)


def table(opponents: Agent) -> gymnasium.Env[object, object]:
    """3-player English Cheat, the learner in seat 0, ``opponents`` in the other seats."""
    return gymnasium.make("cheatrules/Cheat-v0", players=3, opponents=opponents)


def main(easy: int = 100, hard: int = 200, games: int = 100) -> None:
    start = time.perf_counter()
    rng = np.random.default_rng(2026)
    tables = {"RandomBots": table(RandomBot()), "CountingBots": table(CountingBot())}
    weights = np.zeros(len(FEATURES))

    def report(label: str, play: str) -> None:
        rates = []
        for env in tables.values():
            if play == "random":
                won = [random_episode(env, rng) == 1.0 for _ in range(games)]
            else:
                won = [episode(env, weights, rng, learn=False) == 1.0 for _ in range(games)]
            rates.append(f"{sum(won) / games:>14.2f}")
        print(f"{label:<38}{''.join(rates)}")

    print(f"{f'win rate over {games} games':<38}{'RandomBots':>14}{'CountingBots':>14}")
    report("random legal actions", "random")
    report("learner, untrained", "learner")
    for _ in range(easy):
        episode(tables["RandomBots"], weights, rng, learn=True)
    report(f"after {easy} games against RandomBots", "learner")
    for _ in range(hard):
        episode(tables["CountingBots"], weights, rng, learn=True)
    report(f"then {hard} against CountingBots", "learner")
    for name, weight in zip(FEATURES, weights, strict=True):
        print(f"  weight {weight:+5.1f}  {name}")
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main(*(int(argument) for argument in sys.argv[1:4]))
