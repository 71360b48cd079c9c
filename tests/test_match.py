"""Match play (docs/rules/variations.md): several deals in a row, the dealer rotating left, scored as a whole."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules.match import Scoring

from .budget import examples
from .strategies import json_paths


def decide(match: cr.Match, rng: random.Random, doubt: float = 0.1) -> cr.Action:
    """A random legal decision that seldom challenges, so that games stay short."""
    legal = list(match.legal_actions())
    calm = [action for action in legal if not isinstance(action, cr.Challenge)]
    if calm and rng.random() >= doubt:
        return rng.choice(calm)
    return rng.choice(legal)


def play_game(match: cr.Match, rng: random.Random) -> cr.Match:
    """Play the current game to its end (the next one is then dealt, or the match is over)."""
    played = len(match.games)
    while len(match.games) == played:
        match = match.apply(decide(match, rng))
    return match


def play_match(match: cr.Match, rng: random.Random) -> list[cr.Match]:
    """The match after each of its games, first to last."""
    after = []
    while not match.is_over:
        match = play_game(match, rng)
        after.append(match)
    return after


def tally(games: tuple[cr.GameState, ...], players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each seat's wins and penalty total, counted from the finished games themselves."""
    wins = [0] * players
    penalties = [0] * players
    for game in games:
        assert game.outcome is not None
        for seat in game.outcome.winners:
            wins[seat] += 1
        for seat in game.outcome.losers:
            penalties[seat] += len(game.hands[seat])
    return tuple(wins), tuple(penalties)


# -- the scoring policies, read like the rule book ---------------------------------


def test_first_to_is_won_by_the_seat_that_reaches_the_target() -> None:
    first_to_two = cr.FirstTo(2)
    assert first_to_two.winners(wins=(1, 1, 0), penalties=(0, 0, 0), played=2) == ()
    assert first_to_two.winners(wins=(1, 2, 0), penalties=(0, 0, 0), played=3) == (1,)


def test_first_to_is_shared_by_seats_that_reach_the_target_in_the_same_game() -> None:
    # In Verish' every seat but the loser wins a game, so two seats can get there together.
    assert cr.FirstTo(2).winners(wins=(2, 1, 2), penalties=(0, 0, 0), played=3) == (0, 2)


def test_first_to_three_is_the_default() -> None:
    assert cr.FirstTo() == cr.FirstTo(3)
    assert cr.Match.start(cr.verish(2), seed=1).scoring == cr.FirstTo(3)


def test_best_of_is_won_by_the_most_wins_once_every_game_is_played() -> None:
    best_of_five = cr.BestOf(5)
    assert best_of_five.winners(wins=(2, 2, 1), penalties=(0, 0, 0), played=4) == ()
    assert best_of_five.winners(wins=(3, 2, 0), penalties=(0, 0, 0), played=5) == (0,)


def test_best_of_stops_early_when_nobody_can_catch_the_leader() -> None:
    best_of_five = cr.BestOf(5)
    assert best_of_five.winners(wins=(3, 0), penalties=(0, 0), played=3) == (0,)
    assert best_of_five.winners(wins=(0, 3, 1), penalties=(0, 0, 0), played=4) == (1,)


def test_best_of_goes_on_while_the_leader_can_still_be_caught_or_tied() -> None:
    best_of_five = cr.BestOf(5)
    assert best_of_five.winners(wins=(2, 1), penalties=(0, 0), played=3) == ()
    assert best_of_five.winners(wins=(3, 1), penalties=(0, 0), played=4) == (0,)
    assert best_of_five.winners(wins=(2, 2), penalties=(0, 0), played=4) == ()
    # 2-0 in a best of four: seat 1 can still tie, and a tie shares the match.
    assert cr.BestOf(4).winners(wins=(2, 0), penalties=(0, 0), played=2) == ()


def test_best_of_ties_share_the_match() -> None:
    assert cr.BestOf(4).winners(wins=(2, 2, 0), penalties=(0, 0, 0), played=4) == (0, 1)


