"""Copies of a card told apart, for the sampler (private).

With two packs a card the log names twice may be one copy that travelled
or both copies. The sampler searches a view of cards of one copy exactly,
following each card from sighting to sighting, so here every copy becomes a
card of its own, a :class:`Twin` (the card and a copy number), and every
sighting of a card is given the twins it names: a *labelling*. In a
labelling each twin's sightings form a path a card can travel: from a hand
it was named in, on with the group laid there and whoever takes its pile,
and only through groups nobody saw (a group turned over names its cards);
from the observer's hand only in the observer's own groups; a twin never
named before from any card nobody saw. A pile the observer takes names every
twin in it, so a twin known to be there is named there.

A labelling is drawn per card, depth first in a random order, and then
mended while it asks more of a seat than its plays can give: the twins a
pickup brings into a hand that the log names next elsewhere leave that hand
in the player's groups nobody saw, one slot each, so they must fit those
slots (a matching); and each twin a pickup brings stays in the hand until
such a group can take it or the log names it, so at none of the player's
plays may more stay than the hand keeps; and the twins the log names at one
place that were last laid unseen must all get there together, through
whichever hands their piles go to, each of the groups nobody saw taking as
many as its slots (a flow, which sees a third hand's slots run short). A
twin that does not fit is barred from going on from that sighting to the
next (one named nowhere more, from ending there: it must be named again),
and its card is drawn again from there on (from further back where no
labelling keeps the rest). Where twins do not fit a hand's slots, every
twin competing for the slots they could take is to blame, not only those a
largest matching leaves out: the one left out may be one no labelling of
its card can move, and then only moving another frees its slot. What a
search of the twins' view then finds out about a labelling (a hand with
more twins to pass on than its groups hold; more first sightings than the
cards nobody saw can reach) is kept as blame, and later labellings lean
away from the choices blamed. Where the
search fails at a hand that cannot pass its named twins on (or keep those
it must, or get them to a place through the other hands), the labelling is
repaired: the links that brought those twins there are barred and drawn
again as a mend does, the rest kept.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from copy import copy as _shallow_copy
from typing import Protocol

import attrs

from cheatrules.cards import CARD_BY_KEY, Card
from cheatrules.events import Dealt, Discarded, Drew, Event, PileTaken, Played, Revealed

#: Where the log names a card: ("hand", seat, event) just before that event,
#: or ("pile", pile, event) in a pile the observer takes then.
Target = tuple[str, int, int]

#: Blame a search puts on the labelling: by card key, sighting and the kind
#: of choice it would rather have had there (FRESH, REUSE): how often.
Blame = Counter[tuple[int, Target, str]]
FRESH, REUSE = "fresh", "reuse"

#: How often a labelling is mended before it is given up.
MENDS = 50

# The kinds of sighting: the observer's own card comes in (dealt, drawn),
# is laid, is set aside; another hand shows a card; a pile the observer takes.
IN, LAY, OUT, HAND, PILE = "in", "lay", "out", "hand", "pile"

#: Where a twin is: never named yet, in the observer's hand, laid in a group
#: (its index), or out of the game.
_Where = tuple[str, int]
_FREE: _Where = ("free", -1)
_MINE: _Where = ("mine", -1)
_GONE: _Where = ("gone", -1)


@attrs.frozen(eq=False, order=False, repr=False)
class Twin(Card):
    """One copy of a card: equal only to the same copy of the same card."""

    copy: int = 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Twin) and self.key == other.key and self.copy == other.copy

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return self.key * 8 + self.copy

    def __repr__(self) -> str:
        return f"Twin({self}, {self.copy})"


def plain(card: Card) -> Card:
    """The card a twin is a copy of."""
    return CARD_BY_KEY[card.key]


def twins(copies: Counter[Card]) -> Counter[Card]:
    """Every copy in ``copies`` as a twin of its own."""
    return Counter(
        {Twin(c.rank, c.suit, n): 1 for c, count in copies.items() for n in range(count)}
    )


class Log(Protocol):
    """What a labelling reads of the sampler's plan of a view."""

    events: tuple[Event, ...]
    seat: int
    copies: Counter[Card]
    pile_of: dict[int, int]
    revealed_at: dict[int, int]
    taken: dict[int, tuple[int, int]]

    def on_table(self, group: int, target: Target) -> bool:
        """Whether a card in ``group``, on the table, can get to ``target`` unseen."""

    def stranded(self, seat: int, leaving: Sequence[tuple[int, Target]]) -> list[int]:
        """Which cards leaving ``seat``'s hand (since when, for where) compete for too few slots."""

    def spans(self, seat: int, held: Iterable[tuple[int, Target | None]]) -> list[tuple[int, int]]:
        """Each card in ``seat``'s hand (since when, for where) as (since when, until when)."""

    def crowded(self, seat: int, spans: Sequence[tuple[int, int]]) -> list[int]:
        """Which cards in ``seat``'s hand (from when, until when) overfill it at a play."""

    def unrouted(self, target: Target, groups: Sequence[int]) -> bool:
        """Whether cards laid in ``groups`` (one each) cannot all get to ``target`` unseen."""


