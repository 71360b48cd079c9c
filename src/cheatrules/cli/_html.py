"""``cheatrules replay FILE --html OUT``: one self-contained page that steps through a game.

The page holds one frame per line of the game's narration: the line,
highlighted in the narration beside the table, the events it covers (an
acceptance the narration leaves out belongs to the line before it), and the
picture of the table once they have happened (the omniscient table, or one
seat's view with ``--seat``). The counter says the number of the line
shown. Buttons and the arrow keys step through the frames; ``page.html#12``
opens at the twelfth line.

The pictures are :func:`cheatrules.svg.render`'s, and the page holds each
of them once, packed as JSON in the ``data-pictures`` attribute of
``#pictures``; the page's script draws a frame's picture when it is shown.
The pack (see :func:`pack`) has three lists: ``words``, every distinct word
of the pictures; ``parts``, every distinct line of their SVG as the indices
of its words, joined by spaces; ``pictures``, each picture as edits of the
picture before it (the first of an empty one), its parts joined by newlines:
a number is a part, a pair ``[start, count]`` copies ``count`` parts of the
picture before, from ``start``. A game of about 750 decisions makes a page
of under 1 MB. Everything is inline (the data, and the style and script
written in ``replay.css`` and ``replay.js`` beside this module): the page
fetches nothing and opens offline.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterator, Sequence
from html import escape
from importlib import resources
from typing import TypedDict

import attrs

from cheatrules._i18n import N_, translations
from cheatrules.deal import deal
from cheatrules.errors import CheatRulesError, SeatError
from cheatrules.events import Challenged, Dealt, Event, Revealed
from cheatrules.narration import describe, narrate
from cheatrules.state import GameState
from cheatrules.svg import SVG_NAMESPACE, render
from cheatrules.variants import VARIANTS, challenge_call

__all__ = ["replay_page"]

#: One edit of a packed picture: a part, or ``[start, count]`` parts of the picture before.
Edit = int | list[int]


class Packed(TypedDict):
    """The page's pictures, packed (see :func:`pack`)."""

    #: Every distinct word of the pictures' lines.
    words: list[str]
    #: Every distinct line of the pictures, as the indices of its words.
    parts: list[list[int]]
    #: Each picture as edits of the one before.
    pictures: list[list[Edit]]


def history(final: GameState) -> list[GameState]:
    """Every state of ``final``'s game, from the deal to ``final``, one per decision.

    The game is dealt again as its log's first event says and its decisions
    replayed, as a record is read.
    """
    dealt = final.events[0]
    if not isinstance(dealt, Dealt):  # pragma: no cover - every log starts with the deal
        raise CheatRulesError("the game's log does not start with the deal")
    state = deal(
        final.rules,
        seed=final.seed,
        dealer=final.dealer,
        hands=dealt.hands,
        hidden=dealt.set_aside or None,
        stock=dealt.stock or None,
    )
    if final.draws:
        state = attrs.evolve(state, draws=final.draws)
    states = [state]
    for action in final.actions:
        state = state.apply(action)
        states.append(state)
    return states


def _lines_by_event(
    events: Sequence[Event], word: str, language: str = "en"
) -> tuple[list[str], list[int]]:
    """The narration's lines, and for each event the line it belongs to.

    An event the narration tells makes its own line. A challenge and the
    cards it turned over belong to the line that tells the pickup after
    them; any other event the narration leaves out (an acceptance) belongs
    to the line before it.
    """
    current = -1

    def feed() -> Iterator[Event]:
        nonlocal current
        for index, event in enumerate(events):
            current = index
            yield event

    made_by: list[int] = []
    lines: list[str] = []
    for line in narrate(feed(), challenge_word=word, language=language):
        lines.append(line)
        made_by.append(current)
    owner: list[int | None] = [None] * len(events)
    for number, index in enumerate(made_by):
        owner[index] = number
    waiting: list[int] = []  # challenges and reveals waiting for their line
    previous = 0
    for index, event in enumerate(events):
        told = owner[index]
        if told is not None:
            for early in waiting:
                owner[early] = told
            waiting.clear()
            previous = told
        elif isinstance(event, (Challenged, Revealed)):
            waiting.append(index)
        else:
            owner[index] = previous
    for early in waiting:  # a challenge at the very end of the log, told by no line yet
        owner[early] = previous
    return lines, [told or 0 for told in owner]


def pack(pictures: Sequence[str]) -> Packed:
    r"""``pictures`` packed as the page holds them: each distinct word and line once.

    Consecutive pictures of a game differ in a few of their lines (a hand, a
    group, the seat to decide), so each is kept as edits of the one before.

    >>> pack(["<a x>\n<b>\n<c>", "<a x>\n<b>\n<d>\n<c>"])["pictures"]
    [[0, 1, 2], [[0, 2], 3, 2]]

    """
    words: dict[str, int] = {}
    parts: dict[str, int] = {}
    packed: list[list[Edit]] = []
    before: list[int] = []
    for picture in pictures:
        made = [parts.setdefault(line, len(parts)) for line in picture.split("\n")]
        packed.append(_edits(before, made))
        before = made
    spelled = [[words.setdefault(word, len(words)) for word in line.split(" ")] for line in parts]
    return {"words": list(words), "parts": spelled, "pictures": packed}


def _edits(before: Sequence[int], made: Sequence[int]) -> list[Edit]:
    """``made`` as edits of ``before``: runs of two parts or more copied, other parts given.

    Each run starts where the last one ended if it can (a picture keeps its
    order), else at the next place of its first part, else at the first.
    """
    places: dict[int, list[int]] = {}
    for place, part in enumerate(before):
        places.setdefault(part, []).append(place)
    edits: list[Edit] = []
    index = follow = 0
    while index < len(made):
        part = made[index]
        found = places.get(part)
        if not found:
            edits.append(part)
            index += 1
            continue
        start = found[bisect.bisect_left(found, follow) % len(found)]
        length = 1
        while (
            index + length < len(made)
            and start + length < len(before)
            and before[start + length] == made[index + length]
        ):
            length += 1
        edits.append([start, length] if length > 1 else part)
        index += length
        follow = start + length
    return edits


