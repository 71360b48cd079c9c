"""The web table in a real browser: headless Chromium, driven by Selenium, plays at two seats.

The host page creates a table of two people and a bot; each person's link is
opened in its own browser window; the moves go through the page's own
controls. Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run``
installs them); without them the test fails and says so.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait

from cheatrules.web import create_app

from .browser import chromium
from .web_client import served

WAIT = 10.0  # the longest any page may take to show what it should


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    # A long window: the people at the table close it by answering, never the clock.
    with served(create_app(tmp_path, bot_delay=0.05, window=60.0, seed=3)) as address:
        yield f"http://{address}"


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    driver = chromium(1000, 900)
    try:
        yield driver
    finally:
        driver.quit()


class Page:
    """One browser window showing one seat's page."""

    def __init__(self, driver: WebDriver, handle: str) -> None:
        self.driver = driver
        self.handle = handle

    def use(self) -> WebDriver:
        self.driver.switch_to.window(self.handle)
        return self.driver

    def until(self, condition: Callable[[WebDriver], object], what: str) -> None:
        """Wait for ``condition``; on a timeout, say what the page showed."""
        try:
            WebDriverWait(self.use(), WAIT).until(condition)
        except TimeoutException:
            shown = {
                part: self.text(part)
                for part in ("#title", "#status", "#window-claim", "#error", "#pile-size")
            }
            raise AssertionError(f"{what}; the page showed {shown}, log {self.log()}") from None

    def read(self, script: str) -> Any:
        """Evaluate ``script`` in the page: one snapshot, even while the page redraws."""
        return self.use().execute_script(script)

    def hand(self) -> list[str]:
        cards: list[str] = self.read(
            'return [...document.querySelectorAll("#hand button.card")].map((b) => b.dataset.card)'
        )
        return cards

    def counts(self) -> list[int]:
        counts: list[str] = self.read(
            'return [...document.querySelectorAll("#seats .seat .count")].map((c) => c.textContent)'
        )
        return [int(count) for count in counts]

    def log(self) -> list[str]:
        lines: list[str] = self.read(
            'return [...document.querySelectorAll("#log li.line")].map((li) => li.textContent)'
        )
        return lines

    def text(self, css: str) -> str:
        text: str = self.read(f"return document.querySelector({css!r}).textContent")
        return text

    def to_move(self) -> int | None:
        seat: str | None = self.read(
            'const s = document.querySelector("#seats .seat.to-move"); return s && s.dataset.seat'
        )
        return None if seat is None else int(seat)

    def window_open(self) -> bool:
        return not self.read('return document.getElementById("window").hidden')

    def enabled(self, button: str) -> bool:
        return bool(
            self.read(
                f"const b = document.getElementById({button!r});"
                " return !b.disabled && !b.hidden && !b.closest('[hidden]')"
            )
        )

    def click(self, css: str) -> None:
        """Click what ``css`` finds, finding it again if the page redrew it meanwhile."""
        for _ in range(20):
            try:
                self.use().find_element(By.CSS_SELECTOR, css).click()
                return
            except StaleElementReferenceException:
                continue
        raise AssertionError(f"{css} kept being redrawn")

    def play(self, cards: list[str], rank: str) -> None:
        """Select ``cards`` in the hand, announce ``rank`` and press Play."""
        for card in cards:
            self.click(f'#hand button.card[data-card="{card}"]')
        Select(self.use().find_element(By.ID, "rank")).select_by_value(rank)
        self.click("#play")

    def allowed(self) -> list[str]:
        ranks: list[str] = self.read(
            'return [...document.querySelectorAll("#rank option")].map((o) => o.value)'
        )
        return ranks


def _rank(card: str) -> str:
    return card[:-1]


