"""The :class:`Rules` value, and the compositions that make each game.

A ``Rules`` value is made of one policy object per family (see
:mod:`cheatrules.policies`). :func:`english` composes Cheat in its English
ascending-rank form; a table's house rules are other compositions, made by
passing a policy as an option or by building ``Rules`` directly.

>>> rules = english(players=5)
>>> rules.players, rules.deck.size, rules.claims.maximum
(5, 52, 4)
>>> english(players=7).deck.packs
2
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from cheatrules import _checks as checks
from cheatrules.cards import STANDARD_RANKS, Deck, Rank
from cheatrules.errors import N_, NN_, Message, RulesError, either
from cheatrules.policies import (
    Adjacent,
    AfterPickup,
    AnyTime,
    Ascending,
    AskEachOpponent,
    ChallengeCheck,
    ChallengerIfRight,
    ChallengeWindow,
    ClaimSize,
    DealersLeft,
    Dealing,
    DeclarersLeft,
    Descending,
    DiscardRule,
    Ending,
    FirstOutWins,
    FreeChoice,
    HoldUntilChallenge,
    JokerProtects,
    LastInLoses,
    NextPlayerDecides,
    NoDiscards,
    NoPassing,
    OneCard,
    Opening,
    PassRule,
    RankRule,
    TakerPlays,
    TurnAfterChallenge,
    WhenAllRevealed,
    WholeGroup,
    WithConsent,
    declared,
)

__all__ = ["NAMED_POLICIES", "POLICY_FAMILIES", "Rules", "english", "verish"]

#: Each policy field of :class:`Rules`, with the protocol or class its value must satisfy.
POLICY_FAMILIES: dict[str, type] = {
    "deck": Deck,
    "dealing": Dealing,
    "opening": Opening,
    "ranks": RankRule,
    "claims": ClaimSize,
    "window": ChallengeWindow,
    "check": ChallengeCheck,
    "after_challenge": TurnAfterChallenge,
    "passing": PassRule,
    "discards": DiscardRule,
    "ending": Ending,
}

# Which methods or attributes make an object fit each family, for clear errors.
_MEMBERS: dict[str, tuple[str, ...]] = {
    "deck": (),
    "dealing": (),
    "opening": ("first",),
    "ranks": ("allowed",),
    "claims": (),
    "window": ("askers", "on_turn", "extended"),
    "check": ("shown",),
    "after_challenge": ("opener",),
    "passing": ("allows", "consent"),
    "discards": ("after_pickup", "on_turn", "compulsory"),
    "ending": ("is_over", "result"),
}


#: The most seats a game may have.
MAX_PLAYERS = 32


def _check_players(instance: Rules, attribute: attrs.Attribute[int], value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 2 <= value <= MAX_PLAYERS:
        raise RulesError(
            N_("a game needs a whole number of 2 to %(most)s players; got %(got)s"),
            most=MAX_PLAYERS,
            got=repr(value),
        )


def _check_name(instance: Rules, attribute: attrs.Attribute[str], value: object) -> None:
    if not isinstance(value, str):
        raise RulesError(N_("Rules.name must be text; got %(got)s"), got=repr(value))


def _fits(family: str, value: object) -> bool:
    expected = POLICY_FAMILIES[family]
    members = _MEMBERS[family]
    if isinstance(value, type):  # a policy class where an instance belongs
        return False
    if not members:
        return isinstance(value, expected)
    return all(hasattr(value, member) for member in members)


def _check_policy(family: str, value: object) -> None:
    """Raise RulesError unless ``value`` is a hashable policy of ``family``."""
    expected = POLICY_FAMILIES[family]
    if not _fits(family, value):
        if isinstance(value, type):
            raise RulesError(
                N_(
                    "%(family)s= must be a %(expected)s policy; got %(got)s "
                    "(a class: call it to make the policy)"
                ),
                family=family,
                expected=expected.__name__,
                got=repr(value),
            )
        raise RulesError(
            N_("%(family)s= must be a %(expected)s policy; got %(got)s"),
            family=family,
            expected=expected.__name__,
            got=repr(value),
        )
    try:
        hash(value)
    except TypeError:
        raise RulesError(
            N_("%(family)s= must be hashable (a frozen attrs class is); got %(got)s"),
            family=family,
            got=repr(value),
        ) from None


@attrs.frozen
class Rules:
    """A complete set of rules: a player count and one policy per family.

    Frozen, hashable and comparable. :func:`english` builds the standard
    composition; to change one family, pass a policy to it (``english(4,
    ranks=MyRankRule())``) or use :meth:`replace`. ``name`` is a label for
    people and records; it takes no part in play or in comparisons.

    Raises:
        RulesError: a player count below 2 or above 32, a policy that does
            not fit its family, a deck too small to give every player a
            card, or a claim size whose maximum is above the deck's size.

    """

    players: int = attrs.field(converter=checks.index, validator=_check_players)
    deck: Deck = Deck()
    dealing: Dealing = Dealing()
    opening: Opening = DealersLeft()
    ranks: RankRule = Ascending()
    claims: ClaimSize = ClaimSize()
    window: ChallengeWindow = AskEachOpponent()
    check: ChallengeCheck = WholeGroup()
    after_challenge: TurnAfterChallenge = DeclarersLeft()
    passing: PassRule = NoPassing()
    discards: DiscardRule = NoDiscards()
    ending: Ending = FirstOutWins()
    name: str = attrs.field(default="custom", eq=False, validator=_check_name)

    def __attrs_post_init__(self) -> None:
        for family in POLICY_FAMILIES:
            _check_policy(family, getattr(self, family))
        dealt = self.deck.size - self.dealing.set_aside
        if dealt < self.players:
            raise RulesError(
                N_(
                    "a deck of %(size)s cards with %(aside)s set aside "
                    "cannot give each of %(players)s players a card"
                ),
                size=self.deck.size,
                aside=self.dealing.set_aside,
                players=self.players,
            )
        if self.dealing.stock(self.deck.size, self.players) < 0:
            raise RulesError(
                N_(
                    "a deck of %(size)s cards with %(aside)s set aside "
                    "cannot deal %(hand)s cards to each of %(players)s players"
                ),
                size=self.deck.size,
                aside=self.dealing.set_aside,
                hand=self.dealing.hand_size,
                players=self.players,
            )
        if self.claims.maximum > self.deck.size:
            # A claim never holds more cards than the deck: a larger maximum means
            # nothing in play, and would size every count of plays (ActionSpace) by it.
            raise RulesError(
                N_(
                    "a claim size's maximum (%(maximum)s) is above the %(size)s cards of the deck; "
                    "a claim may lay 1 to %(size)s cards with this deck"
                ),
                maximum=self.claims.maximum,
                size=self.deck.size,
            )
        if declared(self.passing, "needs_single_rank") and not declared(
            self.ranks, "names_one_rank"
        ):
            raise RulesError(
                N_(
                    "passing=%(passing)s and ranks=%(ranks)s contradict each other: "
                    "that pass waits for every card of the required rank to be shown, and this "
                    "rank rule declares that it does not name one required rank after each "
                    "claim (names_one_rank = False)"
                ),
                passing=repr(self.passing),
                ranks=repr(self.ranks),
            )

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed: ``rules.replace(ranks=MyRankRule())``.

        Raises:
            RulesError: an unknown field, or a value that does not fit.

        """
        unknown = sorted(set(changes) - {field.name for field in attrs.fields(Rules)})
        if unknown:
            allowed = ", ".join(field.name for field in attrs.fields(Rules))
            raise RulesError(
                N_("unknown rules field %(unknown)s; the fields are %(allowed)s"),
                unknown=", ".join(unknown),
                allowed=allowed,
            )
        return attrs.evolve(self, **changes)


