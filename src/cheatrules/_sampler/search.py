"""The sampler's search: the log replayed in time order, choosing each unseen group's tokens.

:class:`Search` replays the log of a plan (the private ``_sampler.plan``
module) depth first: at each group the observer did not see it draws the
tokens the player laid, a count per class of tokens, keeps the choice only
if the tests pass, and returns the finished replay (:class:`Built`), whose
tokens left :func:`fill` deals the cards nobody saw. The sampler's errors
are here too, so that the search can raise them; their public home is
:mod:`cheatrules.sampling`.

Where two cards compete for one slot and the tests miss it, a search backs
up to the latest choice with alternatives left. Backing up chronologically
can take exponentially long when the conflict lies far back, so runs are
cut at lengths that follow the Luby sequence (1 1 2 1 1 2 4 ... times four
passes over the log) and each starts again from the first event in a fresh
random order: most runs are short, so an early choice that dooms a late
group costs little, and some are long enough for a view that needs a long
backtrack. The counting search stalls at one conflict after another, far
apart, so it does not start from the first event each time: where it
replays a stretch without getting deeper it goes back a span of events
before the deepest event it reached and draws every choice from there
afresh, the span doubling while it stalls no deeper (:class:`Restarts`).
Under compulsory discards a hand noted just after a pickup may hold no four
it did not set aside: the search refuses a step that breaks that, looks
ahead from each unseen play to its player's later checks, and deals the
cards nobody saw under those limits (the private ``_sampler.fourless`` module), backing
up where no deal fits.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from math import comb

import attrs

from cheatrules._extras import install_hint
from cheatrules._sampler import fourless as _fourless
from cheatrules._sampler import twins as _twins
from cheatrules._sampler.matching import assigned, matched
from cheatrules._sampler.plan import Class, Copy, Plan, Target, grouped, tops_of
from cheatrules.cards import Card, Rank
from cheatrules.errors import CheatRulesError
from cheatrules.events import Discarded, Drew, Event, PileTaken, Played


class SamplingError(CheatRulesError):
    """No game was found for this observation.

    Raised as it is, the view contradicts itself: no game gives it (it was
    not made by a game). Its subclass :class:`SamplingBudgetError` says
    instead that the search gave up before finding one.
    """


class SamplingBudgetError(SamplingError):
    """The sampler's search spent its work budget before it found a game.

    The view may well be one a game gives: a larger ``budget`` (or another
    ``rng``) may find one. ``budget`` is the budget that was spent, ``seat``
    the view's seat and ``events`` the length of its log.
    """

    def __init__(self, budget: int, seat: int, events: int) -> None:
        super().__init__(  # in English only, as the sampler's other errors (languages guide)
            "the sampler's search spent its work budget (%(budget)s events replayed) on"
            " seat %(seat)s's view of %(events)s events; a larger budget may find a game",
            budget=budget,
            seat=seat,
            events=events,
        )
        self.budget = budget
        self.seat = seat
        self.events = events

    def __reduce__(self) -> tuple[type[SamplingBudgetError], tuple[int, int, int]]:
        # Rebuilt from its three numbers, so it crosses process boundaries
        # (a tournament's worker) as raised.
        return type(self), (self.budget, self.seat, self.events)


class SamplingTimeoutError(SamplingBudgetError):
    """The sampler's search ran out of the time it was given before it found a game.

    A :class:`SamplingBudgetError`: more time (or another ``rng``) may find
    a game. ``timeout`` is the seconds given, ``budget`` the events the
    search replayed in them, ``seat`` the view's seat and ``events`` the
    length of its log.
    """

    def __init__(self, timeout: float, seat: int, events: int, spent: int) -> None:
        SamplingError.__init__(  # in English only, as the sampler's other errors
            self,
            "the sampler's search ran out of its time (%(timeout)s s, %(spent)s events replayed)"
            " on seat %(seat)s's view of %(events)s events; more time may find a game",
            timeout=timeout,
            spent=spent,
            seat=seat,
            events=events,
        )
        self.timeout = timeout
        self.budget = spent
        self.seat = seat
        self.events = events

    def __reduce__(  # type: ignore[override]
        self,
    ) -> tuple[type[SamplingTimeoutError], tuple[float, int, int, int]]:
        return type(self), (self.timeout, self.seat, self.events, self.budget)


class SamplingUnprovenError(SamplingBudgetError):
    """The search found no game, and without the solver it cannot prove that none exists.

    The hand-written search tries the choices of the log in turn and prunes
    what it can rule out; it is not a proof. Where it finds no game, the
    solver (the ``cheatrules[solver]`` extra) proves that none exists or
    finds one; without it, this is raised: the view may be one a game
    gives. ``budget`` is the events the search replayed.
    """

    def __init__(self, budget: int, seat: int, events: int) -> None:
        SamplingError.__init__(  # in English only, as the sampler's other errors
            self,
            "the sampler's search found no game for seat %(seat)s's view of %(events)s events"
            " (%(budget)s events replayed) and cannot prove that none exists; the solver proves"
            " it or finds one: %(install)s",
            budget=budget,
            seat=seat,
            events=events,
            install=install_hint("solver"),
        )
        self.budget = budget
        self.seat = seat
        self.events = events


@attrs.frozen
class Clock:
    """The wall-clock end of one call of the sampler: ``timeout`` seconds after it began.

    Passed to each search it runs, which asks :meth:`check` as it goes; a
    call with no timeout has ``end`` ``None`` and never runs out.
    """

    timeout: float | None = None
    end: float | None = None

    @classmethod
    def starting(cls, timeout: float | None) -> Clock:
        """The clock of a call that began now and may take ``timeout`` seconds (``None``: any)."""
        return cls(timeout, None if timeout is None else time.monotonic() + timeout)

    def remaining(self) -> float | None:
        """The seconds left (``None`` for a call with no timeout)."""
        return None if self.end is None else self.end - time.monotonic()

    def part(self, seconds: float) -> Clock:
        """A clock for part of this call: it runs out after ``seconds``, or where this one does."""
        end = time.monotonic() + seconds
        if self.end is None:
            return Clock(seconds, end)
        return Clock(self.timeout, min(end, self.end))

    def check(self, plan: Plan, spent: int) -> None:
        """Raise :class:`SamplingTimeoutError` once the time is up (``spent``: events so far)."""
        if self.end is not None and time.monotonic() > self.end:
            assert self.timeout is not None
            raise SamplingTimeoutError(self.timeout, plan.seat, len(plan.events), spent)


#: The clock of a call with no timeout.
UNTIMED = Clock()


# Their public home, where users import them from: the name a traceback or a pickle shows.
SamplingError.__module__ = "cheatrules.sampling"
SamplingBudgetError.__module__ = "cheatrules.sampling"
SamplingTimeoutError.__module__ = "cheatrules.sampling"
SamplingUnprovenError.__module__ = "cheatrules.sampling"


#: Where a copy of a card is, for the chain test: the sighting it last met; a
#: place holding its token now, as (kind, which, -1); or FREE, a copy no token has yet.
_Unit = tuple[str, int, int]
FREE: _Unit = ("", -1, -1)


@attrs.define
class _State:
    """Where every token is at one moment of the replay, and the cards given so far."""

    bound: dict[int, Card]
    used: Counter[Card]
    hands: list[list[int]]
    table: list[tuple[int, list[int]]]  # (Played index, tokens), oldest first
    drawn: int = 0
    laid: dict[int, tuple[int, ...]] = attrs.Factory(dict)  # Played index -> tokens
    # Compulsory discards: hands that must hold no four but the ranks given.
    fours: list[tuple[tuple[int, ...], tuple[Rank, ...]]] = attrs.Factory(list)
    # Where the log first names each card of one copy that no token has yet,
    # counted by place (the matching test's demand), and whether a card with
    # copies was given since that test last passed (it must run again).
    demand: Counter[Target] = attrs.Factory(Counter)
    dirty: bool = True
    first: dict[Card, Target] = attrs.Factory(dict)  # shared by every copy, never changed
    # With copies: a four set aside takes the lowest copies of its rank, so a
    # token still in that hand then holds no lower one (token -> rank -> the
    # least key it may hold; each inner dict replaced, never changed).
    floors: dict[int, dict[Rank, int]] = attrs.Factory(dict)
    # Per noted hand: how many cards had been given (the size of ``bound``,
    # which keeps the order they were given in) when its slack was last
    # worked out, and that slack (see _fourless.slack); and how many when the
    # noted hands last passed their tests (only a card given changes them).
    four_marks: list[tuple[int, int]] = attrs.Factory(list)
    fours_passed: int = -1

    def copy(self) -> _State:
        return _State(
            dict(self.bound),
            Counter(self.used),
            [list(hand) for hand in self.hands],
            [(index, list(tokens)) for index, tokens in self.table],
            self.drawn,
            dict(self.laid),
            list(self.fours),
            Counter(self.demand),
            self.dirty,
            self.first,
            dict(self.floors) if self.floors else self.floors,
            list(self.four_marks),
            self.fours_passed,
        )

    def bind(self, token: int, card: Card, copies: int) -> bool:
        """Give ``token`` the card ``card``, if it has none and a copy is left."""
        if token in self.bound:
            return self.bound[token] == card
        if self.used[card] >= copies or not self.above_floor(token, card):
            return False
        self.bound[token] = card
        self.used[card] += 1
        first = self.first.get(card)
        if first is not None:
            # A card of one copy is given where the log first names it, to a
            # token there: one token and one unit of demand go together from
            # a place that only that place's tokens reach (and they reach all
            # alike), so a matching that passed still passes.
            self.demand[first] -= 1
        else:
            self.dirty = True  # a copy takes an unnamed token from the matching's supply
        return True

    def above_floor(self, token: int, card: Card) -> bool:
        """Whether ``token`` may hold ``card``: no lower copy than a four its hand set aside."""
        floor = self.floors.get(token) if self.floors else None
        return floor is None or card.key >= floor.get(card.rank, -1)


@attrs.frozen
class _Draw:
    """A choice of how many tokens of each class to lay; which ones is drawn when it is tried."""

    pinned: list[int]
    pools: list[list[int]]
    vector: tuple[int, ...]

    def tokens(self, rng: random.Random) -> tuple[int, ...]:
        """The tokens laid: the pinned ones and, from each class, its count at random."""
        chosen = list(self.pinned)
        for pool, count in zip(self.pools, self.vector, strict=True):
            if count:
                chosen.extend(rng.sample(pool, count))
        return tuple(chosen)


#: A choice at one step: the tokens to lay (a play) or None for a step without choice.
_Choice = tuple[int, ...] | None


@attrs.frozen
class Built:
    """A finished replay: the tokens dealt and the cards they got so far."""

    state: _State
    tokens: int
    hands: list[list[int]]
    aside: list[int]
    stock: list[int]
    # Under compulsory discards: a deal of every token that the search found
    # fits (the first game tried takes it).
    dealt: dict[int, Card] | None = None


class Search:
    """The replay in time order, with a stack of the choices that had alternatives left."""

    def __init__(
        self,
        plan: Plan,
        rng: random.Random,
        blame: _twins.Blame | None = None,
        across: bool = True,
        clock: Clock = UNTIMED,
    ) -> None:
        self.plan = plan
        self.rng = rng
        self.clock = clock
        # With copies told apart: where the tests refuse a choice, the
        # labelling's choices they blame (see _sampler.twins).
        self.blame = blame
        # With copies told apart: whether each play is also checked across
        # hands (_routed): an eighth more per event, so only from a turn's
        # second labelling on (most views need one).
        self.across = across
        # The deepest event where named cards could not leave a hand (or
        # stay in it), and those cards (with where each is named next): what
        # a labelling repair draws again.
        self.stuck_at = -1
        self.stuck: list[tuple[Card, Target]] = []
        self.reach = plan.reach
        self.copy_reach = plan.copy_reach
        dealt = plan.dealt
        token = 0
        hands: list[list[int]] = []
        for size in dealt.hand_sizes:
            hands.append(list(range(token, token + size)))
            token += size
        self.initial = [list(hand) for hand in hands]
        self.aside = list(range(token, token + dealt.set_aside_count))
        token += dealt.set_aside_count
        self.stock = list(range(token, token + dealt.stock_count))
        self.tokens = token + dealt.stock_count
        self.singles = plan.singles
        first = plan.first
        # The places of first sightings, each once, soonest first (for the matching's shortcut).
        self.first_targets = sorted(set(first.values()), key=lambda target: target[2])
        self.start = _State({}, Counter(), hands, [], demand=Counter(first.values()), first=first)
        self.steady = plan.steady
        self.classes = plan.classes
        self.spent = 0  # events replayed, in all runs
        # Which unnamed card of a hand a card shown there was is drawn at random
        # and never revisited: that is every choice while the unnamed cards of
        # a hand are alike, but not when a four must not form (compulsory
        # discards). With copies, the tokens of one class are drawn at random
        # too, though copies of different cards may share a class. There a
        # search that finds nothing starts again.
        self.copied = bool(plan.copy_needs)
        self.copies_in_deck = not plan.unique
        self.compulsory = plan.rules.discards.compulsory
        self.exhaustive = not self.compulsory and plan.unique

    def _setup(self) -> bool:
        """The observer's own tokens: its hand as dealt and the cards it drew."""
        plan, state = self.plan, self.start
        own = zip(state.hands[plan.seat], plan.dealt.hands[plan.seat], strict=True)
        if not all(state.bind(token, card, plan.copies[card]) for token, card in own):
            return False
        position = 0
        for event in plan.events:
            if isinstance(event, Drew):
                if event.seat == plan.seat:
                    tokens = self.stock[position : position + event.count]
                    pairs = zip(tokens, event.cards, strict=True)
                    if not all(state.bind(t, c, plan.copies[c]) for t, c in pairs):
                        return False
                position += event.count
        return True

    def run(self, budget: int) -> Built | None:
        """Replay the log depth first, starting afresh where it stalls; None if no game gives it.

        Raises:
            SamplingBudgetError: the search spent ``budget`` events.
            SamplingTimeoutError: the search's :class:`Clock` ran out.

        """
        if not self._setup():
            return None
        events, quiet = self.plan.events, self.plan.quiet
        stack: list[tuple[int, _State, list[_Choice | _Draw]]] = []
        state, index = self.start.copy(), 0
        options: list[_Choice | _Draw] | None = None
        restarts = Restarts(len(events), partial=self.copies_in_deck)
        timed, steps = self.clock.end is not None, 0
        while self.spent < budget:
            steps += 1
            if timed and not steps % 256:  # the clock, read every 256 steps
                self.clock.check(self.plan, self.spent)
            if restarts.due():
                # Back to the latest choice at or before the event the policy
                # names (the first event: a fresh start), its options drawn afresh.
                back = restarts.back_to()
                while stack and stack[-1][0] > back:
                    stack.pop()
                if back > 0 and stack:
                    index, state, _ = stack.pop()
                else:
                    stack, state, index = [], self.start.copy(), 0
                restarts.resume(index)
                options = None
                continue
            if options is None:
                if index == len(events):
                    built = self._built(state)
                    if built is not None:
                        return built
                    options = []  # no deal of the cards left fits: back up
                elif index in quiet:  # an event that moves no token: nothing to choose or test
                    self.spent += 1
                    restarts.step(index)
                    index += 1
                    continue
                else:
                    options = self._options(index, events[index], state)
            if not options:
                if stack:
                    index, state, options = stack.pop()
                elif self.exhaustive:
                    return None  # every choice was tried: no game gives this log
                else:
                    restarts.now()  # random picks the search does not branch on: start again
                continue
            if len(options) > 1:
                stack.append((index, state.copy(), options[1:]))
            self.spent += 1
            restarts.step(index)
            choice = options[0]
            if isinstance(choice, _Draw):
                choice = choice.tokens(self.rng)
            if self._apply(index, events[index], state, choice) and self._fours(index, state):
                index += 1
                options = None
            else:
                options = []  # a dead end: back up to the latest alternative
        raise SamplingBudgetError(budget, self.plan.seat, len(self.plan.events))

    def _built(self, state: _State) -> Built | None:
        """The finished replay; under compulsory discards, None if the cards left fit no deal."""
        built = Built(state, self.tokens, self.initial, self.aside, self.stock)
        if not state.fours:
            return built
        dealt = fill(self.plan, built, self.rng, self.clock)
        return None if dealt is None else attrs.evolve(built, dealt=dealt)

    # -- the choices at each step ----------------------------------------------------

    def _options(self, index: int, event: Event, state: _State) -> list[_Choice | _Draw]:
        """The choices at event ``index``, in the random order to try them."""
        plan = self.plan
        if isinstance(event, Discarded):
            picks = self._pinned(event.cards, state.hands[event.seat], state)
            return [tuple(pick) for pick in picks]
        if not isinstance(event, Played) or event.seat == plan.seat:
            return [None]
        options: list[_Choice | _Draw] = []
        for pinned in self._pinned(plan.revealed.get(index, ()), state.hands[event.seat], state):
            options.extend(self._draws(index, event, pinned, state))
        # With copies and several choices, the counting test as things stand,
        # the player's tokens free to stay or go (its reach just before the
        # play): where it fails, every choice here would, as events since its
        # last run (a pile the observer took, time passing a hand by) may have
        # settled. With one choice, the test after it costs the same.
        if len(options) > 1 and self.copied and not self._enough_copies(index - 1, state):
            return []
        return options

    def _draws(self, index: int, event: Played, pinned: list[int], state: _State) -> list[_Draw]:
        """The counts per class of the tokens laid unseen beside ``pinned``, in random order."""
        slots = event.count - len(pinned)
        if slots == 0:
            return [_Draw(pinned, [], ())]
        # Under compulsory discards, tokens alike otherwise differ by the
        # rank of their card: a later check may need it laid or kept.
        classes: dict[tuple[Class, object], list[int]] = {}
        skip, bound, known = set(pinned), state.bound, self.classes.setdefault(index, {})
        caps = self._copy_caps(index, event, state) if self.copied else {}
        unnamed: list[int] | None = None
        for token in state.hands[event.seat]:
            if token in skip:
                continue
            card = bound.get(token)
            if card is None:
                if unnamed is None:
                    unnamed = classes["U", None] = []
                unnamed.append(token)
                continue
            key = known.get(card) or known.setdefault(card, self._class(card, index))
            if card in caps and isinstance(key, Copy):
                key = Copy(key.target, card)
            apart = card.rank if self.compulsory else None
            classes.setdefault((key, apart), []).append(token)
        keys = [key for key, _ in classes]
        pools = list(classes.values())
        bounds = [
            self._bounds(index, event, key, len(pool), state)
            for key, pool in zip(keys, pools, strict=True)
        ]
        if caps:
            bounds = self._capped(keys, bounds, caps, pinned, state)
        vectors = _vectors([low for low, _ in bounds], [high for _, high in bounds], slots)
        if self.compulsory:
            vectors = self._fourless(index, event, pinned, state, classes, vectors)
        if len(vectors) == 1:
            return [_Draw(pinned, pools, vectors[0])]
        weights = [_weight(vector, [len(pool) for pool in pools]) for vector in vectors]
        order = _fourless.weighted_order(vectors, weights, self.rng)
        return [_Draw(pinned, pools, vector) for vector in order]

    def _fourless(
        self,
        index: int,
        event: Played,
        pinned: list[int],
        state: _State,
        classes: dict[tuple[Class, object], list[int]],
        vectors: list[tuple[int, ...]],
    ) -> list[tuple[int, ...]]:
        """``vectors`` less those that leave a later noted hand a four too many.

        Under compulsory discards each pickup is followed by a check that the
        taker's hand holds no four but those it sets aside. Cards the
        observer knows (its own, those turned over) go with their groups, so
        a check's hand holds at least the player's known cards of a rank that
        its later plays cannot all carry off, with the known ones of the
        piles it takes until then: this play must lay the excess. And a pile
        whose taker is checked holds at most a four less one of a rank (its
        taker keeps whatever it holds): this play may lay only what is left.
        """
        least, most = self._four_limits(index, event, pinned, state)
        if not least and not most:
            return vectors
        ranks = [apart for _, apart in classes]
        kept: list[tuple[int, ...]] = []
        for vector in vectors:
            laid: Counter[object] = Counter()
            for rank, count in zip(ranks, vector, strict=True):
                if count:
                    laid[rank] += count
            if all(laid[rank] >= n for rank, n in least.items()) and all(
                laid[rank] <= n for rank, n in most.items()
            ):
                kept.append(vector)
        return kept

    def _four_limits(
        self, index: int, event: Played, pinned: list[int], state: _State
    ) -> tuple[Counter[Rank], Counter[Rank]]:
        """How few and how many cards of each rank the unpinned slots of this play must lay."""
        plan, bound, seat = self.plan, state.bound, event.seat
        shown = Counter(bound[t].rank for t in pinned if t in bound)
        held = Counter(
            bound[t].rank
            for t in state.hands[seat]
            if t in bound and t not in pinned and bound[t].rank is not Rank.JOKER
        )
        least: Counter[Rank] = Counter()
        for check in plan.ahead(index, seat):
            for rank, count in held.items():
                need = count + check.fixed[rank] - 4 * check.allowed[rank] - 3
                need -= check.slots + check.carried[rank]
                if check.back:  # what this play lays comes back: it cannot help
                    need += shown[rank]
                    if need > 0:
                        least[rank] = event.count + 1  # no choice here fits
                elif need > least[rank]:
                    least[rank] = need
        most: Counter[Rank] = Counter()
        into = plan.pile_check(index)
        if into is not None:
            allowed, later = into
            pile_of, pile = plan.pile_of, plan.pile_of[index]
            on_table = Counter(
                bound[t].rank
                for group, tokens in state.table
                if pile_of[group] == pile
                for t in tokens
                if t in bound
            )
            for rank in held:
                most[rank] = 4 * allowed[rank] + 3 - on_table[rank] - later[rank] - shown[rank]
        return least, most

    def _copy_caps(
        self, index: int, event: Played, state: _State
    ) -> dict[Card | None, tuple[int, int]]:
        """How few and how many tokens of each card with copies in the hand this group may take.

        Where a later sighting of a card can be reached from the hand but not
        from the table, each token laid here leaves it one short; where from
        the table but not from the hand, each token kept back does. The
        counting test (:meth:`_enough_copies`, run after the play) refuses a
        choice that lays more, or fewer, than the sighting can spare: bounding
        the counts before the draw spares the search those choices. The key
        ``None`` bounds the tokens with no card yet, which each such sighting
        can spare as far as they outnumber the copies it still lacks.
        """
        reach, plan, seat = self.copy_reach, self.plan, event.seat
        bound, hand = state.bound, state.hands[event.seat]
        held = Counter(bound[t] for t in hand if t in bound and plan.copies[bound[t]] > 1)
        free = sum(1 for t in hand if t not in bound)
        caps: dict[Card | None, tuple[int, int]] = {}
        places: list[tuple[str, int, Counter[Card], int]] | None = None
        for target, needs in plan.copy_targets.items():
            if target[2] <= index or (not free and needs.keys().isdisjoint(held)):
                continue
            laid, kept = reach.on_table(index, target), reach.in_hand(seat, index, target)
            if laid == kept:
                continue  # laying a token here changes nothing at this sighting
            if places is None:
                places = self._places(state)
            have, unnamed = self._copy_counts(index, target, needs, places)
            short = sum(max(0, need - have[card]) for card, need in needs.items())
            if kept and free:  # laying an unnamed token leaves one fewer for the copies lacking
                low, high = caps.get(None, (0, free))
                caps[None] = (low, min(high, unnamed - short))
            for card in held.keys() & needs.keys():
                spare = have[card] + plan.copies[card] - state.used[card] - needs[card]
                low, high = caps.get(card, (0, held[card]))
                if kept:  # have[card] counted the hand's tokens: lay at most the spare ones
                    caps[card] = (low, min(high, spare))
                else:  # it did not: lay enough of them
                    caps[card] = (max(low, -spare), high)
        return caps

    @staticmethod
    def _capped(
        keys: list[Class],
        bounds: list[tuple[int, int]],
        caps: dict[Card | None, tuple[int, int]],
        pinned: list[int],
        state: _State,
    ) -> list[tuple[int, int]]:
        """``bounds`` within ``caps`` for the classes of one card (or none), less those pinned.

        The tokens with no card yet may form several classes (compulsory
        discards part them): then each is held to the most, and the counting
        test after the play checks their sum and the least.
        """
        shown = Counter(state.bound.get(token) for token in pinned)
        capped: list[tuple[int, int]] = []
        whole = keys.count("U") == 1
        for key, (low, high) in zip(keys, bounds, strict=True):
            card = key.card if isinstance(key, Copy) else None
            if card is not None or (key == "U" and None in caps):
                least, most = caps[card]
                if card is not None or whole:
                    low = max(low, least - shown[card])
                high = min(high, most - shown[card])
            capped.append((low, high) if low <= high else (1, 0))
        return capped

    def _pinned(self, shown: tuple[Card, ...], hand: list[int], state: _State) -> list[list[int]]:
        """Each way, in random order, to take tokens of ``hand`` for the cards ``shown``.

        A card is a token that has it already or one with no card yet (a copy
        still left); tokens of a hand alike in that are alike in all, so the
        ways differ only in how many of each card's tokens are new.
        """
        ways: list[list[int]] = [[]]
        if not shown:
            return ways
        bound, wanted = state.bound, Counter(shown)
        held: dict[Card, list[int]] = {}
        unnamed: list[int] = []
        for token in hand:
            card = bound.get(token)
            if card is None:
                unnamed.append(token)
            elif card in wanted:
                held.setdefault(card, []).append(token)
        # Without fours to keep out or copies set aside, any unnamed token may be any card.
        any_card = not state.fours and not state.floors
        for card, count in wanted.items():
            have = held.get(card, [])
            left = self.plan.copies[card] - state.used[card]
            grown: list[list[int]] = []
            for chosen in ways:
                free = [
                    t
                    for t in (unnamed if left else ())
                    if t not in chosen and (any_card or self._may_be(t, card, state))
                ]
                for new in range(max(0, count - len(have)), min(count, left, len(free)) + 1):
                    fresh = self.rng.sample(free, new)
                    grown.append(chosen + have[: count - new] + fresh)
            ways = grown
        if len(ways) > 1:
            self.rng.shuffle(ways)
        return ways

    def _may_be(self, token: int, card: Card, state: _State) -> bool:
        """Whether ``token`` may be ``card``.

        Not if that completes a four a hand never set aside, nor if it is a
        lower copy than a four its hand set aside (:meth:`_floored`).
        """
        if not state.above_floor(token, card):
            return False
        if not state.fours or card.rank is Rank.JOKER:
            return True
        return all(
            _fourless.room_for(card.rank, hand, ranks, state.bound) > 0
            for hand, ranks in state.fours
            if token in hand
        )

    def _class(self, card: Card, index: int) -> Class:
        """The class at the play at ``index`` of a token with ``card``: where it is named next.

        "X" for a card that cannot go into this group: the observer takes its
        pile and does not name the card there.
        """
        named = self.plan.others_in_pile.get(self.plan.pile_of[index])
        if named is not None and not named[card]:
            return "X"
        target = self.plan.next_target(card, index)
        if target is None:
            return "F"
        return target if card in self.singles else Copy(target)

    def _bounds(
        self, index: int, event: Played, key: Class, size: int, state: _State
    ) -> tuple[int, int]:
        """How few and how many tokens of a class of ``size`` may go into this group."""
        plan = self.plan
        stays = plan.size_before[index] > event.count
        if isinstance(key, tuple):
            stays = stays and self.reach.in_hand(event.seat, index, key)
        high = size if self._goes(index, key) else 0
        pile = plan.pile_of[index]
        if key == "U" and plan.taken.get(pile, (-1, 0))[0] == plan.seat:
            high = min(high, plan.fresh_in_pile[pile] - self._unnamed_in(pile, state))
        low = 0 if stays else size
        return (low, high) if low <= high else (1, 0)

    def _goes(self, index: int, key: Class) -> bool:
        """Whether a token of class ``key`` may go into the group of the play at ``index``.

        Not "X" (barred from the pile), nor a card named next where that pile
        cannot take it, nor a card named nowhere more into a pile the observer
        takes (it would name it). A card with copies may: another copy may be
        named there instead.
        """
        if key == "X":
            return False
        if isinstance(key, Copy):
            return True
        if isinstance(key, tuple):
            return self.reach.on_table(index, key)
        if key == "F":
            return self.plan.taken.get(self.plan.pile_of[index], (-1, 0))[0] != self.plan.seat
        return True

    def _unnamed_in(self, pile: int, state: _State) -> int:
        """Tokens with no card yet in the groups of ``pile`` on the table."""
        pile_of = self.plan.pile_of
        return sum(
            1
            for index, tokens in state.table
            if pile_of[index] == pile
            for token in tokens
            if token not in state.bound
        )

    # -- following the log -----------------------------------------------------------

    def _apply(self, index: int, event: Event, state: _State, choice: _Choice) -> bool:
        """Move the tokens as event ``index`` says; False on a dead end."""
        plan = self.plan
        if isinstance(event, Played):
            shown = plan.shown.get(index, ())
            if choice is None:  # the observer's own play
                choice = self._own(state.hands[event.seat], event.cards, state)
                if choice is None:
                    return False
                shown = ()
            copies = plan.copies
            if not all(state.bind(t, c, copies[c]) for t, c in zip(choice, shown, strict=False)):
                return False
            hand = state.hands[event.seat]
            for token in choice:
                hand.remove(token)
            state.table.append((index, list(choice)))
            state.laid[index] = choice
            if event.seat == plan.seat:
                return True
            if self.copied and not self._enough_copies(index, state):
                return False
            # Cards turned over take copies that another hand's cards might have been.
            everyone = index in plan.shown
            if self.copies_in_deck and not self._sheds(
                index, state, None if everyone else event.seat
            ):
                return False
            if plan.twinned and not (
                self._leave(index, event.seat, state)
                and self._taker_leaves(index, event.seat, choice, state)
                and (not self.across or self._routed(index, event.seat, choice, state))
            ):
                return False
            if not state.dirty and self._steady(index, event):
                return True
            if not self._enough_unnamed(index, state):
                return False
            state.dirty = False
            return True
        if isinstance(event, PileTaken):
            return self._picked_up(index, event, state)
        if isinstance(event, Drew):
            tokens = self.stock[state.drawn : state.drawn + event.count]
            state.drawn += event.count
            state.hands[event.seat].extend(tokens)
            return True
        if isinstance(event, Discarded):
            assert choice is not None
            cards, copies = grouped(event.cards), plan.copies
            if not all(state.bind(t, c, copies[c]) for t, c in zip(choice, cards, strict=True)):
                return False
            for token in choice:
                state.hands[event.seat].remove(token)
            # Copies told apart are still copies: a four set aside takes the lowest.
            return (plan.unique and not plan.twinned) or self._floored(event, state)
        return True

    def _picked_up(self, index: int, event: PileTaken, state: _State) -> bool:
        """The taker takes the pile up; False on a dead end."""
        if not self._taken(index, event, state):
            return False
        # The cards the observer takes up take copies, as cards turned over do.
        mover = None if event.seat == self.plan.seat else event.seat
        if mover is not None and self.plan.twinned and not self._leave(index, mover, state):
            return False
        return not self.copies_in_deck or self._sheds(index, state, mover)

    def _floored(self, event: Discarded, state: _State) -> bool:
        """Note that the cards left in the hand hold no lower copy of a rank set aside.

        The engine sets aside the lowest four of each rank a hand holds
        (copies of a card count apart); False if the hand keeps a lower one.
        """
        tops = tops_of(event.cards)
        bound, floors = state.bound, state.floors
        for token in state.hands[event.seat]:
            card = bound.get(token)
            if card is not None:
                if card.key < tops.get(card.rank, -1):
                    return False
                continue
            floor = floors.get(token, {})
            floors[token] = {**floor, **{r: max(k, floor.get(r, -1)) for r, k in tops.items()}}
        return True

    def _sheds(self, index: int, state: _State, seat: int | None) -> bool:
        """Whether ``seat`` (None: every seat) can lay each later group into a pile seen taken.

        That is a pile the observer takes; such a group holds only cards the
        other players' groups there hold, as the observer names them. The
        cards of ``seat``'s hand named nowhere there must leave it before, in
        its groups laid elsewhere or its fours set aside; and the hand must
        hold enough cards named there, with those it takes up or draws until
        then (a card with no token yet may be one while copies are left).
        Likewise a hand that later sets a four aside must shed before then
        every copy of that rank lower than those it sets aside.
        """
        if seat is None:
            seats = range(len(state.hands))
            return all(self._sheds(index, state, other) for other in seats)
        if seat == self.plan.seat:
            return True
        hand, bound, plan = state.hands[seat], state.bound, self.plan
        for tops, below, room in plan.discards_ahead(index, seat):
            low = Counter(
                card
                for token in hand
                if (card := bound.get(token)) is not None and card.key < tops.get(card.rank, -1)
            )
            if (low - below).total() > room:
                return False
        ahead = plan.into_seen(index, seat)
        if not ahead:
            return True
        held = Counter(bound[token] for token in hand if token in bound)
        unnamed = len(hand) - held.total()
        for named, count, room, gained in ahead:
            barred = sum(number for card, number in held.items() if not named[card])
            if room - count < barred:
                return False
            fitting = sum(min(number, named[card]) for card, number in held.items())
            left = sum(min(n, plan.copies[c] - state.used[c]) for c, n in named.items())
            if fitting + min(unnamed, left) + gained < count:
                return False
        return True

    def _fours(self, index: int, state: _State) -> bool:
        """Under compulsory discards, note a taker's hand; False if a hand holds a four already."""
        pickup = self.plan.fours_at.get(index)
        bound = state.bound
        if pickup is not None:
            seat, ranks = self.plan.checks[pickup]
            state.fours.append((tuple(state.hands[seat]), ranks))
            state.four_marks.append((-1, 0))
        given = len(bound)
        if not state.fours or (pickup is None and state.fours_passed == given):
            return True
        # A card named later may complete a four in a hand noted earlier, or
        # leave too few cards to fill one without a four. Only the hands
        # holding a card given since the last pass can hold a four now, and
        # only those whose slack the cards given since may have used up can
        # be short.
        since = state.fours_passed
        fresh = set(itertools.islice(bound, since, None)) if since >= 0 else None
        left: Counter[Rank] | None = None
        for number, (hand, ranks) in enumerate(state.fours):
            at, slack = state.four_marks[number]
            touched = at < 0 or fresh is None or not fresh.isdisjoint(hand)
            if touched and _fourless.holds_extra_four(((hand, ranks),), bound):
                return False
            if at >= 0 and slack >= given - at:
                continue
            if left is None:
                left = Counter()
                for card, count in self.plan.copies.items():
                    left[card.rank] += count - state.used[card]
            slack = _fourless.slack(hand, ranks, bound, left)
            if slack < 0:
                return False
            state.four_marks[number] = (given, slack)
        state.fours_passed = given
        return True

    def _own(
        self, hand: list[int], cards: tuple[Card, ...], state: _State
    ) -> tuple[int, ...] | None:
        """The observer's tokens for the cards it laid."""
        wanted, bound = Counter(cards), state.bound
        chosen: list[int] = []
        for token in hand:
            card = bound.get(token)
            if card is not None and wanted[card] > 0:
                wanted[card] -= 1
                chosen.append(token)
                if len(chosen) == len(cards):
                    return tuple(chosen)
        return None

    def _taken(self, index: int, event: PileTaken, state: _State) -> bool:
        """The taker gains the pile (but a final play kept on the table).

        Where the observer takes it, the cards it names there that no token
        of the pile has yet go to the pile's unnamed tokens at random; where
        fours were set aside, by a matching that gives no token a lower copy
        than a four its hand set aside (a random pairing could, and refuse a
        pickup a game gives).
        """
        plan = self.plan
        taken = state.table[: event.groups]  # the groups the pickup says it took
        state.table = state.table[event.groups :]
        tokens = [token for _, group in taken for token in group]
        if event.seat == plan.seat:
            named = Counter(state.bound[t] for t in tokens if t in state.bound)
            wanted = Counter(event.cards)
            if named - wanted:
                return False
            fresh = list((wanted - named).elements())
            unnamed = [t for t in tokens if t not in state.bound]
            if len(fresh) != len(unnamed):
                return False
            self.rng.shuffle(fresh)
            if state.floors:  # a token below a four its hand set aside cannot be any card
                edges = [
                    [n for n, c in enumerate(fresh) if state.above_floor(t, c)] for t in unnamed
                ]
                match = assigned(edges, [1] * len(fresh))
                if -1 in match:
                    return False
                fresh = [fresh[n] for n in match]
            if not all(
                state.bind(t, c, plan.copies[c]) for t, c in zip(unnamed, fresh, strict=True)
            ):
                return False
        state.hands[event.seat].extend(tokens)
        return True

    def _leave(self, index: int, seat: int, state: _State) -> bool:
        """Whether ``seat``'s hand can pass on the named cards it must, and keep the rest.

        With copies told apart (twins), of the cards :meth:`_held` finds: a
        card the log names next in another place leaves this hand in one of
        the player's groups nobody saw whose pile can take it there, one slot
        each (a matching); and every card stays in the hand until such a
        group can take it or the log names it, while at each play the hand
        keeps only its size less the group (:meth:`Plan.crowded`). Where
        either fails, each card it counts is blamed on its labelling: it
        would rather be a fresh copy where it is named next.
        """
        plan = self.plan
        held, ahead = self._held(index, seat, state)
        named = held + [(since, card, target) for since, card, target, _ in ahead]
        leaving = [
            (since, card, target)
            for since, card, target in named
            if target is not None and target[:2] != ("hand", seat)
        ]
        if leaving and plan.stranded(seat, [(since, t) for since, _, t in leaving]):
            # Which of them is to blame the matching cannot say: all of them.
            self._refused(index, [(card, target) for _, card, target in leaving])
            return False
        spans = plan.spans(seat, [(since, target) for since, _, target in held])
        kept = plan.crowded(seat, spans + [(since, until) for since, _, _, until in ahead])
        if kept:
            self._refused(index, [(card, t) for _, card, t in (named[n] for n in kept) if t])
            return False
        return True

    def _held(
        self, index: int, seat: int, state: _State
    ) -> tuple[list[tuple[int, Card, Target | None]], list[tuple[int, Card, Target | None, int]]]:
        """The named cards in ``seat``'s hand from some event on, and where each is named next.

        Those in its hand now and those on the table in a pile it takes
        later, as (since when, the card, where); and those the log names in
        groups of such a pile still to be laid (:meth:`Plan.named_into`),
        each from that pickup on, with when it may leave at the soonest.
        """
        plan, bound = self.plan, state.bound
        held = [
            (index, card) for token in state.hands[seat] if (card := bound.get(token)) is not None
        ]
        for group, tokens in state.table:
            taker, when = plan.taken.get(plan.pile_of[group], (-1, 0))
            if taker == seat and when > index:
                held.extend((when, card) for t in tokens if (card := bound.get(t)) is not None)
        return plan.heading(held), plan.named_into(seat, index)

    def _taker_leaves(self, index: int, mover: int, laid: tuple[int, ...], state: _State) -> bool:
        """Whether named cards ``mover`` laid can leave, or stay in, the hand that takes this pile.

        The test of :meth:`_leave` for that player, run now rather than at
        the pickup, where the choice that laid them can still be changed.
        """
        plan = self.plan
        taker, _ = plan.taken.get(plan.pile_of[index], (plan.seat, 0))
        if taker in (plan.seat, mover) or not any(token in state.bound for token in laid):
            return True
        return self._leave(index, taker, state)

    def _routed(self, index: int, seat: int, laid: tuple[int, ...], state: _State) -> bool:
        """Whether the named cards can all get where the log names them next, across hands.

        For each place a card ``seat`` laid at ``index`` is named next, and
        each place but its own hand a card it kept is: a flow
        (:class:`Routes`) of every card named next there, from where it is
        now (another player's hand, a group on the table, or a group the log
        names it in later, from the pickup), through the groups nobody saw,
        each as many as its slots. A card may pass through a third hand, whose slots its own
        cards need too: one hand's tests cannot see that. Each place alone:
        the slots are not shared out among places, nor the hands' room
        counted. Where a place's cards do not all get there, they are
        blamed (as by :meth:`_leave`).
        """
        plan, bound = self.plan, state.bound
        cards = [(index, card) for t in laid if (card := bound.get(t)) is not None]
        targets = {target for _, _, target in plan.heading(cards) if target is not None}
        kept = [(index, card) for t in state.hands[seat] if (card := bound.get(t)) is not None]
        targets.update(
            target
            for _, _, target in plan.heading(kept)
            if target is not None and target[:2] != ("hand", seat)
        )
        if not targets:
            return True
        wanted = set().union(*(plan.named_at(target) for target in targets))
        places: list[tuple[int | None, int, Card]] = []  # (seat, or None for a group; where; card)
        for seat, hand in enumerate(state.hands):
            if seat != plan.seat:
                places.extend(
                    (seat, index, card)
                    for t in hand
                    if (card := bound.get(t)) is not None and card in wanted
                )
        for group, tokens in state.table:
            places.extend(
                (None, group, card)
                for t in tokens
                if (card := bound.get(t)) is not None and card in wanted
            )
        supply: dict[Target, Counter[int]] = {target: Counter() for target in targets}
        heading: dict[Target, list[Card]] = {target: [] for target in targets}
        headed = plan.heading([(index, card) for _, _, card in places])
        ahead = [
            (seat, when, card, target)
            for seat in range(len(state.hands))
            if seat != plan.seat
            for when, card, target, _ in plan.named_into(seat, index)
            if target in supply
        ]
        found = [
            (whose, where, card, target)
            for (whose, where, _), (_, card, target) in zip(places, headed, strict=True)
            if target in supply
        ]
        for whose, where, card, target in found + ahead:
            assert target is not None
            routes = plan.routes(target)
            node = routes.start(plan, whose, where)
            if node is None:
                self._refused(index, [(card, target)])
                return False
            if node != routes.sink:
                supply[target][node] += 1
                heading[target].append(card)
        for target, nodes in supply.items():
            if nodes and plan.routes(target).carried(nodes) < nodes.total():
                self._refused(index, [(card, target) for card in heading[target]])
                return False
        return True

    def _refused(self, index: int, stuck: list[tuple[Card, Target]]) -> None:
        """Blame the labelling for named cards a hand cannot pass on or keep at ``index``.

        Each would rather be a fresh copy where it is named next; the deepest
        such refusal is what a repair draws again.
        """
        if self.blame is not None:
            for card, target in stuck:
                self.blame[card.key, target, _twins.FRESH] += 1
        if index >= self.stuck_at:
            self.stuck_at, self.stuck = index, stuck

    def _enough_unnamed(self, index: int, state: _State) -> bool:
        """Whether the tokens with no card yet can still be everywhere the log first names a card.

        A bipartite matching: the places holding such tokens (each hand, each
        group on the table, each stock token) against the first sightings
        still to come, joined where :class:`Reach` says a token can get there.
        """
        demand = +state.demand
        if not demand:
            return True
        supply = self._unnamed_places(state)
        reach = self.reach
        edges: list[list[int]] = []
        targets = list(demand)
        hands = [reach.hands_reaching(index, target) for target in targets]  # a mask each
        for kind, where, _ in supply:
            if kind == "hand":
                edges.append([i for i, mask in enumerate(hands) if mask >> where & 1])
            elif kind == "table":
                edges.append([i for i, t in enumerate(targets) if reach.on_table(where, t)])
            else:
                edges.append([i for i, t in enumerate(targets) if reach.in_stock(where, t)])
        capacity = [count for _, _, count in supply]
        need = [demand[target] for target in targets]
        if matched(edges, capacity, need) == sum(need):
            return True
        if self.blame is not None:  # twins first named there would rather be copies named before
            for target in targets:
                for card in self.plan.first_at(target):
                    self.blame[card.key, target, _twins.REUSE] += 1
        return False

    def _enough_copies(self, index: int, state: _State) -> bool:
        """Whether each later sighting of a card with copies can still be met.

        A counting test, for each place and time the log names copies of
        cards: each card's tokens that can get there, with the tokens with no
        card yet that can get there (as far as copies are left), must be
        enough for that card, and those tokens with no card for all the cards
        together. And :meth:`_piles_fit`.
        """
        copies, used = self.plan.copies, state.used
        places = self._places(state)
        for target, needs in self.plan.copy_targets.items():
            if target[2] <= index:
                continue
            have, unnamed = self._copy_counts(index, target, needs, places)
            short = 0
            for card, need in needs.items():
                gap = need - have[card]
                if gap > 0:
                    if gap > copies[card] - used[card]:
                        return False
                    short += gap
            if short > unnamed:
                return False
        return self._chained(index, state, places) and self._piles_fit(state)

    def _chained(
        self, index: int, state: _State, places: list[tuple[str, int, Counter[Card], int]]
    ) -> bool:
        """Whether each card's copies can be at all its later sightings, one copy a sighting.

        The counting test weighs each sighting alone; here each card's
        sightings after ``index`` are followed in time order by its copies
        together: a copy named once is named again only where it can go from
        there, and two sightings at once take two copies. A copy no token has
        yet may start anywhere (the counting test weighs the tokens free).
        """
        starts: dict[Card, list[_Unit]] | None = None
        copies, used = self.plan.copies, state.used
        for card, sights in self.plan.copy_sights.items():
            # One sighting left is the counting test's alone.
            if len(sights) < 2 or sights[-2][0][2] <= index:
                continue
            if starts is None:
                starts = {}
                for kind, which, cards, _ in places:
                    for held, count in cards.items():
                        starts.setdefault(held, []).extend([(kind, which, -1)] * count)
            units = [*starts.get(card, ()), *[FREE] * (copies[card] - used[card])]
            if not self._follows(index, card, units, sights):
                return False
        return True

    def _follows(
        self, index: int, card: Card, units: list[_Unit], sights: list[tuple[Target, int]]
    ) -> bool:
        """Whether copies at ``units`` can meet each of ``sights`` after ``index``."""
        layouts = {tuple(sorted(units))}
        for target, need in sights:
            if target[2] <= index:
                continue
            grown: set[tuple[_Unit, ...]] = set()
            for layout in layouts:
                able = [p for p, unit in enumerate(layout) if self._gets(index, card, unit, target)]
                for chosen in itertools.combinations(able, need):
                    moved = [unit for p, unit in enumerate(layout) if p not in chosen]
                    moved.extend([target] * need)
                    grown.add(tuple(sorted(moved)))
            if not grown:
                return False
            layouts = grown
        return True

    def _gets(self, index: int, card: Card, unit: _Unit, target: Target) -> bool:
        """Whether a copy of ``card`` at ``unit`` just after ``index`` can get to ``target``."""
        kind, which, when = unit
        if when >= 0:  # a sighting it met
            return self.plan.onward(card, unit, target)
        if kind == "own":
            return self.copy_reach.laid_by_observer(card, index, target)
        return kind == "" or self.copy_reach.reaches(kind, which, index, target)

    def _copy_counts(
        self,
        index: int,
        target: Target,
        needs: Counter[Card],
        places: list[tuple[str, int, Counter[Card], int]],
    ) -> tuple[Counter[Card], int]:
        """The tokens that can get to ``target`` after ``index``: by card of ``needs``; unnamed."""
        reach = self.copy_reach
        hands = reach.hands_reaching(index, target)
        have: Counter[Card] = Counter()
        unnamed = 0
        piles: dict[int, bool] = {}  # groups of one pile reach alike
        for kind, which, cards, free in places:
            if kind == "own":  # the observer's hand: its plays carry the cards they name
                for card in needs.keys() & cards.keys():
                    if reach.laid_by_observer(card, index, target):
                        have[card] += cards[card]
                continue
            if kind == "hand":
                if not hands >> which & 1:
                    continue
            elif kind == "table":
                pile = self.plan.pile_of[which]
                if pile not in piles:
                    piles[pile] = reach.on_table(which, target)
                if not piles[pile]:
                    continue
            elif not reach.in_stock(which, target):
                continue
            if len(needs) < len(cards):
                for card in needs:
                    number = cards.get(card)
                    if number:
                        have[card] += number
            else:
                for card, number in cards.items():
                    have[card] += number
            unnamed += free
        return have, unnamed

    def _piles_fit(self, state: _State) -> bool:
        """Whether each pile the observer takes holds only cards it names there, or may yet.

        Counting the other players' groups only: the observer's own groups
        hold what they lay, and the pile the rest.
        """
        named, pile_of, bound = self.plan.others_in_pile, self.plan.pile_of, state.bound
        own = self.plan.own_groups
        on_table: dict[int, tuple[Counter[Card], list[int]]] = {}
        for group, tokens in state.table:
            if pile_of[group] in named and group not in own:
                counted, free = on_table.setdefault(pile_of[group], (Counter(), [0]))
                counted.update(bound[t] for t in tokens if t in bound)
                free[0] += sum(1 for t in tokens if t not in bound)
        for pile, (counted, free) in on_table.items():
            if counted - named[pile]:
                return False
            room = named[pile] - counted
            left = self.plan.copies
            if sum(min(n, left[card] - state.used[card]) for card, n in room.items()) < free[0]:
                return False
        return True

    def _places(self, state: _State) -> list[tuple[str, int, Counter[Card], int]]:
        """Each place holding tokens: (kind, which, the cards they have, how many have none)."""
        bound = state.bound
        places: list[tuple[str, int, Counter[Card], int]] = []
        seat = self.plan.seat
        groups = [("own" if s == seat else "hand", s, h) for s, h in enumerate(state.hands)]
        groups += [("table", index, tokens) for index, tokens in state.table]
        # A card the observer draws later is its own, as the cards in its hand.
        draws = self.plan.stock_draws
        groups += [
            ("own" if p < len(draws) and draws[p][0] == seat else "stock", p, [self.stock[p]])
            for p in range(state.drawn, len(self.stock))
        ]
        for kind, which, tokens in groups:
            cards = Counter(bound[t] for t in tokens if t in bound)
            places.append((kind, which, cards, len(tokens) - sum(cards.values())))
        return places

    def _steady(self, index: int, event: Played) -> bool:
        """Whether laying this group leaves the matching test's answer as it was.

        So it is where every token of the player's hand with no card yet can
        reach the same first sightings whether it stays or is laid (the test
        need not run again unless a card with copies was given since it last
        passed).
        """
        steady = self.steady.get(index)
        if steady is None:
            plan, reach, seat = self.plan, self.reach, event.seat
            stays = plan.size_before[index] > event.count
            goes = plan.carries(index)
            steady = all(
                (not goes or reach.on_table(index, target) == before)
                and (not stays or reach.hands_reaching(index, target) >> seat & 1 == before)
                for target in self.first_targets
                if target[2] > index
                for before in (reach.hands_reaching(index - 1, target) >> seat & 1 == 1,)
            )
            self.steady[index] = steady
        return steady

    def _unnamed_places(self, state: _State) -> list[tuple[str, int, int]]:
        """Each place holding tokens with no card yet: (kind, which, how many)."""
        bound = state.bound
        places: list[tuple[str, int, int]] = []
        for seat, hand in enumerate(state.hands):
            count = sum(1 for token in hand if token not in bound)
            if count:
                places.append(("hand", seat, count))
        for index, group in state.table:
            count = sum(1 for token in group if token not in bound)
            if count:
                places.append(("table", index, count))
        for position in range(state.drawn, len(self.stock)):
            if self.stock[position] not in bound:
                places.append(("stock", position, 1))
        return places


