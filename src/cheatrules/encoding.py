"""Fixed-size encodings for learning code: an action space, a legal mask, observation vectors.

Everything depends only on the rules, so a network built for one set of
rules sees the same sizes in every game.

>>> import cheatrules as cr
>>> from cheatrules.encoding import ActionSpace, ObservationEncoder
>>> rules = cr.english(4)
>>> space = ActionSpace(rules)
>>> state = cr.deal(rules, seed=1)
>>> seen = state.observe(0)
>>> index = space.encode(cr.Play("A♥ 2♣", "A"))
>>> space.decode(index, seen)
Play(A♥ 2♣ as A)
>>> mask = space.mask(seen)
>>> sum(mask) == len(state.legal_actions()), mask[index]
(True, True)
>>> vector = ObservationEncoder(rules).encode(seen)
>>> len(vector) == ObservationEncoder(rules).size
True

The vector is a list of floats; :meth:`ObservationEncoder.array` gives a
``numpy`` array when numpy is installed.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from cheatrules import _checks
from cheatrules.actions import Accept, Action, Challenge, Discard, Pass, Play, Refuse
from cheatrules.cards import Card, Rank
from cheatrules.errors import CheatRulesError, RulesError
from cheatrules.observation import Observation
from cheatrules.policies.declarations import declared
from cheatrules.rules import Rules
from cheatrules.table import Phase

__all__ = ["ActionSpace", "EncodingError", "ObservationEncoder"]


class EncodingError(CheatRulesError, ValueError):
    """An index or action outside the action space, or one the observing seat cannot take."""


def _multisets(
    ranks: tuple[Rank, ...], sizes: range, copies: dict[Rank, int]
) -> list[tuple[Rank, ...]]:
    found = []
    for size in sizes:
        for choice in itertools.combinations_with_replacement(ranks, size):
            if all(count <= copies[rank] for rank, count in Counter(choice).items()):
                found.append(choice)
    return found


# The decisions beside plays and discards, numbered after the plays when the rules offer them.
_EXTRAS: tuple[tuple[str, Action], ...] = (
    ("challenge-earlier", Challenge(earlier=True)),
    ("pass", Pass()),
    ("refuse", Refuse()),
)


def _is_rules(instance: object, attribute: Any, value: Any) -> None:
    if not isinstance(value, Rules):
        raise RulesError(
            f"{type(instance).__name__}.{attribute.name} must be a Rules value such as "
            f"cheatrules.english(4); got {value!r}"
        )


@attrs.frozen
class ActionSpace:
    """Every decision the rules allow, numbered ``0 .. size-1``.

    The layout: ``0`` is :class:`~cheatrules.Challenge`, ``1`` is
    :class:`~cheatrules.Accept`; then one index per choice of fours to
    discard (when the rules offer discards; the empty choice first); then one
    index per play: each multiset of ranks laid (1 card up to the largest
    claim, since a hand smaller than the smallest claim lays all it holds; in
    the order of ``itertools.combinations_with_replacement``; jokers count as
    a rank laid when the deck has them) times each rank announced; then, when
    the rules offer them, ``Challenge(earlier=True)``, ``Pass()`` and
    ``Refuse()``, in that order.
    """

    #: The rules whose actions are numbered.
    rules: Rules = attrs.field(validator=_is_rules)
    _ranks: tuple[Rank, ...] = attrs.field(init=False)
    _discards: tuple[tuple[Rank, ...], ...] = attrs.field(init=False)
    _laid: tuple[tuple[Rank, ...], ...] = attrs.field(init=False)
    _extras: tuple[Action, ...] = attrs.field(init=False)
    _index: dict[Any, int] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        deck = self.rules.deck
        ranks = deck.ranks
        copies = deck.copies(ranks[0])
        discards: list[tuple[Rank, ...]] = []
        if declared(self.rules.discards, "sets_fours_aside"):
            fours_per_rank = copies // 4
            # How many fours of each rank: 0 to fours_per_rank, every combination.
            discards = sorted(
                (
                    tuple(
                        rank
                        for rank, fours in zip(ranks, counts, strict=True)
                        for _ in range(fours)
                    )
                    for counts in itertools.product(range(fours_per_rank + 1), repeat=len(ranks))
                ),
                key=lambda choice: (len(choice), choice),
            )
        claims = self.rules.claims
        laid_ranks = ranks + ((Rank.JOKER,) if deck.copies(Rank.JOKER) else ())
        held = {rank: deck.copies(rank) for rank in laid_ranks}
        # From one card: a hand smaller than the smallest claim lays all it holds.
        laid = _multisets(laid_ranks, range(1, claims.maximum + 1), held)
        passing = self.rules.passing
        offered = {
            "challenge-earlier": self.rules.window.extended,
            "pass": declared(passing, "offers_pass"),
            "refuse": passing.consent,
        }
        extras = tuple(action for name, action in _EXTRAS if offered[name])
        index: dict[Any, int] = {"challenge": 0, "accept": 1}
        for offset, choice in enumerate(discards):
            index[("discard", choice)] = 2 + offset
        start = 2 + len(discards)
        for offset, choice in enumerate(laid):
            for position, rank in enumerate(ranks):
                index[("play", choice, rank)] = start + offset * len(ranks) + position
        start += len(laid) * len(ranks)
        for offset, action in enumerate(extras):
            index[action] = start + offset
        object.__setattr__(self, "_extras", extras)
        object.__setattr__(self, "_ranks", ranks)
        object.__setattr__(self, "_discards", tuple(discards))
        object.__setattr__(self, "_laid", tuple(laid))
        object.__setattr__(self, "_index", index)

    @property
    def size(self) -> int:
        """How many indices there are."""
        return 2 + len(self._discards) + len(self._laid) * len(self._ranks) + len(self._extras)

    def encode(self, action: Action) -> int:
        """The index of ``action`` (suits ignored: only ranks matter).

        Raises:
            EncodingError: the action has no index under these rules.

        """
        if isinstance(action, (Pass, Refuse)) or action == Challenge(earlier=True):
            key: Any = action
        elif isinstance(action, Challenge):
            key = "challenge"
        elif isinstance(action, Accept):
            key = "accept"
        elif isinstance(action, Discard):
            key = ("discard", action.ranks)
        elif isinstance(action, Play):
            key = ("play", tuple(sorted(card.rank for card in action.cards)), action.rank)
        else:
            raise EncodingError(f"{action!r} is not an action")
        found = self._index.get(key)
        if found is None:
            raise EncodingError(f"{action} has no index in the action space of these rules")
        return found

    def decode(self, index: int, observation: Observation) -> Action:
        """The action at ``index``, with the lowest cards of each rank from the seat's hand.

        Raises:
            EncodingError: ``index`` is outside the space, or the seat does not
                hold the cards the play lays.

        """
        index = _checks.whole_number(index, "index", 0, self.size - 1, EncodingError)
        if index == 0:
            return Challenge()
        if index == 1:
            return Accept()
        index -= 2
        if index < len(self._discards):
            return Discard(self._discards[index])
        index -= len(self._discards)
        plays = len(self._laid) * len(self._ranks)
        if index >= plays:
            return self._extras[index - plays]
        choice = self._laid[index // len(self._ranks)]
        rank = self._ranks[index % len(self._ranks)]
        hand = list(observation.hand)
        laid: list[Card] = []
        for wanted in choice:
            card = next((card for card in hand if card.rank is wanted), None)
            if card is None:
                raise EncodingError(
                    f"seat {observation.seat} holds no {wanted} for the play at index "
                    f"{index + 2 + len(self._discards)}"
                )
            hand.remove(card)
            laid.append(card)
        return Play(tuple(laid), rank)

    def mask(self, observation: Observation) -> list[bool]:
        """For each index, whether it is a legal decision for the observing seat now."""
        legal = [False] * self.size
        for action in observation.legal_actions():
            legal[self.encode(action)] = True
        return legal

    def legal_indices(self, observation: Observation) -> list[int]:
        """The indices of the seat's legal decisions, in ascending order."""
        return sorted(self.encode(action) for action in observation.legal_actions())


