"""The web table in a real browser: headless Chromium, driven by Selenium, at its seats.

The host page creates a table of two people and a bot; each person's link is
opened in its own browser window; the moves go through the page's own
controls. Whole games are played to their end through a seat's page, with a
spectator watching and the links opened again after the end; a hand-made
deal offers a seat eight fours at once. The pages are served under the
server's Content-Security-Policy, and no page may log an error. Needs
Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them);
without them the test fails and says so.
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver import Chrome
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait

import cheatrules as cr
from cheatrules.web import create_app
from cheatrules.web.storage import MemoryStore, Stored
from cheatrules.web.tables import games

from .browser import chromium
from .web_client import served

WAIT = 10.0  # the longest any page may take to show what it should


#: The policy the server sends with its pages: no inline script, style or handler. Every
#: page here runs under it, and may log no error (a refused inline style would be one).
POLICY = (
    "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self'; "
    "script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    # A long window: the people at the table close it by answering, never the clock.
    with served(create_app(tmp_path, bot_delay=0.05, window=60.0, seed=3)) as address:
        yield f"http://{address}"


@pytest.fixture
def quick() -> Iterator[str]:
    """A server whose bots and windows are quick, so that whole games take seconds."""
    with served(create_app(None, bot_delay=0.01, window=0.5, seed=11)) as address:
        yield f"http://{address}"


@pytest.fixture(scope="module")
def _chromium() -> Iterator[WebDriver]:
    """One Chromium for the module: starting one costs most of a second."""
    driver = chromium(1000, 900, console=True)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def browser(_chromium: WebDriver) -> Iterator[WebDriver]:
    """The module's Chromium, left as a fresh one would be: one blank window, an empty log."""
    yield _chromium
    windows = _chromium.window_handles
    for handle in windows[1:]:  # every page a test opened, each with its socket
        _chromium.switch_to.window(handle)
        _chromium.close()
    _chromium.switch_to.window(windows[0])
    _chromium.get("about:blank")
    severe(_chromium)  # what those pages logged is not the next test's


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

    def read(self, script: str, *arguments: Any) -> Any:
        """Evaluate ``script`` in the page: one snapshot, even while the page redraws."""
        return self.use().execute_script(script, *arguments)

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

    def press(self, css: str) -> bool:
        """Press the control ``css`` finds, if it is there and enabled now; whether it was.

        The control is clicked in the page (``element.click()``, one round
        trip where Selenium's click takes several), so that whole games stay
        quick; it fires the control's own handler, and a disabled or hidden
        control is not pressed, as a person could not press it. In a game
        going on without the test a control may go at any moment (a window
        closes): then the moment passed.
        """
        pressed: bool = self.read(
            "const node = document.querySelector(arguments[0]);"
            " if (!node || node.disabled || node.closest('[hidden]')) return false;"
            " node.click(); return true;",
            css,
        )
        return pressed

    def play(self, cards: list[str], rank: str) -> None:
        """Select ``cards`` in the hand, announce ``rank`` and press Play."""
        for card in cards:
            self.click(f'#hand button.card[data-card="{card}"]')
        Select(self.use().find_element(By.ID, "rank")).select_by_value(rank)
        self.click("#play")

    def selected(self) -> list[str]:
        cards: list[str] = self.read(
            "return [...document.querySelectorAll('#hand button.card.selected')]"
            ".map((b) => b.dataset.card)"
        )
        return cards

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
    """A seat's ``link`` in a new window, once its page shows the hand."""
    return open_page(driver, link, Page.hand, "the seat's hand never showed")


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

    # Five cards at once: a claim holds at most four, so the fifth is refused and the page
    # says why; the selection is undone card by card.
    for card in start[:5]:
        first.click(f'#hand button.card[data-card="{card}"]')
    assert first.selected() == start[:4]
    assert first.text("#hint") == "Cards per claim: at most 4"
    assert first.enabled("play")
    for card in start[:4]:
        first.click(f'#hand button.card[data-card="{card}"]')
    assert first.selected() == [] and not first.text("#hint") and not first.enabled("play")
    assert first.hand() == start and first.counts() == [18, 17, 17]
    assert first.text("#pile-size") == "0"
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
    assert russian.text("#window-claim").startswith("Заявка: игрок 0: один туз")
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
        lambda d: any(line.startswith("o jogador 0 joga 1 carta: um Ás") for line in russian.log()),
        "the log stayed Russian",
    )
    assert russian.text("#accept") == "Deixar passar"
    assert "lang=pt" in russian.use().current_url
    assert english.text("#accept") == "Let it stand" and english.log()[-1].startswith("seat 0")
    shoot(russian, "web-table-pt.png")


