"""Match play: several games in a row, the dealer rotating left, scored as a whole.

The rule books play Cheat and Verish' Ne Verish' as a series of deals
(docs/rules/variations.md): first to three game wins, best of N games, or penalty points
for the cards the losers still hold; Verish' Ne Verish' may count defeats.
A :class:`Match` is the layer above one :class:`~cheatrules.GameState`. It
plays the current game, deals the next one as soon as a game ends, and keeps
score with a *scoring policy* (:class:`FirstTo`, :class:`BestOf`,
:class:`Penalty`, :class:`FewestLosses`, or a class of your own with a
``winners`` method).

>>> import random
>>> import cheatrules as cr
>>> match = cr.Match.start(cr.verish(2), cr.FirstTo(2), seed=5)
>>> match.game.dealer, match.wins
(1, (0, 0))
>>> rng = random.Random(5)
>>> while not match.is_over:
...     match = match.apply(rng.choice(match.legal_actions()))
>>> len(match.games), match.wins, match.winners
(3, (2, 1), (0,))
>>> [game.dealer for game in match.games]  # the dealer rotates to the left
[1, 0, 1]
>>> cr.loads_match(cr.dumps_match(match)) == match
True

Every game is dealt from its own seed, derived from the match's seed and the
game's number, so one seed replays the whole match.
"""

from __future__ import annotations

import json
import random
from typing import Any, Literal, Protocol, runtime_checkable

import attrs

from cheatrules import _checks
from cheatrules._json import checked as _checked
from cheatrules._json import get as _get
from cheatrules._json import json_object as _json_object
from cheatrules._records.rules_json import read_rules as _read_rules
from cheatrules._records.rules_json import rules_to_json as _rules
from cheatrules.actions import Action
from cheatrules.deal import deal
from cheatrules.errors import (
    ILLEGAL,
    N_,
    DealError,
    IllegalActionError,
    Message,
    RecordError,
    RulesError,
)
from cheatrules.legal import LegalActions
from cheatrules.observation import Observation
from cheatrules.records import FORMAT as GAME_FORMAT
from cheatrules.records import dumps, loads
from cheatrules.rules import Rules
from cheatrules.state import GameState

__all__ = [
    "FORMAT",
    "VERSION",
    "BestOf",
    "FewestLosses",
    "FirstTo",
    "Match",
    "Penalty",
    "Scoring",
    "dumps_match",
    "loads_match",
]

#: The value of a match record's ``"format"`` field.
FORMAT = "cheatrules-match"
#: The match record format version this library writes and reads.
VERSION = 1


# -- scoring ----------------------------------------------------------------------


@runtime_checkable
class Scoring(Protocol):
    """How a match is scored: who has taken it, given the score so far.

    A scoring policy is a frozen value (an ``attrs`` class) with one method.
    """

    def winners(
        self, wins: tuple[int, ...], penalties: tuple[int, ...], played: int
    ) -> tuple[int, ...]:
        """The seats that take the match, in seat order; ``()`` while it goes on.

        Args:
            wins: for each seat, the games it has won so far.
            penalties: for each seat, its penalty total so far: the cards
                left in its hand at the end of each game it lost.
            played: how many games have been finished.

        """
        ...


_at_least_one = _checks.whole(1)


def _seats_with(values: tuple[int, ...], wanted: int) -> tuple[int, ...]:
    return tuple(seat for seat, value in enumerate(values) if value == wanted)


@attrs.frozen
class FirstTo:
    """The first seat to win ``wins`` games takes the match.

    Seats that reach ``wins`` in the same game share the match (in Verish' Ne
    Verish' every seat but the loser wins a game).

    Raises:
        RulesError: ``wins`` is not a whole number of 1 or more.

    >>> import cheatrules as cr
    >>> cr.FirstTo(3).winners(wins=(2, 1, 2), penalties=(0, 0, 0), played=5)
    ()
    >>> cr.FirstTo(3).winners(wins=(3, 1, 2), penalties=(0, 0, 0), played=6)
    (0,)

    """

    #: The game wins that take the match.
    wins: int = attrs.field(default=3, converter=_checks.index, validator=_at_least_one)

    def winners(
        self, wins: tuple[int, ...], penalties: tuple[int, ...], played: int
    ) -> tuple[int, ...]:
        """The seats with ``wins`` game wins (or more); ``()`` while there are none."""
        return tuple(seat for seat, won in enumerate(wins) if won >= self.wins)