def _player_count(game: Message, players: object, lowest: int, highest: int) -> int:
    count = checks.index(players)  # type: ignore[arg-type]
    if not isinstance(count, int) or isinstance(count, bool) or not (lowest <= count <= highest):
        raise RulesError(
            N_("%(game)s is played by %(lowest)s to %(highest)s players; got %(got)s"),
            game=game,
            lowest=lowest,
            highest=highest,
            got=repr(players),
        )
    return count


#: The names that stand for a policy in a game's options, such as ``ranks="free"``.
#: Each family maps names to a function of the deck in use (some choices depend on it).
NAMED_POLICIES: dict[str, dict[str, Callable[[Deck], object]]] = {
    "ranks": {
        "ascending": lambda deck: Ascending(),
        "descending": lambda deck: Descending(),
        "free": lambda deck: FreeChoice(),
        "adjacent": lambda deck: Adjacent(),
        "hold": lambda deck: HoldUntilChallenge(),
    },
    "claims": {
        "1-4": lambda deck: ClaimSize(1, 4),
        "1-3": lambda deck: ClaimSize(1, 3),
        "one": lambda deck: ClaimSize(1, 1),
        "any": lambda deck: ClaimSize(
            1, max(deck.copies(rank) for rank in deck.ranks) + deck.copies(Rank.JOKER)
        ),
    },
    "window": {
        "immediate": lambda deck: AskEachOpponent(),
        "extended": lambda deck: AskEachOpponent(extended=True),
        "next-player": lambda deck: NextPlayerDecides(),
    },
    "check": {
        "whole-group": lambda deck: WholeGroup(),
        "one-card": lambda deck: OneCard(),
        "jokers-protect": lambda deck: JokerProtects(),
    },
    "after_challenge": {
        "declarers-left": lambda deck: DeclarersLeft(),
        "taker": lambda deck: TakerPlays(),
        "challenger-if-right": lambda deck: ChallengerIfRight(otherwise="declarer"),
        "challenger-or-next": lambda deck: ChallengerIfRight(otherwise="challenger"),
    },
    "passing": {
        "never": lambda deck: NoPassing(),
        "all-revealed": lambda deck: WhenAllRevealed(),
        "consent": lambda deck: WithConsent(),
    },
    "discards": {
        "never": lambda deck: NoDiscards(),
        "after-pickup": lambda deck: AfterPickup(),
        "compulsory": lambda deck: AfterPickup(compulsory=True),
        "any-time": lambda deck: AnyTime(),
    },
    "ending": {
        "first-out": lambda deck: FirstOutWins(),
        "placings": lambda deck: LastInLoses(),
    },
}


