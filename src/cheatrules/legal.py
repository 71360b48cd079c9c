"""The legal actions of a decision as a lazy, exact sequence.

:meth:`GameState.legal_actions() <cheatrules.GameState.legal_actions>` and
:meth:`Observation.legal_actions() <cheatrules.Observation.legal_actions>`
return a :class:`LegalActions`. Under house rules with large claims a hand
can have tens of millions of distinct plays, so the sequence never lists
them: its length is counted from the hand's rank counts, an index is turned
into its play directly, membership follows the rules, and
:meth:`LegalActions.choice` draws a uniformly random action from a random
index.

>>> import random
>>> import cheatrules as cr
>>> state = cr.deal(cr.english(3), seed=1)
>>> legal = state.legal_actions()
>>> len(legal), legal[0], legal[-1] == list(legal)[-1]
(511, Play(2♣ as A), True)
>>> state.is_legal(legal.choice(random.Random(5)))
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final, overload

from cheatrules._generation import by_rank, discards, multisets
from cheatrules.actions import Action, Discard, Play
from cheatrules.cards import Card, Rank

if TYPE_CHECKING:
    from cheatrules.policies import ClaimSize

__all__ = ["LegalActions"]

#: Up to this many actions, ``repr`` shows them all, like a tuple's.
_SHOWN: Final = 64

# Cards sort as their keys do; sorting by key compares plain ints.
_KEY = attrgetter("key")


class LegalActions(Sequence[Action]):
    """Every legal decision of the seat to move, in a fixed order, computed on demand.

    The order is: the ``extras`` (a challenge, an earlier challenge, a
    pass; or a window's or a consent's choices), then each non-empty choice
    of the ``fours`` the player may set aside on their turn, then the plays:
    for each claim size from the smallest, each distinct multiset of ranks
    laid (as the lowest cards of each rank in the sorted ``hand``, ranks in
    the order ``itertools.combinations_with_replacement`` visits them), and
    for each, every rank in ``announced``. In the discard phase
    (``discarding=True``) it is every choice of the fours offered, the empty
    one first, and nothing else.

    Creating one lists nothing. ``len``, indexing (ints, negative ints and
    slices, which return a tuple), iteration (lazy), ``in``, :meth:`index`,
    :meth:`count` and :meth:`choice` cost about as much as one play, whatever
    the number of plays.

    Membership follows the rules, not the list: a :class:`~cheatrules.Play`
    is in it when its cards are in the hand, its size is a legal claim size
    and its rank may be announced, whatever the suits (just as
    :meth:`GameState.is_legal <cheatrules.GameState.is_legal>` says); a
    :class:`~cheatrules.Discard` when its fours are offered, in any order.
    :meth:`index` and :meth:`count` treat such an action as the listed one
    that stands for it (the same ranks laid and announced, or the same
    fours): its position, and a count of 1.

    It compares equal to a tuple, a list or another ``LegalActions`` with
    the same actions in the same order; its ``repr`` is a tuple's when it
    holds at most 64 actions, and a summary otherwise.

    Args:
        extras: the decisions other than plays and discards, listed first.
        hand: the hand of the seat to move, in any order (no plays when empty).
        announced: the ranks a play may announce (no plays when empty).
        claims: the claim size policy (no plays when ``None``).
        fours: the ranks of the fours on offer: to set aside on the turn, or
            in the discard phase.
        discarding: whether this is the discard phase, where declining
            (``Discard(())``) is a choice too and nothing else is.

    >>> import cheatrules as cr
    >>> hand = cr.cards("7♣ 7♥ K♠")
    >>> claims = cr.policies.ClaimSize(1, 4)
    >>> legal = LegalActions(hand=hand, announced=(cr.Rank.SEVEN,), claims=claims)
    >>> legal
    (Play(7♣ as 7), Play(K♠ as 7), Play(7♣ 7♥ as 7), Play(7♣ K♠ as 7), Play(7♣ 7♥ K♠ as 7))
    >>> cr.Play("7♥ K♠", "7") in legal, legal.index(cr.Play("7♥ K♠", "7"))
    (True, 3)

    """

    __slots__ = (
        "_announced",
        "_blocks",
        "_discards",
        "_extras",
        "_fours",
        "_hand",
        "_keys",
        "_length",
        "_listed",
        "_plays",
        "_runs",
        "_sizes",
        "_ways",
        "_width",
    )

    def __init__(
        self,
        extras: Sequence[Action] = (),
        *,
        hand: Sequence[Card] = (),
        announced: Sequence[Rank] = (),
        claims: ClaimSize | None = None,
        fours: Sequence[Rank] = (),
        discarding: bool = False,
    ) -> None:
        self._extras: tuple[Action, ...] = tuple(extras)
        self._hand: tuple[Card, ...] = tuple(sorted(hand, key=_KEY))  # a state's is already
        self._announced: tuple[Rank, ...] = tuple(announced)
        self._fours: tuple[Rank, ...] = tuple(fours)
        self._discards: int = 1 if discarding else 0  # the first discard choice listed
        self._sizes: range = (
            claims.sizes(len(self._hand))
            if claims is not None and self._hand and self._announced and not discarding
            else range(0)
        )
        # Filled in on first use, so that creating one costs next to nothing.
        self._listed: tuple[Action, ...] | None = None
        self._runs: list[tuple[Card, ...]] | None = None
        self._ways: list[int] | None = None
        self._width = 1
        self._blocks: list[int] | None = None
        self._plays: int | None = None
        self._length: int | None = None
        self._keys: Counter[int] | None = None

    # -- counting ------------------------------------------------------------------

    def _choices(self) -> tuple[Action, ...]:
        """The extras and the discard choices: every action but the plays (a short tuple)."""
        listed = self._listed
        if listed is None:
            choices: tuple[Action, ...] = ()
            if self._fours or self._discards:
                choices = discards(self._fours)[1 - self._discards :]
            listed = self._listed = self._extras + choices
        return listed

    def _count(self) -> None:
        """Count the distinct rank multisets of each size, from each run of the hand on.

        ``ways[i]`` packs the counts for the runs from ``i`` on: the number of
        multisets of ``s`` cards is its digit ``s`` in base ``2**width``. A
        run of ``h`` cards multiplies the counts of the runs after it by
        ``1 + x + ... + x**h`` (take none of it, one, ... or all), which one
        product of Python integers does for every size at once; the digits
        above the largest claim size are dropped. No count reaches
        ``2**len(hand)`` (each multiset is a different set of the hand's
        cards), so ``width = len(hand) + 1`` bits keep the digits apart.
        """
        sizes = self._sizes
        runs = self._runs = by_rank(self._hand) if sizes else []
        top = sizes.stop - 1 if sizes else 0
        width = self._width = len(self._hand) + 1
        digit = (1 << width) - 1
        kept = (1 << width * (top + 1)) - 1  # the digits of 0 to top cards
        packed = 1  # no run: one way to lay no card
        ways = [packed]
        factors: dict[int, int] = {}
        for run in reversed(runs):
            held = len(run)
            factor = factors.get(held)
            if factor is None:  # 1 + x + ... + x**held, x being 2**width
                factor = factors[held] = ((1 << width * (held + 1)) - 1) // digit
            packed = packed * factor & kept
            ways.append(packed)
        ways.reverse()
        self._ways = ways
        announced = len(self._announced)
        self._blocks = [(packed >> width * size & digit) * announced for size in sizes]
        self._plays = sum(self._blocks)

    def count_plays(self) -> int:
        """How many of the actions are plays (one per rank multiset laid and rank announced).

        >>> import cheatrules as cr
        >>> state = cr.deal(cr.english(3), seed=1)
        >>> state.legal_actions().count_plays()
        511

        """
        if self._plays is None:
            self._count()
        return self._plays  # type: ignore[return-value]

    @property
    def fours(self) -> tuple[Rank, ...]:
        """The ranks of the fours on offer, to set aside on the turn or in the discard phase.

        A front end that cannot list every choice (eight fours make 256 of
        them) shows one control per rank from here.

        >>> import cheatrules as cr
        >>> LegalActions(fours=(cr.Rank.SEVEN, cr.Rank.KING), discarding=True).fours
        (Rank.SEVEN, Rank.KING)
        """
        return self._fours

    def __len__(self) -> int:
        length = self._length
        if length is None:
            plays = self.count_plays() if self._sizes else 0
            length = self._length = len(self._choices()) + plays
        return length

    def __bool__(self) -> bool:
        return len(self) > 0

    # -- indexing ------------------------------------------------------------------

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Action, ...]: ...

    def __getitem__(self, index: int | slice) -> Action | tuple[Action, ...]:
        if isinstance(index, slice):
            return tuple(self._at(position) for position in range(*index.indices(len(self))))
        try:
            position = index.__index__()
        except AttributeError:
            raise TypeError(
                f"legal actions are indexed by whole numbers or slices, not {type(index).__name__}"
            ) from None
        length = len(self)
        if position < 0:
            position += length
        if not 0 <= position < length:
            raise IndexError(f"legal action index {index} is out of range for {length} actions")
        return self._at(position)

    def _at(self, position: int) -> Action:
        """The action at a position known to be in range: unrank the play it stands for."""
        choices = self._choices()
        if position < len(choices):
            return choices[position]
        position -= len(choices)
        blocks: list[int] = self._blocks  # type: ignore[assignment]
        size = self._sizes.start
        for block in blocks:
            if position < block:
                break
            position -= block
            size += 1
        multiset, announced = divmod(position, len(self._announced))
        return Play(self._unrank(size, multiset), self._announced[announced])

    def _unrank(self, size: int, multiset: int) -> tuple[Card, ...]:
        """The ``multiset``-th rank multiset of ``size`` cards, as the lowest cards of each rank.

        The order is ``combinations_with_replacement``'s over the runs: the
        first run taken as often as it can be first, then one fewer time...
        """
        runs: list[tuple[Card, ...]] = self._runs  # type: ignore[assignment]
        ways: list[int] = self._ways  # type: ignore[assignment]
        width = self._width
        digit = (1 << width) - 1
        laid: list[Card] = []
        index = 0
        while size:
            after = ways[index + 1]
            run = runs[index]
            for taken in range(min(len(run), size), -1, -1):
                count = after >> width * (size - taken) & digit
                if multiset < count:
                    laid.extend(run[:taken])
                    size -= taken
                    break
                multiset -= count
            index += 1
        return tuple(laid)

    def __iter__(self) -> Iterator[Action]:
        yield from self._choices()
        if not self._sizes:
            return
        runs = by_rank(self._hand)
        announced = self._announced
        for size in self._sizes:
            for laid in multisets(runs, size):
                for rank in announced:
                    yield Play(laid, rank)

    def __reversed__(self) -> Iterator[Action]:
        for position in range(len(self) - 1, -1, -1):
            yield self._at(position)

    # -- membership ----------------------------------------------------------------

    def _listed_play(self, play: Play) -> int | None:
        """The position of the listed play that stands for ``play``; ``None`` if it is illegal."""
        laid = play.cards
        if len(laid) not in self._sizes or play.rank not in self._announced:
            return None
        held = self._keys
        if held is None:
            held = self._keys = Counter(card.key for card in self._hand)
        wanted = Counter(card.key for card in laid)
        if any(held[key] < count for key, count in wanted.items()):
            return None
        if self._plays is None:
            self._count()
        runs: list[tuple[Card, ...]] = self._runs  # type: ignore[assignment]
        ways: list[int] = self._ways  # type: ignore[assignment]
        width = self._width
        digit = (1 << width) - 1
        by_rank_laid = Counter(card.rank for card in laid)
        size = len(laid)
        multiset = 0
        for index, run in enumerate(runs):
            taken = by_rank_laid[run[0].rank]
            after = ways[index + 1]
            # The multisets taking more of this run come first.
            for more in range(min(len(run), size), taken, -1):
                multiset += after >> width * (size - more) & digit
            size -= taken
        position = len(self._choices())
        blocks: list[int] = self._blocks  # type: ignore[assignment]
        for claim, block in zip(self._sizes, blocks, strict=True):
            if claim == len(laid):
                break
            position += block
        return position + multiset * len(self._announced) + self._announced.index(play.rank)

    def _position(self, action: object) -> int | None:
        """Where the listed action that stands for ``action`` is; ``None`` if it is not legal."""
        if isinstance(action, Play):
            return self._listed_play(action)
        choices = self._choices()
        if isinstance(action, Discard):
            first = len(self._extras)
            if not action.ranks and not self._discards:
                return None
            offered, wanted = Counter(self._fours), Counter(action.ranks)
            if any(offered[rank] < count for rank, count in wanted.items()):
                return None
            for position in range(first, len(choices)):
                listed = choices[position]
                if isinstance(listed, Discard) and Counter(listed.ranks) == wanted:
                    return position
            return None
        for position, listed in enumerate(choices):
            if listed == action:
                return position
        return None

    def __contains__(self, action: object) -> bool:
        return self._position(action) is not None

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        """The position of the listed action that stands for ``value``.

        A play in other suits than the listed one stands for the listed play
        with the same ranks laid and announced; a discard, for the listed one
        with the same fours.

        Raises:
            ValueError: ``value`` is not a legal action here, or its position
                is outside ``start:stop``.

        """
        position = self._position(value)
        if position is None:
            raise ValueError(f"{value!r} is not a legal action here")
        begin, end, _ = slice(start, stop).indices(len(self))
        if not begin <= position < end:
            raise ValueError(f"{value!r} is legal but listed at {position}, outside {start}:{stop}")
        return position

    def count(self, value: Any) -> int:
        """1 if ``value`` is legal (it stands for exactly one listed action), else 0."""
        return 0 if self._position(value) is None else 1

    # -- drawing -------------------------------------------------------------------

    def choice(self, rng: random.Random) -> Action:
        """A uniformly random action of the list, without listing it.

        Draws the same as ``rng.choice(list(self))`` would.

        Raises:
            IndexError: there is no legal action (the seat is not to move, or
                the game is over).

        """
        length = len(self)
        if not length:
            raise IndexError("there is no legal action to choose from")
        return self._at(rng.randrange(length))

    # -- value semantics -----------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, (LegalActions, tuple, list)):
            return NotImplemented
        if len(self) != len(other):
            return False
        return all(mine == theirs for mine, theirs in zip(self, other, strict=True))

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        length = len(self)
        if length <= _SHOWN:
            return repr(tuple(self))
        head = ", ".join(map(repr, self[:3]))
        return f"LegalActions({length} actions: {head}, ..., {self._at(length - 1)!r})"
