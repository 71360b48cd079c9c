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

import threading
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import chain
from operator import attrgetter
from typing import Any

import attrs

from cheatrules import _persistent
from cheatrules._checks import whole_number
from cheatrules._persistent import Stack, maker
from cheatrules._read_model import ReadModel
from cheatrules.actions import Accept, Action, Challenge, Discard, Pass, Play, Refuse
from cheatrules.cards import CARD_BY_KEY, Card, Rank
from cheatrules.chance import Chance
from cheatrules.decision import (
    GAME_OVER,
    NONE_SHOWN,
    Consent,
    Decision,
    DiscardOffer,
    Over,
    Turn,
    Window,
    shown_after,
)
from cheatrules.errors import (
    ILLEGAL,
    N_,
    NN_,
    IllegalActionError,
    Message,
    RankWord,
    RulesError,
    SeatError,
)
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
from cheatrules.legal import LegalActions
from cheatrules.observation import Observation
from cheatrules.policies.challenges import proves
from cheatrules.rules import Rules
from cheatrules.table import STEPS as _TABLE_STEPS
from cheatrules.table import Claim, Outcome, Phase, Table

__all__ = ["Claim", "GameState", "Outcome", "Phase"]


# One group on the table: the claim and the cards actually laid.
_Group = tuple[Claim, tuple[Card, ...]]

_CHALLENGE = Challenge()
_EARLIER = Challenge(earlier=True)
_ACCEPT = Accept()
_PASS = Pass()
_REFUSE = Refuse()
# Cards sort as their keys do; sorting by key compares plain ints.
_KEY = attrgetter("key")
# The event and the decision made most often, one frozen value for each seat
# that every game shares: an acceptance, and a turn with no choice but to lay
# cards (a seat past these gets a value of its own).
_SEATS_SHARED = 16
_ACCEPTANCES = tuple(Accepted(seat) for seat in range(_SEATS_SHARED))


def _accepted(seat: int) -> Accepted:
    """``Accepted(seat)``, the one shared value where there is one."""
    return _ACCEPTANCES[seat] if seat < _SEATS_SHARED else Accepted(seat)


class _Unvalued(ReadModel):
    """The slots of a :class:`GameState` that are not part of its value.

    Not attrs fields: they take no part in equality, hashing, pickling or
    ``attrs.evolve``. Each is set once and never changed; until then it is
    unset, and the state's methods read it with ``getattr(state, name,
    None)``.

    * ``_game``: the :class:`_Game` the states of a game share, handed on
      by each transition to the state it makes (a state made otherwise, by
      hand, ``attrs.evolve`` or unpickling, starts one);
    * ``_events``: :attr:`GameState.events`, the log as a tuple;
    * ``_hash``: the state's hash;
    * ``_legal``: :meth:`GameState.legal_actions`;
    * ``_seen``: the observation :meth:`GameState.observe` made for each seat
      (``None`` where none was made yet), a tuple replaced whole.

    The others are worked out on first use. Two threads may both work one
    out at once: each gets the same value and one write stays, so a reader
    never sees a half-set slot (a seat's observation may then be made again,
    equal to the first).
    """

    __slots__ = ("_events", "_game", "_hash", "_legal", "_seen")

    _game: _Game
    _events: tuple[Event, ...]
    _hash: int
    _legal: LegalActions
    _seen: tuple[Observation | None, ...]


