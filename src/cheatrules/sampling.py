"""Whole games consistent with what one seat saw, for Monte-Carlo search.

:func:`sample` returns a complete :class:`~cheatrules.GameState` (deal and
history) that the seat could not tell from the real one: observing it from
that seat gives the very same observation, while the cards the seat did not
see are placed at random.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

import attrs

from cheatrules.actions import Accept, Action, Challenge, Discard, Pass, Play, Refuse
from cheatrules.cards import Card, Rank
from cheatrules.deal import deal
from cheatrules.errors import CheatRulesError
from cheatrules.events import (
    Accepted,
    Challenged,
    Dealt,
    Discarded,
    Drew,
    Passed,
    PileTaken,
    Played,
    Refused,
    Revealed,
)
from cheatrules.observation import Observation
from cheatrules.state import GameState

__all__ = ["SamplingError", "sample"]


class SamplingError(CheatRulesError):
    """No game consistent with an observation was found in the attempts allowed."""


def sample(seen: Observation, rng: random.Random, attempts: int = 2000) -> GameState:
    """A whole game the seat of ``seen`` could not tell from the real one.

    Returns a :class:`~cheatrules.GameState` whose deal and history agree
    with everything the seat saw, with the hidden cards placed at random:
    ``sample(seen, rng).observe(seen.seat) == seen``. The game has a fresh
    seed from ``rng``, which seeds the draws still to come; the cards the
    seat saw a check draw are scripted into it
    (:attr:`~cheatrules.GameState.draws`). Both are part of its value.

    Raises:
        SamplingError: no consistent game was found in ``attempts`` tries
            (only for very constrained logs; each try is cheap).

    """
    dealt = seen.events[0]
    if not isinstance(dealt, Dealt):
        raise CheatRulesError("an observation's log starts with the deal")
    plan = _Plan(seen, dealt)
    for _ in range(attempts):
        built = plan.attempt(rng)
        if built is None:
            continue
        hands, hidden, stock, actions = built
        # The draws the seat saw are scripted into the game; the draws still
        # to come are seeded by a fresh seed, so that samples draw apart as
        # the seat's uncertainty does. Both are part of the value.
        seed = rng.getrandbits(63)
        try:
            state = deal(
                seen.rules,
                seed=seed,
                dealer=dealt.dealer,
                hands=hands,
                hidden=hidden or None,
                stock=stock or None,
            )
            if plan.draws:
                state = attrs.evolve(state, draws=tuple(sorted(plan.draws.items())))
            for action in actions:
                state = state.apply(action)
        except CheatRulesError:
            continue
        if state.observe(seen.seat) == seen:
            return state
    raise SamplingError(
        f"found no game consistent with seat {seen.seat}'s view in {attempts} tries"
    )


class _Plan:
    """The shape of a seat's log, read once, from which random consistent games are drawn.

    Every card in play is a token; the observer's own tokens carry their
    identity from the start, the others get one when the log shows it (a
    group turned over, a pile the observer took, a four discarded) or, at the
    end, at random from the cards nobody saw. At each hidden play the
    player's tokens are drawn at random, steered by where the log says each
    known card must be next; a try that still contradicts the log is
    dropped, and a finished try is replayed through the engine and kept only
    if the observer's view of it is the real one.
    """

    def __init__(self, seen: Observation, dealt: Dealt) -> None:
        self.seen = seen
        self.seat = seen.seat
        self.dealt = dealt
        self.events = seen.events
        self.copies = Counter(seen.rules.deck.cards())
        self.pile_of: dict[int, int] = {}  # Played index -> pile number
        self.revealed: dict[int, tuple[Card, ...]] = {}  # Played index -> cards shown
        # The groups only partly turned over (a one-card check), and the card each
        # challenge's chance drew, by the moment it was drawn.
        self.partial: set[int] = set()
        self.draws: dict[int, Card] = {}
        self.ended: dict[int, tuple[int, int, tuple[Card, ...]]] = {}  # pile -> taker, index, cards
        # PileTaken index -> the cards of a final play kept on the table through it.
        self.kept: dict[int, int] = {}
        self.known_in: dict[int, Counter[Card]] = {}  # pile -> cards in it the observer knows
        # Where each card the log shows must be next: (event index, "seat" or "pile", which).
        self.needs: dict[Card, list[tuple[int, str, int]]] = {}
        groups: list[int] = []
        pile = 0
        for index, event in enumerate(self.events):
            if isinstance(event, Played):
                self.pile_of[index] = pile
                groups.append(index)
                if event.seat == self.seat:
                    self.known_in.setdefault(pile, Counter()).update(event.cards)
            elif isinstance(event, Revealed):
                group = groups[-2] if event.earlier else groups[-1]
                self.revealed[group] = event.cards
                if len(event.cards) < self.events[group].count:  # type: ignore[attr-defined]
                    self.partial.add(group)
                    self.draws[index - 1] = event.cards[0]
                if event.seat != self.seat:
                    self.known_in.setdefault(pile, Counter()).update(event.cards)
                for card in event.cards:
                    self._need(card, group, "seat", event.seat)
            elif isinstance(event, PileTaken):
                self.ended[pile] = (event.seat, index, event.cards)
                if event.seat == self.seat:
                    for card in event.cards:
                        self._need(card, index, "pile", pile)
                laid = [self.events[group] for group in groups]
                if event.count < sum(played.count for played in laid if isinstance(played, Played)):
                    # A final play kept apart while the claim beneath it was
                    # challenged: it stays on the table, the start of the next pile.
                    final, kept = groups[-1], laid[-1]
                    assert isinstance(kept, Played)
                    self.kept[index] = kept.count
                    self.pile_of[final] = pile + 1
                    if kept.seat == self.seat:
                        own = Counter(kept.cards)
                        self.known_in[pile] -= own
                        self.known_in.setdefault(pile + 1, Counter()).update(own)
                    pile, groups = pile + 1, [final]
                else:
                    pile, groups = pile + 1, []
            elif isinstance(event, Discarded):
                for card in event.cards:
                    self._need(card, index, "seat", event.seat)
        # Each hidden play, by player: (index, pile, who took that pile, when).
        self.hidden_plays: dict[int, list[tuple[int, int, int, int, int]]] = {}
        for index, event in enumerate(self.events):
            hidden = index not in self.revealed or index in self.partial
            if isinstance(event, Played) and event.seat != self.seat and hidden:
                pile = self.pile_of[index]
                taker, when, _ = self.ended.get(pile, (-1, len(self.events), ()))
                count = event.count - len(self.revealed.get(index, ()))
                self.hidden_plays.setdefault(event.seat, []).append(
                    (index, pile, taker, when, count)
                )

        # For each hidden play: how many cards the player must show later (turned
        # over or discarded) before it next takes a pile, that the log names
        # there for the first time. Those can only be cards nobody has
        # identified yet, so the player must keep that many unidentified.
        first_named: dict[Card, int] = {}
        for index, event in enumerate(self.events):
            for card in _named_cards(event, self.seat):
                first_named.setdefault(card, index)
        self.fresh_later: dict[int, int] = {}
        for plays in self.hidden_plays.values():
            for play, *_ in plays:
                seat = self.events[play].seat  # type: ignore[attr-defined]
                fresh = 0
                for later in range(play + 1, len(self.events)):
                    event = self.events[later]
                    if isinstance(event, PileTaken) and event.seat == seat:
                        break
                    shown: tuple[Card, ...] = ()
                    if isinstance(event, Played) and event.seat == seat:
                        shown = self.revealed.get(later, ())
                    elif isinstance(event, Discarded) and event.seat == seat:
                        shown = event.cards
                    # Named first at this showing (a group's cards are named by the
                    # Revealed event just after its Played event).
                    fresh += sum(1 for card in shown if first_named.get(card, later) >= later)
                self.fresh_later[play] = fresh

    def _need(self, card: Card, index: int, kind: str, which: int) -> None:
        self.needs.setdefault(card, []).append((index, kind, which))

    def _next_need(self, card: Card, index: int) -> tuple[int, str, int] | None:
        return next((need for need in self.needs.get(card, ()) if need[0] > index), None)

    def _chances(self, seat: int, after: int, need: tuple[int, str, int]) -> tuple[int, int]:
        """The later hidden plays of ``seat`` that carry a card straight to where it is needed.

        Returns how many there are, and how many cards they lay in all.
        """
        index, kind, which = need
        counts = [
            count
            for play, pile, taker, when, count in self.hidden_plays.get(seat, ())
            if after < play < index
            and (pile == which if kind == "pile" else taker == which and when < index)
        ]
        return len(counts), sum(counts)

    def attempt(
        self, rng: random.Random
    ) -> tuple[list[list[Card]], list[Card], list[Card], list[Action]] | None:
        """One random try: the hands, hidden cards, stock and actions, or None on a dead end."""
        bound: dict[int, Card] = {}
        used: Counter[Card] = Counter()
        holding: dict[int, list[int]] = {}
        token = 0
        initial: dict[int, list[int]] = {}
        for seat, size in enumerate(self.dealt.hand_sizes):
            holding[seat] = list(range(token, token + size))
            initial[seat] = list(holding[seat])
            token += size
        aside = list(range(token, token + self.dealt.set_aside_count))
        token += len(aside)
        stock = list(range(token, token + self.dealt.stock_count))
        token += len(stock)
        drawn = 0
        for index, card in zip(holding[self.seat], self.dealt.hands[self.seat], strict=True):
            bound[index] = card
            used[card] += 1

        def bind(item: int, card: Card) -> bool:
            if item in bound:
                return bound[item] == card
            if used[card] >= self.copies[card]:
                return False
            bound[item] = card
            used[card] += 1
            return True

        def match(items: list[int], cards: Iterable[Card]) -> bool:
            """Give ``items`` exactly the identities ``cards``."""
            wanted = Counter(cards)
            free = []
            for item in items:
                if item in bound:
                    if wanted[bound[item]] <= 0:
                        return False
                    wanted[bound[item]] -= 1
                else:
                    free.append(item)
            rest = list(wanted.elements())
            return len(rest) == len(free) and all(map(bind, free, rest))

        table: list[int] = []
        actions: list[Action | _Laid] = []
        for index, event in enumerate(self.events):
            if isinstance(event, Played):
                chosen = self._choose(index, event, holding, bound, table, rng)
                if chosen is None:
                    return None
                for item in chosen:
                    holding[event.seat].remove(item)
                table.extend(chosen)
                shown = self.revealed.get(index)
                if event.seat != self.seat and shown and not match(chosen[: len(shown)], shown):
                    return None
                actions.append(_Laid(tuple(chosen), event.rank))
            elif isinstance(event, PileTaken):
                kept = self.kept.get(index, 0)
                taken, table = table[: len(table) - kept], table[len(table) - kept :]
                if event.seat == self.seat and not match(taken, event.cards):
                    return None
                holding[event.seat].extend(taken)
            elif isinstance(event, Discarded):
                hand = holding[event.seat]
                picked = _pick(hand, event.cards, bound, rng, identify=True)
                if picked is None or not match(picked, event.cards):
                    return None
                for item in picked:
                    hand.remove(item)
                if not event.forced:
                    actions.append(Discard(event.ranks))
            elif isinstance(event, Drew):
                items = stock[drawn : drawn + event.count]
                drawn += event.count
                if event.seat == self.seat and not match(items, event.cards):
                    return None
                holding[event.seat].extend(items)
            elif isinstance(event, Challenged):
                actions.append(Challenge(earlier=event.earlier))
            elif isinstance(event, Accepted):
                actions.append(Accept())
            elif isinstance(event, Passed):
                actions.append(Pass())
            elif isinstance(event, Refused):
                actions.append(Refuse())
        pool = list((Counter(self.seen.rules.deck.cards()) - used).elements())
        rng.shuffle(pool)
        free = [item for item in range(token) if item not in bound]
        if len(pool) < len(free):
            return None
        for item, card in zip(free, pool, strict=False):
            bound[item] = card
        hands = [[bound[item] for item in initial[seat]] for seat in range(len(initial))]
        real: list[Action] = []
        for action in actions:
            if isinstance(action, _Laid):
                real.append(Play(tuple(bound[item] for item in action.items), action.rank))
            else:
                real.append(action)
        return hands, [bound[item] for item in aside], [bound[item] for item in stock], real

    def _choose(
        self,
        index: int,
        event: Played,
        holding: dict[int, list[int]],
        bound: dict[int, Card],
        table: list[int],
        rng: random.Random,
    ) -> list[int] | None:
        """Which of the player's tokens went into this group, or None on a dead end."""
        hand = holding[event.seat]
        wanted = event.cards if event.seat == self.seat else self.revealed.get(index)
        if wanted is not None:
            # Known cards: the player's token for each, else one not yet identified.
            known = _pick(hand, wanted, bound, rng, identify=event.seat != self.seat)
            if known is None or index not in self.partial or event.seat == self.seat:
                return known  # the whole group (the observer knows its own cards)
            # A one-card check showed part of the group; the rest is hidden.
            rest = [item for item in hand if item not in known]
            others = self._hidden(index, event, rest, bound, table, rng, event.count - len(known))
            return None if others is None else known + others
        return self._hidden(index, event, hand, bound, table, rng, event.count)

    def _hidden(
        self,
        index: int,
        event: Played,
        hand: list[int],
        bound: dict[int, Card],
        table: list[int],
        rng: random.Random,
        count: int,
    ) -> list[int] | None:
        """``count`` tokens from ``hand`` for cards laid unseen, or None on a dead end."""
        pile = self.pile_of[index]
        ended = self.ended.get(pile)
        room: Counter[Card] | None = None
        if ended is not None and ended[0] == self.seat:
            # The observer takes this pile later and sees all of it.
            room = Counter(ended[2]) - self.known_in.get(pile, Counter())
            room -= Counter(bound[i] for i in table if i in bound)
        must: list[int] = []
        free: list[int] = []
        unknown: list[int] = []  # kept back as far as the player's later showings need them
        fallback: list[int] = []  # laid only when nothing else is left
        waiting: dict[tuple[int, str, int], list[int]] = {}
        for item in hand:
            identity = bound.get(item)
            if identity is None:
                unknown.append(item)
                continue
            if room is not None and room[identity] <= 0:
                continue  # the observer would have seen it in the pile
            need = self._next_need(identity, index)
            if need is None:
                free.append(item)
                continue
            when, kind, which = need
            if kind == "seat" and which == event.seat:
                # The player shows it later: it stays, unless this pile comes back first.
                comes_back = ended is not None and ended[0] == event.seat and ended[1] < when
                (free if comes_back else fallback).append(item)
                continue
            direct = (
                (which == pile)
                if kind == "pile"
                else (ended is not None and ended[0] == which and ended[1] < when)
            )
            plays, _ = self._chances(event.seat, index, need)
            if direct:
                # Lay it now, or at one of the later plays that would also carry it there.
                (must if rng.randrange(plays + 1) == 0 else free).append(item)
            elif plays:
                waiting.setdefault(need, []).append(item)
            else:
                free.append(item)  # it can only get there by a longer way round
        for need, items in waiting.items():
            # Later plays carry some of these straight there; the rest go round.
            _, room_later = self._chances(event.seat, index, need)
            rng.shuffle(items)
            excess = max(0, len(items) - room_later)
            free.extend(items[:excess])
            fallback.extend(items[excess:])
        if len(must) > count:
            return None
        rng.shuffle(unknown)
        spare = max(0, len(unknown) - self.fresh_later.get(index, 0))
        free.extend(unknown[:spare])
        rng.shuffle(free)
        rng.shuffle(fallback)
        fallback.extend(unknown[spare:])  # the last resort: cards it must show later
        chosen = must + (free + fallback)[: count - len(must)]
        return chosen if len(chosen) == count else None


def _named_cards(event: object, seat: int) -> tuple[Card, ...]:
    """The cards an event names in the observer's log (its own plays, shows, its pickups)."""
    if isinstance(event, Dealt):
        return event.hands[seat]
    if isinstance(event, (Played, Revealed, PileTaken, Discarded)):
        return event.cards
    return ()


def _pick(
    hand: list[int],
    cards: Iterable[Card],
    bound: dict[int, Card],
    rng: random.Random,
    identify: bool,
) -> list[int] | None:
    """Tokens from ``hand`` for ``cards``: each card's known token, else a random unknown one."""
    unknown = [item for item in hand if item not in bound]
    rng.shuffle(unknown)
    chosen: list[int] = []
    for card in cards:
        item = next((i for i in hand if bound.get(i) == card and i not in chosen), None)
        if item is None and identify:
            item = next((i for i in unknown if i not in chosen), None)
        if item is None:
            return None
        chosen.append(item)
    return chosen


@attrs.frozen
class _Laid:
    """A play whose card identities are decided at the end of an attempt."""

    items: tuple[int, ...]
    rank: Rank
