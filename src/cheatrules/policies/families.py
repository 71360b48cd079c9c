"""The families of policies a :class:`~cheatrules.Rules` value is made of, as data.

:data:`FAMILIES` holds one :class:`Family` per field of ``Rules``: the
protocol or class its policy must satisfy, the members that make an object
fit it, the declarations its policies may make, what it decides, and the
names that stand for its policies in a game's options (``ranks="free"``),
each with what it means. The rules, the command line's ``cheatrules rules``,
the web table's host page and the docs all read this table; its words are
messages of the catalogs, said in a language with ``gettext``.

>>> family("window").choice("extended").make(Deck())
AskEachOpponent(extended=True)
>>> [choice.name for choice in family("ending").choices]
['first-out', 'placings']
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from cheatrules.cards import Deck, Rank
from cheatrules.errors import N_, RulesError
from cheatrules.policies.challenges import (
    AskEachOpponent,
    ChallengeCheck,
    ChallengerIfRight,
    ChallengeWindow,
    DeclarersLeft,
    JokerProtects,
    NextPlayerDecides,
    OneCard,
    TakerPlays,
    TurnAfterChallenge,
    WholeGroup,
)
from cheatrules.policies.claims import ClaimSize
from cheatrules.policies.dealing import Dealing, Opening
from cheatrules.policies.declarations import FAMILY_OF
from cheatrules.policies.discards import AfterPickup, AnyTime, DiscardRule, NoDiscards
from cheatrules.policies.endings import Ending, FirstOutWins, LastInLoses
from cheatrules.policies.passing import NoPassing, PassRule, WhenAllRevealed, WithConsent
from cheatrules.policies.ranks import (
    Adjacent,
    Ascending,
    Descending,
    FreeChoice,
    HoldUntilChallenge,
    RankRule,
)

__all__ = ["FAMILIES", "Choice", "Family", "family"]


@attrs.frozen
class Choice:
    """A name that stands for a policy in a game's options, such as ``window="extended"``."""

    #: The name, as options, records of the command line and the web table give it.
    name: str
    #: What the policy does, one sentence (an English message of the catalogs).
    meaning: str
    #: The policy the name stands for, made for the deck in use (``claims="any"`` needs it).
    make: Callable[[Deck], object] = attrs.field(eq=False)


@attrs.frozen
class Family:
    """One field of :class:`~cheatrules.Rules`: what its policy must be, and its named policies."""

    #: The field's name in ``Rules`` and in a game's options (``"window"``).
    name: str
    #: The protocol (or, for ``deck``, ``dealing`` and ``claims``, the class) its policy satisfies.
    kind: type
    #: The methods or attributes an object needs to fit the family (if none, it must be an
    #: instance of ``kind``).
    members: tuple[str, ...] = ()
    #: What the family decides, one sentence (a message of the catalogs); empty for the
    #: families with no named policies (``deck``, ``dealing``, ``opening``).
    summary: str = ""
    #: The names that stand for its policies, in the order ``cheatrules rules`` lists them.
    choices: tuple[Choice, ...] = ()

    @property
    def declarations(self) -> tuple[str, ...]:
        """The declarations a policy of this family may make (``declared`` reads them)."""
        return tuple(name for name, owner in FAMILY_OF.items() if owner == self.name)

    @property
    def names(self) -> tuple[str, ...]:
        """The names of :attr:`choices`, in order."""
        return tuple(choice.name for choice in self.choices)

    def choice(self, name: str) -> Choice:
        """The named policy ``name`` of this family.

        Raises:
            RulesError: no policy of the family has that name; the message names them.

        """
        for found in self.choices:
            if found.name == name:
                return found
        raise RulesError(
            N_("unknown %(family)s=%(value)s; the names are %(known)s"),
            family=self.name,
            value=repr(name),
            known=", ".join(self.names),
        )


def _most_of_one_rank(deck: Deck) -> ClaimSize:
    """Any number of cards of one rank the deck can hold, jokers included."""
    return ClaimSize(1, max(deck.copies(rank) for rank in deck.ranks) + deck.copies(Rank.JOKER))


