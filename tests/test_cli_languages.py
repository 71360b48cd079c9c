"""The command line in the players' languages: ``--lang``, or the environment's locale."""

from __future__ import annotations

import io
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules._i18n import rank_letter, translations
from cheatrules.cli import main
from cheatrules.cli._options import VARIANTS, meanings
from cheatrules.cli._play import _HELP, _describe, _prompt, _read, error_text
from cheatrules.variants import challenge_call, rules_for

from .strategies import house_options, play_randomly

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


# -- play, and every other command, in each language --------------------------------------


LANGUAGES = ("en", *OTHERS)
#: Words of the command line's English messages that no other language's line may hold.
CLI_ENGLISH = re.compile(
    r"\b(seat|your|hand|turn|cards?|claims?|accept|challenge|lays|takes|wins?|lose|games?"
    r"|type|help|stock|empty|you|match|score|defeats|agent|bluffs|house rules|default)\b"
)


def _english_in(line: str, language: str) -> list[str]:
    house = translations(language).gettext("house rules: %(rules)s").split("%(rules)s")[0]
    if line.startswith(house):
        line = house  # the house rules after it stay as typed after --with: stock=3
    found = CLI_ENGLISH.findall(line)
    if language == "fr":
        found = [word for word in found if word not in ("match", "score")]  # le score du match
    return found


class _Player(io.StringIO):
    """Stdin that answers what the screen asks: a few odd answers first, then a plain game.

    It reads the prompt on ``out`` and recognises it by the catalog's words of ``language``.
    """

    def __init__(self, out: io.StringIO, language: str, odd: list[str], naming: str = "") -> None:
        super().__init__()
        self.out, self.odd, self.naming = out, list(odd), naming
        catalog = translations(language)
        self.turn = catalog.gettext("your turn: lay cards %(ranks)s > ").split("%(ranks)s")[0]
        self.hand = catalog.gettext("your hand: %(hand)s").split("%(hand)s")[0]
        self.answers = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.answers += 1
        assert self.answers < 2000
        screen = self.out.getvalue()
        if self.odd:
            return self.odd.pop(0) + "\n"
        if self.asked(screen).startswith(self.turn):
            return self.lay(screen, self.naming)
        return ("c" if self.answers % 5 == 0 else "") + "\n"

    @staticmethod
    def asked(screen: str) -> str:
        """The prompt the screen ends with."""
        return screen.rsplit("\n", 1)[-1].rstrip(" >").rsplit(" > ", 1)[-1]

    def lay(self, screen: str, naming: str) -> str:
        """The answer that lays the first card of the hand shown last, naming a rank if asked."""
        hand = [line for line in screen.splitlines() if line.startswith(self.hand)][-1]
        return f"{hand[len(self.hand) :].split()[0]}{naming}\n"


def _session(language: str, odd: list[str], *argv: str, naming: str = "") -> str:
    out = io.StringIO()
    player = _Player(out, language, odd, naming)
    argv = ("play", "--seed", "4", "--players", "3", "--with", "stock=3", "--plain", *argv)
    assert main([*argv, "--lang", language], stdin=player, stdout=out) == 0
    return out.getvalue()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_whole_play_session_speaks_the_language(language: str) -> None:
    catalog = translations(language)
    text = _session(language, ["h", "hand", "Q", ""])
    lines = text.replace(" > ", " >\n").splitlines()
    assert catalog.gettext("You are seat %(seat)s. Type h for help.") % {"seat": 0} in lines
    assert lines[-1] in (catalog.gettext("You win!"), catalog.gettext("You lose."))
    assert catalog.gettext(_HELP).splitlines()[0] in lines
    said = {
        catalog.gettext("type the cards to lay, such as '7c 7d' (h for help)"),
        catalog.gettext(
            "%(word)s names a rank: lay cards with their suits, such as '%(card)s' "
            "(type quit to leave)"
        )
        % {"word": "Q", "card": "Q♥"},
    }
    assert {line.strip() for line in lines} >= said
    if language == "en":
        assert "your turn: lay cards as" in text and "seat 1 lays" in text
        return
    help_lines = set(catalog.gettext(_HELP).splitlines())
    english = [
        (line, _english_in(line, language))
        for line in lines
        if _english_in(line, language) and line not in help_lines
    ]
    assert english == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_match_session_speaks_the_language(language: str) -> None:
    catalog = translations(language)
    text = _session(language, [], "--match", "best-of=2")
    assert catalog.gettext("A match: %(scoring)s").split("%(scoring)s")[0] in text
    assert catalog.gettext("match score: game wins %(wins)s").split("%(wins)s")[0] in text
    ended = catalog.gettext("game %(number)s over: seat %(winner)s wins").split("%(number)s")[0]
    assert ended in text
    if language != "en":
        assert [line for line in text.splitlines() if _english_in(line, language)] == []


