"""The web table speaks each seat's language: the narration, the page's words, the errors.

Each connection chooses its language (the hello's ``"lang"``, a ``language``
message later, or the browser's ``Accept-Language``); two seats of one table
read the same game in two languages at once, and nothing a non-English seat
reads is left in English.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import cheatrules as cr
from cheatrules._i18n import LANGUAGES
from cheatrules.narration import narrate
from cheatrules.variants import variant
from cheatrules.web import create_app, protocol, words

from .web_client import Message, create, token

OTHERS = ("pt", "es", "fr", "ru")
REFUSAL = "unknown language 'de'; the languages are 'en', 'pt', 'es', 'fr' and 'ru'"


def _client(data: Path) -> TestClient:
    return TestClient(create_app(data, seed=7, bot_delay=0.0, window=60.0))


def _tokens(client: TestClient, players: int = 3) -> dict[str, str]:
    made = create(client, game="english", players=players, seats=["human"] * players)
    return {
        "table": made["table"],
        **{f"seat{seat}": token(link) for seat, link in made["seats"].items()},
        "spectator": token(made["spectator"]),
    }


class Reader:
    """A connection that says hello in a language and reads what it is sent."""

    def __init__(self, session: Any, link_token: str, lang: str | None = None) -> None:
        self.session = session
        hello: Message = {"type": "hello", "v": 1, "token": link_token}
        if lang is not None:
            hello["lang"] = lang
        self.send(hello)
        self.welcome = self.next("welcome")
        self.view = self.next("view")

    def send(self, message: Message) -> None:
        self.session.send_text(json.dumps(message))

    def until_pong(self) -> list[Message]:
        """Every message up to the next ``pong``, that one included."""
        answers: list[Message] = []
        while not answers or answers[-1]["type"] != "pong":
            answers.append(json.loads(self.session.receive_text()))
        return answers

    def next(self, kind: str) -> Message:
        for _ in range(200):
            message: Message = json.loads(self.session.receive_text())
            if message["type"] == "view":
                self.view = message
            if message["type"] == kind:
                return message
        raise AssertionError(f"no {kind} message came")


def _english_words() -> dict[str, Any]:
    return words.page_words("en")


def _flat(value: Any) -> list[str]:
    """Every string inside ``value`` (a dict's values, a list's items), in order."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _flat(item)]
    if isinstance(value, list):
        return [text for item in value for text in _flat(item)]
    return []


def _same_by_choice(language: str) -> set[str]:
    """The texts whose translation in ``language`` is, by the translator's choice, the English.

    ``"Cheat!"`` stays ``"Cheat!"`` in Portuguese; the ranks 2 to 10 are digits everywhere.
    """
    return _catalog_ids(language) | {str(number) for number in range(11)}


def _catalog_ids(language: str) -> set[str]:
    from babel.messages.pofile import read_po

    path = Path(cr.__file__).parent / "locale" / language / "LC_MESSAGES" / "cheatrules.po"
    with path.open("rb") as file:
        catalog = read_po(file, locale=language)
    same: set[str] = set()
    for entry in catalog:
        ids = (entry.id,) if isinstance(entry.id, str) else tuple(entry.id)
        strings = (entry.string,) if isinstance(entry.string, str) else tuple(entry.string or ())
        if ids and ids[0] and strings and strings[0] == ids[0]:
            same.add(ids[0])
    return same


# -- two seats, two languages ------------------------------------------------------


def test_two_seats_of_one_table_read_the_same_claim_in_two_languages_at_once(
    tmp_path: Path,
) -> None:
    with _client(tmp_path) as client:
        ids = _tokens(client)
        path = f"/ws/{ids['table']}"
        with (
            client.websocket_connect(path) as a,
            client.websocket_connect(path) as b,
            client.websocket_connect(path) as c,
        ):
            seats = [
                Reader(a, ids["seat0"], "pt"),
                Reader(b, ids["seat1"], "ru"),
                Reader(c, ids["seat2"]),
            ]
            assert [seat.welcome["lang"] for seat in seats] == ["pt", "ru", "en"]
            assert [seat.welcome["table"]["title"] for seat in seats] == [
                "Cheat inglês",
                "Английский Cheat",
                "English Cheat",
            ]
            assert [seat.welcome["table"]["call"] for seat in seats] == [
                "Cheat!",
                "Обман!",
                "Cheat!",
            ]
            first = seats[0].view["decision"]["to_move"]
            view = seats[first].view
            card = view["hand"][0]
            seats[first].send(
                {"type": "action", "v": 1, "action": f"play {card} as {view['allowed_ranks'][0]}"}
            )
            seen = [seat.next("view") for seat in seats]
            assert {view["n"] for view in seen} == {1}
            said = [view["log"][-1] for view in seen]
            assert said[0].startswith(f"o jogador {first} joga 1 carta: ")
            assert said[1].startswith(f"игрок {first} кладёт 1 карту: ")
            assert said[2].startswith(f"seat {first} lays 1 card: ")
            # The claim, as the window and the pile show it, in each seat's words.
            claims = [view["last_claim"]["said"] for view in seen]
            assert claims[0].split()[0] in ("um", "uma") and claims[1].split()[0] in (
                "один",
                "одна",
            )
            assert claims[2].startswith("one ")


