"""The information-state vector: an observation and what its seat remembers of the game."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules.encoding import EncodingError, InformationStateEncoder, ObservationEncoder

from .budget import examples
from .strategies import deals, option_combinations, play_randomly, small_deals
from .test_observation import one_pack, seen_swap, unseen_swap


def challenged(hand: str) -> cr.GameState:
    """Seat 0 lays its second card as an Ace, seat 1 challenges; seat 2 watches."""
    state = cr.deal(cr.english(3), hands=[hand, "A♠ 2♥", "A♥ 9♣"], dealer=2)
    laid = state.hands[0][1]
    return state.apply(cr.Play((laid,), "A")).apply(cr.Challenge())


def test_cards_turned_over_are_remembered_where_the_plain_vector_forgets_them() -> None:
    # Seat 2 saw a K♦ turned over in one game and a Q♦ in the other; nothing else differs.
    kings, queens = challenged("7♣ K♦"), challenged("7♣ Q♦")
    plain = ObservationEncoder(cr.english(3))
    assert plain.encode(kings.observe(2)) == plain.encode(queens.observe(2))
    encoder = InformationStateEncoder(cr.english(3))
    first, second = encoder.encode(kings.observe(2)), encoder.encode(queens.observe(2))
    assert first != second
    card = {card: place for place, card in enumerate(sorted(set(cr.english(3).deck.cards())))}
    king = card[cr.Card.parse("K♦")]
    assert encoder.section(first, "last_revealed")[king] == 1.0
    assert encoder.section(first, "taken")[king] == 1.0  # it went back to seat 0
    assert encoder.section(first, "shown_lying") == [1.0, 0.0, 0.0]
    assert encoder.section(first, "challenges_made") == [0.0, 1.0, 0.0]


def swapped_threes(mine: str, theirs: str) -> cr.GameState:
    """Seat 0 lays its 3 as an Ace, seat 1 its 3 as a Two and is caught; seat 2 is caught too."""
    state = cr.deal(
        cr.english(3), hands=[f"{mine} 5♣ 8♣", f"{theirs} 6♦ 8♦", "9♣ 9♦ 10♣"], dealer=2
    )
    for action in (
        cr.Play(mine, "A"), cr.Accept(), cr.Accept(), cr.Play(theirs, "2"), cr.Challenge(),
        cr.Play("9♣", "3"), cr.Challenge(),
    ):  # fmt: skip
        state = state.apply(action)
    return state


def test_the_vector_keeps_where_each_card_was_last_seen_not_the_hand_the_seat_was_dealt() -> None:
    # Seat 0 was dealt 3♠ in one game and 3♥ in the other. Both threes went to seat 1 with
    # the pile, and a later reveal replaced the one seat 0 saw turned over: the views differ
    # (the deal, seat 0's own play), the vectors do not. The guides say what the vector
    # leaves out; the OpenSpiel information-state string tells the two apart.
    spades, hearts = swapped_threes("3♠", "3♥"), swapped_threes("3♥", "3♠")
    assert spades.observe(0) != hearts.observe(0)
    encoder = InformationStateEncoder(cr.english(3))
    assert encoder.encode(spades.observe(0)) == encoder.encode(hearts.observe(0))


def test_the_seats_own_cards_on_the_table_and_where_they_went() -> None:
    rules = cr.english(3)
    encoder = InformationStateEncoder(rules)
    card = {card: place for place, card in enumerate(sorted(set(rules.deck.cards())))}
    state = cr.deal(rules, hands=["7♣ K♦ 3♠", "A♠ 2♥ 4♥", "A♥ 9♣ 5♦"], dealer=2)
    state = state.apply(cr.Play("7♣ K♦", "A")).apply(cr.Accept()).apply(cr.Accept())
    seen = encoder.encode(state.observe(0))
    mine = encoder.section(seen, "mine_on_table")
    assert mine[card[cr.Card.parse("7♣")]] == mine[card[cr.Card.parse("K♦")]] == 1.0
    assert encoder.section(seen, "group_seat")[:3] == [1.0, 0.0, 0.0]
    assert encoder.section(seen, "group_count")[:2] == [2.0, 0.0]
    assert encoder.section(seen, "group_rank")[:13] == [1.0] + [0.0] * 12
    # Seat 1 lays as Two, seat 2 challenges and is wrong... or right: either way the
    # pile goes to a seat, and seat 0 knows its 7♣ and K♦ went with it.
    state = state.apply(cr.Play("2♥", "2")).apply(cr.Challenge())
    taker = next(e.seat for e in reversed(state.events) if isinstance(e, cr.PileTaken))
    after = encoder.encode(state.observe(0))
    assert sum(encoder.section(after, "mine_on_table")) == 0.0
    taken = encoder.section(after, "taken")[taker * 52 : (taker + 1) * 52]
    assert taken[card[cr.Card.parse("7♣")]] == taken[card[cr.Card.parse("K♦")]] == 1.0
    assert encoder.section(after, "piles_taken")[taker] == 1.0


def test_passes_since_the_last_claim_are_counted_by_seat() -> None:
    rules = cr.english(3, passing="all-revealed", ranks="hold")
    encoder = InformationStateEncoder(rules)
    for state in play_randomly(cr.deal(rules, seed=2), 2, limit=200):
        passes = [0.0] * 3
        for event in state.observe(0).events:
            if isinstance(event, cr.Played):
                passes = [0.0] * 3
            elif isinstance(event, cr.Passed):
                passes[event.seat] += 1
        assert encoder.section(encoder.encode(state.observe(0)), "passes") == passes


def test_the_layout_covers_the_vector_and_starts_with_the_observations() -> None:
    rules = cr.verish(4)
    encoder = InformationStateEncoder(rules)
    plain = ObservationEncoder(rules)
    assert encoder.layout[: len(plain.layout)] == plain.layout
    position = 0
    for _, start, length in encoder.layout:
        assert start == position
        position += length
    assert position == encoder.size
    seen = cr.deal(rules, seed=1).observe(0)
    vector = encoder.encode(seen)
    assert len(vector) == encoder.size and vector[: plain.size] == plain.encode(seen)
    with pytest.raises(EncodingError, match="no section 'colour'"):
        encoder.section(vector, "colour")
    with pytest.raises(EncodingError, match="expected an Observation"):
        encoder.encode(cr.deal(rules, seed=1))  # type: ignore[arg-type]


def test_a_numpy_array_when_numpy_is_installed() -> None:
    numpy = pytest.importorskip("numpy")
    seen = cr.deal(cr.english(4), seed=2).observe(1)
    encoder = InformationStateEncoder(cr.english(4))
    array = encoder.array(seen)
    assert array.dtype == numpy.float32 and array.tolist() == encoder.encode(seen)


def within_bounds(encoder: InformationStateEncoder, vector: list[float]) -> None:
    """Every section within the bounds the layout documents."""
    rules = encoder.rules
    deck = rules.deck
    cards = sorted(set(deck.cards()))
    most = [float(deck.card_copies(card)) for card in cards]
    for name in ("group_seat", "group_rank"):
        assert set(encoder.section(vector, name)) <= {0.0, 1.0}
    assert all(
        0 <= count <= rules.claims.maximum for count in encoder.section(vector, "group_count")
    )
    for name in ("mine_on_table", "shown_on_table", "discarded_cards", "last_revealed"):
        assert all(
            0 <= n <= top for n, top in zip(encoder.section(vector, name), most, strict=True)
        )
    taken = encoder.section(vector, "taken")
    for seat in range(rules.players):
        part = taken[seat * len(cards) : (seat + 1) * len(cards)]
        assert all(0 <= n <= top for n, top in zip(part, most, strict=True))
    assert all(n >= 0 for n in vector)


@examples(15)
@given(option_combinations(), st.integers(0, 2**32))
def test_going_on_from_an_earlier_fold_gives_the_vector_folded_afresh(
    rules: cr.Rules, seed: int
) -> None:
    encoder = InformationStateEncoder(rules)
    states = play_randomly(cr.deal(rules, seed=seed), seed, limit=120)
    for state in states:
        for seat in range(state.players):
            vector = encoder.encode(state.observe(seat))
            within_bounds(encoder, vector)
    for state in states[::17] + states[-1:]:
        for seat in range(state.players):
            seen = state.observe(seat)
            afresh = InformationStateEncoder(rules).encode(seen)
            as_tuple = attrs.evolve(seen, events=tuple(seen.events))
            assert encoder.encode(seen) == afresh == encoder.encode(as_tuple)


@examples(60)
@given(deals(), st.integers(0, 2**32), st.data())
def test_unseen_cards_make_no_difference(
    state: cr.GameState, seed: int, data: st.DataObject
) -> None:
    final, other, seat = unseen_swap(state, seed, data)
    encoder = InformationStateEncoder(final.rules)
    assert encoder.encode(other.observe(seat)) == encoder.encode(final.observe(seat))


@examples(100)
@given(small_deals(one_pack, max_cards=7), st.integers(0, 2**32), st.data())
def test_seen_cards_make_a_difference(state: cr.GameState, seed: int, data: st.DataObject) -> None:
    final, other, seat = seen_swap(state, seed, data)
    encoder = InformationStateEncoder(final.rules)
    assert encoder.encode(other.observe(seat)) != encoder.encode(final.observe(seat))


@examples(30)
@given(deals(), st.integers(0, 2**32), st.data())
def test_each_moment_of_a_game_encodes_differently(
    state: cr.GameState, seed: int, data: st.DataObject
) -> None:
    states = play_randomly(state, seed, limit=150)
    seat = data.draw(st.integers(0, state.players - 1))
    encoder = InformationStateEncoder(state.rules)
    vectors = {tuple(encoder.encode(current.observe(seat))) for current in states}
    assert len(vectors) == len(states)


# -- its own module, and the old import path ---------------------------------------------


def test_the_encoder_has_a_module_of_its_own_and_keeps_its_old_import_path() -> None:
    import importlib
    import pickle

    encoding = importlib.import_module("cheatrules.encoding")
    information_state = importlib.import_module("cheatrules.information_state")
    assert information_state.InformationStateEncoder is InformationStateEncoder
    assert encoding.InformationStateEncoder is InformationStateEncoder
    assert (
        "InformationStateEncoder" in dir(encoding) and "InformationStateEncoder" in encoding.__all__
    )
    assert EncodingError.__module__ == "cheatrules.encoding"
    encoder = InformationStateEncoder(cr.english(3))
    assert pickle.loads(pickle.dumps(encoder)) == encoder
    # A pickle made when the class lived in cheatrules.encoding names it there.
    text = pickle.dumps(encoder, protocol=0)  # names its classes as text lines
    old = text.replace(b"cheatrules.information_state", b"cheatrules.encoding")
    assert b"cheatrules.encoding" in old and pickle.loads(old) == encoder
    error = pickle.loads(pickle.dumps(EncodingError("no such index")))
    assert type(error) is EncodingError and str(error) == "no such index"


@pytest.mark.parametrize(
    "first", ["cheatrules.encoding", "cheatrules.information_state", "cheatrules"]
)
def test_either_encoding_module_imports_first_in_a_fresh_interpreter(first: str) -> None:
    import subprocess
    import sys

    script = (
        f"import {first}\n"
        "from cheatrules.encoding import *\n"
        "from cheatrules.information_state import InformationStateEncoder as moved\n"
        "assert InformationStateEncoder is moved\n"
        "import cheatrules as cr\n"
        "print(len(moved(cr.english(3)).encode(cr.deal(cr.english(3), seed=1).observe(0))))"
    )
    output = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True)
    assert int(output.stdout) == InformationStateEncoder(cr.english(3)).size
