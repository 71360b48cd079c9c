"""What an OpenSpiel player learns: exact information states, and chance nodes that tell nothing.

The information-state string is equal exactly when the seat's views are
(perfect recall), and the shape of the game tree (who moves, where chance
draws and among how many outcomes) is the same in every world a seat
cannot tell from the real one.
"""

from __future__ import annotations

import random

import attrs
import pyspiel  # the dev extra installs OpenSpiel: CI runs these, never skips them
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules._view_text import view_text
from cheatrules.events import Dealt, Revealed
from cheatrules.information_state import InformationStateEncoder
from cheatrules.openspiel import CheatGame, CheatState

from .budget import examples
from .test_information_state import swapped_threes

#: (game, parameters) of the games the properties play: one pack and two, each check.
GAMES: tuple[tuple[str, dict[str, object]], ...] = (
    ("python_cheat", {"players": 3}),
    ("python_cheat", {"players": 3, "decks": 2, "check": "one-card"}),
    ("python_cheat", {"players": 4, "check": "one-card", "window": "extended"}),
    ("python_verish", {"players": 3, "check": "one-card"}),
)
LOADED: dict[int, CheatGame] = {}


def load(which: int) -> CheatGame:
    if which not in LOADED:
        name, parameters = GAMES[which]
        LOADED[which] = pyspiel.load_game(name, parameters)
    return LOADED[which]


def played(game: CheatGame, seed: int, decisions: int) -> list[CheatState]:
    """A game dealt and played at random through OpenSpiel: a clone at each decision, and the last."""
    rng = random.Random(seed)
    state: CheatState = game.new_initial_state()
    kept: list[CheatState] = []
    while not state.is_terminal() and len(kept) < decisions:
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            kept.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node() and not state.is_terminal():
        state.apply_action(0)
    kept.append(state)
    return kept


def game_of(state: CheatState) -> cr.GameState:
    assert state.game_state is not None
    return state.game_state


def dealt_of(world: cr.GameState) -> Dealt:
    dealt = world.events[0]
    assert isinstance(dealt, Dealt)
    return dealt


# -- the information-state string is exact -------------------------------------------------


def test_a_seat_dealt_other_cards_that_holds_the_same_hand_now_has_another_information_state() -> (
    None
):
    # Seat 0 is dealt 7♣ K♦ in one game and 7♣ K♥ in the other, lays its King as an Ace, and
    # nobody challenges: it holds 7♣ in both, and the pile's count is all the others know.
    game: CheatGame = pyspiel.load_game("python_cheat(players=3)")
    texts, summaries = [], []
    for king in ("K♦", "K♥"):
        rest = [card for card in cr.english(3).deck.cards() if str(card) not in {"7♣", king}]
        hands = [[cr.Card.parse("7♣"), cr.Card.parse(king), *rest[:16]], rest[16:33], rest[33:]]
        state = game.new_initial_state()
        for outcome in game.deal_outcomes(cr.deal(cr.english(3), hands=hands)):
            state.apply_action(outcome)
        space = game.action_space
        seen = game_of(state).observe(0)
        state.apply_action(space.encode(cr.Play(king, "A"), seen))
        state.apply_action(space.encode(cr.Accept()))
        state.apply_action(space.encode(cr.Accept()))
        texts.append(state.information_state_string(0))
        summaries.append(state.observation_string(0))
    assert summaries[0] == summaries[1]  # the same hand, table and claims now
    assert texts[0] != texts[1]
    assert "cards=[K♦]" in texts[0] and "cards=[K♥]" in texts[1]


def test_views_the_information_state_vector_merges_have_different_strings() -> None:
    # The information-state string is the seat's view written whole (cheatrules._view_text).
    spades, hearts = swapped_threes("3♠", "3♥").observe(0), swapped_threes("3♥", "3♠").observe(0)
    encoder = InformationStateEncoder(cr.english(3))
    assert encoder.encode(spades) == encoder.encode(hearts)
    assert view_text(spades) != view_text(hearts)


