"""A view's hidden cards as an integer program, solved exactly by HiGHS (through SciPy).

The optional extra ``cheatrules[solver]`` installs SciPy, whose
:func:`scipy.optimize.milp` runs the HiGHS solver. The model counts, for
every kind of card, how many copies each place holds: each other seat's
hand at the deal, the cards set aside, each place of the stock, the deck's
cards nobody was dealt, and each group another seat laid. A hand's counts
after each thing that takes cards out of it (a play, a discard) are
variables of their own, which may not go below zero, so a group takes only
cards its player held; and they add up to the hand's size, a public fact.
The facts of the seat's log are constraints: the seat's own cards, the
cards a check turned over (all of a group, or at least those), the cards of
a pile the seat took, its own draws, the fours set aside (the lowest copies
of their rank, as the engine takes them) and, where the rules set fours
aside unasked, that a taker holds no other four. A
:class:`~cheatrules.policies.HolderOf` opening adds who held its card at
the deal.

Every constraint is one no real game breaks, so when the solver proves the
program infeasible, no game gives the view: that is the proof behind a
plain :class:`~cheatrules.sampling.SamplingError`. A solution is only a
candidate: the sampler replays it through the engine, which has the last
word (a policy of one's own may decide something the model does not say,
an opening say), and asks again, with another objective, where the engine
disagrees.

Each call gives the program a random objective over the cards dealt (the
solver's answer is a corner of what the view allows, and the objective
picks which corner). It is not uniform over the games the seat cannot tell
apart: the seat-view guide says how far from it.
"""

from __future__ import annotations

import functools
import importlib.util
import random
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from cheatrules._sampler.plan import fours_checks
from cheatrules.cards import Card, Rank
from cheatrules.events import Dealt, Discarded, Drew, Event, PileTaken, Played, Revealed
from cheatrules.policies.dealing import HolderOf
from cheatrules.rules import Rules

__all__ = ["INFEASIBLE", "UNKNOWN", "Model", "World", "available", "solve"]

#: The solver proved that no game gives the view.
INFEASIBLE = "infeasible"
#: The solver ran out of time with neither a world nor a proof.
UNKNOWN = "unknown"


@attrs.frozen
class World:
    """A candidate game: every seat's hand at the deal, the cards set aside, the stock, the plays.

    ``plays`` gives the cards of every group another seat laid, with the
    index of its ``Played`` event in the log, in log order.
    """

    hands: tuple[tuple[Card, ...], ...]
    aside: tuple[Card, ...]
    stock: tuple[Card, ...]
    plays: tuple[tuple[int, tuple[Card, ...]], ...]


@functools.cache
def available() -> bool:
    """Whether SciPy is installed (the ``cheatrules[solver]`` extra), without importing it."""
    return importlib.util.find_spec("scipy") is not None


#: An amount of one kind of card: a linear sum of variables (column: coefficient) and a number.
_Amount = tuple[dict[int, int], int]
_ZERO: _Amount = ({}, 0)


def _sum(*amounts: _Amount, sign: int = 1) -> _Amount:
    """The first amount plus ``sign`` times each of the others."""
    terms: dict[int, int] = dict(amounts[0][0])
    constant = amounts[0][1]
    for terms_of, constant_of in amounts[1:]:
        for column, coefficient in terms_of.items():
            terms[column] = terms.get(column, 0) + sign * coefficient
        constant += sign * constant_of
    return terms, constant


