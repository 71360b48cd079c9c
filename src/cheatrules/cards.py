"""Ranks, suits, cards, and decks: parsing and printing.

Suits never matter to the rules of the Cheat family, but a card is still a
rank *and* a suit: a front-end draws it, a player names it, and two decks
shuffled together hold two equal copies of every card.

>>> Card.parse("10h")
Card(rank=Rank.TEN, suit=Suit.HEARTS)
>>> str(Card(Rank.SEVEN, Suit.CLUBS))
'7♣'
>>> cards("7♣ K♦ Th")  # doctest: +NORMALIZE_WHITESPACE
(Card(rank=Rank.SEVEN, suit=Suit.CLUBS), Card(rank=Rank.KING, suit=Suit.DIAMONDS),
 Card(rank=Rank.TEN, suit=Suit.HEARTS))
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from functools import cached_property

import attrs

from cheatrules import _numbers
from cheatrules.errors import N_, NN_, CardError, Message

__all__ = ["JOKER_SUITS", "STANDARD_RANKS", "Card", "Deck", "Rank", "Suit", "cards", "ranks"]


class Rank(enum.Enum):
    """The thirteen ranks, in the order of the Cheat sequence (Ace first), and the Joker.

    Ranks compare by that order: ``Rank.ACE < Rank.TWO < ... < Rank.KING``.
    ``Rank.JOKER`` comes last. It belongs only to decks with jokers
    (``Deck(jokers=True)``), is never announced, and counts as whatever rank
    its group announced (jokers are wild); :data:`STANDARD_RANKS` leaves it
    out.

    >>> str(Rank.TEN), str(Rank.QUEEN), Rank.parse("q")
    ('10', 'Q', Rank.QUEEN)
    """

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    JOKER = 14

    def __str__(self) -> str:
        return _RANK_SYMBOLS[self]

    def __repr__(self) -> str:
        return f"Rank.{self.name}"

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Rank):
            return self._value_ < other._value_
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if isinstance(other, Rank):
            return self._value_ <= other._value_
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, Rank):
            return self._value_ > other._value_
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if isinstance(other, Rank):
            return self._value_ >= other._value_
        return NotImplemented

    def __hash__(self) -> int:
        # The member's own attribute: ``self.value`` goes through the enum's
        # descriptor, and ranks key many dicts in the engine and the sampler.
        return self._value_

    @property
    def plural(self) -> str:
        """The rank as a player says it of several cards, such as ``"Aces"`` or ``"7s"``."""
        return _RANK_PLURALS[self]

    @property
    def singular(self) -> str:
        """The rank as a player says it of one card, such as ``"Ace"`` or ``"7"``."""
        return _RANK_PLURALS[self][:-1]

    @classmethod
    def parse(cls, text: str | Rank) -> Rank:
        """Read a rank: ``"A"``, ``"2"`` … ``"10"`` (or ``"T"``), ``"J"``, ``"Q"``, ``"K"``.

        A joker is ``"★"``, ``"*"``, ``"JK"`` or ``"Joker"``. The French
        letters ``V D R`` (valet, dame, roi) and the Russian ``В Д К Т``
        (валет, дама, король, туз) are read too.

        Letters may be lower case; a :class:`Rank` is returned unchanged.

        Raises:
            CardError: ``text`` names no rank.

        """
        if isinstance(text, Rank):
            return text
        if not isinstance(text, str):
            raise CardError(N_("a rank must be a Rank or a string; got %(got)s"), got=repr(text))
        rank = _RANK_BY_TEXT.get(_upper(text))
        if rank is None:
            raise CardError(
                N_(
                    "unknown rank %(text)s: expected one of A 2 3 4 5 6 7 8 9 10 J Q K "
                    "(or ★ for a joker)"
                ),
                text=repr(text),
            )
        return rank


class Suit(enum.Enum):
    """The four suits. They never decide anything in these games."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    def __str__(self) -> str:
        return _SUIT_SYMBOLS[self]

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Suit):
            return self._value_ < other._value_
        return NotImplemented

    def __hash__(self) -> int:
        return self._value_  # as Rank.__hash__

    @classmethod
    def parse(cls, text: str | Suit) -> Suit:
        """Read a suit: a symbol (``♣♦♥♠``) or a letter (``c d h s``, either case).

        Raises:
            CardError: ``text`` names no suit.

        """
        if isinstance(text, Suit):
            return text
        if not isinstance(text, str):
            raise CardError(N_("a suit must be a Suit or a string; got %(got)s"), got=repr(text))
        suit = _SUIT_BY_TEXT.get(_upper(text))
        if suit is None:
            raise CardError(
                N_("unknown suit %(text)s: expected one of ♣ ♦ ♥ ♠ or c d h s"), text=repr(text)
            )
        return suit


