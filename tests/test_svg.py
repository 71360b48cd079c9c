"""Pictures of the table: a seat's view shows its own faces and only those; a state shows all."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules.svg import SVG_NAMESPACE, Theme, render
from tests.strategies import house_options, play_randomly

NS = f"{{{SVG_NAMESPACE}}}"


def parse(picture: str) -> ET.Element:
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg"
    assert root.get("version") == "1.1"
    return root


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [element for element in root.iter() if name in (element.get("class") or "").split()]


def faces(root: ET.Element) -> Counter[str]:
    return Counter(element.get("data-card") or "" for element in with_class(root, "card"))


def seat_backs(root: ET.Element) -> Counter[int]:
    return Counter(
        {
            int(seat.get("data-seat") or -1): len(with_class(seat, "back"))
            for seat in with_class(root, "seat")
            if with_class(seat, "back")
        }
    )


def names(cards: object) -> Counter[str]:
    return Counter(map(str, cards))  # type: ignore[call-overload]


# -- the rule book's position, drawn ---------------------------------------------------


@pytest.fixture
def seven_claim() -> cr.GameState:
    """The tutorial's position: A lays 7♣ K♦ as two 7s on a pile of five."""
    state = cr.deal(
        cr.english(players=4),
        dealer=1,
        hands=["3♦ 7♣ K♦ Q♣", "4♥ 8♥ J♣", "A♣ 5♣ 9♠", "2♠ 6♠ 10♣"],
    )
    state = state.apply(cr.Play("A♣", "A")).apply(cr.Challenge())
    for card, rank in [("2♠", "2"), ("3♦", "3"), ("4♥", "4"), ("5♣", "5"), ("6♠", "6")]:
        state = cr.settle_window(state.apply(cr.Play(card, rank)), callers=())
    return state.apply(cr.Play("7♣ K♦", "7"))


def test_a_seat_sees_its_hand_face_up_and_the_others_as_backs(seven_claim: cr.GameState) -> None:
    root = parse(render(seven_claim.observe(1)))
    assert faces(root) == names(seven_claim.hands[1]) == Counter({"8♥": 1, "J♣": 1})
    assert seat_backs(root) == Counter({0: 1, 2: 1, 3: 2})
    assert "7♣" not in render(seven_claim.observe(1))


def test_the_groups_show_their_claims_face_down_to_a_seat(seven_claim: cr.GameState) -> None:
    root = parse(render(seven_claim.observe(2)))
    groups = with_class(root, "group")
    assert [group.get("data-count") for group in groups] == ["1", "1", "1", "1", "1", "2"]
    assert sum(len(with_class(group, "back")) for group in groups) == 7
    labels = ["".join(group.itertext()).strip() for group in groups]
    assert labels[-1] == "2×7 by seat 0"
    assert "newest" in (groups[-1].get("class") or "")
    text = "".join(root.itertext())
    assert "last claim: two 7s by seat 0" in text
    assert "next claim: 8" in text


def test_whose_decision_it_is_is_highlighted(seven_claim: cr.GameState) -> None:
    root = parse(render(seven_claim.observe(3)))
    to_move = with_class(root, "to-move")
    assert [seat.get("data-seat") for seat in to_move] == ["1"]
    assert with_class(to_move[0], "turn")
    assert "seat 1 to decide (challenge)" in "".join(root.itertext())


def test_the_state_shows_every_card_and_marks_lies(seven_claim: cr.GameState) -> None:
    root = parse(render(seven_claim))
    shown = names(card for hand in seven_claim.hands for card in hand) + names(seven_claim.pile)
    assert faces(root) == shown
    assert not with_class(root, "back")
    groups = with_class(root, "group")
    assert [group.get("class") for group in groups][-1] == "group lie newest"
    assert {group.get("class") for group in groups[:-1]} == {"group true"}


