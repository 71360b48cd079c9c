"""The :class:`Rules` value, and the games the library names, as data.

A ``Rules`` value is made of one policy object per family (see
:mod:`cheatrules.policies` and its table of families,
:data:`cheatrules.policies.families.FAMILIES`). Each game the library names
is a :class:`Variant` record: its names and title in every language, its
player range, the decks its ``deck=`` option names, its other house options
with what they mean, and its own choice in every family. :func:`english`
and :func:`verish` build their rules from their records (:data:`VARIANTS`),
and so do game records, the command line, the web table and the adapters.

>>> rules = english(players=5)
>>> rules.players, rules.deck.size, rules.claims.maximum
(5, 52, 4)
>>> english(players=7).deck.packs
2
"""

from __future__ import annotations

from typing import Any

import attrs

from cheatrules import _checks as checks
from cheatrules._i18n import translations
from cheatrules.cards import Deck
from cheatrules.errors import N_, NN_, Message, RulesError, either
from cheatrules.policies import (
    Ascending,
    AskEachOpponent,
    ChallengeCheck,
    ChallengeWindow,
    ClaimSize,
    DealersLeft,
    Dealing,
    DeclarersLeft,
    DiscardRule,
    Ending,
    FirstOutWins,
    NoDiscards,
    NoPassing,
    Opening,
    PassRule,
    RankRule,
    TurnAfterChallenge,
    WholeGroup,
    declared,
)
from cheatrules.policies.families import FAMILIES, Family

__all__ = [
    "NAMED_POLICIES",
    "POLICY_FAMILIES",
    "REWARDS",
    "VARIANTS",
    "DeckChoice",
    "HouseOption",
    "Rules",
    "Variant",
    "english",
    "verish",
]

#: Each policy field of :class:`Rules`, with the protocol or class its value must satisfy
#: (read from :data:`~cheatrules.policies.families.FAMILIES`).
POLICY_FAMILIES: dict[str, type] = {found.name: found.kind for found in FAMILIES}

#: The names that stand for a policy in a game's options, such as ``ranks="free"``.
#: Each family's names, each with a function of the deck in use that makes its policy
#: (read from :data:`~cheatrules.policies.families.FAMILIES`, which says what each means).
NAMED_POLICIES: dict[str, dict[str, Any]] = {
    found.name: {choice.name: choice.make for choice in found.choices}
    for found in FAMILIES
    if found.choices
}

#: The most seats a game may have.
MAX_PLAYERS = 32


# Each family by its name.
_FAMILY: dict[str, Family] = {found.name: found for found in FAMILIES}

#: The families whose policies a game's options may name (``ranks``, ``window``...).
HOUSE_FAMILIES: tuple[Family, ...] = tuple(found for found in FAMILIES if found.choices)


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


def _fits(family_name: str, value: object) -> bool:
    expected = POLICY_FAMILIES[family_name]
    members = _FAMILY[family_name].members
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


# -- the games, as data ----------------------------------------------------------------------

#: The reward schemes the adapters pay, ``"win-loss"`` (the default) and ``"placing"``
#: (see :func:`cheatrules.variants.rewards`).
REWARDS = ("win-loss", "placing")

_Range = tuple[int, int]


def _within(players: int, span: _Range) -> bool:
    return span[0] <= players <= span[1]


@attrs.frozen
class DeckChoice:
    """One value of a game's ``deck=`` option: a deck, named by its cards (jokers aside).

    >>> choice = VARIANTS["english"].deck_choice(104)
    >>> choice.deck.packs, choice.default_for, choice.alias
    (2, (7, 10), 2)
    """

    #: The option's value, how many cards the deck holds, jokers aside (36, 52, 104).
    cards: int
    #: The deck itself, without jokers (``jokers=`` adds them).
    deck: Deck
    #: What the deck is, a few words (a message of the catalogs), such as ``"two packs"``.
    meaning: str
    #: The player counts the deck suits, fewest and most.
    suits: _Range
    #: The player counts it is the default for, fewest and most.
    default_for: _Range
    #: Its value under the game's older spelling of the option (``decks=2`` for 104 cards).
    alias: int
    #: Whether a deck given whole (``deck=Deck(...)``, or read from a record) is this
    #: choice whatever its ranks, by its packs alone (English Cheat takes any ranks).
    any_ranks: bool = False

    def fits(self, deck: Deck) -> bool:
        """Whether ``deck``, given whole, is this choice: its packs, and its ranks unless any do."""
        return deck.packs == self.deck.packs and (self.any_ranks or deck.ranks == self.deck.ranks)


