"""One card is a card: the narration, the reprs and the tables say one thing in the singular."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

import cheatrules as cr
from cheatrules._i18n import LANGUAGES
from cheatrules.arena import tournament
from cheatrules.bots import RandomBot
from cheatrules.narration import narrate

# The line for a play of one's last cards, and for letting them stand, by language:
# one card, then two.
LAST_CARDS = {
    "en": (
        ("the last card!", "lets seat 0's last card stand"),
        ("the last cards!", "lets seat 0's last cards stand"),
    ),
    "pt": (
        ("a última carta!", "aceita a última carta do jogador 0"),
        ("as últimas cartas!", "aceita as últimas cartas do jogador 0"),
    ),
    "es": (
        ("¡la última carta!", "acepta la última carta del jugador 0"),
        ("¡las últimas cartas!", "acepta las últimas cartas del jugador 0"),
    ),
    "fr": (
        ("la dernière carte\u202f!", "laisse passer la dernière carte du joueur 0"),
        ("les dernières cartes\u202f!", "laisse passer les dernières cartes du joueur 0"),
    ),
    "ru": (
        ("последняя карта!", "принимает последнюю карту игрока 0"),
        ("последние карты!", "принимает последние карты игрока 0"),
    ),
}


def _last_play(hand: str) -> cr.GameState:
    """Seat 0 lays its whole ``hand`` as Aces, and both others let it stand."""
    state = cr.deal(cr.english(3), hands=[hand, "2h 3h", "4h 5h"])
    return state.apply(cr.Play(hand, "A")).apply(cr.Accept()).apply(cr.Accept())


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_single_last_card_is_told_in_the_singular(language: str) -> None:
    assert set(LAST_CARDS) == set(LANGUAGES)
    for hand, (laid, stands) in zip(("7♣", "7♣ 8♣"), LAST_CARDS[language], strict=True):
        lines = list(narrate(_last_play(hand).events, language=language))
        assert lines[1].endswith(laid), lines
        assert any(stands in line for line in lines), lines


def test_the_game_state_repr_counts_one_event_in_the_singular() -> None:
    state = cr.deal(cr.english(3), hands=["7♣", "2h", "3h"])
    assert len(state.events) == 1
    assert repr(state).endswith("; 1 event>")
    assert repr(state.apply(cr.Play("7♣", "A"))).endswith("; 2 events>")


def test_the_results_table_counts_one_game_in_the_singular() -> None:
    with ThreadPoolExecutor(1) as pool:
        one = tournament(cr.english(3), [RandomBot()] * 3, games=1, seed=1, executor=pool)
        two = tournament(cr.english(3), [RandomBot()] * 3, games=2, seed=1, executor=pool)
    assert "\n1 game, mean length" in one.table()
    assert "\n2 games, mean length" in two.table()
