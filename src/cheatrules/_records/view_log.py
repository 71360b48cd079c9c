"""Following one seat's log from the deal, refusing any event that could not have happened.

The second half of reading a view record (see :mod:`cheatrules._records.views`):
:class:`_Replay` walks the seat's events in order and checks each against
what the seat knows before it. The public table it follows by the engine's
own fold (:meth:`Table.after <cheatrules.Table.after>`), and whose decision
comes next by the engine's own decisions (:meth:`Window.on
<cheatrules.Window.on>`, :meth:`~cheatrules.Window.next_asked`,
:meth:`~cheatrules.Window.opener`, :meth:`Consent.to_pass
<cheatrules.Consent.to_pass>`), as far as the log tells it; of its own it
keeps only what the seat alone knows: its hand and the cards it laid.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from itertools import pairwise
from typing import Any

import attrs

from cheatrules._records.stored_view import StoredView
from cheatrules.actions import Challenge
from cheatrules.cards import Card, Rank
from cheatrules.chance import Chance
from cheatrules.decision import (
    NONE_SHOWN,
    Consent,
    Decision,
    DiscardOffer,
    Over,
    Turn,
    Window,
    shown_after,
)
from cheatrules.errors import N_, NN_, Message, RecordError
from cheatrules.events import (
    Accepted,
    Challenged,
    Dealt,
    Discarded,
    Drew,
    Event,
    GameOver,
    Passed,
    PileTaken,
    Played,
    Refused,
    Revealed,
    WentOut,
    positions_in,
)
from cheatrules.policies.challenges import chance_chooses, proves
from cheatrules.rules import Rules
from cheatrules.seating import Seating
from cheatrules.table import Claim, Phase, Table


def _seat(players: int, value: int, where: str) -> None:
    if not 0 <= value < players:
        raise RecordError(
            N_("%(where)s: seat %(seat)s is not at a table of %(players)s (0 to %(last)s)"),
            where=where,
            seat=value,
            players=players,
            last=players - 1,
        )


def _count(value: int, low: int, high: int, where: str) -> None:
    if not low <= value <= high:
        raise RecordError(
            N_("%(where)s must be from %(low)s to %(high)s; got %(got)s"),
            where=where,
            low=low,
            high=high,
            got=value,
        )


def _rank(seen: StoredView, rank: Rank, where: str) -> None:
    if rank not in seen.rules.deck.ranks:
        allowed = " ".join(map(str, seen.rules.deck.ranks))
        raise RecordError(
            N_("%(where)s: the rank %(rank)s is not one of this deck's (%(allowed)s)"),
            where=where,
            rank=rank,
            allowed=allowed,
        )


def _deck_check(seen: StoredView, counts: Counter[Card], where: object) -> None:
    """Every card in ``counts`` is one the deck holds, no more times than the deck has it.

    ``where`` names the cards: a field's path, or words (a :class:`~cheatrules.errors.Message`).
    """
    deck = seen.rules.deck
    for card, count in sorted(counts.items()):
        allowed = deck.card_copies(card)
        if count > allowed:
            if not allowed:
                raise RecordError(
                    N_("%(where)s hold %(card)s, which this deck lacks"), where=where, card=card
                )
            raise RecordError(
                NN_(
                    "%(what)s hold %(card)s %(count)s times, but the deck has %(allowed)s copy",
                    "%(what)s hold %(card)s %(count)s times, but the deck has %(allowed)s copies",
                    allowed,
                    what=where,
                    card=card,
                    count=count,
                    allowed=allowed,
                )
            )


# -- following the log --------------------------------------------------------------


# What the log tells of the decision asked next, once any seat leaving has
# left: worked out from the seating then (None where the log does not tell).
_Expected = Callable[[Seating], Decision | None]

# The decisions each event answers (an event may come where none is known).
_ANSWERS: dict[type[Event], tuple[type, ...]] = {
    Played: (Turn,),
    Passed: (Turn,),
    Challenged: (Turn, Window),
    Accepted: (Window, Consent),
    Refused: (Consent,),
    Discarded: (Turn, DiscardOffer),
}


class _Replay:
    """The seat's log followed from the deal, with what the seat knows at each event."""

    def __init__(self, seen: StoredView, *, filling: bool = False) -> None:
        self.seen = seen
        self.rules = seen.rules
        self.me = seen.seat
        self.players = seen.players
        self.size = seen.rules.deck.size
        # A version-1 record's events lack the facts the engine's carry now
        # (the places a check turned over, the groups a pickup took and
        # kept): with ``filling``, each is worked out and the event made
        # again, by its index; else each is checked.
        self.filling = filling
        self.filled: dict[int, Event] = {}

    def fail(self, index: int, event: Event, template: str, **params: object) -> RecordError:
        """The error for event ``index``: ``template`` (marked ``N_``) with ``params``."""
        return RecordError(
            N_("view.events[%(index)s] (%(event)s): %(message)s"),
            index=index,
            event=type(event).__name__,
            message=Message.of(template, params),
        )

    def seat(self, index: int, event: Event, value: int, name: str = "seat") -> None:
        if not 0 <= value < self.players:
            raise self.fail(
                index,
                event,
                N_("%(name)s %(value)s is not at a table of %(players)s (0 to %(last)s)"),
                name=name,
                value=value,
                players=self.players,
                last=self.players - 1,
            )

    def active(self, index: int, event: Event, value: int, name: str = "seat") -> None:
        self.seat(index, event, value, name)
        if not self.public.seating.is_active(value):
            raise self.fail(
                index,
                event,
                N_("%(name)s %(value)s has left the game already"),
                name=name,
                value=value,
            )

    def count(self, index: int, event: Event, value: int, low: int, high: int) -> None:
        if not low <= value <= high:
            raise self.fail(
                index,
                event,
                N_("count must be from %(low)s to %(high)s; got %(got)s"),
                low=low,
                high=high,
                got=value,
            )

    def held_check(self, index: int, event: Event, cards: Sequence[Card], shown: bool) -> None:
        """No more copies of ``cards`` than the deck has, among those the seat knows of at once.

        That is its hand, its own groups on the table and the discards, with
        ``cards`` themselves too when they were only ``shown`` (turned over from
        another player's group). Only the cards just moved need checking.
        """
        extra = Counter(cards) if shown else Counter()
        mine = Counter(card for laid in self.laid for card in laid)
        thrown = Counter(self.public.discarded)
        counts = Counter(
            {card: self.hand[card] + mine[card] + thrown[card] + extra[card] for card in set(cards)}
        )
        name = type(event).__name__
        where = Message.of(
            N_("view.events[%(index)s] (%(event)s): the cards seen at once"),
            {"index": index, "event": name},
        )
        _deck_check(self.seen, counts, where)

    def run(self) -> None:
        seen = self.seen
        events = seen.events
        if not events or not isinstance(events[0], Dealt):
            raise RecordError(N_("view.events must start with the deal (a Dealt event)"))
        self.deal(events[0])
        if len(events) > 1:
            self.check_opener(events[0], events[1])
        for index in range(1, len(events)):
            event = events[index]
            if self.public.outcome is not None:
                raise self.fail(
                    index, event, N_("nothing may follow the end of the game (GameOver)")
                )
            self.follow(index, event, events[index - 1])
        self.compare()
        self.check_turn()

    def deal(self, dealt: Dealt) -> None:
        """Check the deal the log starts with, then start from it."""
        self.check_deal_counts(dealt)
        self.check_deal_hands(dealt)
        self.start(dealt)

    def check_deal_counts(self, dealt: Dealt) -> None:
        """The dealer, and how many cards went to each seat, aside and to the stock."""
        size = self.size
        players = self.players
        self.seat(0, dealt, dealt.dealer, "dealer")
        if len(dealt.hand_sizes) != players:
            raise self.fail(
                0,
                dealt,
                N_("Dealt.hand_sizes must give %(players)s sizes, one per seat; got %(got)s"),
                players=players,
                got=len(dealt.hand_sizes),
            )
        for value in dealt.hand_sizes:
            if not 1 <= value <= size:
                raise self.fail(
                    0,
                    dealt,
                    N_("Dealt.hand_sizes: every seat is dealt 1 to %(size)s cards; got %(got)s"),
                    size=size,
                    got=value,
                )
        aside = self.rules.dealing.set_aside
        if not 0 <= dealt.set_aside_count <= aside:
            raise self.fail(
                0,
                dealt,
                N_("Dealt.set_aside_count must be from 0 to %(aside)s; got %(got)s"),
                aside=aside,
                got=dealt.set_aside_count,
            )
        stocked = self.rules.dealing.hand_size is not None
        if not 0 <= dealt.stock_count <= (size if stocked else 0):
            if stocked:
                raise self.fail(
                    0,
                    dealt,
                    N_("Dealt.stock_count must be from 0 to %(size)s; got %(got)s"),
                    size=size,
                    got=dealt.stock_count,
                )
            raise self.fail(
                0,
                dealt,
                N_("Dealt.stock_count must be 0 (these rules have no stock); got %(got)s"),
                got=dealt.stock_count,
            )
        total = sum(dealt.hand_sizes) + dealt.set_aside_count + dealt.stock_count
        if total > size:
            raise self.fail(
                0,
                dealt,
                N_(
                    "Dealt.hand_sizes, set_aside_count and stock_count add up to %(total)s "
                    "cards; the deck holds %(size)s"
                ),
                total=total,
                size=size,
            )

    def check_deal_hands(self, dealt: Dealt) -> None:
        """The seat sees its own hand, of the size dealt, and no other cards."""
        players = self.players
        if len(dealt.hands) != players:
            raise self.fail(
                0,
                dealt,
                N_("Dealt.hands must give %(players)s hands, one per seat"),
                players=players,
            )
        for seat, hand in enumerate(dealt.hands):
            if seat != self.me and hand:
                raise self.fail(
                    0,
                    dealt,
                    N_("Dealt.hands: seat %(me)s cannot see seat %(seat)s's hand"),
                    me=self.me,
                    seat=seat,
                )
        if dealt.set_aside or dealt.stock:
            raise self.fail(
                0, dealt, N_("Dealt.set_aside and Dealt.stock are hidden from every seat")
            )
        mine = dealt.hands[self.me]
        if len(mine) != dealt.hand_sizes[self.me]:
            raise self.fail(
                0,
                dealt,
                N_("Dealt.hands: seat %(me)s holds %(held)s cards; Dealt.hand_sizes says %(said)s"),
                me=self.me,
                held=len(mine),
                said=dealt.hand_sizes[self.me],
            )
        _deck_check(self.seen, Counter(mine), "view.events[0] (Dealt): Dealt.hands")

    def check_opener(self, dealt: Dealt, first: Event) -> None:
        """The first claim comes from the seat the opening rule names, where the seat can tell.

        The rule is asked of the deal as the seat knows it, with the cards it
        did not see given in turn to each other seat (or to none). Where every
        answer is one seat, as with the dealer's left, or the holder of a card
        the seat holds itself, a first claim by any other seat is refused.
        """
        if not isinstance(first, Played):
            return  # fours set aside first; a seat may leave before the first claim
        players = self.players
        mine = dealt.hands[self.me]
        unseen = tuple(sorted((Counter(self.rules.deck.cards()) - Counter(mine)).elements()))
        openers = set()
        for holder in (None, *range(players)):
            hands = tuple(
                mine if seat == self.me else unseen if seat == holder else ()
                for seat in range(players)
            )
            openers.add(self.rules.opening.first(dealt.dealer, hands))
        if len(openers) == 1 and first.seat not in openers:
            raise self.fail(
                1,
                first,
                N_("seat %(opener)s makes the first claim, not seat %(seat)s"),
                opener=openers.pop(),
                seat=first.seat,
            )

    def start(self, dealt: Dealt) -> None:
        """What the seat knows right after the deal."""
        self.public = Table.dealt(self.rules, dealt)
        self.hand: Counter[Card] = Counter(dealt.hands[self.me])
        # The cards the seat laid in each group on the table, as public.claims
        # lists them (empty for another seat's group).
        self.laid: list[tuple[Card, ...]] = []
        self.challenge: Challenged | None = None
        self.shown: Revealed | None = None
        self.ending = False  # the last seat out ended the game: GameOver comes next
        # The decision the log says comes next (None where it does not say,
        # as at the deal or after a pickup, where the taker's fours decide),
        # and how many passes took effect since the last claim.
        self.expected: _Expected | None = None
        self.passes = 0
        # What the rules' pass asks of the cards shown: the most copies of each card
        # (by key) one check showed, as the engine keeps them; and whether the
        # seat to lay cards just had its pass refused.
        self.revealed = NONE_SHOWN
        self.refused = False

    def follow(self, index: int, event: Event, before: Event) -> None:
        """Check ``event`` (``before`` came just before it), then move on by it."""
        self.check_order(index, event, before)
        forced = isinstance(event, Discarded) and event.forced
        if forced and isinstance(self.expected, _AfterPickup):
            self.expected.chosen(self.public.seating)  # the opener, chosen before the fours
        if not (forced or isinstance(event, (WentOut, GameOver, Drew))):
            # Cards drawn, fours set aside unasked and seats leaving come
            # between a decision and the next; the next is worked out once
            # they have come.
            self.answer(index, event)
        if isinstance(event, _DECISIONS) and not forced:
            self.check_gone(index, event)
        for kind, follower in _FOLLOWERS:
            if isinstance(event, kind):
                follower(self, index, event, before)
                break
        else:  # a second deal
            raise self.fail(index, event, N_("a game is dealt once, at the start"))
        self.public = self.public.after(self.filled.get(index, event))
        due = isinstance(event, WentOut) and self.rules.ending.is_over(self.public.seating)
        if due and index == len(self.seen.events) - 1:
            raise self.fail(index, event, N_("the rules' ending says the game is over here"))
        self.ending = due

    def check_gone(self, index: int, event: Event) -> None:
        """Nobody decides while a seat with no cards left, its last claim let stand, is still in.

        Such a seat goes out as soon as its final claim stands (a play on it,
        the last acceptance, a pass, a true reveal), before anything else is
        decided; until then its claim is the newest on the table.
        """
        claims = self.public.claims
        for seat in self.public.seating.active:
            if not self.public.hand_sizes[seat] and not (claims and claims[-1].seat == seat):
                raise self.fail(
                    index,
                    event,
                    N_("seat %(seat)s has no cards left: its WentOut comes before this"),
                    seat=seat,
                )

    def answer(self, index: int, event: Event) -> None:
        """The event answers the decision the log says was asked, if it says one."""
        expected = self.expected
        decision = None if expected is None else expected(self.public.seating)
        self.expected = None
        if decision is None:
            if isinstance(event, Discarded):  # on the opening turn
                self.expected = partial(_turn_or_next, Turn(event.seat))
            return
        if isinstance(decision, Turn):
            decision = self.turn(decision.seat)
            if isinstance(event, (Played, Passed, Challenged)):
                self.refused = False
        seat = getattr(event, "seat", None)
        answers = isinstance(decision, _ANSWERS.get(type(event), ())) and seat == decision.to_move
        if answers and isinstance(event, Challenged) and isinstance(decision, (Window, Turn)):
            # The engine's window, or the turn, says which claims this seat may challenge.
            answers = Challenge(earlier=event.earlier) in decision.choices
        if answers and isinstance(event, Passed) and isinstance(decision, Turn):
            answers = decision.may_pass
        if not answers:
            raise self.fail(
                index,
                event,
                N_("%(kind)s by seat %(seat)s cannot come here: %(asked)s"),
                kind=type(event).__name__,
                seat=seat,
                asked=decision.asking(self.public),
            )
        if isinstance(decision, (Window, Consent)) and isinstance(event, Accepted):
            self.accepted(index, event, decision)
        elif isinstance(decision, Consent) and isinstance(event, Refused):
            self.expected = partial(_same, Turn(decision.passer))  # the passer lays cards
            self.refused = True
        elif isinstance(decision, Turn) and isinstance(event, Discarded):
            # Fours set aside on a turn: the player goes on to lay cards, if still in.
            self.expected = partial(_turn_or_next, decision)
        elif isinstance(decision, DiscardOffer):
            # The taker has chosen: as the engine does, a final play kept on the
            # table is asked about again, else the seat the challenge chose opens.
            claims = self.public.claims
            kept = claims[-1] if claims else None
            self.expected = partial(_reopened, kept, decision.still_to_ask(), decision.opener)

    def turn(self, seat: int) -> Turn:
        """``seat``'s turn with the choices the engine gives it now (challenge, pass)."""
        return Turn.given(
            self.rules, self.public, seat, self.passes, self.revealed, refused=self.refused
        )

    def accepted(self, index: int, event: Accepted, decision: Window | Consent) -> None:
        """An acceptance: the next seat is asked; or the claim stands, or the pass takes effect."""
        following = decision.next_asked()
        passer = decision.passer if isinstance(decision, Consent) and following is None else None
        if event.passer is None and passer is not None:
            # A record written before acceptances named the pass they completed.
            self.filled[index] = attrs.evolve(event, passer=passer)
        elif event.passer != passer:
            raise self.fail(
                index,
                event,
                N_("passer must be %(passer)s, as the seats asked to agree give"),
                passer="null" if passer is None else passer,
            )
        if following is not None:
            self.expected = partial(_same, following)
        elif isinstance(decision, Window):
            self.expected = partial(_opening, decision)
        else:
            self.took_effect(decision.passer)

    def took_effect(self, passer: int) -> None:
        """``passer``'s pass took effect: the player after it lays cards."""
        self.passes += 1
        self.expected = partial(_next_turn, passer)

    def check_order(self, index: int, event: Event, before: Event) -> None:
        """The events that must come next: the end, or the rest of a challenge."""
        if self.ending and not isinstance(event, GameOver):
            raise self.fail(index, event, N_("the rules' ending says the game was over already"))
        if isinstance(before, Challenged) and not isinstance(event, Revealed):
            raise self.fail(index, event, N_("a challenge is followed by the cards it turned over"))
        if isinstance(before, Revealed) and not isinstance(event, PileTaken):
            raise self.fail(index, event, N_("the cards turned over are followed by the pickup"))

    def on_played(self, index: int, event: Played, before: Event) -> None:
        """A group laid: by the seat itself (its cards shown) or by another (hidden)."""
        me = self.me
        self.active(index, event, event.seat)
        # A hand smaller than the smallest claim lays all it holds.
        sizes = self.rules.claims.sizes(self.public.hand_sizes[event.seat])
        self.count(index, event, event.count, sizes.start, sizes.stop - 1)
        _rank_in(self, index, event, event.rank)
        if event.rank not in self.public.allowed_ranks:
            allowed = " ".join(map(str, self.public.allowed_ranks))
            raise self.fail(
                index,
                event,
                N_("the rank %(rank)s may not be announced now (allowed: %(allowed)s)"),
                rank=event.rank,
                allowed=allowed,
            )
        laid: tuple[Card, ...] = ()
        if event.seat == me:
            laid = event.cards
            if len(laid) != event.count:
                raise self.fail(index, event, N_("the seat's own play must show the cards laid"))
            if Counter(laid) - self.hand:
                missing = " ".join(map(str, sorted((Counter(laid) - self.hand).elements())))
                raise self.fail(
                    index,
                    event,
                    N_("seat %(me)s lays %(missing)s, not in its hand"),
                    me=me,
                    missing=missing,
                )
            self.hand -= Counter(laid)
        elif event.cards:
            raise self.fail(
                index,
                event,
                N_("seat %(me)s cannot see seat %(seat)s's cards"),
                me=me,
                seat=event.seat,
            )
        self.laid.append(laid)
        claims = self.public.claims
        beneath = claims[-1] if claims else None
        claim = Claim(event.seat, event.count, event.rank)
        # The window the engine opens on this claim, once any player whose
        # final play it let stand has left; with none, the next player lays.
        self.expected = partial(_window, self.rules, claim, beneath, self.passes > 0)
        self.passes = 0

    def on_challenged(self, index: int, event: Challenged, before: Event) -> None:
        """A challenge of the newest claim, or with an extended window the one beneath it."""
        self.active(index, event, event.seat)
        self.seat(index, event, event.declarer, "declarer")
        if event.earlier and not self.rules.window.extended:
            raise self.fail(index, event, N_("only an extended window reaches an earlier claim"))
        needed = 2 if event.earlier else 1
        claims = self.public.claims
        if len(claims) < needed:
            raise self.fail(index, event, N_("there is no such claim on the table to challenge"))
        claim = claims[-needed]
        if event.declarer != claim.seat:
            raise self.fail(
                index,
                event,
                N_("declarer %(declarer)s did not make that claim (seat %(seat)s did)"),
                declarer=event.declarer,
                seat=claim.seat,
            )
        if event.seat == event.declarer:
            raise self.fail(index, event, N_("a seat cannot challenge its own claim"))
        self.challenge = event

    def group(self, earlier: bool) -> tuple[Claim, tuple[Card, ...]]:
        """The claim challenged (the newest, or the one beneath) and the cards the seat laid."""
        place = -2 if earlier else -1
        return self.public.claims[place], self.laid[place]

    def on_revealed(self, index: int, event: Revealed, before: Event) -> None:
        """The cards a challenge turned over, and whether they hold the claim."""
        me = self.me
        challenge = self.challenge
        if not isinstance(before, Challenged) or challenge is None:
            raise self.fail(index, event, N_("cards are turned over only after a challenge"))
        claim, laid = self.group(challenge.earlier)
        if (event.seat, event.rank, event.earlier) != (claim.seat, claim.rank, challenge.earlier):
            raise self.fail(
                index, event, N_("the seat, rank and earlier must be those of the group challenged")
            )
        if not 1 <= len(event.cards) <= claim.count:
            raise self.fail(
                index,
                event,
                N_("shows 1 to %(most)s cards of the group; got %(got)s"),
                most=claim.count,
                got=len(event.cards),
            )
        if event.truthful != proves(self.rules.check, event.cards, event.rank):
            raise self.fail(
                index, event, N_("truthful must say whether the cards shown hold the claim")
            )
        if claim.seat == me:
            if Counter(event.cards) - Counter(laid):
                raise self.fail(
                    index, event, N_("shows cards seat %(me)s did not lay in that group"), me=me
                )
        else:
            self.held_check(index, event, event.cards, shown=True)
        if self.filling:
            event = self.fill_positions(index, event, claim, laid)
        else:
            self.check_positions(index, event, claim, laid)
        self.shown = event
        self.revealed = shown_after(self.revealed, event.cards)

    def fill_positions(
        self, index: int, event: Revealed, claim: Claim, laid: tuple[Card, ...]
    ) -> Revealed:
        """A version-1 reveal with the places its cards were turned over from, as the engine says.

        Whether chance chose them, the rules' check tells (asked of a group
        of that size); the places are the seat's own group's, known to it,
        the whole group's where the check turned it all over, and none
        (unseen) where chance chose them in a group the seat did not lay.
        """
        drawn = _check_draws(self.seen, claim.count)
        if claim.seat == self.me:
            positions = positions_in(laid, event.cards)
        elif drawn:
            positions = ()
        else:
            positions = tuple(range(len(event.cards)))
        filled = attrs.evolve(event, positions=positions, drawn=drawn)
        self.filled[index] = filled
        return filled

    def check_positions(
        self, index: int, event: Revealed, claim: Claim, laid: tuple[Card, ...]
    ) -> None:
        """The places a reveal names: none if chance chose them unseen, else one per card shown."""
        positions = event.positions
        drawn = _check_draws(self.seen, claim.count)
        if event.drawn and not drawn:
            raise self.fail(
                index, event, N_("drawn must be false: these rules' check draws nothing")
            )
        if drawn and not event.drawn:
            raise self.fail(
                index,
                event,
                N_("drawn must be true: these rules' check draws the cards it turns over"),
            )
        if not drawn:
            turned = len(self.rules.check.shown(_some_group(self.seen, claim.count), Chance("")))
            if len(event.cards) != turned:
                raise self.fail(
                    index,
                    event,
                    N_("the check turns over %(turned)s cards of a group of %(count)s"),
                    turned=turned,
                    count=claim.count,
                )
        if event.drawn and claim.seat != self.me:
            if positions:
                raise self.fail(
                    index, event, N_("places chance chose in another seat's group are not seen")
                )
            return
        if len(positions) != len(event.cards) or len(set(positions)) != len(positions):
            raise self.fail(
                index, event, N_("positions must name one place of the group for each card shown")
            )
        if not all(0 <= place < claim.count for place in positions):
            raise self.fail(
                index,
                event,
                N_("positions must be places of the group, 0 to %(last)s"),
                last=claim.count - 1,
            )
        if claim.seat == self.me and positions != positions_in(laid, event.cards):
            raise self.fail(
                index, event, N_("positions must be where the cards shown lie in the group")
            )
        self.check_sorted_places(index, event)
        self.check_shown(index, event, claim, laid)

    def check_sorted_places(self, index: int, event: Revealed) -> None:
        """A group lies sorted on the table, copies of a card in the first places that hold it.

        So the cards shown, taken by their places, never fall in rank, and
        copies of one card shown take rising places in the order shown.
        """
        shown = tuple(zip(event.positions, event.cards, strict=True))
        if any(later[1] < earlier[1] for earlier, later in pairwise(sorted(shown))):
            raise self.fail(
                index,
                event,
                N_("positions put a card above a lower one, but a group lies sorted on the table"),
            )
        for card in set(event.cards):
            places = [place for place, copy in shown if copy == card]
            if places != sorted(places):
                raise self.fail(
                    index,
                    event,
                    N_("copies of %(card)s shown must take, in order, the first places holding it"),
                    card=card,
                )

    def check_shown(
        self, index: int, event: Revealed, claim: Claim, laid: tuple[Card, ...]
    ) -> None:
        """Where the group is known and chance steers no check, the check's cards, in its order.

        The group is known to its declarer, and to all where every card of it
        was shown; a check that chance does not steer turns over the same
        cards of it, in the same order, each time (the engine asks it).
        """
        if event.drawn:
            return
        if claim.seat == self.me:
            group = laid
        elif len(event.cards) == claim.count:
            group = tuple(sorted(event.cards))
        else:
            return
        chance = Chance("view")
        shown = tuple(self.rules.check.shown(group, chance))
        if chance.used:
            return
        if (event.cards, event.positions) != (shown, positions_in(group, shown)):
            raise self.fail(
                index,
                event,
                N_("the check turns over %(shown)s of this group, in that order, at places %(at)s"),
                shown=" ".join(map(str, shown)),
                at=" ".join(map(str, positions_in(group, shown))),
            )

    def on_pile_taken(self, index: int, event: PileTaken, before: Event) -> None:
        """The pickup that ends a challenge: the loser takes the pile."""
        me = self.me
        shown = self.shown
        challenge = self.challenge
        if not isinstance(before, Revealed) or shown is None or challenge is None:
            raise self.fail(index, event, N_("the pile is taken only after a challenge"))
        taker = challenge.seat if shown.truthful else challenge.declarer
        if event.seat != taker:
            raise self.fail(
                index,
                event,
                N_("seat %(taker)s takes the pile after that challenge, not seat %(seat)s"),
                taker=taker,
                seat=event.seat,
            )
        event = self.pickup_groups(index, event, shown)
        claims = self.public.claims
        pile = sum(claim.count for claim in claims[: event.groups])
        if event.count != pile:
            raise self.fail(
                index, event, N_("count must be the %(pile)s cards on the table"), pile=pile
            )
        challenged = self.group(shown.earlier)[0]
        taken, self.laid = self.laid[: event.groups], self.laid[event.groups :]
        if event.seat == me:
            self.check_own_pickup(index, event, shown, challenged, taken)
            self.hand += Counter(event.cards)
            self.held_check(index, event, event.cards, shown=False)
        elif event.cards:
            raise self.fail(
                index,
                event,
                N_("seat %(me)s cannot see the cards seat %(seat)s took"),
                me=me,
                seat=event.seat,
            )
        kept = claims[-1] if event.kept else None  # the claim staying, once the pile is taken
        self.expected = _AfterPickup(self.rules, challenge, shown.truthful, kept)
        self.challenge = self.shown = None
        self.passes = 0

    def pickup_groups(self, index: int, event: PileTaken, shown: Revealed) -> PileTaken:
        """The groups the pickup took and kept, checked; or, for version 1, worked out."""
        claims = self.public.claims
        taker = event.seat
        if self.filling:
            # Version 1 names no groups: with an extended window, a final play
            # (its declarer's hand is empty) stays on the table when the claim
            # beneath it is challenged, as the engine decided then.
            newest = claims[-1]
            keeps = (
                shown.earlier and newest.seat != taker and not self.public.hand_sizes[newest.seat]
            )
            event = attrs.evolve(event, groups=len(claims) - keeps, kept=int(keeps))
            self.filled[index] = event
        elif event.kept not in (0, 1) or event.groups + event.kept != len(claims):
            raise self.fail(
                index,
                event,
                N_("groups and kept must add up to the number of groups on the table, %(groups)s"),
                groups=len(claims),
            )
        elif event.kept and not shown.earlier:
            raise self.fail(
                index,
                event,
                N_("a group stays on the table only after an earlier claim is challenged"),
            )
        return event

    def check_own_pickup(
        self,
        index: int,
        event: PileTaken,
        shown: Revealed,
        challenged: Claim,
        taken: list[tuple[Card, ...]],
    ) -> None:
        """The seat's own pickup shows every card taken, among them all it knew of."""
        if len(event.cards) != event.count:
            raise self.fail(index, event, N_("the seat's own pickup must show the cards taken"))
        known: Counter[Card] = Counter()
        for laid in taken:
            known.update(laid)
        if challenged.seat != self.me:
            known.update(shown.cards)
        if known - Counter(event.cards):
            raise self.fail(
                index, event, N_("the cards taken must hold those the seat laid and was shown")
            )

    def on_drew(self, index: int, event: Drew, before: Event) -> None:
        """Cards drawn from the stock after a pickup or a pass."""
        me = self.me
        self.active(index, event, event.seat)
        if not isinstance(before, (PileTaken, Passed, Accepted)):
            raise self.fail(index, event, N_("a card is drawn only after a pickup or a pass"))
        stock = self.public.stock_size
        drawn = min(stock, self.rules.dealing.draws)
        if not drawn:
            raise self.fail(index, event, N_("nothing is drawn from an empty stock"))
        if event.count != drawn:
            raise self.fail(
                index,
                event,
                N_(
                    "count must be %(drawn)s: the rules draw %(draws)s, "
                    "and the stock holds %(stock)s; got %(got)s"
                ),
                drawn=drawn,
                draws=self.rules.dealing.draws,
                stock=stock,
                got=event.count,
            )
        if event.seat == me:
            if len(event.cards) != event.count:
                raise self.fail(index, event, N_("the seat's own draw must show the cards drawn"))
            self.hand += Counter(event.cards)
            self.held_check(index, event, event.cards, shown=False)
        elif event.cards:
            raise self.fail(
                index,
                event,
                N_("seat %(me)s cannot see the cards seat %(seat)s drew"),
                me=me,
                seat=event.seat,
            )

    def on_discarded(self, index: int, event: Discarded, before: Event) -> None:
        """Fours set aside, shown to every seat."""
        me = self.me
        self.active(index, event, event.seat)
        for rank in event.ranks:
            _rank_in(self, index, event, rank)
        if event.forced and not self.rules.discards.compulsory:
            raise self.fail(index, event, N_("only compulsory discards are forced"))
        wanted = Counter({rank: 4 * times for rank, times in Counter(event.ranks).items()})
        if Counter(card.rank for card in event.cards) != wanted:
            raise self.fail(index, event, N_("cards must be one four of each rank in ranks"))
        held = self.public.hand_sizes[event.seat]
        if len(event.cards) > held:
            raise self.fail(
                index,
                event,
                N_("seat %(seat)s holds only %(held)s cards"),
                seat=event.seat,
                held=held,
            )
        if event.seat == me:
            if Counter(event.cards) - self.hand:
                raise self.fail(
                    index, event, N_("seat %(me)s discards cards not in its hand"), me=me
                )
            self.hand -= Counter(event.cards)
        self.held_check(index, event, event.cards, shown=False)

    def on_answer(self, index: int, event: Accepted | Refused, before: Event) -> None:
        """An acceptance or a refusal: only its seat is checked here."""
        self.active(index, event, event.seat)

    def on_passed(self, index: int, event: Passed, before: Event) -> None:
        """A pass: where the rules want consent, every other seat is asked; else it takes effect."""
        self.active(index, event, event.seat)
        if self.rules.passing.consent:
            self.expected = partial(_consent, event.seat)
        else:
            self.took_effect(event.seat)

    def on_went_out(self, index: int, event: WentOut, before: Event) -> None:
        """A seat with no cards left leaves the game."""
        self.active(index, event, event.seat)
        held = self.public.hand_sizes[event.seat]
        if held:
            raise self.fail(
                index,
                event,
                N_("seat %(seat)s still holds %(held)s cards"),
                seat=event.seat,
                held=held,
            )

    def on_game_over(self, index: int, event: GameOver, before: Event) -> None:
        """The end, when the rules' ending says so, with the result it gives."""
        seating = self.public.seating
        rule = self.rules.ending
        if not isinstance(before, WentOut) or not rule.is_over(seating):
            raise self.fail(index, event, N_("the game ends only when the rules' ending says so"))
        if (event.winners, event.losers) != tuple(map(tuple, rule.result(seating))):
            raise self.fail(index, event, N_("winners and losers must be those the rules give"))

    def decision(self) -> Decision | None:
        """The decision the engine asks at the end of the log; ``None`` right after the deal.

        Where the taker holds fours, or the seat may pass or challenge on
        its turn, the view itself says so: this is the decision as another
        seat sees it.
        """
        if self.public.outcome is not None:
            return Over(self.public.outcome)
        expected = self.expected
        return None if expected is None else expected(self.public.seating)

    def check_turn(self) -> None:
        """The view's phase and seat to move are those of the decision the log leads to."""
        seen = self.seen
        events = seen.events
        if isinstance(events[-1], Challenged):
            raise self.fail(
                len(events) - 1,
                events[-1],
                N_("a challenge is followed by the cards it turned over"),
            )
        if isinstance(events[-1], Revealed):
            raise self.fail(
                len(events) - 1, events[-1], N_("the cards turned over are followed by the pickup")
            )
        decision = self.decision()
        if decision is None:
            decision = Turn(seen.to_move) if seen.to_move is not None else None
        if decision is None or seen.phase is Phase.OVER:
            return
        if (seen.phase, seen.to_move) != (decision.phase, decision.to_move):
            raise RecordError(
                N_(
                    "view.phase and view.to_move must be %(phase)s and seat %(mover)s, "
                    "as the events give"
                ),
                phase=decision.phase.value,
                mover=decision.to_move,
            )
        if isinstance(decision, Turn) and decision.seat == self.me:
            choices = self.turn(decision.seat).choices
            if seen.choices != choices:
                raise RecordError(
                    N_("view.choices must be [%(said)s], as the rules give on this turn"),
                    said=", ".join(map(str, choices)),
                )

    def compare(self) -> None:
        """The stored fields are the table the log folds to, and the hand it leaves the seat."""
        seen = self.seen
        public = self.public
        if public.hand_sizes != seen.hand_sizes:
            said = " ".join(map(str, public.hand_sizes))
            raise RecordError(N_("view.hand_sizes must be %(said)s, as the events give"), said=said)
        if self.hand != Counter(seen.hand):
            held = " ".join(map(str, sorted(self.hand.elements())))
            raise RecordError(
                N_("view.hand must be %(said)s, as the events give"),
                said=held or Message(N_("(empty)")),
            )
        if public.claims != seen.claims:
            raise RecordError(N_("view.claims must be the groups laid since the last pickup"))
        if public.allowed_ranks != seen.allowed_ranks:
            said = " ".join(map(str, public.allowed_ranks))
            raise RecordError(
                N_("view.allowed_ranks must be %(said)s, as the events give"),
                said=said or Message(N_("(empty)")),
            )
        if public.discarded != seen.discarded:
            raise RecordError(N_("view.discarded must be the cards the Discarded events set aside"))
        if public.set_aside_count != seen.set_aside_count:
            raise RecordError(
                N_("view.set_aside_count must be %(aside)s, as the deal gives"),
                aside=public.set_aside_count,
            )
        if public.stock_size != seen.stock_size:
            raise RecordError(
                N_("view.stock_size must be %(stock)s, as the deal and draws give"),
                stock=public.stock_size,
            )
        if public.finishing_order != seen.finishing_order:
            raise RecordError(N_("view.finishing_order must be the seats the WentOut events name"))
        if public.outcome != seen.outcome:
            raise RecordError(N_("view.outcome must be the one the GameOver event gives"))


