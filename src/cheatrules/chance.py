"""Seeded chance: the random draws a rule makes during play, the same on every replay.

A rule that leaves something to chance (the one-card check turns over a
card drawn at random) draws from a :class:`Chance`. The engine seeds each
one from the game's seed and the moment of the game, so replaying a game's
record repeats every draw, and two games from one seed draw alike. A game
made to agree with what a seat saw (see :func:`cheatrules.sampling.sample`)
is scripted instead to draw, at the moments the seat saw, the cards it saw
turned over: a :class:`Drawn` chance. Either way the draw is part of the
state's value, so equal states draw alike.

>>> first = Chance("7:12")
>>> again = Chance("7:12")
>>> first.randrange(4) == again.randrange(4)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from cheatrules.cards import Card
from cheatrules.errors import N_, RulesError

__all__ = ["Chance", "Drawn"]

_T = TypeVar("_T")


class Chance:
    """The random draws of one moment of a game, seeded by text.

    The generator is made only when a draw is asked for, so a rule that
    never draws costs nothing.
    """

    __slots__ = ("_rng", "_seed")

    def __init__(self, seed: str) -> None:
        self._seed = seed
        self._rng: random.Random | None = None

    def randrange(self, stop: int) -> int:
        """A whole number from 0 to ``stop - 1``, each equally likely."""
        if self._rng is None:
            self._rng = random.Random(self._seed)
        return self._rng.randrange(stop)

    def choice(self, items: Sequence[_T]) -> _T:
        """One of ``items``, each equally likely."""
        return items[self.randrange(len(items))]

    @property
    def used(self) -> bool:
        """Whether anything was drawn from this chance (so chance chose the rule's answer).

        >>> chance = Chance("7:12")
        >>> chance.used
        False
        >>> _ = chance.randrange(2)
        >>> chance.used
        True
        """
        return self._rng is not None

    def __repr__(self) -> str:
        return f"Chance({self._seed!r})"


class Drawn(Chance):
    """A chance scripted to draw ``card``: the card a seat saw turned over at this moment.

    >>> from cheatrules.cards import cards
    >>> str(Drawn(Card.parse("K♣")).choice(cards("A♦ K♣")))
    'K♣'
    """

    __slots__ = ("_card", "_drawn")

    def __init__(self, card: Card) -> None:
        super().__init__(f"drawn {card}")
        self._card = card
        self._drawn = False

    def randrange(self, stop: int) -> int:
        """Not available: a scripted draw names a card, so draw with :meth:`choice`.

        Raises:
            RulesError: always.

        """
        raise RulesError(
            N_("the draw is scripted to turn over %(card)s; draw it with choice()"), card=self._card
        )

    def choice(self, items: Sequence[_T]) -> _T:
        """The scripted card, which must be one of ``items``.

        Raises:
            RulesError: the scripted card is not among ``items``.

        """
        for item in items:
            if item == self._card:
                self._drawn = True
                return item
        raise RulesError(
            N_("the draw is scripted to turn over %(card)s, which is not in the group"),
            card=self._card,
        )

    @property
    def used(self) -> bool:
        """Whether the scripted card was drawn (the draw it stands for was made)."""
        return self._drawn

    def __repr__(self) -> str:
        return f"Drawn({self._card})"