def _named(policies: dict[str, Any]) -> dict[str, Any]:
    """Replace names given for policies (``ranks="free"``) by the policies they stand for."""
    deck = policies.get("deck", Deck())
    for family, value in list(policies.items()):
        if not isinstance(value, str):
            continue
        choices = NAMED_POLICIES.get(family, {})
        if value not in choices:
            known: str | Message = ", ".join(choices) or Message(N_("none; pass a policy object"))
            raise RulesError(
                N_("unknown %(family)s=%(value)s; the names are %(known)s"),
                family=family,
                value=repr(value),
                known=known,
            )
        policies[family] = choices[value](deck)
    return policies


def _policy_options(
    game: Message, options: dict[str, Any], extra: tuple[str, ...]
) -> dict[str, Any]:
    unknown = sorted(set(options) - set(POLICY_FAMILIES) - set(extra))
    if unknown:
        allowed = ", ".join((*extra, *POLICY_FAMILIES))
        raise RulesError(
            N_("unknown option %(unknown)s for %(game)s; the options are %(allowed)s"),
            unknown=", ".join(unknown),
            game=game,
            allowed=allowed,
        )
    return {name: value for name, value in options.items() if name in POLICY_FAMILIES}


def _deck_option(
    policies: dict[str, Any],
    options: dict[str, Any],
    name: str,
    default: int,
    decks: dict[int, Deck],
) -> int | None:
    """Turn a game's shorthands for its deck (``decks=2``, ``pack=36``, ``jokers=``) into a deck.

    Returns the value chosen, or None when a ``deck=`` policy was given instead.
    """
    value = options.get(name)
    jokers = options.get("jokers", False)
    if "deck" in policies:
        for shorthand in (name, "jokers"):
            if options.get(shorthand) not in (None, False):
                raise RulesError(
                    N_("the options %(shorthand)s= and deck= contradict each other; give only one"),
                    shorthand=shorthand,
                )
        return None
    if value is None:
        value = default
    value = checks.index(value)
    if type(value) is not int or value not in decks:
        raise RulesError(
            N_("%(name)s must be %(choices)s; got %(got)s"),
            name=name,
            choices=either(map(str, decks)),
            got=repr(value),
        )
    deck = decks[value]
    policies["deck"] = attrs.evolve(deck, jokers=_joker_option(jokers, deck.packs))
    return value