# -- the decision the log says comes next, worked out once seats leaving have left ---------


def _same(decision: Decision, seating: Seating) -> Decision:
    return decision


def _window(
    rules: Rules, claim: Claim, beneath: Claim | None, passed: bool, seating: Seating
) -> Decision:
    """After a play: the window the rules open on it, else the next player's turn."""
    window = Window.on(rules, seating, claim, beneath, passed)
    return Turn(seating.next_active(claim.seat)) if window is None else window


def _opening(window: Window, seating: Seating) -> Decision:
    """Every seat asked accepted: the claim stands, and the window's opener lays cards."""
    return Turn(window.opener(seating))


def _next_turn(seat: int, seating: Seating) -> Decision:
    return Turn(seating.next_active(seat))


def _turn_or_next(turn: Turn, seating: Seating) -> Decision:
    """After fours set aside on a turn: the same turn, or the next player's if the seat left."""
    return turn if seating.is_active(turn.seat) else Turn(seating.active_from(turn.seat))


def _consent(passer: int, seating: Seating) -> Decision:
    return Consent.to_pass(seating, passer)


def _reopened(
    kept: Claim | None, resume: tuple[int, ...], opener: int, seating: Seating
) -> Decision:
    """``opener`` lays cards; but first, a final play ``kept`` on the table is asked about again.

    Its declarer waits while still in the game; with nobody left to ask it
    has left, and its final play stood.
    """
    if kept is not None and seating.is_active(kept.seat):
        window = Window.again(seating, kept, resume, opener)
        if window is not None:
            return window
    return Turn(seating.active_from(opener))


