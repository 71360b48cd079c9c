"""Starting a game: :func:`deal`, shuffled from a seed or fixed by hand."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import Literal

from cheatrules import _checks
from cheatrules.cards import CARD_BY_KEY, Card, cards
from cheatrules.errors import N_, CardError, DealError, Message
from cheatrules.rules import Rules
from cheatrules.state import GameState

__all__ = ["deal", "dealer_by_lot", "shuffled_deal"]

Hand = str | Iterable[Card | str]

# Cards sort as their keys do; sorting by key compares plain ints.
_KEY = attrgetter("key")


def _whole_number(name: str, value: object) -> int:
    """``value`` as a plain int (a NumPy integer too), or a DealError; never a bool."""
    return _checks.whole_number(value, name, error=DealError)


def _read(what: str | Message, value: Hand) -> tuple[Card, ...]:
    try:
        return cards(value)
    except CardError as error:
        raise DealError(N_("%(what)s: %(error)s"), what=what, error=error) from None


def deal(
    rules: Rules,
    *,
    seed: int | None = None,
    dealer: int | Literal["random"] | None = None,
    hands: Sequence[Hand] | None = None,
    hidden: Hand | None = None,
    stock: Hand | None = None,
) -> GameState:
    """Deal a new game and return its first state.

    Args:
        rules: the rules to play, from :func:`~cheatrules.english` or a
            composition of your own.
        seed: any whole number (an ``int``, or a NumPy integer, kept as an
            ``int``); the same rules and seed always give the same deal.
            Without a seed (and without ``hands``) a fresh one is drawn, and
            kept in :attr:`~cheatrules.GameState.seed` so the game can be replayed.
        dealer: the dealer's seat; by default the last seat, so that seat 0
            receives the first card and acts first. ``"random"`` chooses the
            dealer by lot, as the rule books do: drawn from the seed (the
            fresh one, without a seed), so the same seed draws the same
            dealer; for fixed ``hands`` without a seed, drawn from fresh
            chance. The seat drawn is kept in
            :attr:`~cheatrules.GameState.dealer`, and records write it.
        hands: a fixed deal instead of a shuffle: one entry per seat, each a
            string for :func:`~cheatrules.cards` or an iterable of cards.
            Hands may hold fewer cards than a whole deck, but each holds at
            least one, and together they hold no card the deck lacks nor more
            copies than it has.
        hidden: with ``hands``, the cards set aside unseen (at most as many as
            the rules set aside); ``None`` sets none aside.
        stock: with ``hands``, under rules with a stock, the stock's cards,
            top first; ``None`` leaves the stock empty.

    Raises:
        DealError: a dealer outside the table (nor ``"random"``), a seed
            that is not an int, or fixed hands that do not fit the rules or
            the deck.

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(players=4), seed=7)
    >>> state.hand_sizes, state.to_move
    ((13, 13, 13, 13), 0)
    >>> cr.deal(cr.english(players=4), seed=7) == state
    True

    """
    if not isinstance(rules, Rules):
        raise DealError(
            N_("deal() needs a Rules value such as cheatrules.english(); got %(got)s"),
            got=repr(rules),
        )
    players = rules.players
    by_lot = dealer == "random"
    if dealer is None:
        dealer = players - 1
    elif not by_lot:
        try:
            dealer = _whole_number("dealer", dealer)
        except DealError:
            raise DealError(
                N_("dealer must be a seat from 0 to %(last)s or 'random'; got %(got)s"),
                last=players - 1,
                got=repr(dealer),
            ) from None
        if not 0 <= dealer < players:
            raise DealError(
                N_("dealer must be a seat from 0 to %(last)s; got %(got)s"),
                last=players - 1,
                got=dealer,
            )
    if seed is not None:
        seed = _whole_number("seed", seed)
    if hands is None:
        for name, value in (("hidden", hidden), ("stock", stock)):
            if value is not None:
                raise DealError(
                    N_("%(name)s= goes with hands=: a shuffled deal makes its own"), name=name
                )
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
    if by_lot:
        dealer = dealer_by_lot(players, seed)
    assert isinstance(dealer, int)
    if hands is None:
        assert seed is not None
        sorted_hands, set_aside, pile = shuffled_deal(rules, seed, dealer)
    else:
        dealt, set_aside, pile = _fixed(rules, hands, hidden, stock)
        sorted_hands = tuple(tuple(sorted(hand, key=_KEY)) for hand in dealt)
    return GameState._dealt(
        rules, sorted_hands, seed=seed, dealer=dealer, set_aside=set_aside, stock=pile
    )


def dealer_by_lot(players: int, seed: int | None) -> int:
    """The dealer ``deal(..., dealer="random")`` draws: from ``seed``, or fresh chance without one.

    The draw has its own source, seeded from the seed's text, so it leaves
    the shuffle that seed gives alone.

    >>> dealer_by_lot(4, seed=7) == dealer_by_lot(4, seed=7)
    True
    """
    if seed is None:
        return random.SystemRandom().randrange(players)
    return random.Random(f"dealer by lot {seed}").randrange(players)


def shuffled_deal(
    rules: Rules, seed: int, dealer: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[Card, ...]]:
    """The hands (each sorted), the cards set aside and the stock that ``seed`` deals.

    The deck is shuffled with :class:`random.Random` seeded by ``seed``; the
    rules' ``set_aside`` cards are taken from the top, and the rest dealt one
    at a time clockwise from the dealer's left, until each hand is full
    (with a stock) or the deck is spent. What is left is the stock, top
    first.
    """
    seed = _whole_number("seed", seed)
    deck = list(rules.deck.cards())
    # random.Random(int) ignores the sign; seed negative numbers by their text
    # so that every int gives its own deal.
    random.Random(seed if seed >= 0 else str(seed)).shuffle(deck)
    aside = rules.dealing.set_aside
    set_aside, rest = tuple(deck[:aside]), deck[aside:]
    players = rules.players
    size = rules.dealing.hand_size
    stock: tuple[Card, ...] = ()
    if size is not None:
        rest, stock = rest[: size * players], tuple(rest[size * players :])
    # One card at a time from the dealer's left: seat s gets every players-th
    # card, from the one dealt to it first.
    hands = [rest[(seat - dealer - 1) % players :: players] for seat in range(players)]
    return tuple(tuple(sorted(hand, key=_KEY)) for hand in hands), set_aside, stock


def _fixed(
    rules: Rules, hands: Sequence[Hand], hidden: Hand | None, stock: Hand | None
) -> tuple[list[tuple[Card, ...]], tuple[Card, ...], tuple[Card, ...]]:
    if isinstance(hands, str) or not isinstance(hands, Sequence):
        raise DealError(
            N_("hands= must be a list with one hand per seat; got %(got)s"), got=repr(hands)
        )
    if len(hands) != rules.players:
        raise DealError(
            N_("hands= must give one hand per seat: %(players)s hands; got %(got)s"),
            players=rules.players,
            got=len(hands),
        )
    read = [
        _read(Message.of(N_("hand %(seat)s"), {"seat": seat}), hand)
        for seat, hand in enumerate(hands)
    ]
    for seat, hand in enumerate(read):
        if not hand:
            raise DealError(
                N_("hand %(seat)s is empty; every seat must be dealt at least one card"), seat=seat
            )
    set_aside = () if hidden is None else _read("hidden", hidden)
    if len(set_aside) > rules.dealing.set_aside:
        raise DealError(
            N_("hidden= holds %(count)s cards but these rules set aside %(aside)s"),
            count=len(set_aside),
            aside=rules.dealing.set_aside,
        )
    pile = () if stock is None else _read("stock", stock)
    if pile and rules.dealing.hand_size is None:
        raise DealError(N_("stock= needs rules with a stock (such as english(stock=True))"))
    everything = [card for hand in read for card in hand] + list(set_aside) + list(pile)
    try:
        rules.deck.check(everything, what=N_("the hands, hidden cards and stock"))
    except CardError as error:
        raise DealError(error.message) from None
    canonical = [tuple(CARD_BY_KEY[card.key] for card in hand) for hand in read]
    return (
        canonical,
        tuple(CARD_BY_KEY[card.key] for card in set_aside),
        tuple(CARD_BY_KEY[card.key] for card in pile),
    )
