"""What a seat can deduce, and games sampled to agree with everything it saw."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import assume, event, given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules.knowledge import CardKnowledge, card_knowledge
from cheatrules.sampling import SamplingError

from .budget import examples, scaled
from .strategies import (
    NAMES,
    house_options,
    option_combinations,
    play_randomly,
    random_action,
    small_deals,
)


def small_game(seed: int) -> cr.GameState:
    """A short random game from a small fixed deal of either game (deterministic in ``seed``)."""
    rng = random.Random(seed)
    options = house_options(rng)
    rules = rng.choice(
        [cr.english(rng.randint(3, 6), **options), cr.verish(rng.randint(2, 6), **options)]
    )
    deck = list(rules.deck.cards())
    rng.shuffle(deck)
    hands = []
    for _ in range(rules.players):
        size = rng.randint(1, 7)
        hands.append(deck[:size])
        deck = deck[size:]
    aside = rules.dealing.set_aside
    stock = deck[aside : aside + 6] if rules.dealing.hand_size else []
    state = cr.deal(rules, hands=hands, hidden=deck[:aside] or None, stock=stock or None)
    for _ in range(rng.randint(0, 60)):
        if state.is_over:
            break
        state = state.apply(random_action(state, rng))
    return state


# -- knowledge ---------------------------------------------------------------------


def test_cards_turned_over_are_known_in_the_takers_hand() -> None:
    state = cr.deal(cr.english(3), hands=["7♣ K♦ Q♠", "A♠ 2♥", "A♥ 9♣"])
    state = state.apply(cr.Play("7♣ K♦", "A")).apply(cr.Challenge())
    known = card_knowledge(state.observe(2))
    assert known.hands[0] == cr.cards("7♣ K♦")
    assert known.hands[2] == cr.cards("A♥ 9♣")
    assert known.hands[1] == ()


def test_a_players_known_cards_blur_once_they_lay_hidden_cards() -> None:
    state = cr.deal(cr.english(3), hands=["7♣ K♦ Q♠", "A♠ 2♥", "A♥ 9♣"])
    state = state.apply(cr.Play("7♣ K♦", "A")).apply(cr.Challenge())  # seat 0 holds 7♣ K♦ Q♠
    state = state.apply(cr.Play("2♥", "2")).apply(cr.Accept()).apply(cr.Accept())
    state = state.apply(cr.Play("9♣", "3")).apply(cr.Accept()).apply(cr.Accept())
    state = state.apply(cr.Play("K♦", "4"))  # seat 0 lays one of its three cards, unseen
    known = state.observe(2).knowledge()
    assert known.hands[0] == ()  # 7♣ and K♦ may be on the table now
    assert state.observe(1).knowledge().hands[0] == ()


def test_the_pile_a_seat_took_is_known_to_it() -> None:
    state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    state = state.apply(cr.Play("7♣", "A")).apply(cr.Accept()).apply(cr.Accept())
    state = state.apply(cr.Play("2♥", "2")).apply(cr.Accept()).apply(cr.Challenge())  # seat 0 takes
    known = state.observe(0).knowledge()
    assert known.hands[0] == cr.cards("2♥ 7♣ K♦")
    # Seat 2 saw the 2♥ turned over, but not the 7♣ that seat 0 had laid.
    assert cr.Card.parse("2♥") in state.observe(2).knowledge().hands[0]
    assert cr.Card.parse("7♣") not in state.observe(2).knowledge().hands[0]


def test_unseen_counts_shrink_as_cards_are_shown() -> None:
    state = cr.deal(cr.english(3), seed=4)
    before = state.observe(1).knowledge()
    assert sum(count for _, count in before.unseen) == 52 - len(state.hands[1])
    assert before.unseen_of(cr.Rank.ACE) == 4 - sum(
        card.rank is cr.Rank.ACE for card in state.hands[1]
    )


@st.composite
def two_pack_combinations(draw: st.DrawFn) -> cr.Rules:
    """English with two packs, 3-10 players, any named options; up to four jokers."""
    options: dict[str, object] = {
        family: draw(st.sampled_from(names))
        for family, names in NAMES.items()
        if draw(st.booleans())
    }
    if draw(st.booleans()):
        options["jokers"] = draw(st.sampled_from([True, "per-pack", 3]))
    if draw(st.booleans()):
        options["stock"] = draw(st.sampled_from([True, 5]))
    try:
        return cr.english(draw(st.integers(3, 10)), decks=2, **options)
    except cr.RulesError as error:
        assume("contradict" not in str(error) and "cannot deal" not in str(error))
        raise


def assert_true_of(current: cr.GameState) -> None:
    """Every seat's knowledge agrees with the true state (copy by copy)."""
    for seat in range(current.players):
        known = current.observe(seat).knowledge()
        for other, cards in enumerate(known.hands):
            assert not Counter(cards) - Counter(current.hands[other])
        assert not Counter(known.pile) - Counter(current.pile)
        assert Counter(known.discarded) == Counter(current.discarded)
        assert known.hands[seat] == current.hands[seat]
        placed = sum(map(len, known.hands)) + len(known.pile) + len(known.discarded)
        assert placed + sum(count for _, count in known.unseen) <= current.rules.deck.size
        # Every group: its size, the cards it is known to hold, and no claim
        # it could back ruled out (a joker stands in for the rank).
        assert len(known.groups) == len(current.groups)
        for index, (group, (claim, laid)) in enumerate(
            zip(known.groups, current.groups, strict=True)
        ):
            assert group.size == len(laid)
            assert not Counter(group.known) - Counter(laid)
            for rank in current.rules.deck.ranks:
                assert group.most(rank) >= sum(card.rank in (rank, cr.Rank.JOKER) for card in laid)
            if claim.seat != seat:
                truthful = all(card.rank in (claim.rank, cr.Rank.JOKER) for card in laid)
                assert not truthful or not known.rules_out(claim, index)
        for rank in current.rules.deck.ranks:
            there = sum(card.rank in (rank, cr.Rank.JOKER) for card in current.pile)
            assert known.most_on_table(rank) >= there


