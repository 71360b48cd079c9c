"""Policies that speak for themselves: callers ask a policy's declarations, never probe it.

Each scenario is a house rule written by a user that the old code misjudged
by inspecting the policy's class or by calling it with invented inputs.
"""

from __future__ import annotations

import itertools
from typing import ClassVar

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules.cards import JOKER_SUITS, STANDARD_RANKS, Card, Rank
from cheatrules.encoding import ActionSpace
from cheatrules.policies import complete_fours, declared, proves
from cheatrules.realtime import settle_window
from cheatrules.rules import NAMED_POLICIES

from .budget import examples


@attrs.frozen
class KingsOnly:
    """A pass is allowed only when Kings are required."""

    consent: ClassVar[bool] = False

    def allows(self, rank: Rank | None, revealed: int, copies: int) -> bool:
        return rank is Rank.KING


@attrs.frozen
class WhenSeen:
    """A pass once every copy of the required rank was seen: all-revealed, written anew."""

    consent: ClassVar[bool] = False
    needs_single_rank: ClassVar[bool] = True

    def allows(self, rank: Rank | None, revealed: int, copies: int) -> bool:
        return rank is not None and revealed >= copies


@attrs.frozen
class KingsOnTurn:
    """Only a four of Kings may be set aside, at the holder's turn."""

    compulsory: ClassVar[bool] = False

    def after_pickup(self, hand: tuple[Card, ...]) -> tuple[Rank, ...] | None:
        return None

    def on_turn(self, hand: tuple[Card, ...]) -> tuple[Rank, ...]:
        return tuple(rank for rank in complete_fours(hand) if rank is Rank.KING)


@attrs.frozen
class LeftOnly:
    """Only the declarer's left neighbour may challenge."""

    on_turn: ClassVar[bool] = False
    extended: ClassVar[bool] = False

    def askers(self, seating: cr.Seating, declarer: int) -> tuple[int, ...]:
        return seating.others_clockwise(declarer)[:1]


def _encodes(rules: cr.Rules, state: cr.GameState, action: cr.Action) -> None:
    space = ActionSpace(rules)
    seen = state.observe(state.to_move)  # type: ignore[arg-type]
    index = space.encode(action)
    assert space.decode(index, seen) == action
    assert space.mask(seen)[index]


def test_a_pass_allowed_only_for_kings_has_an_index() -> None:
    # The old encoding probed allows(None, ...) and allows(2, ...), got False
    # twice, and left Pass out of the action space.
    rules = cr.english(3, passing=KingsOnly(), ranks=cr.policies.Ascending(start="K"))
    state = cr.deal(rules, seed=1)
    assert cr.Pass() in state.legal_actions()
    _encodes(rules, state, cr.Pass())


def test_a_four_of_kings_on_turn_has_an_index() -> None:
    # The old encoding probed on_turn with four 2s, got (), and numbered no discards.
    rules = cr.english(3, discards=KingsOnTurn())
    hands = ["K♣ K♦ K♥ K♠ A♣", "2♥ 3♣", "4♦ 5♣"]
    state = cr.deal(rules, hands=hands)
    discard = cr.Discard("K")
    assert state.is_legal(discard)
    _encodes(rules, state, discard)


def test_a_pass_rule_that_needs_one_rank_is_refused_beside_free_ranks() -> None:
    # The old check only knew WhenAllRevealed by its class.
    with pytest.raises(cr.RulesError, match=r"passing=.* and ranks=.* contradict"):
        cr.english(4, passing=WhenSeen(), ranks="free")
    assert cr.english(4, passing=WhenSeen(), ranks="hold").passing == WhenSeen()


def test_an_undeclared_rank_rule_keeps_working_with_all_revealed() -> None:
    @attrs.frozen
    class KingsFirst:
        def allowed(
            self, previous: Rank | None, table_empty: bool, ranks: tuple[Rank, ...]
        ) -> tuple[Rank, ...]:
            if previous is None:
                return (Rank.KING,)
            return cr.policies.Ascending().allowed(previous, table_empty, ranks)

    rules = cr.english(4, ranks=KingsFirst(), passing="all-revealed")
    assert cr.deal(rules, seed=1).required_rank is Rank.KING


def test_settle_window_asks_the_window_who_may_challenge() -> None:
    # The old helper let every opponent call, then silently dropped a call
    # from a seat the window never asks.
    rules = cr.english(4, window=LeftOnly())
    state = cr.deal(rules, hands=["A♣ 5♣", "2♥ 3♣", "A♦ 4♣", "3♥ 6♣"])
    state = state.apply(cr.Play("5♣", "A"))
    with pytest.raises(cr.IllegalActionError, match="seats 1"):
        settle_window(state, callers={2})
    after = settle_window(state, callers={1})
    assert after.events[-3] == cr.Challenged(seat=1, declarer=0, earlier=False)


def test_an_unknown_declaration_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown policy declaration 'shiny'"):
        declared(cr.policies.NoPassing(), "shiny")


def _named(family: str) -> list[object]:
    deck = cr.english(3).deck
    return [make(deck) for make in NAMED_POLICIES[family].values()]


@examples(60)
@given(
    previous=st.sampled_from(STANDARD_RANKS),
    revealed=st.integers(0, 8),
    copies=st.integers(1, 8),
    hand=st.lists(st.sampled_from(cr.english(3).deck.cards()), max_size=12),
)
def test_every_named_policy_keeps_its_declarations(
    previous: Rank, revealed: int, copies: int, hand: list[Card]
) -> None:
    for rule in _named("ranks"):
        if declared(rule, "names_one_rank"):
            assert len(rule.allowed(previous, False, STANDARD_RANKS)) == 1  # type: ignore[attr-defined]
    for rule in _named("passing"):
        if not declared(rule, "offers_pass"):
            for rank in (None, previous):
                assert not rule.allows(rank, revealed, copies)  # type: ignore[attr-defined]
        if declared(rule, "needs_single_rank"):
            assert not rule.allows(None, revealed, copies)  # type: ignore[attr-defined]
    held = tuple(hand)
    for rule in _named("discards"):
        if not declared(rule, "sets_fours_aside"):
            assert rule.after_pickup(held) is None  # type: ignore[attr-defined]
            assert rule.on_turn(held) == ()  # type: ignore[attr-defined]
        if not declared(rule, "asks_after_pickup"):
            # No discard phase: nothing offered after a pickup, or all set aside unasked.
            offered = rule.after_pickup(held)  # type: ignore[attr-defined]
            assert offered is None or rule.compulsory  # type: ignore[attr-defined]
    bluff = (*held, Card(Rank.JOKER, JOKER_SUITS[0]))
    for rule in _named("check"):
        if declared(rule, "jokers_protect"):
            assert proves(rule, bluff, previous)  # type: ignore[arg-type]
        elif any(card.rank is not previous for card in held):
            assert not proves(rule, bluff, previous)  # type: ignore[arg-type]


def test_every_built_in_policy_declares_rather_than_defaults() -> None:
    wanted = {
        "ranks": ("names_one_rank",),
        "passing": ("offers_pass", "needs_single_rank"),
        "discards": ("sets_fours_aside", "asks_after_pickup"),
        "check": ("jokers_protect",),
    }
    for family, names in wanted.items():
        for rule, name in itertools.product(_named(family), names):
            assert hasattr(rule, name), (rule, name)
