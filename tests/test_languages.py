"""The narration in the players' languages: English, Portuguese, Spanish, French and Russian.

The catalogs live in ``src/cheatrules/locale/<language>/LC_MESSAGES/`` as
``cheatrules.po`` (what translators edit) and ``cheatrules.mo`` (what the
standard library's ``gettext`` reads at run time, committed beside it).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from hypothesis import given, settings
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules import events as ev
from cheatrules._i18n import translations
from cheatrules.cards import Rank, cards
from cheatrules.errors import Message as ErrorMessage
from cheatrules.errors import either
from cheatrules.narration import narrate
from cheatrules.variants import challenge_call, rules_for, variant

from .strategies import house_options, play_randomly

SOURCE = Path(cr.__file__).parent
LOCALE = SOURCE / "locale"
LANGUAGES = ("en", "pt", "es", "fr", "ru")
OTHERS = ("pt", "es", "fr", "ru")
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def _catalog(language: str) -> Catalog:
    path = LOCALE / language / "LC_MESSAGES" / "cheatrules.po"
    with path.open("rb") as file:
        return read_po(file, locale=language)


def _not_hidden(folder: str) -> bool:
    name = Path(folder).name
    return not name.startswith(".") and name != "__pycache__"


def _source_messages() -> set[tuple[str | tuple[str, ...], str | None]]:
    """Every message the package's source marks for translation: (id, context)."""
    found: set[tuple[str | tuple[str, ...], str | None]] = set()
    # The documented extract command adds ``-k NN_:1,2``: the errors' plural templates.
    keywords = {**DEFAULT_KEYWORDS, "NN_": (1, 2)}
    # As ``pybabel extract`` does, read the private packages too (``_records``,
    # ``_sampler``): the library's own filter would pass over folders named ``_*``.
    for _, _, message, _, context in extract_from_dir(
        str(SOURCE), keywords=keywords, directory_filter=_not_hidden
    ):
        found.add((message, context))
    return found


def _key(message: str | tuple[str, ...]) -> str:
    return message if isinstance(message, str) else message[0]


# -- the catalogs ----------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_the_source_is_translated_in_every_language(language: str) -> None:
    catalog = _catalog(language)
    wanted = _source_messages()
    assert len(wanted) > 40  # the extraction found the narration's messages
    missing = []
    for message, context in sorted(wanted, key=str):
        entry = catalog.get(_key(message), context=context)
        if entry is None or entry.fuzzy:
            missing.append((message, context))
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if not all(strings) or len(strings) != (catalog.num_plurals if entry.pluralizable else 1):
            missing.append((message, context))
    assert missing == []
    stale = [
        (entry.id, entry.context)
        for entry in catalog
        if entry.id and (entry.id, entry.context) not in wanted
    ]
    assert stale == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_babel_finds_no_error_in_any_catalog(language: str) -> None:
    catalog = _catalog(language)
    assert [(entry.id, errors) for entry, errors in catalog.check()] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_uses_only_the_placeholders_of_its_message(language: str) -> None:
    # Babel's checker compares a plural translation with the English forms
    # pairwise; Russian's third form has no English twin, so check all here.
    wrong = []
    for entry in _catalog(language):
        if not entry.id:
            continue
        allowed = {name for text in _strings(entry.id) for name in PLACEHOLDER.findall(text)}
        for text in _strings(entry.string):
            if not set(PLACEHOLDER.findall(text)) <= allowed:
                wrong.append((entry.id, text))
    assert wrong == []


def test_russian_has_three_plural_forms_and_the_others_two() -> None:
    assert {language: _catalog(language).num_plurals for language in LANGUAGES} == {
        "en": 2,
        "pt": 2,
        "es": 2,
        "fr": 2,
        "ru": 3,
    }


