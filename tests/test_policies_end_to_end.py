"""House rules written outside the package, through every tool a seat has.

Each policy here is defined in this file, as a user would write one, and
played through the engine, then through a seat's view, its record, what it
knows, a sample of the game behind it, both encoders, the action mask, the
narration and the picture. A tool that cannot serve a policy says so with a
clear error, never a wrong answer.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules import svg
from cheatrules.bots import SamplingBot
from cheatrules.chance import Chance
from cheatrules.encoding import ActionSpace, ObservationEncoder
from cheatrules.information_state import InformationStateEncoder
from cheatrules.narration import narrate
from cheatrules.policies import Ascending, ClaimSize

from .budget import examples


@attrs.frozen
class TwoCardsByChance:
    """A check: two cards of the challenged group, drawn at random (all of a smaller group)."""

    def shown(self, cards: tuple[cr.Card, ...], chance: Chance) -> tuple[cr.Card, ...]:
        if len(cards) <= 2:
            return cards
        first = chance.randrange(len(cards))
        second = chance.randrange(len(cards) - 1)
        second += second >= first
        return (cards[first], cards[second])


@attrs.frozen
class HighestCard:
    """A check: the highest card of the group is turned over, no chance involved."""

    def shown(self, cards: tuple[cr.Card, ...], chance: Chance) -> tuple[cr.Card, ...]:
        return (cards[-1],)


@attrs.frozen
class BackToAces:
    """A rank order: ascending, but every challenge sends the sequence back to Aces."""

    def allowed(
        self, previous: cr.Rank | None, table_empty: bool, ranks: tuple[cr.Rank, ...]
    ) -> tuple[cr.Rank, ...]:
        if table_empty:
            return (cr.Rank.ACE,)
        return Ascending().allowed(previous, table_empty, ranks)


@attrs.frozen
class UpToHalf(ClaimSize):
    """A claim size: 1 card up to half the hand (at most 4); a hand of one lays it."""

    def sizes(self, hand_size: int) -> range:
        return range(1, max(1, min(self.maximum, hand_size // 2)) + 1) if hand_size else range(0)

    def allows(self, count: int, hand_size: int) -> bool:
        return count in self.sizes(hand_size)


for policy in (TwoCardsByChance, HighestCard, BackToAces, UpToHalf):
    cr.register_policy(policy)

SERVED = {
    "two cards by chance": cr.english(4).replace(check=TwoCardsByChance()),
    "two cards by chance, two packs": cr.english(5, decks=2).replace(check=TwoCardsByChance()),
    "back to aces": cr.english(4).replace(ranks=BackToAces()),
    "up to half the hand": cr.english(3).replace(claims=UpToHalf()),
    "verish, two cards by chance": cr.verish(4).replace(check=TwoCardsByChance()),
}


def _through_every_tool(state: cr.GameState, seat: int, rng: random.Random) -> None:
    rules = state.rules
    seen = state.observe(seat)
    assert cr.loads_view(cr.dumps(seen)) == seen
    known = seen.knowledge()
    assert all(
        not (set(cards) - set(state.hands[other])) for other, cards in enumerate(known.hands)
    )
    world = seen.sample(rng, timeout=30)
    assert world.observe(seat) == seen
    ObservationEncoder(rules).encode(seen)
    InformationStateEncoder(rules).encode(seen)
    space = ActionSpace(rules)
    if seen.to_move == seat:
        mask = space.mask(seen)
        assert sum(mask) == len(seen.legal_actions())
        action = seen.legal_actions().choice(rng)
        assert space.decode(space.encode(action, seen), seen).text() == action.text()
    assert list(narrate(seen.events))
    assert svg.render(seen).startswith("<svg")


@examples(6)
@given(st.sampled_from(sorted(SERVED)), st.integers(0, 2**32))
def test_a_policy_of_one_s_own_works_with_every_tool(name: str, seed: int) -> None:
    rules = SERVED[name]
    rng = random.Random(seed)
    state = cr.deal(rules, seed=seed)
    for step in range(rng.randrange(60, 240)):
        if state.is_over:
            break
        if state.phase is cr.Phase.CHALLENGE and rng.random() < 0.35:
            state = state.apply(cr.Challenge())
        else:
            state = state.apply(state.legal_actions().choice(rng))
        if step % 40 == 39:
            _through_every_tool(state, rng.randrange(rules.players), rng)
    _through_every_tool(state, rng.randrange(rules.players), rng)


def test_a_check_by_places_is_refused_by_the_sampler_in_so_many_words() -> None:
    # The highest card of seat 0's group turned over: where it lay says the
    # group's other cards rank below it, which the sampler cannot place.
    rules = cr.english(3).replace(check=HighestCard())
    state = cr.deal(rules, hands=["7♣ 9♦ K♦ 2♠", "A♠ 5♥", "A♥ 6♦"])
    state = state.apply(cr.Play("7♣ 9♦ K♦", "A")).apply(cr.Challenge())
    seen = state.observe(1)
    assert seen.events[-2].positions == (2,)  # type: ignore[attr-defined]
    with pytest.raises(cr.RulesError, match="by their places in it, not by chance"):
        seen.sample(random.Random(0))
    # Refused for every view under these rules, from the deal on, and by the
    # bot that samples at its first decision: never a surprise in mid-game.
    with pytest.raises(cr.RulesError, match="turns over 1 of a group of 2 by their places"):
        cr.deal(rules, seed=1).observe(0).sample(random.Random(0))
    with pytest.raises(cr.RulesError, match="cannot serve these rules' check"):
        SamplingBot().act(cr.deal(rules, seed=1).observe(0), random.Random(0))
    # Every other tool serves it.
    assert cr.loads_view(cr.dumps(seen)) == seen
    assert seen.knowledge().hands[0] == cr.cards("K♦")  # shown, and taken back by its liar