@examples(80)
@given(small_deals(max_cards=7), st.integers(0, 2**32), st.data())
def test_what_a_seat_knows_is_true(state: cr.GameState, seed: int, data: st.DataObject) -> None:
    states = play_randomly(state, seed, limit=120)
    assert_true_of(states[data.draw(st.integers(0, len(states) - 1))])


@examples(20)
@given(small_deals(two_pack_combinations(), max_cards=9), st.integers(0, 2**32), st.data())
def test_with_copies_what_a_seat_knows_is_true(
    state: cr.GameState, seed: int, data: st.DataObject
) -> None:
    # Two packs and house rules (one-card checks, the extended window, a
    # stock, jokers): every state of a random game, not one drawn from it,
    # since a wrong count shows only after the copies have moved about.
    states = play_randomly(state, seed, limit=80)
    for current in states[data.draw(st.integers(0, 3)) :: 4]:
        assert_true_of(current)


def last_claim(state: cr.GameState) -> cr.Claim:
    """The newest claim on the table (there must be one)."""
    claim = state.last_claim
    assert claim is not None
    return claim


def test_verish_a_claim_of_more_kings_than_are_left_is_provably_false() -> None:
    # Verish' Ne Verish' with one 36-card pack: four Kings in all. Seat 2
    # holds two; four Kings were claimed before it: the table can hold at
    # most the two Kings seat 2 does not hold.
    rules = cr.verish(3)
    state = cr.deal(rules, hands=["7♣ 8♣ 9♣ 10♣", "J♣ Q♣ A♣ 6♦", "K♣ K♦ 6♣"], hidden="7♦")
    state = state.apply(cr.Play("7♣ 8♣", "K")).apply(cr.Play("J♣ Q♣", "K"))  # 4 Kings claimed
    known = state.observe(2).knowledge()
    assert known.most_on_table(cr.Rank.KING) == 2
    assert sum(claim.count for claim in state.claims) > known.most_on_table(cr.Rank.KING)
    assert known.most_in_group(cr.Rank.KING) == 2
    state = state.apply(cr.Play("6♣", "K")).apply(cr.Play("9♣ 10♣", "K"))
    state = state.apply(cr.Play("A♣ 6♦", "K"))  # a further claim of two Kings
    known = state.observe(2).knowledge()
    assert known.most_in_group(cr.Rank.KING) == 2
    assert not known.rules_out(last_claim(state))  # two Kings could be there
    assert known.most_in_group(cr.Rank.KING, 2) == 0  # seat 2's own group: the 6♣
    three = cr.deal(rules, hands=["7♣ 8♣ 9♣", "J♣ Q♣", "K♣ K♦ 6♣"], hidden="7♦")
    three = three.apply(cr.Play("7♣ 8♣ 9♣", "K"))  # three Kings: one too many
    assert three.observe(2).knowledge().rules_out(last_claim(three))