@attrs.frozen
class BestOf:
    """At most ``games`` games; the most game wins takes the match.

    The match stops early once no other seat can catch the leader in the
    games left. Seats tied on the most wins after the last game share it.

    Raises:
        RulesError: ``games`` is not a whole number of 1 or more.

    >>> import cheatrules as cr
    >>> cr.BestOf(5).winners(wins=(2, 1), penalties=(0, 0), played=3)
    ()
    >>> cr.BestOf(5).winners(wins=(3, 0), penalties=(0, 0), played=3)  # 2 left: out of reach
    (0,)
    >>> cr.BestOf(4).winners(wins=(2, 2), penalties=(0, 0), played=4)
    (0, 1)

    """

    #: The most games the match lasts.
    games: int = attrs.field(converter=_checks.index, validator=_at_least_one)

    def winners(
        self, wins: tuple[int, ...], penalties: tuple[int, ...], played: int
    ) -> tuple[int, ...]:
        """The seats with the most wins, once every game is played or the leader is out of reach."""
        left = max(self.games - played, 0)
        best = max(wins)
        leaders = _seats_with(wins, best)
        others = [won for seat, won in enumerate(wins) if seat not in leaders]
        if left == 0 or (len(leaders) == 1 and best > max(others, default=0) + left):
            return leaders
        return ()


@attrs.frozen
class Penalty:
    """``games`` games; the lowest penalty total takes the match.

    After each game every loser adds the number of cards left in their hand
    to a running total. Seats tied on the lowest total share the match.

    Raises:
        RulesError: ``games`` is not a whole number of 1 or more.

    >>> import cheatrules as cr
    >>> cr.Penalty(3).winners(wins=(1, 1, 0), penalties=(4, 9, 17), played=2)
    ()
    >>> cr.Penalty(3).winners(wins=(1, 1, 1), penalties=(12, 9, 17), played=3)
    (1,)

    """

    #: The number of games in the match.
    games: int = attrs.field(converter=_checks.index, validator=_at_least_one)

    def winners(
        self, wins: tuple[int, ...], penalties: tuple[int, ...], played: int
    ) -> tuple[int, ...]:
        """The seats with the lowest total once every game is played; ``()`` before."""
        if played < self.games:
            return ()
        return _seats_with(penalties, min(penalties))


@attrs.frozen
class FewestLosses:
    """Defeats are counted: once a seat has lost ``losses`` games, the fewest defeats win.

    Verish' Ne Verish' keeps no score, but "you can count defeats" (the
    Russian rule book). A defeat is a game a seat did not win: in Verish'
    the last player in, in Cheat everyone but the one who went out. The
    match ends after the game that gives some seat its ``losses``-th defeat;
    the seats with the fewest defeats then take it (ties share it).

    Raises:
        RulesError: ``losses`` is not a whole number of 1 or more.

    >>> import cheatrules as cr
    >>> cr.FewestLosses(2).winners(wins=(2, 2, 2), penalties=(0, 0, 0), played=3)
    ()
    >>> cr.FewestLosses(2).winners(wins=(4, 2, 2), penalties=(0, 0, 0), played=4)
    (0,)

    """

    #: The defeats that end the match.
    losses: int = attrs.field(default=3, converter=_checks.index, validator=_at_least_one)

    def winners(
        self, wins: tuple[int, ...], penalties: tuple[int, ...], played: int
    ) -> tuple[int, ...]:
        """The seats with the fewest defeats, once a seat has ``losses``; ``()`` before."""
        defeats = tuple(played - won for won in wins)
        if max(defeats) < self.losses:
            return ()
        return _seats_with(defeats, min(defeats))


_FIRST_TO_THREE = FirstTo(3)
_SCORINGS: dict[str, type] = {cls.__name__: cls for cls in (FirstTo, BestOf, Penalty, FewestLosses)}


# -- the match ----------------------------------------------------------------------


def _game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (from 0) of the match seeded with ``seed``."""
    return random.Random(f"{seed}/{index}").getrandbits(63)


def _deal_game(rules: Rules, seed: int, first_dealer: int, index: int) -> GameState:
    dealer = (first_dealer + index) % rules.players
    return deal(rules, seed=_game_seed(seed, index), dealer=dealer)


def _tally(games: tuple[GameState, ...], players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each seat's game wins and penalty total over finished ``games``."""
    wins = [0] * players
    penalties = [0] * players
    for game in games:
        outcome = game.outcome
        assert outcome is not None
        for seat in outcome.winners:
            wins[seat] += 1
        hands = game.hands
        for seat in outcome.losers:
            penalties[seat] += len(hands[seat])
    return tuple(wins), tuple(penalties)


