"""The decision a game asks for now: one small frozen class per kind.

:attr:`GameState.decision <cheatrules.GameState.decision>` and
:attr:`Observation.decision <cheatrules.Observation.decision>` hold one of

* :class:`Turn`: a seat lays cards (and may challenge or pass, where the
  rules allow it);
* :class:`Window`: a challenge window, where a seat challenges or accepts a
  claim (or, in an extended window, the claim beneath it);
* :class:`Consent`: a seat agrees to another seat's pass, or refuses it;
* :class:`DiscardOffer`: the seat that took the pile may set complete fours
  aside;
* :class:`Over`: the game has ended.

Each owns whose decision it is (:attr:`~cheatrules.Turn.to_move`), its label
(:attr:`~cheatrules.Turn.phase`), the choices other than plays and discards
(:attr:`~cheatrules.Turn.choices`), the sentence that says what is asked
(:meth:`~cheatrules.Turn.asked`) and the legal actions
(:meth:`~cheatrules.Turn.legal_actions`). A bot reads the kind from the value::

    match seen.decision:
        case cr.Window(claim=claim):
            ...  # challenge or accept `claim`
        case cr.Turn():
            ...  # lay cards

>>> import cheatrules as cr
>>> state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
>>> state.decision
Turn(seat=0, choices=())
>>> window = state.apply(cr.Play("K♦", "A")).decision
>>> window
Window(seat=1, claim=Claim(seat=0, count=1, rank=Rank.ACE), askers=(2,), earlier=None)
>>> window.asked(state.table)
"seat 1 must challenge or accept seat 0's claim of one Ace"
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import ClassVar, TypeAlias

import attrs

from cheatrules._generation import CONSENT_ACTIONS, EARLIER_WINDOW_ACTIONS, WINDOW_ACTIONS
from cheatrules._persistent import maker
from cheatrules.actions import Action, Challenge, Pass
from cheatrules.cards import Card, Rank
from cheatrules.errors import N_, ClaimWords, Message
from cheatrules.legal import LegalActions
from cheatrules.policies.declarations import declared
from cheatrules.rules import Rules
from cheatrules.seating import Seating
from cheatrules.table import Claim, Outcome, Phase, Table

__all__ = [
    "NONE_SHOWN",
    "Consent",
    "Decision",
    "DiscardOffer",
    "Over",
    "Turn",
    "Window",
    "shown_after",
]

# The legal actions of the decisions that offer only choices, one value each,
# shared by every game (a LegalActions works out its length on first use, the
# same whichever thread does it first).
_NO_LEGAL_ACTIONS = LegalActions()
_WINDOW_LEGAL_ACTIONS = LegalActions(WINDOW_ACTIONS)
_EARLIER_WINDOW_LEGAL_ACTIONS = LegalActions(EARLIER_WINDOW_ACTIONS)
_CONSENT_LEGAL_ACTIONS = LegalActions(CONSENT_ACTIONS)


#: The reason nothing is asked any more.
GAME_OVER = N_("the game is over")


@attrs.frozen
class Turn:
    """``seat`` lays cards announcing one of the table's allowed ranks.

    ``choices`` are the decisions it has besides laying cards (and setting
    fours aside on its turn, where the rules allow it): ``Challenge()``
    where it may challenge the last claim instead, ``Pass()`` where it may
    pass.
    """

    #: The label of this kind of decision.
    phase: ClassVar[Phase] = Phase.PLAY
    #: The seat to lay cards.
    seat: int
    #: Its decisions other than plays and discards (``Challenge()``, ``Pass()``) where open.
    choices: tuple[Action, ...] = ()

    @classmethod
    def given(
        cls,
        rules: Rules,
        table: Table,
        seat: int,
        passes: int,
        revealed: Sequence[int],
        refused: bool = False,
    ) -> Turn:
        """``seat``'s turn with the choices the rules give it now: the engine's, and a log reader's.

        ``passes`` is how many passes took effect since the last claim,
        ``revealed`` how many copies of each card (by its key) one check
        showed at most this game (:func:`~cheatrules.decision.shown_after`
        folds each reveal into :data:`~cheatrules.decision.NONE_SHOWN`), and
        ``refused`` whether the seat's request
        to pass was just refused (it must lay cards).

        >>> import cheatrules as cr
        >>> state = cr.deal(cr.english(3, passing="consent"), seed=1)
        >>> Turn.given(state.rules, state.table, 0, passes=0, revealed=()).choices
        (Pass(),)
        >>> Turn.given(state.rules, state.table, 0, passes=0, revealed=(), refused=True).choices
        ()
        """
        choices: tuple[Action, ...] = ()
        if rules.window.on_turn and table.claims and not passes:
            # Like laying cards on it, a pass lets the last claim stand.
            choices = (_CHALLENGE,)
        if not refused and _may_pass(rules, table, passes, revealed):
            choices = (*choices, _PASS)
        return Turn(seat, choices) if choices or seat >= _SEATS_SHARED else _TURNS[seat]

    @property
    def to_move(self) -> int:
        """The seat that decides."""
        return self.seat

    @property
    def may_challenge(self) -> bool:
        """Whether the seat may challenge the last claim instead of playing."""
        return Challenge() in self.choices

    @property
    def may_pass(self) -> bool:
        """Whether the seat may pass."""
        return Pass() in self.choices

    def asked(self, table: Table) -> str:
        """What is asked, in words (error messages end with it)."""
        return str(self.asking(table))

    def asking(self, table: Table) -> Message:
        """What is asked, as a message to say in any language."""
        allowed = table.allowed_ranks
        # One whole sentence for each case, so that a language orders its words freely.
        if len(allowed) == 1:
            if self.may_challenge and self.may_pass:
                template = N_("seat %(seat)s must lay cards as %(rank)s or challenge or pass")
            elif self.may_challenge:
                template = N_("seat %(seat)s must lay cards as %(rank)s or challenge")
            elif self.may_pass:
                template = N_("seat %(seat)s must lay cards as %(rank)s or pass")
            else:
                template = N_("seat %(seat)s must lay cards as %(rank)s")
            return Message.of(template, {"seat": self.seat, "rank": allowed[0]})
        if self.may_challenge and self.may_pass:
            template = N_("seat %(seat)s must lay cards announcing any rank or challenge or pass")
        elif self.may_challenge:
            template = N_("seat %(seat)s must lay cards announcing any rank or challenge")
        elif self.may_pass:
            template = N_("seat %(seat)s must lay cards announcing any rank or pass")
        else:
            template = N_("seat %(seat)s must lay cards announcing any rank")
        return Message.of(template, {"seat": self.seat})

    def legal_actions(self, hand: tuple[Card, ...], table: Table) -> LegalActions:
        """The legal actions of the seat holding ``hand``: its choices, fours and plays."""
        rules = table.rules
        return LegalActions(
            self.choices,
            hand=hand,
            announced=table.allowed_ranks,
            claims=rules.claims,
            fours=rules.discards.on_turn(hand),
        )

    def seen_by(self, seat: int) -> Turn:
        """The decision as ``seat`` sees it: another seat's turn without its choices.

        The choices are what the seat to move may do, as
        :attr:`Observation.choices <cheatrules.Observation.choices>` lists
        them only for that seat.
        """
        return self if seat == self.seat or not self.choices else Turn(self.seat)


_CHALLENGE = Challenge()
_PASS = Pass()
# The turns without choices of the first seats, made once: most turns are one of them.
_SEATS_SHARED = 16
_TURNS = tuple(Turn(seat) for seat in range(_SEATS_SHARED))


#: The copies of each card (by key, jokers included) shown before any challenge, none, as
#: :meth:`~cheatrules.Turn.given` is asked at the deal.
NONE_SHOWN = (0,) * (Rank.JOKER.value * 4 + 4)


def shown_after(revealed: tuple[int, ...], shown: Sequence[Card]) -> tuple[int, ...]:
    """``revealed`` once the check turned ``shown`` over: the most copies of each card one showed.

    The engine and a reader of a seat's log keep it so, for :meth:`~cheatrules.Turn.given`.

    >>> from cheatrules.cards import cards
    >>> after = shown_after(NONE_SHOWN, cards("7♣ 7♣ K♦"))
    >>> after[cards("7♣")[0].key], after[cards("K♦")[0].key], sum(after)
    (2, 1, 3)
    """
    counts = list(revealed)
    for key, count in Counter(card.key for card in shown).items():
        counts[key] = max(counts[key], count)
    return tuple(counts)


def _may_pass(rules: Rules, table: Table, passes: int, revealed: Sequence[int]) -> bool:
    """Whether the rules let the player to lay cards pass instead."""
    passing = rules.passing
    if not declared(passing, "offers_pass"):
        return False
    if passes >= len(table.seating.active) - 1:
        return False  # everyone else passed: someone lays cards
    allowed = table.allowed_ranks
    if len(allowed) != 1:
        return passing.allows(None, 0, 0)
    rank = allowed[0]
    first = rank.value * 4
    shown = sum(revealed[first : first + 4])  # the copies of each suit shown
    return passing.allows(rank, shown, rules.deck.copies(rank))


@attrs.frozen
class Window:
    """``seat`` challenges or accepts ``claim``, the newest on the table.

    ``askers`` are the opponents still to be asked after ``seat``, in
    order; once everyone accepted, the claim stands. In an extended window,
    ``earlier`` is the claim beneath the newest, which the seats asked may
    challenge instead (except its own declarer); ``None`` otherwise.
    """

    #: The label of this kind of decision.
    phase: ClassVar[Phase] = Phase.CHALLENGE
    #: The seat asked now.
    seat: int
    #: The claim asked about.
    claim: Claim
    #: The seats still to be asked after ``seat``, in order.
    askers: tuple[int, ...] = ()
    #: The claim beneath ``claim`` that the window reaches too, if any.
    earlier: Claim | None = None
    # The seat to open once the final play asked about stands, when this
    # window asks about a final play kept on the table after the claim
    # beneath it was challenged; else None and the declarer's left opens.
    _after: int | None = attrs.field(default=None, eq=False, repr=False)

    @classmethod
    def on(
        cls, rules: Rules, seating: Seating, claim: Claim, beneath: Claim | None, passed: bool
    ) -> Window | None:
        """The window the rules open on ``claim``, just laid; ``None`` where they ask nobody.

        ``seating`` is the seating once the claim is laid (a player whose
        final play it let stand has left); ``beneath`` is the claim beneath
        it on the table, if any; ``passed`` says whether a pass came between
        the two. The engine asks this at every play, and a reader of a
        seat's log asks the same, so both follow one rule.

        >>> import cheatrules as cr
        >>> rules = cr.english(3)
        >>> cr.Window.on(rules, cr.Seating(3), cr.Claim(0, 1, "A"), None, False)
        Window(seat=1, claim=Claim(seat=0, count=1, rank=Rank.ACE), askers=(2,), earlier=None)
        """
        askers = rules.window.askers(seating, claim.seat)
        if not askers:
            return None
        # An extended window reaches the claim laid just before, unless a pass
        # let it stand or its declarer has left.
        reach = rules.window.extended and not passed and beneath is not None
        earlier = beneath if reach and beneath and seating.is_active(beneath.seat) else None
        return _next_window(askers[0], claim, askers[1:], earlier, None)

    @staticmethod
    def resumed(rules: Rules, seating: Seating, declarer: int, challenger: int) -> tuple[int, ...]:
        """The opponents asked again about ``declarer``'s final play, kept on the table.

        It was kept when ``challenger`` challenged the claim beneath it: the
        opponents its window asks, from ``challenger`` on.
        """
        order = rules.window.askers(seating, declarer)
        return order[order.index(challenger) :] if challenger in order else order

    @classmethod
    def again(
        cls, seating: Seating, claim: Claim, resume: tuple[int, ...], opener: int
    ) -> Window | None:
        """The window asking ``resume`` again about ``claim``, a final play kept on the table.

        Only the seats of ``resume`` still in the game are asked (``None``
        when none is); once they all accept, ``opener`` (the seat the
        challenge beneath chose) lays cards.
        """
        askers = tuple(seat for seat in resume if seating.is_active(seat))
        if not askers:
            return None
        return _next_window(askers[0], claim, askers[1:], None, opener)

    @property
    def to_move(self) -> int:
        """The seat that decides."""
        return self.seat

    @property
    def choices(self) -> tuple[Action, ...]:
        """``Challenge()``, ``Challenge(earlier=True)`` where ``seat`` may, and ``Accept()``."""
        earlier = self.earlier
        if earlier is not None and earlier.seat != self.seat:
            return EARLIER_WINDOW_ACTIONS
        return WINDOW_ACTIONS

    def next_asked(self) -> Window | None:
        """The window once ``seat`` has accepted: the next asker's, or ``None`` if none is left."""
        askers = self.askers
        if not askers:
            return None
        return _next_window(askers[0], self.claim, askers[1:], self.earlier, self._after)

    def opener(self, seating: Seating) -> int:
        """The seat that lays cards once the claim stands, seated as ``seating`` says.

        The declarer's left; or, where this window asks about a final play
        kept on the table after the claim beneath it was challenged, the
        seat that challenge chose (or the next one still in the game).
        """
        after = self._after
        if after is None:
            return seating.next_active(self.claim.seat)
        return seating.active_from(after)

    def asked(self, table: Table) -> str:
        """What is asked, in words (error messages end with it)."""
        return str(self.asking(table))

    def asking(self, table: Table) -> Message:
        """What is asked, as a message to say in any language."""
        claim = self.claim
        return Message.of(
            N_("seat %(seat)s must challenge or accept seat %(declarer)s's claim of %(claim)s"),
            {
                "seat": self.seat,
                "declarer": claim.seat,
                "claim": ClaimWords(claim.count, claim.rank),
            },
        )

    def legal_actions(self, hand: tuple[Card, ...], table: Table) -> LegalActions:
        """The choices: challenge (the newest claim, or the one beneath) or accept."""
        earlier = self.earlier
        if earlier is not None and earlier.seat != self.seat:
            return _EARLIER_WINDOW_LEGAL_ACTIONS
        return _WINDOW_LEGAL_ACTIONS

    def seen_by(self, seat: int) -> Window:
        """The decision as ``seat`` sees it: all of it."""
        return self