def test_verish_once_every_king_is_placed_any_claim_of_kings_is_provably_false() -> None:
    # Seat 1 lays two true Kings; seat 2 doubts them and takes the pile. Seat
    # 0 holds the two other Kings: every King is placed, none on the table.
    rules = cr.verish(3)
    state = cr.deal(rules, hands=["K♣ K♦ 6♣ 7♣", "K♥ K♠ 8♣ 9♣", "J♣ Q♣ A♣"], hidden="7♦")
    state = state.apply(cr.Play("6♣", "6")).apply(cr.Play("K♥ K♠", "6"))
    state = state.apply(cr.Challenge())  # a lie: seat 1 takes the pile, the K♥ K♠ shown
    state = state.apply(cr.Discard(()))
    assert state.to_move == 2
    state = state.apply(cr.Play("J♣", "K"))  # seat 2 opens with a King
    known = state.observe(0).knowledge()
    assert known.hands[1] == cr.cards("6♣ K♥ K♠")  # its own 6♣, and the Kings shown
    assert known.most_in_group(cr.Rank.KING) == 0
    assert known.rules_out(last_claim(state))
    # Seat 1 does not know where K♣ K♦ are: the claim may be true for all it knows.
    assert not state.observe(1).knowledge().rules_out(last_claim(state))


def test_english_one_pack_a_claim_of_two_aces_with_one_unseen_is_provably_false() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ 5♣ 6♣", "A♠ A♦ A♥", "Q♥ 8♣"])
    state = state.apply(cr.Play("5♣ 6♣", "A"))
    known = state.observe(1).knowledge()
    assert known.most_in_group(cr.Rank.ACE) == 1
    assert known.rules_out(last_claim(state))
    assert not state.observe(2).knowledge().rules_out(last_claim(state))


def test_english_two_packs_a_rank_whose_copies_are_placed_bounds_the_claims() -> None:
    # 7 players, two packs: eight Aces. Seat 1 holds five; seat 0 claims four.
    hands = ["2♣ 3♣ 4♣ 5♣", "A♣ A♣ A♦ A♦ A♥", "6♣", "7♣", "8♣", "9♣", "10♣"]
    state = cr.deal(cr.english(7), hands=hands)
    state = state.apply(cr.Play("2♣ 3♣ 4♣ 5♣", "A"))
    known = state.observe(1).knowledge()
    assert known.unseen_of(cr.Rank.ACE) == 3
    assert known.most_in_group(cr.Rank.ACE) == 3
    assert known.rules_out(last_claim(state))
    assert known.most_on_table(cr.Rank.ACE) == 3
    assert not state.observe(2).knowledge().rules_out(last_claim(state))


def test_jokers_stand_in_for_the_claimed_rank() -> None:
    rules = cr.english(3, jokers=True)
    state = cr.deal(rules, hands=["A♣ 5♣ 6♣", "A♠ A♦ A♥", "Q♥ 8♣"])
    state = state.apply(cr.Play("5♣ 6♣", "A"))
    known = state.observe(1).knowledge()
    assert known.most_in_group(cr.Rank.ACE) == 2  # the last Ace and a joker
    assert known.most_in_group(cr.Rank.JOKER) == 2
    assert not known.rules_out(last_claim(state))


def test_knowledge_built_by_hand_knows_no_group() -> None:
    known = CardKnowledge(0, ((), ()), (), (), ())
    assert known.groups == () and known.most_on_table(cr.Rank.ACE) == 0


# -- kept as the game goes ---------------------------------------------------------------


def from_scratch(seen: cr.Observation) -> CardKnowledge:
    """The knowledge worked out from a copy of the seat's log with no shared history."""
    alone = cr.Observation(seen.seat, seen.hand, seen.table, seen.decision, tuple(seen.events))
    return card_knowledge(alone)


