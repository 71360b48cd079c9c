"""Sampling by random tries: the fallback for decks with several copies of a card.

:func:`cheatrules.sampling.sample` searches the hidden cards of a seat's view
in order; with several packs it does not yet steer a card's copies to where
the log names them later, and may give up. There, :func:`sample_by_tries`
draws the hidden cards at random, one whole game per try, and keeps the
first that the seat could not tell from the real one.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

import attrs

from cheatrules.actions import Accept, Action, Challenge, Discard, Pass, Play, Refuse
from cheatrules.cards import Card, Rank
from cheatrules.errors import CheatRulesError
from cheatrules.events import (
    Accepted,
    Challenged,
    Dealt,
    Discarded,
    Drew,
    Event,
    Passed,
    PileTaken,
    Played,
    Refused,
    Revealed,
)
from cheatrules.observation import Observation
from cheatrules.state import GameState

__all__ = ["replayed", "sample_by_tries"]


def replayed(
    seen: Observation,
    hands: list[list[Card]],
    hidden: list[Card],
    stock: list[Card],
    draws: dict[int, Card],
    actions: Iterable[Action],
    rng: random.Random,
) -> GameState | None:
    """The game these cards and ``actions`` make, if ``seen``'s seat sees it as ``seen``; else None.

    The draws the seat saw are scripted into the game; the draws still to
    come are seeded by a fresh seed from ``rng``, so that samples draw apart
    as the seat's uncertainty does. Both are part of the value.
    """
    dealt = seen.events[0]
    assert isinstance(dealt, Dealt)
    seed = rng.getrandbits(63)
    # The cards come from the deck's own copies, one token each, so the
    # checks deal() makes of fixed hands are already met: deal them directly.
    state = GameState._dealt(
        seen.rules,
        tuple(tuple(sorted(hand)) for hand in hands),
        seed=seed,
        dealer=dealt.dealer,
        set_aside=tuple(hidden),
        stock=tuple(stock),
    )
    if draws:
        state = attrs.evolve(state, draws=tuple(sorted(draws.items())))
    try:
        for action in actions:
            state = state.apply(action)
    except CheatRulesError:
        return None
    return state if state.observe(seen.seat) == seen else None


def sample_by_tries(seen: Observation, rng: random.Random, attempts: int) -> GameState | None:
    """A whole game the seat of ``seen`` could not tell from the real one, or ``None``.

    As :func:`cheatrules.sampling.sample` returns, found by up to
    ``attempts`` random tries (``None`` if none gave the view).
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
        state = replayed(seen, hands, hidden, stock, plan.draws, actions, rng)
        if state is not None:
            return state
    return None


