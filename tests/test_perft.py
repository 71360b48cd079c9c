"""Perft: count every decision sequence from fixed deals, to pin the action generator.

Positions of both games are in the file.

``data/perft.txt`` holds positions and the number of distinct decision
sequences of each depth from them (a sequence that ends the game early is
not counted at deeper depths). The counts were checked against the naive
reference model in ``reference.py``, which finds plays by brute force over
subsets of the hand; the test checks both again. On a mismatch it prints the
count below each first action ("divide"), to show where the generator went
wrong.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

import cheatrules as cr

from .budget import scaled
from .reference import ReferenceCheat, ReferenceVerish
from .test_reference import Model, model_for

PERFT_FILE = Path(__file__).parent / "data" / "perft.txt"

# The README's test command counts the engine's sequences up to these many,
# and the brute-force reference model's up to fewer (it copies a model per
# node); a deeper run (CHEATRULES_EXAMPLES) counts every depth in the file.
ENGINE_COUNTS = scaled(150_000)
REFERENCE_COUNTS = scaled(10_000)


def perft(state: cr.GameState, depth: int) -> int:
    if depth == 0:
        return 1
    if state.is_over:
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(perft(state.apply(action), depth - 1) for action in actions)


def divide(state: cr.GameState, depth: int) -> str:
    return "\n".join(
        f"{action}: {perft(state.apply(action), depth - 1)}" for action in state.legal_actions()
    )


def reference_perft(model: Model, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for kind, ranks, rank in model.legal():
        branch = copy.deepcopy(model)
        if kind == "play":
            hand = list(branch.hands[branch.to_move])  # type: ignore[index]
            cards = []
            for wanted in ranks:
                card = next(card for card in hand if card[0] == wanted)
                hand.remove(card)
                cards.append(card)
            branch.play(cards, rank)
        elif kind == "challenge":
            branch.challenge()
        elif kind == "discard" and isinstance(branch, ReferenceVerish):
            branch.discard(ranks)
        else:
            assert isinstance(branch, ReferenceCheat)
            branch.accept()
        total += reference_perft(branch, depth - 1)
    return total


def read_positions() -> list[tuple[str, cr.GameState, list[tuple[int, int]]]]:
    positions = []
    name, state = "", None
    counts: list[tuple[int, int]] = []
    for line in PERFT_FILE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            if state is not None:
                positions.append((name, state, counts))
            name, state, counts = value, None, []
        elif key == "deal":
            fields = dict(part.split("=", 1) for part in value.split(";"))
            game = cr.verish if fields.get("game") == "verish" else cr.english
            rules = game(int(fields["players"]))
            if "seed" in fields:
                state = cr.deal(rules, seed=int(fields["seed"]))
            else:
                state = cr.deal(
                    rules,
                    dealer=int(fields["dealer"]),
                    hands=fields["hands"].split("|"),
                    hidden=fields.get("hidden"),
                )
        elif key == "perft":
            depth, count = value.split()
            counts.append((int(depth), int(count)))
    assert state is not None
    positions.append((name, state, counts))
    return positions


POSITIONS = read_positions()


@pytest.mark.parametrize(("name", "state", "counts"), POSITIONS, ids=[p[0] for p in POSITIONS])
def test_perft(name: str, state: cr.GameState, counts: list[tuple[int, int]]) -> None:
    for depth, expected in counts:
        if expected > ENGINE_COUNTS:
            break
        found = perft(state, depth)
        assert found == expected, (
            f"{name} perft {depth}: {found} != {expected}\n{divide(state, depth)}"
        )


@pytest.mark.parametrize(("name", "state", "counts"), POSITIONS, ids=[p[0] for p in POSITIONS])
def test_perft_counts_agree_with_the_reference_model(
    name: str, state: cr.GameState, counts: list[tuple[int, int]]
) -> None:
    model = model_for(state)
    for depth, expected in counts:
        if expected > REFERENCE_COUNTS:  # deeper counts rest on the engine (see above)
            break
        assert reference_perft(model, depth) == expected


def test_perft_by_hand() -> None:
    # Seat 0 holds A♣ 7♦ 7♠: one Ace, one 7, A+7, 7+7, A+7+7 (suits never
    # matter) = 5 plays, each followed by Challenge or Accept from seat 1.
    state = cr.deal(cr.english(3), hands=["A♣ 7♦ 7♠", "2♥ K♣", "3♠ 3♦ 9♥"])
    assert perft(state, 1) == 5
    assert perft(state, 2) == 10