def test_the_protocol_narrates_one_observation_in_the_language_asked() -> None:
    state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    state = state.apply(cr.Play("K♦", "A"))
    for language in LANGUAGES:
        seen = state.observe(1)
        call = variant("english").call_in(language)
        view = protocol.seat_view(seen, call=call, window=None, language=language)
        assert view["log"] == list(narrate(seen.events, game="english", language=language))
        assert view["last_claim"]["said"] == cr._i18n.claim(1, cr.Rank.ACE, language)
        public = protocol.spectator_view(
            state.table, state.decision, state.events, call=call, window=None, language=language
        )
        assert public["log"] == list(
            narrate(protocol.public_events(state.events), game="english", language=language)
        )


def test_the_languages_are_kept_per_call_with_nothing_shared_between_seats() -> None:
    # Interleaved calls in different languages each get their own words.
    state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    seen = state.apply(cr.Play("K♦", "A")).observe(2)
    views = [
        protocol.seat_view(
            seen, call=variant("english").call_in(language), window=None, language=language
        )
        for language in ("ru", "en", "pt", "en", "ru")
    ]
    assert views[0] == views[4] and views[1] == views[3]
    assert views[0]["log"] != views[1]["log"] != views[2]["log"]


def test_a_seat_switches_its_language_and_the_other_seats_keep_theirs(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        ids = _tokens(client)
        path = f"/ws/{ids['table']}"
        with client.websocket_connect(path) as a, client.websocket_connect(path) as b:
            mine, other = Reader(a, ids["seat0"], "en"), Reader(b, ids["seat1"], "es")
            assert mine.view["log"][0].startswith("seat ")
            mine.send({"type": "language", "v": 1, "lang": "fr"})
            mine.send({"type": "ping", "v": 1})  # answered after the switch's own answers
            answers = mine.until_pong()
            assert [answer["type"] for answer in answers] == ["welcome", "view", "pong"]
            welcome, view = answers[0], answers[1]
            assert welcome["lang"] == "fr" and welcome["table"]["title"] == "Cheat anglais"
            assert welcome["words"] == words.page_words("fr")
            assert view["log"][0].startswith("le joueur ")
            assert not any(line.startswith("seat ") for line in view["log"])
            # The other seat was told nothing, and still reads Spanish.
            mine.send({"type": "ping", "v": 1})
            mine.next("pong")
            other.send({"type": "ping", "v": 1})
            assert other.next("pong")["type"] == "pong"
            assert other.view["log"][0].startswith("el jugador ")


def test_a_language_the_library_does_not_speak_is_refused_naming_the_five(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        ids = _tokens(client)
        with client.websocket_connect(f"/ws/{ids['table']}") as socket:
            socket.send_text(
                json.dumps({"type": "hello", "v": 1, "token": ids["seat0"], "lang": "de"})
            )
            refused = json.loads(socket.receive_text())
            assert refused["type"] == "error" and refused["code"] == "bad-language"
            assert refused["message"] == REFUSAL
            # The connection is kept: a hello in a language it speaks is welcome.
            seat = Reader(socket, ids["seat0"], "ru")
            assert seat.welcome["lang"] == "ru"
            seat.send({"type": "language", "v": 1, "lang": "de"})
            again = seat.next("error")
            assert again["code"] == "bad-language"
            assert again["message"].startswith("неизвестный язык 'de'")
            assert all(f"'{code}'" in again["message"] for code in LANGUAGES)
            seat.send({"type": "language", "v": 1})
            assert seat.next("error")["code"] == "bad-message"
            seat.send({"type": "ping", "v": 1})
            seat.next("pong")
            assert seat.welcome["lang"] == "ru"  # unchanged
        page = client.get(f"/table/{ids['table']}?lang=de")
        assert page.status_code == 400 and REFUSAL in page.text
        assert client.get("/?lang=xx").status_code == 400


@pytest.mark.parametrize(
    ("header", "chosen"),
    [
        ("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"),
        ("de-DE,de;q=0.9,fr;q=0.5,pt-BR;q=0.7", "pt"),
        ("de", "en"),
        ("", "en"),
        ("es;q=0, fr;q=0.2", "fr"),
        ("*", "en"),
        ("PT-br", "pt"),
    ],
)
def test_the_browsers_accept_language_chooses_the_default(
    tmp_path: Path, header: str, chosen: str
) -> None:
    assert words.accepted_language(header) == chosen
    with _client(tmp_path) as client:
        ids = _tokens(client)
        with client.websocket_connect(
            f"/ws/{ids['table']}", headers={"Accept-Language": header}
        ) as socket:
            assert Reader(socket, ids["seat0"]).welcome["lang"] == chosen
        page = client.get(f"/table/{ids['table']}", headers={"Accept-Language": header})
        assert f'<html lang="{chosen}">' in page.text


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=80))
def test_any_accept_language_header_gives_one_of_the_five(header: str) -> None:
    assert words.accepted_language(header) in LANGUAGES


