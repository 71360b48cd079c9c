"""An independent, deliberately naive model of English Cheat (docs/rules/english.md).

It shares no code with the engine: cards are plain ``(rank, suit)`` pairs,
hands are lists, legal plays are found by brute force over subsets of the
hand. Tests play the same actions through both and compare, so a mistake in
the engine's optimised code shows up as a disagreement.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

Card = tuple[int, int]  # (rank 1..13, suit 0..3)


@dataclass
class ReferenceCheat:
    hands: list[list[Card]]
    dealer: int
    pile: list[tuple[int, list[Card], int]] = field(default_factory=list)  # (seat, cards, rank)
    rank: int = 1  # the rank the next play must announce
    to_move: int | None = None
    phase: str = "play"
    asked: list[int] = field(default_factory=list)
    winner: int | None = None

    def __post_init__(self) -> None:
        self.players = len(self.hands)
        self.to_move = (self.dealer + 1) % self.players
        for hand in self.hands:
            hand.sort()

    def legal(self) -> list[tuple[str, tuple[int, ...], int]]:
        """Every legal decision as (kind, sorted ranks laid, announced rank)."""
        if self.phase == "over":
            return []
        if self.phase == "window":
            return [("challenge", (), 0), ("accept", (), 0)]
        hand = self.hands[self.to_move]  # type: ignore[index]
        found = set()
        for size in range(1, min(4, len(hand)) + 1):
            for chosen in itertools.combinations(hand, size):
                found.add(tuple(sorted(card[0] for card in chosen)))
        return [("play", ranks, self.rank) for ranks in sorted(found, key=lambda r: (len(r), r))]

    def play(self, cards: list[Card], rank: int) -> None:
        assert self.phase == "play" and rank == self.rank and 1 <= len(cards) <= 4
        hand = self.hands[self.to_move]  # type: ignore[index]
        for card in cards:
            hand.remove(card)
        self.pile.append((self.to_move, sorted(cards), rank))  # type: ignore[arg-type]
        declarer = self.to_move
        self.asked = [(declarer + step) % self.players for step in range(1, self.players)]  # type: ignore[operator]
        self.phase = "window"
        self.to_move = self.asked.pop(0)
        self.rank = rank % 13 + 1

    def accept(self) -> None:
        assert self.phase == "window"
        if self.asked:
            self.to_move = self.asked.pop(0)
            return
        declarer = self.pile[-1][0]
        if not self.hands[declarer]:
            self.winner, self.phase, self.to_move = declarer, "over", None
            return
        self.phase, self.to_move = "play", (declarer + 1) % self.players

    def challenge(self) -> None:
        assert self.phase == "window"
        challenger = self.to_move
        declarer, cards, rank = self.pile[-1]
        truthful = all(card[0] == rank for card in cards)
        taker = challenger if truthful else declarer
        for _, laid, _ in self.pile:
            self.hands[taker].extend(laid)  # type: ignore[index]
        self.hands[taker].sort()  # type: ignore[index]
        self.pile = []
        self.asked = []
        if truthful and not self.hands[declarer]:
            self.winner, self.phase, self.to_move = declarer, "over", None
            return
        self.phase, self.to_move = "play", (declarer + 1) % self.players

    @property
    def pile_cards(self) -> list[Card]:
        return [card for _, laid, _ in self.pile for card in laid]


@dataclass
class ReferenceVerish:
    """Verish' Ne Verish' (docs/rules/verish.md), naively: lists, brute force, no sharing with the engine."""

    hands: list[list[Card]]
    dealer: int
    ranks: tuple[int, ...]  # the ranks of the pack in use
    pile: list[tuple[int, list[Card], int]] = field(default_factory=list)
    rank: int | None = None  # the round's rank; None when a round opens
    to_move: int | None = None
    phase: str = "play"
    out: list[int] = field(default_factory=list)
    waiting: int | None = None  # an empty-handed declarer awaiting the next decision
    opener: int | None = None  # who opens once the discard is decided
    offered: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.players = len(self.hands)
        self.to_move = (self.dealer + 1) % self.players
        for hand in self.hands:
            hand.sort()

    def after(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if candidate not in self.out:
                return candidate
        raise AssertionError("nobody left")

    def legal(self) -> list[tuple[str, tuple[int, ...], int]]:
        if self.phase == "over":
            return []
        if self.phase == "discard":
            found: set[tuple[int, ...]] = set()
            for size in range(len(self.offered) + 1):
                found.update(itertools.combinations(self.offered, size))
            return [("discard", choice, 0) for choice in sorted(found)]
        moves: list[tuple[str, tuple[int, ...], int]] = []
        if self.pile:
            moves.append(("challenge", (), 0))
        hand = self.hands[self.to_move]  # type: ignore[index]
        found = set()
        for size in range(1, min(3, len(hand)) + 1):
            for chosen in itertools.combinations(hand, size):
                found.add(tuple(sorted(card[0] for card in chosen)))
        announced = self.ranks if self.rank is None else (self.rank,)
        moves += [("play", laid, rank) for laid in found for rank in announced]
        return moves

    def leave(self, seat: int) -> bool:
        self.out.append(seat)
        if self.players - len(self.out) == 1:
            self.phase, self.to_move = "over", None
            return True
        return False

    def play(self, cards: list[Card], rank: int) -> None:
        seat = self.to_move
        assert self.phase == "play" and (self.rank is None or rank == self.rank)
        for card in cards:
            self.hands[seat].remove(card)  # type: ignore[index]
        self.pile.append((seat, sorted(cards), rank))  # type: ignore[arg-type]
        self.rank = rank
        if self.waiting is not None and self.leave(self.waiting):
            return
        self.waiting = seat if not self.hands[seat] else None  # type: ignore[index]
        self.to_move = self.after(seat)  # type: ignore[arg-type]

    def challenge(self) -> None:
        challenger = self.to_move
        declarer, cards, rank = self.pile[-1]
        truthful = all(card[0] == rank for card in cards)
        taker = challenger if truthful else declarer
        for _, laid, _ in self.pile:
            self.hands[taker].extend(laid)  # type: ignore[index]
        self.hands[taker].sort()  # type: ignore[index]
        self.pile, self.rank = [], None
        if truthful and self.waiting == declarer and self.leave(declarer):
            return
        self.waiting = None
        self.opener = self.after(challenger) if truthful else challenger  # type: ignore[arg-type]
        counts = [card[0] for card in self.hands[taker]]  # type: ignore[index]
        self.offered = sorted(r for r in set(counts) for _ in range(counts.count(r) // 4))
        # The taker is asked every time, fours or not, so asking gives nothing away.
        self.phase, self.to_move = "discard", taker

    def discard(self, ranks: tuple[int, ...]) -> None:
        seat = self.to_move
        hand = self.hands[seat]  # type: ignore[index]
        for rank in ranks:
            for card in [card for card in hand if card[0] == rank][:4]:
                hand.remove(card)
        if not hand and self.leave(seat):  # type: ignore[arg-type]
            return
        opener = self.opener
        self.phase = "play"
        self.to_move = opener if opener not in self.out else self.after(opener)

    @property
    def pile_cards(self) -> list[Card]:
        return [card for _, laid, _ in self.pile for card in laid]