def test_a_later_observation_extends_the_knowledge_of_an_earlier_one() -> None:
    state = cr.deal(cr.english(4), seed=2)
    first = state.observe(1).knowledge()
    rng = random.Random(2)
    for _ in range(40):
        state = state.apply(random_action(state, rng))
    seen = state.observe(1)
    assert seen.knowledge() is seen.knowledge()
    box = seen.events.shared["knowledge, seat 1"]  # type: ignore[attr-defined]
    assert len(box) == 2  # the deal's and this one's, shared through the log
    assert seen.knowledge() == from_scratch(seen)
    assert first.hands[1] == cr.deal(cr.english(4), seed=2).hands[1]


def test_an_observation_loaded_from_a_view_record_works_its_knowledge_out_once() -> None:
    state = cr.deal(cr.verish(3), seed=5)
    rng = random.Random(5)
    for _ in range(30):
        state = state.apply(random_action(state, rng))
    loaded = cr.loads_view(cr.dumps(state, seat=2))
    assert loaded.knowledge() == state.observe(2).knowledge()
    assert loaded.knowledge() is loaded.knowledge()


@examples(12)
@given(option_combinations(), st.integers(0, 2**32), st.randoms(use_true_random=False))
def test_incremental_knowledge_equals_knowledge_from_scratch(
    rules: cr.Rules, seed: int, order: random.Random
) -> None:
    check_incremental(rules, seed, order)


@examples(15)
@given(two_pack_combinations(), st.integers(0, 2**32), st.randoms(use_true_random=False))
def test_with_copies_incremental_knowledge_equals_knowledge_from_scratch(
    rules: cr.Rules, seed: int, order: random.Random
) -> None:
    check_incremental(rules, seed, order)


