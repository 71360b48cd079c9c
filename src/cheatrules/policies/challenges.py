"""Challenges: who may challenge and when, what the challenge checks, and who plays after it."""

from __future__ import annotations

from typing import ClassVar, Literal, Protocol

import attrs

from cheatrules import _checks as checks
from cheatrules.cards import Card, Rank
from cheatrules.chance import Chance
from cheatrules.seating import Seating

__all__ = [
    "AskEachOpponent",
    "ChallengeCheck",
    "ChallengeWindow",
    "ChallengerIfRight",
    "DeclarersLeft",
    "JokerProtects",
    "NextPlayerDecides",
    "OneCard",
    "TakerPlays",
    "TurnAfterChallenge",
    "WholeGroup",
    "chance_chooses",
    "holds",
    "proves",
]


class ChallengeWindow(Protocol):
    """Decides who may challenge a claim, and when.

    Two shapes exist. A *window* (Cheat): right after a claim, the seats
    :meth:`askers` returns are asked in turn to challenge or accept, and the
    first challenge ends the window. A *turn* decision (Verish' Ne Verish'):
    no one is asked, and the next player may challenge instead of playing
    (:attr:`on_turn`). A claim *stands* once the window closes without a
    challenge, or once the next player lays cards on it.
    """

    @property
    def on_turn(self) -> bool:
        """Whether the player to move may challenge the last claim instead of playing."""
        ...

    @property
    def extended(self) -> bool:
        """Whether the claim beneath the newest may still be challenged in the newest's window.

        An extended window: an earlier claim may be challenged until the turn
        after the next one begins (:class:`~cheatrules.Challenge` with
        ``earlier=True``).
        """
        ...

    def askers(self, seating: Seating, declarer: int) -> tuple[int, ...]:
        """The seats asked, in order, to challenge or accept the claim ``declarer`` just made."""
        ...


@attrs.frozen
class AskEachOpponent:
    """Cheat: every opponent of the declarer is asked, clockwise from the declarer's left.

    Simultaneous calls go to the first challenger clockwise from the
    declarer, so asking in that order gives every call its priority.

    With ``extended=True`` the window reaches one claim further back: while
    the opponents are asked about the newest claim, each may instead
    challenge the claim laid just before it (by a player still in the game
    and other than themselves). Once the newest claim's window closes, the
    next turn begins and the earlier claim stands. The earlier group alone
    is checked; the loser takes the whole pile, and who plays next follows
    the after-challenge rule with the earlier claim's declarer. When the
    newest claim was its declarer's last cards, its group stays on the
    table, apart: the loser takes the pile beneath it, and the newest
    claim's window goes on, asking every opponent not yet asked about it
    (the earlier claim's challenger first).

    >>> AskEachOpponent().askers(Seating(4), declarer=2)
    (3, 0, 1)
    """

    on_turn: ClassVar[bool] = False
    extended: bool = attrs.field(default=False, converter=checks.to_flag, validator=checks.flag())

    def askers(self, seating: Seating, declarer: int) -> tuple[int, ...]:
        """Every other active seat, clockwise from the declarer's left neighbour."""
        return seating.others_clockwise(declarer)


@attrs.frozen
class NextPlayerDecides:
    """Verish' Ne Verish': nobody is asked; the next player challenges or lays cards on the claim.

    Once a new group is on the table, the one beneath it can no longer be
    checked.

    >>> NextPlayerDecides().askers(Seating(4), declarer=2), NextPlayerDecides().on_turn
    ((), True)
    """

    on_turn: ClassVar[bool] = True
    extended: ClassVar[bool] = False

    def askers(self, seating: Seating, declarer: int) -> tuple[int, ...]:
        """Nobody: the challenge is the next player's turn decision."""
        return ()


def holds(shown: tuple[Card, ...], rank: Rank) -> bool:
    """Whether the cards turned over prove a claim of ``rank`` true.

    Every card must be of the announced rank or a joker (jokers are wild).

    >>> from cheatrules.cards import cards
    >>> holds(cards("7♣ ★♥"), Rank.SEVEN), holds(cards("7♣ K♦"), Rank.SEVEN)
    (True, False)
    """
    return all(card.rank is rank or card.rank is Rank.JOKER for card in shown)


class ChallengeCheck(Protocol):
    """Decides which cards of a challenged group are turned over.

    The claim is true when every card turned over is of the announced rank
    or a joker (see :func:`holds`). A check may judge by a rule of its own
    instead, with a method ``truthful(shown, rank) -> bool`` (see
    :class:`JokerProtects` and :func:`proves`).
    """

    def shown(self, cards: tuple[Card, ...], chance: Chance) -> tuple[Card, ...]:
        """The cards of the challenged group ``cards`` that are turned over for all to see.

        ``chance`` is the seeded chance of this moment of the game: draw
        from it, never from another source, so replays repeat the draw.
        """
        ...


@attrs.frozen
class WholeGroup:
    """The whole last group is turned over; one card of another rank makes it a lie.

    >>> from cheatrules.cards import cards
    >>> [str(card) for card in WholeGroup().shown(cards("7♣ K♦"), Chance("0"))]
    ['7♣', 'K♦']
    """

    jokers_protect: ClassVar[bool] = False

    def shown(self, cards: tuple[Card, ...], chance: Chance) -> tuple[Card, ...]:
        """Every card of the group."""
        return cards


