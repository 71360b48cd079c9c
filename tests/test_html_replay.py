"""``cheatrules replay game.json --html out.html``: one page that steps through the game offline."""

from __future__ import annotations

import random
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

import cheatrules as cr
from cheatrules.cli import main
from cheatrules.narration import narrate

#: HTML elements written without an end tag.
VOID = ("meta", "br")


class Page(HTMLParser):
    """The parts of the page a test looks at: frames, pictures, narration lines, cards drawn."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.frames: list[dict[str, str | None]] = []
        self.pictures: list[str] = []
        self.faces: dict[str, Counter[str]] = {}
        self.lines: list[str] = []
        self.buttons: list[str] = []
        self.scripts = 0
        self._picture: str | None = None
        self._line: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        if tag not in VOID:
            self.stack.append(tag)
        if tag == "script":
            self.scripts += 1
        if tag == "button":
            self.buttons.append(found.get("data-go") or "")
        if "frame" in classes:
            self.frames.append(found)
        if "picture" in classes:
            self._picture = found["data-picture"] or ""
            self.pictures.append(self._picture)
            self.faces[self._picture] = Counter()
        if "card" in classes and self._picture is not None:
            self.faces[self._picture][found.get("data-card") or ""] += 1
        if tag == "li" and "line" in classes:
            self._line = []

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        assert self.stack and self.stack[-1] == tag, (self.stack[-3:], tag)
        self.stack.pop()
        if tag == "li" and self._line is not None:
            self.lines.append("".join(self._line))
            self._line = None

    def handle_data(self, data: str) -> None:
        if self._line is not None:
            self._line.append(data)


def read(path: Path) -> tuple[str, Page]:
    text = path.read_text(encoding="utf-8")
    page = Page()
    page.feed(text)
    page.close()
    return text, page


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


def test_the_page_holds_one_frame_per_event_and_the_narration(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.html"
    assert main(["replay", str(record), "--html", str(out)]) == 0
    state = cr.loads(record.read_text(encoding="utf-8"))
    told = capsys.readouterr().out
    assert f"{len(state.events)} frames" in told and str(out) in told
    text, page = read(out)
    assert text.startswith("<!DOCTYPE html>")
    assert page.stack == []  # every element closed
    assert len(page.frames) == len(state.events)
    assert [frame["data-event"] for frame in page.frames] == [
        str(index) for index in range(len(state.events))
    ]
    # Each state is drawn once, however many events it took.
    assert len(page.pictures) == len(state.actions) + 1
    assert {frame["data-picture"] for frame in page.frames} == set(page.pictures)
    assert page.lines == list(narrate(state.events, challenge_word="I don't believe!"))
    assert {frame["data-line"] for frame in page.frames} == {
        str(index) for index in range(len(page.lines))
    }
    assert {"first", "prev", "next", "last"} <= set(page.buttons)
    assert "ArrowRight" in text and "ArrowLeft" in text
    # The last picture is the omniscient final table: every card face up.
    last = page.faces[page.frames[-1]["data-picture"] or ""]
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


def test_a_seats_page_shows_only_what_it_saw(record: Path, tmp_path: Path) -> None:
    out = tmp_path / "seat1.html"
    assert main(["replay", str(record), "--html", str(out), "--seat", "1"]) == 0
    state = cr.loads(record.read_text(encoding="utf-8"))
    _, page = read(out)
    assert len(page.frames) == len(state.events)
    seen = state.observe(1)
    assert page.lines == list(narrate(seen.events, challenge_word="I don't believe!"))
    # Replay the game: every picture shows the seat's hand and the discards, no other face.
    states = [cr.deal(state.rules, seed=state.seed, dealer=state.dealer)]
    for action in state.actions:
        states.append(states[-1].apply(action))
    for frame in page.frames:
        index = int(frame["data-event"] or 0)
        now = next(each for each in states if len(each.events) > index)
        view = now.observe(1)
        expected = Counter(map(str, [*view.hand, *view.discarded]))
        assert page.faces[frame["data-picture"] or ""] == expected, index


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
