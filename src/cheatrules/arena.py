"""Tournaments among agents: seeded, seat-rotated, and run on any executor.

:func:`tournament` plays ``games`` games of one set of rules among a lineup
of agents (one per seat), rotating the lineup one seat each game so that
every agent sits in every seat equally often. Each game's deal and each
seat's random generator are seeded from the tournament's seed and the
game's number, so the results are the same however the games are spread
over workers. The games run on any :class:`concurrent.futures.Executor`;
the default is a process pool on this machine, and a Dask cluster's
executor (``client.get_executor()``, the ``dask`` extra) runs it unchanged,
tested with a worker killed mid-run. With ``keep_games=False`` the results
keep running sums alone, so a league's memory does not grow with its
games.

>>> import cheatrules as cr
>>> from cheatrules.bots import CountingBot, RandomBot
>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor(2) as pool:
...     results = tournament(
...         cr.english(3), [CountingBot(), RandomBot(), RandomBot()],
...         games=6, seed=1, executor=pool,
...     )
>>> [row.name for row in results.rows]
['CountingBot', 'RandomBot']
>>> results.rows[0].games, results.rows[1].games
(6, 12)
"""

from __future__ import annotations

import math
import os
import random
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait

import attrs

from cheatrules._checks import whole_number
from cheatrules.bots import Agent, BotFunction, agent_name, as_agent
from cheatrules.deal import deal
from cheatrules.errors import N_, CheatRulesError, IllegalActionError, Message, RulesError
from cheatrules.events import Challenged, Played, Revealed
from cheatrules.policies.challenges import proves
from cheatrules.rules import Rules
from cheatrules.state import GameState

__all__ = [
    "CLUSTER_BATCH",
    "COLUMNS",
    "LEGEND",
    "AgentResult",
    "GameResult",
    "Results",
    "play_game",
    "seat_stats",
    "tournament",
    "wilson",
]

#: The z value of a two-sided 95% confidence interval.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default).

    >>> low, high = wilson(30, 100)
    >>> round(low, 3), round(high, 3)
    (0.219, 0.396)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials == 0:
        return (0.0, 1.0)
    rate = successes / trials
    centre = rate + z * z / (2 * trials)
    spread = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return (max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale))


@attrs.frozen
class SeatStats:
    """What one seat did in one game."""

    #: Challenges made, and how many caught a lie.
    challenges: int = 0
    caught: int = 0
    #: Claims made, and how many were lies (judged by the cards laid).
    claims: int = 0
    bluffs: int = 0


@attrs.frozen
class GameResult:
    """One game of a tournament: who sat where, who won and lost, and what each seat did."""

    #: The game's number in the tournament.
    index: int
    #: The agent's name at each seat.
    names: tuple[str, ...]
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    #: How many decisions the game took.
    length: int
    #: Whether the game ended (``False``: cut off at the step limit, counted as no result).
    finished: bool
    stats: tuple[SeatStats, ...]


def _seeds(seed: int, index: int, players: int) -> tuple[int, tuple[int, ...]]:
    """The deal seed and each seat's agent seed of game ``index``."""
    source = random.Random(f"{seed}/{index}")
    return source.getrandbits(63), tuple(source.getrandbits(63) for _ in range(players))


def _check_table(rules: object, lineup: object) -> None:
    """Refuse anything but rules and one agent a seat, naming what was given."""
    if not isinstance(rules, Rules):
        raise RulesError(
            N_("rules must be a Rules value such as cr.english(4); got %(got)s"), got=repr(rules)
        )
    if not isinstance(lineup, Sequence) or isinstance(lineup, str):
        raise RulesError(
            N_("the lineup must be a sequence of agents, one per seat; got %(got)s"),
            got=repr(lineup),
        )
    if len(lineup) != rules.players:
        raise RulesError(
            N_("the lineup must seat %(players)s agents, one per seat; got %(got)s"),
            players=rules.players,
            got=len(lineup),
        )