def test_a_bad_answer_the_engine_refuses_is_its_message_in_the_language() -> None:
    # The engine's own errors are told as the error renders itself in the language
    # (error.describe(language) where the library offers it, else its English text).
    text = _session("pt", ["Zz"])
    with pytest.raises(cr.CheatRulesError) as refused:
        cr.cards("Zz")
    said = error_text(refused.value, "pt")
    assert said != str(refused.value)  # the engine says it in Portuguese
    lines = text.replace(" > ", " >\n").splitlines()
    # A long message is cut to the prompt's width, with an ellipsis.
    assert any(line.startswith("  " + said[:60]) for line in lines)


@pytest.mark.parametrize(
    ("language", "answer", "rank"),
    [("fr", "comme D", "Q"), ("fr", "comme R", "K"), ("ru", "как Д", "Q"), ("ru", "как Т", "A")],
)
def test_the_announced_rank_is_read_in_the_languages_letters(
    language: str, answer: str, rank: str
) -> None:
    state = cr.deal(cr.english(3, ranks="free"), hands=["Q♣ 7♦", "2h", "3h"])
    seen = state.observe(0)
    assert _read(f"7♦ {answer}", seen, language) == cr.Play("7♦", rank)
    local = {"fr": "D♣", "ru": "Д♣"}[language]
    assert _read(f"{local} {answer}", seen, language) == cr.Play("Q♣", rank)
    assert _read(f"7♦ as {rank}", seen, language) == cr.Play("7♦", rank)  # English too


@pytest.mark.parametrize(
    ("language", "naming", "said"), [("fr", " comme D", "Dame"), ("ru", " как Д", "дам")]
)
def test_a_session_names_ranks_with_the_languages_letters(
    language: str, naming: str, said: str
) -> None:
    text = _session(language, [], "--with", "ranks=free", naming=naming)
    catalog = translations(language)
    assert catalog.gettext("naming a rank ('... as 7')") in text
    assert said in text  # the claims read back as Queens, in the language's words


@pytest.mark.parametrize("language", LANGUAGES)
def test_rank_letters_are_read_back(language: str) -> None:
    for rank in cr.Rank:
        assert cr.Rank.parse(rank_letter(rank, language)) is rank


def test_arena_speaks_the_language() -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["arena", "--games", "3", "--players", "3", "--seed", "1", "--plain", "--workers", "1"]
    assert main([*argv, "--with", "stock=3", "--lang", "ru"], stdout=out, stderr=err) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("3 партии, сид 1, в среднем")
    assert lines[1].split()[:3] == ["агент", "партии", "победы"]
    assert [line for line in lines if _english_in(line, "ru")] == []
    assert "3/3 партии" in err.getvalue()
    # Russian writes decimals with a comma: the rates and the mean length.
    rates = [line.split()[2] for line in lines[2:5]]
    assert all(re.fullmatch(r"\d,\d{3}", rate) for rate in rates), rates
    assert re.search(r"в среднем \d+,\d ", lines[0]), lines[0]


def test_rules_speaks_the_language_and_names_each_game_as_its_rule_books_do() -> None:
    out = io.StringIO()
    assert main(["rules", "--plain", "--lang", "fr"], stdout=out) == 0
    lines = out.getvalue().splitlines()
    assert (
        lines[0]
        == "Cheat anglais (--variant english)\u00a0: règles maison, données par --with NOM=VALEUR"
    )
    verish = [line for line in lines if "(--variant verish)" in line]
    assert verish == [
        "Verish’ Ne Verish’ (--variant verish)\u00a0: règles maison, données par --with NOM=VALEUR"
    ]
    assert sum("(par défaut)" in line for line in lines) >= 8
    assert "(the default)" not in out.getvalue()