_RANK_SYMBOLS = {rank: str(rank.value) for rank in Rank} | {
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.JOKER: "★",
}
_RANK_PLURALS = {rank: f"{rank.value}s" for rank in Rank} | {
    Rank.ACE: "Aces",
    Rank.JACK: "Jacks",
    Rank.QUEEN: "Queens",
    Rank.KING: "Kings",
    Rank.JOKER: "Jokers",
}
#: The court and ace letters of the French and Russian rule books, read beside
#: the English ones (none of them is an English letter, so nothing is
#: ambiguous): French valet, dame, roi; Russian валет, дама, король, туз
#: (Cyrillic letters, in either case; the Cyrillic Т is the ace, the Latin T
#: the ten).
_LOCAL_RANK_LETTERS = {
    "V": Rank.JACK,
    "D": Rank.QUEEN,
    "R": Rank.KING,
    "В": Rank.JACK,
    "в": Rank.JACK,
    "Д": Rank.QUEEN,
    "д": Rank.QUEEN,
    "К": Rank.KING,
    "к": Rank.KING,
    "Т": Rank.ACE,
    "т": Rank.ACE,
}
_RANK_BY_TEXT = (
    {symbol: rank for rank, symbol in _RANK_SYMBOLS.items()}
    | {"T": Rank.TEN, "*": Rank.JOKER, "JK": Rank.JOKER, "JOKER": Rank.JOKER}
    | _LOCAL_RANK_LETTERS
)
_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_BY_TEXT = {symbol: suit for suit, symbol in _SUIT_SYMBOLS.items()} | {
    "C": Suit.CLUBS,
    "D": Suit.DIAMONDS,
    "H": Suit.HEARTS,
    "S": Suit.SPADES,
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "♤": Suit.SPADES,
}

# Only ASCII letters have another case in the documented spellings: str.upper()
# would also turn a long s (ſ) into S and other letters into ASCII ones.
_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _upper(text: str) -> str:
    """``text`` without surrounding spaces, its ASCII letters (only those) in upper case."""
    return text.strip().translate(_ASCII_UPPER)


#: The thirteen ranks of a 52-card pack, Ace first (the Joker is not among them).
STANDARD_RANKS: tuple[Rank, ...] = tuple(rank for rank in Rank if rank is not Rank.JOKER)
#: The suits of a pack's two jokers: a red one (♥) and a black one (♠).
JOKER_SUITS: tuple[Suit, ...] = (Suit.HEARTS, Suit.SPADES)


def _to_rank(value: Rank | str) -> Rank:
    return Rank.parse(value)


def _to_suit(value: Suit | str) -> Suit:
    return Suit.parse(value)


def _key(rank: Rank, suit: Suit) -> int:
    return rank.value * 4 + suit.value


def holdable(rank: Rank, suit: Suit) -> bool:
    """Whether some deck holds a card of ``rank`` and ``suit`` (jokers come in JOKER_SUITS only).

    For the package's own use (the dealing policies check fixed cards with it); not exported.
    """
    return rank is not Rank.JOKER or suit in JOKER_SUITS


