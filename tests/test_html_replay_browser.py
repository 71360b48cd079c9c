"""The replay page in a real browser: headless Chromium opens a long game's page at a deep link.

In a 1280×800 window the buttons and the table stay in view at every frame
(the narration scrolls in its own box), the arrows and the buttons step
through the frames, and each frame draws the picture the renderer draws for
its state. Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run``
installs them); without them the test fails and says so.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import cheatrules as cr
from cheatrules.cli import main

from .browser import chromium
from .test_html_replay import LONG, Page, drawn, read, states_of, table_after

WIDTH, HEIGHT = 1280, 800
WAIT = 10.0  # the longest the page may take to show a frame


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[cr.GameState, Path, Page]:
    folder = tmp_path_factory.mktemp("replay-browser")
    record, out = folder / "long.json", folder / "long.html"
    assert main([*LONG, "--save", str(record)], stdout=io.StringIO()) == 0
    assert main(["replay", str(record), "--html", str(out)], stdout=io.StringIO()) == 0
    _, page = read(out)
    return cr.loads(record.read_text(encoding="utf-8")), out, page


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    driver = chromium(WIDTH, HEIGHT, pinned=True)
    try:
        yield driver
    finally:
        driver.quit()


class Shape(HTMLParser):
    """An SVG document as its elements, attributes and text, however it was serialized."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[tuple[str, ...]] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        kept = sorted((name, value or "") for name, value in attrs if name != "xmlns")
        self.items.append(("start", tag, *(f"{name}={value}" for name, value in kept)))

    def handle_endtag(self, tag: str) -> None:
        self.items.append(("end", tag))

    def handle_data(self, data: str) -> None:
        self.items.append(("text", data))


def test_a_deep_link_opens_a_long_game_with_the_buttons_and_table_in_view(
    game: tuple[cr.GameState, Path, Page], browser: webdriver.Chrome
) -> None:
    state, path, page = game
    states = states_of(state)
    frames = len(page.frames)
    assert frames >= 300

    def shows(frame: int) -> None:
        """The page shows ``frame``: its picture, its line highlighted and numbered, all in view."""
        WebDriverWait(browser, WAIT).until(
            lambda driver: driver.execute_script("return location.hash") == f"#{frame + 1}"
        )
        seen = browser.execute_script(
            """
            const box = (css) => document.querySelector(css).getBoundingClientRect();
            const current = document.querySelectorAll("#lines li.current");
            return {
              svg: document.querySelector("#picture svg").outerHTML,
              where: document.getElementById("where").textContent,
              current: [...current].map((line) => Number(line.dataset.line)),
              line: current.length ? current[0].textContent : null,
              controls: box("#controls"), table: box("#picture svg"),
              story: box("#story"), highlighted: current.length ? box("#lines li.current") : null,
              view: [innerWidth, innerHeight],
              scrolls: document.scrollingElement.scrollHeight > innerHeight,
            };
            """
        )
        assert seen["where"] == f"event {frame + 1} of {frames}"
        assert seen["current"] == [frame] and seen["line"] == page.lines[frame]
        expected = drawn(table_after(states, page.events(frame)[-1]))
        assert Shape(seen["svg"]).items == Shape(expected).items, frame
        assert seen["view"] == [WIDTH, HEIGHT]
        assert not seen["scrolls"]  # the page itself never scrolls: only the narration does
        for part in ("controls", "table"):
            box = seen[part]
            assert box["top"] >= 0 and box["bottom"] <= HEIGHT, (part, box)
            assert box["left"] >= 0 and box["right"] <= WIDTH, (part, box)
        story, line = seen["story"], seen["highlighted"]
        assert story["top"] <= line["top"] and line["bottom"] <= story["bottom"], (story, line)

    browser.get(f"{path.as_uri()}#300")
    shows(299)
    browser.find_element(By.CSS_SELECTOR, 'button[data-go="forward"]').click()
    shows(300)
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    shows(299)
    body.send_keys(Keys.ARROW_LEFT)
    shows(298)
    browser.find_element(By.CSS_SELECTOR, 'button[data-go="back"]').click()
    shows(297)
    body.send_keys(Keys.END)
    shows(frames - 1)
    browser.find_element(By.CSS_SELECTOR, 'button[data-go="start"]').click()
    shows(0)
    browser.find_element(By.CSS_SELECTOR, '#lines li[data-line="41"]').click()
    shows(41)
    browser.execute_script("location.hash = '#250'")
    shows(249)
    logged: list[dict[str, str]] = browser.get_log("browser")  # type: ignore[no-untyped-call]
    errors = [entry for entry in logged if entry["level"] == "SEVERE"]
    assert errors == []