#: How many events before the deepest it reached the search goes back when it first stalls (copies).
_SPAN = 32


class Restarts:
    """When the search starts again, and from where: the policy against a choice far back.

    Backing up in time order can take exponentially long when the choice at
    fault lies far back. With one copy of each card the search makes runs
    whose lengths follow the Luby sequence (1 1 2 1 1 2 4 ... times four
    passes over the log), each from the first event in a fresh random order.
    With copies (``partial``) the tests are weaker, and a search stalls at
    one conflict after another, far apart: where it replays ``4 * span +
    64`` events without getting deeper, it goes back ``span`` events before
    the deepest event it reached and draws every choice from there afresh,
    keeping what came before. ``span`` starts at :data:`_SPAN`, doubles each
    time the search stalls no deeper than the time before, and is
    :data:`_SPAN` again where it stalls deeper; where it reaches back to the
    first event, the search starts afresh.
    """

    def __init__(self, events: int, partial: bool) -> None:
        self.partial = partial
        self.unit = 4 * events + 64  # events a Luby run of length 1 replays
        self.run = 1
        self.span = _SPAN
        self.idle = 0  # events replayed since the last start, or (partial) since it got deeper
        self.deepest = 0  # the deepest event reached since the last start
        self.stalled = -1  # where it stalled last (partial); -1 after a fresh start
        self.fresh = False  # start afresh now

    def step(self, index: int) -> None:
        """Event ``index`` replayed."""
        if index > self.deepest:
            self.deepest = index
            if self.partial:
                self.idle = 0
                return
        self.idle += 1

    def due(self) -> bool:
        """Whether the search should start again now."""
        if self.fresh:
            return True
        if self.partial:
            return self.idle >= 4 * self.span + 64
        return self.idle >= self.unit * luby(self.run)

    def now(self) -> None:
        """Start afresh at once, from the first event."""
        self.fresh = True

    def back_to(self) -> int:
        """The event to start again from: 0 for a fresh start."""
        if self.fresh or not self.partial:
            self.run += 1
            return 0
        if self.deepest > self.stalled:
            self.span = _SPAN
        else:
            self.span *= 2
        self.stalled = self.deepest
        return max(0, self.deepest - self.span)

    def resume(self, index: int) -> None:
        """The search starts again at event ``index``."""
        if index == 0:
            self.stalled, self.span = -1, _SPAN
        self.fresh = False
        self.idle, self.deepest = 0, index