#: The jokers ``jokers=True`` adds, whatever the packs: "include 2 jokers" (the general guide).
JOKERS = 2


def _joker_option(jokers: object, packs: int) -> int:
    """The count of jokers a game's ``jokers=`` option asks for.

    ``True`` is the general guide's two jokers in all; ``"per-pack"`` two
    for each pack; a whole number that count (at most two per pack).
    """
    most = 2 * packs
    jokers = checks.index(checks.to_flag(jokers))
    if jokers is True:
        return JOKERS
    if jokers is False:
        return 0
    if isinstance(jokers, str) and jokers == "per-pack":
        return most
    if type(jokers) is int and 0 <= jokers <= most:
        return jokers
    raise RulesError(
        NN_(
            "jokers must be True (two jokers in all), 'per-pack' (two per pack), False, "
            "or a count of 0 to %(most)s with %(packs)s pack; got %(got)s",
            "jokers must be True (two jokers in all), 'per-pack' (two per pack), False, "
            "or a count of 0 to %(most)s with %(packs)s packs; got %(got)s",
            packs,
            most=most,
            packs=packs,
            got=repr(jokers),
        )
    )


#: The hand size ``stock=True`` deals.
STOCK_HAND = 7


def _stock_option(policies: dict[str, Any], options: dict[str, Any], base: Dealing) -> None:
    """Turn ``stock=True`` (7 cards each) or ``stock=n`` into the dealing policy."""
    value = options.get("stock")
    if value is None or value is False:
        policies.setdefault("dealing", base)
        return
    if "dealing" in policies:
        raise RulesError(N_("the options stock= and dealing= contradict each other; give only one"))
    if value is True:
        value = STOCK_HAND
    value = checks.index(value)
    if type(value) is not int or value < 1:
        raise RulesError(
            N_("stock must be True (7 cards each) or a hand size of 1 or more; got %(got)s"),
            got=repr(value),
        )
    policies["dealing"] = attrs.evolve(base, hand_size=value)