@attrs.frozen
class HouseOption:
    """An option a game takes beside the policy families (``deck=``, ``jokers=``, ``stock=``)."""

    #: The option's name, as the factories, the command line and the web table take it.
    name: str
    #: What it does, one sentence (a message of the catalogs, in the command line's words).
    meaning: str


#: The hand size ``stock=True`` deals.
STOCK_HAND = 7

#: The jokers ``jokers=True`` adds, whatever the packs: "include 2 jokers" (the general guide).
JOKERS = 2


@attrs.frozen(kw_only=True)
class Variant:
    """A game the library names, as data: everything the library and its tools know of it.

    The game's rules are built from it (:meth:`build`, which
    :func:`~cheatrules.english` and :func:`~cheatrules.verish` call); game
    records, the command line (``cheatrules rules``, ``--with``, its help),
    the web table's host page and the PettingZoo, Gymnasium and OpenSpiel
    adapters read it, so a fact about a game is written here once. Its
    words (title, call, meanings) are messages of the catalogs:
    ``title_in`` and ``call_in`` say them in a language, and
    ``translations(language).gettext`` any other. See the design page
    *A game as data* (``docs/design/variant.md``).
    """

    #: The game's name, as ``Rules.name`` and records hold it (``"english"``, ``"verish"``).
    name: str
    #: The game's title for people, such as ``"English Cheat"``.
    title: str
    #: What a challenger calls out, such as ``"Cheat!"``.
    call: str
    #: Whether the question put to a claim is "do you believe it?" (Verish' Ne Verish'),
    #: where "yes" lets the claim stand; else it is "Cheat?", where "yes" calls it.
    believing: bool = False
    #: Other names the game answers to (``"cheat"`` for English Cheat).
    aliases: tuple[str, ...] = ()
    #: The one word the adapters register the game under (OpenSpiel's ``python_cheat``,
    #: Gymnasium's ``cheatrules/Cheat-v0``).
    short_name: str
    #: The fewest seats the game takes.
    min_players: int
    #: The most seats the game takes.
    max_players: int
    #: The seats when none are given.
    default_players: int = 4
    #: The decks the ``deck=`` option names, by their cards, in order.
    decks: tuple[DeckChoice, ...]
    #: The older spelling of ``deck=`` in this game, still taken (``"decks"``, ``"pack"``).
    deck_alias: str
    #: The options the game takes beside the policy families, with what each means.
    options: tuple[HouseOption, ...]
    #: How the deck is dealt before any house option (Verish' Ne Verish' sets a card aside).
    dealing: Dealing = Dealing()
    #: The game's own choice in each family that has named policies, ``(family, name)`` pairs.
    defaults: tuple[tuple[str, str], ...]
    #: The families whose policies the game's options name (``ranks="free"``), each with
    #: its names and their meanings; by default every family of
    #: :data:`~cheatrules.policies.families.FAMILIES` that has named policies.
    families: tuple[Family, ...] = HOUSE_FAMILIES
    #: The reward schemes the adapters pay for the game, the first their default.
    rewards: tuple[str, ...] = REWARDS

    def title_in(self, language: str) -> str:
        """The game's title in ``language`` (``"en"``, ``"pt"``, ``"es"``, ``"fr"``, ``"ru"``).

        >>> VARIANTS["verish"].title_in("ru"), VARIANTS["english"].title_in("fr")
        ('Веришь — не веришь', 'Cheat anglais')

        Raises:
            RulesError: a language the library does not speak.

        """
        return translations(language).gettext(self.title)

    def call_in(self, language: str) -> str:
        r"""What a challenger calls out in this game, in ``language``.

        >>> VARIANTS["verish"].call_in("pt"), VARIANTS["english"].call_in("fr")
        ('Não acredito!', 'Cheat\u202f!')

        Raises:
            RulesError: a language the library does not speak.

        """
        return translations(language).gettext(self.call)

    @property
    def option_names(self) -> tuple[str, ...]:
        """The names of :attr:`options`, in order (``("deck", "jokers", "stock")``)."""
        return tuple(option.name for option in self.options)

    def default(self, family_name: str) -> str:
        """The game's own named choice in the family ``family_name``.

        >>> VARIANTS["verish"].default("window"), VARIANTS["english"].default("window")
        ('next-player', 'immediate')
        """
        return dict(self.defaults)[family_name]

    def deck_choice(self, cards: object) -> DeckChoice:
        """The deck the ``deck=`` option names by ``cards``.

        Raises:
            RulesError: no deck of the game has that many cards; the message names them.

        """
        count = checks.index(cards)  # type: ignore[arg-type]
        for choice in self.decks:
            if type(count) is int and choice.cards == count:
                return choice
        raise self._refused_deck(cards)

    def _refused_deck(self, value: object) -> RulesError:
        return RulesError(
            N_("deck must be %(choices)s cards, or a Deck policy; got %(got)s"),
            choices=either(str(choice.cards) for choice in self.decks),
            got=repr(value),
        )

    def default_deck(self, players: int) -> DeckChoice:
        """The deck the game is played with by ``players`` seats when none is chosen."""
        return next(choice for choice in self.decks if _within(players, choice.default_for))

    def build(self, players: int | None = None, **options: Any) -> Rules:
        """The game's rules for ``players`` seats (``default_players`` if ``None``).

        ``options`` are the game's house options: ``option_names`` (and
        ``deck_alias``), and any policy family of :class:`~cheatrules.Rules`,
        as a policy or a name of one of ``families``.

        Raises:
            RulesError: a player count outside the game's range, an unknown
                option, a value an option does not take, or options that
                contradict each other; the message says what is allowed.

        """
        return self._compose(self.default_players if players is None else players, options)

    def _compose(self, players: object, options: dict[str, Any]) -> Rules:
        count = self._player_count(players)
        unknown = sorted(set(options) - {*POLICY_FAMILIES, *self.option_names, self.deck_alias})
        if unknown:
            raise RulesError(
                N_("unknown option %(unknown)s for %(game)s; the options are %(allowed)s"),
                unknown=", ".join(unknown),
                game=Message(self.title),
                allowed=", ".join(dict.fromkeys((*self.option_names, *POLICY_FAMILIES))),
            )
        policies = {
            name: value
            for name, value in options.items()
            if name in POLICY_FAMILIES and name != "deck"
        }
        policies["deck"] = self._deck(count, options)
        _stock_option(policies, options, self.dealing)
        for family_name, name in self.defaults:
            policies.setdefault(family_name, name)
        return Rules(players=count, name=self.name, **_named(policies, self.families))

    def _player_count(self, players: object) -> int:
        count = checks.index(players)  # type: ignore[arg-type]
        if type(count) is not int or not self.min_players <= count <= self.max_players:
            raise RulesError(
                N_("%(game)s is played by %(lowest)s to %(highest)s players; got %(got)s"),
                game=Message(self.title),
                lowest=self.min_players,
                highest=self.max_players,
                got=repr(players),
            )
        return count

    def _deck(self, players: int, options: dict[str, Any]) -> Deck:
        """The deck ``deck=`` (or its older spelling, with ``jokers=``) asks for, checked."""
        given = options.get("deck")
        jokers = options.get("jokers", False)
        if options.get(self.deck_alias) is not None:
            if given is not None:
                raise _contradiction(self.deck_alias)
            given = self._aliased(options[self.deck_alias])
        if given is None:
            choice = self.default_deck(players)
        elif type(checks.index(given)) is int:
            choice = self.deck_choice(given)
        else:  # a deck given whole: a Deck, or a record's deck policy
            if jokers not in (None, False):
                raise _contradiction("jokers")
            if not isinstance(given, Deck):
                raise self._refused_deck(given)
            choice = self._fitting(given)
            self._check_suits(choice, players)
            return given
        self._check_suits(choice, players)
        return attrs.evolve(choice.deck, jokers=_joker_option(jokers, choice.deck.packs))

    def _aliased(self, value: object) -> int:
        """The cards of the deck the older spelling (``decks=2``, ``pack=36``) names."""
        count = checks.index(value)  # type: ignore[arg-type]
        for choice in self.decks:
            if type(count) is int and choice.alias == count:
                return choice.cards
        raise RulesError(
            N_("%(name)s must be %(choices)s; got %(got)s"),
            name=self.deck_alias,
            choices=either(str(choice.alias) for choice in self.decks),
            got=repr(count),
        )

    def _fitting(self, deck: Deck) -> DeckChoice:
        for choice in self.decks:
            if choice.fits(deck):
                return choice
        raise RulesError(
            N_(
                "%(game)s is played with %(decks)s; got %(deck)s (build Rules(...) for other decks)"
            ),
            game=Message(self.title),
            decks=either(Message(choice.meaning) for choice in self.decks),
            deck=repr(deck),
        )

    def _check_suits(self, choice: DeckChoice, players: int) -> None:
        if not _within(players, choice.suits):
            suited = [other for other in self.decks if _within(players, other.suits)]
            raise RulesError(
                N_(
                    "%(deck)s suits %(fewest)s to %(most)s players; "
                    "%(players)s players need %(needed)s"
                ),
                deck=Message(choice.meaning),
                fewest=choice.suits[0],
                most=choice.suits[1],
                players=players,
                needed=either(f"deck={other.cards}" for other in suited),
            )