@attrs.frozen
class OneCard:
    """One card of the group, drawn by the seeded chance, is turned over and decides alone.

    A bluff that holds one true card may survive the check; the other cards
    of the group stay face down and go to the taker with the pile.

    >>> from cheatrules.cards import cards
    >>> shown = OneCard().shown(cards("7♣ K♦"), Chance("0"))
    >>> len(shown), shown[0] in cards("7♣ K♦")
    (1, True)
    """

    jokers_protect: ClassVar[bool] = False

    def shown(self, cards: tuple[Card, ...], chance: Chance) -> tuple[Card, ...]:
        """One card of the group, each equally likely."""
        return (chance.choice(cards),)


@attrs.frozen
class JokerProtects:
    """The whole group is turned over, and a joker among it makes the claim true.

    The general guide's reading of wild jokers: "a challenged play with a
    joker is a winning play for the declarer", whatever the group's other
    cards. Without a joker in the group the check is :class:`WholeGroup`'s.

    >>> from cheatrules.cards import cards
    >>> rule = JokerProtects()
    >>> rule.truthful(cards("★♥ K♦"), Rank.SEVEN), rule.truthful(cards("7♣ K♦"), Rank.SEVEN)
    (True, False)
    """

    jokers_protect: ClassVar[bool] = True

    def shown(self, cards: tuple[Card, ...], chance: Chance) -> tuple[Card, ...]:
        """Every card of the group."""
        return cards

    def truthful(self, shown: tuple[Card, ...], rank: Rank) -> bool:
        """Whether a joker is shown, or every card shown is of ``rank``."""
        return any(card.rank is Rank.JOKER for card in shown) or holds(shown, rank)


def proves(check: ChallengeCheck, shown: tuple[Card, ...], rank: Rank) -> bool:
    """Whether the cards ``check`` turned over prove a claim of ``rank`` true.

    By the check's own ``truthful`` method where it has one, else by
    :func:`holds`. The engine judges every challenge with this, and so
    should anyone who reasons about the truth of a claim.

    >>> from cheatrules.cards import cards
    >>> proves(WholeGroup(), cards("★♥ K♦"), Rank.SEVEN)
    False
    >>> proves(JokerProtects(), cards("★♥ K♦"), Rank.SEVEN)
    True
    """
    judge = getattr(check, "truthful", None)
    if judge is None:
        return holds(shown, rank)
    return bool(judge(shown, rank))


def chance_chooses(check: ChallengeCheck, group: tuple[Card, ...]) -> bool:
    """Whether ``check`` draws from chance to choose the cards it turns over of ``group``.

    The check is asked of ``group`` with a chance of its own; a reader that
    needs to know whether chance chose a reveal (the OpenSpiel adapter's
    chance nodes, a version-1 view record, which did not say) asks it of a
    group of the real one's size.

    >>> from cheatrules.cards import cards
    >>> chance_chooses(OneCard(), cards("7♣ K♦")), chance_chooses(WholeGroup(), cards("7♣ K♦"))
    (True, False)
    """
    chance = Chance("probe")
    check.shown(group, chance)
    return chance.used


class TurnAfterChallenge(Protocol):
    """Decides who makes the next claim after a challenge."""

    def opener(self, seating: Seating, declarer: int, challenger: int, truthful: bool) -> int:
        """The seat that plays next.

        ``seating`` already reflects a declarer who went out with a true last
        claim. If the seat returned leaves the game before it can play (for
        example by discarding its whole hand), the next active seat after it
        plays instead.
        """
        ...


@attrs.frozen
class DeclarersLeft:
    """Whatever the outcome, the declarer's left neighbour plays next.

    >>> DeclarersLeft().opener(Seating(4), declarer=0, challenger=2, truthful=False)
    1
    """

    def opener(self, seating: Seating, declarer: int, challenger: int, truthful: bool) -> int:
        """The next active seat after the declarer."""
        return seating.next_active(declarer)


@attrs.frozen
class ChallengerIfRight:
    """A caught bluff: the challenger plays next. A true claim: the seat after ``otherwise``.

    Verish' Ne Verish' uses ``otherwise="challenger"``: after a wrong
    challenge, the next active player after the challenger opens.

    >>> rule = ChallengerIfRight()
    >>> rule.opener(Seating(4), declarer=0, challenger=1, truthful=False)
    1
    >>> rule.opener(Seating(4), declarer=0, challenger=1, truthful=True)
    2
    """

    otherwise: Literal["challenger", "declarer"] = attrs.field(
        default="challenger", validator=checks.one_of("challenger", "declarer")
    )

    def opener(self, seating: Seating, declarer: int, challenger: int, truthful: bool) -> int:
        """The challenger if the claim was a lie, else the next active seat after ``otherwise``."""
        if not truthful:
            return challenger
        return seating.next_active(challenger if self.otherwise == "challenger" else declarer)


@attrs.frozen
class TakerPlays:
    """Whoever took the pile plays next (the declarer if caught, else the challenger).

    >>> TakerPlays().opener(Seating(4), declarer=0, challenger=2, truthful=True)
    2
    """

    def opener(self, seating: Seating, declarer: int, challenger: int, truthful: bool) -> int:
        """The seat that took the pile (the next after it, if it has just gone out)."""
        return challenger if truthful else declarer