@attrs.frozen
class Sighting:
    """A moment the log names copies of a card, and how many."""

    when: int  # the moment: the event a hand is named just before (the group
    # it laid, or its four set aside), or the event itself
    at: int  # the event whose cards name them
    kind: str
    count: int
    target: Target | None = None  # HAND, PILE: where


@attrs.frozen
class Labels:
    """A labelling drawn (None if it could not be mended) and how often it was mended."""

    drawn: dict[Card, list[list[int]]] | None
    mends: int


class Labelling:
    """The sightings of a view's cards, and labellings of them drawn at random.

    Read only once made, but for :attr:`blame`, which the searches of one
    call of the sampler count into (see :meth:`afresh`).
    """

    def __init__(self, log: Log) -> None:
        self.log = log
        self.pile_at = {when: pile for pile, (_, when) in log.taken.items()}
        self.sightings: dict[Card, list[Sighting]] = {}
        self._read()
        self.multi = [card for card in self.sightings if log.copies[card] > 1]
        #: How many sightings of cards with copies a mend re-checks.
        self.size = sum(len(self.sightings[card]) for card in self.multi)
        self.blame: Blame = Counter()
        # Every card alone has a labelling, or the view contradicts itself.
        rng = random.Random(0)
        self.consistent = all(self._card(card, rng, set()) is not None for card in self.multi)

    def afresh(self) -> Labelling:
        """A copy of this labelling with no blame yet: one call of the sampler's own.

        The plan keeps one labelling per view, read only once made, and each
        call draws from a copy of it with blame of its own, so what a call
        finds depends on its ``rng`` alone, and no two threads count into
        one blame.
        """
        fresh = _shallow_copy(self)
        fresh.blame = Counter()
        return fresh

    def _read(self) -> None:
        seat = self.log.seat
        for index, event in enumerate(self.log.events):
            if isinstance(event, Dealt):
                self._add(event.hands[seat], Sighting(0, 0, IN, 0))
            elif isinstance(event, Drew) and event.seat == seat:
                self._add(event.cards, Sighting(index, index, IN, 0))
            elif isinstance(event, Played) and event.seat == seat:
                self._add(event.cards, Sighting(index, index, LAY, 0))
            elif isinstance(event, Revealed) and event.seat != seat:
                group = self.log.revealed_at[index]
                target = ("hand", event.seat, group)
                self._add(event.cards, Sighting(group, index, HAND, 0, target))
            elif isinstance(event, PileTaken) and event.seat == seat:
                target = ("pile", self.pile_at[index], index)
                self._add(event.cards, Sighting(index, index, PILE, 0, target))
            elif isinstance(event, Discarded) and event.cards:
                target = ("hand", event.seat, index)
                kind = OUT if event.seat == seat else HAND
                self._add(event.cards, Sighting(index, index, kind, 0, target))
        for found in self.sightings.values():
            found.sort(key=lambda sighting: sighting.when)

    def _add(self, cards: tuple[Card, ...], sighting: Sighting) -> None:
        for card, count in Counter(cards).items():
            self.sightings.setdefault(card, []).append(attrs.evolve(sighting, count=count))

    # -- drawing -------------------------------------------------------------

    def draw(self, rng: random.Random) -> Labels:
        """A labelling: per card, per sighting, the copy numbers it names.

        Each card's drawn alone, then the whole is mended (:meth:`_mend`).
        """
        drawn = {
            card: [list(range(s.count)) for s in found] for card, found in self.sightings.items()
        }
        for card in self.multi:
            chosen = self._card(card, rng, set())
            assert chosen is not None  # self.consistent
            drawn[card] = chosen
        return self._mend(drawn, None, rng)

    def repair(
        self,
        drawn: dict[Card, list[list[int]]],
        leaving: Sequence[tuple[Card, Target]],
        rng: random.Random,
    ) -> Labels:
        """``drawn`` drawn again where it brought the twins ``leaving`` into a hand.

        ``leaving`` holds twins (with where each is named next) that a
        search of ``drawn`` found could not all leave one hand in time (or
        all stay in it at a play). The links that brought them (from the
        sighting each was named at last) are barred, half of their cards at
        random drawn again from there on as a mend does, and the labelling
        is then mended. The rest of ``drawn`` is kept: a labelling that got
        as far as that hand is most often nearer one that fits than a new
        one.
        """
        stuck: dict[Card, set[tuple[int, int]]] = {}
        for twin, target in leaving:
            card = plain(twin)
            copy = twin.copy if isinstance(twin, Twin) else 0
            found, picked = self.sightings[card], drawn[card]
            after = next((n for n, sighting in enumerate(found) if sighting.target == target), 0)
            before = [n for n in range(after) if copy in picked[n]]
            if before:
                stuck.setdefault(card, set()).add((before[-1], after))
        return self._mend({card: list(picked) for card, picked in drawn.items()}, stuck, rng)

    def _mend(
        self,
        drawn: dict[Card, list[list[int]]],
        stuck: dict[Card, set[tuple[int, int]]] | None,
        rng: random.Random,
    ) -> Labels:
        """``drawn`` mended in place (:data:`MENDS` times at most), ``stuck`` first if given.

        While some hand is left more copies to pass on than its groups
        nobody saw hold (every copy competing for the slots some find none
        of: :meth:`Log.stranded`), half the cards stuck so, at random, are
        drawn again with those links barred.
        """
        barred: dict[Card, set[tuple[int, int]]] = {}
        for mends in range(MENDS):
            if stuck is None:
                stuck = self._stuck(drawn)
                if not stuck:
                    return Labels(drawn, mends)
            for card in rng.sample(sorted(stuck), (len(stuck) + 1) // 2):
                links = barred.setdefault(card, set())
                links |= stuck[card]
                drawn[card] = self._mended(card, drawn[card], links, rng)
            stuck = None
        return Labels(None, MENDS)

    def _mended(
        self,
        card: Card,
        picked: list[list[int]],
        links: set[tuple[int, int]],
        rng: random.Random,
    ) -> list[list[int]]:
        """``card``'s labelling drawn again from as late as it can be, ``links`` barred.

        From the latest sighting a barred link ends at, else the earliest it
        starts at, else the first; and with nothing barred where no
        labelling keeps those links apart.
        """
        ends = [max(end if end >= 0 else start + 1 for start, end in links)]
        ends += [min(start for start, _ in links), 0]
        for keep in ends:
            chosen = self._card(card, rng, links, picked[:keep])
            if chosen is not None:
                return chosen
        links.clear()
        chosen = self._card(card, rng, links)
        assert chosen is not None  # self.consistent
        return chosen

    def _card(
        self,
        card: Card,
        rng: random.Random,
        barred: set[tuple[int, int]],
        keep: Sequence[list[int]] = (),
    ) -> list[list[int]] | None:
        """Depth first, in random order: the copies each sighting of ``card`` names.

        ``barred`` holds pairs of sightings (by index) one copy may not go
        between; ``keep`` the choices of the first sightings, kept as they
        are. Where the copies are, after a sighting, is all that the rest
        depends on (and where each was named last, with links barred), so a
        place found to lead nowhere is not searched twice.
        """
        found = self.sightings[card]
        where, last = [_FREE] * self.log.copies[card], [-1] * self.log.copies[card]
        for step, choice in enumerate(keep):
            where = self._moved(found[step], where, choice)
            for copy in choice:
                last[copy] = step
        if len(keep) == len(found):
            return None if _ends_barred(last, barred) else list(keep)
        options = self._options(card, len(keep), where, last, barred, rng)
        stack = [(len(keep), where, last, list(keep), options)]
        failed: set[tuple[int, tuple[_Where, ...], tuple[int, ...]]] = set()
        while stack:
            step, where, last, picked, options = stack[-1]
            if not options:
                failed.add((step, tuple(where), tuple(last) if barred else ()))
                stack.pop()
                continue
            choice = options.pop()
            after, latest = self._moved(found[step], where, choice), list(last)
            for copy in choice:
                latest[copy] = step
            if step + 1 == len(found):
                if barred and _ends_barred(latest, barred):
                    continue
                return [*picked, choice]
            if (step + 1, tuple(after), tuple(latest) if barred else ()) in failed:
                continue
            following = self._options(card, step + 1, after, latest, barred, rng)
            stack.append((step + 1, after, latest, [*picked, choice], following))
        return None

    def _options(
        self,
        card: Card,
        step: int,
        where: list[_Where],
        last: list[int],
        barred: set[tuple[int, int]],
        rng: random.Random,
    ) -> list[list[int]]:
        """The sets of copies sighting ``step`` may name, the one to try first last."""
        sighting = self.sightings[card][step]
        kind, count = sighting.kind, sighting.count
        if kind in (IN, LAY, OUT):  # the observer's copies are alike: no choice
            wanted = _FREE if kind == IN else _MINE
            able = [copy for copy, at in enumerate(where) if at == wanted]
            return [able[:count]] if len(able) >= count else []
        target = sighting.target
        assert target is not None
        must = [copy for copy, at in enumerate(where) if self._in_pile(at, target)]
        free = [copy for copy, at in enumerate(where) if at == _FREE]
        moved = [
            copy
            for copy, at in enumerate(where)
            if at[0] == "laid" and copy not in must and self.log.on_table(at[1], target)
        ]
        ways = [
            must + free[:fresh] + list(old)
            for fresh in range(min(count - len(must), len(free)) + 1)
            for old in itertools.combinations(moved, count - len(must) - fresh)
        ]
        if barred:
            ways = [way for way in ways if not any((last[c], step) in barred for c in way)]
        return self._ordered(card, target, ways, set(free), rng)

    def _ordered(
        self, card: Card, target: Target, ways: list[list[int]], free: set[int], rng: random.Random
    ) -> list[list[int]]:
        """``ways`` in a random order that leans away from blamed choices (the first last)."""
        fresh = self.blame[card.key, target, FRESH]
        reuse = self.blame[card.key, target, REUSE]
        lean = {True: (1 + fresh) / (2 + fresh + reuse), False: (1 + reuse) / (2 + fresh + reuse)}

        def weight(way: list[int]) -> float:
            product = 1.0
            for copy in way:
                product *= lean[copy in free]
            return product

        # A weighted order: each way's key is u ** (1 / weight), the largest first.
        keyed = sorted((rng.random() ** (1 / weight(way)), n) for n, way in enumerate(ways))
        return [ways[n] for _, n in keyed]

    def _in_pile(self, where: _Where, target: Target) -> bool:
        """Whether a twin at ``where`` is in the pile the observer takes at ``target``."""
        return (
            target[0] == "pile" and where[0] == "laid" and self.log.pile_of[where[1]] == target[1]
        )

    def _moved(self, sighting: Sighting, where: list[_Where], choice: list[int]) -> list[_Where]:
        """Where the twins are after ``sighting`` names ``choice``."""
        moved = list(where)
        kind, events = sighting.kind, self.log.events
        for copy in choice:
            if kind in (IN, PILE):
                moved[copy] = _MINE
            elif kind == OUT:
                moved[copy] = _GONE
            elif isinstance(events[sighting.when], Played):  # laid, or shown in a group
                moved[copy] = ("laid", sighting.when)
            else:  # shown in a four set aside
                moved[copy] = _GONE
        return moved

    # -- mending -------------------------------------------------------------

    def _stuck(self, drawn: dict[Card, list[list[int]]]) -> dict[Card, set[tuple[int, int]]]:
        """The twins some hand cannot pass on, or keep: per card, the sightings they link."""
        coming: dict[int, list[tuple[int, Target | None, Card, tuple[int, int]]]] = {}
        for card in self.multi:
            for seat, since, target, link in self._arrivals(card, drawn[card]):
                coming.setdefault(seat, []).append((since, target, card, link))
        stuck: dict[Card, set[tuple[int, int]]] = {}
        for seat, into in coming.items():
            leaving = [
                (n, (since, target))
                for n, (since, target, _, _) in enumerate(into)
                if target is not None and target[:2] != ("hand", seat)
            ]
            found = [leaving[n][0] for n in self.log.stranded(seat, [o for _, o in leaving])]
            if not found:
                spans = self.log.spans(seat, [(since, target) for since, target, _, _ in into])
                found = self.log.crowded(seat, spans)
            for n in found:
                card, link = into[n][2:]
                stuck.setdefault(card, set()).add(link)
        if not stuck:
            for target, laid in self._laid_for(drawn).items():
                if self.log.unrouted(target, [group for group, _, _ in laid]):
                    for _, card, link in laid:
                        stuck.setdefault(card, set()).add(link)
        return stuck

    def _laid_for(
        self, drawn: dict[Card, list[list[int]]]
    ) -> dict[Target, list[tuple[int, Card, tuple[int, int]]]]:
        """Per place the log names twins, those it names that were last on the table, unseen.

        As (the group each was laid in, its card, the two sightings).
        """
        found: dict[Target, list[tuple[int, Card, tuple[int, int]]]] = {}
        for card in self.multi:
            for sighting, at, link in self._links(card, drawn[card]):
                if sighting is not None and sighting.target is not None and at[0] == "laid":
                    found.setdefault(sighting.target, []).append((at[1], card, link))
        return found

    def _arrivals(
        self, card: Card, picked: list[list[int]]
    ) -> Iterator[tuple[int, int, Target | None, tuple[int, int]]]:
        """Each twin of ``card`` that a pickup brings into a hand other than the observer's.

        As (the taker, the pickup, where the twin is named next (None for
        nowhere), the two sightings; -1 for the second where there is none).
        """
        for sighting, at, link in self._links(card, picked):
            taker = self._taker(at)
            if taker is not None and (sighting is None or taker[1] < sighting.when):
                yield taker[0], taker[1], None if sighting is None else sighting.target, link

    def _links(
        self, card: Card, picked: list[list[int]]
    ) -> Iterator[tuple[Sighting | None, _Where, tuple[int, int]]]:
        """Each step of each twin of ``card`` from one sighting to the next, in ``picked``.

        As (the sighting, or None past the last; where the twin was until
        then; the two sightings, -1 for the second where there is none).
        """
        where = [_FREE] * self.log.copies[card]
        last = [-1] * len(where)
        for step, (sighting, choice) in enumerate(zip(self.sightings[card], picked, strict=True)):
            for copy in choice:
                yield sighting, where[copy], (last[copy], step)
                last[copy] = step
            where = self._moved(sighting, where, choice)
        for copy, at in enumerate(where):
            yield None, at, (last[copy], -1)

    def _taker(self, where: _Where) -> tuple[int, int] | None:
        """Who takes up a twin laid at ``where`` (and when), unless the observer does."""
        if where[0] != "laid":
            return None
        taker = self.log.taken.get(self.log.pile_of[where[1]])
        return None if taker is None or taker[0] == self.log.seat else taker

    # -- the view with twins -------------------------------------------------

    def events_with(self, drawn: dict[Card, list[list[int]]]) -> tuple[Event, ...]:
        """The log with each card it names replaced by the twin ``drawn`` gives it there."""
        queues: dict[tuple[Card, int], list[int]] = {}
        for card, picked in drawn.items():
            for sighting, copies in zip(self.sightings[card], picked, strict=True):
                queues.setdefault((card, sighting.at), []).extend(copies)
        seat = self.log.seat
        laid: dict[int, tuple[Card, ...]] = {}
        out: list[Event] = []
        for index, event in enumerate(self.log.events):

            def take(card: Card, at: int = index) -> Card:
                return Twin(card.rank, card.suit, queues[card, at].pop(0))

            if isinstance(event, Dealt):
                hands = tuple(
                    tuple(map(take, hand)) if s == seat else hand
                    for s, hand in enumerate(event.hands)
                )
                event = attrs.evolve(event, hands=hands)
            elif isinstance(event, Revealed) and event.seat == seat:
                # The observer's own group: the twins it laid there.
                mine = list(laid[self.log.revealed_at[index]])
                cards = [
                    mine.pop(next(n for n, t in enumerate(mine) if t.key == c.key))
                    for c in event.cards
                ]
                event = attrs.evolve(event, cards=tuple(cards))
            elif isinstance(event, (Revealed, Discarded)) or (
                isinstance(event, (Drew, Played, PileTaken)) and event.seat == seat
            ):
                event = attrs.evolve(event, cards=tuple(map(take, event.cards)))
                if isinstance(event, Played):
                    laid[index] = event.cards
            out.append(event)
        return tuple(out)


def _ends_barred(last: Sequence[int], barred: set[tuple[int, int]]) -> bool:
    """Whether a copy is named last at a sighting it may not end at (barred ``(n, -1)``)."""
    return any((n, -1) in barred for n in last)
