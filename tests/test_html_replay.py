"""``cheatrules replay game.json --html out.html``: one small page that steps through the game offline."""

from __future__ import annotations

import io
import json
import random
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hatchling.builders.wheel import WheelBuilder
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules._i18n import LANGUAGES
from cheatrules.cli import main
from cheatrules.cli._html import pack, replay_page
from cheatrules.narration import describe, narrate
from cheatrules.svg import SVG_NAMESPACE, render
from cheatrules.variants import challenge_call

from .budget import examples

ROOT = Path(__file__).resolve().parent.parent

#: HTML elements written without an end tag.
VOID = ("meta", "br")

#: The long game of the size test: three CountingBots, 754 decisions, 951 events.
LONG = ("watch", "--players", "3", "--bots", "counting", "--seed", "520", "--plain")


class Page(HTMLParser):
    """The parts of the page a test looks at: frames, narration lines, buttons, the packed pictures."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.frames: list[dict[str, str | None]] = []
        self.told: list[str] = []  # each frame's text: the events it covers
        self.lines: list[str] = []
        self.buttons: list[str] = []
        self.scripts = 0
        self.data: dict[str, Any] = {}
        self._text: list[str] | None = None
        self._pictures: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        if tag not in VOID:
            self.stack.append(tag)
        if tag == "script":
            self.scripts += 1
        if tag == "button":
            self.buttons.append(found.get("data-go") or "")
        if found.get("id") == "pictures":
            self.data = json.loads(found["data-pictures"] or "")
        if tag == "li" and {"frame", "line"} & set(classes):
            self._text = []
            if "frame" in classes:
                self.frames.append(found)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        assert self.stack and self.stack[-1] == tag, (self.stack[-3:], tag)
        self.stack.pop()
        if tag == "li" and self._text is not None:
            text = "".join(self._text)
            self._text = None
            (self.told if len(self.told) < len(self.frames) else self.lines).append(text)

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)

    def pictures(self) -> list[str]:
        """The pictures as the page's script draws them, unpacked as the module says."""
        if self._pictures is None:
            self._pictures = unpack(self.data)
        return self._pictures

    def picture(self, frame: int) -> str:
        return self.pictures()[int(self.frames[frame]["data-picture"] or "")]

    def events(self, frame: int) -> list[int]:
        return [int(index) for index in (self.frames[frame]["data-events"] or "").split()]


def unpack(data: dict[str, Any]) -> list[str]:
    """The pictures of a pack: words joined by spaces, parts by newlines, edits of the one before."""
    words, parts = data["words"], data["parts"]
    pictures: list[str] = []
    before: list[int] = []
    for edits in data["pictures"]:
        made: list[int] = []
        for edit in edits:
            if isinstance(edit, int):
                made.append(edit)
            else:
                start, count = edit
                assert count >= 1 and start + count <= len(before), (edit, len(before))
                made.extend(before[start : start + count])
        pictures.append("\n".join(" ".join(words[word] for word in parts[part]) for part in made))
        before = made
    return pictures


def read(path: Path) -> tuple[str, Page]:
    text = path.read_text(encoding="utf-8")
    page = Page()
    page.feed(text)
    page.close()
    return text, page


def states_of(final: cr.GameState) -> list[cr.GameState]:
    """The game's states from the deal, one per decision."""
    states = [cr.deal(final.rules, seed=final.seed, dealer=final.dealer)]
    for action in final.actions:
        states.append(states[-1].apply(action))
    return states


def table_after(states: list[cr.GameState], event: int) -> cr.GameState:
    """The table once ``event`` has happened: the state its decision made."""
    return next(state for state in states if len(state.events) > event)