#: English words no translated meaning of a house rule may keep.
MEANING_ENGLISH = re.compile(
    r"\b(the|of|and|may|every|each|claims?|pile|cards?|turn|after|whole|players?|lays"
    r"|rank|challenge[sd]?|fours|otherwise|once)\b",
    re.IGNORECASE,
)


def _meanings(language: str) -> dict[tuple[str, str], str]:
    """What ``cheatrules rules`` says each house rule (and each family) means, by game and option."""
    out = io.StringIO()
    assert main(["rules", "--plain", "--lang", language], stdout=out) == 0
    found: dict[tuple[str, str], str] = {}
    game = key = ""
    for line in out.getvalue().splitlines():
        if "(--variant " in line:
            game, key = line.split("(--variant ")[1].split(")")[0], "players"
            found[game, key] = ""
        elif line.startswith("  --with "):
            key = line.split(" (")[0].strip()
            found[game, key] = ""
        elif line and not line.startswith(" "):
            key, _, text = line.partition(": ")
            found[game, key] = text
        elif line.strip() and key:
            found[game, key] = f"{found[game, key]} {line.strip()}".strip()
    return found


def test_the_listing_parser_reads_every_option_of_each_game() -> None:
    english = _meanings("en")
    assert english["english", "players"] == "3 to 10 players (--players N; 4 by default)"
    assert english["verish", "--with deck=36"] == "The short pack (6 to Ace)."
    assert english["english", "--with deck=52"] == "One pack. For 3 to 6 players only."
    assert english["english", "deck"].startswith("Decides which cards are played")


@pytest.mark.parametrize("language", OTHERS)
def test_rules_says_every_house_rules_meaning_in_the_language(language: str) -> None:
    english = _meanings("en")
    told = _meanings(language)
    assert told.keys() == english.keys()
    assert len(english) > 70
    for key, meaning in english.items():
        assert meaning, key
        assert told[key] != meaning, key
        said = re.sub(r"--\S+", "", told[key])  # options stay as typed: --players N
        if language == "fr":
            said = said.replace("la pile", "")  # the French rule book's word for the pile
        assert not MEANING_ENGLISH.search(said), (key, told[key])


@pytest.mark.parametrize("language", OTHERS)
def test_every_meaning_rules_shows_has_a_catalog_entry(language: str) -> None:
    catalog = translations(language)
    texts = [text for game in VARIANTS for text in meanings(game)]
    games = cr.variants.VARIANTS.values()
    assert set(texts) == {
        *(option.meaning for game in games for option in game.options),
        *(choice.meaning for game in games for choice in game.decks),
        *(family.summary for game in games for family in game.families),
        *(
            choice.meaning
            for game in games
            for family in game.families
            for choice in family.choices
        ),
    }
    assert len(set(texts)) >= 39
    assert [text for text in texts if catalog.gettext(text) == text] == []


def test_serve_says_where_it_listens_in_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    web = pytest.importorskip("cheatrules.web")
    monkeypatch.setattr(web, "serve", lambda *args, **kwargs: None)
    out = io.StringIO()
    assert main(["serve", "--port", "8123", "--lang", "es"], stdout=out) == 0
    assert out.getvalue().startswith("mesa web de cheatrules en http://127.0.0.1:8123/ (mesas")


def test_replay_html_speaks_the_language(tmp_path: pytest.TempPathFactory) -> None:
    record, page = f"{tmp_path}/game.json", f"{tmp_path}/game.html"
    _watch("--save", record)
    out = io.StringIO()
    assert main(["replay", record, "--html", page, "--lang", "es"], stdout=out) == 0
    assert " fotogramas (" in out.getvalue() and "ábrelo en un navegador" in out.getvalue()
    with open(page, encoding="utf-8") as file:
        html = file.read()
    assert '<html lang="es">' in html
    assert "<title>Cheat inglés, 4 jugadores, semilla 7: todas las manos</title>" in html
    assert "evento 1 de " in html and "siguiente ▶" in html and "el jugador 0 juega" in html
    words = re.sub(r"<[^>]*>", " ", html)  # what the page shows, without its markup
    assert not re.search(r"\b(seat|of|players|every hand|first|prev|next|last)\b", words)


