"""A view's hidden cards as a constraint model, solved exactly by OR-Tools' CP-SAT.

The optional extra ``cheatrules[solver]`` installs OR-Tools. The model
counts, for every kind of card, how many copies each place holds: each
other seat's hand at the deal, the cards set aside, each place of the stock,
the deck's cards nobody was dealt, and each group another seat laid. A
hand's count of a card after each thing that moves it (a play, a pickup, a
draw, a discard) is a variable of its own that may not go below zero, so a
group takes only cards its player held. The facts of the seat's log are
constraints: the seat's own cards, the cards a check turned over (all of a
group, or at least those), the cards of a pile the seat took, its own
draws, the fours set aside (the lowest copies of their rank, as the engine
takes them) and, where the rules set fours aside unasked, that a taker
holds no other four. A :class:`~cheatrules.policies.HolderOf` opening
adds who held its card at the deal.

Every constraint is one no real game can break, so when the solver proves
the model infeasible, no game gives the view: that is the proof behind a
plain :class:`~cheatrules.sampling.SamplingError`. A solution is only a
candidate: the sampler replays it through the engine, which has the last
word (a policy of one's own may decide something the model does not say,
an opening say), and asks again, with another seed, where the engine
disagrees.

The solver's answer is randomized by its seed and by a hint: a deal of the
unseen cards drawn at random, which the solver starts from. It is not
uniform over the games the seat cannot tell apart (see the seat-view guide
for how far from it).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from cheatrules._sampler.plan import fours_checks
from cheatrules.cards import Card
from cheatrules.events import Dealt, Discarded, Drew, Event, PileTaken, Played, Revealed
from cheatrules.policies.dealing import HolderOf
from cheatrules.rules import Rules

__all__ = ["INFEASIBLE", "UNKNOWN", "World", "solve"]

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


def available() -> bool:
    """Whether OR-Tools is installed (the ``cheatrules[solver]`` extra)."""
    try:
        import ortools.sat.python.cp_model  # noqa: F401
    except ImportError:
        return False
    return True


class _Model:
    """The model of one view, built event by event."""

    def __init__(
        self, rules: Rules, seat: int, events: Sequence[Event], to_move: int | None
    ) -> None:
        from ortools.sat.python import cp_model

        self.cp = cp_model
        self.model = cp_model.CpModel()
        self.rules = rules
        self.seat = seat
        self.events = events
        deck = rules.deck
        self.kinds: list[Card] = sorted(set(deck.cards()), key=lambda card: card.key)
        self.copies = {card: deck.card_copies(card) for card in self.kinds}
        dealt = events[0]
        assert isinstance(dealt, Dealt)
        self.dealt = dealt
        self.deal: dict[int, dict[Card, Any]] = {}
        self.hands: dict[int, dict[Card, Any]] = {}
        self.stock: list[dict[Card, Any]] = []
        self.plays: dict[int, dict[Card, Any]] = {}
        self.to_move = to_move
        self._build()

    # -- variables ------------------------------------------------------------------

    def _counts(
        self, name: str, total: int | None = None, most: int | None = None
    ) -> dict[Card, Any]:
        """A count of each kind of card, up to its copies (or ``most``), adding up to ``total``."""
        model = self.model
        counts = {
            card: model.new_int_var(0, min(self.copies[card], self._most(most)), f"{name}:{card}")
            for card in self.kinds
        }
        if total is not None:
            model.add(sum(counts.values()) == total)
        return counts

    @staticmethod
    def _most(most: int | None) -> int:
        return 1 << 30 if most is None else most

    def _moved(self, seat: int, change: dict[Card, Any], sign: int, name: str) -> None:
        """``seat``'s hand after ``change`` comes in (``sign`` 1) or goes out (-1): new counts."""
        hand = self.hands[seat]
        after = self._counts(name)
        for card in self.kinds:
            moved = change.get(card, 0)
            self.model.add(after[card] == hand[card] + sign * moved)
        self.hands[seat] = after

    # -- the model ------------------------------------------------------------------

    def _build(self) -> None:
        model = self.model
        dealt = self.dealt
        me = self.seat
        mine = Counter(dealt.hands[me])
        for seat, size in enumerate(dealt.hand_sizes):
            if seat != me:
                self.deal[seat] = self._counts(f"deal {seat}", size)
                self.hands[seat] = self.deal[seat]
        self.aside = self._counts("aside", dealt.set_aside_count)
        self.stock = [self._counts(f"stock {place}", 1) for place in range(dealt.stock_count)]
        unused = self.rules.deck.size - sum(dealt.hand_sizes)
        unused -= dealt.set_aside_count + dealt.stock_count
        self.unused = self._counts("unused", unused)
        for card in self.kinds:
            placed = [self.deal[seat][card] for seat in self.deal]
            placed += [self.aside[card], self.unused[card], *(place[card] for place in self.stock)]
            model.add(sum(placed) + mine[card] == self.copies[card])
        self._opening()
        self._follow()

    def _follow(self) -> None:
        me = self.seat
        # Each group on the table: its counts (the seat's own cards, or variables) and size.
        table: list[tuple[dict[Card, Any], int]] = []
        drawn = 0
        checks = _fours_checks(self.rules, self.events)
        for index, event in enumerate(self.events):
            if isinstance(event, Played):
                if event.seat == me:
                    table.append((dict(Counter(event.cards)), event.count))
                else:
                    group = self._counts(f"group {index}", event.count, event.count)
                    self.plays[index] = group
                    table.append((group, event.count))
                    self._moved(event.seat, group, -1, f"after {index}")
            elif isinstance(event, Revealed):
                self._revealed(event, table[-2 if event.earlier else -1])
            elif isinstance(event, PileTaken):
                taken, table = table[: event.groups], table[event.groups :]
                self._taken(index, event, taken)
            elif isinstance(event, Drew):
                places = self.stock[drawn : drawn + event.count]
                drawn += event.count
                if event.seat == me:
                    for card, count in Counter(event.cards).items():
                        self.model.add(sum(place[card] for place in places) == count)
                else:
                    came = {card: sum(place[card] for place in places) for card in self.kinds}
                    self._moved(event.seat, came, 1, f"after {index}")
            elif isinstance(event, Discarded) and event.cards and event.seat != me:
                self._lowest(event)
                self._moved(event.seat, dict(Counter(event.cards)), -1, f"after {index}")
            if index in checks and checks[index][0] != me:
                self._no_other_four(*checks[index])

    def _revealed(self, event: Revealed, laid: tuple[dict[Card, Any], int]) -> None:
        if event.seat == self.seat:
            return  # the seat's own group: known
        group, size = laid
        shown = Counter(event.cards)
        whole = len(event.cards) == size
        for card in self.kinds:
            if whole:
                self.model.add(group[card] == shown[card])
            elif shown[card]:
                self.model.add(group[card] >= shown[card])

    def _taken(
        self, index: int, event: PileTaken, taken: list[tuple[dict[Card, Any], int]]
    ) -> None:
        pile = {card: sum(group.get(card, 0) for group, _ in taken) for card in self.kinds}
        if event.seat == self.seat:
            seen = Counter(event.cards)
            for card in self.kinds:
                self.model.add(pile[card] == seen[card])
        else:
            self._moved(event.seat, pile, 1, f"after {index}")

    def _lowest(self, event: Discarded) -> None:
        """The fours set aside are the lowest copies of their rank in the hand (the engine's)."""
        hand = self.hands[event.seat]
        gone = Counter(event.cards)
        for rank in set(event.ranks):
            kinds = [card for card in self.kinds if card.rank is rank]
            highest = max(index for index, card in enumerate(kinds) if gone[card])
            for card in kinds[:highest]:
                self.model.add(hand[card] == gone[card])

    def _no_other_four(self, taker: int, ranks: tuple[Any, ...]) -> None:
        """Fours set aside unasked: the taker then held exactly the fours it set aside."""
        hand = self.hands[taker]
        times = Counter(ranks)
        for rank in self.rules.deck.ranks:
            held = sum(hand[card] for card in self.kinds if card.rank is rank)
            self.model.add(held >= 4 * times[rank])
            self.model.add(held <= 4 * times[rank] + 3)

    def _opening(self) -> None:
        """A :class:`HolderOf` opening: the first seat from the dealer's left holding its card."""
        opening = self.rules.opening
        if not isinstance(opening, HolderOf):
            return
        # The seat of the first decision: the first event's after the deal, or
        # the seat to move in a view of the deal alone.
        opener = next((getattr(e, "seat", None) for e in self.events[1:]), self.to_move)
        if opener is None:
            return
        card = opening.card
        players = self.rules.players
        dealer = self.dealt.dealer
        order = [(dealer + step) % players for step in range(1, players + 1)]
        held = {seat: self._held_at_deal(seat, card) for seat in order}
        before = order[: order.index(opener)]
        for seat in before:
            self.model.add(held[seat] == 0)
        if before:
            self.model.add(held[opener] >= 1)
            return
        # The dealer's left opens: it holds the card, or nobody does.
        holds = self.model.new_bool_var("opener holds")
        self.model.add(held[opener] >= 1).only_enforce_if(holds)
        self.model.add(held[opener] == 0).only_enforce_if(holds.negated())
        for seat in order[1:]:
            self.model.add(held[seat] == 0).only_enforce_if(holds.negated())

    def _held_at_deal(self, seat: int, card: Card) -> Any:
        if seat == self.seat:
            return Counter(self.dealt.hands[seat])[card]
        return self.deal[seat][card] if card in self.copies else 0

    # -- solving ----------------------------------------------------------------------

    def exclude(self, world: World) -> None:
        """Ask for a world whose deal or plays differ from ``world``'s somewhere."""
        model = self.model
        differs = []
        pairs = [(self.deal[seat], Counter(world.hands[seat])) for seat in self.deal]
        pairs += [(self.plays[index], Counter(cards)) for index, cards in world.plays]
        for counts, chosen in pairs:
            for card in self.kinds:
                other = model.new_bool_var("")
                model.add(counts[card] != chosen[card]).only_enforce_if(other)
                differs.append(other)
        model.add_bool_or(differs)

    def hint(self, rng: random.Random) -> None:
        """Start the solver from the unseen cards dealt at random (a hint, not a constraint)."""
        unseen: list[Card] = []
        mine = Counter(self.dealt.hands[self.seat])
        for card in self.kinds:
            unseen += [card] * (self.copies[card] - mine[card])
        rng.shuffle(unseen)
        start = 0
        for seat in sorted(self.deal):
            size = self.dealt.hand_sizes[seat]
            dealt = Counter(unseen[start : start + size])
            start += size
            for card in self.kinds:
                self.model.add_hint(self.deal[seat][card], dealt[card])

    def world(self, solver: Any) -> World:
        """The candidate game the solver's answer gives."""

        def cards(counts: dict[Card, Any]) -> tuple[Card, ...]:
            chosen: list[Card] = []
            for card in self.kinds:
                chosen += [card] * solver.value(counts[card])
            return tuple(chosen)

        hands = [
            tuple(self.dealt.hands[seat]) if seat == self.seat else cards(self.deal[seat])
            for seat in range(self.rules.players)
        ]
        stock = tuple(card for place in self.stock for card in cards(place))
        plays = tuple((index, cards(group)) for index, group in self.plays.items())
        return World(tuple(hands), cards(self.aside), stock, plays)