def play_game(
    rules: Rules,
    lineup: Sequence[Agent | BotFunction],
    seed: int,
    index: int = 0,
    max_steps: int = 20_000,
) -> GameResult:
    """Play game ``index`` of a tournament seeded by ``seed``, the lineup seated in order.

    Every agent sees only its seat's observation; a function
    ``(observation, rng) -> Action`` is seated as a
    :class:`~cheatrules.bots.FunctionBot`. An agent that returns an illegal
    action raises :class:`~cheatrules.IllegalActionError` naming the agent,
    its seat, the game's number, the seed and every seat's agent; an error
    an agent raises itself goes on with a note saying the same (see
    :func:`tournament`).

    Raises:
        RulesError: as :func:`tournament` does for its arguments.

    """
    _check_table(rules, lineup)
    members = tuple(as_agent(agent) for agent in lineup)
    seed = whole_number(seed, "seed")
    index = whole_number(index, "index", 0)
    max_steps = whole_number(max_steps, "max_steps", 1)
    deal_seed, agent_seeds = _seeds(seed, index, rules.players)
    state = deal(rules, seed=deal_seed)
    rngs = [random.Random(agent_seed) for agent_seed in agent_seeds]
    steps = 0
    while not state.is_over and steps < max_steps:
        seat: int = state.to_move  # type: ignore[assignment]
        agent = members[seat]
        try:
            action = agent.act(state.observe(seat), rngs[seat])
        except Exception as error:
            # The agent's own error goes on as it is (its type is the agent's
            # business), noted with where it happened; notes cross processes.
            _note(
                error,
                f"raised by {agent_name(agent)} at seat {seat}, "
                f"in {_game_words(members, seed, index)}",
            )
            raise
        try:
            state = state.apply(action)
        except CheatRulesError as error:
            raise IllegalActionError(
                N_("%(agent)s at seat %(seat)s chose %(action)s: %(error)s; in %(game)s"),
                agent=agent_name(agent),
                seat=seat,
                action=action,
                error=error,
                game=_game_message(members, seed, index),
            ) from None
        steps += 1
    outcome = state.outcome
    return GameResult(
        index=index,
        names=tuple(map(agent_name, members)),
        winners=outcome.winners if outcome else (),
        losers=outcome.losers if outcome else (),
        length=steps,
        finished=outcome is not None,
        stats=seat_stats(state),
    )


def _note(error: BaseException, note: str) -> None:
    """Add ``note`` to ``error``'s ``__notes__`` (``add_note`` from Python 3.11; kept before it)."""
    add_note = getattr(error, "add_note", None)
    if callable(add_note):
        add_note(note)
    else:  # Python 3.10: the notes are kept, and the command line prints them
        notes = getattr(error, "__notes__", None)
        error.__notes__ = [*(notes or ()), note]  # type: ignore[attr-defined]


def _lineup_words(lineup: Sequence[Agent]) -> str:
    return ", ".join(f"{seat} {agent_name(agent)}" for seat, agent in enumerate(lineup))


def _game_message(lineup: Sequence[Agent], seed: int, index: int) -> Message:
    """Where a game of a tournament failed, as words: its number, the seed, the seats."""
    # Translators: where a tournament's game failed: "game 3 of the tournament seeded 7
    # (seats: 0 CountingBot, 1 RandomBot, 2 MyBot)".
    return Message.of(
        N_("game %(index)s of the tournament seeded %(seed)s (seats: %(seats)s)"),
        {"index": index, "seed": seed, "seats": _lineup_words(lineup)},
    )


def _game_words(lineup: Sequence[Agent], seed: int, index: int) -> str:
    return (
        f"{_game_message(lineup, seed, index)}; "
        f"play_game(rules, lineup, seed={seed}, index={index}) replays it"
    )