#: Every family of :class:`~cheatrules.Rules`, in the order of its fields.
FAMILIES: tuple[Family, ...] = (
    Family("deck", Deck),
    Family("dealing", Dealing),
    Family("opening", Opening, ("first",)),
    Family(
        "ranks",
        RankRule,
        ("allowed",),
        # Translators: what a family of house rules decides, after its name in `cheatrules rules`.
        N_("Decides which ranks the next claim may announce."),
        (
            # Translators: the house rules for the announced rank (--with ranks=...).
            Choice(
                "ascending",
                N_(
                    "Cheat's sequence: start first, then each claim one rank above the last, "
                    "wrapping round."
                ),
                lambda deck: Ascending(),
            ),
            Choice(
                "descending",
                N_("The sequence downwards: start first (Aces), then K, Q, J ... 2, A again."),
                lambda deck: Descending(),
            ),
            Choice(
                "free",
                N_("Free-choice Cheat: every claim names any rank of the deck."),
                lambda deck: FreeChoice(),
            ),
            Choice(
                "adjacent",
                N_(
                    "The same rank as the last claim, or one above or below it "
                    "(Ace both high and low)."
                ),
                lambda deck: Adjacent(),
            ),
            Choice(
                "hold",
                N_(
                    "Verish' Ne Verish': the opener of a round names any rank; "
                    "everyone after keeps it."
                ),
                lambda deck: HoldUntilChallenge(),
            ),
        ),
    ),
    Family(
        "claims",
        ClaimSize,
        (),
        N_("Decides how many cards a claim lays."),
        (
            Choice("1-4", N_("A claim lays 1 to 4 cards."), lambda deck: ClaimSize(1, 4)),
            Choice("1-3", N_("A claim lays 1 to 3 cards."), lambda deck: ClaimSize(1, 3)),
            Choice("one", N_("A claim lays exactly 1 card."), lambda deck: ClaimSize(1, 1)),
            Choice(
                "any",
                N_("A claim lays any number of cards of one rank the deck can hold."),
                _most_of_one_rank,
            ),
        ),
    ),
    Family(
        "window",
        ChallengeWindow,
        ("askers", "on_turn", "extended"),
        N_("Decides who may challenge a claim, and when."),
        (
            Choice(
                "immediate",
                N_(
                    "Each opponent, from the declarer's left, may challenge the claim "
                    "until the next claim is made."
                ),
                lambda deck: AskEachOpponent(),
            ),
            Choice(
                "extended",
                N_(
                    "As immediate, and the last claim but one may still be challenged (answer 'e')."
                ),
                lambda deck: AskEachOpponent(extended=True),
            ),
            Choice(
                "next-player",
                N_(
                    "Verish' Ne Verish': nobody is asked; the next player challenges or lays "
                    "cards on the claim."
                ),
                lambda deck: NextPlayerDecides(),
            ),
        ),
    ),
    Family(
        "check",
        ChallengeCheck,
        ("shown",),
        N_("Decides which cards of a challenged group are turned over."),
        (
            # Translators: the house rules for what a challenge turns over (--with check=...).
            Choice(
                "whole-group",
                N_("The whole last group is turned over; one card of another rank makes it a lie."),
                lambda deck: WholeGroup(),
            ),
            Choice(
                "one-card",
                N_(
                    "One card of the group, drawn by the seeded chance, is turned over and "
                    "decides alone."
                ),
                lambda deck: OneCard(),
            ),
            Choice(
                "jokers-protect",
                N_("The whole group is turned over, and a joker among it makes the claim true."),
                lambda deck: JokerProtects(),
            ),
        ),
    ),
    Family(
        "after_challenge",
        TurnAfterChallenge,
        ("opener",),
        N_("Decides who makes the next claim after a challenge."),
        (
            # Translators: the house rules for who plays after a challenge
            # (--with after_challenge=...).
            Choice(
                "declarers-left",
                N_("Whatever the outcome, the declarer's left neighbour plays next."),
                lambda deck: DeclarersLeft(),
            ),
            Choice(
                "taker",
                N_(
                    "Whoever took the pile plays next (the declarer if caught, "
                    "else the challenger)."
                ),
                lambda deck: TakerPlays(),
            ),
            Choice(
                "challenger-if-right",
                N_(
                    "A caught bluff: the challenger plays next. A true claim: the declarer's "
                    "left neighbour."
                ),
                lambda deck: ChallengerIfRight(otherwise="declarer"),
            ),
            Choice(
                "challenger-or-next",
                N_(
                    "Verish' Ne Verish': a caught bluff, the challenger plays next; a true claim, "
                    "the player after the challenger."
                ),
                lambda deck: ChallengerIfRight(otherwise="challenger"),
            ),
        ),
    ),
    Family(
        "passing",
        PassRule,
        ("allows", "consent"),
        N_("Decides when the player to move may pass instead of laying cards."),
        (
            # Translators: the house rules for passing (--with passing=...).
            Choice(
                "never",
                N_("Nobody may pass: every turn lays cards (the rule books' default)."),
                lambda deck: NoPassing(),
            ),
            Choice(
                "all-revealed",
                N_(
                    "A pass is allowed once every card of the required rank has been shown "
                    "in challenges."
                ),
                lambda deck: WhenAllRevealed(),
            ),
            Choice(
                "consent",
                N_("A player may ask to pass; the pass happens only if every opponent agrees."),
                lambda deck: WithConsent(),
            ),
        ),
    ),
    Family(
        "discards",
        DiscardRule,
        ("after_pickup", "on_turn", "compulsory"),
        N_("Decides whether a player who just took the pile decides on discards, and which fours."),
        (
            # Translators: the house rules for setting fours aside (--with discards=...).
            Choice("never", N_("Fours are never discarded (Cheat)."), lambda deck: NoDiscards()),
            Choice(
                "after-pickup",
                N_(
                    "Verish' Ne Verish': right after taking the pile, the taker may set aside "
                    "complete fours."
                ),
                lambda deck: AfterPickup(),
            ),
            Choice(
                "compulsory",
                N_("Right after taking the pile, the taker must set aside complete fours."),
                lambda deck: AfterPickup(compulsory=True),
            ),
            Choice(
                "any-time",
                N_("Fours may be set aside at any of the player's turns, before laying cards."),
                lambda deck: AnyTime(),
            ),
        ),
    ),
    Family(
        "ending",
        Ending,
        ("is_over", "result"),
        N_("Decides, each time a player goes out, whether the game is over and how it ended."),
        (
            # Translators: the house rules for the end of a game (--with ending=...).
            Choice(
                "first-out",
                N_("Cheat: the first player to go out wins at once; everyone else loses."),
                lambda deck: FirstOutWins(),
            ),
            Choice(
                "placings",
                N_(
                    "Verish' Ne Verish': players leave as they empty their hands; "
                    "the last one in loses."
                ),
                lambda deck: LastInLoses(),
            ),
        ),
    ),
)

_BY_NAME = {found.name: found for found in FAMILIES}


def family(name: str) -> Family:
    """The family named ``name`` (a field of :class:`~cheatrules.Rules`).

    Raises:
        RulesError: no family has that name; the message names them.

    """
    if name not in _BY_NAME:
        raise RulesError(
            N_("unknown rules field %(unknown)s; the fields are %(allowed)s"),
            unknown=name,
            allowed=", ".join(_BY_NAME),
        )
    return _BY_NAME[name]
