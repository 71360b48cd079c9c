"""View records: a seat's view that loads is one the library can use; anything else is refused.

``loads_view`` is the door. A mutated view record is either refused with a
:class:`~cheatrules.RecordError`, or accepted as an observation that
narration, knowledge, sampling, the encoders, re-serialisation and the
``replay`` command all take without an error of their own.
"""

from __future__ import annotations

import copy
import functools
import io
import json
import os
import random
import tempfile
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules.cli import main
from cheatrules.encoding import ActionSpace, ObservationEncoder
from cheatrules.narration import narrate
from cheatrules.policies import HolderOf
from cheatrules.sampling import SamplingBudgetError, SamplingError, sample

from .budget import examples
from .strategies import house_options, json_paths, option_combinations, play_randomly


def _finished() -> cr.GameState:
    """A short game of Verish' Ne Verish' played to its end, with a challenge on the way."""
    state = cr.deal(cr.verish(3), hands=["6♣ 7♦", "8♥ 9♠", "10♣ J♦"], hidden="A♠")
    final = play_randomly(state, 3, limit=200)[-1]
    assert final.is_over
    return final


def _games() -> list[cr.GameState]:
    """Positions from seeded games of several variations, and a finished game."""
    made = [
        (cr.english(3), 1, 40),
        (cr.english(4), 2, 25),
        (cr.verish(3), 3, 40),
        (cr.verish(4, pack=52), 4, 30),
        (cr.english(3, jokers=True), 5, 40),
        (cr.english(4, stock=3), 6, 40),
        (cr.verish(3, check="one-card"), 7, 40),
        (cr.english(3, window="extended"), 8, 40),
        (cr.english(3, passing="consent"), 9, 40),
    ]
    states: list[cr.GameState] = []
    for rules, seed, steps in made:
        played = play_randomly(cr.deal(rules, seed=seed), seed, limit=steps)
        states += [played[len(played) // 2], played[-1]]
    states.append(_finished())
    return states


GAMES = _games()
VIEWS = [cr.dumps(state, seat=seat) for state in GAMES for seat in range(state.players)]


def test_the_starting_views_load_as_their_observations() -> None:
    seen = [cr.loads_view(text) for text in VIEWS]
    expected = [state.observe(seat) for state in GAMES for seat in range(state.players)]
    assert seen == expected
    assert any(view.is_over for view in seen)
    assert any(view.phase is cr.Phase.CHALLENGE for view in seen)


def _random_game(seed: int) -> list[cr.GameState]:
    """Every position of a short random game, of either game, with house options now and then."""
    rng = random.Random(seed)
    options = house_options(rng)
    rules = rng.choice(
        [cr.english(rng.randint(3, 5), **options), cr.verish(rng.randint(2, 5), **options)]
    )
    state = cr.deal(rules, seed=seed) if rng.random() < 0.3 else _small_deal(rules, rng)
    return play_randomly(state, seed, limit=rng.randint(5, 80))


def _small_deal(rules: cr.Rules, rng: random.Random) -> cr.GameState:
    deck = list(rules.deck.cards())
    rng.shuffle(deck)
    hands = []
    for _ in range(rules.players):
        size = rng.randint(1, 8)
        hands.append(deck[:size])
        deck = deck[size:]
    aside = rules.dealing.set_aside
    stock = deck[aside : aside + 6] if rules.dealing.hand_size else []
    return cr.deal(rules, hands=hands, hidden=deck[:aside] or None, stock=stock or None)


@examples(12)
@given(st.integers(0, 2**32))
def test_every_real_view_loads_as_its_observation(seed: int) -> None:
    """The checks refuse no view a real game gives, at any moment, from any seat."""
    for state in _random_game(seed):
        for seat in range(state.players):
            assert cr.loads_view(cr.dumps(state, seat=seat)) == state.observe(seat)


@examples(12)
@given(option_combinations(), st.integers(0, 2**32))
def test_every_view_under_any_house_rules_loads(rules: cr.Rules, seed: int) -> None:
    """Every named option, alone or combined: the views of a random game all load.

    Each is written from the observation alone, and at the end the record is
    the one ``dumps(state, seat=k)`` writes and the observation read back
    writes it again unchanged.
    """
    states = play_randomly(cr.deal(rules, seed=seed), seed, limit=150)
    for state in [*states[:: max(1, len(states) // 12)], states[-1]]:
        for seat in range(state.players):
            seen = state.observe(seat)
            text = cr.dumps(seen)
            loaded = cr.loads_view(text)
            assert loaded == seen
            _same_course_on(loaded.decision, seen.decision, state.table)
            if state is states[-1]:
                assert cr.dumps(loaded) == text == cr.dumps(state, seat=seat)


def _same_course_on(read: cr.Decision, seen: cr.Decision, table: cr.Table) -> None:
    """The parts of a decision that equality leaves out agree too: who opens, who is asked next."""
    if isinstance(seen, cr.Window):
        assert isinstance(read, cr.Window)
        assert read.opener(table.seating) == seen.opener(table.seating)
    if isinstance(seen, cr.DiscardOffer):
        assert isinstance(read, cr.DiscardOffer)
        assert read.still_to_ask() == seen.still_to_ask()


# -- writing an observation back out ------------------------------------------------


def test_an_observation_is_written_as_the_view_record_of_its_seat() -> None:
    state = GAMES[4]
    seen = state.observe(1)
    text = cr.dumps(seen)
    assert text == cr.dumps(state, seat=1)  # the same record, from the view alone
    assert cr.loads_view(text) == seen
    assert cr.dumps(seen, seat=1) == text  # naming its own seat changes nothing
    loaded = cr.loads_view(text)
    assert cr.dumps(loaded) == text  # a view read from a record is written again unchanged


def test_an_observation_is_written_only_as_its_own_seats_view() -> None:
    seen = GAMES[0].observe(1)
    with pytest.raises(cr.SeatError, match="seat=2, but this observation is seat 1's view"):
        cr.dumps(seen, seat=2)
    for wrong in ("a game", None, GAMES[0].rules):
        with pytest.raises(cr.RecordError, match="dumps writes a GameState or an Observation"):
            cr.dumps(wrong)  # type: ignore[arg-type]


@examples(8)
@given(st.integers(0, 2**32))
def test_the_views_of_a_sampled_game_are_written_and_read_back_equal(seed: int) -> None:
    """A sampled game's views (its draws scripted, not dealt) round trip like a real game's."""
    states = _random_game(seed)
    state = states[len(states) // 2]
    seat = seed % state.players
    world = state.observe(seat).sample(random.Random(seed))
    for other in range(world.players):
        seen = world.observe(other)
        assert cr.loads_view(cr.dumps(seen)) == seen
    assert cr.dumps(world.observe(seat)) == cr.dumps(state.observe(seat))


# -- using a view, the way every part of the library does --------------------------


@functools.lru_cache(maxsize=64)
def _action_space(rules: cr.Rules) -> ActionSpace:
    return ActionSpace(rules)


def _numbered(rules: cr.Rules) -> bool:
    """Whether every play under ``rules`` can be listed (and numbered) in a test.

    ``legal_actions`` lists every multiset of ranks a claim may lay, and the
    action space numbers them and every choice of fours: house rules a
    mutation makes, such as claims of up to 36 cards, have more than any
    machine holds, in any game, whatever the view. Those rules are the
    generator's limit, not the view's; such views must still load quickly.
    """
    return rules.claims.maximum <= 8 and rules.deck.packs <= 2


def replay_status(text: str) -> tuple[int, str]:
    """Run ``cheatrules replay`` on ``text`` saved to a file; its exit status and output."""
    out = io.StringIO()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "view.json")
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        try:
            status = main(["replay", path, "--plain"], stdout=out)
        except SystemExit as leaving:
            status = leaving.code if isinstance(leaving.code, int) else 1
    return status, out.getvalue()


def assert_usable(seen: cr.Observation, text: str) -> None:
    """Everything the library does with an observation works on ``seen``."""
    lines = list(narrate(seen.events))
    assert len(lines) >= 1
    assert str(seen)
    legal = seen.legal_actions()
    if seen.to_move == seen.seat and not seen.is_over:
        assert legal, "the seat to move has no legal action"
    seen.knowledge()
    try:
        found = sample(seen, random.Random(0), timeout=20)
    except SamplingBudgetError as error:
        # A view the reader lets through that no game writes sends the
        # sampler looking for one until its time runs out.
        raise AssertionError(f"a view that loads is not sampled in 20 s: {error}") from error
    except SamplingError:
        pass  # the solver proved that no game places the hidden cards so
    else:
        assert found.observe(seen.seat) == seen
    encoder = ObservationEncoder(seen.rules)
    assert len(encoder.encode(seen)) == encoder.size
    mask = _action_space(seen.rules).mask(seen)
    assert sum(mask) == len(legal)
    assert cr.loads_view(cr.dumps(seen)) == seen
    assert cr.loads_view(text) == seen
    status, _ = replay_status(text)
    assert status == 0


def test_every_starting_view_is_usable() -> None:
    for text in VIEWS[::3]:
        assert_usable(cr.loads_view(text), text)


# -- mutating view records ----------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([-1, 0, 1, 2, 3, 52, 2**31, 2**63, 10**18, 10**400])
    | st.text(max_size=12)
    | st.sampled_from(["A♠", "7♦ 7♦", "Jo", "K♣ K♣ K♣", "", "play", "Played", "Dealt"]),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=6,
)
CARD_TEXT = [str(card) for card in cr.english(3, jokers=True).deck.cards()]


def mutate_once(record: Any, data: st.DataObject) -> None:
    """Change one thing somewhere in ``record``, in place."""
    path = data.draw(st.sampled_from(json_paths(record)))
    parent = record
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    value = parent[key]
    kinds = ["replace"]
    if isinstance(parent, dict):
        kinds.append("delete")
    if isinstance(parent, list):
        kinds += ["drop", "duplicate", "swap"]
    if isinstance(value, int) and not isinstance(value, bool):
        kinds += ["number"] * 3
    if isinstance(value, str):
        kinds += ["cards"] * 2
    if isinstance(value, list):
        kinds += ["shorten", "grow"]
    kind = data.draw(st.sampled_from(kinds))
    if kind == "replace":
        parent[key] = data.draw(json_values)
    elif kind == "delete" or kind == "drop":
        del parent[key]
    elif kind == "duplicate":
        parent.insert(key, copy.deepcopy(value))
    elif kind == "swap":
        other = data.draw(st.integers(0, len(parent) - 1))
        parent[key], parent[other] = parent[other], parent[key]
    elif kind == "number":
        parent[key] = data.draw(
            st.sampled_from([value + 1, value - 1, -value, 0, -1, 2**64, 10**9, value * 7])
            | st.integers(-5, 60)
        )
    elif kind == "cards":
        words = value.split()
        card = data.draw(st.sampled_from(CARD_TEXT))
        if words and data.draw(st.booleans()):
            words[data.draw(st.integers(0, len(words) - 1))] = card
        else:
            words.append(card)
        parent[key] = " ".join(words)
    elif kind == "shorten":
        del value[data.draw(st.integers(0, len(value))) :]
    else:
        if value:
            value.append(copy.deepcopy(data.draw(st.sampled_from(value))))
        else:
            value.append(data.draw(json_values))


def mutated_view(data: st.DataObject) -> str:
    record = json.loads(data.draw(st.sampled_from(VIEWS)))
    for _ in range(data.draw(st.integers(1, 3))):
        mutate_once(record, data)
    return json.dumps(record, ensure_ascii=False)


def refused_or_usable(text: str) -> None:
    try:
        seen = cr.loads_view(text)
    except cr.RecordError:
        return
    assume(_numbered(seen.rules))
    assert_usable(seen, text)


@examples(75)
@given(st.data())
def test_a_mutated_view_is_refused_or_fully_usable(data: st.DataObject) -> None:
    refused_or_usable(mutated_view(data))


# -- the escapes reported, kept as a fixed corpus --------------------------------------

ENGLISH = cr.english(3)
BASE = GAMES[0]  # english(3), mid-game
OPENING = cr.deal(ENGLISH, seed=6)


def view(state: cr.GameState, seat: int, *edits: tuple[list[Any], Any]) -> str:
    """Seat ``seat``'s view of ``state`` with each ``(path, value)`` edit made in it."""
    record = json.loads(cr.dumps(state, seat=seat))
    for path, value in edits:
        target = record["view"]
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return json.dumps(record, ensure_ascii=False)


def dealt(state: cr.GameState, seat: int) -> dict[str, Any]:
    """The Dealt event of seat ``seat``'s view, as JSON."""
    event: dict[str, Any] = json.loads(cr.dumps(state, seat=seat))["view"]["events"][0]
    return event


OPENING_HAND: list[str] = dealt(OPENING, 0)["hands"][0]


def _with_a_foreign_card() -> str:
    """A Verish' view whose dealt hand holds a 2, which the 36-card pack lacks."""
    state = cr.deal(cr.verish(3), seed=6)
    hand = dealt(state, 0)["hands"][0]
    return view(state, 0, (["events", 0, "hands", 0], ["2♣", *hand[1:]]))


#: The escapes the issue reported, each as a view the old reader let through and
#: the part of the message that now refuses it.
CORPUS = {
    # narrate() raised IndexError
    "Dealt.hand_sizes shorter than the seats": (
        view(BASE, 1, (["events", 0, "hand_sizes"], [17, 17])),
        r"Dealt.hand_sizes must give 3 sizes",
    ),
    # sample() raised a zip() length ValueError
    "a card duplicated in a Dealt hand": (
        view(OPENING, 0, (["events", 0, "hands", 0], [*OPENING_HAND, OPENING_HAND[0]])),
        r"Dealt.hands: seat 0 holds 19 cards; Dealt.hand_sizes says 18",
    ),
    # knowledge() raised KeyError: ('stock', 0)
    "a draw from a stock that was never dealt": (
        view(
            OPENING,
            0,
            (
                ["events"],
                [dealt(OPENING, 0), {"event": "Drew", "seat": 1, "cards": [], "count": 1}],
            ),
        ),
        r"view.events\[1\] \(Drew\): a card is drawn only after a pickup or a pass",
    ),
    # knowledge() raised ValueError: min() arg is an empty sequence
    "a dealt card the deck lacks": (
        _with_a_foreign_card(),
        r"Dealt.hands hold 2♣, which this deck lacks",
    ),
    # sample() raised OverflowError
    "a huge number": (
        view(BASE, 1, (["events", 0, "hand_sizes"], [10**400, 17, 17])),
        r"Dealt.hand_sizes: every seat is dealt 1 to 52 cards",
    ),
    # sample() raised MemoryError
    "a huge count": (
        view(cr.deal(cr.english(3, stock=3), seed=6), 1, (["events", 0, "stock_count"], 10**12)),
        r"Dealt.stock_count must be from 0 to 52; got 1000000000000",
    ),
    # found by the fuzz test: legal_actions() listed each play twice, the mask once
    "a rank allowed twice": (
        view(OPENING, 0, (["allowed_ranks"], ["A", "A"])),
        r"view.allowed_ranks must be A, as the events give",
    ),
    # sample() searched a minute for a deal with the wrong number of cards set aside
    "a set-aside count the deal does not give": (
        view(BASE, 1, (["set_aside_count"], 14)),
        r"view.set_aside_count must be 0, as the deal gives",
    ),
    # the seat to move had no legal action
    "the seat to move with no decision": (
        view(OPENING, 0, (["phase"], "consent")),
        r"view.phase and view.to_move must be play and seat 0, as the events give",
    ),
}


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_a_reported_escape_is_refused_naming_the_field(name: str) -> None:
    text, field = CORPUS[name]
    with pytest.raises(cr.RecordError, match=field):
        cr.loads_view(text)


# -- the order of cards: a heap is read sorted, a reveal's order is the check's --------

#: Seat 0 lays 7♣ K♦ as two Aces, seat 1 calls it, and seat 0 takes the two cards back.
CAUGHT_HANDS = ["3♣ 7♣ K♦", "2♥ 3♥ 4♥", "4♦ 5♥ 6♥"]
CAUGHT = (
    cr.deal(cr.english(3), hands=CAUGHT_HANDS, dealer=2)
    .apply(cr.Play("7♣ K♦", "A"))
    .apply(cr.Challenge())
)


def test_cards_written_in_another_order_are_read_sorted_as_the_engine_writes_them() -> None:
    # A hand, a play and a pickup are heaps: their order says nothing, so a
    # record written by hand in another order is the view the engine writes.
    text = view(
        CAUGHT,
        0,
        (["events", 0, "hands", 0], ["K♦", "3♣", "7♣"]),
        (["events", 1, "cards"], ["K♦", "7♣"]),
        (["events", 4, "cards"], ["K♦", "7♣"]),
        (["hand"], "K♦ 3♣ 7♣"),
    )
    assert [type(event).__name__ for event in CAUGHT.events] == [
        "Dealt",
        "Played",
        "Challenged",
        "Revealed",
        "PileTaken",
    ]
    seen = cr.loads_view(text)
    assert seen == CAUGHT.observe(0)
    found = sample(seen, random.Random(0), timeout=5)
    assert found.observe(0) == seen


@pytest.mark.parametrize(
    ("seat", "cards", "positions", "message"),
    [
        # A whole group shown: the check turns it over in its own order.
        (1, ["K♦", "7♣"], [1, 0], r"the check turns over 7♣ K♦ of this group, in that order"),
        (0, ["K♦", "7♣"], [1, 0], r"the check turns over 7♣ K♦ of this group, in that order"),
        # The group lies sorted: K♦ cannot lie below 7♣.
        (1, ["7♣", "K♦"], [1, 0], r"positions put a card above a lower one"),
    ],
)
def test_a_reveal_shows_the_cards_where_and_as_the_check_turns_them_over(
    seat: int, cards: list[str], positions: list[int], message: str
) -> None:
    text = view(
        CAUGHT,
        seat,
        (["events", 3, "cards"], cards),
        (["events", 3, "positions"], positions),
    )
    with pytest.raises(cr.RecordError, match=r"view\.events\[3\] \(Revealed\): " + message):
        cr.loads_view(text)


def test_copies_shown_take_the_first_places_that_hold_them() -> None:
    rules = cr.english(3, decks=2)
    state = (
        cr.deal(rules, hands=["7♣ 7♣ K♦", "2♥ 3♥ 4♥", "4♦ 5♥ 6♥"], dealer=2)
        .apply(cr.Play("7♣ 7♣", "A"))
        .apply(cr.Challenge())
    )
    assert cr.loads_view(view(state, 1)) == state.observe(1)
    with pytest.raises(
        cr.RecordError, match=r"copies of 7♣ shown must take, in order, the first places holding it"
    ):
        cr.loads_view(view(state, 1, (["events", 3, "positions"], [1, 0])))


def test_a_reveal_is_drawn_exactly_where_the_rules_check_draws() -> None:
    # A one-card check draws the card it turns over; a whole-group check
    # draws nothing and turns over every card.
    one_card = (
        cr.deal(cr.english(3, check="one-card"), hands=CAUGHT_HANDS, dealer=2)
        .apply(cr.Play("7♣ K♦", "A"))
        .apply(cr.Challenge())
    )
    record = json.loads(cr.dumps(one_card, seat=1))
    assert record["view"]["events"][3]["drawn"] is True
    record["view"]["rules"]["policies"]["check"] = {"type": "WholeGroup"}
    with pytest.raises(cr.RecordError, match=r"drawn must be false: these rules' check draws"):
        cr.loads_view(json.dumps(record, ensure_ascii=False))
    with pytest.raises(cr.RecordError, match=r"the check turns over 2 cards of a group of 2"):
        cr.loads_view(
            view(CAUGHT, 1, (["events", 3, "cards"], ["7♣"]), (["events", 3, "positions"], [0]))
        )


def test_the_first_claim_is_made_by_the_seat_the_opening_rule_names() -> None:
    # Seat 2 deals, so seat 0, on its left, opens; dealt by seat 1, seat 2 would.
    assert cr.loads_view(view(CAUGHT, 1)) == CAUGHT.observe(1)
    with pytest.raises(
        cr.RecordError,
        match=r"view.events\[1\] \(Played\): seat 2 makes the first claim, not seat 0",
    ):
        cr.loads_view(view(CAUGHT, 1, (["events", 0, "dealer"], 1)))


def test_the_holder_of_the_opening_card_is_checked_only_where_the_seat_knows_it() -> None:
    rules = cr.english(3, opening=HolderOf("4♥"))
    state = cr.deal(rules, hands=["3♣ 7♣ K♦", "2♥ 3♥ 4♥", "4♦ 5♥ 6♥"], dealer=2)
    state = state.apply(cr.Play("2♥", "A"))
    for seat in range(3):
        assert cr.loads_view(view(state, seat)) == state.observe(seat)
    # Seat 1 holds 4♥, so it knows that it opens: a log where seat 2 opens
    # is refused. Seat 0 cannot tell who holds 4♥ (the sampler finds out).
    with pytest.raises(cr.RecordError, match=r"seat 1 makes the first claim, not seat 2"):
        cr.loads_view(view(state, 1, (["events", 1, "seat"], 2), (["events", 1, "cards"], [])))


def test_a_seat_with_no_cards_goes_out_as_soon_as_its_last_claim_stands() -> None:
    # Seat 1 lays its last card; seat 2 lays on it, so it stands and seat 1
    # goes out at once, before seat 0 lays.
    state = cr.deal(cr.verish(3), hands=["6♣ 7♦", "8♣", "9♣ 10♣"], dealer=2)
    for action in ["play 6♣ as 10", "play 8♣ as 10", "play 9♣ as 10", "play 7♦ as 10"]:
        state = state.apply(cr.parse_action(action))
    record = json.loads(cr.dumps(state, seat=0))
    events = record["view"]["events"]
    assert [event["event"] for event in events[3:]] == ["Played", "WentOut", "Played"]
    assert cr.loads_view(json.dumps(record, ensure_ascii=False)) == state.observe(0)
    events[4], events[5] = events[5], events[4]
    with pytest.raises(
        cr.RecordError,
        match=r"events\[4\] \(Played\): seat 1 has no cards left: its WentOut comes before this",
    ):
        cr.loads_view(json.dumps(record, ensure_ascii=False))


def test_a_draw_takes_as_many_cards_as_the_rules_say_while_the_stock_lasts() -> None:
    rules = cr.english(3, stock=3)
    state = cr.deal(rules, seed=6, dealer=2)
    state = state.apply(state.legal_actions()[-1]).apply(cr.Challenge())
    record = json.loads(cr.dumps(state, seat=0))
    drew = next(event for event in record["view"]["events"] if event["event"] == "Drew")
    assert drew["count"] == 1
    assert cr.loads_view(json.dumps(record, ensure_ascii=False)) == state.observe(0)
    record["view"]["rules"]["policies"]["dealing"]["draws"] = 2
    with pytest.raises(cr.RecordError, match=r"count must be 2: the rules draw 2"):
        cr.loads_view(json.dumps(record, ensure_ascii=False))


def test_a_turn_offers_the_choices_the_rules_give_and_no_others() -> None:
    # Under consent passing, seat 0 may pass; once seat 1 refuses, it must lay cards.
    rules = cr.english(3, passing="consent")
    state = cr.deal(rules, hands=CAUGHT_HANDS, dealer=2)
    assert state.observe(0).choices == (cr.Pass(),)
    assert cr.loads_view(view(state, 0)) == state.observe(0)
    with pytest.raises(
        cr.RecordError, match=r"view.choices must be \[Pass\(\)\], as the rules give"
    ):
        cr.loads_view(view(state, 0, (["choices"], [])))
    refused = state.apply(cr.Pass()).apply(cr.Refuse())
    assert refused.observe(0).choices == ()
    assert cr.loads_view(view(refused, 0)) == refused.observe(0)
    with pytest.raises(cr.RecordError, match=r"view.choices must be \[\], as the rules give"):
        cr.loads_view(view(refused, 0, (["choices"], ["pass"])))
    # A second pass after the refusal is no answer to the turn the engine asks.
    record = json.loads(cr.dumps(refused, seat=1))
    record["view"]["events"].append({"event": "Passed", "seat": 0})
    with pytest.raises(
        cr.RecordError, match=r"events\[3\] \(Passed\): Passed by seat 0 cannot come"
    ):
        cr.loads_view(json.dumps(record, ensure_ascii=False))


ASKED = OPENING.apply(OPENING.legal_actions()[0]).apply(
    cr.Accept()
)  # seat 1 accepted seat 0's claim


@pytest.mark.parametrize(
    ("edits", "message"),
    [
        ([(["to_move"], 1)], "view.phase and view.to_move must be challenge and seat 2"),
        ([(["phase"], "play")], "view.phase and view.to_move must be challenge and seat 2"),
        (
            [(["events", 2, "seat"], 2)],
            r"events\[2\] \(Accepted\): Accepted by seat 2 cannot come here: "
            r"seat 1 must challenge or accept seat 0's claim",
        ),
    ],
)
def test_the_window_after_a_claim_asks_each_opponent_in_turn(
    edits: list[tuple[list[Any], Any]], message: str
) -> None:
    assert cr.loads_view(view(ASKED, 0)) == ASKED.observe(0)
    with pytest.raises(cr.RecordError, match=message):
        cr.loads_view(view(ASKED, 0, *edits))


def test_replaying_a_bad_view_prints_one_line_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    status, told = replay_status(CORPUS["Dealt.hand_sizes shorter than the seats"][0])
    assert (status, told) == (2, "")
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert error.startswith("cheatrules: error: view.events[0] (Dealt): Dealt.hand_sizes must give")
    assert "Traceback" not in error


def test_rules_that_set_every_four_aside_unasked_have_no_discard_phase() -> None:
    # Compulsory discards never ask the taker: a view in a discard phase is refused.
    state = cr.deal(cr.english(3, discards="compulsory"), hands=["7♣ K♦", "2♥ 3♥", "4♥ 5♥"])
    state = state.apply(cr.Play("K♦", "A")).apply(cr.Challenge())  # seat 0 takes the pile
    text = view(state, 0, (["phase"], "discard"), (["to_move"], 0), (["choices"], []))
    with pytest.raises(
        cr.RecordError, match=r"view\.phase and view\.to_move must be play and seat 1"
    ):
        cr.loads_view(text)


# -- the reader follows the engine's own table and decisions ----------------------------


def _consented() -> cr.GameState:
    """Seat 0 lays, the window closes, seat 1 asks to pass and both others agree."""
    state = cr.deal(cr.english(3, passing="consent"), seed=6)
    play = next(action for action in state.legal_actions() if isinstance(action, cr.Play))
    state = state.apply(play).apply(cr.Accept()).apply(cr.Accept())
    assert state.to_move == 1 and cr.Pass() in state.choices
    return state.apply(cr.Pass()).apply(cr.Accept()).apply(cr.Accept())


def test_the_acceptance_that_completes_a_pass_names_the_passer() -> None:
    state = _consented()
    *_, first, last = state.events
    assert isinstance(first, cr.events.Accepted) and isinstance(last, cr.events.Accepted)
    assert (first.passer, last.passer) == (None, 1)
    assert state.required_rank is cr.Rank.THREE  # an Ace was claimed, the Two passed
    for seat in range(3):
        assert cr.loads_view(view(state, seat)) == state.observe(seat)


def test_a_record_whose_acceptances_name_no_passer_has_it_worked_out() -> None:
    state = _consented()
    record = json.loads(cr.dumps(state, seat=0))
    for event in record["view"]["events"]:
        event.pop("passer", None)
    assert cr.loads_view(json.dumps(record)) == state.observe(0)


@pytest.mark.parametrize(
    ("edits", "message"),
    [
        ([(["events", -1, "passer"], 2)], r"passer must be 1, as the seats asked to agree give"),
        ([(["events", -2, "passer"], 1)], r"passer must be null, as the seats asked to agree give"),
        (
            [(["events", -1, "event"], "Refused")],
            r"Refused has no field passer",
        ),
        (
            [(["events", -3, "seat"], 2)],
            r"Passed by seat 2 cannot come here: seat 1 must lay",
        ),
    ],
)
def test_a_pass_and_its_consents_follow_the_engine_s_decisions(
    edits: list[tuple[list[Any], Any]], message: str
) -> None:
    with pytest.raises(cr.RecordError, match=message):
        cr.loads_view(view(_consented(), 0, *edits))


def test_an_earlier_claim_is_challenged_only_where_the_window_reaches_it() -> None:
    state = cr.deal(cr.english(3, window="extended"), seed=6)
    state = state.apply(state.legal_actions()[0]).apply(cr.Accept()).apply(cr.Accept())
    state = state.apply(state.legal_actions()[0]).apply(cr.Accept())  # seat 1 lays, 2 accepts
    challenged = state.apply(cr.Challenge())  # seat 0 challenges seat 1's claim
    assert cr.loads_view(view(challenged, 2)) == challenged.observe(2)
    # Seat 0 may not challenge its own earlier claim: the engine's window says so.
    text = view(challenged, 2, (["events", 6, "earlier"], True), (["events", 6, "declarer"], 0))
    with pytest.raises(cr.RecordError, match=r"events\[6\] \(Challenged\): Challenged by seat 0"):
        cr.loads_view(text)