def seat_stats(state: GameState) -> tuple[SeatStats, ...]:
    """Each seat's challenges, catches, claims and bluffs over the game so far.

    A bluff is a claim its cards would not prove true if they were turned
    over, judged by the game's own check (so a joker counts as the announced
    rank, and under ``check="jokers-protect"`` makes any group true).

    >>> import cheatrules as cr
    >>> state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    >>> state = state.apply(cr.Play("K♦", "A")).apply(cr.Challenge())
    >>> seat_stats(state)[0].bluffs, seat_stats(state)[1].caught
    (1, 1)
    """
    challenges = [0] * state.players
    caught = [0] * state.players
    claims = [0] * state.players
    bluffs = [0] * state.players
    challenger = -1
    for event in state.events:
        if isinstance(event, Played):
            claims[event.seat] += 1
            if not proves(state.rules.check, event.cards, event.rank):
                bluffs[event.seat] += 1
        elif isinstance(event, Challenged):
            challenger = event.seat
            challenges[challenger] += 1
        elif isinstance(event, Revealed) and not event.truthful:
            caught[challenger] += 1
    return tuple(
        SeatStats(challenges[seat], caught[seat], claims[seat], bluffs[seat])
        for seat in range(state.players)
    )


@attrs.frozen
class AgentResult:
    """One agent's record over a tournament (all the seats it held)."""

    name: str
    #: Seat-games played (an agent in two seats of a game counts twice).
    games: int
    wins: int
    losses: int
    #: Games cut off at the step limit.
    unfinished: int
    challenges: int
    caught: int
    claims: int
    bluffs: int

    @property
    def win_rate(self) -> float:
        """Wins per seat-game."""
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        return wilson(self.wins, self.games)

    @property
    def loss_rate(self) -> float:
        """Losses per seat-game (the measure for games with one loser)."""
        return self.losses / self.games if self.games else 0.0

    @property
    def loss_interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the loss rate."""
        return wilson(self.losses, self.games)

    @property
    def challenge_accuracy(self) -> float:
        """The share of its challenges that caught a lie (0 when it never challenged)."""
        return self.caught / self.challenges if self.challenges else 0.0

    @property
    def bluff_rate(self) -> float:
        """The share of its claims that were lies."""
        return self.bluffs / self.claims if self.claims else 0.0


@attrs.frozen
class Results:
    """A tournament's outcome: one row per agent name, and every game where they were kept.

    A tournament run with ``keep_games=False`` keeps only the rows and the
    counts (``games`` is empty): its memory does not grow with the games
    played.
    """

    rules: Rules
    seed: int
    #: Every game's result, by number (empty where the tournament did not keep them).
    games: tuple[GameResult, ...]
    rows: tuple[AgentResult, ...]
    #: How many games were played.
    played: int = attrs.field(default=attrs.Factory(lambda self: len(self.games), takes_self=True))
    #: The decisions of all the games played, together.
    decisions: int = attrs.field(
        default=attrs.Factory(lambda self: sum(game.length for game in self.games), takes_self=True)
    )

    @property
    def mean_length(self) -> float:
        """The mean number of decisions per game."""
        return self.decisions / self.played if self.played else 0.0

    def row(self, name: str) -> AgentResult:
        """The row of the agent called ``name``.

        Raises:
            KeyError: no agent of that name played.

        """
        for row in self.rows:
            if row.name == name:
                return row
        raise KeyError(f"no agent named {name!r}; the agents are {[r.name for r in self.rows]}")

    def table(self) -> str:
        """The results as a plain-text table, one line per agent, within 80 columns.

        Its columns (:data:`COLUMNS`) and the legend under it (:data:`LEGEND`)
        are those ``cheatrules arena`` prints.
        """
        name = max([13, *(len(row.name) for row in self.rows)]) + 1
        widths = (7, 9, 13, 10, 11, 11)
        header = f"{COLUMNS[0]:<{name}}" + "".join(
            f"{title:>{width}}" for title, width in zip(COLUMNS[1:], widths, strict=True)
        )
        lines = [header]
        for row in self.rows:
            cells = (str(row.games), *_cells(row))
            lines.append(
                f"{row.name:<{name}}"
                + "".join(f"{cell:>{width}}" for cell, width in zip(cells, widths, strict=True))
            )
        played = self.played
        lines.append(
            f"{played} game{'' if played == 1 else 's'}, "
            f"mean length {self.mean_length:.1f} decisions"
        )
        lines.extend(LEGEND)
        return "\n".join(lines)


#: The columns of a tournament's results table, as :meth:`Results.table` and
#: ``cheatrules arena`` print them (each a message id of the catalogs):
#: every share is a rate, said the same way in both.
COLUMNS: tuple[str, ...] = (
    N_("agent"),
    N_("games"),
    N_("win rate"),
    N_("95% CI"),
    N_("loss rate"),
    N_("catch rate"),
    N_("bluff rate"),
)
#: What the columns mean, printed under the table.
LEGEND: tuple[str, ...] = (
    N_("win rate, loss rate: shares of the seat-games played; 95% CI: of the win rate"),
    N_("catch rate: share of its challenges that caught a lie"),
    N_("bluff rate: share of its claims that were lies"),
)


def _cells(row: AgentResult) -> tuple[str, ...]:
    """A row's figures after its games, three decimals each: the columns after ``games``."""
    low, high = row.win_interval
    return (
        f"{row.win_rate:.3f}",
        f"{low:.3f}-{high:.3f}",
        f"{row.loss_rate:.3f}",
        f"{row.challenge_accuracy:.3f}",
        f"{row.bluff_rate:.3f}",
    )