_PHASES = (Phase.PLAY, Phase.CHALLENGE, Phase.DISCARD, Phase.CONSENT, Phase.OVER)


@attrs.frozen
class ObservationEncoder:
    """An observation as a flat list of numbers, with a fixed, documented layout.

    The sections, in order (``P`` seats, ``R`` ranks of the deck, ``C``
    distinct cards of the deck):

    ========================  ======  ==========================================
    name                      length  content
    ========================  ======  ==========================================
    ``seat``                  P       one-hot: the observing seat
    ``to_move``               P       one-hot: the seat to decide (zeros once over)
    ``phase``                 5       one-hot: play, challenge, discard, consent, over
    ``hand``                  C       copies of each card in the seat's hand
    ``hand_sizes``            P       each seat's number of cards
    ``active``                P       1 for each seat still in the game
    ``pile_size``             1       cards on the table
    ``groups``                1       groups on the table
    ``claim_seat``            P       one-hot: who made the last claim
    ``claim_count``           1       how many cards the last claim holds
    ``claim_rank``            R       one-hot: the rank the last claim announced
    ``allowed_ranks``         R       1 for each rank the next play may announce
    ``discarded``             R       cards of each rank set aside in fours
    ``offered``               R       fours of each rank the seat may discard now
    ``set_aside``             1       cards set aside unseen at the deal
    ``stock``                 1       cards left in the stock
    ========================  ======  ==========================================

    ``C`` counts jokers when the deck has them.
    """

    #: The rules whose observations are encoded.
    rules: Rules = attrs.field(validator=_is_rules)

    @property
    def layout(self) -> tuple[tuple[str, int, int], ...]:
        """Each section as ``(name, start, length)``."""
        players = self.rules.players
        ranks = len(self.rules.deck.ranks)
        cards = len(set(self.rules.deck.cards()))
        lengths = [
            ("seat", players), ("to_move", players), ("phase", 5), ("hand", cards),
            ("hand_sizes", players), ("active", players), ("pile_size", 1), ("groups", 1),
            ("claim_seat", players), ("claim_count", 1), ("claim_rank", ranks),
            ("allowed_ranks", ranks), ("discarded", ranks), ("offered", ranks), ("set_aside", 1),
            ("stock", 1),
        ]  # fmt: skip
        layout = []
        start = 0
        for name, length in lengths:
            layout.append((name, start, length))
            start += length
        return tuple(layout)

    @property
    def size(self) -> int:
        """The length of every vector."""
        _, start, length = self.layout[-1]
        return start + length

    def section(self, vector: Sequence[float], name: str) -> list[float]:
        """The part of ``vector`` named ``name`` in :attr:`layout`."""
        for found, start, length in self.layout:
            if found == name:
                return list(vector[start : start + length])
        raise EncodingError(
            f"no section {name!r}; the sections are {[n for n, _, _ in self.layout]}"
        )

    def encode(self, observation: Observation) -> list[float]:
        """The observation as a list of ``size`` floats."""
        players = self.rules.players
        ranks = self.rules.deck.ranks
        cards = sorted(set(self.rules.deck.cards()))

        def one_hot(length: int, position: int | None) -> list[float]:
            return [1.0 if index == position else 0.0 for index in range(length)]

        def per_rank(counts: Counter[Rank]) -> list[float]:
            return [float(counts[rank]) for rank in ranks]

        held = Counter(observation.hand)
        claim = observation.last_claim
        vector: list[float] = []
        vector += one_hot(players, observation.seat)
        vector += one_hot(players, observation.to_move)
        vector += one_hot(len(_PHASES), _PHASES.index(observation.phase))
        vector += [float(held[card]) for card in cards]
        vector += [float(size) for size in observation.hand_sizes]
        vector += [0.0 if seat in observation.finishing_order else 1.0 for seat in range(players)]
        vector += [float(observation.pile_size), float(len(observation.claims))]
        vector += one_hot(players, claim.seat if claim else None)
        vector += [float(claim.count) if claim else 0.0]
        vector += one_hot(len(ranks), ranks.index(claim.rank) if claim else None)
        vector += [1.0 if rank in observation.allowed_ranks else 0.0 for rank in ranks]
        vector += per_rank(Counter(card.rank for card in observation.discarded))
        vector += per_rank(Counter(observation.offered))
        vector += [float(observation.set_aside_count), float(observation.stock_size)]
        return vector

    def array(self, observation: Observation) -> Any:
        """The vector as a ``numpy`` array of float32 (numpy must be installed).

        Raises:
            ImportError: numpy is not installed.

        """
        import numpy  # an optional dependency: only this method needs it

        return numpy.asarray(self.encode(observation), dtype=numpy.float32)
