"""Typing cards at the ``play`` prompt: every card, in every language, with letters or symbols.

A card is always its rank then its suit, so ``As`` is the Ace of spades
wherever it stands; the word ``as`` (or the language's own: ``como``,
``comme``, ``как``) is a word only where exactly one rank follows it at the
end of the answer.
"""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules._i18n import LANGUAGES, rank_letter, translations
from cheatrules.cli import main
from cheatrules.cli._play import _answer_words, _read
from cheatrules.decision import DiscardOffer
from cheatrules.events import Played
from cheatrules.narration import describe

from .budget import examples

# Every spelling of each suit the prompt reads: the symbols and the letters in either case.
SUIT_SPELLINGS = {
    cr.Suit.CLUBS: ("♣", "c", "C"),
    cr.Suit.DIAMONDS: ("♦", "d", "D"),
    cr.Suit.HEARTS: ("♥", "h", "H"),
    cr.Suit.SPADES: ("♠", "s", "S"),
}
# The kinds of answer read on a turn to lay cards, beside the cards themselves.
TURN_WORDS = ("leave", "help", "hand", "challenge", "pass", "discard")
EVERY_CARD = cr.english(3, decks=2, jokers="per-pack").deck.cards()


def _rank_spellings(rank: cr.Rank, language: str) -> set[str]:
    """The ways a player of ``language`` may write ``rank``: English, the language's letter, T.

    Not the Latin T where the language writes the Ace Т, which looks the same
    (asked about instead: ``test_play_answers``).
    """
    spelled = {str(rank), rank_letter(rank, language)}
    if rank is cr.Rank.TEN and rank_letter(cr.Rank.ACE, language) != "Т":
        spelled |= {"T", "t"}
    if rank is cr.Rank.JOKER:
        spelled |= {"*", "JK", "Joker"}
    return spelled | {text.lower() for text in spelled}


def _spellings(card: cr.Card, language: str) -> list[str]:
    return [
        rank + suit
        for rank in sorted(_rank_spellings(card.rank, language))
        for suit in SUIT_SPELLINGS[card.suit]
    ]


def _turn(card: cr.Card, ranks: str = "ascending") -> cr.Observation:
    """Seat 0's first turn holding ``card`` (and a few others), the Ace required unless free."""
    rules = cr.english(3, decks=2, jokers="per-pack", ranks=ranks)
    return cr.deal(rules, hands=[[card, *cr.cards("5♣ 6♦")], "2h", "3h"]).observe(0)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_can_be_typed_alone_with_letters_or_symbols(language: str) -> None:
    for card in set(EVERY_CARD):
        seen = _turn(card)
        for typed in _spellings(card, language):
            assert _read(typed, seen, language) == cr.Play((card,), cr.Rank.ACE), typed
            assert _read(f"5c {typed} 6d", seen, language) == cr.Play(
                cr.cards(f"5♣ {card} 6♦"), cr.Rank.ACE
            ), typed


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_can_be_typed_with_the_rank_it_is_laid_as(language: str) -> None:
    as_words = sorted(_answer_words("as", language))
    for card in set(EVERY_CARD):
        seen = _turn(card, ranks="free")
        for typed in _spellings(card, language):
            for word in as_words:
                for named in ("7", rank_letter(cr.Rank.KING, language), "A"):
                    answer = f"{typed} {word} {named}"
                    expected = cr.Play((card,), cr.Rank.parse(named))
                    assert _read(answer, seen, language) == expected, answer


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_ace_of_spades_is_a_card_wherever_it_stands(language: str) -> None:
    ace = cr.Card.parse("A♠")
    seen = _turn(ace)
    assert _read("Ac Ad As", _turn(ace), language) == cr.Play("A♣ A♦ A♠", "A")
    assert _read("As", seen, language) == cr.Play("A♠", "A")
    assert _read("AS", seen, language) == cr.Play("A♠", "A")
    assert _read("as", seen, language) == cr.Play("A♠", "A")
    free = _turn(ace, ranks="free")
    assert _read("AS as 2", free, language) == cr.Play("A♠", "2")
    assert _read("as as A", free, language) == cr.Play("A♠", "A")
    assert _read("As As as 7", free, language) == cr.Play("A♠ A♠", "7")


@pytest.mark.parametrize("language", LANGUAGES)
def test_as_out_of_place_says_where_it_goes(language: str) -> None:
    # Without an Ace of spades in hand, a lower-case 'as' that is not before the
    # rank is the word, misplaced; with no cards before it, it is always the word.
    seen = cr.deal(cr.english(3, ranks="free"), hands=["7c 7d", "2h", "3h"]).observe(0)
    told = translations(language).gettext(
        "'as' goes between the cards and the rank you announce, such as '7c 7d as 7' "
        "(the Ace of spades is 'As' or 'A♠')"
    )
    for answer in ("as 7", "7c 7d as", "7c as 7d as 7", "as"):
        with pytest.raises(ValueError, match="^" + told[:30].replace("(", r"\(")):
            _read(answer, seen, language)


