"""Pictures of the table: :func:`render` draws a seat's view, or a whole game, as SVG.

``render(observation)`` draws what one seat sees: its own hand face up, every
other seat as a count of card backs around the table, the groups on the
table face down with their claims, whose decision it is, the ranks the next
claim may announce, the discards, the stock, the cards set aside and the
result once the game is over. ``render(state)`` draws the omniscient table
for replays and tutorials: every hand face up, and every group face up,
marked true or a lie. A picture never holds a face its view does not show.
Its labels speak the language asked for (``language="ru"``), in the
narration's words.

The picture is a standalone SVG 1.1 document (a ``str``), drawn with the
standard library alone. Its parts carry classes and data attributes a test
or a front-end can find: ``class="card"`` with ``data-card="K♦"`` for a face,
``class="back"`` for a card face down, ``class="seat"`` with ``data-seat``
for each seat, ``class="group"`` for each group on the table.

>>> import cheatrules as cr
>>> state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
>>> picture = render(state.observe(0), width=400)
>>> picture.startswith("<svg") and 'data-card="K♦"' in picture
True
>>> 'data-card="A♠"' in picture, picture.count('class="back"')
(False, 4)

Notebooks draw observations and states themselves: both have a
``_repr_svg_`` method that calls :func:`render`.
"""

from __future__ import annotations

import gettext
import math
import re
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import attrs

from cheatrules._i18n import check_language, rank_letter, translations
from cheatrules._i18n import claim as said_claim
from cheatrules.cards import Card, Rank, Suit
from cheatrules.errors import RulesError, SeatError
from cheatrules.observation import Observation
from cheatrules.policies.challenges import holds
from cheatrules.state import GameState
from cheatrules.table import Claim, Phase, Table
from cheatrules.variants import VARIANTS

__all__ = ["SVG_NAMESPACE", "Theme", "render"]

#: The namespace of every element of a picture.
SVG_NAMESPACE = "http://www.w3.org/2000/svg"

# The drawing's own units: the picture is scaled to the width asked for.
_WIDTH = 800
_HEIGHT = 600
#: The narrowest and widest pictures :func:`render` draws, in pixels.
MIN_WIDTH, MAX_WIDTH = 100, 4000

_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})|[a-zA-Z]{3,30}")
_FONT = re.compile(r"[A-Za-z0-9 ,\-]{1,100}")


def _colour(instance: Any, attribute: Any, value: object) -> None:
    if not isinstance(value, str) or not _COLOUR.fullmatch(value):
        raise RulesError(
            f"Theme.{attribute.name} must be a colour such as '#1b5e20', '#fff' or 'white'; "
            f"got {value!r}"
        )


def _font(instance: Any, attribute: Any, value: object) -> None:
    if not isinstance(value, str) or not _FONT.fullmatch(value) or not value.strip(" ,"):
        raise RulesError(
            "Theme.font must be font names separated by commas (letters, digits, spaces, "
            f"hyphens), such as 'DejaVu Sans, sans-serif'; got {value!r}"
        )


@attrs.frozen
class Theme:
    """The colours and font of a picture. Frozen; change one with ``attrs.evolve``.

    Each colour is a hex colour (``"#1b5e20"``, ``"#fff"``) or a colour name
    (``"white"``).

    Raises:
        RulesError: a colour or the font is not one of those forms.

    >>> Theme(table="#0b3d91").table
    '#0b3d91'

    """

    #: The cloth of the table.
    table: str = attrs.field(default="#1d6b43", validator=_colour)
    #: The writing on the cloth (seat names, claims, the state of the game).
    text: str = attrs.field(default="#f4f4f0", validator=_colour)
    #: A card's face.
    face: str = attrs.field(default="#fffdf7", validator=_colour)
    #: The edge of every card.
    edge: str = attrs.field(default="#2b2b2b", validator=_colour)
    #: Hearts, diamonds and the red joker.
    red: str = attrs.field(default="#c62828", validator=_colour)
    #: Clubs, spades and the black joker.
    black: str = attrs.field(default="#1a1a1a", validator=_colour)
    #: A card's back.
    back: str = attrs.field(default="#27408b", validator=_colour)
    #: The pattern on a card's back.
    back_edge: str = attrs.field(default="#9fb3e6", validator=_colour)
    #: The seat whose decision it is, and the newest claim.
    highlight: str = attrs.field(default="#ffd54f", validator=_colour)
    #: A group whose cards honour its claim (the omniscient picture).
    truth: str = attrs.field(default="#66bb6a", validator=_colour)
    #: A group that lies (the omniscient picture).
    lie: str = attrs.field(default="#ef5350", validator=_colour)
    #: The font of every text.
    font: str = attrs.field(default="DejaVu Sans, Arial, sans-serif", validator=_font)


