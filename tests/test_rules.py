"""english() and Rules: player counts, decks, options, and policy composition."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules.policies import Ascending, ClaimSize, WholeGroup

from .budget import examples


@pytest.mark.parametrize("players", range(3, 11))
def test_english_is_for_three_to_ten_players(players: int) -> None:
    rules = cr.english(players)
    assert rules.players == players
    assert rules.name == "english"


@pytest.mark.parametrize("players", [-1, 0, 1, 2, 11, 52])
def test_english_refuses_other_player_counts_saying_what_is_allowed(players: int) -> None:
    with pytest.raises(
        ValueError, match=f"English Cheat is played by 3 to 10 players; got {players}"
    ):
        cr.english(players)


@pytest.mark.parametrize("players", ["4", 4.0, True, None])
def test_english_refuses_a_player_count_that_is_not_a_whole_number(players: object) -> None:
    with pytest.raises(cr.RulesError, match="3 to 10 players"):
        cr.english(players)  # type: ignore[arg-type]


def test_three_to_six_players_use_one_deck_seven_to_ten_two() -> None:
    assert [cr.english(players).deck.size for players in range(3, 11)] == [52] * 4 + [104] * 4


def test_six_players_may_choose_two_decks() -> None:
    assert cr.english(6, deck=104).deck.packs == 2
    assert cr.english(6, deck=52).deck.packs == 1
    # The older spelling counts packs.
    assert cr.english(6, decks=2) == cr.english(6, deck=104)
    assert cr.english(6, decks=1) == cr.english(6, deck=52)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_fewer_players_may_choose_two_packs_too(players: int) -> None:
    # A table may shuffle two packs together for a longer game, however many sit at it.
    assert cr.english(players, deck=104) == cr.english(players, deck=cr.Deck(packs=2))
    assert cr.english(players, deck=104).deck.size == 104


@pytest.mark.parametrize("deck", [cr.Deck(), cr.Deck.short(), cr.Deck(jokers=True)])
def test_one_pack_is_refused_above_six_players_however_the_deck_is_given(deck: cr.Deck) -> None:
    with pytest.raises(
        cr.RulesError, match=r"one pack suits 3 to 6 players; 10 players need deck=104"
    ):
        cr.english(10, deck=deck)


def test_english_is_played_with_one_or_two_packs() -> None:
    with pytest.raises(
        cr.RulesError,
        match=r"English Cheat is played with one pack or two packs shuffled together; "
        r"got Deck\(packs=3",
    ):
        cr.english(8, deck=cr.Deck(packs=3))


@pytest.mark.parametrize(
    "deck", [cr.Deck(packs=2), cr.Deck.short(packs=2), cr.Deck(ranks="A K Q J 10")]
)
def test_verish_is_played_with_one_pack_of_36_or_52_cards_however_given(deck: cr.Deck) -> None:
    with pytest.raises(
        cr.RulesError,
        match=r"Verish' Ne Verish' is played with the short pack \(6 to Ace\) or the full pack",
    ):
        cr.verish(4, deck=deck)
    assert cr.verish(4, deck=cr.Deck.short()).deck.size == 36


@pytest.mark.parametrize(
    ("players", "decks", "message"),
    [
        (8, 1, "one pack suits 3 to 6 players; 8 players need deck=104"),
        (4, 3, "decks must be 1 or 2; got 3"),
        (4, "one", "decks must be 1 or 2; got 'one'"),
    ],
)
def test_a_deck_count_that_does_not_suit_is_refused(
    players: int, decks: object, message: str
) -> None:
    with pytest.raises(cr.RulesError, match=message):
        cr.english(players, decks=decks)


def test_an_unknown_option_is_refused_listing_the_options() -> None:
    with pytest.raises(
        cr.RulesError,
        match="unknown option wild for English Cheat; the options are deck, jokers, stock, dealing,",
    ):
        cr.english(4, wild=True)


def test_contradictory_options_are_refused_naming_both() -> None:
    with pytest.raises(cr.RulesError, match="decks= and deck= contradict"):
        cr.english(6, decks=2, deck=cr.Deck(packs=2))
    with pytest.raises(cr.RulesError, match="decks= and deck= contradict"):
        cr.english(6, decks=2, deck=104)
    with pytest.raises(cr.RulesError, match="jokers= and deck= contradict"):
        cr.english(6, jokers=True, deck=cr.Deck(packs=2))


def test_a_policy_can_be_passed_as_an_option() -> None:
    rules = cr.english(4, claims=ClaimSize(1, 3), ranks=Ascending(start=cr.Rank.KING))
    assert rules.claims.maximum == 3
    assert cr.deal(rules, seed=1).required_rank is cr.Rank.KING


def test_a_value_that_is_not_a_policy_is_refused_naming_the_family() -> None:
    with pytest.raises(cr.RulesError, match="ranks= must be a RankRule policy; got 5"):
        cr.english(4, ranks=5)
    with pytest.raises(cr.RulesError, match="unknown ranks='sideways'; the names are ascending"):
        cr.english(4, ranks="sideways")
    with pytest.raises(
        cr.RulesError, match="deck must be 52 or 104 cards, or a Deck policy; got 'big'"
    ):
        cr.english(4, deck="big")


def test_rules_are_frozen_hashable_values() -> None:
    assert cr.english(4) == cr.english(4)
    assert hash(cr.english(4)) == hash(cr.english(4))
    assert cr.english(4) != cr.english(5)
    assert cr.english(6) != cr.english(6, deck=104)
    assert len({cr.english(4), cr.english(4), cr.english(5)}) == 2
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        cr.english(4).players = 5  # type: ignore[misc]


def test_replace_changes_one_family() -> None:
    rules = cr.english(4).replace(check=WholeGroup(), claims=ClaimSize(1, 2))
    assert rules.claims == ClaimSize(1, 2)
    with pytest.raises(cr.RulesError, match="unknown rules field colour"):
        cr.english(4).replace(colour="red")


def test_rules_need_a_deck_that_gives_everyone_a_card() -> None:
    with pytest.raises(
        cr.RulesError, match="a deck of 28 cards with 0 set aside cannot give each of 32"
    ):
        cr.Rules(players=32, deck=cr.Deck(ranks="A 2 3 4 5 6 7"))
    with pytest.raises(cr.RulesError, match="2 to 32 players"):
        cr.Rules(players=1)
    with pytest.raises(cr.RulesError, match="2 to 32 players; got 10000"):
        cr.Rules(players=10_000)


def test_claim_size_is_checked() -> None:
    with pytest.raises(cr.RulesError, match="minimum \\(3\\) is above its maximum \\(2\\)"):
        ClaimSize(3, 2)
    with pytest.raises(cr.RulesError, match="at least 1; got 0"):
        ClaimSize(0, 2)


def test_a_claim_never_holds_more_cards_than_the_deck() -> None:
    # The 36-card pack: a claim lays at most all 36 cards.
    assert cr.verish(3, claims=ClaimSize(1, 36)).claims.maximum == 36
    with pytest.raises(cr.RulesError) as caught:
        cr.verish(3, claims=ClaimSize(1, 10**23))  # was: accepted, and ActionSpace overflowed
    assert str(caught.value) == (
        "a claim size's maximum (100000000000000000000000) is above the 36 cards of the deck; "
        "a claim may lay 1 to 36 cards with this deck"
    )
    with pytest.raises(cr.RulesError, match="above the 52 cards of the deck"):
        cr.english(4, claims=ClaimSize(1, 53))
    # Jokers and packs count: two packs and two jokers hold 106 cards.
    assert cr.english(7, jokers=True, claims=ClaimSize(3, 106)).claims.maximum == 106
    with pytest.raises(cr.RulesError, match="a claim may lay 1 to 106 cards with this deck"):
        cr.english(7, jokers=True, claims=ClaimSize(3, 107))
    # However the rules are made: built directly, or changed with replace().
    with pytest.raises(cr.RulesError, match="above the 4 cards of the deck"):
        cr.Rules(players=2, deck=cr.Deck(ranks="A"), claims=ClaimSize(1, 5))
    with pytest.raises(cr.RulesError, match="above the 52 cards of the deck"):
        cr.english(4).replace(claims=ClaimSize(2, 60))
    assert isinstance(caught.value, ValueError)


@examples(100)
@given(
    st.integers(1, 8),
    st.sets(st.sampled_from(list(cr.Rank)[:-1]), min_size=1),
    st.integers(0, 2),
    st.integers(1, 10**30) | st.integers(1, 120),
)
def test_a_claim_size_is_taken_exactly_when_the_deck_holds_its_maximum(
    packs: int, ranks: set[cr.Rank], jokers: int, maximum: int
) -> None:
    deck = cr.Deck(packs=packs, ranks=tuple(sorted(ranks)), jokers=min(jokers, 2 * packs))
    claims = ClaimSize(1, maximum)
    if maximum <= deck.size:
        assert cr.Rules(players=2, deck=deck, claims=claims).claims == claims
    else:
        with pytest.raises(cr.RulesError, match=f"a claim may lay 1 to {deck.size} cards"):
            cr.Rules(players=2, deck=deck, claims=claims)


def test_a_policy_class_instead_of_a_policy_is_refused() -> None:
    with pytest.raises(cr.RulesError, match="a class: call it to make the policy"):
        cr.english(3, ranks=Ascending)
    with pytest.raises(cr.RulesError, match="ending= must be a Ending policy"):
        cr.english(3, ending=cr.policies.FirstOutWins)


def test_an_unhashable_policy_is_refused() -> None:
    class Unhashable:
        __hash__ = None  # type: ignore[assignment]

        def allowed(self, *args: object) -> tuple[cr.Rank, ...]:
            return (cr.Rank.ACE,)

    with pytest.raises(cr.RulesError, match="ranks= must be hashable"):
        cr.english(3, ranks=Unhashable())


@pytest.mark.parametrize("decks", [1.0, 2.0, True])
def test_a_deck_count_must_be_a_whole_number(decks: object) -> None:
    with pytest.raises(cr.RulesError, match="decks must be 1 or 2"):
        cr.english(6, decks=decks)


def test_ascending_start_is_read_as_a_rank() -> None:
    assert Ascending(start="7").start is cr.Rank.SEVEN
    with pytest.raises(cr.RulesError, match=r"Ascending.start must be a rank .*; got 'Z'"):
        Ascending(start="Z")