def english(players: int = 4, **options: Any) -> Rules:
    """Cheat in its English ascending-rank form ("I Doubt It") (docs/rules/english.md).

    Args:
        players: 3 to 10 (any whole number, such as a NumPy integer).
        decks: 1 or 2 packs of 52 cards. By default one pack for 3-6 players
            and two for 7-10; a table of 3-6 may choose two packs.
        jokers: wild jokers, each counting as the rank its group
            announced: ``True`` adds two in all (one red, one black, even
            with two packs), ``"per-pack"`` two per pack, a number that
            many (at most two per pack).
        stock: deal a fixed hand (``True``: 7 cards each, or a number) and
            leave the rest as a stock to draw from.
        **options: any policy family of :class:`Rules` (``ranks=``,
            ``window=``, ...), replacing the English choice. A deck given as
            ``deck=`` (or read from a record) passes the same check as
            ``decks``: one or two packs, two above 6 players.

    Raises:
        RulesError: a player count outside 3-10, one pack for more than 6
            players, more than two packs, ``decks`` and ``deck`` together, or
            an unknown option.

    >>> english(6, decks=2).deck.size
    104

    """
    game = Message(N_("English Cheat"))
    players = _player_count(game, players, 3, 10)
    policies = _policy_options(game, options, extra=("decks", "jokers", "stock"))
    _deck_option(
        policies, options, "decks", 1 if players <= 6 else 2, {1: Deck(), 2: Deck(packs=2)}
    )
    # However the deck was given (decks=, deck=, or a record's deck policy).
    packs = policies["deck"].packs if isinstance(policies["deck"], Deck) else None
    if packs == 1 and players > 6:
        raise RulesError(
            N_("one pack suits 3 to 6 players; %(players)s players need two packs (decks=2)"),
            players=players,
        )
    if packs is not None and packs > 2:
        raise RulesError(
            N_(
                "%(game)s is played with one or two packs; got a deck of %(packs)s "
                "(build Rules(...) for other decks)"
            ),
            game=game,
            packs=packs,
        )
    _stock_option(policies, options, Dealing())
    return Rules(players=players, name="english", **_named(policies))


def verish(players: int = 4, **options: Any) -> Rules:
    """Verish' Ne Verish' ("believe it or not"), the Russian form (docs/rules/verish.md).

    One card is set aside unseen; a round's opener lays 1-3 cards announcing
    any rank, and each next player either challenges or adds 1-3 cards
    announcing the same rank. Players leave as they empty their hands; the
    last one in loses.

    Args:
        players: 2 to 6 (any whole number, such as a NumPy integer).
        pack: 36 (6 to Ace) or 52 cards. By default 36 for 2-3 players and 52
            for 4-6.
        jokers: wild jokers: ``True`` (or ``"per-pack"``) adds the pack's
            two, a number that many (0 to 2).
        stock: deal a fixed hand (``True``: 7 cards each, or a number) and
            leave the rest as a stock to draw from.
        **options: any policy family of :class:`Rules`, replacing the
            Russian choice. A deck given as ``deck=`` (or read from a record)
            must be one of the two packs too, one pack only.

    Raises:
        RulesError: a player count outside 2-6, a pack other than one of
            36 or 52 cards, ``pack`` and ``deck`` together, or an unknown
            option.

    >>> rules = verish(players=3)
    >>> rules.deck.size, rules.dealing.set_aside, rules.claims.maximum
    (36, 1, 3)
    >>> verish(players=3, pack=52).deck.size
    52

    """
    game = Message(N_("Verish' Ne Verish'"))
    players = _player_count(game, players, 2, 6)
    policies = _policy_options(game, options, extra=("pack", "jokers", "stock"))
    _deck_option(
        policies, options, "pack", 36 if players <= 3 else 52, {36: Deck.short(), 52: Deck()}
    )
    # However the deck was given (pack=, deck=, or a record's deck policy).
    deck = policies["deck"]
    if isinstance(deck, Deck) and (
        deck.packs != 1 or deck.ranks not in (STANDARD_RANKS, Deck.short().ranks)
    ):
        raise RulesError(
            N_(
                "%(game)s is played with one pack of 36 or 52 cards; got %(deck)s "
                "(build Rules(...) for other decks)"
            ),
            game=game,
            deck=repr(deck),
        )
    _stock_option(policies, options, Dealing(set_aside=1))
    russian: dict[str, Any] = {
        "opening": DealersLeft(),
        "ranks": HoldUntilChallenge(),
        "claims": ClaimSize(1, 3),
        "window": NextPlayerDecides(),
        "check": WholeGroup(),
        "after_challenge": ChallengerIfRight(otherwise="challenger"),
        "discards": AfterPickup(),
        "ending": LastInLoses(),
    }
    return Rules(players=players, name="verish", **(russian | _named(policies)))