class _Tally:
    """A tournament's running sums, as its tasks come back in any order: rows, counts, games.

    Each finished task's games are added once (:meth:`take`), kept only with
    ``keep``, handed to ``on_game`` one by one, and then told to ``progress``.
    """

    def __init__(
        self,
        lineup: Sequence[Agent],
        games: int,
        keep: bool,
        on_game: Callable[[GameResult], None] | None,
        progress: Callable[[int, int], None] | None,
    ) -> None:
        # The rows come in the lineup's order (game 0's seats), whatever order games finish in.
        self.names: dict[str, list[int]] = {agent_name(agent): [0] * 8 for agent in lineup}
        self.games = games
        self.played = 0
        self.decisions = 0
        self.kept: list[GameResult] | None = [] if keep else None
        self.on_game = on_game
        self.progress = progress

    def take(self, finished: list[GameResult]) -> None:
        for game in finished:
            self._add(game)
            if self.kept is not None:
                self.kept.append(game)
            if self.on_game is not None:
                self.on_game(game)
        if self.progress is not None:
            self.progress(self.played, self.games)

    def _add(self, game: GameResult) -> None:
        self.played += 1
        self.decisions += game.length
        for seat, name in enumerate(game.names):
            tally = self.names[name]
            stats = game.stats[seat]
            tally[0] += 1
            tally[1] += seat in game.winners
            tally[2] += seat in game.losers
            tally[3] += not game.finished
            tally[4] += stats.challenges
            tally[5] += stats.caught
            tally[6] += stats.claims
            tally[7] += stats.bluffs

    def results(self, rules: Rules, seed: int) -> Results:
        kept = sorted(self.kept or (), key=lambda game: game.index)
        return Results(
            rules=rules,
            seed=seed,
            games=tuple(kept),
            rows=tuple(AgentResult(name, *tally) for name, tally in self.names.items()),
            played=self.played,
            decisions=self.decisions,
        )


def _batch(
    rules: Rules, lineup: tuple[Agent, ...], seed: int, indices: range, max_steps: int
) -> list[GameResult]:
    """Play a run of games (one task for an executor), each with the lineup rotated."""
    players = len(lineup)
    results = []
    for index in indices:
        shift = index % players
        rotated = lineup[-shift:] + lineup[:-shift] if shift else lineup
        results.append(play_game(rules, rotated, seed, index, max_steps))
    return results


def _ignore_interrupts() -> None:
    """In a worker of the default pool: leave Ctrl-C to the parent, which stops the tournament."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: Games per task worth sending to a Dask cluster's executor. Each task costs its
#: scheduler about a millisecond (over 2,000 games on a local two-worker cluster, whose
#: scheduler shares the parent process, the parent spent 1.9 s of processor time at the
#: default batch of 8 and 0.6 s at 64); ``cheatrules arena --scheduler`` sends tasks of
#: this size (``benchmarks/arena.py`` measures both).
CLUSTER_BATCH = 64

#: Tasks kept in flight per worker: enough to keep every worker busy, few enough that
#: memory stays flat however many games are asked for.
WINDOW = 4


def _collect(
    running: set[Future[list[GameResult]]],
    take: Callable[[list[GameResult]], None],
) -> None:
    """Wait for at least one running task, and hand on its games, each task's once."""
    finished, _ = wait(running, return_when=FIRST_COMPLETED)
    for future in finished:
        running.discard(future)
        take(future.result())