def _seats(seats: tuple[int, ...]) -> str:
    """``seat 2``, or ``seats 0 and 2``."""
    return str(_seat_words(seats))


def _seat_words(seats: tuple[int, ...]) -> Message:
    """``seat 2``, or ``seats 0 and 2``, as words said in each language."""
    if len(seats) == 1:
        return Message.of(N_("seat %(seat)s"), {"seat": seats[0]})
    return Message.of(
        N_("seats %(seats)s and %(last)s"),
        {"seats": ", ".join(map(str, seats[:-1])), "last": seats[-1]},
    )


def _match_winners(scoring: Scoring, games: tuple[GameState, ...], players: int) -> tuple[int, ...]:
    wins, penalties = _tally(games, players)
    return tuple(scoring.winners(wins=wins, penalties=penalties, played=len(games)))


@attrs.frozen(repr=False)
class Match:
    """A series of games of the same rules, scored as a whole.

    Make one with :meth:`start`; move it on with :meth:`apply`. Frozen,
    hashable and comparable, like :class:`~cheatrules.GameState`: every
    transition returns a new match.
    """

    #: The rules every game is played by.
    rules: Rules
    #: How the match is scored.
    scoring: Scoring
    #: The match's seed, from which every game's seed is derived with the game's number.
    seed: int
    #: The finished games, oldest first.
    games: tuple[GameState, ...]
    #: The game being played; once the match is over, the last game (also in :attr:`games`).
    game: GameState

    @classmethod
    def start(
        cls,
        rules: Rules,
        scoring: Scoring = _FIRST_TO_THREE,
        *,
        seed: int | None = None,
        dealer: int | Literal["random"] | None = None,
    ) -> Match:
        """Start a match: its first game is dealt at once.

        Args:
            rules: the rules of every game, from :func:`~cheatrules.english`,
                :func:`~cheatrules.verish` or a composition of your own.
            scoring: the scoring policy; first to three game wins by default.
            seed: any int; the same rules, scoring, seed and dealer always
                deal the same games. Without one, a fresh seed is drawn and
                kept in :attr:`seed`, so the match can be replayed.
            dealer: the first game's dealer; by default the last seat;
                ``"random"`` draws it by lot from the first game's seed (see
                :func:`~cheatrules.deal`). Each later game is dealt by the
                seat to the previous dealer's left.

        Raises:
            RulesError: ``scoring`` is not a scoring policy.
            DealError: ``rules`` is not a Rules value, the seed is not an
                int, or the dealer is not a seat at the table.

        """
        if not isinstance(scoring, Scoring):
            raise RulesError(
                N_(
                    "scoring must be a scoring policy such as FirstTo(3), BestOf(5), Penalty(3) "
                    "or FewestLosses(3); got %(got)s"
                ),
                got=repr(scoring),
            )
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        else:
            seed = _checks.whole_number(seed, "seed", error=DealError)
        first = deal(rules, seed=_game_seed(seed, 0), dealer=dealer)
        return cls(rules=rules, scoring=scoring, seed=seed, games=(), game=first)

    @property
    def wins(self) -> tuple[int, ...]:
        """For each seat, the finished games it has won."""
        return _tally(self.games, self.rules.players)[0]

    @property
    def losses(self) -> tuple[int, ...]:
        """For each seat, the finished games it did not win (what :class:`FewestLosses` counts)."""
        return tuple(len(self.games) - won for won in self.wins)

    @property
    def penalties(self) -> tuple[int, ...]:
        """For each seat, the cards left in its hand at the end of each game it lost, summed.

        Kept whatever the scoring; only :class:`Penalty` decides by it.
        """
        return _tally(self.games, self.rules.players)[1]

    @property
    def is_over(self) -> bool:
        """Whether the match has been decided."""
        # A game that ends without deciding the match is replaced by the next deal at once.
        return self.game.is_over

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that took the match, in seat order; ``()`` until it is over."""
        if not self.is_over:
            return ()
        return _match_winners(self.scoring, self.games, self.rules.players)

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now in the current game; ``None`` once the match is over."""
        return self.game.to_move

    def legal_actions(self) -> LegalActions:
        """Every legal decision in the current game (a lazy view); empty once the match is over."""
        return self.game.legal_actions()

    def observe(self, seat: int) -> Observation:
        """What ``seat`` knows of the current game (of the last one, once the match is over).

        Raises:
            SeatError: ``seat`` is not a seat at the table.

        """
        return self.game.observe(seat)

    def apply(self, action: Action) -> Match:
        """The match after :attr:`to_move` takes ``action`` in the current game.

        When that decision ends the game and the match goes on, the next game
        is dealt at once, by the seat to the left of the last dealer.

        Raises:
            IllegalActionError: the action is not legal in the current game,
                or the match is over; this match is unchanged.

        """
        if self.is_over:
            raise IllegalActionError(
                ILLEGAL,
                action=action,
                reason=Message.of(
                    N_("the match is over, won by %(winners)s"),
                    {"winners": _seat_words(self.winners)},
                ),
            )
        game = self.game.apply(action)
        if not game.is_over:
            return attrs.evolve(self, game=game)
        games = (*self.games, game)
        if _match_winners(self.scoring, games, self.rules.players):
            return attrs.evolve(self, games=games, game=game)
        following = _deal_game(self.rules, self.seed, games[0].dealer, len(games))
        return attrs.evolve(self, games=games, game=following)

    def __repr__(self) -> str:
        played = len(self.games)
        if self.is_over:
            games = "game" if played == 1 else "games"
            status = f"won by {_seats(self.winners)} after {played} {games}"
        else:
            status = f"game {played + 1}, seat {self.to_move} to move"
        return (
            f"<Match {self.rules.name}, {self.scoring!r}, seed {self.seed}: {status}; "
            f"wins {self.wins}>"
        )