def _contradiction(shorthand: str) -> RulesError:
    return RulesError(
        N_("the options %(shorthand)s= and deck= contradict each other; give only one"),
        shorthand=shorthand,
    )


def _named(policies: dict[str, Any], families: tuple[Family, ...]) -> dict[str, Any]:
    """Replace names given for policies (``ranks="free"``) by the policies they stand for."""
    deck = policies["deck"]
    named = {found.name: found for found in families}
    for name, value in list(policies.items()):
        if not isinstance(value, str):
            continue
        if name not in named:
            raise RulesError(
                N_("unknown %(family)s=%(value)s; the names are %(known)s"),
                family=name,
                value=repr(value),
                known=Message(N_("none; pass a policy object")),
            )
        policies[name] = named[name].choice(value).make(deck)
    return policies


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


# Translators: what a house rule of `cheatrules rules` means, one line under its
# `--with NAME=VALUE` (which stays as typed: yes, per-pack, the answer letter 'e').
_STOCK = HouseOption(
    "stock",
    N_(
        "Deal a fixed hand (yes: 7 cards each, or a number) and leave the rest as a stock "
        "to draw from."
    ),
)
# Translators: what the deck option decides, after its name in `cheatrules rules`.
_DECK = HouseOption(
    "deck",
    N_("Decides which cards are played: a deck, named by its number of cards (jokers aside)."),
)
# Translators: a deck of the deck option (--with deck=52), also said in errors
# ("one pack suits 3 to 6 players").
_ONE_PACK = N_("one pack")

