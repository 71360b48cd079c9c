"""What a player types at ``cheatrules play`` is read as a player means it, in every language.

A call is typed as people shout it ("Cheat!", "¡Dudo!", "не верю"), with its
punctuation and its spaces; a one-letter answer typed on a Russian keyboard
(Cyrillic «с», the key and the look of Latin c) is the letter it looks like;
and in Verish' Ne Verish', whose question is «Веришь?» ("do you believe?"),
"yes" lets the claim stand and "no" calls it, where in Cheat "yes" calls.
"""

from __future__ import annotations

import pytest

import cheatrules as cr
from cheatrules.cli._play import _bad_answer, _excerpt, _read


def _asked(game: str, window: str | None = None) -> cr.Observation:
    """The view of the seat asked about a claim: in a window, or (Verish') on its turn."""
    options = {} if window is None else {"window": window}
    rules = cr.verish(3, **options) if game == "verish" else cr.english(3, **options)
    state = cr.deal(rules, hands=["6c 7c 8c", "6d 7d 8d", "6h 7h 8h"], dealer=2)
    state = state.apply(cr.Play("6c", state.table.allowed_ranks[0]))
    if cr.Challenge() not in state.legal_actions():  # Verish': the round's first claim stands
        state = state.apply(cr.Play("6d", state.table.allowed_ranks[0]))
    assert cr.Challenge() in state.legal_actions()
    assert state.to_move is not None
    return state.observe(state.to_move)


def _window(game: str) -> cr.Observation:
    """A challenge window: Cheat's own, or Verish' played with one."""
    seen = _asked(game, None if game == "english" else "immediate")
    assert seen.phase is cr.Phase.CHALLENGE
    return seen


@pytest.mark.parametrize(
    ("game", "language", "typed"),
    [
        ("english", "en", "Cheat!"),
        ("english", "en", "  cheat  "),
        ("english", "es", "¡Cheat!"),
        ("english", "fr", "Cheat !"),
        ("english", "ru", "Обман!"),
        ("verish", "ru", "не верю"),
        ("verish", "ru", "Не верю!"),
        ("verish", "pt", "Não acredito!"),
        ("verish", "pt", "não acredito"),
        ("verish", "es", "¡No te creo!"),
        ("verish", "es", "no te creo"),
        ("verish", "fr", "Je ne te crois pas !"),
        ("verish", "en", "I don't believe!"),
    ],
)
def test_a_call_is_read_as_it_is_shouted(game: str, language: str, typed: str) -> None:
    assert _read(typed, _asked(game), language) == cr.Challenge()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_cyrillic_letter_is_the_latin_letter_it_looks_like(language: str) -> None:
    seen = _window("english")
    assert _read("с", seen, language) == cr.Challenge()  # Cyrillic es: the c key
    assert _read("С", seen, language) == cr.Challenge()
    assert _read("а", seen, language) == cr.Accept()  # Cyrillic a


def test_in_verish_yes_believes_and_no_doubts() -> None:
    seen = _window("verish")
    assert _read("да", seen, "ru") == cr.Accept()
    assert _read("верю", seen, "ru") == cr.Accept()
    assert _read("нет", seen, "ru") == cr.Challenge()
    assert _read("yes", seen, "en") == cr.Accept()
    assert _read("no", seen, "en") == cr.Challenge()


def test_in_cheat_yes_calls_as_before() -> None:
    seen = _window("english")
    assert _read("yes", seen, "en") == cr.Challenge()
    assert _read("no", seen, "en") == cr.Accept()


def test_what_is_no_answer_is_still_refused_with_what_to_type() -> None:
    with pytest.raises(ValueError, match="type c to call cheat"):
        _read("maybe!", _window("english"), "en")


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", "A♠ is not in your hand"),
        ("pt", "A♠ não está na sua mão"),
        ("es", "A♠ no está en tu mano"),
        ("fr", "A♠ n’est pas dans votre main"),
        ("ru", "Т♠ нет у вас в руке"),
    ],
)
def test_a_refused_play_is_told_by_its_reason_not_as_code(language: str, says: str) -> None:
    state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    with pytest.raises(cr.IllegalActionError) as refused:
        state.apply(cr.Play("A♠", "A"))
    told = _bad_answer(refused.value, 0, language)
    assert says in told
    assert "Play(" not in told and "ação ilegal" not in told and "недопустимый ход" not in told


def test_a_long_message_is_cut_between_words() -> None:
    text = "слово " * 40
    cut = _excerpt(text.strip(), 30)
    assert cut.endswith("слово…") and len(cut) <= 30


def _free_to_lay(hand: str) -> cr.Observation:
    """Seat 0 to lay, its hand ``hand``, any rank open (free ranks)."""
    state = cr.deal(cr.english(3, ranks="free"), hands=[hand, "2d 3d", "2h 3h"])
    return state.observe(0)


def test_under_russian_the_latin_t_that_looks_like_the_ace_is_asked_about_not_read_as_a_ten() -> (
    None
):
    # The Russian Ace is the Cyrillic Т, shown at every prompt; the Latin T
    # (the ten, in English) looks the same. No two answers that look alike
    # may mean different things, so the Latin one is refused with what to type.
    seen = _free_to_lay("10c Ac 5d")
    for typed in ("Tc как 5", "tc как 5", "10c как T"):
        with pytest.raises(ValueError, match="10"):
            _read(typed, seen, "ru")
    assert _read("10c как 5", seen, "ru") == cr.Play("10♣", "5")
    assert _read("Тc как 5", seen, "ru") == cr.Play("A♣", "5")  # the Cyrillic Т: the Ace
    assert _read("Ac как Т", seen, "ru") == cr.Play("A♣", "A")
    # In the other languages the T stays the ten, as the English rule books write it.
    assert _read("Tc as 5", seen, "en") == cr.Play("10♣", "5")
