"""The information-state encoder: an observation and what its seat remembers, as numbers.

:class:`InformationStateEncoder` extends the vector of
:class:`~cheatrules.encoding.ObservationEncoder` with the seat's memory of
the game (claims, challenges and their outcomes by seat, the groups on the
table, the cards it saw and where they went), read from its log as it saw
it, in a fixed, documented layout. It is also importable as
``cheatrules.encoding.InformationStateEncoder``.

>>> import cheatrules as cr
>>> from cheatrules.information_state import InformationStateEncoder
>>> rules = cr.english(4)
>>> encoder = InformationStateEncoder(rules)
>>> len(encoder.encode(cr.deal(rules, seed=1).observe(0))) == encoder.size
True
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from cheatrules._caches import kept_with, newest_kept
from cheatrules._encoding_checks import (
    Bounds,
    bounds_of,
    is_observation,
    is_rules,
    laid_out,
    section_of,
    size_of,
)
from cheatrules._persistent import Log
from cheatrules._seat_memory import Memory
from cheatrules.cards import Card
from cheatrules.encoding import ObservationEncoder
from cheatrules.observation import Observation
from cheatrules.rules import Rules

__all__ = ["InformationStateEncoder"]


#: The sections that count what happened: "0 and up", without a bound.
_GROWING = (
    "events_seen", "claims_made", "challenges_made", "shown_lying", "shown_truthful",
    "piles_taken", "passes",
)  # fmt: skip

#: How many folds of a log lineage are kept with it for a seat to go on from (under the
#: name "information state, seat N").
_MEMORIES_KEPT = 32


@attrs.frozen
class InformationStateEncoder:
    """An observation and what its seat remembers of the game, as a flat list of numbers.

    The vector starts with the whole :class:`~cheatrules.encoding.ObservationEncoder` vector (its
    sections first, under the same names), then the seat's memory of the
    game, read from its log as it saw it (``P`` seats, ``R`` ranks, ``C``
    distinct cards, ``G`` the deck's size, the most groups a table can hold):

    ====================  ======  ===============================================  ==========
    name                  length  content                                          values
    ====================  ======  ===============================================  ==========
    ``events_seen``       1       events in the seat's log so far                  0 and up
    ``claims_made``       P       claims each seat has made this game              0 and up
    ``challenges_made``   P       challenges each seat has made                    0 and up
    ``shown_lying``       P       each seat's claims turned over and found false   0 and up
    ``shown_truthful``    P       each seat's claims turned over and found true    0 and up
    ``piles_taken``       P       piles each seat has taken                        0 and up
    ``passes``            P       passes by each seat since the last claim         0 and up
    ``group_seat``        G × P   one-hot per group on the table, newest first:    0 or 1
                                  who laid it (zeros past the last group)
    ``group_count``       G       cards in each group, newest first                0 to the
                                                                                   largest
                                                                                   claim
    ``group_rank``        G × R   one-hot per group, newest first: the rank        0 or 1
                                  announced
    ``mine_on_table``     C       copies of each card the seat laid that are on    0 to the
                                  the table now                                    copies
    ``shown_on_table``    C       copies of each card of another seat's group      0 to the
                                  turned over and still on the table               copies
    ``taken``             P × C   for each seat, then each card: copies the seat   0 to the
                                  last saw go into that seat's hand with a pile    copies
                                  (its own laid cards, or cards turned over)
    ``discarded_cards``   C       copies of each card set aside in fours           0 to the
                                                                                   copies
    ``last_revealed``     C       copies of each card turned over in the newest    0 to the
                                  challenge                                        copies
    ====================  ======  ===============================================  ==========

    "The copies" is how many copies of the card the deck holds. ``taken``
    is where the seat last saw each card go; a copy it sees again (turned
    over from that seat's group, set aside by it, back in its own hand)
    leaves it.

    Two views that differ only in cards the seat never saw encode the
    same. The vector is a summary, not the seat's whole history: of the
    history it keeps exactly the sections above (counts by seat, the groups
    on the table, where the seat last saw each card it saw, the newest
    reveal) and leaves out the rest: the order of events; the hand the
    seat was dealt and every hand it held before this one; where a card was
    before the place it was last seen; which group on the table holds which
    of the cards the seat knows there; who set aside which four; who
    accepted or refused what, passes before the last claim, and the order
    in which seats left. So two views of a seat that was dealt other
    copies of a rank, laid them, and saw them end where the other game's
    ended encode alike (the OpenSpiel information-state string, which is
    exact, tells them apart).

    The log is folded once: an encoder keeps its latest folds and goes on
    from the one a newer view of the same game extends, so a vector costs
    the events since, plus the table, not the whole log.

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"], dealer=2)
    >>> state = state.apply(cr.Play("K♦", "A")).apply(cr.Challenge())
    >>> encoder = InformationStateEncoder(cr.english(3))
    >>> vector = encoder.encode(state.observe(2))
    >>> encoder.section(vector, "shown_lying")  # seat 0's claim was false
    [1.0, 0.0, 0.0]
    >>> taken = encoder.section(vector, "taken")  # seat 0 took back the K♦ it showed
    >>> sum(taken[:52]), sum(taken[52:])
    (1.0, 0.0)

    """

    #: The rules whose observations are encoded.
    rules: Rules = attrs.field(validator=is_rules)
    _base: ObservationEncoder = attrs.field(init=False, eq=False, repr=False)
    _cards: dict[Card, int] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_base", ObservationEncoder(self.rules))
        cards = sorted(set(self.rules.deck.cards()))
        object.__setattr__(self, "_cards", {card: place for place, card in enumerate(cards)})

    def __reduce__(self) -> tuple[Any, ...]:
        return (InformationStateEncoder, (self.rules,))

    @property
    def layout(self) -> tuple[tuple[str, int, int], ...]:
        """Each section as ``(name, start, length)``: the observation's, then the memory's."""
        base = self._base.layout
        return base + laid_out(self._memory_lengths(), size_of(base))

    def _memory_lengths(self) -> list[tuple[str, int]]:
        """The memory's sections, ``(name, length)``, in order."""
        players = self.rules.players
        ranks = len(self.rules.deck.ranks)
        cards = len(self._cards)
        groups = self.rules.deck.size
        return [
            ("events_seen", 1), ("claims_made", players), ("challenges_made", players),
            ("shown_lying", players), ("shown_truthful", players), ("piles_taken", players),
            ("passes", players), ("group_seat", groups * players), ("group_count", groups),
            ("group_rank", groups * ranks), ("mine_on_table", cards), ("shown_on_table", cards),
            ("taken", players * cards), ("discarded_cards", cards), ("last_revealed", cards),
        ]  # fmt: skip

    @property
    def size(self) -> int:
        """The length of every vector."""
        return size_of(self.layout)

    def section(self, vector: Sequence[float], name: str) -> list[float]:
        """The part of ``vector`` named ``name`` in :attr:`layout`.

        Raises:
            EncodingError: there is no section of that name.

        """
        return section_of(self.layout, vector, name)

    def bounds(self) -> Bounds:
        """Each entry's lowest and highest value, as the sections' ``values`` say.

        The observation's sections are bounded as
        :meth:`ObservationEncoder.bounds <cheatrules.encoding.ObservationEncoder.bounds>`
        bounds them; a count documented as "0 and up" has ``math.inf`` as
        its upper bound.

        Returns:
            ``(low, high)``: two lists of :attr:`size` floats; ``low`` is all 0.

        >>> import cheatrules as cr
        >>> encoder = InformationStateEncoder(cr.english(3))
        >>> low, high = encoder.bounds()
        >>> encoder.section(high, "group_count")[:2], encoder.section(high, "claims_made")
        ([4.0, 4.0], [inf, inf, inf])

        """
        low, high = self._base.bounds()
        deck = self.rules.deck
        per_card = [float(deck.card_copies(card)) for card in self._cards]
        highs: dict[str, float | list[float]] = {
            **dict.fromkeys(_GROWING, math.inf),
            **dict.fromkeys(("group_seat", "group_rank"), 1.0),
            "group_count": float(min(self.rules.claims.maximum, deck.size)),
            **dict.fromkeys(
                ("mine_on_table", "shown_on_table", "discarded_cards", "last_revealed"), per_card
            ),
            "taken": per_card * self.rules.players,
        }
        memory_low, memory_high = bounds_of(laid_out(self._memory_lengths()), highs)
        return low + memory_low, high + memory_high

    def encode(self, observation: Observation) -> list[float]:
        """The observation and the seat's memory as a list of ``size`` floats.

        Raises:
            EncodingError: ``observation`` is not an :class:`~cheatrules.Observation`.

        """
        observation = is_observation(observation)
        memory = self._memory(observation)
        players = self.rules.players
        vector = self._base.encode(observation)
        vector.append(float(memory.events))
        for counts in (
            memory.claims, memory.challenges, memory.lies, memory.truths, memory.pickups,
            memory.passes,
        ):  # fmt: skip
            vector += map(float, counts)
        vector += self._groups(observation)
        mine: Counter[Card] = Counter()
        shown: Counter[Card] = Counter()
        for seat, _, known, _ in memory.groups:
            (mine if seat == observation.seat else shown).update(known)
        for cards in (mine, shown, *memory.taken[:players], memory.discarded):
            vector += self._per_card(cards)
        vector += self._per_card(Counter(memory.last_revealed))
        return vector

    def _groups(self, observation: Observation) -> list[float]:
        """The claims on the table, newest first: who, how many, which rank; zeros after."""
        players = self.rules.players
        ranks = self.rules.deck.ranks
        groups = self.rules.deck.size
        seats = [0.0] * (groups * players)
        counts = [0.0] * groups
        announced = [0.0] * (groups * len(ranks))
        for place, claim in enumerate(reversed(observation.claims)):
            if place >= groups:
                break
            seats[place * players + claim.seat] = 1.0
            counts[place] = float(claim.count)
            announced[place * len(ranks) + ranks.index(claim.rank)] = 1.0
        return seats + counts + announced

    def _per_card(self, counts: Counter[Card]) -> list[float]:
        vector = [0.0] * len(self._cards)
        places = self._cards
        for card, count in counts.items():
            if count > 0:
                vector[places[card]] = float(count)
        return vector

    def _memory(self, observation: Observation) -> Memory:
        """The seat's log folded, going on from the newest fold kept with the log.

        Kept with the log: in its lineage's ``shared`` dict, one cache a
        seat, by chunk node, the newest :data:`_MEMORIES_KEPT`, for the
        rules they were folded for (so every encoder of those rules shares
        them). Shared by
        threads: a memory is never changed once kept (a fold goes on from a
        copy), and two threads that miss at once both fold the same memory.
        A log that is a plain tuple is folded whole at each call.
        """
        seat = observation.seat
        events = observation.events
        if not isinstance(events, Log):
            memory = self._fresh(seat)
            memory.fold(events)
            return memory
        box = kept_with(events, f"information state, seat {seat}", _MEMORIES_KEPT)
        found: Memory | None
        found, newer = newest_kept(box, events.chunks, self.rules)
        if found is not None and not newer:
            return found
        memory = found.copy() if found is not None else self._fresh(seat)
        for chunk in newer:
            memory.fold(chunk)
        box.put(events.chunks, memory, self.rules)
        return memory

    def _fresh(self, seat: int) -> Memory:
        deck = self.rules.deck
        copies = {card: deck.card_copies(card) for card in self._cards}
        return Memory(seat, self.rules.players, copies)

    def array(self, observation: Observation) -> Any:
        """The vector as a ``numpy`` array of float32 (numpy must be installed).

        Raises:
            EncodingError: ``observation`` is not an :class:`~cheatrules.Observation`.
            ImportError: numpy is not installed.

        """
        import numpy  # an optional dependency: only this method needs it

        return numpy.asarray(self.encode(observation), dtype=numpy.float32)
