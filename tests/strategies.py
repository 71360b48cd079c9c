"""Hypothesis strategies and random play shared by the property tests."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

import cheatrules as cr


@st.composite
def english_rules(draw: st.DrawFn) -> cr.Rules:
    """Any legal ``english()`` composition: 3-10 players, one or two packs."""
    players = draw(st.integers(min_value=3, max_value=10))
    if players == 6:
        return cr.english(players, decks=draw(st.sampled_from([1, 2])))
    return cr.english(players)


@st.composite
def verish_rules(draw: st.DrawFn) -> cr.Rules:
    """Any legal ``verish()`` composition: 2-6 players, 36 or 52 cards."""
    players = draw(st.integers(min_value=2, max_value=6))
    return cr.verish(players, pack=draw(st.sampled_from([36, 52])))


def any_rules() -> st.SearchStrategy[cr.Rules]:
    """The rules of either game."""
    return st.one_of(english_rules(), verish_rules())


@st.composite
def small_deals(
    draw: st.DrawFn,
    rules: st.SearchStrategy[cr.Rules] | None = None,
    min_cards: int = 1,
    max_cards: int = 6,
) -> cr.GameState:
    """A fixed deal of a few cards per seat, so that games are short and varied."""
    chosen = draw(rules if rules is not None else any_rules())
    deck = list(chosen.deck.cards())
    random.Random(draw(st.integers(0, 2**32))).shuffle(deck)
    hands = []
    for _ in range(chosen.players):
        size = draw(st.integers(min_value=min_cards, max_value=max_cards))
        hands.append(deck[:size])
        deck = deck[size:]
    hidden = deck[: chosen.dealing.set_aside]
    dealer = draw(st.integers(min_value=0, max_value=chosen.players - 1))
    return cr.deal(chosen, hands=hands, dealer=dealer, hidden=hidden or None)


@st.composite
def deals(draw: st.DrawFn, rules: st.SearchStrategy[cr.Rules] | None = None) -> cr.GameState:
    """A seeded full deal, or a small fixed one, of either game (or of ``rules``)."""
    if draw(st.booleans()):
        return draw(small_deals(rules))
    chosen = draw(rules if rules is not None else any_rules())
    return cr.deal(chosen, seed=draw(st.integers(0, 2**64)))


#: House options that change what a seat sees, each drawn now and then by :func:`house_options`.
HOUSE_OPTIONS: tuple[dict[str, object], ...] = (
    {"jokers": True},
    {"jokers": 1, "check": "jokers-protect"},
    {"check": "one-card"},
    {"window": "extended"},
    {"passing": "consent"},
    {"stock": 3},
)


def house_options(rng: random.Random) -> dict[str, object]:
    """No house option half the time; otherwise one or two of :data:`HOUSE_OPTIONS`."""
    if rng.random() < 0.5:
        return {}
    chosen: dict[str, object] = {}
    for options in rng.sample(HOUSE_OPTIONS, rng.randint(1, min(2, len(HOUSE_OPTIONS)))):
        chosen |= options
    return chosen


def random_action(state: cr.GameState, rng: random.Random, challenge: float = 0.25) -> cr.Action:
    """A legal action for the player to move, with random suits where ranks tie.

    Plays are drawn from the hand directly (not from ``legal_actions``), so
    the concrete cards vary the way a real player's would. A claim is
    challenged with probability ``challenge`` each time one can be: at one
    half, ten players challenge nearly every claim and a game can run for
    hours.
    """
    legal = state.legal_actions()
    if state.phase is cr.Phase.CHALLENGE:
        if rng.random() >= challenge:
            return cr.Accept()
        return rng.choice([action for action in legal if isinstance(action, cr.Challenge)])
    if state.phase is not cr.Phase.PLAY:
        return rng.choice(list(legal))
    if legal[0] == cr.Challenge() and rng.random() < challenge:
        return cr.Challenge()
    if cr.Pass() in legal[:2] and rng.random() < 0.2:
        return cr.Pass()
    hand = state.hands[state.to_move]  # type: ignore[index]
    sizes = state.rules.claims.sizes(len(hand))  # a small hand lays all it holds
    count = rng.randint(sizes.start, sizes.stop - 1)
    return cr.Play(tuple(rng.sample(hand, count)), rng.choice(state.allowed_ranks))


def play_randomly(state: cr.GameState, seed: int, limit: int = 3000) -> list[cr.GameState]:
    """Play random legal actions; return every state passed through."""
    rng = random.Random(seed)
    states = [state]
    while not state.is_over and len(states) <= limit:
        state = state.apply(random_action(state, rng))
        states.append(state)
    return states


# -- random compositions of the named house rules ---------------------------------

NAMES = {family: list(choices) for family, choices in cr.rules.NAMED_POLICIES.items()}


@st.composite
def option_combinations(draw: st.DrawFn) -> cr.Rules:
    """Any composition of named options, with or without jokers and a stock."""
    options: dict[str, object] = {
        family: draw(st.sampled_from(names))
        for family, names in NAMES.items()
        if draw(st.booleans())
    }
    if draw(st.booleans()):
        options["jokers"] = draw(st.sampled_from([True, "per-pack", 1]))
    if draw(st.booleans()):
        options["stock"] = draw(st.sampled_from([True, 3, 5]))
    if draw(st.booleans()):
        smallest = draw(st.integers(1, 4))
        options["claims"] = cr.policies.ClaimSize(smallest, draw(st.integers(smallest, 4)))
    english = draw(st.booleans())
    players = draw(st.integers(3, 6) if english else st.integers(2, 6))
    try:
        return cr.english(players, **options) if english else cr.verish(players, **options)
    except cr.RulesError as error:
        # Options that contradict each other, or a stock the deck cannot deal.
        assume("contradict" not in str(error) and "cannot deal" not in str(error))
        raise


def json_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a decoded JSON value, as the keys and indices that lead to it."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += json_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += json_paths(item, (*prefix, index))
    return found