def test_penalty_is_won_by_the_lowest_total_after_every_game() -> None:
    three_games = cr.Penalty(3)
    assert three_games.winners(wins=(2, 0, 0), penalties=(0, 9, 30), played=2) == ()
    assert three_games.winners(wins=(1, 1, 1), penalties=(12, 7, 30), played=3) == (1,)


def test_penalty_ties_share_the_match() -> None:
    assert cr.Penalty(2).winners(wins=(1, 1, 0), penalties=(4, 9, 4), played=2) == (0, 2)


def test_counting_defeats_ends_when_a_seat_reaches_the_count() -> None:
    # Verish': "Nao e preciso pontuar; pode contar derrotas" (seed 003). A
    # defeat is a game a seat did not win; the fewest defeats take the match.
    two_defeats = cr.FewestLosses(2)
    assert two_defeats.winners(wins=(2, 2, 2), penalties=(0, 0, 0), played=3) == ()
    assert two_defeats.winners(wins=(3, 2, 3), penalties=(0, 0, 0), played=4) == (0, 2)
    assert cr.FewestLosses(3).winners(wins=(4, 2, 3), penalties=(0, 0, 0), played=5) == (0,)


def test_counting_defeats_to_three_is_the_default() -> None:
    assert cr.FewestLosses() == cr.FewestLosses(3)


@pytest.mark.parametrize("make", [cr.FirstTo, cr.BestOf, cr.Penalty, cr.FewestLosses])
@pytest.mark.parametrize("value", [0, -1, True, False, 2.0, "3", None])
def test_a_scoring_needs_a_whole_number_of_one_or_more(make: Any, value: object) -> None:
    with pytest.raises(cr.RulesError, match=r"must be a whole number of at least 1; got") as caught:
        make(value)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    "scoring", [cr.FirstTo(2), cr.BestOf(3), cr.Penalty(1), cr.FewestLosses(2)]
)
def test_the_scoring_policies_are_frozen_values_of_the_protocol(
    scoring: cr.FirstTo | cr.BestOf | cr.Penalty | cr.FewestLosses,
) -> None:
    assert isinstance(scoring, Scoring)
    assert scoring == attrs.evolve(scoring)
    assert hash(scoring) == hash(attrs.evolve(scoring))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        scoring.wins = 9  # type: ignore[misc, union-attr]


# -- a match --------------------------------------------------------------------


def test_a_match_starts_with_its_first_game_dealt() -> None:
    match = cr.Match.start(cr.english(3), cr.BestOf(3), seed=11)
    assert (match.rules, match.scoring, match.seed) == (cr.english(3), cr.BestOf(3), 11)
    assert match.games == ()
    assert match.game.rules == cr.english(3)
    assert not match.game.actions
    assert (match.wins, match.penalties) == ((0, 0, 0), (0, 0, 0))
    assert not match.is_over
    assert match.winners == ()
    assert match.to_move == match.game.to_move == 0
    assert match.legal_actions() == match.game.legal_actions()
    assert match.observe(1) == match.game.observe(1)


def test_the_same_seed_deals_the_same_match() -> None:
    first = cr.Match.start(cr.verish(2), seed=3)
    assert cr.Match.start(cr.verish(2), seed=3) == first
    assert cr.Match.start(cr.verish(2), seed=4).game != first.game
    ended = play_match(first, random.Random(0))[-1]
    assert play_match(cr.Match.start(cr.verish(2), seed=3), random.Random(0))[-1] == ended


def test_each_game_has_its_own_seed_derived_from_the_match_seed() -> None:
    ended = play_match(cr.Match.start(cr.verish(2), cr.Penalty(4), seed=8), random.Random(1))[-1]
    seeds = [game.seed for game in ended.games]
    assert len(set(seeds)) == 4
    assert 8 not in seeds


def test_without_a_seed_one_is_drawn_and_kept_so_the_match_replays() -> None:
    match = cr.Match.start(cr.verish(3))
    assert isinstance(match.seed, int)
    assert cr.Match.start(cr.verish(3)).seed != match.seed
    assert cr.Match.start(cr.verish(3), seed=match.seed) == match


def test_the_first_dealer_is_the_last_seat_unless_chosen() -> None:
    assert cr.Match.start(cr.english(4), seed=1).game.dealer == 3
    assert cr.Match.start(cr.english(4), seed=1, dealer=1).game.dealer == 1