# -- whole games, to their end ----------------------------------------------------------


def make_table(base: str, **settings: Any) -> dict[str, Any]:
    """Create a table through the API, as the host page does; the answer holds its links."""
    request = urllib.request.Request(
        base + "/api/tables",
        data=json.dumps(settings).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=WAIT) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def open_page(
    driver: WebDriver,
    link: str,
    shows: Callable[[Page], object] = lambda page: page.counts(),
    what: str = "the page never showed the table",
) -> Page:
    """``link`` in a new window, once its page ``shows`` what it should (the table)."""
    driver.switch_to.new_window("window")
    driver.get(link)
    page = Page(driver, driver.current_window_handle)
    page.until(lambda d: shows(page), what)
    return page


def console_errors(page: Page) -> list[str]:
    """The errors the page's console has logged since the last look (script errors, refusals)."""
    return severe(page.use())


def severe(driver: WebDriver) -> list[str]:
    """The errors ``driver``'s console has logged since the last look."""
    entries: list[dict[str, str]] = cast(Chrome, driver).get_log("browser")  # type: ignore[no-untyped-call]
    return [entry["message"] for entry in entries if entry["level"] == "SEVERE"]


def give_name(page: Page, name: str) -> None:
    """Type ``name`` in the seat's name field and give it to the table."""
    field = page.use().find_element(By.ID, "name")
    field.clear()
    field.send_keys(name)
    page.click("#name-save")
    trimmed = " ".join(name.split())
    page.until(lambda d: trimmed in page.text("#seats .seat.me"), f"{trimmed} never showed")


#: One look at a seat's page: everything the player there would act on.
LOOK = """
const q = (css) => document.querySelector(css);
const all = (css) => [...document.querySelectorAll(css)];
const shown = (node) => Boolean(node) && !node.hidden && !node.closest("[hidden]");
const usable = (node) => shown(node) && !node.disabled;
return {
  outcome: q("#outcome").textContent,
  lines: all("#log li.line").length,
  hand: all("#hand button.card").map((b) => b.dataset.card),
  fresh: all("#hand button.card.new").map((b) => b.dataset.card),
  selected: all("#hand button.card.selected").map((b) => b.dataset.card),
  mine: Boolean(q("#seats .seat.me.to-move")),
  accept: usable(q("#accept")),
  cheat: usable(q("#cheat")),
  fours: shown(q("#discard")) ? all("#fours .four").map((b) => b.dataset.rank) : null,
  choices: all("#choices button.choice").map((b) => b.dataset.action),
  ranks: all("#rank option").map((o) => o.value),
  rank: q("#rank").value,
  window: shown(q("#window")) ? q("#window-claim").textContent : "",
};
"""


