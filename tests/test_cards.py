"""Ranks, suits, cards and decks: parsing, printing, ordering."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules.cards import Card, Rank, Suit

# Every card some deck holds: the 52 faces and the two jokers, red and black.
ALL_CARDS = [
    Card(rank, suit)
    for rank in Rank
    for suit in Suit
    if rank is not Rank.JOKER or suit in cr.JOKER_SUITS
]


def test_rank_strings_follow_the_api() -> None:
    assert str(Rank.TEN) == "10"
    assert str(Rank.QUEEN) == "Q"
    assert " ".join(str(rank) for rank in Rank) == "A 2 3 4 5 6 7 8 9 10 J Q K ★"


def test_ranks_are_ordered_ace_first() -> None:
    assert Rank.ACE < Rank.TWO < Rank.TEN < Rank.KING
    assert sorted([Rank.KING, Rank.ACE, Rank.SEVEN]) == [Rank.ACE, Rank.SEVEN, Rank.KING]


def test_suits_are_the_four_french_suits() -> None:
    assert [suit.name for suit in Suit] == ["CLUBS", "DIAMONDS", "HEARTS", "SPADES"]
    assert "".join(map(str, Suit)) == "♣♦♥♠"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7♣", "7♣"),
        ("7c", "7♣"),
        ("7C", "7♣"),
        ("10h", "10♥"),
        ("Th", "10♥"),
        ("QS", "Q♠"),
        ("K♦", "K♦"),
        ("as", "A♠"),
        (" 2d ", "2♦"),
    ],
)
def test_card_parse_accepts_the_documented_forms(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("V♣", "J♣"),  # French: valet, dame, roi
        ("Dh", "Q♥"),
        ("dd", "Q♦"),
        ("R♠", "K♠"),
        ("В♣", "J♣"),  # Russian: валет, дама, король, туз (Cyrillic letters)
        ("д♥", "Q♥"),
        ("К♦", "K♦"),
        ("Т♠", "A♠"),
        ("т♥", "A♥"),
        ("Th", "10♥"),  # the Latin T stays the ten
    ],
)
def test_card_parse_reads_the_french_and_russian_letters_too(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


def test_a_rank_reads_the_french_and_russian_letters_too() -> None:
    assert [Rank.parse(text) for text in ["V", "D", "R", "В", "Д", "К", "Т"]] == [
        Rank.JACK,
        Rank.QUEEN,
        Rank.KING,
        Rank.JACK,
        Rank.QUEEN,
        Rank.KING,
        Rank.ACE,
    ]
    assert cr.Play("Д♥ д♦", "Д") == cr.Play("Q♥ Q♦", "Q")


@pytest.mark.parametrize("text", ["", "7", "1c", "11h", "Xc", "7x", "10", "7♣♣", "JOKER", "♣7"])
def test_card_parse_rejects_anything_else_naming_the_text(text: str) -> None:
    with pytest.raises(ValueError, match="cannot read") as caught:
        Card.parse(text)
    assert repr(text) in str(caught.value)
    assert isinstance(caught.value, cr.CheatRulesError)


def test_card_parse_rejects_non_strings() -> None:
    with pytest.raises(cr.CardError, match="a card must be"):
        Card.parse(7)  # type: ignore[arg-type]


def test_cards_reads_a_space_separated_string() -> None:
    assert cr.cards("7♣ K♦") == (Card(Rank.SEVEN, Suit.CLUBS), Card(Rank.KING, Suit.DIAMONDS))
    assert cr.cards("") == ()
    assert cr.cards([Card(Rank.ACE, Suit.SPADES), "2h"]) == cr.cards("A♠ 2♥")


def test_cards_names_the_bad_card() -> None:
    with pytest.raises(ValueError, match="'Zz'"):
        cr.cards("7♣ Zz K♦")


def test_cards_rejects_something_not_iterable() -> None:
    with pytest.raises(cr.CardError, match="cards must be"):
        cr.cards(5)  # type: ignore[arg-type]


def test_cards_are_frozen_hashable_and_ordered() -> None:
    seven = Card(Rank.SEVEN, Suit.CLUBS)
    with pytest.raises(AttributeError):
        seven.rank = Rank.EIGHT  # type: ignore[misc]
    assert {seven, Card.parse("7c")} == {seven}
    assert Card.parse("7♣") < Card.parse("7♦") < Card.parse("8♣")
    assert sorted(ALL_CARDS) == ALL_CARDS
    assert Card.parse("7♣") != "7♣"


def test_cards_survive_pickling() -> None:
    assert pickle.loads(pickle.dumps(ALL_CARDS)) == ALL_CARDS


def test_card_takes_rank_and_suit_as_text_or_names_the_bad_one() -> None:
    assert Card("7", "c") == Card.parse("7♣")
    with pytest.raises(cr.CardError, match="unknown rank 'Z'"):
        Card("Z", Suit.CLUBS)
    with pytest.raises(cr.CardError, match="unknown suit 'x'"):
        Card(Rank.ACE, "x")


@given(st.sampled_from(ALL_CARDS))
def test_printing_and_parsing_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(f"{card.rank}{card.suit.name[0].lower()}") == card


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=12))
def test_cards_round_trip_through_text(hand: list[Card]) -> None:
    assert cr.cards(" ".join(map(str, hand))) == tuple(hand)


def test_rank_parse() -> None:
    assert Rank.parse("q") is Rank.QUEEN
    assert Rank.parse("T") is Rank.TEN
    assert Rank.parse(Rank.ACE) is Rank.ACE
    with pytest.raises(cr.CardError, match="unknown rank 'Z'"):
        Rank.parse("Z")


def test_decks() -> None:
    one = cr.Deck()
    assert one.size == len(one.cards()) == 52
    assert len(set(one.cards())) == 52
    two = cr.Deck(packs=2)
    assert two.size == 104
    assert two.card_copies(Card.parse("7c")) == 2
    short = cr.Deck.short()
    assert short.size == 36
    assert short.ranks == (
        Rank.ACE,
        Rank.SIX,
        Rank.SEVEN,
        Rank.EIGHT,
        Rank.NINE,
        Rank.TEN,
        Rank.JACK,
        Rank.QUEEN,
        Rank.KING,
    )
    assert short.copies(Rank.TWO) == 0


def test_deck_check_names_the_card_and_what_is_allowed() -> None:
    with pytest.raises(cr.CardError, match="2♣, which this deck lacks"):
        cr.Deck.short().check(cr.cards("2c"))
    with pytest.raises(cr.CardError, match="7♣ 2 times, but the deck has 1 copy"):
        cr.Deck().check(cr.cards("7c 7♣"))
    cr.Deck(packs=2).check(cr.cards("7c 7♣"))


@pytest.mark.parametrize("packs", [0, -1, True, 1.5, 9, 10**9])
def test_deck_rejects_a_bad_pack_count(packs: object) -> None:
    with pytest.raises(cr.CardError, match=r"Deck.packs must be a whole number from 1 to 8"):
        cr.Deck(packs=packs)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["1", "11", "12", "13", "0", "14"])
def test_numbers_other_than_two_to_ten_are_not_ranks(text: str) -> None:
    with pytest.raises(cr.CardError, match="unknown rank"):
        Rank.parse(text)


@pytest.mark.parametrize("value", [b"7c", bytearray(b"7c")])
def test_bytes_are_not_cards(value: bytes) -> None:
    with pytest.raises(cr.CardError, match="cards must be text"):
        cr.cards(value)  # type: ignore[arg-type]


def test_ranks_reads_several_ranks() -> None:
    assert cr.ranks("Q 7") == (Rank.QUEEN, Rank.SEVEN)
    assert cr.ranks(Rank.ACE) == (Rank.ACE,)
    for bad in (None, 7, 7.5, b"Q"):
        with pytest.raises(cr.CardError, match="ranks must be text"):
            cr.ranks(bad)  # type: ignore[arg-type]


def test_a_deck_of_chosen_ranks() -> None:
    assert cr.Deck(ranks="6 7 8").ranks == (Rank.SIX, Rank.SEVEN, Rank.EIGHT)
    for bad in (None, 5, ""):
        with pytest.raises(cr.CardError):
            cr.Deck(ranks=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["*C", "★♣", "JK♦", "jokerd", "*c"])
def test_a_joker_of_a_suit_no_pack_holds_is_not_a_card(text: str) -> None:
    # A pack's jokers are the red ★♥ and the black ★♠; a joker of clubs exists in no deck.
    with pytest.raises(cr.CardError, match="cannot read"):
        Card.parse(text)


@pytest.mark.parametrize("text", ["★♥", "★♠", "*h", "JKs", "joker♠", "Joker♥", "*S"])
def test_the_jokers_documented_spellings_are_read(text: str) -> None:
    assert Card.parse(text).rank is Rank.JOKER


@pytest.mark.parametrize(
    "text",
    [
        "10ſ",  # a long s, which str.upper() turns into S
        "Kſ",
        "ｋs",  # a fullwidth k
        "7ｃ",  # a fullwidth c
        "Aﬅ",  # a ligature
        "１0h",  # a fullwidth digit
        "ⅹh",  # a roman numeral ten
        "jokeＲ♠",
        "\u212ah",  # the Kelvin sign, which str.lower() turns into k
    ],
)
def test_only_the_documented_letters_and_symbols_are_read(text: str) -> None:
    with pytest.raises(cr.CardError, match="cannot read"):
        Card.parse(text)


@pytest.mark.parametrize("text", ["ſ", "\u212a", "ｑ", "ⅹ"])
def test_ranks_and_suits_read_only_the_documented_letters(text: str) -> None:
    with pytest.raises(cr.CardError):
        Rank.parse(text)
    with pytest.raises(cr.CardError):
        cr.Suit.parse(text)
