"""Sphinx configuration for the cheatrules documentation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cheatrules

project = "cheatrules"
author = "The cheatrules developers"
copyright = "2026, the cheatrules developers"
release = cheatrules.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
exclude_patterns = ["_build", "_generated"]

html_theme = "furo"
html_title = "cheatrules"

# The API page's classes and functions are not entries of the pages' tables of contents:
# the theme copies the whole tree for every page's sidebar, which with them was a third of
# the build. The page's own headings still list its groups.
toc_object_entries = False

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False

nitpicky = True
nitpick_ignore_regex = [
    # Standard-library and attrs types: no network here for intersphinx.
    ("py:class", r"(typing|collections\.abc|enum|random|attr|attrs|concurrent\.futures)\..*"),
    ("py:class", r"(Rank|Card|Suit|Seating|Action|Event|Claim|CardKnowledge|GameState)"),
    ("py:class", r"(T|_Stack|_Group|cheatrules\.state\._Stack|cheatrules\.chance\._T)"),
    ("py:class", r"(TextIO|Sequence|Iterable|Iterator)"),
    # The learning libraries' own classes, bases of the adapters' (no intersphinx here).
    ("py:class", r"(pettingzoo|gymnasium|pyspiel|numpy|spaces)\..*"),
    # The web server's framework and the standard library's paths and databases.
    ("py:class", r"(starlette\.applications\.Starlette|Starlette|Path|pathlib\.Path)"),
    ("py:class", r"(sqlite3\..*|psycopg\..*|gettext\..*|RecordError|Stored|Limits|Store)"),
    ("py:class", r"cheatrules\.web\.words\.WordedError"),
    ("py:class", r"(Hall|Room)"),  # the web server's tables, documented in the guide
    ("py:class", r"cheatrules\.openspiel\._(Node|Context)"),
]


# -- pictures made at build time -------------------------------------------------------
#
# The tutorial and the guides show pictures drawn by cheatrules.svg from the
# positions they describe. They are written into _generated/ (not kept in the
# repository) before Sphinx reads the pages, which include them by name.

GENERATED = Path(__file__).parent / "_generated"


def _seven_claim() -> cheatrules.GameState:
    """The tutorial's Cheat position: A has laid 7♣ K♦ as two 7s on a pile of five."""
    state = cheatrules.deal(
        cheatrules.english(players=4),
        dealer=1,
        hands=["3♦ 7♣ K♦ Q♣", "4♥ 8♥ J♣", "A♣ 5♣ 9♠", "2♠ 6♠ 10♣"],
    )
    state = state.apply(cheatrules.Play("A♣", "A")).apply(cheatrules.Challenge())
    for card, rank in [("2♠", "2"), ("3♦", "3"), ("4♥", "4"), ("5♣", "5"), ("6♠", "6")]:
        state = cheatrules.settle_window(state.apply(cheatrules.Play(card, rank)), callers=())
    return state.apply(cheatrules.Play("7♣ K♦", "7"))


def _two_kings() -> cheatrules.GameState:
    """The tutorial's Verish' Ne Verish' position: A's "two kings" on four cards."""
    state = cheatrules.deal(
        cheatrules.verish(players=3),
        dealer=0,
        hands=["K♥ 7♣ 10♦", "6♠ 6♣ J♠", "8♠ 8♣ Q♥"],
        hidden="A♠",
    )
    for cards in ("6♠ 6♣", "8♠ 8♣", "K♥ 7♣"):
        state = state.apply(cheatrules.Play(cards, "K"))
    return state


def _front_end() -> cheatrules.GameState:
    """The front-end guide's loop: seat 0 has laid 7♦ as an Ace."""
    state = cheatrules.deal(cheatrules.english(3), hands=["A♣ 7♦", "2♥ K♣", "3♠ 9♥"])
    return state.apply(cheatrules.Play("7d", "A"))


def _jokers_and_two_packs() -> cheatrules.GameState:
    """A seeded six-seat game of two packs with jokers, a few claims in."""
    state = cheatrules.deal(cheatrules.english(6, decks=2, jokers=True), seed=4)
    for _ in range(9):
        state = state.apply(
            cheatrules.Accept()
            if state.phase is cheatrules.Phase.CHALLENGE
            else state.legal_actions()[0]
        )
    return state


def pictures() -> dict[str, str]:
    """Every picture the pages include, by file name."""
    from cheatrules.svg import Theme, render

    seven, kings, loop = _seven_claim(), _two_kings(), _front_end()
    night = Theme(table="#263238", back="#6a1b9a", back_edge="#ce93d8", highlight="#80deea")
    return {
        "tutorial-seven-seat1.svg": render(seven.observe(1), width=640),
        "tutorial-seven-state.svg": render(seven, width=640),
        "tutorial-kings-seat1.svg": render(kings.observe(1), width=640),
        "front-end-seat1.svg": render(loop.observe(1), width=560),
        "pictures-two-packs.svg": render(_jokers_and_two_packs(), width=720, bottom=2),
        "pictures-night.svg": render(seven.observe(2), width=560, colours=night),
    }


def _write_pictures(app: object) -> None:
    GENERATED.mkdir(exist_ok=True)
    for name, picture in pictures().items():
        path = GENERATED / name
        if not path.exists() or path.read_text(encoding="utf-8") != picture:
            path.write_text(picture, encoding="utf-8")


def setup(app: Any) -> dict[str, Any]:
    """Draw the pages' pictures before Sphinx reads the pages."""
    app.connect("builder-inited", _write_pictures)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