def play_to_the_end(page: Page, seconds: float = 40.0) -> dict[str, int]:
    """Play the seat at ``page`` until the game ends, through the page's controls alone.

    Each control is pressed in the page (:meth:`Page.press`). The seat lays
    one card (of the rank to announce, if it holds one) as the first rank
    allowed; lets claims stand, but calls every fifth; doubts every fourth
    claim it may doubt on its turn; sets the first four offered aside. Each
    time its hand grows, the cards just taken in must be marked. Returns how
    often it did each.
    """
    done = {"plays": 0, "answers": 0, "calls": 0, "discards": 0, "pickups": 0}
    deadline = time.monotonic() + seconds
    before: dict[str, Any] = {}
    while time.monotonic() < deadline:
        seen: dict[str, Any] = page.read(LOOK)
        if before and len(seen["hand"]) > len(before["hand"]):
            # A pickup: the page marks the cards taken, at least as many as the hand grew by,
            # each a card of the hand (copies counted one by one).
            done["pickups"] += 1
            grew = len(seen["hand"]) - len(before["hand"])
            assert len(seen["fresh"]) >= grew, f"too few marked new after a pickup: {seen}"
            hand = list(seen["hand"])
            for card in seen["fresh"]:
                hand.remove(card)
        if seen["outcome"]:
            return done
        acted = False
        if seen["fours"] is not None:
            if seen["fours"]:
                acted = page.press("#fours .four") and page.press("#discard-chosen")
            else:
                acted = page.press("#discard-none")
            done["discards"] += acted
        elif seen["accept"]:
            call = seen["cheat"] and done["answers"] % 5 == 4
            acted = page.press("#cheat" if call else "#accept")
            done["answers"] += acted
            done["calls"] += acted and call
        elif seen["mine"] and "challenge" in seen["choices"] and done["plays"] % 4 == 3:
            acted = page.press('#choices button[data-action="challenge"]')
            done["calls"] += acted
            done["plays"] += acted
        elif seen["mine"] and seen["ranks"] and seen["hand"]:
            rank = seen["ranks"][0]
            card = next((c for c in seen["hand"] if _rank(c) == rank), seen["hand"][0])
            # That card alone selected: a play whose press came too late may have left one.
            for other in seen["selected"]:
                if other != card:
                    page.press(f'#hand button.card[data-card="{other}"]')
            if card not in seen["selected"]:
                page.press(f'#hand button.card[data-card="{card}"]')
            try:
                if seen["rank"] != rank:
                    Select(page.use().find_element(By.ID, "rank")).select_by_value(rank)
            except StaleElementReferenceException:
                continue  # the page redrew its menu: look again
            acted = page.press("#play")
            done["plays"] += acted
        before = seen
        if acted:
            # Wait for the page to show what the action changed before looking again.
            until = time.monotonic() + 3.0
            while time.monotonic() < until and page.read(LOOK) == seen:
                time.sleep(0.01)
        else:
            time.sleep(0.02)
    raise AssertionError(f"the game did not end in {seconds} s; {done}; the page showed {seen}")


#: The end as a page shows it: the outcome, and whatever could still be pressed.
END = """
const q = (css) => document.querySelector(css);
const usable = [...document.querySelectorAll("button, select")].filter(
  (node) => !node.disabled && !node.closest("[hidden]") && node.id !== "language"
    && node.id !== "name-save");
return {
  outcome: q("#outcome").textContent,
  over: document.body.classList.contains("game-over"),
  usable: usable.map((node) => node.id || node.className),
  window: !q("#window").hidden,
  countdown: q("#countdown").textContent,
  toMove: document.querySelectorAll("#seats .seat.to-move").length,
  winners: [...document.querySelectorAll("#seats .seat.winner")].map((s) => s.dataset.seat),
};
"""


def assert_the_end(page: Page, outcome: dict[str, Any], *, names: dict[int, str]) -> None:
    """``page`` shows the game over: winners and losers by name, nothing left to press."""
    page.until(lambda d: page.read(END)["outcome"], "the page never showed the end")
    shown: dict[str, Any] = page.read(END)
    said = shown["outcome"]
    assert "Game over" in said, said
    for seat in outcome["winners"] + outcome["losers"]:
        assert names.get(seat, f"seat {seat}") in said, (seat, said)
    assert shown["over"] and not shown["window"] and not shown["countdown"]
    assert shown["usable"] == [] and shown["toMove"] == 0
    assert shown["winners"] == [str(seat) for seat in outcome["winners"]]
    assert console_errors(page) == []


def outcome_of(page: Page) -> dict[str, list[int]]:
    """The winners and losers, as the page's seats show them."""
    found: dict[str, list[str]] = page.read(
        "return {winners: [...document.querySelectorAll('#seats .seat.winner')]"
        ".map((s) => s.dataset.seat), losers: [...document.querySelectorAll("
        "'#seats .seat.loser')].map((s) => s.dataset.seat)}"
    )
    return {kind: [int(seat) for seat in seats] for kind, seats in found.items()}


@pytest.mark.parametrize("game", ["english", "verish"])
def test_a_whole_game_ends_on_the_seats_page_the_spectators_and_a_link_opened_after(
    quick: str, browser: WebDriver, game: str
) -> None:
    made = make_table(quick, game=game, players=3, seats=["human", "counting", "random"])
    seat = open_page(browser, made["seats"]["0"])
    give_name(seat, "Ana")
    spectator = open_page(browser, made["spectator"])
    spectator.until(lambda d: "Ana" in spectator.text("#seats"), "the spectator never saw Ana")
    assert spectator.use().find_elements(By.ID, "me")[0].is_displayed() is False

    done = play_to_the_end(seat)
    assert done["plays"] > 0
    outcome = outcome_of(seat)
    assert outcome["winners"] and outcome["losers"]
    names = {0: "Ana"}
    assert_the_end(seat, outcome, names=names)
    mine = "You won!" if 0 in outcome["winners"] else "You lost."
    assert seat.text("#outcome").startswith(mine)
    shoot(seat, f"web-end-{game}.png")
    assert_the_end(spectator, outcome, names=names)
    assert not spectator.text("#outcome").startswith(("You won", "You lost"))

    # The links opened again after the end show it too, with the log each page put together
    # part by part during the game.
    for link, page in ((made["seats"]["0"], seat), (made["spectator"], spectator)):
        late = open_page(browser, link)
        assert_the_end(late, outcome, names=names)
        assert late.log() == page.log()