def near_miss(
    game: CheatGame, real: list[CheatState], seat: int, rng: random.Random
) -> list[CheatState]:
    """The same game but for one card ``seat`` was dealt, swapped with a card of its rank.

    The other card comes from another seat's hand; the same actions are taken after the
    deal (an action names ranks, not suits), so the two games differ in those two cards.
    Empty when no other seat holds a card of a rank ``seat`` holds.
    """
    world = game_of(real[-1])
    dealt = dealt_of(world)
    hands = [list(hand) for hand in dealt.hands]
    swaps = [
        (mine, other, place)
        for mine, card in enumerate(hands[seat])
        for other, hand in enumerate(hands)
        for place, there in enumerate(hand)
        if other != seat and there.rank == card.rank and there != card
    ]
    if not swaps:
        return []
    mine, other, place = rng.choice(swaps)
    hands[seat][mine], hands[other][place] = hands[other][place], hands[seat][mine]
    swapped = cr.deal(
        world.rules,
        hands=hands,
        hidden=dealt.set_aside or None,
        stock=dealt.stock or None,
    )
    state: CheatState = game.new_initial_state()
    outcomes = game.deal_outcomes(swapped)
    for outcome in outcomes:
        state.apply_action(outcome)
    kept: list[CheatState] = []
    for action in real[-1].history()[len(outcomes) :]:
        if not state.is_chance_node():
            kept.append(state.clone())
        state.apply_action(action)
    kept.append(state)
    return kept


@examples(12)
@given(
    which=st.integers(0, len(GAMES) - 1),
    seeds=st.tuples(st.integers(0, 2**32), st.integers(0, 2**32)),
    decisions=st.integers(0, 50),
    choices=st.randoms(use_true_random=False),
)
def test_the_information_state_string_is_equal_exactly_when_the_seats_views_are(
    which: int, seeds: tuple[int, int], decisions: int, choices: random.Random
) -> None:
    game = load(which)
    players = game.num_players()
    first = played(game, seeds[0], decisions)
    second = played(game, seeds[1], decisions)
    seat = choices.randrange(players)
    swapped = near_miss(game, first, seat, choices)
    pairs: list[tuple[CheatState, CheatState]] = []
    for _ in range(6):
        pairs.append((choices.choice(first), choices.choice(first)))  # one game, two moments
        pairs.append((choices.choice(first), choices.choice(second)))  # two games
    for moment, state in enumerate(swapped):  # one card dealt otherwise, moment by moment
        pairs.append((first[moment], state))
    if swapped:
        pairs.append((choices.choice(first), choices.choice(swapped)))
    equal = different = 0
    for one, other in pairs:
        for viewer in range(players):
            views = (one.observation_of(viewer), other.observation_of(viewer))
            texts = (one.information_state_string(viewer), other.information_state_string(viewer))
            assert (views[0] == views[1]) == (texts[0] == texts[1]), (viewer, texts)
            if views[0] == views[1]:
                equal += 1
            else:
                different += 1
    assert equal and different  # every pair of a state with itself is equal; a near miss is not


def test_a_view_from_a_log_of_its_own_writes_as_the_shared_one_does() -> None:
    # The text of a log is kept with the log's shared chunks; a log rebuilt as a tuple has
    # none to share and must write the same text.
    game = load(1)
    state = played(game, 5, 40)[-1]
    seen = game_of(state).observe(1)
    rebuilt = attrs.evolve(seen, events=tuple(seen.events))
    assert rebuilt == seen
    assert view_text(rebuilt) == view_text(seen) == state.information_state_string(1)


# -- chance nodes tell nothing ---------------------------------------------------------------