class _Program:
    """Integer variables and linear constraints, gathered for :func:`scipy.optimize.milp`."""

    def __init__(self) -> None:
        self.low: list[int] = []
        self.high: list[int] = []
        self.row_low: list[float] = []
        self.row_high: list[float] = []
        self.entries: tuple[list[int], list[int], list[int]] = ([], [], [])
        self.impossible = False
        self._made: tuple[Any, list[Any]] | None = None  # SciPy's bounds and constraints

    def variable(self, high: int) -> _Amount:
        """A new whole number from 0 to ``high``, as an amount."""
        self.low.append(0)
        self.high.append(high)
        return {len(self.high) - 1: 1}, 0

    def between(self, amount: _Amount, low: float, high: float) -> None:
        """``low <= amount <= high``."""
        terms, constant = amount
        terms = {column: value for column, value in terms.items() if value}
        if not terms:
            self.impossible |= not low <= constant <= high
            return
        row = len(self.row_low)
        rows, columns, values = self.entries
        for column, value in terms.items():
            rows.append(row)
            columns.append(column)
            values.append(value)
        self.row_low.append(low - constant)
        self.row_high.append(high - constant)

    def equal(self, amount: _Amount, value: int) -> None:
        self.between(amount, value, value)

    def solve(self, rng: random.Random, seconds: float) -> list[int] | str:
        """A solution for a random objective, :data:`INFEASIBLE` or :data:`UNKNOWN`.

        Each objective gives every variable a weight drawn uniformly from -1
        to 1. The linear relaxation first: cards moving between places make
        a program whose corners are mostly whole numbers, and where the
        relaxation's best corner is whole it is the integer program's best
        too, found in a third of the time. A relaxation with no solution
        proves the program has none. Where the corner is not whole, the
        integer program gets a slice of time, and any whole solution it finds
        in it will do (the objective only picks among them); where it finds
        none, another objective, and a slice twice as long (the sampler's
        design page: some objectives take a view's solve from a second to
        twenty), the first :data:`_SLICE` seconds. In a large program the
        first objectives (:data:`_RELAXATIONS`) are tried by their
        relaxation alone. The integer program's "infeasible" is a proof too.
        """
        import numpy
        from scipy.optimize import Bounds, LinearConstraint, milp
        from scipy.sparse import coo_array

        if self.impossible:
            return INFEASIBLE
        count = len(self.high)
        if self._made is None:  # made once, for every sample of the view
            constraints = []
            if self.row_low:
                rows, columns, values = self.entries
                matrix = coo_array((values, (rows, columns)), shape=(len(self.row_low), count))
                constraints.append(LinearConstraint(matrix.tocsr(), self.row_low, self.row_high))
            self._made = Bounds(self.low, self.high), constraints
        bounds, constraints = self._made
        deadline = time.monotonic() + seconds
        relaxed, whole = numpy.zeros(count), numpy.ones(count)
        share, objectives = _SLICE, 0
        relaxations = _RELAXATIONS if count >= _RELAXED_FROM else 1
        while (left := deadline - time.monotonic()) > 0:
            costs = numpy.asarray([rng.uniform(-1, 1) for _ in range(count)])
            objectives += 1
            steps = [(relaxed, left)]
            if objectives >= relaxations:
                steps.append((whole, min(share, left)))
            for integrality, limit in steps:
                result = milp(
                    costs,
                    integrality=integrality,
                    bounds=bounds,
                    constraints=constraints,
                    options={"disp": False, "time_limit": max(limit, 0.001)},
                )
                if result.status == 2:
                    return INFEASIBLE
                if result.x is None:
                    break
                rounded = numpy.rint(result.x)
                if numpy.all(numpy.abs(result.x - rounded) < _WHOLE):
                    return [int(value) for value in rounded]
                left = deadline - time.monotonic()
            if objectives >= relaxations:
                share *= 2
        return UNKNOWN


#: The integer program's first slice of seconds for one objective (doubled at each next one).
_SLICE = 0.25

#: The objective from which the integer program follows a relaxation that is not whole, in a
#: program of :data:`_RELAXED_FROM` variables or more; before it, another objective's
#: relaxation is tried. Measured (the sampler's design page): a relaxation takes 50 to 90 ms
#: on a deep two-pack view, the integer program 150 to 350 ms, and most objectives'
#: relaxations are whole where the first is not, so the solver's 99th percentile there fell
#: from 490 ms to 180. A smaller program's integer program costs about what a relaxation
#: does, so there it follows the first (a uniformity test's position took twice as long).
_RELAXATIONS, _RELAXED_FROM = 3, 1500