def test_the_chosen_seat_sits_at_the_bottom(seven_claim: cr.GameState) -> None:
    def bottom_seat(picture: str) -> str | None:
        seats = with_class(parse(picture), "seat")
        lowest = max(seats, key=lambda seat: float(seat.findall(f"{NS}text")[0].get("y") or 0))
        return lowest.get("data-seat")

    assert bottom_seat(render(seven_claim.observe(2))) == "2"
    assert bottom_seat(render(seven_claim.observe(2), bottom=0)) == "0"
    assert bottom_seat(render(seven_claim)) == "0"
    assert bottom_seat(render(seven_claim, bottom=3)) == "3"


def test_the_size_and_colours_are_parameters(seven_claim: cr.GameState) -> None:
    picture = render(seven_claim, width=400, colours=Theme(table="#123456", back="navy"))
    root = parse(picture)
    assert (root.get("width"), root.get("height")) == ("400", "300")
    assert with_class(root, "cloth")[0].get("fill") == "#123456"
    assert 'fill="navy"' in render(seven_claim.observe(0), colours=Theme(back="navy"))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda state: render(state, width=50), "width must be a whole number of pixels"),
        (
            lambda state: render(state, width=800.0),  # type: ignore[arg-type]
            "width must be a whole number of pixels",
        ),
        (lambda state: render(state, width=True), "width must be a whole number of pixels"),
        (
            lambda state: render(state, colours="dark"),  # type: ignore[arg-type]
            "colours must be a Theme; got str",
        ),
        (lambda state: render(state.table), "render draws an Observation or a GameState"),
        (lambda state: Theme(red="#ff00"), "Theme.red must be a colour"),
        (lambda state: Theme(table='"/><script>'), "Theme.table must be a colour"),
        (lambda state: Theme(font="<b>"), "Theme.font must be font names"),
        (lambda state: Theme(font=""), "Theme.font must be font names"),
    ],
)
def test_bad_sizes_and_colours_are_refused(
    seven_claim: cr.GameState, call: object, message: str
) -> None:
    with pytest.raises(cr.RulesError, match=message):
        call(seven_claim)  # type: ignore[operator]


def test_a_bottom_seat_off_the_table_is_refused(seven_claim: cr.GameState) -> None:
    with pytest.raises(cr.SeatError, match="bottom must be a seat of this table, from 0 to 3"):
        render(seven_claim, bottom=4)
    with pytest.raises(cr.SeatError, match="got -1"):
        render(seven_claim.observe(0), bottom=-1)


def test_a_theme_is_a_frozen_value() -> None:
    theme = Theme()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        theme.table = "red"  # type: ignore[misc]
    assert attrs.evolve(theme, lie="orange") == Theme(lie="orange")


# -- jokers, two packs, the end ----------------------------------------------------------


def test_jokers_are_drawn_as_jokers() -> None:
    state = cr.deal(cr.verish(2, jokers=True), hands=["★♥ 7♣", "★♠ K♦"], hidden="9♠")
    root = parse(render(state.observe(0)))
    (joker,) = [card for card in with_class(root, "card") if card.get("data-card") == "★♥"]
    assert "JOKER" in "".join(joker.itertext())
    assert "★♠" not in render(state.observe(0)) and "9♠" not in render(state.observe(0))
    omniscient = parse(render(state))
    assert faces(omniscient) == names(cr.cards("★♥ 7♣ ★♠ K♦ 9♠"))
    assert with_class(omniscient, "set-aside")
    assert "set aside: 1 unseen" in "".join(root.itertext())


def test_two_packs_draw_each_copy() -> None:
    rules = cr.english(6, decks=2)
    state = cr.deal(rules, hands=["K♦ K♦ 2♣", "K♣ 3♣", "4♣", "5♣", "6♣", "7♣ 7♣"], dealer=5)
    assert faces(parse(render(state.observe(0))))["K♦"] == 2
    assert faces(parse(render(state)))["7♣"] == 2
    assert seat_backs(parse(render(state.observe(0))))[1] == 2