#: The games the library names, English Cheat and Verish' Ne Verish', by name.
VARIANTS: dict[str, Variant] = {
    "english": Variant(
        name="english",
        title=N_("English Cheat"),
        call=N_("Cheat!"),
        aliases=("cheat",),
        short_name="cheat",
        min_players=3,
        max_players=10,
        decks=(
            DeckChoice(52, Deck(), _ONE_PACK, (3, 6), (3, 6), alias=1, any_ranks=True),
            DeckChoice(
                104,
                Deck(packs=2),
                N_("two packs shuffled together"),
                (3, 10),
                (7, 10),
                alias=2,
                any_ranks=True,
            ),
        ),
        deck_alias="decks",
        options=(
            _DECK,
            HouseOption(
                "jokers",
                N_(
                    "Wild jokers, each counting as the rank its group announced: yes adds two "
                    'in all (one red, one black, even with two packs), "per-pack" two per '
                    "pack, a number that many (at most two per pack)."
                ),
            ),
            _STOCK,
        ),
        defaults=(
            ("ranks", "ascending"),
            ("claims", "1-4"),
            ("window", "immediate"),
            ("check", "whole-group"),
            ("after_challenge", "declarers-left"),
            ("passing", "never"),
            ("discards", "never"),
            ("ending", "first-out"),
        ),
    ),
    "verish": Variant(
        name="verish",
        title=N_("Verish' Ne Verish'"),
        call=N_("I don't believe!"),
        believing=True,
        short_name="verish",
        min_players=2,
        max_players=6,
        decks=(
            DeckChoice(36, Deck.short(), N_("the short pack (6 to Ace)"), (2, 6), (2, 3), alias=36),
            DeckChoice(52, Deck(), N_("the full pack"), (2, 6), (4, 6), alias=52),
        ),
        deck_alias="pack",
        options=(
            _DECK,
            HouseOption(
                "jokers",
                N_(
                    'Wild jokers: yes (or "per-pack") adds the pack\'s two, a number that '
                    "many (0 to 2)."
                ),
            ),
            _STOCK,
        ),
        dealing=Dealing(set_aside=1),
        defaults=(
            ("ranks", "hold"),
            ("claims", "1-3"),
            ("window", "next-player"),
            ("check", "whole-group"),
            ("after_challenge", "challenger-or-next"),
            ("passing", "never"),
            ("discards", "after-pickup"),
            ("ending", "placings"),
        ),
    ),
}


