"""The seat tools from many threads at once answer as they do from one.

Every cache they keep (with a view's log, in an action space, by value for
the whole process) is shared by the threads that use it; none may raise or
give another answer under concurrent use. Each task observes a state of a
real game, asks for the knowledge, a sample with its own seeded ``rng``,
the information-state vector and the action mask, and the answers are
compared with those of one thread, task by task. The threaded run goes
first, on games of its own, so it fills the caches of their logs from
cold, eight threads at once, with threads switching every few
microseconds.
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import attrs
import pytest

import cheatrules as cr
from cheatrules.encoding import ActionSpace
from cheatrules.information_state import InformationStateEncoder

from .budget import scaled

#: The games: rules, seed, how many decisions are played, every how many
#: decisions a state is observed (more states than a log keeps folds of, so
#: the caches drop old ones as they go), and how many seeds sample the
#: deepest. Two of them with two packs, where the knowledge counts copies
#: and the sampler tells copies apart; seat 1's deepest view of the third
#: is one where a sample's blame once leaked into the next.
GAMES = (
    (cr.english(4), 1, 80, 2, 1),
    (cr.verish(3), 2, 80, 2, 1),
    (cr.english(4, decks=2), 4, 120, 4, 4),
    (cr.english(3, decks=2, window="extended"), 3, 60, 3, 1),
)
#: Every how many decisions the states observed are sampled too (with one seed).
SAMPLED = 30

#: A task: the game, the decision, the seat, the sample's seed (None: no
#: sample), and whether the view's log is made a plain tuple (as a view
#: loaded from a record has).
Task = tuple[int, int, int, int | None, bool]


def _played(rules: cr.Rules, seed: int, decisions: int) -> list[cr.GameState]:
    """The states of a seeded random game, from the deal (accepting three claims in four)."""
    rng = random.Random(seed)
    states = [cr.deal(rules, seed=seed)]
    while len(states) <= decisions and not states[-1].is_over:
        state = states[-1]
        if state.phase is cr.Phase.CHALLENGE and rng.random() >= 0.25:
            states.append(state.apply(cr.Accept()))
        else:
            states.append(state.apply(state.legal_actions().choice(rng)))
    return states


def _seeds(depth: int, decisions: int, deepest: int) -> list[int | None]:
    """The seeds a view at ``depth`` is sampled with: none, one, or ``deepest`` at the deepest."""
    if depth == decisions:
        return list(range(scaled(deepest)))
    if depth % SAMPLED == 0:
        return list(range(scaled(1)))
    return [None]


def _tasks() -> list[Task]:
    """Every game, observed decision and seat, next to each other.

    The tasks of one view follow each other, so that threads ask about the
    same view, and the same logs, at the same time.
    """
    return [
        (game, depth, seat, seed, depth % 10 == 6)
        for game, (rules, _, decisions, every, deepest) in enumerate(GAMES)
        for depth in range(0, decisions + 1, every)
        for seat in range(rules.players)
        for seed in _seeds(depth, decisions, deepest)
    ]


class _Tools:
    """A run's games, and one encoder and action space per game, shared by its threads."""

    def __init__(self) -> None:
        self.games = [_played(rules, seed, decisions) for rules, seed, decisions, *_ in GAMES]
        self.encoders = [InformationStateEncoder(game[0]) for game in GAMES]
        self.spaces = [ActionSpace(game[0]) for game in GAMES]

    def answers(self, task: Task) -> tuple[Any, ...]:
        """What each tool says of the task's view."""
        game, depth, seat, seed, flat = task
        states = self.games[game]
        seen = states[min(depth, len(states) - 1)].observe(seat)
        if flat:
            seen = attrs.evolve(seen, events=tuple(seen.events))
        knowledge = seen.knowledge()
        sampled = None if seed is None else seen.sample(random.Random(seed))
        vector = self.encoders[game].encode(seen)
        mask = bytes(self.spaces[game].mask(seen))
        gives = sampled is None or sampled.observe(seat) == seen
        return seen, knowledge, sampled, gives, vector, mask


@pytest.fixture
def switching_often() -> Iterator[None]:
    """Threads switch every few microseconds (not every 5 ms), so races show."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


@pytest.mark.usefixtures("switching_often")
def test_the_seat_tools_answer_from_eight_threads_as_from_one() -> None:
    tasks = _tasks()
    threaded = _Tools()
    start = threading.Barrier(8)

    def first(_: int) -> None:
        start.wait()  # every thread begins at once

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(first, range(8)))
        found = list(pool.map(threaded.answers, tasks))
    alone = _Tools()
    expected = [alone.answers(task) for task in tasks]
    for task, answer, wanted in zip(tasks, found, expected, strict=True):
        assert answer == wanted, task
        assert answer[3], task  # the sample gives the view