def replay(game: CheatGame, world: cr.GameState) -> tuple[CheatState, list[tuple[int, int]]]:
    """``world`` played through the OpenSpiel game, and the shape of every node on the way.

    The deal's outcomes, then each decision's index, and at a check's draw the position
    of the card the world turned over (or, where the index laid other suits, of its rank). The shape of a node is the player to
    move (or OpenSpiel's chance player) and, at a chance node, its number of outcomes.
    """
    state: CheatState = game.new_initial_state()
    shape: list[tuple[int, int]] = []

    def take(action: int) -> None:
        chance = len(state.chance_outcomes()) if state.is_chance_node() else 0
        shape.append((state.current_player(), chance))
        state.apply_action(action)

    for outcome in game.deal_outcomes(world):
        take(outcome)
    dealt = dealt_of(world)
    library = cr.deal(
        world.rules, hands=dealt.hands, hidden=dealt.set_aside or None, stock=dealt.stock or None
    )
    library = attrs.evolve(library, draws=world.draws)
    for action in world.actions:
        seat = library.to_move
        assert seat is not None
        take(game.action_space.encode(action, library.observe(seat)))
        library = library.apply(action)
        if state.is_chance_node():
            assert isinstance(action, cr.Challenge)
            revealed = next(e for e in reversed(library.events) if isinstance(e, Revealed))
            group = game_of(state).groups[-2 if action.earlier else -1][1]
            (card,) = revealed.cards
            same = [there == card for there in group]  # the very card, or else one of its rank
            take(same.index(True) if any(same) else [c.rank for c in group].index(card.rank))
    assert library.events == world.events and library.hands == world.hands
    chance = len(state.chance_outcomes()) if state.is_chance_node() else 0
    shape.append((state.current_player(), chance))
    return state, shape


@examples(8)
@given(
    which=st.integers(1, len(GAMES) - 1),
    seed=st.integers(0, 2**32),
    decisions=st.integers(0, 60),
    choices=st.randoms(use_true_random=False),
)
def test_who_moves_and_where_chance_draws_is_the_same_in_every_world_a_seat_cannot_tell_apart(
    which: int, seed: int, decisions: int, choices: random.Random
) -> None:
    game = load(which)
    real = played(game, seed, decisions)[-1]
    world = game_of(real)
    replayed, shape = replay(game, world)
    assert game_of(replayed).events == world.events  # the replay reaches the real game
    seat = choices.randrange(game.num_players())
    seen = world.observe(seat)
    for _ in range(2):
        other = seen.sample(random.Random(choices.getrandbits(32)))
        assert other.observe(seat) == seen
        _, other_shape = replay(game, other)
        assert other_shape == shape


def test_every_challenge_under_the_one_card_check_draws_even_from_copies_of_one_card() -> None:
    # Two packs: seat 0 lays both its 8♦ as Aces. Which card is turned over makes no
    # difference, but a chance node that came only where the cards differ would tell the
    # challenger the group holds copies of one card.
    rules = cr.english(3, decks=2, check="one-card")
    game: CheatGame = pyspiel.load_game("python_cheat(players=3,decks=2,check=one-card)")
    deck = sorted(rules.deck.cards())
    eights = [card for card in deck if str(card) == "8♦"]
    rest = [card for card in deck if str(card) != "8♦"]
    hands = [[*eights, *rest[:33]], rest[33:68], rest[68:]]
    state: CheatState = game.new_initial_state()
    for outcome in game.deal_outcomes(cr.deal(rules, hands=hands)):
        state.apply_action(outcome)
    seen = game_of(state).observe(0)
    state.apply_action(game.action_space.encode(cr.Play(eights, "A"), seen))
    state.apply_action(game.action_space.encode(cr.Challenge()))
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 1) == "turn over 8♦"
    state.apply_action(1)
    revealed = next(e for e in reversed(game_of(state).events) if isinstance(e, Revealed))
    # Copies of one card are one: the card drawn takes the first place that holds it.
    assert revealed == Revealed(
        0, (eights[0],), cr.Rank.ACE, truthful=False, positions=(0,), drawn=True
    )