_DEFAULT = Theme()
_RED_SUITS = (Suit.HEARTS, Suit.DIAMONDS)


def render(
    view: Observation | GameState,
    *,
    width: int = 800,
    bottom: int | None = None,
    colours: Theme | None = None,
    language: str = "en",
) -> str:
    """Draw a seat's view (an :class:`~cheatrules.Observation`) or a whole game as SVG.

    Args:
        view: an observation draws that seat's hand face up and the other
            hands as backs; a :class:`~cheatrules.GameState` draws every hand
            and every group face up, each group marked true or a lie.
        width: the picture's width in pixels, from 100 to 4000; the height
            is three quarters of it.
        bottom: the seat drawn at the bottom, the others clockwise around
            the table; by default the observing seat (seat 0 for a state).
        colours: the :class:`Theme`; the default one when not given.
        language: the language of the labels (the seats, the claims, the
            state of the game): ``"en"`` (the default), ``"pt"``, ``"es"``,
            ``"fr"`` or ``"ru"``, worded as the narration words them.

    Returns:
        An SVG 1.1 document.

    Raises:
        RulesError: ``width`` is not a whole number in range, ``colours``
            is not a :class:`Theme`, ``language`` is not one the library
            speaks, or ``view`` is neither an observation nor a state.
        SeatError: ``bottom`` is not a seat at the table.

    """
    if not isinstance(view, (Observation, GameState)):
        raise RulesError(f"render draws an Observation or a GameState; got {type(view).__name__}")
    if (
        not isinstance(width, int)
        or isinstance(width, bool)
        or not (MIN_WIDTH <= width <= MAX_WIDTH)
    ):
        raise RulesError(
            f"width must be a whole number of pixels from {MIN_WIDTH} to {MAX_WIDTH}; got {width!r}"
        )
    check_language(language)
    theme = _DEFAULT if colours is None else colours
    if not isinstance(theme, Theme):
        raise RulesError(f"colours must be a Theme; got {type(theme).__name__}")
    players = view.players
    if bottom is None:
        bottom = view.seat if isinstance(view, Observation) else 0
    if not isinstance(bottom, int) or isinstance(bottom, bool) or not 0 <= bottom < players:
        raise SeatError(
            f"bottom must be a seat of this table, from 0 to {players - 1}; got {bottom!r}"
        )
    return _Picture(view, width, bottom, theme, language).draw()


def _number(value: float) -> str:
    """A coordinate, short: whole numbers without a point, else one decimal."""
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else str(rounded)


def _attributes(**values: object) -> str:
    parts = []
    for name, value in values.items():
        if value is None:
            continue
        text = _number(value) if isinstance(value, float) else str(value)
        parts.append(f"{name.rstrip('_').replace('_', '-')}={quoteattr(text)}")
    return " ".join(parts)