def replay_page(
    final: GameState, *, seat: int | None = None, title: str | None = None, language: str = "en"
) -> str:
    """The HTML page stepping through ``final``'s game, from the deal, in ``language``.

    Args:
        final: the last state of the game (as a record loads).
        seat: draw this seat's view and tell the game as it saw it; by
            default the omniscient table.
        title: the page's heading; by default the game and its seed.
        language: the language of the page's words, its narration and its
            pictures' labels (``<html lang=...>`` says it).

    Raises:
        SeatError: ``seat`` is not a seat of the game.

    """
    players = final.players
    if seat is not None and not 0 <= seat < players:
        raise SeatError(f"--seat must be a seat of this game, from 0 to {players - 1}; got {seat}")
    states = history(final)
    events: Sequence[Event] = final.events if seat is None else final.observe(seat).events
    catalog = translations(language)
    word = challenge_call(final.rules, language=language)
    lines, line_of = _lines_by_event(events, word, language)
    if title is None:
        title = _title(final, seat, language)

    covered: list[list[int]] = [[] for _ in lines]  # each line's events
    for index, number in enumerate(line_of):
        covered[number].append(index)
    logged = [len(state.events) for state in states]
    pictures: list[str] = []
    index_of: dict[str, int] = {}
    frames: list[str] = []
    for indices in covered:
        # The table once the line's events have happened: the state made by the decision
        # that made its last one, the first state whose log holds it.
        state = states[bisect.bisect_right(logged, indices[-1])]
        drawn = render(state if seat is None else state.observe(seat), width=800, language=language)
        drawn = drawn.replace(f' xmlns="{SVG_NAMESPACE}"', "", 1)  # HTML knows its namespace
        picture = index_of.setdefault(drawn, len(pictures))
        if picture == len(pictures):
            pictures.append(drawn)
        told = " · ".join(describe(events[index], language) for index in indices)
        frames.append(
            f'<li class="frame" data-picture="{picture}" '
            f'data-events="{" ".join(map(str, indices))}">{escape(told)}</li>'
        )
    data = json.dumps(pack(pictures), ensure_ascii=False, separators=(",", ":"))
    words = {key: escape(catalog.gettext(text), quote=True) for key, text in _WORDS.items()}
    where = catalog.gettext("event %(index)s of %(count)s")
    return _PAGE.format(
        **words,
        language=language,
        where=escape(where % {"index": 1, "count": len(frames)}),
        where_template=escape(where, quote=True),
        title=escape(title),
        data=escape(data, quote=True),  # an attribute: the data is no text of the page
        lines="\n".join(
            f'<li class="line" data-line="{number}">{escape(line)}</li>'
            for number, line in enumerate(lines)
        ),
        frames="\n".join(frames),
        style=_asset("replay.css"),
        script=_asset("replay.js"),
    )


def _asset(name: str) -> str:
    """The text of the page's style or script, shipped beside this module."""
    return (resources.files(__package__ or "cheatrules.cli") / name).read_text(encoding="utf-8")


def _title(final: GameState, seat: int | None, language: str) -> str:
    """The page's heading: "English Cheat, 4 players, seed 7: every hand"."""
    catalog = translations(language)
    known = VARIANTS.get(final.rules.name)
    game = known.title_in(language) if known is not None else final.rules.name
    players = catalog.ngettext("%(count)s player", "%(count)s players", final.players) % {
        "count": final.players
    }
    who = (
        catalog.gettext("every hand")
        if seat is None
        else catalog.gettext("as seat %(seat)s saw it") % {"seat": seat}
    )
    values = {"game": game, "players": players, "who": who, "seed": final.seed}
    if final.seed is None:
        # Translators: the replay page's heading: "English Cheat, 4 players: every hand".
        return catalog.gettext("%(game)s, %(players)s: %(who)s") % values
    # Translators: the replay page's heading: "English Cheat, 4 players, seed 7: every hand".
    return catalog.gettext("%(game)s, %(players)s, seed %(seed)s: %(who)s") % values


#: The page's words (English ids of the catalogs), by their place in the page.
_WORDS = {
    "first": N_("« first"),
    "prev": N_("◀ prev"),
    "next": N_("next ▶"),
    "last": N_("last »"),
    "first_tip": N_("first (Home)"),
    "prev_tip": N_("previous (left arrow)"),
    "next_tip": N_("next (right arrow)"),
    "last_tip": N_("last (End)"),
    "narration": N_("narration"),
}

_PAGE = """<!DOCTYPE html>
<html lang="{language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{style}</style>
</head>
<body>
<header><h1>{title}</h1></header>
<main>
<section id="table">
<div id="controls">
<button type="button" data-go="start" title="{first_tip}">{first}</button>
<button type="button" data-go="back" title="{prev_tip}">{prev}</button>
<button type="button" data-go="forward" title="{next_tip}">{next}</button>
<button type="button" data-go="end" title="{last_tip}">{last}</button>
<span id="where" data-template="{where_template}">{where}</span>
</div>
<p id="event"></p>
<div id="picture"></div>
</section>
<section id="story" aria-label="{narration}">
<ol id="lines">
{lines}
</ol>
</section>
</main>
<ol id="frames">
{frames}
</ol>
<div id="pictures" hidden data-pictures="{data}"></div>
<script>
{script}</script>
</body>
</html>
"""