#: What each language's typography asks of a translation: a pattern no string may match.
TYPOGRAPHY = {
    "fr": [
        # A narrow no-break space before ; ! ? and a no-break space before :,
        # so that no line breaks before the sign (nor a colon takes a narrow one).
        (re.compile(r"[ \u00a0][;!?]"), "a space other than U+202F before ; ! or ?"),
        (re.compile(r"[ \u202f]:"), "a space other than U+00A0 before :"),
        (re.compile(r"\w[;!?]"), "no space before ; ! or ?"),
        (re.compile(r"\d[ \u00a0]%"), "a space other than U+202F between a number and %"),
        # One apostrophe: the typographic one (a straight quote stays for code: 'K♣').
        (re.compile(r"(?<=\w)'(?=\w)"), "a straight apostrophe"),
        # Quotation marks take a no-break space inside: « mot ».
        (re.compile(r"«(?!\u00a0)|(?<!\u00a0)»"), "« or » without a no-break space inside"),
    ],
    "es": [
        (re.compile(r"^[^¿]*\?"), "a question without ¿"),
        (re.compile(r"^[^¡]*!"), "an exclamation without ¡"),
        (re.compile(r"\bdla\b"), "'dla' for 'de la'"),
    ],
    "ru": [(re.compile(r" - "), "a hyphen for a dash")],
    "pt": [(re.compile(r" - "), "a hyphen for a dash")],
}


@pytest.mark.parametrize("language", sorted(TYPOGRAPHY))
def test_every_translation_follows_its_languages_typography(language: str) -> None:
    wrong = [
        (rule, text)
        for entry in _catalog(language)
        if entry.id
        for text in _strings(entry.string)
        for pattern, rule in TYPOGRAPHY[language]
        if pattern.search(text)
    ]
    assert wrong == []


#: The glossary page: for each language, the word the catalog uses for each thing and the
#: words it never uses (the test reads the page, so the page is the one list).
GLOSSARY = Path(__file__).parent.parent / "docs" / "guide" / "glossary.md"


def _glossary() -> dict[str, list[tuple[str, list[str], list[str]]]]:
    """Each language's rows: the thing, the patterns its catalog uses, those it never uses."""
    rows: dict[str, list[tuple[str, list[str], list[str]]]] = {}
    language = None
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"## .*\(`(\w+)`\)$", line)
        if heading:
            language = heading.group(1)
            rows[language] = []
        elif language and line.startswith("| ") and not line.startswith("| Thing"):
            cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]]
            uses, never = (
                [code.replace("\\|", "|") for code in re.findall(r"`([^`]+)`", cell)]
                for cell in cells[1:3]
            )
            rows[language].append((cells[0], uses, never))
    return rows


def _said(entry: Message) -> bool:
    """Whether an entry is words the library says (not a rank's name, nor words a player types)."""
    context = entry.context or ""
    return bool(entry.id) and context != "rank" and not context.startswith("answer words")


def test_the_glossary_has_a_table_for_each_language_but_english() -> None:
    glossary = _glossary()
    assert sorted(glossary) == sorted(set(LANGUAGES) - {"en"})
    assert all(len(rows) >= 10 for rows in glossary.values())


@pytest.mark.parametrize("language", sorted(set(LANGUAGES) - {"en"}))
def test_each_catalog_says_each_thing_with_its_glossary_word_and_no_other(language: str) -> None:
    texts = [text for entry in _catalog(language) if entry.id for text in _strings(entry.string)]
    said = [text for entry in _catalog(language) if _said(entry) for text in _strings(entry.string)]
    missing = [
        (thing, word)
        for thing, uses, _ in _glossary()[language]
        for word in uses
        if not any(re.search(word, text) for text in texts)
    ]
    wrong = [
        (thing, word, text)
        for thing, _, never in _glossary()[language]
        for word in never
        for text in said
        if re.search(word, text)
    ]
    assert (missing, wrong) == ([], [])