def create_table(driver: WebDriver, base: str) -> dict[int, str]:
    """Create a table of two people (seats 0 and 1) and a counting bot through the host page."""
    driver.get(base + "/")
    wait = WebDriverWait(driver, WAIT)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "select.seat-kind"), "no seat choices")
    players = driver.find_element(By.ID, "players")
    # The players each game takes come from its Variant record.
    game = Select(driver.find_element(By.ID, "game"))
    game.select_by_value("verish")
    assert (players.get_attribute("min"), players.get_attribute("max")) == ("2", "6")
    game.select_by_value("english")
    assert (players.get_attribute("min"), players.get_attribute("max")) == ("3", "10")
    players.clear()
    players.send_keys("3")
    wait.until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "select.seat-kind")) == 3, "not 3 seats"
    )
    kinds = {
        int(str(select.get_attribute("data-seat"))): Select(select)
        for select in driver.find_elements(By.CSS_SELECTOR, "select.seat-kind")
    }
    kinds[0].select_by_value("human")
    kinds[1].select_by_value("human")
    kinds[2].select_by_value("counting")
    driver.find_element(By.ID, "create").click()
    wait.until(lambda d: d.find_element(By.ID, "links").is_displayed(), "no links shown")
    links = {
        int(str(item.get_attribute("data-seat"))): str(
            item.find_element(By.TAG_NAME, "a").get_attribute("href")
        )
        for item in driver.find_elements(By.CSS_SELECTOR, "#join-links li.join-link")
    }
    assert sorted(links) == [0, 1]
    assert all("#" in link for link in links.values())
    assert driver.find_element(By.ID, "host-token").text
    return links


def open_seat(driver: WebDriver, link: str) -> Page:
    driver.switch_to.new_window("window")
    driver.get(link)
    page = Page(driver, driver.current_window_handle)
    page.until(lambda d: page.hand(), "the seat's hand never showed")
    return page


def let_it_stand(declarer: int, since: dict[Page, int], *pages: Page) -> None:
    """Once ``declarer``'s claim shows, each page answers "Let it stand" while it may.

    ``since`` is how many log lines each page had before the claim. The view
    that tells of the claim opens its window, so after it a page either may
    answer or has seen that window close (a bot before it in the order
    called). A bot's next claim may open the next window at once: the waits
    are for this claim's window, never for "no window".
    """
    claim = f"Claim: seat {declarer}:"  # the English page's words

    def settled(page: Page) -> bool:
        return not (page.window_open() and page.text("#window-claim").startswith(claim))

    for page in pages:
        page.until(
            lambda d, p=page: any(  # type: ignore[misc]
                line.startswith(f"seat {declarer} lays") for line in p.log()[since[p] :]
            ),
            f"seat {declarer}'s claim never showed",
        )
        page.until(lambda d, p=page: p.enabled("accept") or settled(p), "no window")  # type: ignore[misc]
        if not settled(page) and page.enabled("accept"):
            page.click("#accept")
    for page in pages:
        page.until(lambda d, p=page: settled(p), f"seat {declarer}'s window stayed open")  # type: ignore[misc]


def marks(*pages: Page) -> dict[Page, int]:
    """How many log lines each page shows now."""
    return {page: len(page.log()) for page in pages}