class _AfterPickup:
    """What the engine asks once a challenge's loser has taken the pile.

    The seat the challenge chose to open is chosen once the pickup's draw
    and the leaving of a player whose final play stood are done, before any
    fours are set aside unasked; then the taker is asked about its fours,
    where the rules ask (their answer for any hand says whether they do),
    and else the game goes on as after the taker's answer.
    """

    def __init__(self, rules: Rules, challenge: Challenged, truthful: bool, kept: Claim | None):
        self.rules = rules
        self.challenge = challenge
        self.truthful = truthful
        self.taker = challenge.seat if truthful else challenge.declarer
        self.kept = kept
        self.opener: int | None = None

    def chosen(self, seating: Seating) -> int:
        """The seat the challenge chose to open (chosen at the first call, from ``seating``)."""
        if self.opener is None:
            challenge = self.challenge
            self.opener = self.rules.after_challenge.opener(
                seating, challenge.declarer, challenge.seat, self.truthful
            )
        return self.opener

    def __call__(self, seating: Seating) -> Decision:
        opener = self.chosen(seating)
        kept = self.kept
        resume: tuple[int, ...] = ()
        if kept is not None and seating.is_active(kept.seat):
            resume = Window.resumed(self.rules, seating, kept.seat, self.challenge.seat)
        discards = self.rules.discards
        if not discards.compulsory and discards.after_pickup(()) is not None:
            return DiscardOffer(self.taker, (), opener, resume=resume)
        return _reopened(kept, resume, opener, seating)


