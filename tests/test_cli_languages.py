"""The command line in the players' languages: ``--lang``, or the environment's locale."""

from __future__ import annotations

import io
import re

import pytest

from cheatrules.cli import main

OTHERS = ("pt", "es", "fr", "ru")
ENGLISH_WORDS = re.compile(r"\b(seat|players?|decisions?|seed|lays|takes|game over)\b")
LOCALES = {"pt": "pt_BR.UTF-8", "es": "es_ES.UTF-8", "fr": "fr_FR.UTF-8", "ru": "ru_RU.UTF-8"}


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def _watch(*argv: str) -> list[str]:
    out = io.StringIO()
    assert main(["watch", "--seed", "7", "--players", "4", "--plain", *argv], stdout=out) == 0
    return out.getvalue().splitlines()


@pytest.mark.parametrize("language", OTHERS)
def test_watch_tells_a_whole_game_in_the_language_asked_for(language: str) -> None:
    english = _watch()
    told = _watch("--lang", language)
    assert len(told) == len(english) > 10
    for there, here in zip(english, told, strict=True):
        assert here != there
        assert not ENGLISH_WORDS.search(here), here


@pytest.mark.parametrize("language", OTHERS)
def test_the_language_defaults_from_the_locale(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", LOCALES[language])
    assert _watch() == _watch("--lang", language)


def test_lc_all_outranks_lc_messages_which_outranks_lang(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    monkeypatch.setenv("LC_MESSAGES", "es_ES.UTF-8")
    assert _watch() == _watch("--lang", "es")
    monkeypatch.setenv("LC_ALL", "ru_RU.UTF-8")
    assert _watch() == _watch("--lang", "ru")
    assert _watch("--lang", "pt") != _watch()  # the option outranks the environment


@pytest.mark.parametrize("locale", ["C.UTF-8", "POSIX", "de_DE.UTF-8", "", "pt"])
def test_any_other_locale_speaks_english_as_today(
    locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    english = _watch("--lang", "en")
    assert english[0].startswith("English Cheat, 4 players, seed 7: seat 0 CountingBot")
    assert english[-1].endswith(" decisions, 4 players, seed 7.")
    monkeypatch.setenv("LANG", locale)
    expected = _watch("--lang", "pt") if locale == "pt" else english
    assert _watch() == expected


def test_an_unknown_language_is_a_usage_error_naming_the_languages(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["watch", "--seed", "1", "--lang", "de"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "--lang de" in err
    assert "'en', 'pt', 'es', 'fr' and 'ru'" in err


@pytest.mark.parametrize("language", OTHERS)
def test_replay_tells_the_saved_game_in_the_language_asked_for(
    language: str, tmp_path: pytest.TempPathFactory
) -> None:
    record = f"{tmp_path}/game.json"
    told = _watch("--lang", language, "--save", record)
    out = io.StringIO()
    assert main(["replay", record, "--plain", "--lang", language], stdout=out) == 0
    assert out.getvalue().splitlines() == told[1:-2]


def test_play_narrates_in_the_language_asked_for() -> None:
    out = io.StringIO()
    argv = ["play", "--seed", "2", "--players", "3", "--plain", "--lang", "ru"]
    assert main(argv, stdin=io.StringIO("quit\n"), stdout=out) == 0
    text = out.getvalue()
    assert "Английский Cheat" in text and "игрок" in text and "сдаёт" in text
