"""``cheatrules replay FILE --html OUT``: one self-contained page that steps through a game.

The page holds one frame per event of the log: the picture of the table
after the decision that made the event (the omniscient table, or one seat's
view with ``--seat``), the event itself, and the narration beside it with
the current line highlighted. Each state is drawn once, however many events
its decision made, and the frames name their picture. Buttons and the arrow
keys step through the frames; ``page.html#12`` opens at the twelfth. Everything
is inline (the pictures, the style, the script): the page fetches nothing and
opens offline.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from html import escape

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

    pictures: list[str] = []
    index_of: dict[str, int] = {}
    picture_of_state: list[int] = []
    for state in states:
        drawn = render(state if seat is None else state.observe(seat), width=800, language=language)
        drawn = drawn.replace(f' xmlns="{SVG_NAMESPACE}"', "", 1)  # HTML knows its namespace
        if drawn not in index_of:
            index_of[drawn] = len(pictures)
            pictures.append(drawn)
        picture_of_state.append(index_of[drawn])

    frames: list[str] = []
    state_index = 0
    for index, event in enumerate(events):
        # The first state whose log holds this event: the one its decision made.
        while len(states[state_index].events) <= index:
            state_index += 1
        frames.append(
            f'<li class="frame" data-event="{index}" '
            f'data-picture="{picture_of_state[state_index]}" data-line="{line_of[index]}">'
            f"{escape(describe(event, language))}</li>"
        )
    words = {key: escape(catalog.gettext(text), quote=True) for key, text in _WORDS.items()}
    return _PAGE.format(
        **words,
        language=language,
        where=escape(
            catalog.gettext("event %(index)s of %(count)s") % {"index": 1, "count": len(frames)}
        ),
        where_template=escape(catalog.gettext("event %(index)s of %(count)s"), quote=True),
        title=escape(title),
        pictures="\n".join(
            f'<div class="picture" data-picture="{number}"{"" if number else " hidden"}>'
            f"{picture}</div>"
            for number, picture in enumerate(pictures)
        ),
        lines="\n".join(
            f'<li class="line" data-line="{number}">{escape(line)}</li>'
            for number, line in enumerate(lines)
        ),
        frames="\n".join(frames),
        script=_SCRIPT,
    )


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
body {{ margin: 0; font-family: "DejaVu Sans", Arial, sans-serif; background: #f3f1ea;
  color: #222; }}
header {{ padding: 0.6em 1em; background: #1d6b43; color: #fff; }}
header h1 {{ font-size: 1.2em; margin: 0; }}
main {{ display: flex; flex-wrap: wrap; gap: 1em; padding: 1em; align-items: flex-start; }}
#table {{ flex: 1 1 560px; max-width: 900px; }}
#table svg {{ width: 100%; height: auto; display: block; }}
#controls {{ display: flex; gap: 0.4em; align-items: center; margin: 0.6em 0; }}
#controls button {{ font-size: 1em; padding: 0.3em 0.8em; }}
#event {{ font-weight: bold; margin: 0.3em 0; min-height: 1.3em; }}
#story {{ flex: 1 1 300px; max-height: 80vh; overflow-y: auto; background: #fff;
  border: 1px solid #ccc; border-radius: 6px; }}
#story ol {{ margin: 0; padding: 0.5em 0.5em 0.5em 2.8em; }}
#story li {{ padding: 0.15em 0.3em; border-radius: 4px; cursor: pointer; }}
#story li.current {{ background: #ffd54f; }}
#story li.done {{ color: #555; }}
#frames {{ display: none; }}
</style>
</head>
<body>
<header><h1>{title}</h1></header>
<main>
<section id="table">
<div id="controls">
<button type="button" data-go="first" title="{first_tip}">{first}</button>
<button type="button" data-go="prev" title="{prev_tip}">{prev}</button>
<button type="button" data-go="next" title="{next_tip}">{next}</button>
<button type="button" data-go="last" title="{last_tip}">{last}</button>
<span id="where" data-template="{where_template}">{where}</span>
</div>
<p id="event"></p>
{pictures}
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
<script>
{script}
</script>
</body>
</html>
"""

_SCRIPT = r"""(function () {
  "use strict";
  var frames = Array.prototype.slice.call(document.querySelectorAll("#frames .frame"));
  var pictures = document.querySelectorAll("#table .picture");
  var lines = document.querySelectorAll("#lines .line");
  var shown = 0;
  function show(index) {
    index = Math.max(0, Math.min(frames.length - 1, index));
    shown = index;
    var frame = frames[index];
    var picture = frame.getAttribute("data-picture");
    var line = Number(frame.getAttribute("data-line"));
    for (var i = 0; i < pictures.length; i++) {
      pictures[i].hidden = pictures[i].getAttribute("data-picture") !== picture;
    }
    for (var j = 0; j < lines.length; j++) {
      lines[j].classList.toggle("current", j === line);
      lines[j].classList.toggle("done", j < line);
    }
    if (lines[line]) { lines[line].scrollIntoView({block: "nearest"}); }
    document.getElementById("event").textContent = frame.textContent;
    var where = document.getElementById("where");
    where.textContent = where.getAttribute("data-template")
      .replace("%(index)s", String(index + 1)).replace("%(count)s", String(frames.length));
    if (window.history && history.replaceState) {
      history.replaceState(null, "", "#" + (index + 1));
    }
  }
  var moves = {
    first: function () { return 0; },
    prev: function () { return shown - 1; },
    next: function () { return shown + 1; },
    last: function () { return frames.length - 1; }
  };
  document.querySelectorAll("#controls button").forEach(function (button) {
    button.addEventListener("click", function () {
      show(moves[button.getAttribute("data-go")]());
    });
  });
  lines.forEach(function (item) {
    item.addEventListener("click", function () {
      var line = item.getAttribute("data-line");
      for (var i = 0; i < frames.length; i++) {
        if (frames[i].getAttribute("data-line") === line) { show(i); return; }
      }
    });
  });
  document.addEventListener("keydown", function (event) {
    var keys = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"};
    var go = keys[event.key];
    if (go) { event.preventDefault(); show(moves[go]()); }
  });
  var asked = /^#(\d+)$/.exec(window.location.hash);
  show(asked ? Number(asked[1]) - 1 : 0);
})();"""