def test_a_table_of_bots_plays_to_its_end_before_a_spectator(
    quick: str, browser: WebDriver
) -> None:
    made = make_table(quick, game="english", players=3, seats=["counting", "random", "honest"])
    spectator = open_page(browser, made["spectator"])
    spectator.until(lambda d: spectator.text("#outcome"), "the bots' game never ended")
    assert_the_end(spectator, outcome_of(spectator), names={})
    assert "seat 0 (bot counting) — cards:" in spectator.text("#seats")
    assert spectator.log()[-1].startswith("game over")


# -- a discard offer with many fours -------------------------------------------------------

#: Seat 0 holds eight complete fours and K♣; seats 1 and 2 hold the other Kings.
EIGHT_FOURS = [
    "A♣ A♦ A♥ A♠ 6♣ 6♦ 6♥ 6♠ 7♣ 7♦ 7♥ 7♠ 8♣ 8♦ 8♥ 8♠ 9♣ 9♦ 9♥ 9♠ 10♣ 10♦ 10♥ 10♠ "
    "J♣ J♦ J♥ J♠ Q♣ Q♦ Q♥ Q♠ K♣",
    "K♦ K♥",
    "K♠",
]


class Kept(MemoryStore):
    """A store that holds the tables it is given, as if the server had kept them."""

    def __init__(self, *tables: Stored) -> None:
        self.tables = tables

    def load(self) -> Iterator[Stored | cr.RecordError]:
        return iter(self.tables)


def kept_table(state: cr.GameState, table_id: str = "eightfours") -> Stored:
    """``state`` as a kept table of three people, with a token per seat named after it."""
    settings = {
        "game": state.rules.name,
        "players": state.players,
        "options": {},
        "seats": [{"kind": "human"}] * state.players,
        "window": 60.0,
        "bot_delay": 0.05,
        "names": {},
    }
    tokens = {
        "host": "host-token",
        "spectator": "spectator-token",
        "seats": {str(seat): f"seat-{seat}-token" for seat in range(state.players)},
    }
    actions = tuple(action.text() for action in state.actions)
    return Stored(table_id, settings, tokens, cr.dumps(state), actions=actions, changed=time.time())