class _Picture:
    """One drawing under way: the view, its size and colours, and the elements so far."""

    def __init__(
        self, view: Observation | GameState, width: int, bottom: int, theme: Theme, language: str
    ):
        self.view = view
        self.language = language
        self.catalog: gettext.GNUTranslations = translations(language)
        self.table: Table = view.table
        self.width = width
        self.bottom = bottom
        self.theme = theme
        self.parts: list[str] = []

    # -- the document --------------------------------------------------------------

    def draw(self) -> str:
        theme = self.theme
        height = self.width * _HEIGHT // _WIDTH
        kind = "state" if isinstance(self.view, GameState) else "observation"
        observer = "" if isinstance(self.view, GameState) else f' data-seat="{self.view.seat}"'
        self.parts.append(
            f'<svg xmlns="{SVG_NAMESPACE}" version="1.1" width="{self.width}" '
            f'height="{height}" viewBox="0 0 {_WIDTH} {_HEIGHT}" class="cheatrules {kind}"'
            f"{observer} font-family={quoteattr(theme.font)}>"
        )
        self.parts.append(f"<title>{escape(self._title())}</title>")
        self.parts.append(
            f'<rect class="cloth" width="{_WIDTH}" height="{_HEIGHT}" rx="24" '
            f'fill="{theme.table}"/>'
        )
        self._info()
        self._discards()
        self._pile()
        for seat in range(self.table.players):
            self._seat(seat)
        self._outcome()
        self.parts.append("</svg>")
        return "\n".join(self.parts)

    def _title(self) -> str:
        rules = self.table.rules
        view = self.view
        catalog = self.catalog
        values = {"game": rules.name, "players": rules.players}
        if isinstance(view, GameState):
            return (
                catalog.ngettext(
                    "%(game)s, %(players)s player: every hand",
                    "%(game)s, %(players)s players: every hand",
                    rules.players,
                )
                % values
            )
        return catalog.ngettext(
            "%(game)s, %(players)s player: seat %(seat)s's view",
            "%(game)s, %(players)s players: seat %(seat)s's view",
            rules.players,
        ) % {**values, "seat": view.seat}

    def _text(
        self,
        x: float,
        y: float,
        text: str,
        size: float = 14,
        cls: str | None = None,
        **more: object,
    ) -> None:
        attributes = _attributes(class_=cls, x=float(x), y=float(y), font_size=float(size), **more)
        self.parts.append(f"<text {attributes}>{escape(text)}</text>")

    # -- cards ----------------------------------------------------------------------

    def _face(
        self, card: Card, x: float, y: float, w: float, cls: str = "card", whole: bool = True
    ) -> None:
        """A card face up, ``w`` wide: rank and suit in the corner, a big symbol in the middle.

        The big symbol is left out where the next card covers it (``whole`` false):
        long replays hold hundreds of pictures.
        """
        theme = self.theme
        h = w * 1.4
        colour = theme.red if card.suit in _RED_SUITS else theme.black
        joker = card.rank is Rank.JOKER
        corner = w * 0.3
        inset = _number(w * 0.08)
        self.parts.append(
            f"<g {_attributes(class_=cls, data_card=str(card))} "
            f'transform="translate({_number(x)} {_number(y)})" fill="{colour}" '
            f'font-size="{_number(corner)}">'
            f'<rect width="{_number(w)}" height="{_number(h)}" rx="{_number(w / 10)}" '
            f'fill="{theme.face}" stroke="{theme.edge}"/>'
            f'<text x="{inset}" y="{_number(corner)}" font-weight="bold">'
            f"{'★' if joker else rank_letter(card.rank, self.language)}</text>"
        )
        if joker:
            # A joker has no suit to show: its colour tells red from black.
            if whole:
                # Translators: the word printed on a joker's face, in capitals.
                word = escape(self.catalog.pgettext("card face", "JOKER"))
                self.parts.append(
                    f'<text x="{_number(w / 2)}" y="{_number(h * 0.68)}" text-anchor="middle" '
                    f'font-size="{_number(w * 0.55)}">★</text>'
                    f'<text x="{_number(w / 2)}" y="{_number(h * 0.92)}" text-anchor="middle" '
                    f'font-size="{_number(w * 0.16)}">'
                    f"{word}</text>"
                )
            self.parts.append("</g>")
            return
        self.parts.append(f'<text x="{inset}" y="{_number(corner * 2)}">{card.suit}</text>')
        if whole:
            self.parts.append(
                f'<text x="{_number(w * 0.6)}" y="{_number(h * 0.8)}" text-anchor="middle" '
                f'font-size="{_number(w * 0.5)}">{card.suit}</text>'
            )
        self.parts.append("</g>")

    def _backs(self, places: Sequence[tuple[float, float]], w: float) -> None:
        """Cards face down at ``places``, ``w`` wide, each over the one before.

        Each back is one rectangle, the colours given once for the run;
        only the top one, seen whole, has its pattern drawn.
        """
        if not places:
            return
        theme = self.theme
        h = w * 1.4
        size = f'width="{_number(w)}" height="{_number(h)}" rx="{_number(w / 10)}"'
        self.parts.append(f'<g fill="{theme.back}" stroke="{theme.edge}">')
        for x, y in places[:-1]:
            self.parts.append(f'<rect class="back" x="{_number(x)}" y="{_number(y)}" {size}/>')
        x, y = places[-1]
        inset = w / 8
        self.parts.append(
            f'<g class="back" transform="translate({_number(x)} {_number(y)})"><rect {size}/>'
            f'<rect x="{_number(inset)}" y="{_number(inset)}" width="{_number(w - 2 * inset)}" '
            f'height="{_number(h - 2 * inset)}" rx="{_number(w / 16)}" fill="none" '
            f'stroke="{theme.back_edge}"/></g></g>'
        )

    # -- the parts of the table -------------------------------------------------------

    def _info(self) -> None:
        """The top-left corner: the game, whose decision, the claims allowed, the unseen cards."""
        table = self.table
        rules = table.rules
        catalog = self.catalog
        known = VARIANTS.get(rules.name)
        title = known.title_in(self.language) if known is not None else rules.name
        lines = [
            catalog.ngettext(
                "%(game)s, %(players)s player", "%(game)s, %(players)s players", rules.players
            )
            % {"game": title, "players": rules.players}
        ]
        if table.outcome is None:
            lines.append(
                catalog.gettext("seat %(seat)s to decide (%(phase)s)")
                % {"seat": self.view.to_move, "phase": _phase(self.view.phase, catalog)}
            )
            lines.append(
                catalog.gettext("next claim: %(ranks)s")
                % {"ranks": _ranks(table.allowed_ranks, catalog, self.language)}
            )
        last = table.last_claim
        if last is not None:
            lines.append(
                catalog.gettext("last claim: %(claim)s by seat %(seat)s")
                % {"claim": said_claim(last.count, last.rank, self.language), "seat": last.seat}
            )
        if table.stock_size:
            # The English says "1 cards", as it always has: its pictures are pinned.
            lines.append(
                catalog.ngettext(
                    "stock: %(count)s cards", "stock: %(count)s cards", table.stock_size
                )
                % {"count": table.stock_size}
            )
        aside: tuple[Card, ...] = ()
        if isinstance(self.view, GameState):
            aside = self.view.set_aside
            if aside:
                lines.append(catalog.gettext("set aside: %(count)s") % {"count": len(aside)})
        elif table.set_aside_count:
            lines.append(
                catalog.gettext("set aside: %(count)s unseen") % {"count": table.set_aside_count}
            )
        self.parts.append(f'<g class="info" fill="{self.theme.text}">')
        for number, line in enumerate(lines):
            self._text(16, 26 + 18 * number, line, 14 if number else 15)
        self.parts.append("</g>")
        if aside:
            # Only the omniscient picture turns the cards set aside face up.
            self.parts.append('<g class="set-aside">')
            top = 26 + 18 * len(lines) - 8
            for index, card in enumerate(aside):
                self._face(card, 16 + 30 * index, top, 26, "card set-aside")
            self.parts.append("</g>")

    def _discards(self) -> None:
        """The top-right corner: the fours set aside, face up for everyone."""
        discarded = self.table.discarded
        if not discarded:
            return
        self.parts.append(f'<g class="discards" data-count="{len(discarded)}">')
        self._text(
            784,
            22,
            self.catalog.gettext("discarded: %(count)s") % {"count": len(discarded)},
            13,
            fill=self.theme.text,
            text_anchor="end",
        )
        per_row = 16
        step = min(14.0, 200 / per_row)
        for index, card in enumerate(discarded):
            row, column = divmod(index, per_row)
            self._face(
                card,
                784 - 26 - step * (per_row - 1) + step * column,
                30 + 20 * row,
                26,
                "card discard",
                whole=index == len(discarded) - 1,
            )
        self.parts.append("</g>")

    def _pile(self) -> None:
        """The middle: each group on the table with its claim, newest last, newest outlined."""
        theme = self.theme
        claims: Sequence[Claim] = self.table.claims
        laid: list[tuple[Card, ...] | None] = [None] * len(claims)
        if isinstance(self.view, GameState):
            laid = [cards for _, cards in self.view.groups]
        count = len(claims)
        self.parts.append(f'<g class="pile" data-count="{self.table.pile_size}">')
        if not count:
            self._text(
                400,
                300,
                self.catalog.gettext("the table is empty"),
                14,
                fill=theme.text,
                text_anchor="middle",
                opacity="0.7",
            )
            self.parts.append("</g>")
            return
        columns = min(count, 8)
        rows = math.ceil(count / columns)
        cell_w = 360 / columns
        cell_h = min(92.0, 190 / rows)
        card_w = min(36.0, cell_w * 0.55, cell_h * 0.45)
        left = 400 - cell_w * columns / 2
        top = 300 - cell_h * rows / 2
        for index, (claim, cards) in enumerate(zip(claims, laid, strict=True)):
            row, column = divmod(index, columns)
            middle = left + column * cell_w + cell_w / 2
            self._group(
                claim, cards, middle, top + row * cell_h, cell_w, card_w, index == count - 1
            )
        self.parts.append("</g>")

    def _group(
        self,
        claim: Claim,
        cards: tuple[Card, ...] | None,
        middle: float,
        y: float,
        cell_w: float,
        card_w: float,
        is_newest: bool,
    ) -> None:
        """One group on the table, centred on ``middle``, face down unless ``cards`` are given."""
        theme = self.theme
        # Face down, a group is a neat stack; face up, its cards fan out to show each corner.
        most = (cell_w - card_w - 8) / max(claim.count - 1, 1)
        spread = min(card_w * (0.15 if cards is None else 0.45), most)
        drop = min(spread * 0.3, 8 / max(claim.count - 1, 1))
        x = middle - (card_w + spread * (claim.count - 1)) / 2
        truth = ""
        if cards is not None:
            truth = " true" if holds(cards, claim.rank) else " lie"
        newest = " newest" if is_newest else ""
        label = self.catalog.gettext("%(count)s×%(rank)s by seat %(seat)s") % {
            "count": claim.count,
            "rank": claim.rank,
            "seat": claim.seat,
        }
        attributes = _attributes(
            class_="group" + truth + newest,
            data_seat=claim.seat,
            data_count=claim.count,
            data_rank=str(claim.rank),
        )
        self.parts.append(f"<g {attributes}>")
        places = [(x + spread * number, y + drop * number) for number in range(claim.count)]
        if cards is None:
            self._backs(places, card_w)
        else:
            for number, (cx, cy) in enumerate(places):
                self._face(cards[number], cx, cy, card_w, whole=number == claim.count - 1)
        colour = theme.highlight if newest else theme.text
        if truth:
            colour = theme.truth if truth == " true" else theme.lie
            label += " ✓" if truth == " true" else " ✗"
        size = min(12.0, cell_w / 7.5)
        self._text(
            middle,
            y + drop * (claim.count - 1) + card_w * 1.4 + size + 5,
            label,
            size,
            "claim",
            fill=colour,
            text_anchor="middle",
            font_weight="bold" if newest else None,
        )
        self.parts.append("</g>")

    def _place(self, seat: int) -> tuple[float, float]:
        """Where ``seat`` sits: the bottom seat in the middle below, the others clockwise."""
        players = self.table.players
        angle = math.pi / 2 + 2 * math.pi * ((seat - self.bottom) % players) / players
        return 400 + 330 * math.cos(angle), 300 + 215 * math.sin(angle)

    def _seat(self, seat: int) -> None:
        """A seat: its name and card count, its hand face up where the view shows it, else backs."""
        table = self.table
        size = table.hand_sizes[seat]
        observer = None if isinstance(self.view, GameState) else self.view.seat
        hand: tuple[Card, ...] | None = None
        if isinstance(self.view, GameState):
            hand = self.view.hands[seat]
        elif seat == observer:
            hand = self.view.hand
        to_move = table.outcome is None and self.view.to_move == seat
        out = seat in table.finishing_order
        classes = ["seat"]
        classes += ["to-move"] if to_move else []
        classes += ["out"] if out else []
        classes += ["observer"] if seat == observer else []
        self.parts.append(
            f"<g {_attributes(class_=' '.join(classes), data_seat=seat, data_cards=size)}>"
        )
        x, y = self._place(seat)
        if seat == self.bottom:
            card_w, per_row, row_step, area, y = 54.0, 26, 28.0, 700.0, 506.0
        else:
            card_w, per_row, row_step, area, y = 28.0, 13, 18.0, 150.0, y - 40
        if hand is not None:
            rows = max(1, math.ceil(size / per_row))
            in_row = min(size, per_row)
            step = min(card_w + 3, (area - card_w) / max(in_row - 1, 1))
        else:
            rows, in_row = 1, size
            step = min(card_w * 0.35, (area * 0.6 - card_w) / max(size - 1, 1))
        span = card_w + step * max(in_row - 1, 0)
        # Keep the hand on the cloth, however far out its seat is.
        left = max(12.0, min(x - span / 2, _WIDTH - 12 - span))
        x = left + span / 2
        if seat == self.bottom:
            y -= row_step * (rows - 1)  # the rows grow upwards from the bottom edge
        catalog = self.catalog
        name = catalog.ngettext(
            "seat %(seat)s: %(count)s card", "seat %(seat)s: %(count)s cards", size
        ) % {"seat": seat, "count": size}
        if out:
            place = _ordinal(table.finishing_order.index(seat) + 1, catalog)
            # Translators: a seat that has gone out, and its place among those out.
            name = catalog.gettext("%(name)s (out, %(place)s)") % {"name": name, "place": place}
        if seat == observer:
            # Translators: the seat whose view the picture shows.
            name = catalog.gettext("%(name)s (you)") % {"name": name}
        self._name(name, x, y - 9, to_move)
        if hand is not None:
            for index, card in enumerate(hand):
                row, column = divmod(index, per_row)
                covered = step < card_w * 0.75 and column < per_row - 1 and index < size - 1
                self._face(
                    card, left + step * column, y + row_step * row, card_w, whole=not covered
                )
        else:
            self._backs([(left + step * index, y) for index in range(size)], card_w)
        self.parts.append("</g>")

    def _name(self, name: str, x: float, y: float, to_move: bool) -> None:
        """A seat's name centred on ``x``, on a highlight when the seat is to decide."""
        theme = self.theme
        pill = 8.6 * len(name) + 20
        x = max(pill / 2 + 8, min(x, _WIDTH - pill / 2 - 8))  # the name stays on the cloth too
        if to_move:
            self.parts.append(
                f'<rect class="turn" x="{_number(x - pill / 2)}" y="{_number(y - 15)}" '
                f'width="{_number(pill)}" height="21" rx="10" fill="{theme.highlight}"/>'
            )
        self._text(
            x,
            y,
            name,
            14,
            "name",
            text_anchor="middle",
            fill=theme.black if to_move else theme.text,
            font_weight="bold" if to_move else None,
        )

    def _outcome(self) -> None:
        outcome = self.table.outcome
        if outcome is None:
            return
        theme = self.theme
        catalog = self.catalog
        nobody = catalog.pgettext("nobody", "none")
        winners = " ".join(map(str, outcome.winners)) or nobody
        losers = " ".join(map(str, outcome.losers)) or nobody
        self.parts.append(
            # Above the groups on the table, below the seat across it.
            f'<g class="outcome"><rect x="230" y="136" width="340" height="64" rx="12" '
            f'fill="{theme.face}" stroke="{theme.highlight}" stroke-width="3" opacity="0.95"/>'
        )
        self._text(
            400,
            162,
            catalog.gettext("game over"),
            18,
            fill=theme.black,
            text_anchor="middle",
            font_weight="bold",
        )
        self._text(
            400,
            186,
            catalog.gettext("winners: %(winners)s; losers: %(losers)s")
            % {"winners": winners, "losers": losers},
            14,
            fill=theme.black,
            text_anchor="middle",
        )
        self.parts.append("</g>")