def test_the_dealer_rotates_to_the_left_between_games() -> None:
    ended = play_match(
        cr.Match.start(cr.verish(3), cr.Penalty(5), seed=2, dealer=1), random.Random(2)
    )[-1]
    assert [game.dealer for game in ended.games] == [1, 2, 0, 1, 2]


def test_the_next_game_is_dealt_as_soon_as_one_ends() -> None:
    rng = random.Random(3)
    match = cr.Match.start(cr.verish(2), cr.Penalty(2), seed=5)
    first = match.game
    match = play_game(match, rng)
    assert match.games[0].is_over
    assert match.games[0].events[0] == first.events[0]
    assert not match.is_over
    assert not match.game.actions
    assert match.game.dealer == (first.dealer + 1) % 2
    assert match.to_move is not None


def test_first_to_two_ends_exactly_when_a_seat_wins_its_second_game() -> None:
    for seed in range(5):
        for match in play_match(
            cr.Match.start(cr.english(3), cr.FirstTo(2), seed=seed), random.Random(seed)
        ):
            reached = tuple(seat for seat, wins in enumerate(match.wins) if wins == 2)
            assert match.is_over == bool(reached)
            assert match.winners == reached
            assert max(match.wins) <= 2
        assert match.is_over


def test_penalty_totals_are_the_cards_left_in_the_losers_hands() -> None:
    for match in play_match(cr.Match.start(cr.english(3), cr.Penalty(3), seed=4), random.Random(4)):
        last = match.games[-1]
        assert last.outcome is not None
        before = match.games[:-1]
        added = [0, 0, 0]
        for seat in last.outcome.losers:
            added[seat] = len(last.hands[seat])
        assert match.penalties == tuple(
            total + cards for total, cards in zip(tally(before, 3)[1], added, strict=True)
        )
    assert len(match.games) == 3
    assert sum(match.penalties) > 0
    assert match.winners == tuple(
        seat for seat, total in enumerate(match.penalties) if total == min(match.penalties)
    )


def test_best_of_stops_early_when_the_leader_cannot_be_caught() -> None:
    lengths = set()
    for seed in range(20):
        after = play_match(
            cr.Match.start(cr.verish(2), cr.BestOf(5), seed=seed), random.Random(seed)
        )
        for match in after[:-1]:
            assert not match.is_over
        ended = after[-1]
        lengths.add(len(ended.games))
        leader, second = sorted(ended.wins, reverse=True)
        if len(ended.games) < 5:
            assert leader - second > 5 - len(ended.games)
            assert ended.winners == (ended.wins.index(leader),)
    assert min(lengths) < 5 == max(lengths)


def test_ties_share_the_match() -> None:
    # Verish' for three: two seats win each game, so first to one is reached by two seats.
    ended = play_match(cr.Match.start(cr.verish(3), cr.FirstTo(1), seed=6), random.Random(6))[-1]
    assert len(ended.games) == 1
    outcome = ended.games[0].outcome
    assert outcome is not None
    assert ended.winners == tuple(sorted(outcome.winners))
    assert len(ended.winners) == 2


def test_a_finished_match_shows_its_last_game_and_refuses_every_action() -> None:
    ended = play_match(cr.Match.start(cr.verish(2), cr.FirstTo(1), seed=9), random.Random(9))[-1]
    assert ended.is_over
    assert ended.game is ended.games[-1]
    assert ended.to_move is None
    assert ended.legal_actions() == ()
    with pytest.raises(
        cr.IllegalActionError, match=r"illegal action Challenge\(\): the match is over"
    ):
        ended.apply(cr.Challenge())


def test_an_illegal_action_is_refused_as_the_game_refuses_it() -> None:
    match = cr.Match.start(cr.english(3), seed=1)
    with pytest.raises(cr.IllegalActionError, match="illegal action Accept") as caught:
        match.apply(cr.Accept())
    assert isinstance(caught.value, ValueError)
    with pytest.raises(cr.IllegalActionError):
        match.apply("challenge")  # type: ignore[arg-type]
    assert match == cr.Match.start(cr.english(3), seed=1)