#: How far from a whole number a relaxation's value may be and still count as one.
_WHOLE = 1e-6


class Model:
    """The program of one view, built event by event: made once, solved for each sample.

    ``seat``'s view is its log, ``events``, and the seat to move now,
    ``to_move``.
    """

    def __init__(
        self, rules: Rules, seat: int, events: Sequence[Event], to_move: int | None
    ) -> None:
        self.program = _Program()
        self.rules = rules
        self.seat = seat
        self.events = events
        self.to_move = to_move
        deck = rules.deck
        self.kinds: list[Card] = sorted(set(deck.cards()), key=lambda card: card.key)
        self.copies = {card: deck.card_copies(card) for card in self.kinds}
        dealt = events[0]
        assert isinstance(dealt, Dealt)
        self.dealt = dealt
        self.sizes = list(dealt.hand_sizes)
        self.deal: dict[int, dict[Card, _Amount]] = {}
        self.hands: dict[int, dict[Card, _Amount]] = {}
        self.taken: dict[int, list[dict[Card, _Amount]]] = {}
        self.plays: dict[int, dict[Card, _Amount]] = {}
        self._build()

    def _counts(self, total: int | None = None, most: int | None = None) -> dict[Card, _Amount]:
        """A count of each kind of card, up to its copies (or ``most``), adding up to ``total``."""
        program = self.program
        counts = {
            card: program.variable(
                self.copies[card] if most is None else min(most, self.copies[card])
            )
            for card in self.kinds
        }
        if total is not None:
            program.equal(_sum(_ZERO, *counts.values()), total)
        return counts

    def _in(self, seat: int, change: dict[Card, _Amount], count: int) -> None:
        """``count`` cards, ``change``, come into ``seat``'s hand (a sum, no new variable)."""
        self._settle(seat)
        self.sizes[seat] += count
        hand = self.hands[seat]
        self.hands[seat] = {card: _sum(hand[card], change.get(card, _ZERO)) for card in self.kinds}

    def _out(self, seat: int, change: dict[Card, _Amount], count: int) -> None:
        """``count`` cards, ``change``, leave ``seat``'s hand (held over to :meth:`_settle`)."""
        self.sizes[seat] -= count
        self.taken[seat].append(change)

    def _now(self, seat: int) -> dict[Card, _Amount]:
        """``seat``'s hand now: its counts at the last settling less what left it since."""
        hand, taken = self.hands[seat], self.taken[seat]
        return {
            card: _sum(hand[card], *(change.get(card, _ZERO) for change in taken), sign=-1)
            for card in self.kinds
        }

    def _settle(self, seat: int) -> None:
        """New counts for ``seat``'s hand, none below zero, where cards left it since the last.

        A hand only shrinks between the times it takes cards in, so its
        counts need saying only just before those and at the end: each
        group a seat lays is then in one such row, not in a row of its own,
        which keeps the program small. The new counts add up to the hand's
        size, a public fact: said outright, it lets the solver reason about
        the hand as a whole.
        """
        if not self.taken[seat]:
            return
        now = self._now(seat)
        after = self._counts(self.sizes[seat])
        for card in self.kinds:
            self.program.equal(_sum(after[card], now[card], sign=-1), 0)
        self.hands[seat] = after
        self.taken[seat] = []

    def _build(self) -> None:
        program = self.program
        dealt = self.dealt
        me = self.seat
        mine = Counter(dealt.hands[me])
        for seat, size in enumerate(dealt.hand_sizes):
            if seat != me:
                self.deal[seat] = self._counts(size)
                self.hands[seat] = self.deal[seat]
                self.taken[seat] = []
        self.aside = self._counts(dealt.set_aside_count)
        self.stock = [self._counts(1) for _ in range(dealt.stock_count)]
        unused = self.rules.deck.size - sum(dealt.hand_sizes)
        unused -= dealt.set_aside_count + dealt.stock_count
        self.unused = self._counts(unused)
        for card in self.kinds:
            places = [self.deal[seat][card] for seat in self.deal]
            places += [self.aside[card], self.unused[card], *(place[card] for place in self.stock)]
            program.equal(_sum(_ZERO, *places), self.copies[card] - mine[card])
        self._opening()
        self._follow()
        for seat in self.hands:
            self._settle(seat)

    def _follow(self) -> None:
        me = self.seat
        # Each group on the table: its counts (the seat's own cards, or variables) and size.
        table: list[tuple[dict[Card, _Amount], int]] = []
        drawn = 0
        checks = {
            after: (taker, ranks) for after, (_, taker, ranks) in _checks(self.rules, self.events)
        }
        shown = _shown_whole(self.events)
        for index, event in enumerate(self.events):
            if isinstance(event, Played):
                group: dict[Card, _Amount]
                if event.seat == me or index in shown:
                    known = Counter(event.cards if event.seat == me else shown[index])
                    group = {card: ({}, known[card]) for card in self.kinds}
                else:
                    group = self._counts(event.count, event.count)
                table.append((group, event.count))
                if event.seat != me:
                    self.plays[index] = group
                    self._out(event.seat, group, event.count)
            elif isinstance(event, Revealed):
                self._revealed(event, table[-2 if event.earlier else -1])
            elif isinstance(event, PileTaken):
                taken, table = table[: event.groups], table[event.groups :]
                self._taken(event, taken)
            elif isinstance(event, Drew):
                places = self.stock[drawn : drawn + event.count]
                drawn += event.count
                came = {
                    card: _sum(_ZERO, *(place[card] for place in places)) for card in self.kinds
                }
                if event.seat == me:
                    seen = Counter(event.cards)
                    for card in self.kinds:
                        self.program.equal(came[card], seen[card])
                else:
                    self._in(event.seat, came, event.count)
            elif isinstance(event, Discarded) and event.cards and event.seat != me:
                self._lowest(event)
                gone = Counter(event.cards)
                self._out(event.seat, {card: ({}, gone[card]) for card in gone}, len(event.cards))
            if index in checks and checks[index][0] != me:
                self._no_other_four(*checks[index])

    def _revealed(self, event: Revealed, laid: tuple[dict[Card, _Amount], int]) -> None:
        group, size = laid
        if event.seat == self.seat or len(event.cards) == size:
            return  # the seat's own group, or one turned over whole: known (_shown_whole)
        shown = Counter(event.cards)
        for card in shown:
            self.program.between(group[card], shown[card], self.copies[card])

    def _taken(self, event: PileTaken, taken: list[tuple[dict[Card, _Amount], int]]) -> None:
        pile = {
            card: _sum(_ZERO, *(group.get(card, _ZERO) for group, _ in taken))
            for card in self.kinds
        }
        if event.seat == self.seat:
            seen = Counter(event.cards)
            for card in self.kinds:
                self.program.equal(pile[card], seen[card])
        else:
            self._in(event.seat, pile, event.count)

    def _lowest(self, event: Discarded) -> None:
        """The fours set aside are the lowest copies of their rank in the hand (the engine's)."""
        hand = self._now(event.seat)
        gone = Counter(event.cards)
        for rank in set(event.ranks):
            kinds = [card for card in self.kinds if card.rank is rank]
            highest = max(index for index, card in enumerate(kinds) if gone[card])
            for card in kinds[:highest]:
                self.program.equal(hand[card], gone[card])

    def _no_other_four(self, taker: int, ranks: tuple[Rank, ...]) -> None:
        """Fours set aside unasked: the taker then held exactly the fours it set aside."""
        hand = self._now(taker)
        times = Counter(ranks)
        for rank in self.rules.deck.ranks:
            held = _sum(_ZERO, *(hand[card] for card in self.kinds if card.rank is rank))
            self.program.between(held, 4 * times[rank], 4 * times[rank] + 3)

    def _opening(self) -> None:
        """A :class:`HolderOf` opening: the first seat from the dealer's left holding its card."""
        opening = self.rules.opening
        if not isinstance(opening, HolderOf) or opening.card not in self.copies:
            return
        # The seat of the first decision: the first event's after the deal, or
        # the seat to move in a view of the deal alone.
        opener = next((getattr(e, "seat", None) for e in self.events[1:]), self.to_move)
        if opener is None:
            return
        card = opening.card
        copies = self.copies[card]
        players = self.rules.players
        dealer = self.dealt.dealer
        order = [(dealer + step) % players for step in range(1, players + 1)]
        held = {seat: self._held_at_deal(seat, card) for seat in order}
        before = order[: order.index(opener)]
        for seat in before:
            self.program.equal(held[seat], 0)
        if before:
            self.program.between(held[opener], 1, copies)
            return
        # The dealer's left opens: it holds the card (holds = 1), or nobody does.
        holds = self.program.variable(1)
        self.program.between(_sum(held[opener], holds, sign=-1), 0, copies)
        self.program.between(_sum(held[opener], _scaled(holds, copies), sign=-1), -copies, 0)
        for seat in order[1:]:
            self.program.between(_sum(held[seat], _scaled(holds, copies), sign=-1), -copies, 0)

    def _held_at_deal(self, seat: int, card: Card) -> _Amount:
        if seat == self.seat:
            return {}, Counter(self.dealt.hands[seat])[card]
        return self.deal[seat][card]

    # -- the answer -----------------------------------------------------------------

    def solve(self, rng: random.Random, seconds: float) -> World | str:
        """A candidate world, or :data:`INFEASIBLE` (proved), or :data:`UNKNOWN` after ``seconds``.

        ``rng`` draws the objective that picks the world; the same model and
        ``rng`` state give the same world.
        """
        values = self.program.solve(rng, seconds)
        if isinstance(values, str):
            return values
        return self.world(values)

    def world(self, values: list[int]) -> World:
        """The candidate game a solution gives."""

        def cards(counts: dict[Card, _Amount]) -> tuple[Card, ...]:
            chosen: list[Card] = []
            for card in self.kinds:
                terms, constant = counts[card]
                chosen += [card] * (constant + sum(values[c] * k for c, k in terms.items()))
            return tuple(chosen)

        hands = [
            tuple(self.dealt.hands[seat]) if seat == self.seat else cards(self.deal[seat])
            for seat in range(self.rules.players)
        ]
        stock = tuple(card for place in self.stock for card in cards(place))
        plays = tuple((index, cards(group)) for index, group in self.plays.items())
        return World(tuple(hands), cards(self.aside), stock, plays)