def luby(run: int) -> int:
    """The ``run``-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...

    Runs of these lengths (times a unit) find a game about as soon as the
    best fixed length would, whatever that length is: most runs are short,
    so an unlucky early choice costs little, and some are long enough for a
    view that needs a long backtrack.
    """
    size = 1
    while size < run + 1:
        size = 2 * size + 1
    # size = 2**k - 1 >= run: the term is 2**(k-1) if run == size, else recurse.
    while True:
        if run == size:
            return (size + 1) // 2
        size //= 2
        if run > size:
            run -= size


def _vectors(low: list[int], high: list[int], total: int) -> list[tuple[int, ...]]:
    """Every vector between ``low`` and ``high`` (inclusive) summing to ``total``."""
    if len(low) == 1:  # one class: most plays of a hand with no card named yet
        return [(total,)] if low[0] <= total <= high[0] else []
    found: list[tuple[int, ...]] = []
    room = list(itertools.accumulate(reversed(high[1:]), initial=0))[::-1]  # high's sums after

    if sum(low) <= total:
        _extend((), total, low, high, room, found)
    return found


def _extend(
    prefix: tuple[int, ...],
    left: int,
    low: list[int],
    high: list[int],
    room: list[int],
    found: list[tuple[int, ...]],
) -> None:
    """Add to ``found`` every way to finish ``prefix`` with ``left`` more (:func:`_vectors`).

    Not nested in :func:`_vectors`: a nested function that calls itself is a
    reference cycle, left for the garbage collector with all it holds.
    """
    position = len(prefix)
    if position == len(low):
        if left == 0:
            found.append(prefix)
        return
    least, most = max(low[position], left - room[position]), min(high[position], left)
    for count in range(least, most + 1):
        _extend((*prefix, count), left - count, low, high, room, found)


