"""What the learning-library adapters cost over the library's own loop.

Run: ``python benchmarks/adapters.py`` (the ``openspiel`` extra installed).
It prints, each measured in this run:

* ``openspiel_overhead()``: random masked play through the OpenSpiel state
  (``legal_actions``, ``information_state_tensor``, ``apply_action``) over
  the library's own loop with the same policy (``state.observe``,
  ``ActionSpace.mask_array``, ``InformationStateEncoder.array``, the float32 vector a network takes,
  ``decode``, ``apply``): the same deals (the OpenSpiel deal's chance
  outcomes replay ``cr.deal(rules, seed=...)``), the same random choices,
  so both play the same games decision for decision; the deal is not timed.
  Target: at most 1.5 times.
"""

from __future__ import annotations

import random
import time

import numpy

import cheatrules as cr
from cheatrules.encoding import ActionSpace
from cheatrules.information_state import InformationStateEncoder

#: The games measured: a name, the rules, OpenSpiel's game and parameters, the seeds.
OPENSPIEL_GAMES: tuple[tuple[str, cr.Rules, str, dict[str, int], range], ...] = (
    ("english(4)", cr.english(4), "python_cheat", {"players": 4}, range(6)),
    ("verish(3)", cr.verish(3), "python_verish", {"players": 3}, range(60)),
)


def _library_loop(rules: cr.Rules, seeds: range, max_steps: int) -> tuple[float, int]:
    space = ActionSpace(rules)
    encoder = InformationStateEncoder(rules)
    elapsed = 0.0
    decisions = 0
    for seed in seeds:
        state = cr.deal(rules, seed=seed)
        rng = random.Random(seed)
        start = time.perf_counter()
        steps = 0
        while not state.is_over and steps < max_steps:
            seat = state.to_move
            assert seat is not None
            seen = state.observe(seat)
            legal = numpy.flatnonzero(space.mask_array(seen)).tolist()
            encoder.array(seen)
            state = state.apply(space.decode(rng.choice(legal), seen))
            steps += 1
        elapsed += time.perf_counter() - start
        decisions += steps
    return elapsed, decisions


def _openspiel_loop(name: str, parameters: dict[str, int], seeds: range) -> tuple[float, int]:
    import pyspiel

    import cheatrules.openspiel  # registers the games

    game: cheatrules.openspiel.CheatGame = pyspiel.load_game(name, parameters)
    rules = game.rules
    elapsed = 0.0
    decisions = 0
    for seed in seeds:
        state = game.new_initial_state()
        for key in _deal_order(cr.deal(rules, seed=seed)):
            state.apply_action(key)
        rng = random.Random(seed)
        start = time.perf_counter()
        while not state.is_terminal():
            player = state.current_player()
            legal = state.legal_actions()
            state.information_state_tensor(player)
            state.apply_action(rng.choice(legal))
        elapsed += time.perf_counter() - start
        decisions += state.steps
    return elapsed, decisions


def _deal_order(state: cr.GameState) -> list[int]:
    """The chance outcomes that deal ``state``'s cards: set aside, then round from seat 0."""
    rules = state.rules
    hands = [list(hand) for hand in state.hands]
    order = [card.key for card in state.set_aside]
    for position in range(sum(map(len, hands))):
        order.append(hands[position % rules.players].pop(0).key)
    return order + [card.key for card in state.stock]


def openspiel_overhead() -> None:
    """Random masked play through the OpenSpiel games over the library's own loop."""
    from cheatrules.openspiel import DEFAULT_MAX_STEPS

    print("OpenSpiel: random masked play, time per decision (the same games in both loops)")
    for label, rules, name, parameters, seeds in OPENSPIEL_GAMES:
        _openspiel_loop(name, parameters, seeds[:1])  # warm up: imports, encoders
        library, decisions = _library_loop(rules, seeds, DEFAULT_MAX_STEPS)
        adapter, checked = _openspiel_loop(name, parameters, seeds)
        assert checked == decisions, (checked, decisions)
        print(
            f"  {label}: {decisions} decisions; library {library / decisions * 1e6:.0f} µs, "
            f"OpenSpiel {adapter / decisions * 1e6:.0f} µs: {adapter / library:.2f}x "
            "(target <= 1.5x)"
        )


if __name__ == "__main__":
    openspiel_overhead()
