"""Following one seat's log from the deal, refusing any event that could not have happened.

The second half of reading a view record (see :mod:`cheatrules._records.views`):
:class:`_Replay` walks the seat's events in order, keeping what the seat
knows (its hand, every hand's size, the groups on the table, the stock, who
has left) and checking each event against it and the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from cheatrules._records.stored_view import StoredView
from cheatrules.cards import Card, Rank
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
from cheatrules.seating import Seating
from cheatrules.table import Claim, Phase


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


@attrs.define
class _Group:
    """One group on the table as the seat knows it."""

    seat: int
    count: int
    rank: Rank
    cards: tuple[Card, ...]  # the cards, when the seat laid them itself


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
        if value in self.out:
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
        counts = Counter(
            {
                card: self.hand[card] + self.on_table[card] + self.thrown[card] + extra[card]
                for card in set(cards)
            }
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
        for index in range(1, len(events)):
            event = events[index]
            if self.over is not None:
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

    def start(self, dealt: Dealt) -> None:
        """What the seat knows right after the deal."""
        self.sizes = list(dealt.hand_sizes)
        self.hand: Counter[Card] = Counter(dealt.hands[self.me])
        self.table: list[_Group] = []
        self.stock = dealt.stock_count
        self.set_aside = dealt.set_aside_count
        self.discarded: list[Card] = []
        self.thrown: Counter[Card] = Counter()  # the discards, counted
        self.on_table: Counter[Card] = Counter()  # the seat's own cards on the table
        self.out: list[int] = []
        self.over: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        self.challenge: Challenged | None = None
        self.shown: Revealed | None = None
        self.ending = False  # the last seat out ended the game: GameOver comes next
        # Since the last claim, only acceptances (and goings out): its declarer,
        # how many accepted, and the seats its window asks (once known).
        self.claim: tuple[int, int, tuple[int, ...] | None] | None = None

    def follow(self, index: int, event: Event, before: Event) -> None:
        """Check ``event`` (``before`` came just before it) and update what the seat knows."""
        self.turn(index, event)
        self.check_order(index, event, before)
        for kind, follower in _FOLLOWERS:
            if isinstance(event, kind):
                follower(self, index, event, before)
                break
        else:  # a second deal
            raise self.fail(index, event, N_("a game is dealt once, at the start"))
        due = isinstance(event, WentOut) and self.rules.ending.is_over(
            Seating(self.players, tuple(self.out))
        )
        if due and index == len(self.seen.events) - 1:
            raise self.fail(index, event, N_("the rules' ending says the game is over here"))
        self.ending = due

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
        sizes = self.rules.claims.sizes(self.sizes[event.seat])
        self.count(index, event, event.count, sizes.start, sizes.stop - 1)
        _rank_in(self, index, event, event.rank)
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
            self.on_table.update(laid)
        elif event.cards:
            raise self.fail(
                index,
                event,
                N_("seat %(me)s cannot see seat %(seat)s's cards"),
                me=me,
                seat=event.seat,
            )
        self.sizes[event.seat] -= event.count
        self.table.append(_Group(event.seat, event.count, event.rank, laid))

    def on_challenged(self, index: int, event: Challenged, before: Event) -> None:
        """A challenge of the newest claim, or with an extended window the one beneath it."""
        self.active(index, event, event.seat)
        self.seat(index, event, event.declarer, "declarer")
        if event.earlier and not self.rules.window.extended:
            raise self.fail(index, event, N_("only an extended window reaches an earlier claim"))
        needed = 2 if event.earlier else 1
        if len(self.table) < needed:
            raise self.fail(index, event, N_("there is no such claim on the table to challenge"))
        group = self.table[-needed]
        if event.declarer != group.seat:
            raise self.fail(
                index,
                event,
                N_("declarer %(declarer)s did not make that claim (seat %(seat)s did)"),
                declarer=event.declarer,
                seat=group.seat,
            )
        if event.seat == event.declarer:
            raise self.fail(index, event, N_("a seat cannot challenge its own claim"))
        self.challenge = event

    def on_revealed(self, index: int, event: Revealed, before: Event) -> None:
        """The cards a challenge turned over, and whether they hold the claim."""
        me = self.me
        challenge = self.challenge
        if not isinstance(before, Challenged) or challenge is None:
            raise self.fail(index, event, N_("cards are turned over only after a challenge"))
        group = self.table[-2 if challenge.earlier else -1]
        if (event.seat, event.rank, event.earlier) != (
            group.seat,
            group.rank,
            challenge.earlier,
        ):
            raise self.fail(
                index, event, N_("the seat, rank and earlier must be those of the group challenged")
            )
        if not 1 <= len(event.cards) <= group.count:
            raise self.fail(
                index,
                event,
                N_("shows 1 to %(most)s cards of the group; got %(got)s"),
                most=group.count,
                got=len(event.cards),
            )
        if event.truthful != proves(self.rules.check, event.cards, event.rank):
            raise self.fail(
                index, event, N_("truthful must say whether the cards shown hold the claim")
            )
        if group.seat == me:
            if Counter(event.cards) - Counter(group.cards):
                raise self.fail(
                    index, event, N_("shows cards seat %(me)s did not lay in that group"), me=me
                )
        else:
            self.held_check(index, event, event.cards, shown=True)
        if self.filling:
            event = self.fill_positions(index, event, group)
        else:
            self.check_positions(index, event, group)
        self.shown = event

    def fill_positions(self, index: int, event: Revealed, group: _Group) -> Revealed:
        """A version-1 reveal with the places its cards were turned over from, as the engine says.

        Whether chance chose them, the rules' check tells (asked of a group
        of that size); the places are the seat's own group's, known to it,
        the whole group's where the check turned it all over, and none
        (unseen) where chance chose them in a group the seat did not lay.
        """
        drawn = _check_draws(self.seen, group.count)
        if group.seat == self.me:
            positions = positions_in(group.cards, event.cards)
        elif drawn:
            positions = ()
        else:
            positions = tuple(range(len(event.cards)))
        filled = attrs.evolve(event, positions=positions, drawn=drawn)
        self.filled[index] = filled
        return filled

    def check_positions(self, index: int, event: Revealed, group: _Group) -> None:
        """The places a reveal names: none if chance chose them unseen, else one per card shown."""
        positions = event.positions
        if event.drawn and group.seat != self.me:
            if positions:
                raise self.fail(
                    index, event, N_("places chance chose in another seat's group are not seen")
                )
            return
        if len(positions) != len(event.cards) or len(set(positions)) != len(positions):
            raise self.fail(
                index, event, N_("positions must name one place of the group for each card shown")
            )
        if not all(0 <= place < group.count for place in positions):
            raise self.fail(
                index,
                event,
                N_("positions must be places of the group, 0 to %(last)s"),
                last=group.count - 1,
            )
        if group.seat == self.me and positions != positions_in(group.cards, event.cards):
            raise self.fail(
                index, event, N_("positions must be where the cards shown lie in the group")
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
        # With an extended window, a final play (its declarer's hand is
        # empty) stays on the table when the claim beneath it is challenged.
        newest = self.table[-1]
        keeps = shown.earlier and newest.seat != event.seat and self.sizes[newest.seat] == 0
        taken = self.table[:-1] if keeps else self.table
        pile = sum(group.count for group in taken)
        if event.count != pile:
            raise self.fail(
                index, event, N_("count must be the %(pile)s cards on the table"), pile=pile
            )
        if event.seat == me:
            self.check_own_pickup(index, event, shown, taken)
        groups, kept = len(taken), int(keeps)
        if self.filling:
            self.filled[index] = attrs.evolve(event, groups=groups, kept=kept)
        elif (event.groups, event.kept) != (groups, kept):
            raise self.fail(
                index,
                event,
                N_("groups and kept must be the %(groups)s groups taken and the %(kept)s kept"),
                groups=groups,
                kept=kept,
            )
        self.table = [newest] if keeps else []
        self.on_table = Counter(newest.cards) if keeps else Counter()
        if event.seat == me:
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
        self.sizes[event.seat] += pile
        self.challenge = self.shown = None

    def check_own_pickup(
        self, index: int, event: PileTaken, shown: Revealed, taken: list[_Group]
    ) -> None:
        """The seat's own pickup shows every card taken, among them all it knew of."""
        if len(event.cards) != event.count:
            raise self.fail(index, event, N_("the seat's own pickup must show the cards taken"))
        known: Counter[Card] = Counter()
        for group in taken:
            known.update(group.cards)
        if self.table[-2 if shown.earlier else -1].seat != self.me:
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
        high = min(self.stock, self.rules.dealing.draws)
        if not 1 <= event.count <= high:
            raise self.fail(
                index,
                event,
                N_("count must be from 1 to %(high)s (the stock holds %(stock)s); got %(got)s"),
                high=high,
                stock=self.stock,
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
        self.stock -= event.count
        self.sizes[event.seat] += event.count

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
        if len(event.cards) > self.sizes[event.seat]:
            raise self.fail(
                index,
                event,
                N_("seat %(seat)s holds only %(held)s cards"),
                seat=event.seat,
                held=self.sizes[event.seat],
            )
        if event.seat == me:
            if Counter(event.cards) - self.hand:
                raise self.fail(
                    index, event, N_("seat %(me)s discards cards not in its hand"), me=me
                )
            self.hand -= Counter(event.cards)
        self.sizes[event.seat] -= len(event.cards)
        self.discarded.extend(event.cards)
        self.thrown.update(event.cards)
        self.held_check(index, event, event.cards, shown=False)

    def on_answer(self, index: int, event: Accepted | Passed | Refused, before: Event) -> None:
        """An acceptance, a pass or a refusal: only its seat is checked here."""
        self.active(index, event, event.seat)

    def on_went_out(self, index: int, event: WentOut, before: Event) -> None:
        """A seat with no cards left leaves the game."""
        self.active(index, event, event.seat)
        if self.sizes[event.seat]:
            raise self.fail(
                index,
                event,
                N_("seat %(seat)s still holds %(held)s cards"),
                seat=event.seat,
                held=self.sizes[event.seat],
            )
        self.out.append(event.seat)

    def on_game_over(self, index: int, event: GameOver, before: Event) -> None:
        """The end, when the rules' ending says so, with the result it gives."""
        seating = Seating(self.players, tuple(self.out))
        rule = self.rules.ending
        if not isinstance(before, WentOut) or not rule.is_over(seating):
            raise self.fail(index, event, N_("the game ends only when the rules' ending says so"))
        if (event.winners, event.losers) != tuple(map(tuple, rule.result(seating))):
            raise self.fail(index, event, N_("winners and losers must be those the rules give"))
        self.over = (event.winners, event.losers)

    def asked(self) -> tuple[int, int, tuple[int, ...]] | None:
        """The last claim's declarer, acceptances so far, and the seats its window asks."""
        if self.claim is None:
            return None
        declarer, accepted, askers = self.claim
        if askers is None:
            # Asked once any player who went out on laying this claim has left.
            askers = tuple(self.rules.window.askers(self.seating(), declarer))
            self.claim = (declarer, accepted, askers)
        return declarer, accepted, askers

    def seating(self) -> Seating:
        return Seating(self.players, tuple(self.out))

    def turn(self, index: int, event: Event) -> None:
        """Right after a claim: each opponent its window asks, in turn, then the next player."""
        if isinstance(event, (WentOut, GameOver)):
            return
        asked = self.asked()
        if isinstance(event, Played):
            if asked is not None:
                self.after_window(index, event, asked)
            self.claim = (event.seat, 0, None)
            return
        self.claim = None
        if asked is None:
            return
        declarer, accepted, askers = asked
        if isinstance(event, (Accepted, Challenged)) and askers:
            if accepted >= len(askers):
                raise self.fail(
                    index,
                    event,
                    N_("every seat the window asks has answered seat %(declarer)s's claim"),
                    declarer=declarer,
                )
            if event.seat != askers[accepted]:
                raise self.fail(
                    index,
                    event,
                    N_("seat %(asked)s answers seat %(declarer)s's claim now, not seat %(seat)s"),
                    asked=askers[accepted],
                    declarer=declarer,
                    seat=event.seat,
                )
            if isinstance(event, Accepted):
                self.claim = (declarer, accepted + 1, askers)
        elif isinstance(event, Accepted):
            raise self.fail(index, event, N_("these rules ask nobody to accept a claim"))
        elif isinstance(event, (Challenged, Passed)):
            self.after_window(index, event, asked)

    def after_window(
        self, index: int, event: Event, asked: tuple[int, int, tuple[int, ...]]
    ) -> None:
        """A play, a pass or a challenge on a turn after a claim: the next player acts."""
        declarer, accepted, askers = asked
        if accepted < len(askers):
            raise self.fail(
                index,
                event,
                N_("seat %(asked)s must first answer seat %(declarer)s's claim"),
                asked=askers[accepted],
                declarer=declarer,
            )
        mover = self.seating().next_active(declarer)
        seat = getattr(event, "seat", mover)
        if seat != mover:
            raise self.fail(
                index,
                event,
                N_("seat %(mover)s is to move after seat %(declarer)s's claim, not seat %(seat)s"),
                mover=mover,
                declarer=declarer,
                seat=seat,
            )

    def check_turn(self) -> None:
        """A log that ends just after a claim: whose decision it is follows from it."""
        asked = self.asked()
        seen = self.seen
        if asked is None or seen.phase is Phase.OVER:
            return
        declarer, accepted, askers = asked
        if accepted < len(askers):
            phase, mover = Phase.CHALLENGE, askers[accepted]
        else:
            phase, mover = Phase.PLAY, self.seating().next_active(declarer)
        if (seen.phase, seen.to_move) != (phase, mover):
            raise RecordError(
                N_(
                    "view.phase and view.to_move must be %(phase)s and seat %(mover)s after "
                    "seat %(declarer)s's claim"
                ),
                phase=phase.value,
                mover=mover,
                declarer=declarer,
            )

    def compare(self) -> None:
        """The stored fields are what the log implies."""
        seen = self.seen
        if tuple(self.sizes) != seen.hand_sizes:
            said = " ".join(map(str, self.sizes))
            raise RecordError(N_("view.hand_sizes must be %(said)s, as the events give"), said=said)
        if self.hand != Counter(seen.hand):
            held = " ".join(map(str, sorted(self.hand.elements())))
            raise RecordError(
                N_("view.hand must be %(said)s, as the events give"),
                said=held or Message(N_("(empty)")),
            )
        claims = tuple(Claim(group.seat, group.count, group.rank) for group in self.table)
        if claims != seen.claims:
            raise RecordError(N_("view.claims must be the groups laid since the last pickup"))
        if tuple(self.discarded) != seen.discarded:
            raise RecordError(N_("view.discarded must be the cards the Discarded events set aside"))
        if self.set_aside != seen.set_aside_count:
            raise RecordError(
                N_("view.set_aside_count must be %(aside)s, as the deal says"), aside=self.set_aside
            )
        if self.stock != seen.stock_size:
            raise RecordError(
                N_("view.stock_size must be %(stock)s, as the deal and draws give"),
                stock=self.stock,
            )
        if tuple(self.out) != seen.finishing_order:
            raise RecordError(N_("view.finishing_order must be the seats the WentOut events name"))
        outcome = None if seen.outcome is None else (seen.outcome.winners, seen.outcome.losers)
        if self.over != outcome:
            raise RecordError(N_("view.outcome must be the one the GameOver event gives"))


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
    return chance_chooses(seen.rules.check, tuple(sorted(seen.rules.deck.cards()))[:count])


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
    (Passed, _Replay.on_answer),
    (Refused, _Replay.on_answer),
    (WentOut, _Replay.on_went_out),
    (GameOver, _Replay.on_game_over),
)