def test_the_end_of_the_game_is_shown() -> None:
    state = cr.deal(cr.english(3), hands=["A♣", "2♥ 5♣", "3♥ 9♣"])
    state = cr.settle_window(state.apply(cr.Play("A♣", "A")), callers=())
    assert state.is_over
    root = parse(render(state.observe(1)))
    (outcome,) = with_class(root, "outcome")
    assert "winners: 0; losers: 1 2" in "".join(outcome.itertext())
    assert "out" in (with_class(root, "seat")[0].get("class") or "").split()


def test_discards_are_face_up_for_everyone() -> None:
    state = cr.deal(cr.verish(2), dealer=1, hands=["7♣ 7♦ 7♥ 9♦ 9♣", "7♠ K♥ 8♠"], hidden="10♠")
    state = state.apply(cr.Play("9♦", "7")).apply(cr.Play("7♠", "7")).apply(cr.Challenge())
    state = state.apply(cr.Discard("7"))  # seat 0 took the pile and sets its four 7s aside
    root = parse(render(state.observe(1)))
    assert faces(root) == names(cr.cards("K♥ 8♠ 7♣ 7♦ 7♥ 7♠"))
    assert with_class(root, "discards")[0].get("data-count") == "4"


# -- notebooks and the REPL ---------------------------------------------------------------


def test_notebooks_draw_observations_and_states(seven_claim: cr.GameState) -> None:
    seen = seven_claim.observe(1)
    assert seen._repr_svg_() == render(seen)
    assert seven_claim._repr_svg_() == render(seven_claim)


def test_an_observation_shows_itself_in_one_short_line(seven_claim: cr.GameState) -> None:
    seen = seven_claim.observe(1)
    assert repr(seen) == ("Observation(seat=1, hand=8♥ J♣, to_move=1, phase=CHALLENGE, 26 events)")
    assert repr(cr.deal(cr.english(3), hands=["A♣", "2♥", "3♥"]).observe(0)) == (
        "Observation(seat=0, hand=A♣, to_move=0, phase=PLAY, 1 event)"
    )
    long_game = play_randomly(cr.deal(cr.english(4), seed=3), seed=3)[-1]
    assert len(repr(long_game.observe(0))) < 200
    assert seen == seven_claim.observe(1)


# -- any game ------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), english=st.booleans(), moment=st.floats(0, 1))
def test_a_picture_never_shows_a_face_its_view_hides(
    seed: int, english: bool, moment: float
) -> None:
    rng = random.Random(seed)
    options = house_options(rng)
    players = rng.randint(3, 6) if english else rng.randint(2, 6)
    rules = cr.english(players, **options) if english else cr.verish(players, **options)
    states = play_randomly(cr.deal(rules, seed=seed), seed=seed, limit=300)
    state = states[int(moment * (len(states) - 1))]
    for seat in range(state.players):
        seen = state.observe(seat)
        root = parse(render(seen, width=rng.randint(200, 1200)))
        # Every face drawn is one of the seat's own cards or a discard: nothing hidden.
        assert faces(root) == names(seen.hand) + names(seen.discarded)
        assert seat_backs(root) == Counter(
            {other: size for other, size in enumerate(seen.hand_sizes) if other != seat and size}
        )
        assert sum(len(with_class(group, "back")) for group in with_class(root, "group")) == (
            seen.pile_size
        )
    everything = (
        [card for hand in state.hands for card in hand]
        + list(state.pile)
        + list(state.discarded)
        + list(state.set_aside)
    )
    assert faces(parse(render(state))) == names(everything)


# -- the labels in the players' languages ---------------------------------------------------


def labels(root: ET.Element, cls: str) -> list[str]:
    return ["".join(element.itertext()) for element in with_class(root, cls)]