#: The plural categories of each language, in the order of its catalog's forms.
CATEGORIES = {
    "en": ["one", "other"],
    "pt": ["one", "other"],
    "es": ["one", "other"],
    "fr": ["one", "other"],
    "ru": ["one", "few", "many"],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_lists_numbers_and_plurals_follow_babels_locale_data(language: str) -> None:
    # The package reads its catalogs with the standard library alone; its lists,
    # decimal marks and plural forms are held to Babel's CLDR data here.
    from babel import Locale
    from babel.lists import format_list
    from babel.numbers import format_decimal

    from cheatrules._i18n import decimal, listed

    items = ["7", "K", "A"]
    if language != "en":  # the library's English has no serial comma, as ever
        assert listed(items, language) == format_list(items, locale=language)
        joined = either(items)
        assert isinstance(joined, ErrorMessage)
        assert joined.render(language) == format_list(items, style="or", locale=language)
    assert decimal(85.25, 1, language) == format_decimal(85.25, format="0.0", locale=language)
    locale = Locale.parse(language)
    form = translations(language).plural  # type: ignore[attr-defined]  # set from the header
    wrong = [
        count
        for count in range(1000)
        if form(count) != CATEGORIES[language].index(locale.plural_form(count))
    ]
    # Portuguese counts no card in the plural ("0 cartas"), European and Brazilian alike,
    # where CLDR's rule for pt says "0 carta".
    assert wrong == ([0] if language == "pt" else [])


def test_no_card_is_counted_in_the_singular_in_portuguese() -> None:
    # European and Brazilian usage alike: "0 cartas" (Babel's rule for pt says "0 carta").
    catalog = translations("pt")
    assert catalog.ngettext("%(count)s card", "%(count)s cards", 0) == catalog.ngettext(
        "%(count)s card", "%(count)s cards", 2
    )
    assert catalog.ngettext("%(count)s card", "%(count)s cards", 1) != catalog.ngettext(
        "%(count)s card", "%(count)s cards", 2
    )


def _messages(catalog: Catalog) -> dict[tuple[tuple[str, ...], str | None], tuple[str, ...]]:
    """A catalog's translated messages, plural or not, as plain tuples (``read_mo`` gives lists)."""
    return {
        (_strings(entry.id), entry.context): _strings(entry.string)
        for entry in catalog
        if entry.id and not entry.fuzzy
    }


def _strings(text: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    if text is None:
        return ()
    return (text,) if isinstance(text, str) else tuple(text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalog_says_what_the_po_file_says(language: str) -> None:
    # The .mo files are committed; this catches a .po edited without `pybabel compile`.
    with (LOCALE / language / "LC_MESSAGES" / "cheatrules.mo").open("rb") as file:
        compiled = read_mo(file)
    assert _messages(compiled) == _messages(_catalog(language))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_rank_name_has_a_grammatical_gender_the_code_knows(language: str) -> None:
    genders = [
        entry.string
        for entry in _catalog(language)
        if entry.context and entry.context.startswith("gender of ")
    ]
    assert len(genders) == len(Rank)
    assert set(genders) <= {"masculine", "feminine"}


# -- choosing a language -----------------------------------------------------------


def test_an_unknown_language_is_refused_with_the_languages_named() -> None:
    with pytest.raises(cr.RulesError, match=r"unknown language 'de'.*'en', 'pt', 'es', 'fr'.*'ru'"):
        list(narrate([], language="de"))


def test_the_language_is_chosen_per_call_and_leaks_into_no_other_call() -> None:
    events = [ev.Dealt(0, (cards("7♣"), cards("K♦")))]
    assert list(narrate(events, language="ru")) == ["игрок 0 сдаёт карты: 1, 1"]
    assert list(narrate(events)) == ["seat 0 deals 1, 1 cards"]


# -- the narration in each language --------------------------------------------------


def _challenged_game() -> cr.GameState:
    state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    return state.apply(cr.Play("K♦", "A")).apply(cr.Accept()).apply(cr.Challenge())


def test_the_docstring_game_in_every_language() -> None:
    events = _challenged_game().events
    assert list(narrate(events, language="pt")) == [
        "o jogador 2 distribui 2, 2, 2 cartas",
        "o jogador 0 joga 1 carta: um Ás (resta 1)",
        "jogador 2: Cheat! K♦ — mentira; o jogador 0 pega 1 carta",
    ]
    assert list(narrate(events, language="es")) == [
        "el jugador 2 reparte 2, 2, 2 cartas",
        "el jugador 0 juega 1 carta: un As (queda 1)",
        "jugador 2: ¡Cheat! K♦ — mentira; el jugador 0 se lleva 1 carta",
    ]
    assert list(narrate(events, language="fr")) == [
        "le joueur 2 distribue 2, 2, 2 cartes",
        "le joueur 0 pose 1 carte\u00a0: un As (il en reste 1)",
        "joueur 2\u00a0: Cheat\u202f! K♦ — mensonge\u202f; le joueur 0 ramasse 1 carte",
    ]
    assert list(narrate(events, language="ru")) == [
        "игрок 2 сдаёт карты: 2, 2, 2",
        "игрок 0 кладёт 1 карту: один туз (осталась 1)",
        "игрок 2: Обман! K♦ — ложь; игрок 0 забирает 1 карту",
    ]


@pytest.mark.parametrize(
    ("language", "claim"),
    [
        ("en", "two Kings"),
        ("pt", "dois Reis"),
        ("es", "dos Reyes"),
        ("fr", "deux Rois"),
        ("ru", "два короля"),
    ],
)
def test_a_claim_reads_the_way_a_player_says_it(language: str, claim: str) -> None:
    played = ev.Played(1, (), Rank.KING, 2)
    line = list(narrate([ev.Dealt(0, ((), ()), hand_sizes=(5, 5)), played], language=language))
    assert line[1].split(": " if language != "fr" else "\u00a0: ", 1)[1].startswith(claim)


@pytest.mark.parametrize(
    ("language", "rank", "count", "claim"),
    [
        ("pt", Rank.QUEEN, 1, "uma Dama"),
        ("pt", Rank.QUEEN, 2, "duas Damas"),
        ("pt", Rank.SEVEN, 2, "duas cartas 7"),
        ("pt", Rank.ACE, 2, "dois Ases"),
        ("es", Rank.QUEEN, 1, "una Reina"),
        ("es", Rank.SEVEN, 2, "dos cartas 7"),
        ("fr", Rank.QUEEN, 1, "une Dame"),
        ("fr", Rank.SEVEN, 3, "trois cartes 7"),
        ("ru", Rank.QUEEN, 1, "одна дама"),
        ("ru", Rank.QUEEN, 2, "две дамы"),
        ("ru", Rank.SEVEN, 4, "четыре семёрки"),
        ("ru", Rank.KING, 5, "пять королей"),
        ("ru", Rank.ACE, 1, "один туз"),
        ("en", Rank.SEVEN, 2, "two 7s"),
        ("en", Rank.ACE, 9, "9 Aces"),
    ],
)
def test_count_words_agree_with_the_rank_names_gender(
    language: str, rank: Rank, count: int, claim: str
) -> None:
    events = [ev.Dealt(0, ((), ()), hand_sizes=(20, 20)), ev.Played(1, (), rank, count)]
    assert list(narrate(events, language=language))[1].endswith(
        claim + f"{_left(language, 20 - count)}"
    )


def _left(language: str, left: int) -> str:
    return {
        "en": f" ({left} left)",
        "pt": f" (restam {left})",
        "es": f" (quedan {left})",
        "fr": f" (il en reste {left})",
        "ru": f" (осталось {left})" if left % 10 >= 5 or left % 10 == 0 else f" (остались {left})",
    }[language]


def _drew(count: int, language: str) -> str:
    events = [ev.Dealt(0, ((), ()), hand_sizes=(1, 1)), ev.Drew(1, (), count)]
    return list(narrate(events, language=language))[1]


@pytest.mark.parametrize(
    ("count", "line"),
    [
        (1, "игрок 1 берёт 1 карту из колоды"),
        (2, "игрок 1 берёт 2 карты из колоды"),
        (5, "игрок 1 берёт 5 карт из колоды"),
        (11, "игрок 1 берёт 11 карт из колоды"),
        (21, "игрок 1 берёт 21 карту из колоды"),
        (22, "игрок 1 берёт 22 карты из колоды"),
    ],
)
def test_russian_has_three_plural_forms_of_card(count: int, line: str) -> None:
    assert _drew(count, "ru") == line


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("en", "seat 1 draws 1 card from the stock", "seat 1 draws 2 cards from the stock"),
        ("pt", "o jogador 1 compra 1 carta do monte", "o jogador 1 compra 2 cartas do monte"),
        ("es", "el jugador 1 roba 1 carta del mazo", "el jugador 1 roba 2 cartas del mazo"),
        ("fr", "le joueur 1 pioche 1 carte", "le joueur 1 pioche 2 cartes"),
    ],
)
def test_one_card_and_two_cards_in_the_other_languages(language: str, one: str, two: str) -> None:
    assert (_drew(1, language), _drew(2, language)) == (one, two)


@pytest.mark.parametrize(
    ("language", "call"),
    [("en", "I don't believe!"), ("pt", "Não acredito!"), ("es", "¡No te creo!"),
     ("fr", "Je ne te crois pas\u202f!"), ("ru", "Не верю!")],
)  # fmt: skip
def test_the_challenge_call_is_the_games_own_in_each_language(language: str, call: str) -> None:
    assert challenge_call(cr.verish(3), language=language) == call
    line = list(narrate(_challenged_game().events, game="verish", language=language))[-1]
    assert call in line
    # A call given by the caller wins over the game's.
    assert "Bluff!" in list(narrate(_challenged_game().events, challenge_word="Bluff!"))[-1]


def test_the_games_have_their_names_in_each_language() -> None:
    assert variant("verish").title_in("ru") == "Веришь — не веришь"
    assert variant("english").title_in("pt") == "Cheat inglês"
    assert variant("english").title_in("en") == "English Cheat"


# -- random games ----------------------------------------------------------------------


def _old_narration(events: Iterable[ev.Event], challenge_word: str = "Cheat!") -> Iterator[str]:
    """The narration as it was before it spoke other languages: English must not change."""
    sizes: list[int] = []
    challenger: int | None = None
    shown = ""
    last_cards: int | None = None
    last_count = 0
    asking = False
    for event in events:
        if asking and not isinstance(event, (ev.Accepted, ev.Passed)):
            asking = False
        if isinstance(event, ev.Dealt):
            sizes = list(event.hand_sizes)
            yield str(event)
        elif isinstance(event, ev.Played):
            sizes[event.seat] -= event.count
            left = sizes[event.seat]
            last_cards = event.seat if left == 0 else None
            last_count = event.count
            # The one fix since: a single card is "the last card", not "cards".
            last = "the last card" if event.count == 1 else "the last cards"
            yield f"{event} ({left} left)" if left else f"{event}: {last}!"
        elif isinstance(event, ev.Passed):
            asking = True
            yield str(event)
        elif isinstance(event, ev.Accepted):
            if asking:
                yield f"seat {event.seat} agrees"
            elif last_cards is not None:
                cards = "card" if last_count == 1 else "cards"
                yield f"seat {event.seat} lets seat {last_cards}'s last {cards} stand"
        elif isinstance(event, ev.Challenged):
            challenger = event.seat
        elif isinstance(event, ev.Revealed):
            verdict = "true" if event.truthful else "a lie"
            which = f"seat {event.seat}'s earlier claim: " if event.earlier else ""
            shown = f"{which}{' '.join(map(str, event.cards))} — {verdict}"
        elif isinstance(event, ev.PileTaken):
            sizes[event.seat] += event.count
            yield f"seat {challenger}: {challenge_word} {shown}; {event}"
        elif isinstance(event, (ev.Drew, ev.Discarded)):
            if isinstance(event, ev.Drew):
                sizes[event.seat] += event.count
            else:
                sizes[event.seat] -= len(event.cards)
            if not isinstance(event, ev.Discarded) or event.ranks:
                yield str(event)
        else:
            yield str(event)


def _random_game(game: str, seed: int) -> cr.GameState:
    rng = random.Random(seed)
    rules = rules_for(game, rng.randint(3, 5), **house_options(rng))
    return play_randomly(cr.deal(rules, seed=seed), seed, limit=400)[-1]


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(["english", "verish"]), seed=st.integers(0, 10_000))
def test_english_narration_of_random_games_is_unchanged(game: str, seed: int) -> None:
    events = _random_game(game, seed).events
    assert list(narrate(events)) == list(_old_narration(events))
    assert list(narrate(events, language="en", challenge_word="Cheat!")) == list(
        _old_narration(events)
    )