def test_a_seat_offered_eight_fours_chooses_which_to_set_aside(browser: WebDriver) -> None:
    # Seat 0 lays K♣ as an Ace; seat 1 doubts it; seat 0 takes the pile back, and is
    # offered its eight fours: 256 ways to discard, too many to list.
    state = cr.deal(cr.verish(3), hands=EIGHT_FOURS, dealer=2)
    state = state.apply(cr.Play("K♣", "A")).apply(cr.parse_action("challenge"))
    offered = ["A", "6", "7", "8", "9", "10", "J", "Q"]
    assert [str(rank) for rank in state.observe(0).offered] == offered
    app = create_app(None, store=Kept(kept_table(state)), bot_delay=0.05)
    with served(app) as address:
        base = f"http://{address}/table/eightfours"
        seat = open_page(browser, f"{base}#seat-0-token")
        seat.until(lambda d: seat.read(LOOK)["fours"], "no fours offered")
        seen = seat.read(LOOK)
        assert seen["fours"] == offered and seen["choices"] == []
        labels = [four.text for four in browser.find_elements(By.CSS_SELECTOR, "#fours .four")]
        assert labels == [
            "four Aces", "four 6s", "four 7s", "four 8s", "four 9s", "four 10s",
            "four Jacks", "four Queens",
        ]  # fmt: skip
        # The card taken back with the pile is marked, for the eye and for a screen reader.
        assert seen["fresh"] == ["K♣"]
        marked = browser.find_element(By.CSS_SELECTOR, "#hand .card.new")
        assert marked.get_attribute("aria-label") == "K♣ (just taken)"
        assert not seat.enabled("discard-chosen") and seat.enabled("discard-none")
        # A name given says hello again, on a new connection that asks only for the lines the
        # page lacks; the log stays as it was.
        lines = seat.log()
        seat.read(
            "window.said = []; const send = WebSocket.prototype.send;"
            "WebSocket.prototype.send = function (text) { said.push(JSON.parse(text));"
            " return send.call(this, text); }"
        )
        give_name(seat, "  Ana   Lúcia ")
        assert seat.read("return document.getElementById('name').value") == "Ana Lúcia"
        hello = {"type": "hello", "v": 2, "token": "seat-0-token", "lang": "en"}
        assert seat.read("return said") == [{**hello, "name": "Ana Lúcia", "since": 3}]
        assert seat.log() == lines and len(lines) == 3
        spectator = open_page(browser, f"{base}#spectator-token")
        assert "Ana Lúcia — cards: 33" in spectator.text("#seats")
        assert spectator.text("#status") == "Ana Lúcia to decide (discard)"
        shoot(seat, "web-discard.png")

        # The seat sets aside its 7s and Queens: the subset chosen is what is sent.
        seat.click('#fours .four[data-rank="7"]')
        seat.click('#fours .four[data-rank="Q"]')
        seat.click('#fours .four[data-rank="9"]')
        seat.click('#fours .four[data-rank="9"]')  # chosen, then not
        assert seat.read(
            "return [...document.querySelectorAll('#fours .four[aria-pressed=true]')]"
            ".map((b) => b.dataset.rank)"
        ) == ["7", "Q"]
        seat.click("#discard-chosen")
        seat.until(lambda d: seat.read(LOOK)["fours"] is None, "the offer stayed")
        seat.until(lambda d: len(seat.hand()) == 25, "the fours never left the hand")
        assert not [card for card in seat.hand() if _rank(card) in ("7", "Q")]
        assert seat.text("#discarded") == "Set aside: 7♣ 7♦ 7♥ 7♠ Q♣ Q♦ Q♥ Q♠"
        # The game goes on: seat 1 (after the doubter's pickup, the doubter's neighbour) moves.
        seat.until(lambda d: seat.text("#status") == "seat 1 to decide (play)", "no next turn")
        assert seat.read(LOOK)["fresh"] == ["K♣"]  # still new: seat 0 laid nothing since
        spectator.until(
            lambda d: "Ana Lúcia — cards: 25" in spectator.text("#seats"), "spectator not told"
        )

        # Verish' claims hold 1 to 3 cards: a fourth card is refused, and the page says why.
        for card in seat.hand()[:4]:
            seat.click(f'#hand button.card[data-card="{card}"]')
        assert seat.selected() == seat.hand()[:3]
        assert seat.text("#hint") == "Cards per claim: at most 3"
        assert not seat.enabled("play")  # not seat 0's turn
        assert console_errors(seat) == [] and console_errors(spectator) == []


# -- the host page ------------------------------------------------------------------------

#: The texts of the host page's menus: each option's value and what it shows.
MENUS = """
return [...document.querySelectorAll("select.policy, select.seat-kind")].map((select) => ({
  label: select.closest("label").firstChild.textContent.trim(),
  options: [...select.options].filter((o) => o.value).map((o) => [o.value, o.textContent]),
}));
"""


