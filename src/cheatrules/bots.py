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
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import attrs

from cheatrules import _checks
from cheatrules.actions import Accept, Action, Challenge, Discard, Pass, Play, Refuse
from cheatrules.cards import Card, Rank
from cheatrules.decision import Consent, Decision, DiscardOffer, Turn, Window
from cheatrules.errors import N_, RulesError
from cheatrules.knowledge import CardKnowledge
from cheatrules.observation import Observation
from cheatrules.policies.declarations import declared
from cheatrules.sampling import SamplingError, check_served, sample_with
from cheatrules.state import GameState
from cheatrules.table import Claim

__all__ = [
    "Agent",
    "BotFunction",
    "CountingBot",
    "FunctionBot",
    "HonestBot",
    "RandomBot",
    "SamplingBot",
    "agent_name",
    "as_agent",
    "claim_odds",
]

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


#: A bot written as a function, ``(observation, rng) -> Action``.
BotFunction = Callable[[Observation, random.Random], Action]


@attrs.frozen
class FunctionBot:
    """A bot written as a function ``(observation, rng) -> Action``, seated like any agent.

    Wherever the library takes an agent (a tournament's lineup,
    ``cheatrules arena --bots module:name``) a function is wrapped in one of
    these (:func:`as_agent`). Its name is the function's. It pickles when
    the function does (one defined at the top level of a module), so it
    crosses to the processes of a tournament's pool.

    >>> import cheatrules as cr
    >>> def first_choice(seen, rng):
    ...     return seen.legal_actions()[0]
    >>> bot = FunctionBot(first_choice)
    >>> bot.name, bot.act(cr.deal(cr.english(3), seed=1).observe(0), random.Random(1))
    ('first_choice', Play(2♣ as A))

    Raises:
        RulesError: ``function`` is not callable.

    """

    #: The function that decides.
    function: BotFunction = attrs.field(validator=lambda _, __, value: _check_callable(value))

    @property
    def name(self) -> str:
        """What a tournament's table calls this bot, the function's name."""
        return str(getattr(self.function, "__name__", type(self.function).__name__))

    def act(self, observation: Observation, rng: random.Random) -> Action:
        """The function's decision."""
        return self.function(observation, rng)


def _check_callable(value: object) -> None:
    if not callable(value):
        raise RulesError(
            N_("a function bot must be a function (observation, rng) -> Action; got %(got)s"),
            got=repr(value),
        )


def as_agent(value: object) -> Agent:
    """``value`` as an agent: an object with ``act`` as it is, a function as a :class:`FunctionBot`.

    >>> as_agent(RandomBot())
    RandomBot(challenge=0.3)
    >>> def passive(seen, rng):
    ...     return seen.legal_actions()[0]
    >>> as_agent(passive).name
    'passive'

    Raises:
        RulesError: a class where an agent belongs (seat an instance of it),
            or anything else that neither has ``act(observation, rng)`` nor
            is a function.

    """
    if isinstance(value, type):
        raise RulesError(
            N_("%(agent)s is a class, not an agent: seat an instance of it, %(name)s()"),
            agent=repr(value),
            name=value.__name__,
        )
    if callable(getattr(value, "act", None)):
        return value  # type: ignore[return-value]
    if callable(value):
        return FunctionBot(value)
    raise RulesError(
        N_(
            "%(agent)s is not an agent: it needs an act(observation, rng) method, "
            "or to be a function (observation, rng) -> Action"
        ),
        agent=repr(value),
    )


