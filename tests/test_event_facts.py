"""The facts events carry: which groups a pickup took and kept, which places a check turned over.

Every reader of a log (view records, knowledge, the sampler, the encoders)
reads these facts instead of working out the pickup or the check again, so
a check of one's own, which turns over two cards or a card by its place,
is stated by the engine alone.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules.chance import Chance
from cheatrules.errors import RecordError
from cheatrules.events import PileTaken, Revealed, positions_in

from .budget import examples
from .strategies import option_combinations, play_randomly
from .test_policies_end_to_end import HighestCard, TwoCardsByChance


def test_a_pickup_says_how_many_groups_it_took() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ 2♦ 3♣ 4♣", "2♣ 5♦", "3♦ 6♦"])
    state = state.apply(cr.Play("A♣", "A")).apply(cr.Accept()).apply(cr.Accept())
    state = state.apply(cr.Play("5♦", "2")).apply(cr.Challenge())  # seat 2 calls seat 1's bluff
    taken = state.events[-1]
    assert taken == PileTaken(1, cr.cards("A♣ 5♦"), groups=2, kept=0)
    assert state.observe(0).events[-1] == PileTaken(1, (), 2, groups=2, kept=0)


def test_a_final_play_kept_apart_is_the_group_a_pickup_leaves() -> None:
    # An extended window: the claim beneath seat 1's final play is challenged;
    # the final play stays on the table, apart.
    rules = cr.english(3, window="extended")
    state = cr.deal(rules, hands=["A♦ 5♣ 6♣", "2♥", "Q♥ 8♣ 8♦"])
    state = state.apply(cr.Play("A♦", "A")).apply(cr.Accept()).apply(cr.Accept())
    state = state.apply(cr.Play("2♥", "2")).apply(cr.Challenge(earlier=True))
    assert state.events[-1] == PileTaken(2, cr.cards("A♦"), groups=1, kept=1)
    assert state.pile == cr.cards("2♥")


def test_a_whole_group_turned_over_names_every_place() -> None:
    state = cr.deal(cr.english(3), hands=["7♣ K♦ 2♠", "A♠", "A♥"])
    state = state.apply(cr.Play("7♣ K♦", "A")).apply(cr.Challenge())
    shown = state.events[-2]
    assert shown == Revealed(0, cr.cards("7♣ K♦"), cr.Rank.ACE, False, positions=(0, 1))
    assert not shown.drawn
    assert state.observe(1).events[-2] == shown  # the whole group: every seat sees every place


def test_two_cards_drawn_by_chance_are_named_by_their_places_for_the_declarer_alone() -> None:
    rules = cr.english(3).replace(check=TwoCardsByChance())
    state = cr.deal(rules, hands=["7♣ 9♦ K♦ 2♠", "A♠", "A♥"], seed=4)
    state = state.apply(cr.Play("7♣ 9♦ K♦", "A")).apply(cr.Challenge())
    shown = state.events[-2]
    assert isinstance(shown, Revealed) and shown.drawn and len(shown.cards) == 2
    group = cr.cards("7♣ 9♦ K♦")
    assert [group[place] for place in shown.positions] == list(shown.cards)
    assert state.observe(0).events[-2] == shown
    assert state.observe(1).events[-2] == attrs.evolve(shown, positions=())


def test_a_card_turned_over_by_its_place_is_named_by_that_place_for_everyone() -> None:
    rules = cr.english(3).replace(check=HighestCard())
    state = cr.deal(rules, hands=["7♣ 9♦ K♦ 2♠", "A♠", "A♥"])
    state = state.apply(cr.Play("9♦ 7♣ K♦", "A")).apply(cr.Challenge())
    shown = state.events[-2]
    assert shown == Revealed(0, cr.cards("K♦"), cr.Rank.ACE, False, positions=(2,))
    assert state.observe(1).events[-2] == shown


def test_a_check_that_turns_over_a_card_the_group_lacks_is_refused() -> None:
    @attrs.frozen
    class Elsewhere:
        def shown(self, cards: tuple[cr.Card, ...], chance: Chance) -> tuple[cr.Card, ...]:
            return cr.cards("Q♥")

    state = cr.deal(cr.english(3).replace(check=Elsewhere()), hands=["7♣ 2♠", "A♠", "A♥"])
    state = state.apply(cr.Play("7♣", "A"))
    with pytest.raises(cr.RulesError, match="turned over Q♥, which the challenged group"):
        state.apply(cr.Challenge())


def test_places_of_copies_are_the_first_free_ones() -> None:
    group = cr.cards("8♦ 8♦ K♣")
    assert positions_in(group, cr.cards("8♦ 8♦")) == (0, 1)
    assert positions_in(group, cr.cards("K♣ 8♦")) == (2, 0)
    with pytest.raises(cr.RulesError):
        positions_in(group, cr.cards("8♦ 8♦ 8♦"))


@pytest.mark.parametrize("check", [TwoCardsByChance(), HighestCard()])
def test_a_check_of_one_s_own_is_written_and_read_back_in_every_seat_s_view(
    check: object,
) -> None:
    rules = cr.english(4).replace(check=check)
    for state in play_randomly(cr.deal(rules, seed=11), 11, limit=400)[::20]:
        for seat in range(4):
            seen = state.observe(seat)
            assert cr.loads_view(cr.dumps(seen)) == seen


def _a_view_after_a_challenge(rules: cr.Rules, seed: int) -> tuple[cr.GameState, int]:
    states = play_randomly(cr.deal(rules, seed=seed), seed, limit=2000)
    for state in states:
        if isinstance(state.events[-1], PileTaken):
            return state, len(state.events) - 1
    raise AssertionError("no challenge in the game")


def _tampered(text: str, index: int, field: str, value: object) -> str:
    import json

    record = json.loads(text)
    record["view"]["events"][index][field] = value
    return json.dumps(record, ensure_ascii=False)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("groups", 99, "groups and kept must add up to the number of groups on the table, 1"),
        ("kept", 1, "groups and kept must add up to the number of groups on the table, 1"),
    ],
)
def test_a_view_record_whose_pickup_misstates_its_groups_is_refused(
    field: str, value: int, message: str
) -> None:
    state, index = _a_view_after_a_challenge(cr.english(3), 2)
    text = _tampered(cr.dumps(state, seat=0), index, field, value)
    with pytest.raises(RecordError, match=message):
        cr.loads_view(text)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([0], "one place of the group for each card shown"),
        ([0, 0], "one place of the group for each card shown"),
        ([5, 0], "must be places of the group"),
    ],
)
def test_a_view_record_whose_reveal_misplaces_its_cards_is_refused(
    value: list[int], message: str
) -> None:
    state = cr.deal(cr.english(3), hands=["7♣ K♦ 2♠", "A♠", "A♥"])
    state = state.apply(cr.Play("7♣ K♦", "A")).apply(cr.Challenge())
    index = len(state.events) - 2
    text = _tampered(cr.dumps(state, seat=1), index, "positions", value)
    with pytest.raises(RecordError, match=message):
        cr.loads_view(text)


def test_a_view_record_showing_places_chance_chose_in_another_seat_s_group_is_refused() -> None:
    rules = cr.english(3, check="one-card")
    state = cr.deal(rules, hands=["7♣ K♦ 2♠", "A♠", "A♥"], seed=1)
    state = state.apply(cr.Play("7♣ K♦", "A")).apply(cr.Challenge())
    index = len(state.events) - 2
    text = _tampered(cr.dumps(state, seat=1), index, "positions", [0])
    with pytest.raises(RecordError, match="places chance chose in another seat's group"):
        cr.loads_view(text)


def test_a_version_1_view_record_gets_the_facts_worked_out() -> None:
    import json

    rules = cr.english(3, check="one-card", window="extended")
    state, _ = _a_view_after_a_challenge(rules, 5)
    for seat in range(3):
        record = json.loads(cr.dumps(state, seat=seat))
        record["version"] = 1
        for event in record["view"]["events"]:
            for field in ("positions", "drawn", "groups", "kept"):
                event.pop(field, None)
        assert cr.loads_view(json.dumps(record, ensure_ascii=False)) == state.observe(seat)


@examples(40)
@given(option_combinations(), st.integers(0, 2**32))
def test_the_facts_are_what_the_table_shows(rules: cr.Rules, seed: int) -> None:
    rng = random.Random(seed)
    state = cr.deal(rules, seed=seed)
    for _ in range(rng.randrange(50, 400)):
        if state.is_over:
            break
        before = state
        state = state.apply(before.legal_actions().choice(rng))
        fresh = state.events[len(before.events) :]
        if not any(isinstance(event, PileTaken) for event in fresh):
            continue
        shown = next(event for event in fresh if isinstance(event, Revealed))
        taken = next(event for event in fresh if isinstance(event, PileTaken))
        groups = before.groups
        group = groups[-2 if shown.earlier else -1][1]
        assert [group[place] for place in shown.positions] == list(shown.cards)
        assert taken.groups + taken.kept == len(groups) and taken.kept in (0, 1)
        assert sum(len(laid) for _, laid in groups[: taken.groups]) == taken.count
        for seat in range(state.players):
            seen = next(
                event
                for event in state.observe(seat).events[len(before.events) :]
                if isinstance(event, Revealed)
            )
            hidden = shown.drawn and seat != shown.seat
            assert seen == (attrs.evolve(shown, positions=()) if hidden else shown)


def test_a_scripted_draw_turns_over_every_card_it_names_and_records_write_it() -> None:
    # A sampled game is scripted to turn over what its seat saw: under a check
    # of two cards, two pairs at one moment.
    rules = cr.english(3).replace(check=TwoCardsByChance())
    state = cr.deal(rules, hands=["7♣ 9♦ K♦ 2♠", "A♠", "A♥"], seed=4)
    state = state.apply(cr.Play("7♣ 9♦ K♦", "A"))
    moment = len(state.events)
    scripted = attrs.evolve(
        state, draws=((moment, cr.Card.parse("K♦")), (moment, cr.Card.parse("7♣")))
    )
    after = scripted.apply(cr.Challenge())
    shown = after.events[-2]
    assert shown == Revealed(0, cr.cards("K♦ 7♣"), cr.Rank.ACE, False, positions=(2, 0), drawn=True)
    assert cr.loads(cr.dumps(after)) == after
    with pytest.raises(cr.RulesError, match="scripted to turn over Q♥"):
        attrs.evolve(state, draws=((moment, cr.Card.parse("Q♥")),)).apply(cr.Challenge())


def test_the_kinds_of_event_are_every_event_class() -> None:
    assert set(cr.events.KINDS) == set(cr.events.Event.__subclasses__())
    assert len(set(cr.events.KINDS)) == len(cr.events.KINDS)
