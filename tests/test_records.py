"""Records: games written as JSON replay exactly; anything else is a clear RecordError."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr

from .budget import examples
from .strategies import deals, json_paths, play_randomly

FIXED = cr.deal(cr.english(3), hands=["A♣ 7♦", "2♥ K♣", "3♠ 9♥"])
GAME = FIXED.apply(cr.Play("7♦", "A")).apply(cr.Challenge()).apply(cr.Play("2♥", "2"))
TEXT = cr.dumps(GAME)


@examples(40)
@given(deals(), st.integers(0, 2**32), st.data())
def test_records_round_trip(state: cr.GameState, seed: int, data: st.DataObject) -> None:
    states = play_randomly(state, seed, limit=300)
    chosen = states[data.draw(st.integers(0, len(states) - 1))]
    text = cr.dumps(chosen)
    loaded = cr.loads(text)
    assert loaded == chosen
    assert loaded.events == chosen.events
    assert cr.dumps(loaded) == text
    assert cr.loads(text.encode("utf-8")) == chosen


@examples(40)
@given(deals(), st.integers(0, 2**32), st.data())
def test_a_seats_view_round_trips_as_its_observation(
    state: cr.GameState, seed: int, data: st.DataObject
) -> None:
    final = play_randomly(state, seed, limit=200)[-1]
    seat = data.draw(st.integers(0, final.players - 1))
    view = cr.dumps(final, seat=seat)
    assert cr.loads_view(view) == final.observe(seat)
    assert cr.dumps(final.observe(seat)) == view  # the observation alone writes the same view
    with pytest.raises(cr.RecordError, match="one seat's view; read it with loads_view"):
        cr.loads(view)


def test_a_seeded_game_records_its_seed_not_its_hands() -> None:
    record = json.loads(cr.dumps(cr.deal(cr.verish(4), seed=99)))
    assert record["deal"] == {"dealer": 3, "seed": 99}
    assert record["rules"]["game"] == "verish"
    assert record["rules"]["policies"]["dealing"] == {
        "type": "Dealing",
        "set_aside": 1,
        "hand_size": None,
        "draws": 1,
    }


def test_a_fixed_deal_records_its_hands_and_hidden_card() -> None:
    state = cr.deal(cr.verish(2), hands=["6♣", "7♣ 8♣"], hidden="A♠")
    record = json.loads(cr.dumps(state))
    assert record["deal"] == {"dealer": 1, "seed": None, "hands": ["6♣", "7♣ 8♣"], "hidden": "A♠"}
    assert cr.loads(cr.dumps(state)).set_aside == cr.cards("A♠")


def test_actions_are_written_as_words() -> None:
    assert json.loads(TEXT)["actions"] == ["play 7♦ as A", "challenge", "play 2♥ as 2"]


def test_a_discard_is_written_and_read() -> None:
    state = cr.deal(cr.verish(3), hands=["Q♠ 6♣", "Q♣ Q♦ Q♥ 9♣", "10♣ J♣"], hidden="A♠")
    state = state.apply(cr.Play("Q♠", "Q")).apply(cr.Challenge()).apply(cr.Discard("Q"))
    assert json.loads(cr.dumps(state))["actions"][-1] == "discard Q"
    assert cr.loads(cr.dumps(state)) == state


def mutate(path: list[Any], value: Any) -> str:
    record = json.loads(TEXT)
    target = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(record, ensure_ascii=False)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "a record must be JSON"),
        ("{", "a record must be JSON"),
        (TEXT[: len(TEXT) // 2], "a record must be JSON"),
        ("[1, 2]", "a record must be a JSON object"),
        ('{"format": "pgn"}', "not a cheatrules record: format is 'pgn'"),
        (mutate(["version"], 3), "unknown record version 3; this library reads versions 1 and 2"),
        (mutate(["version"], "1"), "unknown record version '1'"),
        (mutate(["rules", "game"], "poker"), "unknown game 'poker'; known: english, verish"),
        (mutate(["rules", "players"], "3"), "rules.players must be int; got '3'"),
        (
            mutate(["rules", "players"], 1),
            "rules: English Cheat is played by 3 to 10 players; got 1",
        ),
        (
            mutate(["rules", "policies", "ranks", "type"], "Sideways"),
            "unknown policy type 'Sideways'",
        ),
        (
            mutate(["rules", "policies", "ranks", "start"], "Z"),
            "rules.policies.ranks.start: unknown rank 'Z'",
        ),
        (mutate(["rules", "policies", "ranks", "speed"], 3), "unknown setting speed for Ascending"),
        (mutate(["rules", "policies", "colour"], {}), "unknown family colour"),
        (
            mutate(["rules", "policies", "claims", "maximum"], [1]),
            "claims: ClaimSize.maximum must be a whole number",
        ),
        (mutate(["deal", "dealer"], 7), "deal: dealer must be a seat from 0 to 2; got 7"),
        (
            mutate(["deal", "hands"], ["A♣ A♣", "2♥", "3♠"]),
            "deal: the hands, hidden cards and stock hold A♣ 2",
        ),
        (mutate(["deal", "hands"], ["A♣", "2♥"]), "one hand per seat: 3 hands; got 2"),
        (
            mutate(["deal", "hands"], [1, 2, 3]),
            "deal.hands, deal.hidden and deal.stock must hold card text",
        ),
        (mutate(["deal", "seed"], "x"), "deal.seed must be a whole number or null"),
        (mutate(["actions", 0], "play 7♦ as 9"), r"actions\[0\] \(play 7♦ as 9\): illegal action"),
        (mutate(["actions", 2], "accept"), r"actions\[2\] \(accept\): illegal action Accept\(\)"),
        (mutate(["actions", 0], "fold"), r"actions\[0\]: cannot read 'fold'"),
        (mutate(["actions", 0], "play Zz as A"), r"actions\[0\]: cannot read 'Zz'"),
        (mutate(["actions", 0], 7), r"actions\[0\] must be text"),
        (mutate(["actions"], "all"), "record.actions must be list"),
    ],
)
def test_a_bad_record_is_refused_naming_the_problem(text: str, message: str) -> None:
    with pytest.raises(cr.RecordError, match=message) as caught:
        cr.loads(text)
    assert isinstance(caught.value, ValueError)


def test_loads_refuses_what_is_not_text() -> None:
    with pytest.raises(cr.RecordError, match="must be JSON text; got int"):
        cr.loads(7)  # type: ignore[arg-type]
    with pytest.raises(cr.RecordError, match="must be UTF-8 text"):
        cr.loads(b"\xff\xfe")


def test_a_deeply_nested_record_is_refused() -> None:
    with pytest.raises(cr.RecordError, match="a record must be JSON"):
        cr.loads("[" * 100_000 + "]" * 100_000)


@attrs.frozen
class KingsFirst:
    def allowed(
        self, previous: cr.Rank | None, table_empty: bool, ranks: tuple[cr.Rank, ...]
    ) -> tuple[cr.Rank, ...]:
        if previous is None:
            return (cr.Rank.KING,)
        return cr.policies.Ascending().allowed(previous, table_empty, ranks)


def test_a_policy_of_your_own_needs_registering_to_be_recorded() -> None:
    state = cr.deal(cr.english(3, ranks=KingsFirst()), seed=1)
    with pytest.raises(
        cr.RecordError, match=r"register it first with cheatrules.register_policy\(KingsFirst\)"
    ):
        cr.dumps(state)
    cr.register_policy(KingsFirst)
    assert cr.loads(cr.dumps(state)) == state
    with pytest.raises(cr.RecordError, match="registered already"):
        cr.register_policy(cr.policies.Ascending, name="KingsFirst")
    with pytest.raises(cr.RecordError, match="only attrs classes"):
        cr.register_policy(int)


# -- fuzzing: mutated records raise only RecordError ------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=8,
)


def load_or_refuse(text: str) -> None:
    try:
        state = cr.loads(text)
    except cr.RecordError:
        return
    assert isinstance(state, cr.GameState)


def mutated(record: Any, data: st.DataObject) -> str:
    """The record with one value, somewhere in it, replaced by random JSON or removed."""
    path = data.draw(st.sampled_from(json_paths(record)))
    target = record
    for key in path[:-1]:
        target = target[key]
    if data.draw(st.booleans()) and isinstance(target, dict):
        del target[path[-1]]
    else:
        target[path[-1]] = data.draw(json_values)
    return json.dumps(record, ensure_ascii=False)


@examples(300)
@given(st.data())
def test_fuzzed_json_values_raise_only_record_errors(data: st.DataObject) -> None:
    load_or_refuse(mutated(json.loads(TEXT), data))


@examples(300)
@given(st.data())
def test_fuzzed_text_raises_only_record_errors(data: st.DataObject) -> None:
    text = TEXT
    for _ in range(data.draw(st.integers(1, 4))):
        position = data.draw(st.integers(0, len(text)))
        kind = data.draw(st.sampled_from(["delete", "insert", "replace", "truncate"]))
        piece = data.draw(st.text(min_size=1, max_size=3))
        if kind == "delete":
            text = text[:position] + text[position + 1 :]
        elif kind == "insert":
            text = text[:position] + piece + text[position:]
        elif kind == "replace":
            text = text[:position] + piece + text[position + len(piece) :]
        else:
            text = text[:position]
    load_or_refuse(text)


@examples(200)
@given(st.data())
def test_fuzzed_views_raise_only_record_errors(data: st.DataObject) -> None:
    with contextlib.suppress(cr.RecordError):
        seen = cr.loads_view(mutated(json.loads(cr.dumps(GAME, seat=1)), data))
        assert isinstance(seen, cr.Observation)


def test_a_custom_rules_name_round_trips() -> None:
    state = cr.deal(cr.Rules(players=3, name="house rules"), seed=2)
    record = json.loads(cr.dumps(state))
    assert (record["rules"]["game"], record["rules"]["name"]) == ("custom", "house rules")
    assert cr.loads(cr.dumps(state)).rules.name == "house rules"
    assert cr.loads_view(cr.dumps(state, seat=1)) == state.observe(1)


@attrs.frozen
class NamedRanks:
    """A registered policy whose settings are ranks and tuples of ranks."""

    start: cr.Rank = cr.Rank.SEVEN
    skip: tuple[cr.Rank, ...] = (cr.Rank.TWO, cr.Rank.KING)

    def allowed(
        self, previous: cr.Rank | None, table_empty: bool, ranks: tuple[cr.Rank, ...]
    ) -> tuple[cr.Rank, ...]:
        return (self.start,)


def test_registered_policies_with_ranks_round_trip() -> None:
    cr.register_policy(NamedRanks)
    state = cr.deal(cr.english(3, ranks=NamedRanks()), seed=4)
    loaded = cr.loads(cr.dumps(state))
    assert loaded == state
    assert loaded.rules.ranks == NamedRanks()


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (
            ["rules", "policies", "deck", "packs"],
            100_000,
            "Deck.packs must be a whole number from 1 to 8",
        ),
        (["rules", "players"], 10_000, "played by 3 to 10 players; got 10000"),
        (["rules", "players"], 2, "played by 3 to 10 players; got 2"),
        (
            ["rules", "policies", "claims", "maximum"],
            10**23,
            r"rules: a claim size's maximum \(100000000000000000000000\) is above the 52 cards",
        ),
    ],
)
def test_records_cannot_ask_for_huge_games(path: list[Any], value: Any, message: str) -> None:
    with pytest.raises(cr.RecordError, match=message):
        cr.loads(mutate(path, value))


def view_with(path: list[Any], value: Any) -> str:
    record = json.loads(cr.dumps(GAME, seat=1))
    target = record["view"]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(record, ensure_ascii=False)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["seat"], 7, "view.seat: seat 7 is not at a table of 3"),
        (["seat"], -1, "view.seat: seat -1 is not at a table of 3"),
        (["hand_sizes"], [1, 1], "view.hand_sizes must give 3 sizes"),
        (["hand"], "2♥ 2♥", "view.hand holds 2 cards; hand_sizes says 1"),
        (["discarded"], "Q♠ Q♠", "Q♠ 2 times, but the deck has 1 copy"),
        (["events"], [], "view.events must start with the deal"),
        (["phase"], "over", "view.outcome must be given exactly when the phase is over"),
        (["to_move"], "x", "view.to_move must be a seat number or null; got 'x'"),
        (["to_move"], True, "view.to_move must be a seat number or null; got True"),
        (["events", 1, "colour"], "red", r"view.events\[1\]: Played has no field colour"),
        (["events", 0, "hands"], 5, r"view.events\[0\]: Dealt.hands"),
    ],
)
def test_a_bad_view_is_refused_naming_the_field(path: list[Any], value: Any, message: str) -> None:
    with pytest.raises(cr.RecordError, match=message):
        cr.loads_view(view_with(path, value))


def edited(state: cr.GameState, change: Any) -> str:
    record = json.loads(cr.dumps(state))
    change(record["rules"])
    return json.dumps(record)


def test_a_record_of_a_named_game_passes_that_games_player_and_deck_checks() -> None:
    english = cr.deal(cr.english(4), seed=1)
    with pytest.raises(cr.RecordError, match="one pack suits 3 to 6 players; 10 players"):
        cr.loads(edited(english, lambda rules: rules.update(players=10)))
    with pytest.raises(cr.RecordError, match="English Cheat is played by 3 to 10"):
        cr.loads(edited(english, lambda rules: rules.update(players=11)))
    verish = cr.deal(cr.verish(4), seed=1)
    with pytest.raises(cr.RecordError, match=r"played with the short pack \(6 to Ace\)"):
        cr.loads(edited(verish, lambda rules: rules["policies"]["deck"].update(packs=2)))


def test_no_record_holds_a_claim_larger_than_its_deck() -> None:
    # A named game, custom rules, a view and a match all read their rules the same way.
    def huge(rules: dict[str, Any]) -> None:
        rules["policies"]["claims"]["maximum"] = 10**23

    verish = cr.deal(cr.verish(3), seed=1)  # was: loaded, then ActionSpace overflowed
    with pytest.raises(cr.RecordError, match="is above the 36 cards of the deck"):
        cr.loads(edited(verish, huge))
    custom = cr.deal(cr.Rules(players=3, name="house rules"), seed=1)
    with pytest.raises(cr.RecordError, match="a claim may lay 1 to 52 cards with this deck"):
        cr.loads(edited(custom, huge))
    view = json.loads(cr.dumps(verish, seat=0))
    huge(view["view"]["rules"])
    with pytest.raises(cr.RecordError, match="is above the 36 cards of the deck"):
        cr.loads_view(json.dumps(view))
    match = json.loads(cr.dumps_match(cr.Match.start(cr.verish(3), cr.FirstTo(2), seed=1)))
    huge(match["rules"])
    with pytest.raises(cr.RecordError, match="is above the 36 cards of the deck"):
        cr.loads_match(json.dumps(match))


def test_a_record_of_two_packs_for_five_players_loads() -> None:
    state = cr.deal(cr.english(5, decks=2), seed=2)
    assert cr.loads(cr.dumps(state)) == state


def test_rules_changed_past_their_games_checks_are_recorded_as_custom_rules() -> None:
    # attrs.evolve can give a "verish" two packs, which verish() refuses: the
    # record names no game then, and reads back as the same rules.
    rules = attrs.evolve(cr.verish(4), deck=cr.Deck(packs=2))
    state = cr.deal(rules, seed=3)
    record = json.loads(cr.dumps(state))
    assert record["rules"]["game"] == "custom" and record["rules"]["name"] == "verish"
    assert cr.loads(cr.dumps(state)) == state
    assert json.loads(cr.dumps(cr.deal(cr.verish(4), seed=3)))["rules"]["game"] == "verish"