def _weight(vector: tuple[int, ...], sizes: list[int]) -> int:
    """How many token subsets a count per class stands for."""
    weight = 1
    for count, size in zip(vector, sizes, strict=True):
        weight *= comb(size, count)
    return weight


def fill(
    plan: Plan, built: Built, rng: random.Random, clock: Clock = UNTIMED
) -> dict[int, Card] | None:
    """Every token's card: the cards nobody saw go to the tokens left, at random.

    Under compulsory discards no hand noted after a pickup may hold a four
    it did not set aside (the private ``_sampler.fourless`` module); None if no deal fits.

    Raises:
        SamplingTimeoutError: the ``clock`` ran out in the search for such a deal.

    """
    state = built.state
    bound = state.bound
    pool = list((plan.copies - state.used).elements())
    free = [token for token in range(built.tokens) if token not in bound]
    if len(pool) < len(free):
        return None
    if state.floors:
        # The tokens held apart by a four set aside take their cards first,
        # each at random among the cards left it may hold.
        bound = dict(bound)
        for token in [token for token in free if token in state.floors]:
            allowed = [i for i, card in enumerate(pool) if state.above_floor(token, card)]
            if not allowed:
                return None
            bound[token] = pool.pop(rng.choice(allowed))
        free = [token for token in free if token not in bound]
    # A deal of a few cards each leaves some of the deck out of the game.
    return _fourless.fill(bound, free, pool, state.fours, rng, lambda: clock.check(plan, 0))