@attrs.frozen(eq=False, repr=False, getstate_setstate=False)
class GameState(_Unvalued):
    """The complete, omniscient state of one game.

    Make one with :func:`~cheatrules.deal`; move it on with :meth:`apply`.
    Frozen, hashable and comparable: two states are equal when they hold the
    same rules, seed, scripted draws (:attr:`draws`) and history, and equal
    states have equal successors.

    A state is three parts: the public :attr:`table` (what every seat sees),
    the :attr:`decision` asked for now, and what only the state knows (the
    hands, the cards laid, the stock, the full log).
    """

    #: The seed of the shuffle, kept so the game can be replayed (``None`` for a fixed deal
    #: dealt without one).
    seed: int | None
    #: The dealer's seat.
    dealer: int
    #: The cards put out of play unseen at the deal (Verish' Ne Verish' sets one aside).
    set_aside: tuple[Card, ...]
    #: What every seat sees (the claims, the hand sizes, the allowed ranks, the seating...).
    #: Every observation of this state holds this very object.
    table: Table
    #: The decision asked for now (a :class:`~cheatrules.Turn`, a
    #: :class:`~cheatrules.Window`, a :class:`~cheatrules.Consent`, a
    #: :class:`~cheatrules.DiscardOffer` or :class:`~cheatrules.Over`).
    decision: Decision
    _hands: tuple[tuple[Card, ...], ...]
    _keys: tuple[tuple[int, ...], ...]
    # The groups on the table, newest first: each claim with the cards laid.
    _groups: Stack[_Group]
    _log: Stack[Event]
    _log_length: int
    #: The stock, top first (the fixed-hand variation; empty otherwise).
    stock: tuple[Card, ...] = ()
    # How the sequence stands, whatever the decision: how many players in a
    # row have passed since the last claim; the seat whose claim emptied its
    # hand, waiting to see it stand; for each card key, the most copies shown
    # face up at once in a challenge.
    _passes: int = 0
    _waiting: int | None = None
    _revealed: tuple[int, ...] = NONE_SHOWN
    # Draws scripted into the game, by moment (the log's length when drawn),
    # oldest first: the card a check turns over then. Any other draw is
    # seeded from the seed and the moment. Part of the value, as the seed is.
    _draws: tuple[tuple[int, Card], ...] = ()

    def __attrs_post_init__(self) -> None:
        # A state made by hand starts a game of its own (a transition hands its
        # game on instead, making the state it returns without __init__).
        object.__setattr__(self, "_game", _Game())

    @classmethod
    def _dealt(
        cls,
        rules: Rules,
        hands: tuple[tuple[Card, ...], ...],
        *,
        seed: int | None = None,
        dealer: int = 0,
        set_aside: tuple[Card, ...] = (),
        stock: tuple[Card, ...] = (),
    ) -> GameState:
        """The state just after a deal of the sorted ``hands``; :func:`~cheatrules.deal` calls it.

        The cards are taken as given: :func:`~cheatrules.deal` checks them
        against the rules first.
        """
        dealt = Dealt(dealer, hands, set_aside, stock=stock)
        state = cls(
            seed=seed,
            dealer=dealer,
            set_aside=set_aside,
            table=Table.dealt(rules, dealt),
            decision=Turn(0),  # made below, with its choices
            hands=hands,
            keys=tuple(tuple(map(_KEY, hand)) for hand in hands),
            groups=None,
            log=(dealt, None),
            log_length=1,
            stock=stock,
        )
        change = _Change(state)
        return change.to(change.turn(rules.opening.first(dealer, hands)))

    # -- reading the state -------------------------------------------------

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's hand, each sorted; this is the omniscient view of every hand."""
        return self._hands

    @property
    def pile(self) -> tuple[Card, ...]:
        """Every card on the table, oldest first."""
        return tuple(card for _, laid in _persistent.oldest_first(self._groups) for card in laid)

    @property
    def groups(self) -> tuple[tuple[Claim, tuple[Card, ...]], ...]:
        """The groups on the table, oldest first, each a claim with the cards actually laid."""
        return tuple(_persistent.oldest_first(self._groups))

    @property
    def draws(self) -> tuple[tuple[int, Card], ...]:
        """The draws scripted into this game, oldest first; empty for a dealt game.

        Each is a moment (the index in :attr:`events` of a challenge) and a
        card its check turns over there: one pair for each card turned over,
        in the order shown, where the check turns over several. A game made by
        :func:`~cheatrules.sampling.sample` is scripted to draw the cards its
        seat saw turned over; every other draw, in any game, is seeded by
        :attr:`seed` and the moment. Records write the scripted draws, and
        they are part of the state's value.
        """
        return self._draws

    @property
    def events(self) -> tuple[Event, ...]:
        """The full log, oldest first; it is omniscient and shows every card laid."""
        events: tuple[Event, ...] | None = getattr(self, "_events", None)
        if events is None:
            events = tuple(_persistent.oldest_first(self._log))
            object.__setattr__(self, "_events", events)
        return events

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every decision taken since the deal, oldest first (what a record replays)."""
        return _actions_down_to(self._log, None)

    def actions_after(self, earlier: GameState) -> tuple[Action, ...]:
        """The decisions taken from ``earlier`` to this state, oldest first.

        The same as ``self.actions[len(earlier.actions):]``, read from the
        newest events back to ``earlier``'s alone, so it costs what those
        decisions added, however long the game: for a front end that keeps
        each state's new actions (a web table's store).

        >>> import cheatrules as cr
        >>> state = cr.deal(cr.english(3), hands=["A♣ 5♣", "2♥ 3♣", "A♦ 4♣"])
        >>> later = state.apply(cr.Play("5♣", "A")).apply(cr.Accept())
        >>> [action.text() for action in later.actions_after(state)]
        ['play 5♣ as A', 'accept']

        Raises:
            ValueError: this state was not reached from ``earlier`` by
                applying decisions.

        """
        return _actions_down_to(self._log, earlier._log)

    def observe(self, seat: int) -> Observation:
        """What ``seat`` knows: its own hand, the public table, and the log as it saw it.

        The observation holds this state's :attr:`table` itself, and the
        :attr:`decision` as ``seat`` sees it. The seat's log extends the one
        it was shown at an earlier state of this game and shares it (see
        :attr:`Observation.events <cheatrules.Observation.events>`), so
        observing costs about the same late in a game as early; the state
        keeps the observation it made.

        Raises:
            SeatError: ``seat`` is not a seat at this table.

        """
        seat = whole_number(seat, "seat", 0, self.players - 1, SeatError)
        made: tuple[Observation | None, ...] = getattr(self, "_seen", None) or (
            (None,) * self.players
        )
        seen = made[seat]
        if seen is None:
            seen = Observation(
                seat=seat,
                hand=self._hands[seat],
                table=self.table,
                decision=self.decision.seen_by(seat),
                events=self._game.view(self._log, seat),
            )
            # Another thread may have observed another seat since: start from its tuple.
            made = getattr(self, "_seen", None) or made
            object.__setattr__(self, "_seen", (*made[:seat], seen, *made[seat + 1 :]))
        return seen

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
        uniformly random action, however many plays there are. The
        :attr:`decision` makes it, as it does for an observation.
        """
        actions: LegalActions | None = getattr(self, "_legal", None)
        if actions is None:
            decision = self.decision
            hand = () if decision.to_move is None else self._hands[decision.to_move]
            actions = decision.legal_actions(hand, self.table)
            object.__setattr__(self, "_legal", actions)
        return actions

    @property
    def choices(self) -> tuple[Action, ...]:
        """The decisions other than plays and discards open to :attr:`to_move` now.

        A challenge, an earlier challenge, a pass, accepting or refusing: a
        short tuple, cheap to read, where :meth:`legal_actions` also lists
        every play. The :attr:`decision`'s ``choices``.
        """
        return self.decision.choices

    def is_legal(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action``."""
        return not isinstance(self._check(action), Message)

    def apply(self, action: Action) -> GameState:
        """The state after :attr:`to_move` takes ``action``.

        Raises:
            IllegalActionError: the action is not legal here; the message says
                why, and this state is unchanged (it always is).

        """
        # The common case first, as _check makes it: an action of a kind the
        # engine knows, while the game is on.
        decision = self.decision
        check = _CHECKS.get(type(action))
        if check is not None and type(decision) is not Over:
            checked = check(self, decision, action)
        else:
            checked = self._check(action)
        if isinstance(checked, Message):
            raise IllegalActionError(ILLEGAL, action=action, reason=checked)
        transition, argument = checked
        return transition(self, argument)

    def _replay(self, actions: Sequence[Action]) -> GameState:
        """The state after ``actions`` in turn: what :meth:`apply` makes of each, one by one.

        Private, for the sampler, which replays whole games: each action is
        checked as :meth:`apply` checks it (an illegal one raises the same
        :class:`IllegalActionError`), but a run of ``Accept()`` in one
        challenge window or one request to pass makes one state, not one per
        seat asked (an acceptance is legal exactly there, and the run stops
        at the last seat asked).
        """
        state = self
        position, count = 0, len(actions)
        while position < count:
            action = actions[position]
            decision = state.decision
            if type(action) is Accept and isinstance(decision, Window | Consent):
                run, most = 1, 1 + len(decision.askers)
                while (
                    run < most
                    and position + run < count
                    and type(actions[position + run]) is Accept
                ):
                    run += 1
                state = state._accepted(decision, run)
                position += run
            else:
                state = state.apply(action)
                position += 1
        return state

    # -- checking --------------------------------------------------------

    def _check(self, action: object) -> Message | _Checked:
        """Say why ``action`` is illegal, or return the transition that applies it."""
        decision = self.decision
        if isinstance(decision, Over):
            return Message(GAME_OVER)
        check = _CHECKS.get(type(action))
        if check is None:
            check = next((_CHECKS[kind] for kind in _CHECKS if isinstance(action, kind)), None)
        if check is not None:
            return check(self, decision, action)
        if isinstance(action, Action):
            return self._why(
                N_("%(kind)s is not a decision these rules offer; %(asked)s"),
                kind=type(action).__name__,
            )
        return Message.of(
            N_("%(action)s is not an action (Play, Challenge, Accept, Discard, Pass or Refuse)"),
            {"action": repr(action)},
        )

    def _why(self, template: str, **params: object) -> Message:
        """Why an action is refused: ``template``, which ends with what is asked instead."""
        return Message.of(template, {**params, "asked": self.decision.asking(self.table)})

    def _check_accept(self, decision: Decision, _: Accept) -> Message | _Checked:
        if isinstance(decision, Window):
            return GameState._accepted, decision
        if isinstance(decision, Consent):
            return GameState._accepted, decision
        return self._why(
            N_("there is no claim for seat %(seat)s to accept now; %(asked)s"),
            seat=decision.to_move,
        )

    def _check_refuse(self, decision: Decision, _: Refuse) -> Message | _Checked:
        if isinstance(decision, Consent):
            return GameState._refuse, decision
        return self._why(N_("there is no request to pass to refuse; %(asked)s"))

    def _check_pass(self, decision: Decision, _: Pass) -> Message | _Checked:
        if isinstance(decision, Turn) and decision.may_pass:
            return GameState._pass, decision.seat
        return self._why(N_("seat %(seat)s may not pass now; %(asked)s"), seat=decision.to_move)

    def _check_challenge(self, decision: Decision, action: Challenge) -> Message | _Checked:
        if action.earlier:
            return self._check_earlier(decision)
        if isinstance(decision, Window) or (isinstance(decision, Turn) and decision.may_challenge):
            return GameState._challenge, (decision.seat, False)
        if isinstance(decision, Turn) and not self.table.claims:
            return self._why(N_("the table is empty, so there is no claim to challenge; %(asked)s"))
        if isinstance(decision, Turn) and self._passes:
            return self._why(N_("a pass let the last claim stand; %(asked)s"))
        return self._why(N_("a claim can only be challenged in its challenge window; %(asked)s"))

    def _check_earlier(self, decision: Decision) -> Message | _Checked:
        if not self.rules.window.extended:
            return self._why(
                N_("only an extended challenge window reaches an earlier claim; %(asked)s")
            )
        if not isinstance(decision, Window) or decision.earlier is None:
            return self._why(N_("no earlier claim may be challenged now; %(asked)s"))
        declarer = decision.earlier.seat
        if declarer == decision.seat:
            return self._why(
                N_("seat %(seat)s cannot challenge its own claim; %(asked)s"), seat=declarer
            )
        return GameState._challenge, (decision.seat, True)

    def _check_play(self, decision: Decision, play: Play) -> Message | _Checked:
        if not isinstance(decision, Turn):
            return decision.asking(self.table)
        seat = decision.seat
        laid = play.cards
        count = len(laid)
        keys = self._keys[seat]
        claims = self.table.rules.claims
        if not claims.allows(count, len(keys)):
            low, high = claims.minimum, claims.maximum
            if count > len(keys) and count <= high:
                return NN_(
                    "seat %(seat)s holds only %(held)s card",
                    "seat %(seat)s holds only %(held)s cards",
                    len(keys),
                    seat=seat,
                    held=len(keys),
                )
            if low > 1:
                template = N_(
                    "a claim holds %(low)s to %(high)s cards (or the whole hand, when it holds "
                    "fewer); this one holds %(count)s"
                )
            else:
                template = N_("a claim holds %(low)s to %(high)s cards; this one holds %(count)s")
            return Message.of(template, {"low": low, "high": high, "count": count})
        allowed = self.table.allowed_ranks
        if play.rank not in allowed:
            if len(allowed) == 1:
                return Message.of(
                    N_("the announced rank must be %(allowed)s, not %(rank)s"),
                    {"allowed": allowed[0], "rank": play.rank},
                )
            return Message.of(
                N_("the announced rank must be one of %(allowed)s, not %(rank)s"),
                {"allowed": " ".join(str(rank) for rank in allowed), "rank": play.rank},
            )
        taken = _take(self._hands[seat], keys, laid, seat)
        if isinstance(taken, Message):
            return taken
        return GameState._play, (seat, play.rank, *taken)

    def _check_discard(self, decision: Decision, discard: Discard) -> Message | _Checked:
        if isinstance(decision, DiscardOffer):
            offered = Counter(decision.fours)
        elif isinstance(decision, Turn) and discard.ranks:
            offered = Counter(self.rules.discards.on_turn(self._hands[decision.seat]))
            if not offered:
                return self._why(N_("there are no fours to discard now; %(asked)s"))
        else:
            return self._why(N_("there are no fours to discard now; %(asked)s"))
        for rank, count in Counter(discard.ranks).items():
            if count > offered[rank]:
                held = offered[rank]
                if not held:
                    return self._why(
                        N_("seat %(seat)s holds no complete four of %(rank)s; %(asked)s"),
                        seat=decision.to_move,
                        rank=RankWord(rank),
                    )
                return self._why(
                    N_("seat %(seat)s holds only %(held)s complete fours of %(rank)s; %(asked)s"),
                    seat=decision.to_move,
                    held=held,
                    rank=RankWord(rank),
                )
        return GameState._discard, (decision, discard.ranks)

    # -- transitions: each reads the decision, and makes a new table and decision ---

    def _play(self, checked: tuple[Any, ...]) -> GameState:
        seat, rank, hand, keys, laid = checked
        beneath = None if self._groups is None else self._groups[0][0]
        change = _Change(self)
        claim = change.lay(seat, rank, laid, hand, keys)
        change.passes = 0
        if change.waiting is not None:
            # Laying cards on an empty-handed player's claim lets it stand.
            over = change.leave(change.waiting)
            if over is not None:
                return change.to(over)
        change.waiting = None if keys else seat
        seating = change.table.seating
        window = Window.on(change.rules, seating, claim, beneath, self._passes > 0)
        if window is None:
            return change.to(change.turn(seating.next_active(seat)))
        return change.to(window)

    def _accepted(self, asked: Window | Consent, run: int = 1) -> GameState:
        """``run`` seats in a row accept (at most all those ``asked`` still asks), as one state.

        The state the last acceptance makes, with an ``Accepted`` event for
        each: the one :meth:`apply` makes from each ``Accept()`` in turn.
        """
        following: Window | Consent | None = asked.next_asked()
        if run == 1 and following is not None:
            # The next seat is asked: only the log and the decision move.
            return self._asked(_accepted(asked.seat), following)
        change = _Change(self)
        for _ in range(run - 1):
            assert following is not None, "more acceptances than seats asked"
            change.record(_accepted(asked.seat))
            asked, following = following, following.next_asked()
        if following is not None:
            change.record(_accepted(asked.seat))
            return change.to(following)
        if isinstance(asked, Consent):
            # The last consent: the pass takes effect, and the acceptance says whose.
            change.record(Accepted(asked.seat, passer=asked.passer))
            return change.passed(asked.passer)
        change.record(_accepted(asked.seat))
        # The window closed without a challenge: the claim stands.
        if change.waiting is not None:
            over = change.leave(change.waiting)
            if over is not None:
                return change.to(over)
        return change.to(change.turn(asked.opener(change.table.seating)))

    def _asked(self, event: Event, decision: Decision) -> GameState:
        """The state after ``event``, asking ``decision``, where nothing else moved."""
        return _made_state(
            self.seed,
            self.dealer,
            self.set_aside,
            self.table,
            decision,
            self._hands,
            self._keys,
            self._groups,
            (event, self._log),
            self._log_length + 1,
            self.stock,
            self._passes,
            self._waiting,
            self._revealed,
            self._draws,
            self._game,
        )

    def _challenge(self, checked: tuple[int, bool]) -> GameState:
        challenger, earlier = checked
        rules = self.rules
        groups = self._groups
        assert groups is not None  # a claim is challenged
        claim, laid = groups[1][0] if earlier else groups[0]
        shown, positions, drawn = self._turned_over(laid)
        truthful = proves(rules.check, shown, claim.rank)
        taker = challenger if truthful else claim.seat
        # A final play stays on the table, apart, when the claim beneath it is
        # challenged: it still needs every opponent's acceptance or a true reveal.
        kept = earlier and self._waiting is not None
        change = _Change(self)
        change.record(Challenged(challenger, claim.seat, earlier))
        change.record(
            Revealed(
                claim.seat, shown, claim.rank, truthful, earlier, positions=positions, drawn=drawn
            )
        )
        pile, taken = change.pick_up(taker, kept)
        change.record(PileTaken(taker, pile, len(pile), groups=taken, kept=int(kept)))
        change.reveal(shown)
        change.passes = 0
        change.draw(taker)
        if not kept:
            # A claim that emptied its declarer's hand stands if proved true.
            if change.waiting is not None and truthful:
                over = change.leave(change.waiting)
                if over is not None:
                    return change.to(over)
            change.waiting = None
        opener = rules.after_challenge.opener(
            change.table.seating, claim.seat, challenger, truthful
        )
        return change.after_pickup(taker, opener, challenger if kept else None)

    def _turned_over(
        self, laid: tuple[Card, ...]
    ) -> tuple[tuple[Card, ...], tuple[int, ...], bool]:
        """The cards the check turns over of ``laid`` now, their places, and whether chance chose.

        A draw scripted for this moment (a sampled game's) is the answer,
        card by card, and stands for a draw of chance. Else the rules' check
        answers, drawing from the chance of this moment, seeded by the seed
        and the moment.

        Raises:
            RulesError: a card turned over (scripted, or the check's) is not in the group.

        """
        moment = self._log_length
        scripted = tuple(card for when, card in self._draws if when == moment)
        if scripted:
            try:
                return scripted, positions_in(laid, scripted), True
            except RulesError as error:
                raise RulesError(
                    N_("the draw is scripted to turn over %(card)s, which is not in the group"),
                    card=error.params["card"],
                ) from None
        chance = Chance(f"{self.seed}:{moment}")
        shown = self.rules.check.shown(laid, chance)
        # A whole group shown (the usual check) lies at every place, in order.
        places = tuple(range(len(laid))) if shown == laid else positions_in(laid, shown)
        return shown, places, chance.used

    def _pass(self, seat: int) -> GameState:
        change = _Change(self)
        change.record(Passed(seat))
        if not self.rules.passing.consent:
            return change.passed(seat)
        return change.to(Consent.to_pass(change.table.seating, seat))

    def _refuse(self, consent: Consent) -> GameState:
        change = _Change(self)
        change.record(Refused(consent.seat))
        return change.to(change.turn(consent.passer, refused=True))

    def _discard(self, checked: tuple[Turn | DiscardOffer, tuple[Rank, ...]]) -> GameState:
        decision, ranks = checked
        seat = decision.seat
        change = _Change(self)
        over = change.set_aside(seat, ranks, forced=False)
        if over is not None:
            return change.to(over)
        if isinstance(decision, DiscardOffer):
            # The taker has chosen: a final play kept on the table is asked
            # about, else the seat the challenge chose opens.
            return change.reopen(decision.still_to_ask(), decision.opener)
        seating = change.table.seating
        if seating.is_active(seat):
            return change.to(decision)  # on a turn, the player goes on to lay cards
        return change.to(change.turn(seating.next_active(seat)))

    # -- value semantics ---------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, GameState):
            return NotImplemented
        return (
            self._log_length == other._log_length
            and self.decision.to_move == other.decision.to_move
            and self.decision.phase is other.decision.phase
            and self.table.pile_size == other.table.pile_size
            and self._keys == other._keys
            and self.seed == other.seed
            and self.table.rules == other.table.rules
            and self._draws == other._draws
            and _persistent.same(self._log, other._log)
        )

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        value: int | None = getattr(self, "_hash", None)
        if value is None:
            value = hash(
                (
                    self._log_length,
                    self._keys,
                    self.decision.to_move,
                    self.decision.phase,
                    self.table.pile_size,
                    self._draws,
                )
            )
            object.__setattr__(self, "_hash", value)
        return value

    def __repr__(self) -> str:
        outcome = self.table.outcome
        if outcome is not None:
            status = f"over, winners {outcome.winners}"
        else:
            status = f"{self.phase.value}, seat {self.to_move} to move"
        sizes = " ".join(map(str, self.hand_sizes))
        events = self._log_length
        return (
            f"<GameState {self.rules.name}: {status}; hands {sizes}; "
            f"pile {self.pile_size}; {events} event{'' if events == 1 else 's'}>"
        )

    def _repr_svg_(self) -> str:
        """The whole table, every card face up, for notebooks: :func:`cheatrules.svg.render`."""
        from cheatrules.svg import render  # the pictures module draws states

        return render(self)

    def __getstate__(self) -> dict[str, Any]:
        # Flatten the persistent stacks: pickling them nested would recurse
        # once per event.
        state = {field.name: getattr(self, field.name) for field in attrs.fields(GameState)}
        state["_log"] = _persistent.oldest_first(self._log)
        state["_groups"] = _persistent.oldest_first(self._groups)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state["_log"] = _persistent.from_items(state["_log"])
        state["_groups"] = _persistent.from_items(state["_groups"])
        for name, value in state.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_game", _Game())


# A check's answer: the transition to apply, and what it needs.
_Checked = tuple[Callable[[GameState, Any], GameState], Any]

_CHECKS: dict[type, Callable[[GameState, Decision, Any], Message | _Checked]] = {
    Play: GameState._check_play,
    Accept: GameState._check_accept,
    Challenge: GameState._check_challenge,
    Discard: GameState._check_discard,
    Pass: GameState._check_pass,
    Refuse: GameState._check_refuse,
}

# The decision each event of the log records, for the events that record one.
_ACTION_OF: dict[type, Callable[[Any], Action]] = {
    Played: lambda event: Play(event.cards, event.rank),
    Accepted: lambda event: _ACCEPT,
    Challenged: lambda event: _EARLIER if event.earlier else _CHALLENGE,
    Passed: lambda event: _PASS,
    Refused: lambda event: _REFUSE,
}


def _actions_down_to(log: Stack[Event], stop: Stack[Event]) -> tuple[Action, ...]:
    """The decisions ``log``'s events record above ``stop``, oldest first.

    Raises:
        ValueError: ``stop`` is not below ``log`` (for ``None``, it always is).

    """
    found: list[Action] = []
    while log is not stop:
        if log is None:
            raise ValueError("this state was not reached from the state given")
        event = log[0]
        action = _ACTION_OF.get(type(event))
        if action is not None:
            found.append(action(event))
        elif isinstance(event, Discarded) and not event.forced:
            found.append(Discard(event.ranks))  # a discard the rules forced is no decision
        log = log[1]
    found.reverse()
    return tuple(found)


def _take(
    hand: tuple[Card, ...], keys: tuple[int, ...], laid: tuple[Card, ...], seat: int
) -> tuple[tuple[Card, ...], tuple[int, ...], tuple[Card, ...]] | Message:
    """The hand and keys left after ``seat`` lays ``laid``, the cards laid sorted; or why not."""
    remaining_keys = list(keys)
    remaining = list(hand)
    taken = []
    for card in laid:
        key = card.key
        index = bisect_left(remaining_keys, key)
        if index == len(remaining_keys) or remaining_keys[index] != key:
            held = keys.count(key)
            if not held:
                return Message.of(
                    N_("%(card)s is not in seat %(seat)s's hand"), {"card": card, "seat": seat}
                )
            times = sum(1 for other in laid if other.key == key)
            return Message.of(
                N_("%(card)s is laid %(times)s times but seat %(seat)s holds %(held)s"),
                {"card": card, "times": times, "seat": seat, "held": held},
            )
        del remaining_keys[index]
        taken.append(remaining.pop(index))
    # The order of the cards within a group means nothing: keep them sorted,
    # so that the same play made in another order reaches the same state.
    taken.sort(key=_KEY)
    return tuple(remaining), tuple(remaining_keys), tuple(taken)


class _Change:
    """One transition under way: the parts of a state it changes, then the state it makes.

    A transition starts one from the state it leaves, changes what the rules
    say (each method one step of the rule book: lay, pick up, draw, set
    aside, leave), then :meth:`to` makes the following state with the
    decision it asks next. Whatever it does not change is kept as it was;
    nothing is cleared unless a step clears it.
    """

    __slots__ = (
        "groups",
        "hands",
        "keys",
        "length",
        "log",
        "passes",
        "revealed",
        "rules",
        "state",
        "stock",
        "table",
        "waiting",
    )

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.table = state.table
        self.rules = state.table.rules
        self.hands = state._hands
        self.keys = state._keys
        self.groups = state._groups
        self.log = state._log
        self.length = state._log_length
        self.stock = state.stock
        self.passes = state._passes
        self.waiting = state._waiting
        self.revealed = state._revealed

    def record(self, event: Event) -> None:
        """Write ``event`` in the log, and move the public table by it (:meth:`Table.after`)."""
        self.log = (event, self.log)
        self.length += 1
        step = _TABLE_STEPS.get(type(event))
        if step is not None:  # else it leaves the table as it is
            self.table = step(self.table, event)

    def hold(self, seat: int, keys: list[int] | tuple[int, ...]) -> None:
        """``seat`` now holds the cards of these sorted ``keys``."""
        self._held(seat, tuple(map(CARD_BY_KEY.__getitem__, keys)), tuple(keys))

    def _held(self, seat: int, hand: tuple[Card, ...], keys: tuple[int, ...]) -> None:
        # A list with one item replaced, made a tuple again: the quickest copy.
        hands, every_key = list(self.hands), list(self.keys)
        hands[seat], every_key[seat] = hand, keys
        self.hands, self.keys = tuple(hands), tuple(every_key)

    def lay(
        self,
        seat: int,
        rank: Rank,
        laid: tuple[Card, ...],
        hand: tuple[Card, ...],
        keys: tuple[int, ...],
    ) -> Claim:
        """``seat`` lays ``laid`` on the table announcing ``rank``, keeping ``hand``; the claim."""
        self._held(seat, hand, keys)
        self.record(_made_played(seat, laid, rank, len(laid)))
        claim = self.table.claims[-1]
        self.groups = ((claim, laid), self.groups)
        return claim

    def pick_up(self, taker: int, keep_newest: bool) -> tuple[tuple[Card, ...], int]:
        """``taker`` takes the pile into its hand (all but the newest group, if kept).

        Returns the cards taken, oldest first, and how many groups they were.
        """
        groups = self.groups
        kept: Stack[_Group] = None
        if keep_newest and groups is not None:
            kept, groups = (groups[0], None), groups[1]
        taken = _persistent.oldest_first(groups)
        pile = tuple(chain.from_iterable(laid for _, laid in taken))
        self.hold(taker, sorted((*self.keys[taker], *map(_KEY, pile))))
        self.groups = kept
        return pile, len(taken)

    def reveal(self, shown: tuple[Card, ...]) -> None:
        """``shown`` were turned face up in a challenge."""
        self.revealed = shown_after(self.revealed, shown)

    def draw(self, seat: int) -> None:
        """``seat`` draws from the stock as the dealing rule says (nothing once it is empty)."""
        drawn = self.stock[: self.rules.dealing.draws]
        if drawn:
            self.hold(seat, sorted(self.keys[seat] + tuple(card.key for card in drawn)))
            self.stock = self.stock[len(drawn) :]
            self.record(Drew(seat, drawn))

    def set_aside(self, seat: int, ranks: tuple[Rank, ...], forced: bool) -> Over | None:
        """``seat`` sets aside one four of each rank in ``ranks``, shown to all.

        A whole hand discarded in fours: that player leaves too; returns the
        end of the game if that ends it.
        """
        hand = list(self.hands[seat])
        held = list(self.keys[seat])
        removed: list[Card] = []
        for rank in ranks:
            start = bisect_left(held, rank.value * 4)
            removed.extend(hand[start : start + 4])
            del hand[start : start + 4], held[start : start + 4]
        self._held(seat, tuple(hand), tuple(held))
        self.record(Discarded(seat, ranks, tuple(removed), forced))
        return None if hand else self.leave(seat)

    def leave(self, seat: int) -> Over | None:
        """``seat`` leaves the game; the end of the game if that ends it, else ``None``."""
        if self.waiting == seat:
            self.waiting = None
        self.record(WentOut(seat))
        seating = self.table.seating
        ending = self.rules.ending
        if not ending.is_over(seating):
            return None
        winners, losers = ending.result(seating)
        self.record(GameOver(winners, losers))
        return Over(Outcome(winners, losers))

    def passed(self, seat: int) -> GameState:
        """``seat``'s pass takes effect: it draws from any stock, and the turn moves on.

        The event that made it take effect (the pass, or the acceptance that
        completed it) has moved the sequence on already (:meth:`Table.after`).
        """
        self.draw(seat)
        if self.waiting is not None:
            # Passing on an empty-handed player's claim lets it stand.
            over = self.leave(self.waiting)
            if over is not None:
                return self.to(over)
        self.passes += 1
        return self.to(self.turn(self.table.seating.next_active(seat)))

    def after_pickup(self, taker: int, opener: int, challenger: int | None) -> GameState:
        """After ``taker`` took the pile: its fours, then ``opener`` plays.

        ``challenger`` is given when a final play was kept on the table: the
        opponents not yet asked about it are then asked, from the one who
        challenged the claim beneath.
        """
        discards = self.rules.discards
        offered = discards.after_pickup(self.hands[taker])  # counting any card drawn
        if offered is not None and discards.compulsory:
            # Every four is set aside at once, shown to all; nobody is asked.
            over = self.set_aside(taker, tuple(sorted(offered)), forced=True) if offered else None
            if over is not None:
                return self.to(over)
            offered = None
        resume: tuple[int, ...] = ()
        if challenger is not None and self.waiting is not None:
            resume = Window.resumed(self.rules, self.table.seating, self.waiting, challenger)
        if offered is not None:
            return self.to(DiscardOffer(taker, tuple(sorted(offered)), opener, resume=resume))
        return self.reopen(resume, opener)

    def reopen(self, resume: tuple[int, ...], opener: int) -> GameState:
        """``opener`` plays; but first, a final play kept on the table is asked about again.

        ``resume`` are the opponents to ask; if none is left in the game, the
        final play stands at once.
        """
        waiting = self.waiting
        if waiting is not None and self.groups is not None:
            window = Window.again(self.table.seating, self.groups[0][0], resume, opener)
            if window is not None:
                return self.to(window)
            over = self.leave(waiting)
            if over is not None:
                return self.to(over)
        return self.to(self.turn(self.table.seating.active_from(opener)))

    def turn(self, seat: int, refused: bool = False) -> Turn:
        """``seat``'s turn, with the choices the rules give it now.

        ``refused``: its request to pass was refused this turn.
        """
        return Turn.given(self.rules, self.table, seat, self.passes, self.revealed, refused)

    def to(self, decision: Decision) -> GameState:
        """The following state, asking ``decision``."""
        state = self.state
        return _made_state(
            state.seed,
            state.dealer,
            state.set_aside,
            self.table,
            decision,
            self.hands,
            self.keys,
            self.groups,
            self.log,
            self.length,
            self.stock,
            self.passes,
            self.waiting,
            self.revealed,
            state._draws,
            state._game,
        )


# What the transitions make at every decision, made from every field in order
# (see _persistent.maker): a state (and its game), a table, a claim, its window
# and its play.
_made_state = maker(GameState, [*(field.name for field in attrs.fields(GameState)), "_game"])
_made_played = maker(Played, [field.name for field in attrs.fields(Played)])


# How many of each seat's latest views a game keeps to extend (a search that
# observes sibling states finds their common ancestor's among them), and how
# many redacted events it keeps to share between its seats.
_VIEWS_KEPT = 16
_EVENTS_KEPT = 1024


class _Game:
    """What the states of one game share: each seat's latest views, and the events redacted.

    The deal starts one (so does a state made otherwise: by hand,
    ``attrs.evolve`` or unpickling), and every transition hands it on, so
    that all the states reached from it by :meth:`GameState.apply` share it:
    it lives as long as any of them. Nothing in it is part of a state's
    value; a state that starts a new one only redoes some work.

    Threads share it with the states: ``lock`` guards both tables (each
    call of :meth:`view` holds it throughout), and nothing else in it
    changes.

    * ``views[seat]`` maps the ``id`` of a state's log (a persistent stack
      node) to that node and the seat's view of it. The entry holds the node,
      so its id cannot be another node's while the entry lives, and a lookup
      checks the node's identity too. At most :data:`_VIEWS_KEPT` a seat,
      the oldest dropped first. :meth:`view` walks down a state's log to the
      newest node a view is kept for, and redacts only the events since.
    * ``events`` maps each redacted event to itself, so that the seats that
      see an event the same way share one object (the claim of a play is one
      object in every other seat's log). At most :data:`_EVENTS_KEPT`, the
      oldest dropped first; an event dropped is only shared no more.
    """

    __slots__ = ("events", "lock", "views")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.views: dict[int, dict[int, tuple[Stack[Event], _persistent.Log[Event]]]] = {}
        self.events: dict[Event, Event] = {}

    def view(self, log: Stack[Event], seat: int) -> _persistent.Log[Event]:
        """The state log ``log`` as ``seat`` sees it, extending a view of this game kept before."""
        fresh: list[Event] = []
        with self.lock:
            known = self.views.get(seat)
            if known is None:
                known = self.views[seat] = {}
            node = log
            view: _persistent.Log[Event] | None = None
            while node is not None:
                hit = known.get(id(node))
                if hit is not None and hit[0] is node:
                    view = hit[1]
                    break
                fresh.append(node[0])
                node = node[1]
            if view is None:
                view = _persistent.Log()
            if fresh:
                fresh.reverse()
                view = view.extended(self._seen(fresh, seat))
            known[id(log)] = (log, view)
            if len(known) > _VIEWS_KEPT:
                del known[next(iter(known))]
        return view

    def _seen(self, events: list[Event], seat: int) -> list[Event]:
        """``events`` as ``seat`` sees them, each redacted one the object kept for its value.

        Called with :attr:`lock` held.
        """
        seen = []
        kept = self.events
        for event in events:
            shown = event.seen_by(seat)
            if shown is not event and not isinstance(shown, Dealt):  # a deal is one seat's
                shown = kept.setdefault(shown, shown)
                if len(kept) > _EVENTS_KEPT:
                    del kept[next(iter(kept))]
            seen.append(shown)
        return seen