@attrs.frozen(eq=False, order=False, repr=False)
class Card:
    """A playing card: a rank and a suit.

    Cards are frozen, hashable and ordered by rank (in the Cheat sequence, Ace
    first) and then by suit. Two physical copies of a card (two decks shuffled
    together) are equal. The rank and suit may be given as text.

    >>> Card.parse("QS") < Card.parse("K♦")
    True
    >>> Card("7", "c") == Card(Rank.SEVEN, Suit.CLUBS)
    True
    """

    rank: Rank = attrs.field(converter=_to_rank)
    suit: Suit = attrs.field(converter=_to_suit)
    #: A small integer that orders, hashes and identifies the card's value.
    key: int = attrs.field(init=False)

    @key.default
    def _key_default(self) -> int:
        return _key(self.rank, self.suit)

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Read a card from text: a rank then a suit.

        Accepts ``"7♣"``, ``"7c"``, ``"7C"``, ``"10h"``, ``"Th"``, ``"QS"``; a
        :class:`Card` is returned unchanged. A joker is ``★``, ``*``, ``JK``
        or ``Joker`` then the suit of one of a pack's two jokers, ♥ or ♠
        (``"★♥"``, ``"*h"``, ``"JKs"``, ``"joker♠"``). French and Russian
        players may name the rank with their own letters (``"D♥"``, ``"Д♥"``
        for the queen of hearts; see :meth:`Rank.parse`). Only these letters
        (in either case) and the suit symbols are read: a card no deck
        holds, such as a joker of clubs, is refused.

        Raises:
            CardError: the text is not a card (the message names the text).

        >>> Card.parse("Th") == Card.parse("10♥")
        True

        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(
                N_("a card must be a Card or a string such as '7♣' or '7c'; got %(got)s"),
                got=repr(text),
            )
        card = _CARD_BY_TEXT.get(_upper(text))
        if card is None:
            raise CardError(
                N_(
                    "cannot read %(text)s as a card: write a rank (A 2-10 T J Q K) "
                    "then a suit (♣ ♦ ♥ ♠ or c d h s), as in '7♣', '10h' or 'QS' "
                    "(a joker is ★♥ or ★♠)"
                ),
                text=repr(text),
            )
        return card

    def __str__(self) -> str:
        return _RANK_SYMBOLS[self.rank] + _SUIT_SYMBOLS[self.suit]

    def __repr__(self) -> str:
        return f"Card(rank={self.rank!r}, suit={self.suit!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.key == other.key
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.key != other.key
        return NotImplemented

    def __hash__(self) -> int:
        return self.key

    def __lt__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.key < other.key
        return NotImplemented

    def __le__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.key <= other.key
        return NotImplemented

    def __gt__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.key > other.key
        return NotImplemented

    def __ge__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.key >= other.key
        return NotImplemented


#: Every card's one shared instance, by :attr:`Card.key` (for the package's own use,
#: not exported): parsing and dealing hand these out, so equal cards in a game are
#: one object.
CARD_BY_KEY: dict[int, Card] = {
    _key(rank, suit): Card(rank, suit) for rank in Rank for suit in Suit
}
# Text reads only cards some deck holds: no joker of clubs.
_CARD_BY_TEXT: dict[str, Card] = {}
for _card in CARD_BY_KEY.values():
    if not holdable(_card.rank, _card.suit):
        continue
    for _rank_text, _rank in _RANK_BY_TEXT.items():
        if _rank is not _card.rank:
            continue
        for _suit_text, _suit in _SUIT_BY_TEXT.items():
            if _suit is _card.suit:
                _CARD_BY_TEXT[_rank_text + _suit_text] = _card


_THE_CARDS = N_("the cards")
_CARDS_TEXT = N_("cards must be text such as '7♣ K♦' or an iterable of Card; got %(got)s")
_RANKS_TEXT = N_("ranks must be text such as 'Q 7' or an iterable of Rank; got %(got)s")


def cards(text: str | Iterable[Card | str]) -> tuple[Card, ...]:
    """Read several cards: a string of cards separated by spaces (or commas).

    An iterable of :class:`Card` (or of card strings) is accepted too, so a
    caller may pass either form wherever the library takes cards.

    Raises:
        CardError: one of the cards cannot be read (the message names it).

    >>> [str(card) for card in cards("7♣ K♦, 10h")]
    ['7♣', 'K♦', '10♥']
    >>> cards("")
    ()

    """
    if isinstance(text, str):
        return tuple(Card.parse(word) for word in text.replace(",", " ").split())
    if isinstance(text, (bytes, bytearray)):
        raise CardError(_CARDS_TEXT, got=repr(text))
    try:
        items = tuple(text)
    except TypeError:
        raise CardError(_CARDS_TEXT, got=repr(text)) from None
    return tuple(Card.parse(item) for item in items)