def drawn(view: cr.GameState | cr.Observation, language: str = "en") -> str:
    """The picture the page shows for ``view``: the renderer's, as HTML holds it."""
    return render(view, width=800, language=language).replace(f' xmlns="{SVG_NAMESPACE}"', "")


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "game.json"
    state = cr.deal(cr.verish(3, jokers=True), seed=11)
    rng = random.Random(11)
    for _ in range(120):
        if state.is_over:
            break
        state = state.apply(state.legal_actions().choice(rng))
    path.write_text(cr.dumps(state), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def long_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "long.json"
    assert main([*LONG, "--save", str(path)], stdout=io.StringIO()) == 0
    return path


def test_each_frame_is_a_line_of_the_narration_and_the_table_after_it(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.html"
    assert main(["replay", str(record), "--html", str(out)]) == 0
    state = cr.loads(record.read_text(encoding="utf-8"))
    text, page = read(out)
    assert text.startswith("<!DOCTYPE html>")
    assert page.stack == []  # every element closed
    lines = list(narrate(state.events, challenge_word="I don't believe!"))
    assert page.lines == lines
    assert len(page.frames) == len(lines)
    told = capsys.readouterr().out
    assert f"{len(lines)} frames" in told and str(out) in told
    # The counter counts the narration's lines: frame N is line N.
    assert '<span id="where" data-template="event %(index)s of %(count)s">' in text
    assert f"event 1 of {len(lines)}</span>" in text
    # Every event belongs to one frame, in order; frame N holds the events the narration
    # has told by its line N and not before, and shows the table once they have happened.
    assert [index for frame in range(len(lines)) for index in page.events(frame)] == list(
        range(len(state.events))
    )
    states = states_of(state)
    for frame in range(len(lines)):
        events = page.events(frame)
        assert len(list(narrate(state.events[: events[-1] + 1]))) == frame + 1
        assert page.told[frame] == " · ".join(describe(state.events[index]) for index in events)
        assert page.picture(frame) == drawn(table_after(states, events[-1])), frame
    # Each picture is held once, however many frames show it.
    assert len(set(page.pictures())) == len(page.pictures())
    assert {frame["data-picture"] for frame in page.frames} == {
        str(number) for number in range(len(page.pictures()))
    }
    assert page.buttons == ["start", "back", "forward", "end"]
    assert "ArrowRight" in text and "ArrowLeft" in text and "hashchange" in text
    # The last picture is the omniscient final table: every card face up.
    last = Counter(re.findall(r'class="card[^"]*" data-card="([^"]+)"', page.picture(-1)))
    shown = [card for hand in state.hands for card in hand]
    shown += [*state.pile, *state.discarded, *state.set_aside]
    assert last == Counter(map(str, shown))


def test_the_page_fetches_nothing(record: Path, tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    assert main(["replay", str(record), "--html", str(out)]) == 0
    text, page = read(out)
    assert not re.search(r"https?:", text)
    assert not re.search(r"\b(src|href)\s*=", text)
    assert "@import" not in text and "url(" not in text
    assert page.scripts == 1
    assert "fetch(" not in text and "XMLHttpRequest" not in text


def test_a_seats_page_shows_only_what_it_saw(record: Path, tmp_path: Path) -> None:
    out = tmp_path / "seat1.html"
    assert main(["replay", str(record), "--html", str(out), "--seat", "1"]) == 0
    state = cr.loads(record.read_text(encoding="utf-8"))
    _, page = read(out)
    seen = state.observe(1)
    assert page.lines == list(narrate(seen.events, challenge_word="I don't believe!"))
    assert len(page.frames) == len(page.lines)
    # Every picture is the seat's view: its hand and the discards face up, no other face.
    states = states_of(state)
    for frame in range(len(page.frames)):
        view = table_after(states, page.events(frame)[-1]).observe(1)
        assert page.picture(frame) == drawn(view), frame
        faces = Counter(re.findall(r'data-card="([^"]+)"', page.picture(frame)))
        assert faces == Counter(map(str, [*view.hand, *view.discarded])), frame


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_speaks_each_language_and_draws_the_pictures_in_it(
    record: Path, language: str
) -> None:
    state = cr.loads(record.read_text(encoding="utf-8"))
    page = Page()
    text = replay_page(state, language=language)
    page.feed(text)
    page.close()
    assert f'<html lang="{language}">' in text
    word = challenge_call(state.rules, language=language)
    assert page.lines == list(narrate(state.events, challenge_word=word, language=language))
    states = states_of(state)
    for frame in (0, len(page.frames) // 2, len(page.frames) - 1):
        after = table_after(states, page.events(frame)[-1])
        assert page.picture(frame) == drawn(after, language), (language, frame)


def test_a_long_game_makes_a_page_under_a_megabyte(long_record: Path, tmp_path: Path) -> None:
    state = cr.loads(long_record.read_text(encoding="utf-8"))
    assert len(state.actions) >= 750 and len(state.events) >= 950  # the page was 12 MB
    out = tmp_path / "long.html"
    assert main(["replay", str(long_record), "--html", str(out)], stdout=io.StringIO()) == 0
    assert out.stat().st_size < 1_000_000
    _, page = read(out)
    assert len(page.pictures()) > 300  # every picture is there, packed
    assert page.picture(-1) == drawn(state)


@given(
    st.lists(
        st.lists(
            st.lists(st.sampled_from(["<g", "x>", "</g>", "", "7♣", "a'b", '"&<'])), max_size=8
        ),
        max_size=6,
    )
)
@examples(60)
def test_pictures_unpack_as_they_were_packed(pictures: list[list[list[str]]]) -> None:
    texts = ["\n".join(" ".join(words) for words in picture) for picture in pictures]
    assert unpack(dict(pack(texts))) == texts


def test_a_picture_like_the_one_before_is_one_copy() -> None:
    picture = "\n".join(f"<part {number}>" for number in range(40))
    changed = picture.replace("<part 20>", "<part twenty>")
    packed = pack([picture, picture, changed])
    assert packed["pictures"][1] == [[0, 40]]
    assert packed["pictures"][2] == [[0, 20], 40, [21, 19]]
    assert len(packed["parts"]) == 41


def test_the_wheel_ships_the_pages_style_and_script() -> None:
    shipped = {item.distribution_path for item in WheelBuilder(str(ROOT)).recurse_included_files()}
    assert {"cheatrules/cli/replay.js", "cheatrules/cli/replay.css"} <= shipped


def test_bad_html_options_are_refused(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def fails(*argv: str) -> str:
        with pytest.raises(SystemExit) as caught:
            main(list(argv))
        assert caught.value.code == 2
        return capsys.readouterr().err

    out = str(tmp_path / "out.html")
    assert "--seat must be a seat of this game, from 0 to 2; got 3" in fails(
        "replay", str(record), "--html", out, "--seat", "3"
    )
    assert "--seat draws a seat's view in the --html page" in fails(
        "replay", str(record), "--seat", "1"
    )
    view = tmp_path / "view.json"
    view.write_text(cr.dumps(cr.loads(record.read_text(encoding="utf-8")), seat=0), "utf-8")
    assert "--html needs a whole game's record" in fails("replay", str(view), "--html", out)
    assert "cannot write" in fails(
        "replay", str(record), "--html", str(tmp_path / "no" / "such" / "dir.html")
    )
    assert not Path(out).exists()