def test_a_match_is_an_immutable_hashable_value() -> None:
    match = cr.Match.start(cr.verish(2), seed=1)
    after = match.apply(match.legal_actions()[0])
    assert after != match
    assert not match.game.actions  # untouched
    assert after == match.apply(match.legal_actions()[0])
    assert hash(after) == hash(match.apply(match.legal_actions()[0]))
    assert len({match, after, after}) == 2
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        match.seed = 2  # type: ignore[misc]


def test_a_verish_match_counting_defeats_ends_at_the_second_defeat() -> None:
    match = play_match(cr.Match.start(cr.verish(3), cr.FewestLosses(2), seed=8), random.Random(8))[
        -1
    ]
    wins, _ = tally(match.games, 3)
    defeats = tuple(len(match.games) - won for won in wins)
    assert match.losses == defeats
    assert max(defeats) == 2
    before = tuple(len(match.games) - 1 - won for won in tally(match.games[:-1], 3)[0])
    assert max(before) == 1  # the match went on until the second defeat
    assert match.winners == tuple(seat for seat, lost in enumerate(defeats) if lost == min(defeats))
    text = cr.dumps_match(match)
    assert json.loads(text)["scoring"] == {"type": "FewestLosses", "losses": 2}
    assert cr.loads_match(text) == match