# -- records ------------------------------------------------------------------------


def _scoring(scoring: Scoring) -> dict[str, Any]:
    name = type(scoring).__name__
    if _SCORINGS.get(name) is not type(scoring):
        raise RecordError(
            N_("records cannot name the scoring %(name)s; they know %(known)s"),
            name=name,
            known=", ".join(_SCORINGS),
        )
    settings = {field.name: getattr(scoring, field.name) for field in attrs.fields(_SCORINGS[name])}
    return {"type": name, **settings}


def dumps_match(match: Match) -> str:
    """Write ``match`` as a JSON match record: the rules, scoring, seed and every game.

    Each game is written as :func:`~cheatrules.dumps` writes it, the current
    one last (unfinished, unless the match is over).

    Raises:
        RecordError: the scoring is not :class:`FirstTo`, :class:`BestOf`,
            :class:`Penalty` or :class:`FewestLosses`, or the rules use a
            policy records cannot name.

    """
    first = match.games[0] if match.games else match.game
    games = match.games if match.is_over else (*match.games, match.game)
    record = {
        "format": FORMAT,
        "version": VERSION,
        "rules": _rules(match.rules),
        "scoring": _scoring(match.scoring),
        "seed": match.seed,
        "dealer": first.dealer,
        "games": [json.loads(dumps(game)) for game in games],
    }
    return json.dumps(record, ensure_ascii=False, indent=2)


def _parse(text: object) -> dict[str, Any]:
    record = _json_object(text, N_("a match record"))
    found = record.get("format")
    if found != FORMAT:
        if found == GAME_FORMAT:
            raise RecordError(
                N_(
                    "not a match record: format is %(found)s "
                    "(one game's record: read it with cheatrules.loads())"
                ),
                found=repr(found),
            )
        raise RecordError(N_("not a match record: format is %(found)s"), found=repr(found))
    version = record.get("version")
    if version != VERSION or isinstance(version, bool):
        raise RecordError(
            N_("unknown match record version %(version)s; this library reads version %(known)s"),
            version=repr(version),
            known=VERSION,
        )
    return record