def test_a_russian_picture_names_the_seats_with_the_narrations_word_and_plurals(
    seven_claim: cr.GameState,
) -> None:
    root = parse(render(seven_claim.observe(1), language="ru"))
    assert labels(root, "name") == [
        "игрок 0: 1 карта",
        "игрок 1: 2 карты (вы)",
        "игрок 2: 1 карта",
        "игрок 3: 2 карты",
    ]
    text = "".join(root.itertext())
    assert "Английский Cheat, 4 игрока" in text
    assert "последняя заявка: две семёрки, игрок 0" in text
    assert "ход игрока 1 (верить или нет)" in text
    assert labels(root, "claim")[-1] == "2×7, игрок 0"
    assert "seat" not in text and "claim" not in text and "card" not in text


def test_russian_has_three_forms_of_card_under_a_seat() -> None:
    state = cr.deal(cr.verish(2), hands=["6♣ 7♣ 8♣ 9♣ 10♣", "J♣"], hidden="Q♣")
    root = parse(render(state, language="ru"))
    assert labels(root, "name") == ["игрок 0: 5 карт", "игрок 1: 1 карта"]
    assert "на столе пусто" in "".join(root.itertext())
    assert "отложено: 1" in "".join(root.itertext())


def test_a_portuguese_picture_speaks_portuguese(seven_claim: cr.GameState) -> None:
    root = parse(render(seven_claim.observe(1), language="pt"))
    assert labels(root, "name")[:2] == ["jogador 0: 1 carta", "jogador 1: 2 cartas (você)"]
    text = "".join(root.itertext())
    assert "Cheat inglês, 4 jogadores" in text
    assert "última declaração: duas cartas 7 do jogador 0" in text
    assert "próxima declaração: 8" in text
    assert labels(root, "claim")[-1] == "2×7 do jogador 0"
    assert root.findtext(f"{NS}title") == "english, 4 jogadores: visão do jogador 1"


def test_the_end_of_the_game_in_french_and_spanish() -> None:
    state = cr.deal(cr.english(3), hands=["A♣", "2♥ 5♣", "3♥ 9♣"])
    state = cr.settle_window(state.apply(cr.Play("A♣", "A")), callers=())
    (outcome,) = with_class(parse(render(state, language="fr")), "outcome")
    assert [text for text in outcome.itertext() if text.strip()] == [
        "partie terminée",
        "gagnants\u00a0: 0\u202f; perdants\u00a0: 1 2",
    ]
    names_es = labels(parse(render(state.observe(0), language="es")), "name")
    assert names_es[0] == "jugador 0: 0 cartas (fuera, 1.º) (tú)"


def test_english_is_the_default_and_unchanged(seven_claim: cr.GameState) -> None:
    for view in (seven_claim, seven_claim.observe(2)):
        assert render(view, language="en") == render(view)
    assert labels(parse(render(seven_claim.observe(1))), "name")[1] == "seat 1: 2 cards (you)"


@pytest.mark.parametrize("language", ["de", "EN", "", None])
def test_a_picture_in_an_unknown_language_is_refused_before_drawing(
    seven_claim: cr.GameState, language: object
) -> None:
    with pytest.raises(cr.RulesError, match=r"unknown language .*'en', 'pt', 'es', 'fr' and 'ru'"):
        render(seven_claim, language=language)  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), language=st.sampled_from(["pt", "es", "fr", "ru"]))
def test_no_label_is_left_in_english(seed: int, language: str) -> None:
    rng = random.Random(seed)
    rules = cr.english(rng.randint(3, 5), **house_options(rng))
    states = play_randomly(cr.deal(rules, seed=seed), seed=seed, limit=200)
    for state in (states[len(states) // 2], states[-1]):
        for view in (state, state.observe(0)):
            text = " ".join(parse(render(view, language=language)).itertext())
            for word in ("seat", "cards", "claim", "players", "stock", "winners", "you", "empty"):
                assert word not in text