def test_the_languages_own_word_for_as_out_of_place_says_where_it_goes() -> None:
    seen = cr.deal(cr.english(3, ranks="free"), hands=["7c 7d", "2h", "3h"]).observe(0)
    for language, word in (("pt", "como"), ("es", "como"), ("fr", "comme"), ("ru", "как")):
        told = translations(language).gettext(
            "'as' goes between the cards and the rank you announce, such as '7c 7d as 7' "
            "(the Ace of spades is 'As' or 'A♠')"
        )
        for answer in (f"{word} 7", f"7c {word} 7 7d"):
            with pytest.raises(ValueError, match=re.escape(told)):
                _read(answer, seen, language)


def test_no_word_read_on_a_turn_is_a_card_but_the_english_as() -> None:
    # A word that read as a card could never lay that card; 'as' is the one
    # such word, and it is the word only before a rank at the end.
    for language in LANGUAGES:
        for kind in (*TURN_WORDS, "as"):
            for word in _answer_words(kind, language):
                try:
                    cr.Card.parse(word)
                except cr.CardError:
                    continue
                assert (kind, word) == ("as", "as"), (language, kind, word)


@given(
    data=st.data(),
    language=st.sampled_from(LANGUAGES),
    named=st.sampled_from(cr.STANDARD_RANKS) | st.none(),
)
@examples(60)
def test_any_cards_of_a_hand_typed_any_way_are_read(
    data: st.DataObject, language: str, named: cr.Rank | None
) -> None:
    deck = list(EVERY_CARD)
    index = st.integers(0, len(deck) - 1)
    dealt = data.draw(st.lists(index, min_size=1, max_size=10, unique=True), label="hand")
    hand = [deck[at] for at in dealt]
    chosen = st.integers(0, len(hand) - 1)
    order = data.draw(st.lists(chosen, min_size=1, max_size=len(hand), unique=True), label="laid")
    laid = [hand[at] for at in order]
    rules = cr.english(3, decks=2, jokers="per-pack", ranks="free" if named else "ascending")
    rest = [card for at, card in enumerate(deck) if at not in dealt]
    seen = cr.deal(rules, hands=[hand, rest[:2], rest[2:4]]).observe(0)
    typed = [data.draw(st.sampled_from(_spellings(card, language))) for card in laid]
    answer = " ".join(typed)
    if named is not None:
        word = data.draw(st.sampled_from(sorted(_answer_words("as", language))))
        letter = data.draw(st.sampled_from(sorted(_rank_spellings(named, language))))
        answer += f" {word} {letter}"
    assert _read(answer, seen, language) == cr.Play(tuple(laid), named or cr.Rank.ACE)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_king_of_spades_is_read_in_a_whole_session(language: str) -> None:
    # The case: 'Ks' typed at the prompt of a Portuguese session.
    seed = next(
        seed
        for seed in range(100)
        if cr.Card.parse("K♠") in cr.deal(cr.english(3), seed=seed).hands[0]
    )
    out = io.StringIO()
    argv = ["play", "--seed", str(seed), "--players", "3", "--plain", "--lang", language]
    assert main(argv, stdin=io.StringIO("Ks\nquit\n"), stdout=out) == 0
    assert describe(Played(0, (), cr.Rank.ACE, 1), language) in out.getvalue()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_card_typed_for_the_fours_to_set_aside_sets_its_rank_aside(language: str) -> None:
    # The fours prompt reads ranks; a card of the four names its rank there, so
    # 'Ks' (the card the player sees in hand) sets the Kings aside as 'K' does.
    state = cr.deal(cr.verish(3), hands=["K♣ 8c", "K♠ K♥ K♦ 7h", "9h 10h"], dealer=2)
    state = state.apply(cr.Play("K♣", "K")).apply(cr.Challenge())  # true: seat 1 takes the K
    seen = state.observe(1)
    assert isinstance(seen.decision, DiscardOffer) and seen.decision.fours == (cr.Rank.KING,)
    king = rank_letter(cr.Rank.KING, language)
    for answer in ("Ks", "KS", "K♠", king, f"{king}h", "k"):
        assert _read(answer, seen, language) == cr.Discard("K"), answer
        assert state.is_legal(_read(answer, seen, language))
    with pytest.raises(cr.CardError, match="unknown rank 'Zz'"):
        _read("Zz", seen, language)