def _read_scoring(data: object) -> Scoring:
    name = _get(data, "type", str, "scoring")
    cls = _SCORINGS.get(name)
    if cls is None:
        raise RecordError(
            N_("scoring: unknown scoring %(name)s; known: %(known)s"),
            name=repr(name),
            known=", ".join(_SCORINGS),
        )
    assert isinstance(data, dict)
    settings = {key: value for key, value in data.items() if key != "type"}
    fields = attrs.fields_dict(cls)
    unknown = sorted(set(settings) - set(fields))
    if unknown:
        raise RecordError(
            N_("%(where)s: unknown setting %(unknown)s for %(name)s (known: %(known)s)"),
            where="scoring",
            unknown=", ".join(unknown),
            name=name,
            known=", ".join(fields),
        )
    missing = [
        key
        for key, field in fields.items()
        if field.default is attrs.NOTHING and key not in settings
    ]
    if missing:
        raise RecordError(
            N_("scoring: %(name)s needs %(missing)s"), name=name, missing=", ".join(missing)
        )
    made: Scoring = _checked("scoring", lambda: cls(**settings))
    return made


def _load_game(where: str, data: object) -> GameState:
    try:
        text = json.dumps(data, ensure_ascii=False)
    except (ValueError, RecursionError) as error:
        raise RecordError(N_("%(where)s: %(error)s"), where=where, error=error) from None
    try:
        return loads(text)
    except RecordError as error:
        raise RecordError(N_("%(where)s: %(error)s"), where=where, error=error) from None


def _read_game(data: object, index: int, expected: GameState) -> GameState:
    """Game ``index`` of a match record, checked to be the deal the match gives, then replayed."""
    where = f"games[{index}]"
    if not isinstance(data, dict):
        raise RecordError(
            N_("%(where)s: %(error)s"),
            where=where,
            error=Message.of(
                N_("%(what)s must be a JSON object"), {"what": Message(N_("a record"))}
            ),
        )
    # Check the deal before the actions, so that a wrong deal is reported as one.
    opening = _load_game(where, {**data, "actions": []})
    if opening.rules != expected.rules:
        raise RecordError(N_("%(where)s is played under other rules than the match's"), where=where)
    if opening.dealer != expected.dealer:
        raise RecordError(
            N_("%(where)s was dealt by seat %(dealer)s; the match has seat %(expected)s deal it"),
            where=where,
            dealer=opening.dealer,
            expected=expected.dealer,
        )
    if opening.seed != expected.seed:
        raise RecordError(
            N_("%(where)s was dealt with seed %(seed)s; the match deals it with seed %(expected)s"),
            where=where,
            seed=opening.seed,
            expected=expected.seed,
        )
    if opening != expected:
        raise RecordError(
            N_("%(where)s holds a deal other than the one its seed gives"), where=where
        )
    return _load_game(where, data)


def loads_match(text: str | bytes) -> Match:
    """Read a match record written by :func:`dumps_match`, replaying every game.

    ``loads_match(dumps_match(match)) == match``.

    Raises:
        RecordError: the text is not JSON, not a match record, of an unknown
            version; names unknown rules or scoring; holds a game that is not
            the one the match deals (its rules, dealer or seed), an illegal
            or unreadable action, an unfinished game before the last, a game
            after the match was decided, or stops after a game that did not
            decide it. The message names the problem.

    """
    record = _parse(text)
    rules = _read_rules(_get(record, "rules", dict, "record"))
    scoring = _read_scoring(_get(record, "scoring", dict, "record"))
    seed = _get(record, "seed", int, "record")
    dealer = _get(record, "dealer", int, "record")
    listed = _get(record, "games", list, "record")
    if not listed:
        raise RecordError(N_("a match record holds at least one game"))
    expected = _checked("dealer", lambda: deal(rules, seed=_game_seed(seed, 0), dealer=dealer))
    finished: tuple[GameState, ...] = ()
    last = len(listed) - 1
    for index, data in enumerate(listed):
        if index:
            expected = _deal_game(rules, seed, dealer, index)
        game = _read_game(data, index, expected)
        if not game.is_over:
            if index < last:
                raise RecordError(
                    N_("games[%(index)s] is unfinished, but only the last game may be"),
                    index=index,
                )
            return Match(rules=rules, scoring=scoring, seed=seed, games=finished, game=game)
        finished = (*finished, game)
        decided = _match_winners(scoring, finished, rules.players)
        if decided and index < last:
            raise RecordError(
                N_("games[%(next)s]: the match was over after games[%(index)s]"),
                next=index + 1,
                index=index,
            )
        if not decided and index == last:
            raise RecordError(
                N_(
                    "games[%(index)s] is finished and the match is not over; "
                    "games[%(next)s] is missing"
                ),
                index=index,
                next=index + 1,
            )
    return Match(rules=rules, scoring=scoring, seed=seed, games=finished, game=finished[-1])