#: The most packs a deck may hold.
MAX_PACKS = 8


def ranks(value: str | Rank | Iterable[Rank | str]) -> tuple[Rank, ...]:
    """Read several ranks, in the order given: a string separated by spaces, or an iterable.

    >>> ranks("Q 7"), ranks([Rank.ACE, "K"]), ranks("")
    ((Rank.QUEEN, Rank.SEVEN), (Rank.ACE, Rank.KING), ())

    Raises:
        CardError: something that is not a rank, or not ranks at all.

    """
    if isinstance(value, Rank):
        return (value,)
    if isinstance(value, str):
        return tuple(Rank.parse(word) for word in value.replace(",", " ").split())
    if isinstance(value, (bytes, bytearray)):
        raise CardError(_RANKS_TEXT, got=repr(value))
    try:
        items = tuple(value)
    except TypeError:
        raise CardError(_RANKS_TEXT, got=repr(value)) from None
    return tuple(Rank.parse(item) for item in items)


def _deck_ranks(value: str | Iterable[Rank | str]) -> tuple[Rank, ...]:
    chosen = tuple(sorted(set(ranks(value))))
    if not chosen:
        raise CardError(N_("a deck needs at least one rank"))
    if Rank.JOKER in chosen:
        raise CardError(
            N_("a deck's ranks are the ranks players announce; add jokers with jokers=2")
        )
    return chosen


#: The jokers one pack holds: a red one and a black one.
JOKERS_PER_PACK = len(JOKER_SUITS)


# What ``jokers=True`` or ``"per-pack"`` reads as until the deck knows its packs.
_PER_PACK = -1


def _joker_setting(value: int | bool | str) -> int:
    """A deck's ``jokers=`` setting as a count, or ``_PER_PACK`` for every pack's two."""
    value = _numbers.index(_numbers.to_flag(value))
    if value is True or (isinstance(value, str) and value == "per-pack"):
        return _PER_PACK
    if value is False:
        return 0
    if isinstance(value, int) and value >= 0:
        return value
    raise CardError(
        N_(
            "jokers must be a count of jokers (two per pack at most), 'per-pack', "
            "True (two per pack) or False; got jokers=%(got)s"
        ),
        got=repr(value),
    )


