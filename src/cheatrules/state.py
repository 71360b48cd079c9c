"""The game state and its transition function.

A :class:`GameState` is an immutable value. :meth:`GameState.apply` returns
the state after one decision and leaves the old one untouched, so undo,
branching and search need no extra machinery. The engine asks the policies of
its :class:`~cheatrules.Rules`; it never asks which game it is playing.

>>> import cheatrules as cr
>>> state = cr.deal(cr.english(players=3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
>>> state.to_move, state.phase, state.required_rank
(0, Phase.PLAY, Rank.ACE)
>>> state = state.apply(cr.Play("K♦", "A"))
>>> state.phase, state.to_move, state.last_claim
(Phase.CHALLENGE, 1, Claim(seat=0, count=1, rank=Rank.ACE))
>>> state = state.apply(cr.Challenge())
>>> [str(event) for event in state.events[-3:]]
['seat 1 challenges seat 0', 'seat 0 showed K♦: a lie', 'seat 0 takes 1 card']
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import attrs

from cheatrules import _persistent
from cheatrules._checks import whole_number
from cheatrules._generation import (
    CONSENT_ACTIONS,
    EARLIER_WINDOW_ACTIONS,
    WINDOW_ACTIONS,
)
from cheatrules._persistent import Stack
from cheatrules.actions import Accept, Action, Challenge, Discard, Pass, Play, Refuse
from cheatrules.cards import CARD_BY_KEY, Card, Rank
from cheatrules.chance import Chance, Drawn
from cheatrules.errors import IllegalActionError, SeatError
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
    describe_claim,
)
from cheatrules.legal import LegalActions
from cheatrules.observation import Observation
from cheatrules.policies.challenges import proves
from cheatrules.rules import Rules
from cheatrules.seating import Seating
from cheatrules.table import Claim, Outcome, Phase

__all__ = ["Claim", "GameState", "Outcome", "Phase"]


# One group on the table: the claim and the cards actually laid.
_Group = tuple[Claim, tuple[Card, ...]]
# What the discard phase remembers: the fours offered, and the seat that
# opens once the taker has chosen.
_Pending = tuple[tuple[Rank, ...], int]

_CHALLENGE = Challenge()
_EARLIER = Challenge(earlier=True)
_ACCEPT = Accept()
_PASS = Pass()
_REFUSE = Refuse()
# Copies of each card key shown so far, before any challenge.
_NONE_SHOWN = (0,) * (Rank.JOKER.value * 4 + 4)
_SAME: Any = object()


@attrs.frozen(eq=False, repr=False, getstate_setstate=False)
class GameState:
    """The complete, omniscient state of one game.

    Make one with :func:`~cheatrules.deal`; move it on with :meth:`apply`.
    Frozen, hashable and comparable: two states are equal when they hold the
    same rules, seed, scripted draws (:attr:`draws`) and history, and equal
    states have equal successors.
    """

    #: The rules being played.
    rules: Rules
    #: The seed of the shuffle, kept so the game can be replayed (``None`` for a fixed deal
    #: dealt without one).
    seed: int | None
    #: The dealer's seat.
    dealer: int
    #: The cards put out of play unseen at the deal (Verish' Ne Verish' sets one aside).
    set_aside: tuple[Card, ...]
    _hands: tuple[tuple[Card, ...], ...]
    _keys: tuple[tuple[int, ...], ...]
    _table: Stack[_Group]
    _table_size: int
    _previous_rank: Rank | None
    _phase: Phase
    _to_move: int | None
    _askers: tuple[int, ...]
    _waiting: int | None
    _pending: _Pending | None
    _seating: Seating
    _allowed: tuple[Rank, ...]
    _discarded: tuple[Card, ...]
    _log: Stack[Event]
    _log_length: int
    _outcome: Outcome | None
    #: The stock, top first (the fixed-hand variation; empty otherwise).
    stock: tuple[Card, ...] = ()
    # Whether the claim beneath the newest may still be challenged (an extended window).
    _earlier: bool = False
    # How many players in a row have passed since the last claim.
    _passes: int = 0
    # The seat asking to pass (consent phase), or refused a pass this turn (play phase).
    _passer: int | None = None
    # For each card key, the most copies shown face up at once in a challenge.
    _revealed: tuple[int, ...] = _NONE_SHOWN
    # A final play kept on the table while the claim beneath it was challenged
    # (an extended window): the opponents still to be asked about it, held
    # through the taker's discard phase...
    _resume: tuple[int, ...] = ()
    # ...and the seat that challenge chose to play next, should the final play stand.
    _after: int | None = None
    # Draws scripted into the game, by moment (the log's length when drawn),
    # oldest first: the card a check turns over then. Any other draw is
    # seeded from the seed and the moment. Part of the value, as the seed is.
    _draws: tuple[tuple[int, Card], ...] = ()
    _memo: dict[object, Any] = attrs.field(init=False, factory=dict)

    # -- reading the state -------------------------------------------------

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.rules.players

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now; ``None`` once the game is over."""
        return self._to_move

    @property
    def phase(self) -> Phase:
        """The kind of decision :attr:`to_move` faces."""
        return self._phase

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's hand, each sorted; this is the omniscient view of every hand."""
        return self._hands

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return tuple(map(len, self._keys))

    @property
    def pile(self) -> tuple[Card, ...]:
        """Every card on the table, oldest first."""
        return tuple(card for _, laid in _persistent.oldest_first(self._table) for card in laid)

    @property
    def pile_size(self) -> int:
        """How many cards are on the table."""
        return self._table_size

    @property
    def groups(self) -> tuple[tuple[Claim, tuple[Card, ...]], ...]:
        """The groups on the table, oldest first, each a claim with the cards actually laid."""
        return tuple(_persistent.oldest_first(self._table))

    @property
    def discarded(self) -> tuple[Card, ...]:
        """The cards set aside in complete fours, in the order they were discarded."""
        return self._discarded

    @property
    def required_rank(self) -> Rank | None:
        """The rank the next :class:`~cheatrules.Play` must announce.

        During a challenge window, the rank of the play that will follow it;
        ``None`` when the player may choose among several (see
        :attr:`allowed_ranks`) or the game is over.
        """
        allowed = self._allowed
        if len(allowed) == 1 and self._phase is not Phase.OVER:
            return allowed[0]
        return None

    @property
    def allowed_ranks(self) -> tuple[Rank, ...]:
        """Every rank the next play may announce (empty once the game is over)."""
        return () if self._phase is Phase.OVER else self._allowed

    @property
    def last_claim(self) -> Claim | None:
        """The newest claim on the table; ``None`` when the table is empty."""
        table = self._table
        return None if table is None else table[0][0]

    @property
    def seating(self) -> Seating:
        """Who is still in the game, and who has left in which order."""
        return self._seating

    @property
    def finishing_order(self) -> tuple[int, ...]:
        """The seats that have gone out, in the order they went."""
        return self._seating.out

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._phase is Phase.OVER

    @property
    def outcome(self) -> Outcome | None:
        """The winners and losers once the game is over, else ``None``."""
        return self._outcome

    @property
    def draws(self) -> tuple[tuple[int, Card], ...]:
        """The draws scripted into this game, oldest first; empty for a dealt game.

        Each is a moment (the index in :attr:`events` of a challenge) and the
        card its check turns over there. A game made by
        :func:`~cheatrules.sampling.sample` is scripted to draw the cards its
        seat saw turned over; every other draw, in any game, is seeded by
        :attr:`seed` and the moment. Records write the scripted draws, and
        they are part of the state's value.
        """
        return self._draws

    @property
    def events(self) -> tuple[Event, ...]:
        """The full log, oldest first; it is omniscient and shows every card laid."""
        events: tuple[Event, ...] | None = self._memo.get("events")
        if events is None:
            events = self._memo["events"] = tuple(_persistent.oldest_first(self._log))
        return events

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every decision taken since the deal, oldest first (what a record replays)."""
        actions: list[Action] = []
        for event in self.events:
            if isinstance(event, Played):
                actions.append(Play(event.cards, event.rank))
            elif isinstance(event, Accepted):
                actions.append(_ACCEPT)
            elif isinstance(event, Challenged):
                actions.append(_EARLIER if event.earlier else _CHALLENGE)
            elif isinstance(event, Passed):
                actions.append(_PASS)
            elif isinstance(event, Refused):
                actions.append(_REFUSE)
            elif isinstance(event, Discarded) and not event.forced:
                actions.append(Discard(event.ranks))
        return tuple(actions)

    def observe(self, seat: int) -> Observation:
        """What ``seat`` knows: its own hand, the public table, and the log as it saw it.

        The seat's log extends the one it was shown at an earlier state of
        this game and shares it (see :attr:`Observation.events
        <cheatrules.Observation.events>`), so observing costs about the same
        late in a game as early; the state keeps the observation it made.

        Raises:
            SeatError: ``seat`` is not a seat at this table.

        """
        seat = whole_number(seat, "seat", 0, self.players - 1, SeatError)
        key = ("observe", seat)
        seen: Observation | None = self._memo.get(key)
        if seen is None:
            offered: tuple[Rank, ...] = ()
            if self._phase is Phase.DISCARD and self._to_move == seat:
                offered = self._pending[0]  # type: ignore[index]
            seen = self._memo[key] = Observation(
                seat=seat,
                rules=self.rules,
                hand=self._hands[seat],
                hand_sizes=self.hand_sizes,
                claims=tuple(claim for claim, _ in _persistent.oldest_first(self._table)),
                to_move=self._to_move,
                phase=self._phase,
                allowed_ranks=self.allowed_ranks,
                finishing_order=self._seating.out,
                discarded=self._discarded,
                set_aside_count=len(self.set_aside),
                outcome=self._outcome,
                events=self._seen_log(seat),
                offered=offered,
                stock_size=len(self.stock),
                choices=self._extras() if seat == self._to_move else (),
            )
        return seen

    def _seen_log(self, seat: int) -> _persistent.Log[Event]:
        """The log as ``seat`` saw it, extending one an earlier state of this game made.

        The states of a game share a :class:`_SeenLogs` (``_memo["seen"]``):
        the logs each seat was shown lately, by the state log they stand for.
        Walking down this state's log to the newest of them, only the events
        since are redacted, and every observation of the game shares one copy
        of each seat's log.
        """
        box: _SeenLogs | None = self._memo.get("seen")
        if box is None:
            box = self._memo["seen"] = _SeenLogs()
        known = box.by_seat.setdefault(seat, {})
        fresh: list[Event] = []
        log = self._log
        view: _persistent.Log[Event] = _persistent.Log()
        while log is not None:
            hit = known.get(id(log))
            if hit is not None and hit[0] is log:
                view = hit[1]
                break
            fresh.append(log[0])
            log = log[1]
        fresh.reverse()
        view = view.extended(_seen_by(event, seat) for event in fresh)
        known[id(self._log)] = (self._log, view)
        if len(known) > _SEEN_KEPT:
            # Another thread may have got there first.
            with suppress(KeyError, RuntimeError, StopIteration):
                del known[next(iter(known))]
        return view

    # -- decisions -----------------------------------------------------------

    def legal_actions(self) -> LegalActions:
        """Every legal decision for :attr:`to_move`, as a lazy :class:`~cheatrules.LegalActions`.

        In a challenge window: ``Challenge()`` and ``Accept()``. On a turn: one
        :class:`~cheatrules.Play` per distinct multiset of ranks laid and rank
        announced (suits never matter, so any concrete play with the same
        ranks is legal too), preceded by ``Challenge()`` where the rules let
        the player challenge on their turn. In the discard phase: one
        :class:`~cheatrules.Discard` per choice of the fours offered, the
        empty choice first. Empty once the game is over.

        The sequence lists nothing up front: its length is counted, an index
        is turned into its action, ``in`` follows the rules (as
        :meth:`is_legal` does, whatever the suits) and
        :meth:`LegalActions.choice <cheatrules.LegalActions.choice>` draws a
        uniformly random action, however many plays there are.
        """
        actions: LegalActions | None = self._memo.get("legal")
        if actions is None:
            actions = self._memo["legal"] = self._generate()
        return actions

    @property
    def choices(self) -> tuple[Action, ...]:
        """The decisions other than plays and discards open to :attr:`to_move` now.

        A challenge, an earlier challenge, a pass, accepting or refusing: a
        short tuple, cheap to read, where :meth:`legal_actions` also lists
        every play.
        """
        return self._extras()

    def is_legal(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action``."""
        return not isinstance(self._check(action), str)

    def apply(self, action: Action) -> GameState:
        """The state after :attr:`to_move` takes ``action``.

        Raises:
            IllegalActionError: the action is not legal here; the message says
                why, and this state is unchanged (it always is).

        """
        checked = self._check(action)
        if isinstance(checked, str):
            raise IllegalActionError(f"illegal action {action}: {checked}")
        transition, argument = checked
        return transition(self, argument)

    # -- checking --------------------------------------------------------

    def _check(self, action: object) -> str | tuple[Callable[[GameState, Any], GameState], Any]:
        """Say why ``action`` is illegal, or return the transition that applies it."""
        phase = self._phase
        if phase is Phase.OVER:
            return "the game is over"
        kind = type(action)
        if kind is Play or isinstance(action, Play):
            return self._check_play(action)  # type: ignore[arg-type]
        if kind is Accept or isinstance(action, Accept):
            if phase is Phase.CHALLENGE:
                return GameState._accept, None
            if phase is Phase.CONSENT:
                return GameState._consent, None
            return f"there is no claim for seat {self._to_move} to accept now; {self._asked()}"
        if kind is Challenge or isinstance(action, Challenge):
            if action.earlier:  # type: ignore[attr-defined]
                return self._check_earlier()
            if phase is Phase.CHALLENGE or self._on_turn_challenge():
                return GameState._challenge, False
            if phase is Phase.PLAY and self._table is None:
                return f"the table is empty, so there is no claim to challenge; {self._asked()}"
            if phase is Phase.PLAY and self._passes:
                return f"a pass let the last claim stand; {self._asked()}"
            return f"a claim can only be challenged in its challenge window; {self._asked()}"
        if kind is Discard or isinstance(action, Discard):
            return self._check_discard(action)  # type: ignore[arg-type]
        if kind is Pass or isinstance(action, Pass):
            if self._may_pass():
                return GameState._pass, None
            return f"seat {self._to_move} may not pass now; {self._asked()}"
        if kind is Refuse or isinstance(action, Refuse):
            if phase is Phase.CONSENT:
                return GameState._refuse, None
            return f"there is no request to pass to refuse; {self._asked()}"
        if isinstance(action, Action):
            return f"{kind.__name__} is not a decision these rules offer; {self._asked()}"
        return f"{action!r} is not an action (Play, Challenge, Accept, Discard, Pass or Refuse)"

    def _check_earlier(self) -> str | tuple[Callable[[GameState, Any], GameState], Any]:
        if not self.rules.window.extended:
            return f"only an extended challenge window reaches an earlier claim; {self._asked()}"
        if self._phase is not Phase.CHALLENGE or not self._earlier:
            return f"no earlier claim may be challenged now; {self._asked()}"
        declarer = self._table[1][0][0].seat  # type: ignore[index]
        if declarer == self._to_move:
            return f"seat {declarer} cannot challenge its own claim; {self._asked()}"
        return GameState._challenge, True

    def _on_turn_challenge(self) -> bool:
        """Whether the player to move may challenge the last claim instead of playing.

        Only where the rules allow it, and only until someone passes on the
        claim: like laying cards on it, a pass lets it stand.
        """
        return (
            self._phase is Phase.PLAY
            and self._table is not None
            and self.rules.window.on_turn
            and self._passes == 0
        )

    def _may_pass(self) -> bool:
        """Whether the player to move may pass now."""
        if self._phase is not Phase.PLAY or self._passer == self._to_move:
            return False
        if self._passes >= len(self._seating.active) - 1:
            return False  # everyone else passed: someone lays cards
        rules = self.rules
        rank = self.required_rank
        if rank is None:
            return rules.passing.allows(None, 0, 0)
        shown = self._revealed
        revealed = sum(shown[rank.value * 4 + suit] for suit in range(4))
        return rules.passing.allows(rank, revealed, rules.deck.copies(rank))

    def _extras(self) -> tuple[Action, ...]:
        """The decisions other than plays and discards open to the player to move."""
        phase = self._phase
        if phase is Phase.CHALLENGE:
            if self._earlier and self._table[1][0][0].seat != self._to_move:  # type: ignore[index]
                return EARLIER_WINDOW_ACTIONS
            return WINDOW_ACTIONS
        if phase is Phase.CONSENT:
            return CONSENT_ACTIONS
        if phase is not Phase.PLAY:
            return ()
        extras: tuple[Action, ...] = ()
        if self._on_turn_challenge():
            extras = (_CHALLENGE,)
        if self._may_pass():
            extras = (*extras, _PASS)
        return extras

    def _asked(self) -> str:
        """Say what decision is asked for now, for error messages."""
        seat = self._to_move
        if self._phase is Phase.CHALLENGE:
            claim = self._table[0][0]  # type: ignore[index]
            said = describe_claim(claim.count, claim.rank)
            return f"seat {seat} must challenge or accept seat {claim.seat}'s claim of {said}"
        if self._phase is Phase.CONSENT:
            return f"seat {seat} must agree to seat {self._passer}'s pass (Accept) or Refuse"
        if self._phase is Phase.DISCARD:
            fours = " ".join(str(rank) for rank in self._pending[0])  # type: ignore[index]
            if not fours:
                return f"seat {seat} holds no complete four and must decline with Discard(())"
            return f"seat {seat} must discard fours of {fours}, or decline with Discard(())"
        ranks = f"as {self._allowed[0]}" if len(self._allowed) == 1 else "announcing any rank"
        challenge = " or challenge" if self._on_turn_challenge() else ""
        passing = " or pass" if self._may_pass() else ""
        return f"seat {seat} must lay cards {ranks}{challenge}{passing}"

    def _check_play(self, play: Play) -> str | tuple[Callable[[GameState, Any], GameState], Any]:
        if self._phase is not Phase.PLAY:
            return self._asked()
        seat: int = self._to_move  # type: ignore[assignment]
        laid = play.cards
        count = len(laid)
        claims = self.rules.claims
        keys = self._keys[seat]
        if not claims.allows(count, len(keys)):
            low, high = claims.minimum, claims.maximum
            if count > len(keys) and count <= high:
                return f"seat {seat} holds only {len(keys)} card{'s' if len(keys) != 1 else ''}"
            smaller = " (or the whole hand, when it holds fewer)" if low > 1 else ""
            return f"a claim holds {low} to {high} cards{smaller}; this one holds {count}"
        if play.rank not in self._allowed:
            if len(self._allowed) == 1:
                return f"the announced rank must be {self._allowed[0]}, not {play.rank}"
            ranks = " ".join(str(rank) for rank in self._allowed)
            return f"the announced rank must be one of {ranks}, not {play.rank}"
        # Take the laid cards out of the sorted hand by their keys.
        remaining_keys = list(keys)
        remaining = list(self._hands[seat])
        taken = []
        for card in laid:
            key = card.key
            index = bisect_left(remaining_keys, key)
            if index == len(remaining_keys) or remaining_keys[index] != key:
                held = keys.count(key)
                if not held:
                    return f"{card} is not in seat {seat}'s hand"
                times = sum(1 for other in laid if other.key == key)
                return f"{card} is laid {times} times but seat {seat} holds {held}"
            del remaining_keys[index]
            taken.append(remaining.pop(index))
        # The order of the cards within a group means nothing: keep them sorted,
        # so that the same play made in another order reaches the same state.
        taken.sort()
        return GameState._play, (play.rank, tuple(remaining), tuple(remaining_keys), tuple(taken))

    def _check_discard(
        self, discard: Discard
    ) -> str | tuple[Callable[[GameState, Any], GameState], Any]:
        if self._phase is Phase.DISCARD:
            offered = Counter(self._pending[0])  # type: ignore[index]
        elif self._phase is Phase.PLAY and discard.ranks:
            offered = Counter(self.rules.discards.on_turn(self._hands[self._to_move]))  # type: ignore[index]
            if not offered:
                return f"there are no fours to discard now; {self._asked()}"
        else:
            return f"there are no fours to discard now; {self._asked()}"
        for rank, count in Counter(discard.ranks).items():
            if count > offered[rank]:
                held = offered[rank]
                fours = "no complete four" if not held else f"only {held} complete fours"
                return f"seat {self._to_move} holds {fours} of {rank.plural}; {self._asked()}"
        return GameState._discard, discard.ranks

    # -- transitions -------------------------------------------------------

    def _next(
        self,
        *,
        phase: Phase,
        to_move: int | None,
        log: Stack[Event],
        log_length: int,
        hands: tuple[tuple[Card, ...], ...] | None = None,
        keys: tuple[tuple[int, ...], ...] | None = None,
        table: Stack[_Group] = _SAME,
        table_size: int | None = None,
        previous_rank: Rank | None = _SAME,
        seating: Seating | None = None,
        allowed: tuple[Rank, ...] | None = None,
        discarded: tuple[Card, ...] | None = None,
        askers: tuple[int, ...] = (),
        waiting: int | None = None,
        pending: _Pending | None = None,
        outcome: Outcome | None = None,
        stock: tuple[Card, ...] | None = None,
        earlier: bool = False,
        passes: int = 0,
        passer: int | None = None,
        revealed: tuple[int, ...] | None = None,
        resume: tuple[int, ...] = (),
        after: int | None = None,
    ) -> GameState:
        """The following state: unnamed fields are kept, or cleared where they belong to a phase."""
        following = GameState(
            rules=self.rules,
            seed=self.seed,
            dealer=self.dealer,
            set_aside=self.set_aside,
            hands=self._hands if hands is None else hands,
            keys=self._keys if keys is None else keys,
            table=self._table if table is _SAME else table,
            table_size=self._table_size if table_size is None else table_size,
            previous_rank=self._previous_rank if previous_rank is _SAME else previous_rank,
            phase=phase,
            to_move=to_move,
            askers=askers,
            waiting=waiting,
            pending=pending,
            seating=self._seating if seating is None else seating,
            allowed=self._allowed if allowed is None else allowed,
            discarded=self._discarded if discarded is None else discarded,
            log=log,
            log_length=log_length,
            outcome=outcome,
            stock=self.stock if stock is None else stock,
            earlier=earlier,
            passes=passes,
            passer=passer,
            revealed=self._revealed if revealed is None else revealed,
            resume=resume,
            after=after,
            draws=self._draws,
        )
        box = self._memo.get("seen")
        if box is None:
            box = self._memo["seen"] = _SeenLogs()
        following._memo["seen"] = box  # the seats' logs of this game, for observe() to extend
        return following

    def _play(self, checked: tuple[Any, ...]) -> GameState:
        rank, hand, keys, laid = checked
        rules = self.rules
        seat: int = self._to_move  # type: ignore[assignment]
        hands = (*self._hands[:seat], hand, *self._hands[seat + 1 :])
        all_keys = (*self._keys[:seat], keys, *self._keys[seat + 1 :])
        table: Stack[_Group] = ((Claim(seat, len(laid), rank), laid), self._table)
        table_size = self._table_size + len(laid)
        log: Stack[Event] = (Played(seat, laid, rank), self._log)
        length = self._log_length + 1
        seating = self._seating
        if self._waiting is not None:
            # Laying cards on an empty-handed player's claim lets it stand.
            seating, log, length, outcome = self._go_out(self._waiting, seating, log, length)
            if outcome is not None:
                return self._next(
                    phase=Phase.OVER, to_move=None, log=log, log_length=length,
                    hands=hands, keys=all_keys, table=table, table_size=table_size,
                    previous_rank=rank, seating=seating, outcome=outcome,
                )  # fmt: skip
        askers = rules.window.askers(seating, seat)
        earlier = False
        if askers:
            phase, to_move, askers = Phase.CHALLENGE, askers[0], askers[1:]
            # An extended window reaches the claim laid just before, if its
            # declarer is still in the game.
            below = self._table
            earlier = (
                rules.window.extended
                and below is not None
                and self._passes == 0
                and seating.is_active(below[0][0].seat)
            )
        else:
            phase, to_move = Phase.PLAY, seating.next_active(seat)
        return self._next(
            phase=phase, to_move=to_move, log=log, log_length=length,
            hands=hands, keys=all_keys, table=table, table_size=table_size,
            previous_rank=rank, seating=seating, askers=askers,
            waiting=None if keys else seat,
            allowed=rules.ranks.allowed(rank, False, rules.deck.ranks), earlier=earlier,
        )  # fmt: skip

    def _accept(self, _: None) -> GameState:
        log: Stack[Event] = (Accepted(self._to_move), self._log)  # type: ignore[arg-type]
        length = self._log_length + 1
        askers = self._askers
        if askers:
            return self._next(
                phase=Phase.CHALLENGE, to_move=askers[0], log=log, log_length=length,
                askers=askers[1:], waiting=self._waiting, earlier=self._earlier,
                after=self._after,
            )  # fmt: skip
        # The window closed without a challenge: the claim stands.
        declarer = self._table[0][0].seat  # type: ignore[index]
        seating = self._seating
        if self._waiting is not None:
            seating, log, length, outcome = self._go_out(self._waiting, seating, log, length)
            if outcome is not None:
                return self._next(
                    phase=Phase.OVER, to_move=None, log=log, log_length=length,
                    seating=seating, outcome=outcome,
                )  # fmt: skip
        # After a challenge beneath a final play, the seat that challenge chose plays.
        after = self._after
        opener = seating.next_active(declarer) if after is None else _first_active(seating, after)
        return self._next(
            phase=Phase.PLAY, to_move=opener, log=log, log_length=length, seating=seating,
        )  # fmt: skip

    def _challenge(self, earlier: bool) -> GameState:
        rules = self.rules
        challenger: int = self._to_move  # type: ignore[assignment]
        table = self._table[1] if earlier else self._table  # type: ignore[index]
        claim, laid = table[0]  # type: ignore[index]
        declarer = claim.seat
        shown = rules.check.shown(laid, self._chance())
        truthful = proves(rules.check, shown, claim.rank)
        taker = challenger if truthful else declarer
        waiting = self._waiting
        # A final play stays on the table, apart, when the claim beneath it is
        # challenged: it still needs every opponent's acceptance or a true reveal.
        kept: Stack[_Group] = None
        if earlier and waiting is not None:
            kept = (self._table[0], None)  # type: ignore[index]
        if kept is None:
            pile = self.pile
            table_size = 0
        else:
            pile = tuple(card for _, group in _persistent.oldest_first(table) for card in group)
            table_size = len(kept[0][1])
        keys = sorted(self._keys[taker] + tuple(card.key for card in pile))
        hand = tuple(map(CARD_BY_KEY.__getitem__, keys))
        hands = (*self._hands[:taker], hand, *self._hands[taker + 1 :])
        all_keys = (*self._keys[:taker], tuple(keys), *self._keys[taker + 1 :])
        log: Stack[Event] = self._log
        for event in (
            Challenged(challenger, declarer, earlier),
            Revealed(declarer, shown, claim.rank, truthful, earlier),
            PileTaken(taker, pile),
        ):
            log = (event, log)
        length = self._log_length + 3
        revealed = list(self._revealed)
        for key, count in Counter(card.key for card in shown).items():
            revealed[key] = max(revealed[key], count)
        hands, all_keys, stock, log, length = self._draw(taker, hands, all_keys, log, length)
        seating = self._seating
        # A claim that emptied its declarer's hand stands if proved true.
        if waiting is not None and kept is None and truthful:
            seating, log, length, outcome = self._go_out(waiting, seating, log, length)
            if outcome is not None:
                return self._next(
                    phase=Phase.OVER, to_move=None, log=log, log_length=length,
                    hands=hands, keys=all_keys, table=None, table_size=0,
                    seating=seating, outcome=outcome, stock=stock, revealed=tuple(revealed),
                )  # fmt: skip
        opener = rules.after_challenge.opener(seating, declarer, challenger, truthful)
        allowed = rules.ranks.allowed(self._previous_rank, True, rules.deck.ranks)
        # Fours count the card drawn from any stock.
        offered = rules.discards.after_pickup(hands[taker])
        discarded = self._discarded
        if offered is not None and rules.discards.compulsory:
            # Every four is set aside at once, shown to all; nobody is asked.
            if offered:
                hands, all_keys, log, length, seating, outcome, removed = self._set_aside(
                    taker, tuple(sorted(offered)), hands, all_keys, log, length, seating, True
                )
                discarded += removed
                if outcome is not None:
                    return self._next(
                        phase=Phase.OVER, to_move=None, log=log, log_length=length,
                        hands=hands, keys=all_keys, table=kept, table_size=table_size,
                        seating=seating, discarded=discarded, outcome=outcome, stock=stock,
                        revealed=tuple(revealed),
                    )  # fmt: skip
            offered = None
        resume: tuple[int, ...] = ()
        if kept is not None:
            # Every opponent of the final play not yet asked about it: the
            # challenger of the claim beneath, then the rest clockwise.
            order = rules.window.askers(seating, waiting)  # type: ignore[arg-type]
            resume = order[order.index(challenger) :] if challenger in order else order
        if offered is not None:
            return self._next(
                phase=Phase.DISCARD, to_move=taker, log=log, log_length=length,
                hands=hands, keys=all_keys, table=kept, table_size=table_size,
                seating=seating, allowed=allowed, pending=(tuple(sorted(offered)), opener),
                stock=stock, revealed=tuple(revealed), waiting=waiting if kept else None,
                resume=resume,
            )  # fmt: skip
        if kept is not None:
            return self._reopen(
                resume, opener, waiting, log, length,  # type: ignore[arg-type]
                hands=hands, keys=all_keys, table=kept, table_size=table_size,
                seating=seating, allowed=allowed, discarded=discarded, stock=stock,
                revealed=tuple(revealed),
            )  # fmt: skip
        return self._next(
            phase=Phase.PLAY, to_move=_first_active(seating, opener), log=log,
            log_length=length, hands=hands, keys=all_keys, table=None, table_size=0,
            seating=seating, allowed=allowed, discarded=discarded, stock=stock,
            revealed=tuple(revealed),
        )  # fmt: skip

    def _chance(self) -> Chance:
        """The chance of this moment: scripted if a draw is, else seeded by the seed and moment."""
        moment = self._log_length
        for when, card in self._draws:
            if when == moment:
                return Drawn(card)
        return Chance(f"{self.seed}:{moment}")

    def _reopen(
        self,
        resume: tuple[int, ...],
        opener: int,
        waiting: int,
        log: Stack[Event],
        length: int,
        **changes: Any,
    ) -> GameState:
        """The window of a final play kept on the table opens again, asking ``resume``.

        If nobody is left to ask, the final play stands at once.
        """
        seating: Seating = changes.pop("seating")
        askers = tuple(seat for seat in resume if seating.is_active(seat))
        if askers:
            return self._next(
                phase=Phase.CHALLENGE, to_move=askers[0], log=log, log_length=length,
                askers=askers[1:], waiting=waiting, seating=seating, after=opener, **changes,
            )  # fmt: skip
        seating, log, length, outcome = self._go_out(waiting, seating, log, length)
        if outcome is not None:
            return self._next(
                phase=Phase.OVER, to_move=None, log=log, log_length=length, seating=seating,
                outcome=outcome, **changes,
            )  # fmt: skip
        return self._next(
            phase=Phase.PLAY, to_move=_first_active(seating, opener), log=log,
            log_length=length, seating=seating, **changes,
        )  # fmt: skip

    def _draw(
        self,
        seat: int,
        hands: tuple[tuple[Card, ...], ...],
        keys: tuple[tuple[int, ...], ...],
        log: Stack[Event],
        length: int,
    ) -> tuple[
        tuple[tuple[Card, ...], ...],
        tuple[tuple[int, ...], ...],
        tuple[Card, ...],
        Stack[Event],
        int,
    ]:
        """``seat`` draws from the stock as the dealing rule says (nothing once it is empty)."""
        stock = self.stock
        drawn = stock[: self.rules.dealing.draws]
        if not drawn:
            return hands, keys, stock, log, length
        held = sorted(keys[seat] + tuple(card.key for card in drawn))
        hand = tuple(map(CARD_BY_KEY.__getitem__, held))
        hands = (*hands[:seat], hand, *hands[seat + 1 :])
        keys = (*keys[:seat], tuple(held), *keys[seat + 1 :])
        return hands, keys, stock[len(drawn) :], (Drew(seat, drawn), log), length + 1

    def _pass(self, _: None) -> GameState:
        seat: int = self._to_move  # type: ignore[assignment]
        log: Stack[Event] = (Passed(seat), self._log)
        length = self._log_length + 1
        if not self.rules.passing.consent:
            return self._passed(seat, log, length)
        askers = self._seating.others_clockwise(seat)
        return self._next(
            phase=Phase.CONSENT, to_move=askers[0], log=log, log_length=length,
            askers=askers[1:], waiting=self._waiting, passes=self._passes, passer=seat,
        )  # fmt: skip

    def _consent(self, _: None) -> GameState:
        log: Stack[Event] = (Accepted(self._to_move), self._log)  # type: ignore[arg-type]
        length = self._log_length + 1
        askers = self._askers
        if askers:
            return self._next(
                phase=Phase.CONSENT, to_move=askers[0], log=log, log_length=length,
                askers=askers[1:], waiting=self._waiting, passes=self._passes,
                passer=self._passer,
            )  # fmt: skip
        return self._passed(self._passer, log, length)  # type: ignore[arg-type]

    def _refuse(self, _: None) -> GameState:
        log: Stack[Event] = (Refused(self._to_move), self._log)  # type: ignore[arg-type]
        return self._next(
            phase=Phase.PLAY, to_move=self._passer, log=log, log_length=self._log_length + 1,
            waiting=self._waiting, passes=self._passes, passer=self._passer,
        )  # fmt: skip

    def _passed(self, seat: int, log: Stack[Event], length: int) -> GameState:
        """``seat``'s pass takes effect: it draws from any stock, and the turn moves on."""
        hands, keys, stock, log, length = self._draw(seat, self._hands, self._keys, log, length)
        seating = self._seating
        if self._waiting is not None:
            # Passing on an empty-handed player's claim lets it stand.
            seating, log, length, outcome = self._go_out(self._waiting, seating, log, length)
            if outcome is not None:
                return self._next(
                    phase=Phase.OVER, to_move=None, log=log, log_length=length, hands=hands,
                    keys=keys, seating=seating, outcome=outcome, stock=stock,
                )  # fmt: skip
        rules = self.rules
        rank = self.required_rank
        # The sequence moves on as if the required rank had been claimed.
        allowed = (
            self._allowed if rank is None else rules.ranks.allowed(rank, False, rules.deck.ranks)
        )
        return self._next(
            phase=Phase.PLAY, to_move=seating.next_active(seat), log=log, log_length=length,
            hands=hands, keys=keys, seating=seating, stock=stock, allowed=allowed,
            previous_rank=self._previous_rank if rank is None else rank,
            passes=self._passes + 1,
        )  # fmt: skip

    def _set_aside(
        self,
        seat: int,
        ranks: tuple[Rank, ...],
        hands: tuple[tuple[Card, ...], ...],
        keys: tuple[tuple[int, ...], ...],
        log: Stack[Event],
        length: int,
        seating: Seating,
        forced: bool,
    ) -> tuple[
        tuple[tuple[Card, ...], ...],
        tuple[tuple[int, ...], ...],
        Stack[Event],
        int,
        Seating,
        Outcome | None,
        tuple[Card, ...],
    ]:
        """Take one four of each rank in ``ranks`` out of ``seat``'s hand, showing them."""
        hand = list(hands[seat])
        held = list(keys[seat])
        removed: list[Card] = []
        for rank in ranks:
            start = bisect_left(held, rank.value * 4)
            removed.extend(hand[start : start + 4])
            del hand[start : start + 4], held[start : start + 4]
        hands = (*hands[:seat], tuple(hand), *hands[seat + 1 :])
        keys = (*keys[:seat], tuple(held), *keys[seat + 1 :])
        log = (Discarded(seat, ranks, tuple(removed), forced), log)
        length += 1
        outcome = None
        if not hand:
            # A whole hand discarded in fours: that player leaves too.
            seating, log, length, outcome = self._go_out(seat, seating, log, length)
        return hands, keys, log, length, seating, outcome, tuple(removed)

    def _discard(self, ranks: tuple[Rank, ...]) -> GameState:
        seat: int = self._to_move  # type: ignore[assignment]
        # After a pickup, the seat the challenge chose opens; on a turn, the
        # player goes on to lay cards.
        opener = seat if self._pending is None else self._pending[1]
        hands, keys, log, length, seating, outcome, removed = self._set_aside(
            seat, ranks, self._hands, self._keys, self._log, self._log_length,
            self._seating, False,
        )  # fmt: skip
        if outcome is not None:
            return self._next(
                phase=Phase.OVER, to_move=None, log=log, log_length=length,
                hands=hands, keys=keys, seating=seating,
                discarded=self._discarded + removed, outcome=outcome,
            )  # fmt: skip
        if self._resume:
            # The taker has chosen; the final play kept on the table is asked about.
            return self._reopen(
                self._resume, opener, self._waiting, log, length,  # type: ignore[arg-type]
                hands=hands, keys=keys, seating=seating, discarded=self._discarded + removed,
            )  # fmt: skip
        return self._next(
            phase=Phase.PLAY, to_move=_first_active(seating, opener), log=log,
            log_length=length, hands=hands, keys=keys, seating=seating,
            discarded=self._discarded + removed, waiting=self._waiting,
            passes=self._passes, passer=self._passer,
        )  # fmt: skip

    def _go_out(
        self, seat: int, seating: Seating, log: Stack[Event], length: int
    ) -> tuple[Seating, Stack[Event], int, Outcome | None]:
        """``seat`` leaves the game; return the new seating and log, and the outcome if it ended."""
        seating = seating.leave(seat)
        log = (WentOut(seat), log)
        length += 1
        ending = self.rules.ending
        if not ending.is_over(seating):
            return seating, log, length, None
        winners, losers = ending.result(seating)
        return seating, (GameOver(winners, losers), log), length + 1, Outcome(winners, losers)

    # -- the action generator --------------------------------------------

    def _generate(self) -> LegalActions:
        phase = self._phase
        if phase is Phase.DISCARD:
            return LegalActions(fours=self._pending[0], discarding=True)  # type: ignore[index]
        if phase is not Phase.PLAY:
            return LegalActions(self._extras())
        hand = self._hands[self._to_move]  # type: ignore[index]
        return LegalActions(
            self._extras(),
            hand=hand,
            announced=self._allowed,
            claims=self.rules.claims,
            fours=self.rules.discards.on_turn(hand),
        )

    # -- value semantics ---------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, GameState):
            return NotImplemented
        return (
            self._log_length == other._log_length
            and self._to_move == other._to_move
            and self._phase is other._phase
            and self._table_size == other._table_size
            and self._keys == other._keys
            and self.seed == other.seed
            and self.rules == other.rules
            and self._draws == other._draws
            and _persistent.same(self._log, other._log)
        )

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        cached: int | None = self._memo.get("hash")
        if cached is None:
            cached = self._memo["hash"] = hash(
                (
                    self._log_length,
                    self._keys,
                    self._to_move,
                    self._phase,
                    self._table_size,
                    self._draws,
                )
            )
        return cached

    def __repr__(self) -> str:
        if self._outcome is not None:
            status = f"over, winners {self._outcome.winners}"
        else:
            status = f"{self._phase.value}, seat {self._to_move} to move"
        sizes = " ".join(map(str, self.hand_sizes))
        return (
            f"<GameState {self.rules.name}: {status}; hands {sizes}; "
            f"pile {self._table_size}; {self._log_length} events>"
        )

    def __getstate__(self) -> dict[str, Any]:
        # Flatten the persistent stacks: pickling them nested would recurse
        # once per event.
        state = {field.name: getattr(self, field.name) for field in attrs.fields(GameState)}
        state["_log"] = _persistent.oldest_first(self._log)
        state["_table"] = _persistent.oldest_first(self._table)
        del state["_memo"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        # A state pickled before draws were data held no draws, and a chance
        # callable that was None outside samples.
        state.pop("_chance", None)
        state.setdefault("_draws", ())
        state["_log"] = _persistent.from_items(state["_log"])
        state["_table"] = _persistent.from_items(state["_table"])
        for name, value in state.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_memo", {})


# How many of each seat's latest logs a game keeps to extend (a search that
# observes sibling states finds their common ancestor's among them).
_SEEN_KEPT = 16


class _SeenLogs:
    """The logs each seat of one game was shown lately, shared by the game's states.

    ``by_seat[seat]`` maps ``id(log)`` to ``(log, view)``: a state log (a
    persistent stack node, kept alive here so its id stays its own) and the
    seat's view of it; oldest first, at most :data:`_SEEN_KEPT` of them.
    """

    __slots__ = ("by_seat",)

    def __init__(self) -> None:
        self.by_seat: dict[int, dict[int, tuple[Stack[Event], _persistent.Log[Event]]]] = {}


# Redacted events, shared between seats and states (the claim of a play is the
# same object in every other seat's log).
_REDACTED: dict[Event, Event] = {}


def _seen_by(event: Event, seat: int) -> Event:
    """``event.seen_by(seat)``, the same object each time it hides the same cards."""
    seen = event.seen_by(seat)
    if seen is event or isinstance(seen, Dealt):
        return seen
    shared = _REDACTED.get(seen)
    if shared is None:
        if len(_REDACTED) >= 4096:
            _REDACTED.clear()
        shared = _REDACTED[seen] = seen
    return shared


def _first_active(seating: Seating, seat: int) -> int:
    """``seat`` if it is still in the game, else the next active seat after it."""
    return seat if seating.is_active(seat) else seating.next_active(seat)