def tournament(
    rules: Rules,
    lineup: Sequence[Agent | BotFunction],
    games: int,
    seed: int = 0,
    *,
    executor: Executor | None = None,
    workers: int | None = None,
    batch: int = 8,
    max_steps: int = 20_000,
    progress: Callable[[int, int], None] | None = None,
    keep_games: bool = True,
    on_game: Callable[[GameResult], None] | None = None,
) -> Results:
    """Play ``games`` seeded games among ``lineup`` (one agent per seat) and sum them up.

    Game ``g`` seats the lineup rotated ``g`` seats to the left, so with a
    number of games that is a multiple of the players every agent sits in
    every seat equally often. Agents with the same name (their class name,
    or a ``name`` attribute) are counted together.

    Args:
        rules: the rules of every game.
        lineup: one agent per seat: an object with ``act(observation,
            rng)``, or a function ``(observation, rng) -> Action`` (seated
            as a :class:`~cheatrules.bots.FunctionBot`).
        games: how many games to play.
        seed: the tournament's seed; the same seed gives the same results.
        executor: where to run the games; by default a process pool of
            ``workers`` processes (the machine's cores), made and shut down
            here. Agents must pickle to cross to other processes.
        workers: the size of the default pool (the machine's cores by
            default, and never more than the tasks); with an executor of
            your own, how many workers it has.
        batch: games per task sent to the executor. At most four tasks a
            worker are in flight at once, so memory does not grow with
            ``games`` before they are played.
        max_steps: a game still going after this many decisions stops and
            counts as no result.
        progress: called with (games done, games) as each batch finishes,
            from the first one.
        keep_games: whether :attr:`Results.games` keeps every game's
            :class:`GameResult`. With ``False`` the results keep the rows
            and counts alone, and the tournament's memory stays flat however
            many games it plays (``cheatrules arena`` runs so).
        on_game: called with each game's :class:`GameResult` as its batch
            comes back, in the order batches finish (not by number): a
            tournament of millions of games can stream them to a file.

    An agent's illegal action raises :class:`~cheatrules.IllegalActionError`
    naming the agent and its seat, the game's number, the tournament's
    seed and every seat's agent; an error an agent raises itself reaches
    the caller as it was raised, with a note (``error.__notes__``, shown
    under its traceback) saying the same, from a process pool too.
    :func:`play_game` with that seed and number replays the game.

    Raises:
        RulesError: ``rules`` is not a :class:`~cheatrules.Rules`, a lineup
            that does not seat every player or holds something that is not
            an agent, or a count (games, batch, workers, max_steps) that is
            not a whole number of 1 or more.

    """
    _check_table(rules, lineup)
    games = whole_number(games, "games", 1)
    batch = whole_number(batch, "batch", 1)
    seed = whole_number(seed, "seed")  # a NumPy seed is kept as a plain int
    max_steps = whole_number(max_steps, "max_steps", 1)
    if workers is not None:
        workers = whole_number(workers, "workers", 1)
    members = tuple(as_agent(agent) for agent in lineup)
    chunks = (range(start, min(start + batch, games)) for start in range(0, games, batch))
    tasks = -(-games // batch)
    owned = executor is None
    size = max(1, min(workers or os.cpu_count() or 1, tasks))  # never more workers than tasks
    pool = (
        ProcessPoolExecutor(size, initializer=_ignore_interrupts) if executor is None else executor
    )
    window = WINDOW * size
    tally = _Tally(members, games, keep_games, on_game, progress)
    try:
        running: set[Future[list[GameResult]]] = set()
        for chunk in chunks:
            if len(running) >= window:
                _collect(running, tally.take)
            running.add(pool.submit(_batch, rules, members, seed, chunk, max_steps))
        while running:
            _collect(running, tally.take)
    finally:
        if owned:
            pool.shutdown(cancel_futures=True)
    return tally.results(rules, seed)