def _shown_whole(events: Sequence[Event]) -> dict[int, tuple[Card, ...]]:
    """The groups a check turned over whole, by the index of their ``Played`` event.

    Their cards are known, so the model holds them as numbers, not
    variables: in a long game most groups are.
    """
    shown: dict[int, tuple[Card, ...]] = {}
    table: list[tuple[int, int]] = []
    for index, event in enumerate(events):
        if isinstance(event, Played):
            table.append((index, event.count))
        elif isinstance(event, Revealed):
            played, count = table[-2 if event.earlier else -1]
            if len(event.cards) == count:
                shown[played] = event.cards
        elif isinstance(event, PileTaken):
            del table[: event.groups]
    return shown


def _scaled(amount: _Amount, factor: int) -> _Amount:
    terms, constant = amount
    return {column: factor * value for column, value in terms.items()}, factor * constant


def _checks(rules: Rules, events: Sequence[Event]) -> list[tuple[int, tuple[int, int, Any]]]:
    """Where fours are set aside unasked (:func:`~cheatrules._sampler.plan.fours_checks`)."""
    return list(fours_checks(events).items()) if rules.discards.compulsory else []


def solve(
    rules: Rules,
    seat: int,
    events: Sequence[Event],
    rng: random.Random,
    seconds: float,
    to_move: int | None = None,
) -> World | str:
    """A candidate world for the view, or :data:`INFEASIBLE` (proved), or :data:`UNKNOWN`.

    The :class:`Model` of the view, made and solved once (:meth:`Model.solve`).
    """
    return Model(rules, seat, events, to_move).solve(rng, seconds)