def check_incremental(rules: cr.Rules, seed: int, order: random.Random) -> None:
    """Knowledge kept as the game goes equals knowledge from scratch, views in any order."""
    # Every seat at every step of a game and of sibling lines branching off
    # it, observed in a shuffled order: each state's knowledge is the one
    # worked out afresh from its log.
    states = play_randomly(cr.deal(rules, seed=seed), seed, limit=30)
    rng = random.Random(seed)
    for state in states[:: max(1, len(states) // 4)]:
        for _ in range(2):
            sibling = state
            for _ in range(rng.randint(1, 6)):
                if sibling.is_over:
                    break
                sibling = sibling.apply(random_action(sibling, rng))
                states.append(sibling)
    views = [(state, seat) for state in states for seat in range(state.players)]
    order.shuffle(views)
    for at, (state, seat) in enumerate(views):
        seen = state.observe(seat)
        known = seen.knowledge()
        if at % 6 == 0:  # working it out afresh is the slow part
            assert known == from_scratch(seen)


# -- sampling ------------------------------------------------------------------------


@examples(120)
@given(st.integers(0, 2**32), st.data())
def test_a_sample_looks_the_same_from_the_seat(seed: int, data: st.DataObject) -> None:
    state = small_game(seed)
    seat = data.draw(st.integers(0, state.players - 1))
    seen = state.observe(seat)
    try:
        sampled = seen.sample(random.Random(seed))
    except SamplingError:
        # Rare and measured below; a sample that is returned is always right.
        event("no sample found")
        return
    assert sampled.observe(seat) == seen
    assert sampled.rules == state.rules
    assert sampled.hand_sizes == state.hand_sizes
    assert sampled.hands[seat] == state.hands[seat]


def test_samples_are_found_for_nearly_every_position() -> None:
    # A fixed corpus of short games (100, or more in a deeper run) and every
    # seat in them: the sampler gives up (SamplingError) on a handful of
    # heavily constrained logs.
    found = failed = 0
    for seed in range(scaled(100)):
        state = small_game(seed)
        for seat in range(state.players):
            seen = state.observe(seat)
            try:
                assert seen.sample(random.Random(seed)).observe(seat) == seen
                found += 1
            except SamplingError:
                failed += 1
    assert failed <= 0.01 * (found + failed), (found, failed)


def test_at_the_deal_every_unseen_card_turns_up_everywhere_it_could_be() -> None:
    state = cr.deal(cr.verish(3), hands=["6♣ 7♣", "8♣ 9♣", "10♣ J♣"], hidden="Q♣")
    seen = state.observe(0)
    rng = random.Random(7)
    places: dict[cr.Card, set[str]] = {}
    for _ in range(300):
        sampled = seen.sample(rng)
        for seat in (1, 2):
            for card in sampled.hands[seat]:
                places.setdefault(card, set()).add(f"hand {seat}")
        for card in sampled.set_aside:
            places.setdefault(card, set()).add("aside")
    # 36-card pack: 34 cards seat 0 cannot see, any of them in either hand or aside.
    assert len(places) == 34
    assert all(where == {"hand 1", "hand 2", "aside"} for where in places.values())


def test_the_real_placement_of_unseen_cards_turns_up_among_the_samples() -> None:
    # Where each card really is, is one placement the seat cannot rule out,
    # so samples should put it there too. Samples are random, not uniform: a
    # card with many places to be in can be missed by 150 draws now and then.
    found = missed = 0
    games = scaled(6)
    for seed in range(games):
        state = small_game(seed)
        for seat in range(state.players):
            seen = state.observe(seat)
            rng = random.Random(seed)
            try:
                samples = [seen.sample(rng) for _ in range(150)]
            except SamplingError:
                continue
            for other in range(state.players):
                for card in state.hands[other] if other != seat else ():
                    if any(card in sample.hands[other] for sample in samples):
                        found += 1
                    else:
                        missed += 1
    assert found > 15 * games
    assert missed <= 0.01 * (found + missed), (found, missed)


def test_with_two_packs_a_seat_knows_its_own_cards_and_the_discards() -> None:
    state = cr.deal(cr.english(7), seed=3)
    state = state.apply(cr.Play(state.hands[0][:2], "A"))
    known = state.observe(0).knowledge()
    assert known.hands[0] == state.hands[0]
    assert known.pile == tuple(sorted(state.pile))
    assert all(not cards for cards in known.hands[1:])
    assert sum(count for _, count in known.unseen) == 104 - len(state.hands[0]) - 2


def test_with_two_packs_cards_turned_over_are_known_where_they_go_copy_by_copy() -> None:
    # Three players, two packs: two copies of every card.
    rules = cr.english(3, decks=2)
    state = cr.deal(rules, hands=["2♣ 3♣ 4♣ 5♣ 6♣", "A♣ A♣ 9♦ 9♥", "K♦ Q♦ J♦"])
    state = state.apply(cr.Play("2♣ 3♣", "A")).apply(cr.Challenge())  # seat 0 takes them back
    known = state.observe(2).knowledge()
    assert known.hands[0] == cr.cards("2♣ 3♣")
    assert known.unseen_of(cr.Rank.TWO) == 7  # eight Twos, one placed in seat 0's hand
    state = state.apply(cr.Play("A♣ A♣", "2")).apply(cr.Challenge())  # both copies shown
    known = state.observe(2).knowledge()
    assert known.hands[1] == cr.cards("A♣ A♣")
    assert known.unseen_of(cr.Rank.ACE) == 6
    state = state.apply(cr.Play("K♦", "3")).apply(cr.Accept()).apply(cr.Accept())
    state = state.apply(cr.Play("4♣", "4")).apply(cr.Challenge())  # true: seat 1 takes the pile
    # Seat 2 laid the K♦ and saw the 4♣; seat 0 saw only its own 4♣ go.
    assert state.observe(2).knowledge().hands[1] == cr.cards("A♣ A♣ 4♣ K♦")
    assert state.observe(0).knowledge().hands[1] == cr.cards("A♣ A♣ 4♣")
    # Seat 0 laid one card, turned over: the 2♣ 3♣ it holds are still known.
    assert state.observe(2).knowledge().hands[0] == cr.cards("2♣ 3♣")
    state = state.apply(cr.Play("9♦", "5")).apply(cr.Accept()).apply(cr.Accept())
    state = state.apply(cr.Play("Q♦", "6")).apply(cr.Accept()).apply(cr.Accept())
    state = state.apply(cr.Play("6♣", "7")).apply(cr.Accept()).apply(cr.Accept())
    # Seat 0 and seat 1 each laid a card nobody saw: the cards known in their hands may be gone.
    known = state.observe(2).knowledge()
    assert known.hands[0] == () and known.hands[1] == ()
    assert known.unseen_of(cr.Rank.ACE) == 8
    assert known.most_in_group(cr.Rank.ACE, 0) == 1  # seat 1's card: an Ace, perhaps


def test_a_sample_after_a_one_card_check_draws_afresh_later() -> None:
    # The sampled game shows the card the seat saw; later checks in it are
    # drawn at random, not scripted to the lowest card.
    rules = cr.english(3, check="one-card")
    state = cr.deal(rules, hands=["A♦ K♣ 2♦ 3♦ 4♦", "K♥ 9♣ 5♣ 6♣", "Q♥ 8♣ 7♣ 5♥"], seed=4)
    state = state.apply(cr.Play("A♦ K♣", "A")).apply(cr.Challenge())
    seen = state.observe(2)
    rng = random.Random(3)
    lowest = 0
    for _ in range(30):
        world = seen.sample(rng)
        assert world.observe(2) == seen
        hand = world.hands[world.to_move]  # type: ignore[index]
        laid = tuple(sorted(hand)[:2])
        after = world.apply(cr.Play(laid, world.allowed_ranks[0])).apply(cr.Challenge())
        lowest += after.events[-2].cards == laid[:1]  # type: ignore[attr-defined]
    assert 5 <= lowest <= 25


def test_a_seat_whose_own_group_got_a_one_card_check_can_still_be_sampled() -> None:
    hands = ["A♦ A♣ 4♣ 9♦ 9♠", "2♥ K♥ 9♣ 5♠", "3♥ Q♥ 8♣"]
    state = cr.deal(cr.english(3, check="one-card"), hands=hands, seed=1)
    steps = [
        (cr.Play("A♦ A♣", "A"), cr.Challenge()),
        (cr.Play("2♥", "2"), cr.Accept(), cr.Accept()),
        (cr.Play("3♥", "3"), cr.Accept(), cr.Accept()),
        (cr.Play("4♣", "4"), cr.Accept(), cr.Accept()),
        (cr.Play("K♥", "5"), cr.Accept(), cr.Challenge()),  # seat 1 takes the pile, 4♣ too
        (cr.Play("8♣", "6"), cr.Accept(), cr.Accept()),
        (cr.Play("9♦", "7"), cr.Accept(), cr.Accept()),
        (cr.Play("4♣", "8"), cr.Challenge()),  # seat 1 shows the 4♣ seat 0 laid
    ]
    for group in steps:
        for action in group:
            state = state.apply(action)
    seen = state.observe(0)
    assert seen.sample(random.Random(0)).observe(0) == seen


# -- a final play kept on the table (the extended window) --------------------------------


def final_play_kept(final: str = "2♥") -> cr.GameState:
    """Seat 0 bluffs Aces, seat 1 lays its last card, seat 2 challenges the Aces."""
    rules = cr.english(4, window="extended", ending="placings")
    state = cr.deal(rules, hands=["K♦ 5♣ 6♣", final, "Q♥ 8♣ 8♦", "J♠ 3♠ 4♦"])
    state = state.apply(cr.Play("K♦", "A"))
    while state.phase is cr.Phase.CHALLENGE:
        state = state.apply(cr.Accept())
    return state.apply(cr.Play(final, "2")).apply(cr.Challenge(earlier=True))


def test_knowledge_keeps_a_final_play_on_the_table_after_the_pile_beneath_is_taken() -> None:
    state = final_play_kept()
    assert state.pile == cr.cards("2♥")
    assert card_knowledge(state.observe(1)).pile == cr.cards("2♥")
    known = card_knowledge(state.observe(2))
    assert known.hands[0] == cr.cards("K♦") and known.pile == ()
    caught = final_play_kept("9♣")
    for _ in range(3):
        caught = caught.apply(cr.Accept())
    assert caught.finishing_order == (1,)
    assert card_knowledge(caught.observe(1)).pile == cr.cards("9♣")


def test_samples_agree_with_a_final_play_kept_on_the_table() -> None:
    states = [final_play_kept(), final_play_kept("9♣")]
    states.append(states[1].apply(cr.Challenge()))  # seat 2 catches the final play
    states.append(states[0].apply(cr.Accept()).apply(cr.Accept()).apply(cr.Accept()))
    for state in states:
        for seat in range(4):
            seen = state.observe(seat)
            assert seen.sample(random.Random(seat)).observe(seat) == seen