#: One try's result: the hands dealt, the hidden cards, the stock and the actions.
_Built = tuple[list[list[Card]], list[Card], list[Card], list[Action]]


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
        self._read_piles()
        # Each hidden play, by player: (index, pile, who took that pile, when, cards unseen).
        self.hidden_plays = self._hidden_plays()
        # For each hidden play: how many cards the player must show later (turned
        # over or discarded) before it next takes a pile, that the log names
        # there for the first time. Those can only be cards nobody has
        # identified yet, so the player must keep that many unidentified.
        self.fresh_later = self._fresh_later()

    def _read_piles(self) -> None:
        """Follow the log's piles: the groups in each, what was shown and who took it."""
        groups: list[int] = []
        pile = 0
        for index, event in enumerate(self.events):
            if isinstance(event, Played):
                self.pile_of[index] = pile
                groups.append(index)
                if event.seat == self.seat:
                    self.known_in.setdefault(pile, Counter()).update(event.cards)
            elif isinstance(event, Revealed):
                self._read_revealed(index, event, groups, pile)
            elif isinstance(event, PileTaken):
                pile, groups = self._read_pickup(index, event, groups, pile)
            elif isinstance(event, Discarded):
                for card in event.cards:
                    self._need(card, index, "seat", event.seat)

    def _read_revealed(self, index: int, event: Revealed, groups: list[int], pile: int) -> None:
        """A group turned over: its cards, known to all, were in its player's hand."""
        group = groups[-2] if event.earlier else groups[-1]
        self.revealed[group] = event.cards
        if len(event.cards) < self.events[group].count:  # type: ignore[attr-defined]
            self.partial.add(group)
            self.draws[index - 1] = event.cards[0]
        if event.seat != self.seat:
            self.known_in.setdefault(pile, Counter()).update(event.cards)
        for card in event.cards:
            self._need(card, group, "seat", event.seat)

    def _read_pickup(
        self, index: int, event: PileTaken, groups: list[int], pile: int
    ) -> tuple[int, list[int]]:
        """A pile taken; returns the next pile's number and the groups already in it."""
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
            return pile + 1, [final]
        return pile + 1, []

    def _hidden_plays(self) -> dict[int, list[tuple[int, int, int, int, int]]]:
        """Each play whose cards the observer did not all see, by player."""
        hidden_plays: dict[int, list[tuple[int, int, int, int, int]]] = {}
        for index, event in enumerate(self.events):
            hidden = index not in self.revealed or index in self.partial
            if isinstance(event, Played) and event.seat != self.seat and hidden:
                pile = self.pile_of[index]
                taker, when, _ = self.ended.get(pile, (-1, len(self.events), ()))
                count = event.count - len(self.revealed.get(index, ()))
                hidden_plays.setdefault(event.seat, []).append((index, pile, taker, when, count))
        return hidden_plays

    def _fresh_later(self) -> dict[int, int]:
        """For each hidden play, the cards its player shows later, named there first."""
        first_named: dict[Card, int] = {}
        for index, event in enumerate(self.events):
            for card in _named_cards(event, self.seat):
                first_named.setdefault(card, index)
        fresh_later: dict[int, int] = {}
        for plays in self.hidden_plays.values():
            for play, *_ in plays:
                fresh_later[play] = self._fresh_after(play, first_named)
        return fresh_later

    def _fresh_after(self, play: int, first_named: dict[Card, int]) -> int:
        """The cards the player of ``play`` shows before its next pickup, named there first."""
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
        return fresh

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

    def attempt(self, rng: random.Random) -> _Built | None:
        """One random try: the hands, hidden cards, stock and actions, or None on a dead end."""
        trial = _Attempt(self, rng)
        for index, event in enumerate(self.events):
            if not trial.follow(index, event):
                return None
        return trial.finish()

    def choose(
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
        heaps = self._sort_hand(index, event, hand, bound, table, rng)
        for need, items in heaps.waiting.items():
            # Later plays carry some of these straight there; the rest go round.
            _, room_later = self._chances(event.seat, index, need)
            rng.shuffle(items)
            excess = max(0, len(items) - room_later)
            heaps.free.extend(items[:excess])
            heaps.fallback.extend(items[excess:])
        must, free, unknown, fallback = heaps.must, heaps.free, heaps.unknown, heaps.fallback
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

    def _sort_hand(
        self,
        index: int,
        event: Played,
        hand: list[int],
        bound: dict[int, Card],
        table: list[int],
        rng: random.Random,
    ) -> _Heaps:
        """The player's tokens sorted by how readily each goes into this unseen group."""
        pile = self.pile_of[index]
        ended = self.ended.get(pile)
        room = self._room(pile, ended, bound, table)
        heaps = _Heaps()
        for item in hand:
            identity = bound.get(item)
            if identity is None:
                heaps.unknown.append(item)
            elif room is None or room[identity] > 0:  # else the observer saw it not in the pile
                self._heap_for(heaps, identity, index, event, ended, rng).append(item)
        return heaps

    def _room(
        self,
        pile: int,
        ended: tuple[int, int, tuple[Card, ...]] | None,
        bound: dict[int, Card],
        table: list[int],
    ) -> Counter[Card] | None:
        """The cards still unaccounted for in a pile the observer takes later, else None."""
        if ended is None or ended[0] != self.seat:
            return None
        # The observer takes this pile later and sees all of it.
        room = Counter(ended[2]) - self.known_in.get(pile, Counter())
        room -= Counter(bound[i] for i in table if i in bound)
        return room

    def _heap_for(
        self,
        heaps: _Heaps,
        identity: Card,
        index: int,
        event: Played,
        ended: tuple[int, int, tuple[Card, ...]] | None,
        rng: random.Random,
    ) -> list[int]:
        """The heap of ``heaps`` a token known to be ``identity`` goes to."""
        need = self._next_need(identity, index)
        if need is None:
            return heaps.free
        when, kind, which = need
        if kind == "seat" and which == event.seat:
            # The player shows it later: it stays, unless this pile comes back first.
            comes_back = ended is not None and ended[0] == event.seat and ended[1] < when
            return heaps.free if comes_back else heaps.fallback
        direct = (
            (which == self.pile_of[index])
            if kind == "pile"
            else (ended is not None and ended[0] == which and ended[1] < when)
        )
        plays, _ = self._chances(event.seat, index, need)
        if direct:
            # Lay it now, or at one of the later plays that would also carry it there.
            return heaps.must if rng.randrange(plays + 1) == 0 else heaps.free
        if plays:
            return heaps.waiting.setdefault(need, [])
        return heaps.free  # it can only get there by a longer way round


@attrs.define
class _Heaps:
    """A player's tokens sorted for an unseen group, from the first to go to the last."""

    must: list[int] = attrs.Factory(list)  # known cards to lay here now
    free: list[int] = attrs.Factory(list)  # known cards free to go anywhere
    # Unidentified cards, kept back as far as the player's later showings need them.
    unknown: list[int] = attrs.Factory(list)
    fallback: list[int] = attrs.Factory(list)  # laid only when nothing else is left
    # Known cards that later plays could carry to where they are needed, by that need.
    waiting: dict[tuple[int, str, int], list[int]] = attrs.Factory(dict)


class _Attempt:
    """One random try at a consistent game: the tokens, who holds them, and the actions so far.

    Tokens are numbered: each seat's hand as dealt, then the cards set aside,
    then the stock. ``bound`` gives the tokens identified so far their cards.
    """

    def __init__(self, plan: _Plan, rng: random.Random) -> None:
        self.plan = plan
        self.rng = rng
        self.bound: dict[int, Card] = {}
        self.used: Counter[Card] = Counter()
        self.holding: dict[int, list[int]] = {}
        self.initial: dict[int, list[int]] = {}
        dealt = plan.dealt
        token = 0
        for seat, size in enumerate(dealt.hand_sizes):
            self.holding[seat] = list(range(token, token + size))
            self.initial[seat] = list(self.holding[seat])
            token += size
        self.aside = list(range(token, token + dealt.set_aside_count))
        token += len(self.aside)
        self.stock = list(range(token, token + dealt.stock_count))
        token += len(self.stock)
        self.tokens = token
        self.drawn = 0
        self.table: list[int] = []
        self.actions: list[Action | _Laid] = []
        for index, card in zip(self.holding[plan.seat], dealt.hands[plan.seat], strict=True):
            self.bound[index] = card
            self.used[card] += 1

    def bind(self, item: int, card: Card) -> bool:
        """Give ``item`` the identity ``card``, if it has no other and a copy is left."""
        if item in self.bound:
            return self.bound[item] == card
        if self.used[card] >= self.plan.copies[card]:
            return False
        self.bound[item] = card
        self.used[card] += 1
        return True

    def match(self, items: list[int], cards: Iterable[Card]) -> bool:
        """Give ``items`` exactly the identities ``cards``."""
        wanted = Counter(cards)
        free = []
        for item in items:
            if item in self.bound:
                if wanted[self.bound[item]] <= 0:
                    return False
                wanted[self.bound[item]] -= 1
            else:
                free.append(item)
        rest = list(wanted.elements())
        return len(rest) == len(free) and all(map(self.bind, free, rest))

    def follow(self, index: int, event: Event) -> bool:
        """Move the tokens as ``event`` says; False on a dead end."""
        if isinstance(event, Played):
            return self.played(index, event)
        if isinstance(event, PileTaken):
            return self.pile_taken(index, event)
        if isinstance(event, Discarded):
            return self.discarded(event)
        if isinstance(event, Drew):
            return self.drew(event)
        if isinstance(event, Challenged):
            self.actions.append(Challenge(earlier=event.earlier))
        elif isinstance(event, Accepted):
            self.actions.append(Accept())
        elif isinstance(event, Passed):
            self.actions.append(Pass())
        elif isinstance(event, Refused):
            self.actions.append(Refuse())
        return True

    def played(self, index: int, event: Played) -> bool:
        """Choose the tokens the player laid, matching any the log showed."""
        plan = self.plan
        chosen = plan.choose(index, event, self.holding, self.bound, self.table, self.rng)
        if chosen is None:
            return False
        for item in chosen:
            self.holding[event.seat].remove(item)
        self.table.extend(chosen)
        shown = plan.revealed.get(index)
        if event.seat != plan.seat and shown and not self.match(chosen[: len(shown)], shown):
            return False
        self.actions.append(_Laid(tuple(chosen), event.rank))
        return True

    def pile_taken(self, index: int, event: PileTaken) -> bool:
        """The taker's tokens gain the pile (but a final play kept on the table)."""
        kept = self.plan.kept.get(index, 0)
        table = self.table
        taken, self.table = table[: len(table) - kept], table[len(table) - kept :]
        if event.seat == self.plan.seat and not self.match(taken, event.cards):
            return False
        self.holding[event.seat].extend(taken)
        return True

    def discarded(self, event: Discarded) -> bool:
        """The player's tokens for the fours set aside leave its hand."""
        hand = self.holding[event.seat]
        picked = _pick(hand, event.cards, self.bound, self.rng, identify=True)
        if picked is None or not self.match(picked, event.cards):
            return False
        for item in picked:
            hand.remove(item)
        if not event.forced:
            self.actions.append(Discard(event.ranks))
        return True

    def drew(self, event: Drew) -> bool:
        """The next tokens of the stock go to the player's hand."""
        items = self.stock[self.drawn : self.drawn + event.count]
        self.drawn += event.count
        if event.seat == self.plan.seat and not self.match(items, event.cards):
            return False
        self.holding[event.seat].extend(items)
        return True

    def finish(self) -> _Built | None:
        """The unidentified tokens get the cards nobody saw, at random; None if too few."""
        bound = self.bound
        pool = list((Counter(self.plan.seen.rules.deck.cards()) - self.used).elements())
        self.rng.shuffle(pool)
        free = [item for item in range(self.tokens) if item not in bound]
        if len(pool) < len(free):
            return None
        for item, card in zip(free, pool, strict=False):
            bound[item] = card
        initial = self.initial
        hands = [[bound[item] for item in initial[seat]] for seat in range(len(initial))]
        real: list[Action] = []
        for action in self.actions:
            if isinstance(action, _Laid):
                real.append(Play(tuple(bound[item] for item in action.items), action.rank))
            else:
                real.append(action)
        return (
            hands,
            [bound[item] for item in self.aside],
            [bound[item] for item in self.stock],
            real,
        )


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