def english(players: int = 4, **options: Any) -> Rules:
    """Cheat in its English ascending-rank form ("I Doubt It") (docs/rules/english.md).

    Built from its :class:`~cheatrules.variants.Variant` record, ``VARIANTS["english"]``.

    Args:
        players: 3 to 10 (any whole number, such as a NumPy integer).
        deck: the deck by its cards: 52 (one pack) or 104 (two packs). By
            default 52 for 3-6 players and 104 for 7-10; a table of 3-6 may
            choose 104. A deck given whole (``deck=cr.Deck(packs=2)``, or
            read from a record) passes the same check: one or two packs,
            two above 6 players. ``decks=1`` or ``decks=2`` (packs) is the
            older spelling, still taken.
        jokers: wild jokers, each counting as the rank its group
            announced: ``True`` adds two in all (one red, one black, even
            with two packs), ``"per-pack"`` two per pack, a number that
            many (at most two per pack).
        stock: deal a fixed hand (``True``: 7 cards each, or a number) and
            leave the rest as a stock to draw from.
        **options: any policy family of :class:`Rules` (``ranks=``,
            ``window=``, ...), replacing the English choice.

    Raises:
        RulesError: a player count outside 3-10, one pack for more than 6
            players, more than two packs, ``deck`` and ``decks`` together, or
            an unknown option.

    >>> english(6, deck=104).deck.size, english(6, decks=2) == english(6, deck=104)
    (104, True)

    """
    return VARIANTS["english"]._compose(players, options)


def verish(players: int = 4, **options: Any) -> Rules:
    """Verish' Ne Verish' ("believe it or not"), the Russian form (docs/rules/verish.md).

    One card is set aside unseen; a round's opener lays 1-3 cards announcing
    any rank, and each next player either challenges or adds 1-3 cards
    announcing the same rank. Players leave as they empty their hands; the
    last one in loses. Built from its :class:`~cheatrules.variants.Variant`
    record, ``VARIANTS["verish"]``.

    Args:
        players: 2 to 6 (any whole number, such as a NumPy integer).
        deck: the deck by its cards: 36 (the short pack, 6 to Ace) or 52. By
            default 36 for 2-3 players and 52 for 4-6. A deck given whole
            (``deck=``, or read from a record) must be one of the two packs
            too, one pack only. ``pack=36`` or ``pack=52`` is the older
            spelling, still taken.
        jokers: wild jokers: ``True`` (or ``"per-pack"``) adds the pack's
            two, a number that many (0 to 2).
        stock: deal a fixed hand (``True``: 7 cards each, or a number) and
            leave the rest as a stock to draw from.
        **options: any policy family of :class:`Rules`, replacing the
            Russian choice.

    Raises:
        RulesError: a player count outside 2-6, a pack other than one of
            36 or 52 cards, ``deck`` and ``pack`` together, or an unknown
            option.

    >>> rules = verish(players=3)
    >>> rules.deck.size, rules.dealing.set_aside, rules.claims.maximum
    (36, 1, 3)
    >>> verish(players=3, deck=52).deck.size
    52

    """
    return VARIANTS["verish"]._compose(players, options)