def test_the_first_dealer_of_a_match_may_be_drawn_by_lot() -> None:
    match = cr.Match.start(cr.english(4), seed=5, dealer="random")
    assert match.game == cr.deal(
        cr.english(4), seed=match.game.seed, dealer="random"
    )  # drawn from the first game's seed
    assert cr.Match.start(cr.english(4), seed=5, dealer="random") == match
    first = match.game.dealer
    later = play_game(match, random.Random(5))
    assert later.game.dealer == (first + 1) % 4  # and rotates to the left
    record = json.loads(cr.dumps_match(later))
    assert record["dealer"] == first
    assert cr.loads_match(cr.dumps_match(later)) == later


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"scoring": 3}, cr.RulesError, "scoring must be a scoring policy such as FirstTo"),
        ({"seed": "7"}, cr.DealError, "seed must be a whole number; got '7'"),
        ({"seed": True}, cr.DealError, "seed must be a whole number; got True"),
        ({"dealer": 5}, cr.DealError, "dealer must be a seat from 0 to 2; got 5"),
    ],
)
def test_start_refuses_what_cannot_start_a_match(
    arguments: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        cr.Match.start(cr.english(3), **arguments)


def test_start_needs_rules() -> None:
    with pytest.raises(cr.DealError, match="needs a Rules value"):
        cr.Match.start("english")  # type: ignore[arg-type]


# -- records ---------------------------------------------------------------------

MATCH = play_game(cr.Match.start(cr.verish(2), cr.FirstTo(2), seed=21), random.Random(21))
MATCH = MATCH.apply(MATCH.legal_actions()[0])
TEXT = cr.dumps_match(MATCH)


def test_a_match_record_replays_exactly() -> None:
    assert len(MATCH.games) == 1
    assert MATCH.game.actions
    loaded = cr.loads_match(TEXT)
    assert loaded == MATCH
    assert cr.dumps_match(loaded) == TEXT
    assert cr.loads_match(TEXT.encode("utf-8")) == MATCH


def test_a_match_record_holds_the_seed_the_scoring_and_every_game() -> None:
    record = json.loads(TEXT)
    assert record["format"] == "cheatrules-match"
    assert record["version"] == 1
    assert record["rules"] == json.loads(cr.dumps(MATCH.game))["rules"]
    assert record["scoring"] == {"type": "FirstTo", "wins": 2}
    assert (record["seed"], record["dealer"]) == (21, 1)
    assert record["games"] == [json.loads(cr.dumps(game)) for game in (*MATCH.games, MATCH.game)]


def test_a_finished_match_record_ends_with_its_last_game() -> None:
    ended = play_match(cr.Match.start(cr.verish(2), cr.BestOf(3), seed=2), random.Random(2))[-1]
    record = json.loads(cr.dumps_match(ended))
    assert len(record["games"]) == len(ended.games)
    assert cr.loads_match(cr.dumps_match(ended)) == ended


@attrs.frozen
class Fewest:
    games: int = 1

    def winners(
        self, wins: tuple[int, ...], penalties: tuple[int, ...], played: int
    ) -> tuple[int, ...]:
        return (0,) if played >= self.games else ()


def test_a_scoring_of_your_own_plays_but_cannot_be_recorded() -> None:
    match = cr.Match.start(cr.verish(2), Fewest(), seed=1)
    ended = play_match(match, random.Random(1))[-1]
    assert ended.winners == (0,)
    with pytest.raises(cr.RecordError, match="records cannot name the scoring Fewest"):
        cr.dumps_match(match)


def edited(path: list[Any], value: Any = None, *, delete: bool = False) -> str:
    record = json.loads(TEXT)
    target = record
    for key in path[:-1]:
        target = target[key]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return json.dumps(record, ensure_ascii=False)


FIRST_GAME = json.loads(TEXT)["games"][0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "a match record must be JSON"),
        ("[]", "a match record must be a JSON object"),
        (
            cr.dumps(MATCH.game),
            r"not a match record: format is 'cheatrules' \(one game's record: read it with cheatrules.loads\(\)\)",
        ),
        (edited(["format"], "chess"), "not a match record: format is 'chess'"),
        (edited(["version"], 2), "unknown match record version 2; this library reads version 1"),
        (edited(["version"], True), "unknown match record version True"),
        (edited(["rules", "game"], "poker"), "rules.game: unknown game 'poker'"),
        (
            edited(["scoring", "type"], "Golf"),
            "scoring: unknown scoring 'Golf'; known: FirstTo, BestOf, Penalty",
        ),
        (
            edited(["scoring", "wins"], 0),
            "scoring: FirstTo.wins must be a whole number of at least 1; got 0",
        ),
        (
            edited(["scoring", "wins"], "2"),
            "scoring: FirstTo.wins must be a whole number of at least 1; got '2'",
        ),
        (
            edited(["scoring", "games"], 2),
            r"scoring: unknown setting games for FirstTo \(known: wins\)",
        ),
        (edited(["scoring"], {"type": "BestOf"}), "scoring: BestOf needs games"),
        (edited(["scoring", "type"], delete=True), "scoring lacks 'type'"),
        (edited(["scoring"], [2]), "record.scoring must be dict"),
        (edited(["seed"], "21"), "record.seed must be int; got '21'"),
        (
            edited(["seed"], 22),
            r"games\[0\] was dealt with seed \d+; the match deals it with seed \d+",
        ),
        (edited(["dealer"], 0), r"games\[0\] was dealt by seat 1; the match has seat 0 deal it"),
        (edited(["dealer"], 9), "dealer must be a seat from 0 to 1; got 9"),
        (edited(["games"], []), "a match record holds at least one game"),
        (edited(["games"], {}), "record.games must be list"),
        (edited(["games", 1], FIRST_GAME), r"games\[1\] was dealt by seat 1; the match has seat 0"),
        (
            edited(["games", 1, "deal", "seed"], 5),
            r"games\[1\] was dealt with seed 5; the match deals",
        ),
        (
            edited(["games", 1, "deal", "hands"], ["6♣", "7♣"]),
            r"games\[1\] holds a deal other than the one its seed gives",
        ),
        (
            edited(["games", 0, "deal", "dealer"], 0),
            r"games\[0\] was dealt by seat 0; the match has seat 1",
        ),
        (
            edited(["games", 0, "rules", "players"], 3),
            r"games\[0\] is played under other rules than the match's",
        ),
        (
            edited(["games", 0, "actions", 0], "challenge"),
            r"games\[0\]: actions\[0\] \(challenge\): illegal action",
        ),
        (
            edited(["games", 0, "actions", -1], delete=True),
            r"games\[0\] is unfinished, but only the last game may be",
        ),
        (edited(["games", 1], 7), r"games\[1\]: a record must be a JSON object"),
        (edited(["games", 1, "format"], "nope"), r"games\[1\]: not a cheatrules record"),
    ],
)
def test_a_bad_match_record_is_refused_naming_the_problem(text: str, message: str) -> None:
    with pytest.raises(cr.RecordError, match=message) as caught:
        cr.loads_match(text)
    assert isinstance(caught.value, ValueError)