@attrs.frozen
class Deck:
    """The cards a game is played with: ``packs`` packs of the ranks in ``ranks``.

    ``Deck()`` is one 52-card pack; ``Deck(packs=2)`` is two shuffled together
    (104 cards); ``Deck.short()`` is the 36-card pack (6 to Ace).

    ``jokers`` is how many jokers are shuffled in, at most the two of each
    pack: a red one (★♥) and a black one (★♠), red first, so that
    ``Deck(packs=2, jokers=2)`` holds one of each and ``jokers=3`` two red
    and one black. ``jokers=True`` (or ``"per-pack"``) means every pack's
    two jokers, as records written before the count existed meant it, and
    ``False`` none; either is stored as the count. :attr:`ranks` stays the
    ranks players announce.

    >>> Deck().size, Deck(packs=2).size, Deck.short().size, Deck(jokers=True).size
    (52, 104, 36, 54)
    >>> Deck(packs=2, jokers=True).jokers, Deck(packs=2, jokers=2).size
    (4, 106)
    >>> Deck.short().ranks[0], Deck.short().copies(Rank.SIX)
    (Rank.ACE, 4)
    """

    packs: int = attrs.field(
        default=1, converter=_numbers.index, validator=_numbers.whole(1, MAX_PACKS, CardError)
    )
    ranks: tuple[Rank, ...] = attrs.field(default=STANDARD_RANKS, converter=_deck_ranks)
    #: How many jokers the deck holds (0 to two per pack).
    jokers: int = attrs.field(default=0, converter=_joker_setting)

    def __attrs_post_init__(self) -> None:
        most = JOKERS_PER_PACK * self.packs
        if self.jokers == _PER_PACK:
            object.__setattr__(self, "jokers", most)
        elif self.jokers > most:
            raise CardError(
                NN_(
                    "jokers must be a count of 0 to %(most)s (two per pack, %(packs)s pack), "
                    "'per-pack', True (two per pack) or False; got jokers=%(got)s",
                    "jokers must be a count of 0 to %(most)s (two per pack, %(packs)s packs), "
                    "'per-pack', True (two per pack) or False; got jokers=%(got)s",
                    self.packs,
                    most=most,
                    packs=self.packs,
                    got=repr(self.jokers),
                )
            )

    @classmethod
    def short(cls, packs: int = 1, jokers: int | bool | str = False) -> Deck:
        """The 36-card pack: 6, 7, 8, 9, 10, J, Q, K and A of each suit."""
        return cls(packs=packs, ranks=(Rank.ACE, *STANDARD_RANKS[5:]), jokers=jokers)

    @property
    def size(self) -> int:
        """How many cards the deck holds."""
        return len(self.ranks) * len(Suit) * self.packs + self.jokers

    def copies(self, rank: Rank) -> int:
        """How many cards of ``rank`` the deck holds (``Rank.JOKER``: its jokers)."""
        if rank is Rank.JOKER:
            return self.jokers
        return len(Suit) * self.packs if rank in self.ranks else 0

    def card_copies(self, card: Card) -> int:
        """How many copies of ``card`` the deck holds."""
        if card.rank is Rank.JOKER:
            if card.suit not in JOKER_SUITS:
                return 0
            # The jokers go red, black, red, black...: the red ones take any odd one.
            index = JOKER_SUITS.index(card.suit)
            return (self.jokers + len(JOKER_SUITS) - 1 - index) // len(JOKER_SUITS)
        return self.packs if card.rank in self.ranks else 0

    def cards(self) -> tuple[Card, ...]:
        """Every card of the deck in a fixed order (rank, then suit, then pack)."""
        return self._cards

    @cached_property
    def _cards(self) -> tuple[Card, ...]:
        faces = [(rank, suit) for rank in self.ranks for suit in Suit]
        jokers = tuple(
            CARD_BY_KEY[_key(Rank.JOKER, suit)]
            for suit in JOKER_SUITS
            for _ in range(self.card_copies(Card(Rank.JOKER, suit)))
        )
        return (
            tuple(CARD_BY_KEY[_key(rank, suit)] for rank, suit in faces for _ in range(self.packs))
            + jokers
        )

    def check(self, cards: Iterable[Card], what: str | Message = _THE_CARDS) -> None:
        """Raise :class:`CardError` unless ``cards`` could all come from this deck.

        A card the deck does not contain, or more copies of a card than the
        deck holds, is an error whose message names the card. ``what`` names
        the cards in the message: text marked ``N_`` (said in each language),
        or a :class:`~cheatrules.errors.Message`.
        """
        named = what if isinstance(what, Message) else Message(what)
        counts = Counter(cards)
        for card, count in sorted(counts.items()):
            allowed = self.card_copies(card)
            if allowed == 0:
                ranks = " ".join(str(rank) for rank in self.ranks)
                if not self.jokers:
                    raise CardError(
                        N_(
                            "%(what)s hold %(card)s, which this deck lacks "
                            "(its ranks: %(ranks)s, no jokers)"
                        ),
                        what=named,
                        card=card,
                        ranks=ranks,
                    )
                jokers = " ".join(
                    str(joker) for joker in sorted(set(self.cards())) if joker.rank is Rank.JOKER
                )
                raise CardError(
                    N_(
                        "%(what)s hold %(card)s, which this deck lacks "
                        "(its ranks: %(ranks)s, and the jokers %(jokers)s)"
                    ),
                    what=named,
                    card=card,
                    ranks=ranks,
                    jokers=jokers,
                )
            if count > allowed:
                raise CardError(
                    NN_(
                        "%(what)s hold %(card)s %(count)s times, but the deck has %(allowed)s copy",
                        "%(what)s hold %(card)s %(count)s times, "
                        "but the deck has %(allowed)s copies",
                        allowed,
                        what=named,
                        card=card,
                        count=count,
                        allowed=allowed,
                    )
                )