#: The events a seat decides (a Discarded unless forced), as opposed to those that follow.
_DECISIONS = (Played, Challenged, Accepted, Passed, Refused, Discarded)


def _rank_in(replay: _Replay, index: int, event: Event, rank: Rank) -> None:
    if rank not in replay.rules.deck.ranks:
        allowed = " ".join(map(str, replay.rules.deck.ranks))
        raise replay.fail(
            index,
            event,
            N_("the rank %(rank)s is not one of this deck's (%(allowed)s)"),
            rank=rank,
            allowed=allowed,
        )


def _check_draws(seen: StoredView, count: int) -> bool:
    """Whether the rules' check draws from chance to turn over cards of a group of ``count``."""
    return chance_chooses(seen.rules.check, _some_group(seen, count))


def _some_group(seen: StoredView, count: int) -> tuple[Card, ...]:
    """A group of ``count`` cards of the deck, sorted: what a check's shape is asked of."""
    return tuple(sorted(seen.rules.deck.cards()))[:count]


# What the seat checks and learns from each kind of event after the deal, in
# the order they are tried; a Dealt matches none of them.
_FOLLOWERS: tuple[tuple[type[Event], Callable[[_Replay, int, Any, Event], None]], ...] = (
    (Played, _Replay.on_played),
    (Challenged, _Replay.on_challenged),
    (Revealed, _Replay.on_revealed),
    (PileTaken, _Replay.on_pile_taken),
    (Drew, _Replay.on_drew),
    (Discarded, _Replay.on_discarded),
    (Accepted, _Replay.on_answer),
    (Passed, _Replay.on_passed),
    (Refused, _Replay.on_answer),
    (WentOut, _Replay.on_went_out),
    (GameOver, _Replay.on_game_over),
)