@pytest.mark.parametrize("command", [["arena"], ["rules"], ["serve"], ["replay", "x.json"]])
def test_an_unknown_language_is_a_usage_error_for_every_command(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main([*command, "--lang", "xx"])
    assert caught.value.code == 2
    assert "--lang xx" in capsys.readouterr().err


@settings(max_examples=25, deadline=None)
@given(
    game=st.sampled_from(["english", "verish"]),
    seed=st.integers(0, 10_000),
    language=st.sampled_from(OTHERS),
)
def test_every_prompt_and_status_of_random_games_is_in_the_language(
    game: str, seed: int, language: str
) -> None:
    rng = random.Random(seed)
    rules = rules_for(game, rng.randint(3, 5), **house_options(rng))
    for state in play_randomly(cr.deal(rules, seed=seed), seed, limit=120)[::3]:
        if state.is_over:
            continue
        seen = state.observe(state.to_move)  # type: ignore[arg-type]
        for line in [_prompt(seen, language), *_describe(seen, language)]:
            assert not _english_in(line, language), line


#: The game's own call, as people type it in each language: with and without its
#: punctuation, in any case, in several words.
SHOUTED = {
    ("english", "en"): ["Cheat!", "cheat", "CHEAT !"],
    ("english", "pt"): ["Cheat!", "cheat"],
    ("english", "es"): ["¡Cheat!", "cheat"],
    ("english", "fr"): ["Cheat !", "cheat"],
    ("english", "ru"): ["Обман!", "обман"],
    ("verish", "en"): ["I don't believe!", "i don't believe"],
    ("verish", "pt"): ["Não acredito!", "não acredito"],
    ("verish", "es"): ["¡No te creo!", "no te creo"],
    ("verish", "fr"): ["Je ne te crois pas !", "je ne te crois pas"],
    ("verish", "ru"): ["Не верю!", "не верю", "НЕ ВЕРЮ"],
}


class _Caller(_Player):
    """A player who calls, in turn, each spelling of the game's call until each was read as one.

    Between calls it lays the first card of its hand, or lets a claim stand;
    a spelling works when the next thing the screen tells is seat 0's call.
    Once every spelling has worked, it leaves.
    """

    def __init__(self, out: io.StringIO, language: str, game: str, spellings: list[str]) -> None:
        super().__init__(out, language, [])
        self.spellings = spellings
        self.worked: set[str] = set()
        self.last: str | None = None
        self.read_up_to = 0
        catalog = translations(language)
        call = challenge_call(rules_for(game, 3), language=language)
        told = catalog.gettext("seat %(seat)s: %(call)s %(shown)s; %(taken)s").split(" %(shown)s")
        self.narrated = told[0] % {"seat": 0, "call": call}
        # Where the player names the rank (Verish' on an empty table): "... as A".
        self.free = catalog.gettext("naming a rank ('... as 7')")
        ace = rank_letter(cr.Rank.ACE, language)
        self.as_ace = " " + catalog.gettext("as %(rank)s") % {"rank": ace}

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        screen = self.out.getvalue()
        new, self.read_up_to = screen[self.read_up_to :], len(screen)
        if self.last is not None and new.lstrip().startswith(self.narrated):
            self.worked.add(self.last)
        self.last = None
        if self.worked == set(self.spellings):
            return "quit\n"
        self.answers += 1
        assert self.answers < 2000
        if self.answers % 2 == 0:
            self.last = next(word for word in self.spellings * 2 if word not in self.worked)
            return self.last + "\n"
        prompt = self.asked(screen)
        if not prompt.startswith(self.turn):
            return "\n"
        return self.lay(screen, self.as_ace if self.free in prompt else "")


@pytest.mark.parametrize(("game", "language"), sorted(SHOUTED))
def test_a_game_is_played_calling_in_each_spelling_of_the_languages_call(
    game: str, language: str
) -> None:
    out = io.StringIO()
    player = _Caller(out, language, game, SHOUTED[game, language])
    argv = [
        "play",
        "--variant",
        game,
        "--seed",
        "4",
        "--players",
        "3",
        "--plain",
        "--lang",
        language,
    ]
    assert main(argv, stdin=player, stdout=out) == 0
    assert player.worked == set(SHOUTED[game, language])