def _ranks(ranks: tuple[Rank, ...], catalog: gettext.GNUTranslations, language: str) -> str:
    """The ranks the next claim may announce, in the letters of ``language``."""
    if not ranks:
        return catalog.pgettext("no rank", "none")
    if len(ranks) > 6:
        return catalog.ngettext("any of %(count)s rank", "any of %(count)s ranks", len(ranks)) % {
            "count": len(ranks)
        }
    return " ".join(rank_letter(rank, language) for rank in ranks)


def _phase(phase: Phase, catalog: gettext.GNUTranslations) -> str:
    """The kind of decision, as the line "seat 1 to decide (challenge)" names it."""
    match phase:
        case Phase.PLAY:
            return catalog.pgettext("phase", "play")
        case Phase.CHALLENGE:
            return catalog.pgettext("phase", "challenge")
        case Phase.DISCARD:
            return catalog.pgettext("phase", "discard")
        case Phase.CONSENT:
            return catalog.pgettext("phase", "consent")
        case _:
            return catalog.pgettext("phase", "over")


def _ordinal(number: int, catalog: gettext.GNUTranslations) -> str:
    """A place among the seats gone out: 1st, 2nd, 3rd, 4th... 21st."""
    # Translators: a place among the seats gone out; the English ending depends on
    # the last digit (1st, 2nd, 3rd, 4th, 11th, 21st): write your language's form.
    ending = number if number < 20 else number % 10
    if ending == 1:
        text = catalog.pgettext("place ending in 1, not 11", "%(number)sst")
    elif ending == 2:
        text = catalog.pgettext("place ending in 2, not 12", "%(number)snd")
    elif ending == 3:
        text = catalog.pgettext("place ending in 3, not 13", "%(number)srd")
    else:
        text = catalog.pgettext("any other place", "%(number)sth")
    return text % {"number": number}