@settings(max_examples=25, deadline=None)
@given(
    game=st.sampled_from(["english", "verish"]),
    seed=st.integers(0, 10_000),
    language=st.sampled_from(OTHERS),
)
def test_random_games_are_narrated_with_no_line_left_in_english(
    game: str, seed: int, language: str
) -> None:
    events = _random_game(game, seed).events
    english = list(narrate(events, game=game))
    translated = list(narrate(events, game=game, language=language))
    assert len(translated) == len(english)
    for there, here in zip(english, translated, strict=True):
        assert here != there
        assert "seat" not in here


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "seat 3 deals 13, 12 cards; 1 set aside; 5 in the stock"),
        ("pt", "o jogador 3 distribui 13, 12 cartas; 1 posta de lado; 5 no monte"),
        ("es", "el jugador 3 reparte 13, 12 cartas; 1 apartada; 5 en el mazo"),
        ("fr", "le joueur 3 distribue 13, 12 cartes\u202f; 1 mise de côté\u202f; 5 dans la pioche"),
        ("ru", "игрок 3 сдаёт карты: 13, 12; 1 отложена; 5 в колоде"),
    ],
)
def test_the_deal_tells_the_cards_set_aside_and_the_stock(language: str, line: str) -> None:
    dealt = ev.Dealt(3, ((), ()), hand_sizes=(13, 12), set_aside_count=1, stock_count=5)
    assert list(narrate([dealt], language=language)) == [line]