def agent_name(agent: object) -> str:
    """What tables call ``agent``: its ``name`` attribute where it has one, else its class's name.

    >>> agent_name(CountingBot()), agent_name(FunctionBot(len))
    ('CountingBot', 'len')
    """
    name = getattr(agent, "name", None)
    return name if isinstance(name, str) else type(agent).__name__


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
    """Judges doubtful claims over worlds its seat cannot tell apart, with a model of the declarer.

    Its plays are :class:`CountingBot`'s (``fallback``); only its challenges
    differ. Facing a claim it may challenge, it:

    - challenges a claim its card knowledge rules out, or a run of claims of
      one rank more than the cards can back (certain lies, no sampling);
    - challenges a play of the declarer's last cards whenever letting it
      stand would end the game with this seat among the losers (in Cheat,
      where the first player out wins, a challenge then never costs more);
    - otherwise doubts only where the counting odds are low: it asks how
      likely the declarer could have told the truth, under the model "a
      player tells the truth when it can, and a liar lays as few cards as a
      claim allows". First from the counts (cheaply), and where that falls
      below its bar, from ``samples`` whole games consistent with its view
      (:func:`~cheatrules.sampling.sample`): in each, the declarer's hand
      just before the play (its hand now plus the group it laid) either held
      enough cards of the claimed rank (jokers standing in) to be honest, or
      not. It challenges when both fall below the bar, which is ``doubt``
      with an empty pile and shrinks as the pile grows (``pile_scale`` of
      the fallback), since a wrong call costs the whole pile.

    Unlike :class:`CountingBot`, it does not call a claim merely because the
    counts make it unlikely: a claim of more cards than the fewest a claim
    allows is seldom a lie, whatever a uniform deal says. No rollouts are
    played, so the bot costs little more than its fallback.

    Raises:
        RulesError: ``samples`` is not a whole number of at least 1,
            ``doubt`` not a number from 0 to 1, ``timeout`` not a number of
            seconds above 0, or ``fallback`` is not an agent.

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["A♣ 5♣ 6♣", "A♠ A♦ A♥", "Q♥ 8♣"])
    >>> state = state.apply(cr.Play("5♣ 6♣", "A"))
    >>> SamplingBot(samples=4).act(state.observe(1), random.Random(1))
    Challenge()

    """

    #: How many consistent worlds to sample when the counts leave a claim in doubt.
    samples: int = attrs.field(default=4, converter=_checks.index, validator=_checks.whole(1))
    #: The agent that takes every decision other than a challenge.
    fallback: CountingBot = attrs.field(factory=CountingBot, validator=_is_agent)
    #: The bar with an empty pile, the chance of an honest declarer below which it challenges.
    doubt: float = attrs.field(default=0.1, validator=_checks.number(0, 1))
    #: The most seconds of wall clock each sample may take; a world not found by then is
    #: left out (see :func:`~cheatrules.sampling.sample`'s ``timeout``).
    timeout: float = attrs.field(default=0.1, validator=_checks.number(0, above=True))

    def act(self, observation: Observation, rng: random.Random) -> Action:
        """Challenge or not, as the class describes; every other decision is the fallback's.

        Raises:
            RulesError: the sampler cannot serve the rules' check
                (:func:`~cheatrules.sampling.check_served`), said at the
                bot's first decision rather than at its first doubt.

        """
        check_served(observation.rules)
        decision = observation.decision
        claim = observation.last_claim
        if not _may_challenge(decision) or claim is None:
            return self.fallback.act(observation, rng)
        if self.doubts(observation, rng):
            return _CHALLENGE
        if isinstance(decision, Window):
            return Accept()
        return _lay(observation, _choices(observation), rng, careful=True)

    def doubts(self, observation: Observation, rng: random.Random) -> bool:
        """Whether to challenge the last claim (``rng`` draws the sampled worlds)."""
        claim = observation.last_claim
        if claim is None:
            return False
        known = observation.knowledge()
        if known.rules_out(claim) or _overclaimed(observation, known, claim):
            return True  # a lie whatever the hidden cards: no need to sample
        if observation.hand_sizes[claim.seat] == 0 and _loses_if_out(observation, claim.seat):
            return True
        pile = observation.pile_size - claim.count
        bar = self.doubt / (1 + pile / self.fallback.pile_scale)
        if _honest_odds(observation, known) >= bar:
            return False
        honest = _sampled_honesty(observation, rng, self.samples, self.timeout)
        return honest is not None and honest < bar


#: How many events a sample may replay, per event of the seat's log, before that world is given up.
_SAMPLE_BUDGET = 8


def _loses_if_out(seen: Observation, declarer: int) -> bool:
    """Whether the game would end with this seat losing if ``declarer`` went out now."""
    seating = seen.table.seating.leave(declarer)
    ending = seen.rules.ending
    return ending.is_over(seating) and seen.seat not in ending.result(seating)[0]


def _stretch(seen: Observation, claim: Claim) -> float:
    """How likely a liar is to claim ``claim.count`` cards: as few as it may, else seldom."""
    return 1.0 if claim.count <= max(1, seen.rules.claims.minimum) else 0.01


def _could_be_honest(world: GameState, claim: Claim) -> bool:
    """Whether, in ``world``, the declarer's hand before the last play could back ``claim``."""
    hand = world.hands[claim.seat] + world.groups[-1][1]
    good = sum(1 for card in hand if card.rank is claim.rank or card.rank is Rank.JOKER)
    if good >= claim.count:
        return True
    jokers = declared(world.rules.check, "jokers_protect")
    return jokers and any(card.rank is Rank.JOKER for card in hand)


def _sampled_honesty(
    seen: Observation, rng: random.Random, samples: int, timeout: float
) -> float | None:
    """The weighted share of sampled worlds where the declarer could have told the truth.

    A world where it could not counts as a lie, weighed by how likely a liar
    is to claim that many cards (:func:`_stretch`); ``None`` when no world
    was found within the budget and ``timeout`` (seconds a sample).
    """
    claim = seen.last_claim
    assert claim is not None
    budget = _SAMPLE_BUDGET * max(1, len(seen.events))
    honest = lies = 0.0
    for _ in range(samples):
        try:
            # The search alone: a world it does not find is left out, not solved for.
            world = sample_with(seen, rng, budget=budget, timeout=timeout, solver=False)
        except SamplingError:
            continue
        if _could_be_honest(world, claim):
            honest += 1
        else:
            lies += _stretch(seen, claim)
    return honest / (honest + lies) if honest + lies else None


def _honest_odds(seen: Observation, known: CardKnowledge | None = None) -> float:
    """The chance that the last claim is true if its declarer tells the truth when it can.

    :func:`claim_odds` is the chance that the declarer's hand could back the
    claim; here a liar is also taken to lay as few cards as a claim allows,
    so a claim of more cards than that is seldom a lie (one in a hundred as likely).

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["A♣ A♦ 5♣ 6♣", "2♠ 9♣", "Q♥ 8♣"])
    >>> seen = state.apply(cr.Play("A♣ A♦", "A")).observe(1)
    >>> round(claim_odds(seen), 2), round(_honest_odds(seen), 2)
    (0.03, 0.74)
    """
    claim = seen.last_claim
    if claim is None:
        return 1.0
    odds = claim_odds(seen, known)
    lies = (1.0 - odds) * _stretch(seen, claim)
    return odds / (odds + lies) if odds + lies else 0.0
