"""Reference bots: baselines to beat, each acting from its seat's observation alone.

A bot is any object with an ``act(observation, rng)`` method (the
:class:`Agent` protocol). It sees an :class:`~cheatrules.Observation`, never
a state, and draws every random choice from the ``rng`` it is given, so a
seeded game replays exactly. The four bots here are frozen ``attrs``
values: they hold no state between decisions, compare equal when their
settings do, and can be sent to other processes (see :mod:`cheatrules.arena`).

>>> import random
>>> import cheatrules as cr
>>> from cheatrules.bots import CountingBot, HonestBot, RandomBot
>>> bots = [CountingBot(), HonestBot(), RandomBot()]
>>> state = cr.deal(cr.english(3), seed=11)
>>> rngs = [random.Random(seat) for seat in range(3)]
>>> while not state.is_over:
...     seat = state.to_move
...     state = state.apply(bots[seat].act(state.observe(seat), rngs[seat]))
>>> state.outcome.winners
(0,)
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import attrs

from cheatrules import _checks
from cheatrules.actions import Accept, Action, Challenge, Discard, Pass, Play, Refuse
from cheatrules.cards import Card, Rank
from cheatrules.decision import Consent, Decision, DiscardOffer, Turn, Window
from cheatrules.errors import CheatRulesError, RulesError
from cheatrules.knowledge import CardKnowledge
from cheatrules.observation import Observation
from cheatrules.policies.challenges import holds
from cheatrules.policies.declarations import declared
from cheatrules.sampling import SamplingError, sample
from cheatrules.state import GameState
from cheatrules.table import Claim

__all__ = ["Agent", "CountingBot", "HonestBot", "RandomBot", "SamplingBot", "claim_odds"]

_CHALLENGE = Challenge()


@runtime_checkable
class Agent(Protocol):
    """Anything that decides for one seat: ``act(observation, rng) -> Action``.

    ``act`` is called only when the observing seat is to move, and must
    return an action ``in observation.legal_actions()`` (membership follows
    the rules, so a play of the listed ranks in other suits is in it too).
    Draw every random choice from ``rng``: the arena seeds it, so that
    games replay.
    """

    def act(self, observation: Observation, rng: random.Random) -> Action:
        """The decision of the observing seat."""
        ...


# -- shared reasoning --------------------------------------------------------------


def _true_play(seen: Observation) -> Play | None:
    """The largest true play: the allowed rank the seat holds most of, jokers only to fill in."""
    hand = seen.hand
    best: tuple[int, Rank] | None = None
    for rank in seen.allowed_ranks:
        held = sum(1 for card in hand if card.rank is rank)
        if held and (best is None or held > best[0]):
            best = (held, rank)
    if best is None and not seen.allowed_ranks:
        return None
    # Without a card of an allowed rank, jokers alone may back the claim.
    rank = seen.allowed_ranks[0] if best is None else best[1]
    laid = [card for card in hand if card.rank is rank][: seen.rules.claims.maximum]
    # A hand smaller than the smallest claim lays all it holds.
    smallest = max(1, min(seen.rules.claims.minimum, len(hand)))
    if len(laid) < smallest:
        laid += [card for card in hand if card.rank is Rank.JOKER][: smallest - len(laid)]
    if len(laid) < smallest:
        return None
    return Play(tuple(laid), rank)


def _upcoming(seen: Observation) -> list[Rank]:
    """The ranks this seat will be asked for at its next turns, soonest first.

    Only for rank rules that require one rank at a time; empty otherwise.
    """
    if len(seen.allowed_ranks) != 1:
        return []
    rules = seen.rules
    active = rules.players - len(seen.finishing_order)
    rank = seen.allowed_ranks[0]
    mine = []
    for step in range(active * len(rules.deck.ranks)):
        if step % active == 0:
            mine.append(rank)
        allowed = rules.ranks.allowed(rank, False, rules.deck.ranks)
        if len(allowed) != 1:
            break
        rank = allowed[0]
    return mine


def _bluff(seen: Observation, rng: random.Random, careful: bool) -> Play:
    """The smallest lie: as few cards as a claim allows (a small hand: all), costing least."""
    hand = list(seen.hand)
    rank = rng.choice(seen.allowed_ranks)
    count = min(seen.rules.claims.minimum, len(hand))
    if not careful:
        return Play(tuple(rng.sample(hand, count)), rank)
    # Give away the cards of the ranks this seat will be asked for last.
    upcoming = _upcoming(seen)[1:]
    held = Counter(card.rank for card in hand)

    def cost(card: Card) -> tuple[float, int, int]:
        if card.rank is Rank.JOKER:
            return (math.inf, 0, 0)  # a joker is never a lie: keep it
        soon = upcoming.index(card.rank) if card.rank in upcoming else len(upcoming) + 1
        return (-soon, held[card.rank], card.key)

    ordered = sorted(hand, key=cost)
    return Play(tuple(ordered[:count]), rank)


def _lay(seen: Observation, actions: Sequence[Action], rng: random.Random, careful: bool) -> Action:
    """Fours first where the turn allows; true cards if held; else a pass; else the smallest lie."""
    fours = seen.rules.discards.on_turn(seen.hand)
    if fours:
        return Discard(fours)
    play = _true_play(seen)
    if play is not None:
        return play
    if Pass() in actions:
        return Pass()
    return _bluff(seen, rng, careful)


def _overclaimed(seen: Observation, known: CardKnowledge, claim: Claim) -> bool:
    """Whether the other seats' claims in the newest run of ``claim``'s rank cannot all be true.

    A run is the claims of one rank laid one after another (in Verish' Ne
    Verish' the whole table, the rank held until a challenge). Its groups
    laid by other seats are claimed to hold more cards of the rank (jokers
    standing in) than they can: some of those claims are lies, and the
    newest, still on top, is the one a challenge can catch.
    """
    claimed = known_there = room = 0
    counted = (claim.rank, Rank.JOKER)
    for index in range(len(seen.claims) - 1, -1, -1):
        each = seen.claims[index]
        if each.rank is not claim.rank:
            break
        if each.seat != seen.seat:
            group = known.groups[index]
            claimed += each.count
            known_there += sum(card.rank in counted for card in group.known)
            room += group.size - len(group.known)
    unplaced = sum(count for rank, count in known.on_table if rank in counted)
    return claimed > known_there + min(room, unplaced)


def claim_odds(seen: Observation, known: CardKnowledge | None = None) -> float:
    """The chance, from what the seat knows, that the last claim on the table is true.

    The declarer's hand before the claim held its known cards and some
    unknown ones; the unknown ones are taken as a random draw from the cards
    this seat cannot place, and the claim is true when that draw held at
    least as many cards of the rank (or jokers) as claimed, or, where a
    joker protects a whole group (:class:`~cheatrules.policies.JokerProtects`),
    any joker. A claim no deal could back has odds 0.

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["A♣ A♦ A♥ 5♣", "A♠ 9♣", "Q♥ 8♣"])
    >>> state = state.apply(cr.Play("5♣", "A"))
    >>> round(claim_odds(state.observe(1)), 2)  # 4 cards from the 50 seat 1 cannot see
    0.23
    >>> state = cr.deal(cr.english(3), hands=["A♣ 5♣ 6♣", "A♠ A♦ A♥", "Q♥ 8♣"])
    >>> claim_odds(state.apply(cr.Play("5♣ 6♣", "A")).observe(1))  # two Aces, one unseen
    0.0
    """
    claim = seen.last_claim
    if claim is None:
        return 1.0
    known = seen.knowledge() if known is None else known
    protects = declared(seen.rules.check, "jokers_protect") and known.most_in_group(Rank.JOKER) > 0
    if known.rules_out(claim) and not protects:
        return 0.0
    unseen = dict(known.unseen)
    pool = sum(unseen.values())
    jokers = unseen.get(Rank.JOKER, 0)
    good = unseen.get(claim.rank, 0) + jokers
    # The declarer's unknown cards before it laid this group.
    before = seen.hand_sizes[claim.seat] + claim.count - len(known.hands[claim.seat])
    drawn = min(max(before, claim.count), pool)
    if pool <= 0 or drawn <= 0:
        return 0.0
    if protects and jokers:
        # False only with no joker drawn and too few of the rank.
        return 1.0 - _exactly_below(pool - jokers, good - jokers, pool, drawn, claim.count)
    return _at_least(pool, good, drawn, claim.count)


def _at_least(pool: int, good: int, drawn: int, wanted: int) -> float:
    """P(at least ``wanted`` good cards) drawing ``drawn`` of ``pool`` cards holding ``good``."""
    total = math.comb(pool, drawn)
    hits = sum(
        math.comb(good, k) * math.comb(pool - good, drawn - k)
        for k in range(wanted, min(good, drawn) + 1)
    )
    return hits / total


def _exactly_below(plain: int, good: int, pool: int, drawn: int, wanted: int) -> float:
    """P(no card outside ``plain`` drawn, and fewer than ``wanted`` of its ``good`` ones).

    Drawing ``drawn`` of ``pool`` cards, ``plain`` of which are not jokers.
    """
    total = math.comb(pool, drawn)
    misses = sum(
        math.comb(good, k) * math.comb(plain - good, drawn - k)
        for k in range(min(wanted, drawn + 1))
    )
    return misses / total


def _choices(seen: Observation) -> Sequence[Action]:
    """The decisions to weigh: every choice but the plays (listing plays costs the most).

    In the discard phase, the fours' choices; otherwise the challenge,
    pass, accept or refuse choices open now (see ``Observation.choices``).
    """
    return seen.legal_actions() if isinstance(seen.decision, DiscardOffer) else seen.choices


def _may_challenge(decision: Decision) -> bool:
    """Whether the seat to move may challenge now (the challenge is then its first choice)."""
    return isinstance(decision, Window) or (isinstance(decision, Turn) and decision.may_challenge)


def _answer_pass(seen: Observation) -> Action:
    """Agree to another player's pass, unless that player holds fewer cards than this seat.

    Helping the leader along is no help; and refusing someone breaks the
    cycles two players who both pass whenever they can would fall into.
    """
    decision = seen.decision
    asker = decision.passer if isinstance(decision, Consent) else None
    if asker is not None and seen.hand_sizes[asker] < len(seen.hand):
        return Refuse()
    return Accept()


def _discard_all(actions: Sequence[Action]) -> Action:
    """Set aside every four offered (the last choice lists them all)."""
    return actions[-1]


# -- the bots ------------------------------------------------------------------------


@attrs.frozen
class RandomBot:
    """Any legal decision, uniformly at random: the floor every bot should beat.

    Plays are drawn from the seat's hand rather than from the list of
    distinct plays, so it lays 1 to the largest claim of random cards; it
    challenges with probability ``challenge`` whenever it may.

    Raises:
        RulesError: ``challenge`` is not a number from 0 to 1.

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), seed=1)
    >>> state.is_legal(RandomBot().act(state.observe(0), random.Random(1)))
    True

    """

    #: How often it challenges when it may, a probability from 0 to 1.
    challenge: float = attrs.field(default=0.3, validator=_checks.number(0, 1))

    def act(self, observation: Observation, rng: random.Random) -> Action:
        """A random legal decision."""
        actions = _choices(observation)
        decision = observation.decision
        if _may_challenge(decision) and rng.random() < self.challenge:
            return rng.choice([action for action in actions if isinstance(action, Challenge)])
        if isinstance(decision, Window):
            return Accept()
        if isinstance(decision, Turn):
            extras = [action for action in actions if isinstance(action, Pass)]
            if extras and rng.random() < 0.2:
                return extras[0]
            hand = observation.hand
            sizes = observation.rules.claims.sizes(len(hand))
            count = rng.randint(sizes.start, sizes.stop - 1)
            return Play(tuple(rng.sample(hand, count)), rng.choice(observation.allowed_ranks))
        return observation.legal_actions().choice(rng)


@attrs.frozen
class HonestBot:
    """Tells the truth when it can, lies as little as it must, and doubts only the impossible.

    - It lays every card it holds of the required rank (the allowed rank it
      holds most of, under a free choice), as many as a claim allows.
    - With no true card, it passes where the rules let it, else lays the
      fewest cards a claim allows, chosen at random.
    - It challenges only a claim its card knowledge proves false: more cards
      of the rank than could be anywhere but the places it knows.
    - It sets aside every four it can, and agrees to other players' passes
      unless the asker holds fewer cards than it does.

    Raises:
        RulesError: ``doubt`` or ``last_cards`` is not a number from 0 to 1,
            or ``pile_scale`` is not a number above 0.

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["A♣ A♦ 5♣", "9♣ 9♦", "Q♥ 8♣"])
    >>> HonestBot().act(state.observe(0), random.Random(1))
    Play(A♣ A♦ as A)

    """

    def act(self, observation: Observation, rng: random.Random) -> Action:
        """The honest decision."""
        actions = _choices(observation)
        decision = observation.decision
        if isinstance(decision, DiscardOffer):
            return _discard_all(actions)
        if isinstance(decision, Consent):
            return _answer_pass(observation)
        if _may_challenge(decision):
            claim = observation.last_claim
            known = observation.knowledge()
            if claim is not None and known.rules_out(claim):
                return _CHALLENGE
            if isinstance(decision, Window):
                return Accept()
        return _lay(observation, actions, rng, careful=False)


@attrs.frozen
class CountingBot:
    """Counts cards: challenges claims that are impossible or unlikely, and bluffs with care.

    - It estimates how likely the last claim is to be true
      (:func:`claim_odds`) and challenges when the odds fall below a bar.
      The bar follows the rule books' tips: it is lowest for a big pile (a
      wrong call costs the whole pile), and highest when the claim holds
      the declarer's last cards (letting a lie stand loses the game). The
      default bars were set by seeded tournaments: a wrong call costs more
      than most right calls win, so it calls only long odds.
    - It plays its true cards, as :class:`HonestBot` does; with none, it
      passes where it may, else gives away a single card of the rank it
      will be asked for last (never a joker).
    - It sets aside every four it can, and agrees to other players' passes
      unless the asker holds fewer cards than it does.

    Raises:
        RulesError: ``doubt`` or ``last_cards`` is not a number from 0 to 1,
            or ``pile_scale`` is not a number above 0.

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["A♣ 5♣ 6♣", "A♠ A♦ A♥", "Q♥ 8♣"])
    >>> state = state.apply(cr.Play("5♣ 6♣", "A"))   # two Aces: at most one is unseen
    >>> CountingBot().act(state.observe(1), random.Random(1))
    Challenge()

    """

    #: The bar with an empty pile (a claim less likely than this to be true is challenged).
    doubt: float = attrs.field(default=0.02, validator=_checks.number(0, 1))
    #: The pile size at which the bar has halved (above 0).
    pile_scale: float = attrs.field(default=10.0, validator=_checks.number(0, above=True))
    #: The bar when the claim empties the declarer's hand.
    last_cards: float = attrs.field(default=0.3, validator=_checks.number(0, 1))

    def act(self, observation: Observation, rng: random.Random) -> Action:
        """The counting decision."""
        actions = _choices(observation)
        decision = observation.decision
        if isinstance(decision, DiscardOffer):
            return _discard_all(actions)
        if isinstance(decision, Consent):
            return _answer_pass(observation)
        if _may_challenge(decision) and self.doubts(observation):
            return _CHALLENGE
        if isinstance(decision, Window):
            return Accept()
        return _lay(observation, actions, rng, careful=True)

    def doubts(self, observation: Observation) -> bool:
        """Whether the last claim is unlikely enough to challenge."""
        claim = observation.last_claim
        if claim is None:
            return False
        known = observation.knowledge()
        if _overclaimed(observation, known, claim):
            return True
        odds = claim_odds(observation, known)
        if observation.hand_sizes[claim.seat] == 0:
            return odds < self.last_cards
        pile = observation.pile_size - claim.count
        return odds < self.doubt / (1 + pile / self.pile_scale)


def _is_agent(instance: object, attribute: Any, value: object) -> None:
    if not callable(getattr(value, "act", None)):
        raise RulesError(
            f"{type(instance).__name__}.{attribute.name} must be an agent with an "
            f"act(observation, rng) method; got {value!r}"
        )


@attrs.frozen
class SamplingBot:
    """Decides each challenge by Monte-Carlo rollouts over worlds its seat cannot tell apart.

    For a challenge decision it draws ``samples`` whole games consistent
    with its observation (:func:`~cheatrules.sampling.sample`, at most
    ``attempts`` tries each), plays each choice in
    each of them, and lets every seat finish the game with a quick policy
    (true cards when held, a random card otherwise, a challenge now and
    then) for at most ``horizon`` decisions. It takes the choice that won
    most often, a game cut short counting by the seat's share of players
    holding more cards than it. A claim its card knowledge rules out is
    challenged without sampling. Its plays are :class:`CountingBot`'s,
    and so is its decision with no sample found or on a tie.

    Raises:
        RulesError: ``samples`` or ``attempts`` is not a whole number of at
            least 1, ``horizon`` not one of at least 0, or ``fallback`` is
            not an agent.

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["A♣ 5♣ 6♣", "A♠ A♦ A♥", "Q♥ 8♣"])
    >>> state = state.apply(cr.Play("5♣ 6♣", "A"))
    >>> SamplingBot(samples=4).act(state.observe(1), random.Random(1))
    Challenge()

    """

    #: How many consistent worlds to sample per challenge decision.
    samples: int = attrs.field(default=8, converter=_checks.index, validator=_checks.whole(1))
    #: The most decisions of a rollout before it is judged by hand sizes.
    horizon: int = attrs.field(default=120, converter=_checks.index, validator=_checks.whole(0))
    #: How many tries each sample may take before that world is given up.
    attempts: int = attrs.field(default=50, converter=_checks.index, validator=_checks.whole(1))
    #: The agent that takes every decision other than a challenge.
    fallback: CountingBot = attrs.field(factory=CountingBot, validator=_is_agent)

    def act(self, observation: Observation, rng: random.Random) -> Action:
        """The sampled decision (a challenge or not), else the counting one."""
        if not _may_challenge(observation.decision):
            return self.fallback.act(observation, rng)
        claim = observation.last_claim
        if claim is not None and observation.knowledge().rules_out(claim):
            return _CHALLENGE  # a lie whatever the hidden cards: no need to sample
        counted = self.fallback.act(observation, rng)
        if isinstance(counted, Challenge):
            return counted
        candidates: list[Action] = [_CHALLENGE, counted]
        scores = [0.0, 0.0]
        found = 0
        for _ in range(self.samples):
            try:
                world = sample(observation, rng, attempts=self.attempts)
            except SamplingError:
                continue
            found += 1
            for index, candidate in enumerate(candidates):
                scores[index] += self._rollout(world, candidate, observation.seat, rng)
        # Without a world, or on a tie, the counting decision stands.
        return _CHALLENGE if found and scores[0] > scores[1] else counted

    def _rollout(self, world: GameState, first: Action, seat: int, rng: random.Random) -> float:
        try:
            state = world.apply(first)
        except CheatRulesError:
            return 0.0
        for _ in range(self.horizon):
            if state.is_over:
                break
            state = state.apply(_quick(state, rng))
        if state.outcome is not None:
            return 1.0 if seat in state.outcome.winners else 0.0
        sizes = state.hand_sizes
        return sum(1 for size in sizes if size > sizes[seat]) / max(1, len(sizes) - 1)


def _quick(state: GameState, rng: random.Random) -> Action:
    """A fast rollout policy on a sampled world: true cards if held, else a random one."""
    decision = state.decision
    if isinstance(decision, Window):
        return _CHALLENGE if rng.random() < 0.15 else Accept()
    if isinstance(decision, DiscardOffer):
        return state.legal_actions()[-1]  # every four
    if not isinstance(decision, Turn):
        return decision.choices[0]  # agree to a pass
    if decision.may_challenge and rng.random() < 0.15:
        return _CHALLENGE
    hand = state.hands[state.to_move]  # type: ignore[index]
    allowed = state.allowed_ranks
    rank = rng.choice(allowed)
    smallest = min(state.rules.claims.minimum, len(hand))  # a small hand lays all it holds
    true = [card for card in hand if holds((card,), rank)][: state.rules.claims.maximum]
    if len(true) >= smallest:
        return Play(tuple(true), rank)
    return Play(tuple(rng.sample(hand, smallest)), rank)