# -- errors ------------------------------------------------------------------------


def test_the_errors_a_seat_is_sent_are_in_its_language(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        ids = _tokens(client)
        path = f"/ws/{ids['table']}"
        with client.websocket_connect(path) as a, client.websocket_connect(path) as s:
            seat = Reader(a, ids["seat0"], "pt")
            watcher = Reader(s, ids["spectator"], "ru")
            first = seat.view["decision"]["to_move"]
            seat.session.send_text("not json")
            error = seat.next("error")
            assert error["code"] == "bad-message"
            assert error["message"].startswith("uma mensagem deve ser um objeto JSON")
            seat.send({"type": "hello", "v": 1, "token": ids["seat0"]})
            assert seat.next("error")["message"] == "esta conexão já se apresentou"
            seat.send({"type": "action", "v": 1, "action": "pass", "seat": 2})
            assert seat.next("error")["message"] == (
                "este link joga só pelo jogador 0, não pelo jogador 2"
            )
            watcher.send({"type": "action", "v": 1, "action": "accept"})
            assert watcher.next("error")["message"] == "зритель не может ходить"
            if first != 0:
                seat.send({"type": "action", "v": 1, "action": "pass"})
                told = seat.next("error")
                assert told["code"] == "illegal"
                assert told["message"].startswith(
                    f"agora decide o jogador {first}, não o jogador 0"
                )


def test_the_web_layers_own_errors_keep_their_english_str() -> None:
    error = protocol.ProtocolError(
        words.N_("a message may be at most %(limit)s characters"), limit=4096
    )
    assert str(error) == "a message may be at most 4096 characters"
    assert error.describe("es") == "un mensaje puede tener como mucho 4096 caracteres"
    assert isinstance(error, ValueError)


# -- the pages -----------------------------------------------------------------------


def _text_of(page: str) -> list[str]:
    """The words a reader sees in a page: its text nodes, attribute texts and its words table."""
    body = re.sub(r"<script\b[^>]*>.*?</script>", " ", page, flags=re.S)
    seen = [html.unescape(part).strip() for part in re.split(r"<[^>]+>", body)]
    seen += [html.unescape(m) for m in re.findall(r'(?:placeholder|aria-label)="([^"]*)"', body)]
    found = re.search(r'<script id="words" type="application/json">(.*?)</script>', page, re.S)
    assert found, "the page carries no words table"
    seen += _flat(json.loads(found.group(1)))
    return [text for text in seen if text]


@pytest.mark.parametrize("page", ["/", "/table/{table}"])
@pytest.mark.parametrize("language", OTHERS)
def test_no_word_of_a_page_is_left_in_english(tmp_path: Path, page: str, language: str) -> None:
    with _client(tmp_path) as client:
        ids = _tokens(client)
        url = page.format(table=ids["table"])
        english = set(_text_of(client.get(url + "?lang=en").text))
        shown = client.get(url + f"?lang={language}")
        assert shown.status_code == 200
        assert f'<html lang="{language}">' in shown.text
        left = (set(_text_of(shown.text)) & english) - _same_by_choice(language) - _neutral()
        assert left == set()


def _neutral() -> set[str]:
    """Texts that are no language's: the project's name, the language names, and the
    house rules' example, spelled in the option names the server reads."""
    return {"cheatrules", *words.LANGUAGE_NAMES.values(), "jokers=yes, deck=104"}


@pytest.mark.parametrize("language", OTHERS)
def test_no_word_the_page_is_sent_is_left_in_english(language: str) -> None:
    english = _english_words()
    translated = words.page_words(language)
    assert translated.keys() == english.keys()
    same = _same_by_choice(language) | _neutral()
    left = [
        key
        for key, text in english.items()
        if isinstance(text, str) and translated[key] == text and text not in same
    ]
    assert left == []
    for group in ("ranks", "phases"):
        kept = [
            name
            for name, text in english[group].items()
            if translated[group][name] == text and text not in same
        ]
        assert kept == [], group


@pytest.mark.parametrize("language", OTHERS)
def test_no_line_of_a_seats_view_is_left_in_english(tmp_path: Path, language: str) -> None:
    with _client(tmp_path) as client:
        ids = _tokens(client)
        path = f"/ws/{ids['table']}"
        with client.websocket_connect(path) as a, client.websocket_connect(path) as b:
            english, other = Reader(a, ids["seat0"], "en"), Reader(b, ids["seat1"], language)
            first = english.view["decision"]["to_move"]
            mover = english if first == 0 else other
            if first not in (0, 1):
                pytest.skip("never: seed 7 deals seat 0 or 1 first")  # pragma: no cover
            card = mover.view["hand"][0]
            mover.send(
                {
                    "type": "action",
                    "v": 1,
                    "action": f"play {card} as {mover.view['allowed_ranks'][0]}",
                }
            )
            seen = english.next("view"), other.next("view")
            assert seen[0]["n"] == seen[1]["n"] == 1
            same = _same_by_choice(language) | _neutral()
            for line_en, line in zip(seen[0]["log"], seen[1]["log"], strict=True):
                assert line != line_en
            for text, label in other.view["labels"].items():
                english_label = words.action_label(text, other.view["decision"]["phase"], "en")
                assert label != english_label or label in same, text


def test_each_choice_comes_with_a_label_in_the_seats_language(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        ids = _tokens(client)
        path = f"/ws/{ids['table']}"
        with client.websocket_connect(path) as a, client.websocket_connect(path) as b:
            seats = [Reader(a, ids["seat0"], "ru"), Reader(b, ids["seat1"], "es")]
            first = seats[0].view["decision"]["to_move"]
            if first not in (0, 1):
                pytest.skip("never: seed 7 deals seat 0 or 1 first")  # pragma: no cover
            mover, answerer = seats[first], seats[1 - first]
            card = mover.view["hand"][0]
            mover.send(
                {
                    "type": "action",
                    "v": 1,
                    "action": f"play {card} as {mover.view['allowed_ranks'][0]}",
                }
            )
            window = answerer.next("view")
            assert window["choices"] == ["challenge", "accept"]
            assert window["labels"] == {"challenge": "¡Cheat!", "accept": "Dejarla pasar"}


def test_the_pages_scripts_hold_no_words_of_their_own() -> None:
    # Every word a page shows comes from the words table; the scripts spell only
    # the protocol's and the page's names. A literal of two words or more is a sentence.
    static = Path(words.__file__).parent / "static"
    allowed = {"use strict", "challenge earlier", "#hand .card.selected", "play  as "}
    sentences = []
    for script in ("table.js", "host.js"):
        text = re.sub(r"//[^\n]*", "", (static / script).read_text(encoding="utf-8"))
        for literal in re.findall(r'"([^"\n]*)"|`([^`]*)`', text):
            said = re.sub(r"\$\{[^}]*\}", "", "".join(literal))
            spoken = [word for word in said.split() if re.search("[A-Za-z]{2}", word)]
            if len(spoken) >= 2 and said not in allowed:
                sentences.append((script, said))
    assert sentences == []


def test_an_error_that_can_tell_itself_is_sent_in_the_seats_language() -> None:
    # An engine error with a describe(language) is told through it; one without keeps its str.
    class Told(cr.IllegalActionError):
        def describe(self, language: str = "en", *, seat: int | None = None) -> str:
            return f"<{language}>"

    assert words.told(Told("in English"), "ru") == "<ru>"
    assert words.told(cr.IllegalActionError("in English"), "ru") == "in English"
    refused = words.unknown_language("xx")
    assert words.told(refused, "fr") == (
        "langue inconnue 'xx'\u202f; les langues sont 'en', 'pt', 'es', 'fr' et 'ru'"
    )