def test_the_host_page_speaks_words_needs_the_creation_token_and_gives_a_host_link(
    browser: WebDriver,
) -> None:
    app = create_app(None, bot_delay=0.05, window=60.0, create_token="sesame")
    with served(app) as address:
        base = f"http://{address}"
        for page in ("/", "/table/unknowntable", "/static/host.js", "/static/table.js"):
            with urllib.request.urlopen(base + page, timeout=WAIT) as response:
                assert response.headers["Content-Security-Policy"] == POLICY
        # Without the creation token in its address, the page cannot create a table.
        browser.get(base + "/")
        wait = WebDriverWait(browser, WAIT)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "select.seat-kind"), "no seats")
        browser.find_element(By.ID, "create").click()
        wait.until(lambda d: d.find_element(By.ID, "error").text, "no refusal shown")
        assert browser.find_element(By.ID, "error").text == (
            "creating a table needs this server's creation token"
        )
        assert [error for error in severe(browser) if "401" not in error] == []

        host = open_host(browser, f"{base}/#create=sesame")
        menus: list[dict[str, Any]] = host.read(MENUS)
        labels = [menu["label"] for menu in menus]
        assert "Who plays after a challenge" in labels and "after_challenge" not in labels
        # Every house rule is said in the words /api/games gives, never by its name in options.
        said = {
            (family["title"], choice["name"]): choice["title"]
            for family in games("en")["house_rules"]
            for choice in family["choices"]
        }
        policies = [menu for menu in menus if not menu["label"].startswith("seat ")]
        assert [
            (menu["label"], value, text) for menu in policies for value, text in menu["options"]
        ] == [(label, value, text) for (label, value), text in said.items()]
        assert (
            said["Who plays after a challenge", "declarers-left"] == "the declarer's left neighbour"
        )
        kinds = dict(menus[0]["options"])
        assert kinds["human"] == "a person" and kinds["counting"] == "bot: counting"
        host.click("#settings details summary")
        after = Select(
            browser.find_element(By.CSS_SELECTOR, 'select[data-family="after_challenge"]')
        )
        after.select_by_value("taker")
        assert "Whoever took the pile plays next" in host.text(".policy-line:nth-child(5)")
        browser.find_element(By.ID, "options").send_keys("jokers=yes")
        browser.find_element(By.ID, "create").click()
        host.until(lambda d: d.find_element(By.ID, "links").is_displayed(), "no links shown")
        rules = host.read(
            "return [...document.querySelectorAll('#table-rules li')].map((li) => li.textContent)"
        )
        assert "Who plays after a challenge whoever took the pile" in rules
        assert "jokers yes" in rules and not [rule for rule in rules if "True" in rule]
        links = host.read(
            "return [...document.querySelectorAll('#join-links a')].map((a) => a.href)"
        )
        link = host.read("return document.getElementById('host-link').href")
        table = host.read("return new URLSearchParams(location.hash.slice(1)).get('table')")
        assert link.startswith(f"{base}/#table={table}&host=")
        assert console_errors(host) == []

        # The host link, opened later, shows the table's links again, and closes it.
        again = open_host(browser, link)
        again.until(lambda d: d.find_element(By.ID, "links").is_displayed(), "no links again")
        assert (
            again.read("return [...document.querySelectorAll('#join-links a')].map((a) => a.href)")
            == links
        )
        assert "jokers yes" in again.text("#table-rules")  # the house rules, from the server
        again.click("#close")
        again.until(lambda d: not d.find_element(By.ID, "links").is_displayed(), "not closed")
        assert console_errors(again) == []
        # The closed table's links say so, and stop knocking.
        browser.switch_to.new_window("window")
        browser.get(links[0])
        seat = Page(browser, browser.current_window_handle)
        gone = "this table is gone: it was closed, or it expired"
        seat.until(lambda d: seat.text("#connection") == gone, "no word for a closed table")
        assert seat.text("#error") == f"no open table {table!r}"


def open_host(driver: WebDriver, link: str) -> Page:
    """The host page at ``link``, in a new window, once it offers its games."""
    driver.switch_to.new_window("window")
    driver.get(link)
    page = Page(driver, driver.current_window_handle)
    page.until(lambda d: d.find_elements(By.CSS_SELECTOR, "select.seat-kind"), "no seat menus")
    return page


def test_fours_offered_on_a_turn_are_chosen_with_the_same_toggles(browser: WebDriver) -> None:
    # Under discards=any-time a seat holding a four may set it aside before it lays cards.
    state = cr.deal(cr.english(3, discards="any-time"), hands=["7♣ 7♦ 7♥ 7♠ K♦ 2♣", "A♠", "A♥"])
    with served(create_app(None, store=Kept(kept_table(state, "anytimefours")))) as at:
        seat = open_page(browser, f"http://{at}/table/anytimefours#seat-0-token")
        seat.until(lambda d: seat.read(LOOK)["fours"] == ["7"], "no four offered on the turn")
        assert not seat.enabled("discard-none") and seat.enabled("play") is False
        seat.click('#fours .four[data-rank="7"]')
        seat.click("#discard-chosen")
        seat.until(lambda d: seat.hand() == ["2♣", "K♦"], "the four never left the hand")
        assert seat.read(LOOK)["fours"] is None and seat.text("#status") == "Your decision (play)"
        assert console_errors(seat) == []