# The window asking the next seat, made from its fields in order (see
# _persistent.maker): one at each acceptance.
_next_window = maker(Window, [field.name for field in attrs.fields(Window)])


@attrs.frozen
class Consent:
    """``seat`` agrees to ``passer``'s pass (``Accept()``) or refuses it (``Refuse()``).

    ``askers`` are the seats still to be asked after ``seat``; once every
    one agreed, the pass takes effect.
    """

    #: The label of this kind of decision.
    phase: ClassVar[Phase] = Phase.CONSENT
    #: The seat asked now.
    seat: int
    #: The seat asking to pass.
    passer: int
    #: The seats still to be asked after ``seat``, in order.
    askers: tuple[int, ...] = ()

    @classmethod
    def to_pass(cls, seating: Seating, passer: int) -> Consent:
        """The request ``passer``'s pass makes: every other seat in the game, clockwise."""
        askers = seating.others_clockwise(passer)
        return cls(askers[0], passer, askers[1:])

    @property
    def to_move(self) -> int:
        """The seat that decides."""
        return self.seat

    @property
    def choices(self) -> tuple[Action, ...]:
        """``Accept()`` and ``Refuse()``."""
        return CONSENT_ACTIONS

    def next_asked(self) -> Consent | None:
        """The request once ``seat`` has agreed: to the next seat, or ``None`` if none is left."""
        askers = self.askers
        return Consent(askers[0], self.passer, askers[1:]) if askers else None

    def asked(self, table: Table) -> str:
        """What is asked, in words (error messages end with it)."""
        return str(self.asking(table))

    def asking(self, table: Table) -> Message:
        """What is asked, as a message to say in any language."""
        return Message.of(
            N_("seat %(seat)s must agree to seat %(passer)s's pass (Accept) or Refuse"),
            {"seat": self.seat, "passer": self.passer},
        )

    def legal_actions(self, hand: tuple[Card, ...], table: Table) -> LegalActions:
        """The choices: accept or refuse."""
        return _CONSENT_LEGAL_ACTIONS

    def seen_by(self, seat: int) -> Consent:
        """The decision as ``seat`` sees it: all of it."""
        return self