def test_a_record_that_goes_on_after_the_match_is_over_is_refused() -> None:
    record = json.loads(TEXT)  # first to two, after one game
    record["scoring"]["wins"] = 1
    with pytest.raises(cr.RecordError, match=r"games\[1\]: the match was over after games\[0\]"):
        cr.loads_match(json.dumps(record))


def test_a_record_that_stops_short_of_the_next_game_is_refused() -> None:
    record = json.loads(
        cr.dumps_match(play_game(cr.Match.start(cr.verish(2), seed=5), random.Random(5)))
    )
    del record["games"][-1]
    with pytest.raises(
        cr.RecordError,
        match=r"games\[0\] is finished and the match is not over; games\[1\] is missing",
    ):
        cr.loads_match(json.dumps(record))


def test_loads_match_refuses_what_is_not_text() -> None:
    with pytest.raises(cr.RecordError, match="must be JSON text; got int"):
        cr.loads_match(7)  # type: ignore[arg-type]
    with pytest.raises(cr.RecordError, match="must be UTF-8 text"):
        cr.loads_match(b"\xff\xfe")
    with pytest.raises(cr.RecordError, match="must be JSON"):
        cr.loads_match("[" * 100_000 + "]" * 100_000)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=8,
)


# The rules and the games' own records are fuzzed by test_records; here, the match's fields.
MATCH_PATHS = [
    path
    for path in json_paths(json.loads(TEXT))
    if path[0] != "rules" and path[:3] != ("games", 0, "rules")
]


@examples(75)
@given(st.data())
def test_fuzzed_match_records_raise_only_record_errors(data: st.DataObject) -> None:
    record = json.loads(TEXT)
    path = data.draw(st.sampled_from(MATCH_PATHS))
    target = record
    for key in path[:-1]:
        target = target[key]
    if data.draw(st.booleans()) and isinstance(target, dict):
        del target[path[-1]]
    else:
        target[path[-1]] = data.draw(json_values)
    with contextlib.suppress(cr.RecordError):
        assert isinstance(cr.loads_match(json.dumps(record)), cr.Match)


# -- random matches ---------------------------------------------------------------

scorings = st.one_of(
    st.builds(cr.FirstTo, st.integers(1, 3)),
    st.builds(cr.BestOf, st.integers(1, 4)),
    st.builds(cr.Penalty, st.integers(1, 3)),
)


@examples(20)
@given(
    st.sampled_from([cr.english(3), cr.verish(2), cr.verish(3)]),
    scorings,
    st.integers(-(2**64), 2**64),
    st.data(),
)
def test_random_matches_keep_score_rotate_the_dealer_and_replay(
    rules: cr.Rules, scoring: Scoring, seed: int, data: st.DataObject
) -> None:
    dealer = data.draw(st.none() | st.integers(0, rules.players - 1))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    match = cr.Match.start(rules, scoring, seed=seed, dealer=dealer)
    first_dealer = match.game.dealer
    for _ in range(data.draw(st.integers(0, 400))):
        if match.is_over:
            break
        match = match.apply(decide(match, rng, doubt=0.2))

    assert cr.loads_match(cr.dumps_match(match)) == match
    games = match.games if match.is_over else (*match.games, match.game)
    assert [game.dealer for game in games] == [
        (first_dealer + index) % rules.players for index in range(len(games))
    ]
    assert match.game.rules == rules
    assert all(game.is_over for game in match.games)
    assert (match.wins, match.penalties) == tally(match.games, rules.players)
    # The match ends after the first game that decides it, and not before.
    for played in range(1, len(match.games)):
        wins, penalties = tally(match.games[:played], rules.players)
        assert scoring.winners(wins=wins, penalties=penalties, played=played) == ()
    assert match.winners == (
        scoring.winners(wins=match.wins, penalties=match.penalties, played=len(match.games))
        if match.is_over
        else ()
    )
    assert match.is_over == (match.game.is_over and bool(match.winners))