def test_two_people_play_and_call_cheat_in_a_real_browser(server: str, browser: WebDriver) -> None:
    links = create_table(browser, server)
    first, second = open_seat(browser, links[0]), open_seat(browser, links[1])
    assert "seat 0" in first.text("#title") and "seat 1" in second.text("#title")
    first.until(lambda d: first.to_move() == 0, "seat 0 does not open")
    start = first.hand()
    assert len(start) == 18 and first.counts() == [18, 17, 17] == second.counts()
    assert len(second.hand()) == 17
    assert "Your decision" in first.text("#status")
    assert "seat 0 to decide" in second.text("#status")
    assert not second.enabled("play")

    # An illegal attempt: five cards at once. The engine's message shows; nothing changes.
    first.play(start[:5], "A")
    first.until(lambda d: first.text("#error"), "no error shown")
    assert "4" in first.text("#error")
    assert first.hand() == start and first.counts() == [18, 17, 17]
    assert first.text("#pile-size") == "0"
    assert not browser.find_elements(By.CSS_SELECTOR, "#hand .card.selected")
    assert second.counts() == [18, 17, 17] and not second.text("#error")

    # Seat 0 lays one card as an ace; seat 1 lets it stand (the bot answers too).
    card = next((c for c in start if _rank(c) == "A"), start[0])
    since = marks(first, second)
    first.play([card], "A")
    first.until(lambda d: len(first.hand()) == 17, "the card never left the hand")
    assert not first.text("#error")
    second.until(lambda d: second.enabled("cheat"), "seat 1 sees no Cheat! button")
    assert second.text("#cheat") == "Cheat!" and "one Ace" in second.text("#window-claim")
    assert not first.enabled("cheat")  # the declarer does not answer its own claim
    let_it_stand(0, since, second)
    second.until(lambda d: second.to_move() == 1, "seat 1 does not move next")

    # Seat 1 lays one card; seat 0 lets it stand; the bot plays; both let it stand.
    rank = second.allowed()[0]
    since = marks(first, second)
    second.play([second.hand()[0]], rank)
    second.until(lambda d: len(second.hand()) == 16, "seat 1's card never left its hand")
    let_it_stand(1, since, first)
    let_it_stand(2, since, first, second)
    first.until(lambda d: first.to_move() == 0, "seat 0 does not move again")

    # Seat 0 bluffs with two cards; seat 1 calls "Cheat!"; seat 0 takes the pile.
    rank = first.allowed()[0]
    hand = first.hand()
    bluff = [c for c in hand if _rank(c) != rank][:2]
    before = first.counts()
    pile = int(first.text("#pile-size"))
    lines = len(second.log())
    first.play(bluff, rank)
    second.until(lambda d: second.enabled("cheat"), "seat 1 cannot call Cheat!")
    assert second.text("#pile-size") == str(pile + 2)
    second.click("#cheat")
    taken = before[0] + pile
    for page in (first, second):
        page.until(
            lambda d, p=page: p.text("#pile-size") == "0" and p.counts()[0] == taken,  # type: ignore[misc]
            "the pile did not go to seat 0",
        )
        assert page.counts()[1] == before[1]
        assert not page.window_open()
    assert len(first.hand()) == taken
    assert all(card in first.hand() for card in bluff)
    called = [line for line in second.log()[lines:] if "Cheat!" in line]
    assert called and called == [line for line in first.log() if line in called]
    assert "seat 1: Cheat!" in called[0] and all(card in called[0] for card in bluff)

    # Neither page shows a card of the other's hand it was never shown.
    for page, other in ((first, second), (second, first)):
        seen = " ".join(page.log())
        source = page.use().page_source
        hidden = [card for card in other.hand() if card not in seen]
        assert hidden
        assert not [card for card in hidden if card in source]


def shoot(page: Page, name: str) -> None:
    """Save the page's picture as ``name`` in ``$CHEATRULES_SHOTS``, when that folder is set."""
    folder = os.environ.get("CHEATRULES_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.use().save_screenshot(str(Path(folder) / name))


def test_a_seat_reads_its_page_in_its_own_language_beside_an_english_seat(
    server: str, browser: WebDriver
) -> None:
    links = create_table(browser, server)
    english = open_seat(browser, links[0])
    russian = open_seat(browser, links[1].replace("#", "?lang=ru#"))
    russian.until(lambda d: russian.text("#play") == "Положить выбранные карты", "no Russian page")
    assert russian.read("return document.documentElement.lang") == "ru"
    assert "игрок 1" in russian.text("#title") and "Английский Cheat" in russian.text("#title")
    assert russian.text("#status").startswith("ход игрока 0")
    assert russian.log()[0].startswith("игрок ") and english.log()[0].startswith("seat ")
    assert english.text("#play") == "Play the selected cards"

    # Seat 0 lays a card: seat 1 reads the claim, the window and its buttons in Russian.
    english.until(lambda d: english.to_move() == 0, "seat 0 does not open")
    card = english.hand()[0]
    english.play([card], "A")
    russian.until(lambda d: russian.enabled("cheat"), "seat 1 sees no window")
    assert russian.text("#cheat") == "Обман!" and russian.text("#accept") == "Поверить"
    assert russian.text("#window-claim").startswith("Заявление: игрок 0: один туз")
    assert any(line.startswith("игрок 0 кладёт 1 карту: один туз") for line in russian.log())
    assert english.log()[-1].startswith("seat 0 lays 1 card: one Ace")
    shoot(russian, "web-table-ru.png")

    # The seat switches to Portuguese on its page: the words change, the other seat's stay.
    Select(russian.use().find_element(By.ID, "language")).select_by_value("pt")
    russian.until(
        lambda d: (
            russian.text("#cheat-earlier") != ""
            and russian.text("#play") == "Jogar as cartas escolhidas"
        ),
        "no switch to Portuguese",
    )
    russian.until(
        lambda d: any(line.startswith("jogador 0 joga 1 carta: um Ás") for line in russian.log()),
        "the log stayed Russian",
    )
    assert russian.text("#accept") == "Deixar passar"
    assert "lang=pt" in russian.use().current_url
    assert english.text("#accept") == "Let it stand" and english.log()[-1].startswith("seat 0")
    shoot(russian, "web-table-pt.png")