@attrs.frozen
class DiscardOffer:
    """``seat``, which just took the pile, may set aside complete fours of ``fours``.

    ``Discard(())`` declines. Then ``opener`` lays cards (or, when a final
    play was kept on the table, its window opens again first). The fours
    are in the taker's hand, so the other seats see an offer with no fours.
    """

    #: The label of this kind of decision.
    phase: ClassVar[Phase] = Phase.DISCARD
    #: The seat that took the pile.
    seat: int
    #: The ranks of the complete fours it holds (empty in another seat's view).
    fours: tuple[Rank, ...]
    #: The seat that plays next, once the taker has chosen.
    opener: int
    # The opponents to ask about a final play kept on the table, once the
    # taker has chosen.
    _resume: tuple[int, ...] = attrs.field(default=(), eq=False, repr=False)

    @property
    def to_move(self) -> int:
        """The seat that decides."""
        return self.seat

    @property
    def choices(self) -> tuple[Action, ...]:
        """Nothing besides the discards."""
        return ()

    def still_to_ask(self) -> tuple[int, ...]:
        """The opponents to ask about a final play kept on the table, once the taker has chosen."""
        return self._resume

    def asked(self, table: Table) -> str:
        """What is asked, in words (error messages end with it)."""
        return str(self.asking(table))

    def asking(self, table: Table) -> Message:
        """What is asked, as a message to say in any language."""
        if not self.fours:
            return Message.of(
                N_("seat %(seat)s holds no complete four and must decline with Discard(())"),
                {"seat": self.seat},
            )
        return Message.of(
            N_("seat %(seat)s must discard fours of %(fours)s, or decline with Discard(())"),
            {"seat": self.seat, "fours": " ".join(str(rank) for rank in self.fours)},
        )

    def legal_actions(self, hand: tuple[Card, ...], table: Table) -> LegalActions:
        """Every choice of the fours offered, declining first."""
        return LegalActions(fours=self.fours, discarding=True)

    def seen_by(self, seat: int) -> DiscardOffer:
        """The decision as ``seat`` sees it: without the fours, unless it is the taker."""
        if seat == self.seat or not self.fours:
            return self
        return attrs.evolve(self, fours=())


@attrs.frozen
class Over:
    """The game has ended with ``outcome``; nobody decides."""

    #: The label of this kind of decision.
    phase: ClassVar[Phase] = Phase.OVER
    #: The winners and losers.
    outcome: Outcome
    #: Nobody decides.
    to_move: ClassVar[None] = None
    #: Nothing to choose.
    choices: ClassVar[tuple[Action, ...]] = ()

    def asked(self, table: Table) -> str:
        """What is asked, in words: nothing."""
        return str(self.asking(table))

    def asking(self, table: Table) -> Message:
        """What is asked, as a message to say in any language: nothing."""
        return Message(GAME_OVER)

    def legal_actions(self, hand: tuple[Card, ...], table: Table) -> LegalActions:
        """Nothing."""
        return _NO_LEGAL_ACTIONS

    def seen_by(self, seat: int) -> Over:
        """The decision as ``seat`` sees it: all of it."""
        return self


#: The decision a game asks for: one of the five kinds.
Decision: TypeAlias = Turn | Window | Consent | DiscardOffer | Over