def _fours_checks(rules: Rules, events: Sequence[Event]) -> dict[int, tuple[int, tuple[Any, ...]]]:
    """Where fours are set aside unasked: after which event, the taker, and the ranks set aside."""
    if not rules.discards.compulsory:
        return {}
    return {after: (taker, ranks) for after, (_, taker, ranks) in fours_checks(events).items()}


def solve(
    rules: Rules,
    seat: int,
    events: Sequence[Event],
    rng: random.Random,
    seconds: float,
    cuts: Sequence[World] = (),
    to_move: int | None = None,
) -> World | str:
    """A candidate world for the view, or :data:`INFEASIBLE` (proved), or :data:`UNKNOWN`.

    ``seat``'s view is its log, ``events``, and the seat to move now,
    ``to_move``. ``cuts`` are worlds the engine refused: the solver is asked
    for another.
    """
    model = _Model(rules, seat, events, to_move)
    for world in cuts:
        model.exclude(world)
    model.hint(rng)
    cp_model = model.cp
    solver = cp_model.CpSolver()
    parameters = solver.parameters
    parameters.max_time_in_seconds = max(seconds, 0.001)
    parameters.num_workers = 1  # the same view and seed give the same world
    parameters.random_seed = rng.randrange(1 << 30)
    parameters.randomize_search = True
    status = solver.solve(model.model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return model.world(solver)
    if status == cp_model.INFEASIBLE:
        return INFEASIBLE
    return UNKNOWN