@pytest.mark.parametrize(
    ("language", "fours", "over"),
    [
        ("en", "four 7s and four Kings", "game over: seats 1 and 2 lose"),
        ("pt", "e quatro Reis", "perdem os jogadores 1 e 2"),
        ("es", "y cuatro Reyes", "pierden los jugadores 1 y 2"),
        ("fr", "et quatre Rois", "les joueurs 1 et 2 perdent"),
        ("ru", "и четыре короля", "проигрывают игроки 1 и 2"),
    ],
)
def test_a_list_is_joined_with_the_languages_and(language: str, fours: str, over: str) -> None:
    events = [
        ev.Dealt(0, ((), (), (), ()), hand_sizes=(5, 5, 5, 5)),
        ev.Discarded(0, (Rank.SEVEN, Rank.KING), cards("7♣ 7♦ 7♥ 7♠ K♣ K♦ K♥ K♠")),
        ev.GameOver((0, 3), (1, 2)),  # placings: two out, two left
    ]
    lines = list(narrate(events, language=language))
    assert lines[1].endswith(fours)
    assert lines[2].endswith(over)


@pytest.mark.parametrize(
    ("items", "joiner", "said"),
    [
        (["francés", "inglés"], "and", "francés e inglés"),
        (["agua", "hielo"], "and", "agua y hielo"),  # hie- opens with /j/, not /i/
        (["Reyes", "Ases"], "and", "Reyes y Ases"),
        (["siete", "ocho"], "or", "siete u ocho"),
        (["7", "8"], "or", "7 u 8"),
        (["7", "9"], "or", "7 o 9"),
    ],
)
def test_spanish_says_e_before_an_i_sound_and_u_before_an_o_sound(
    items: list[str], joiner: str, said: str
) -> None:
    joined = either(items, joiner=joiner)
    assert isinstance(joined, ErrorMessage)
    assert joined.render("es") == said
