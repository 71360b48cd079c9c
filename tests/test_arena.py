"""Tournaments: seeded, seat-rotated, the same on any executor, with honest statistics."""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any, TypeVar

import attrs
import pytest

import cheatrules as cr
from cheatrules.arena import play_game, seat_stats, tournament, wilson
from cheatrules.bots import Agent, BotFunction, FunctionBot, HonestBot, RandomBot

T = TypeVar("T")

RULES = cr.english(3, stock=4)  # short games: four cards each, and a stock
LINEUP: list[Agent] = [HonestBot(), RandomBot(), RandomBot()]


class InlineExecutor(Executor):
    """An executor of our own that runs each task at once, in this thread."""

    def __init__(self) -> None:
        self.tasks = 0

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        self.tasks += 1
        future: Future[T] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def test_the_same_seed_gives_the_same_results_on_any_executor() -> None:
    inline = InlineExecutor()
    first = tournament(RULES, LINEUP, games=9, seed=3, executor=inline, batch=2)
    assert inline.tasks == 5  # games 0-1, 2-3, 4-5, 6-7, 8
    with ThreadPoolExecutor(3) as pool:
        second = tournament(RULES, LINEUP, games=9, seed=3, executor=pool, batch=4)
    assert first == second
    assert tournament(RULES, LINEUP, games=9, seed=4, executor=inline) != first


def test_the_default_process_pool_agrees_with_an_inline_run() -> None:
    here = tournament(RULES, LINEUP, games=4, seed=5, executor=InlineExecutor())
    assert tournament(RULES, LINEUP, games=4, seed=5, workers=2) == here


def test_the_lineup_turns_one_seat_each_game() -> None:
    results = tournament(RULES, LINEUP, games=3, seed=1, executor=InlineExecutor())
    assert [game.names for game in results.games] == [
        ("HonestBot", "RandomBot", "RandomBot"),
        ("RandomBot", "HonestBot", "RandomBot"),
        ("RandomBot", "RandomBot", "HonestBot"),
    ]


def test_each_game_replays_from_the_tournament_seed() -> None:
    results = tournament(RULES, LINEUP, games=2, seed=8, executor=InlineExecutor())
    again = play_game(RULES, [RandomBot(), HonestBot(), RandomBot()], seed=8, index=1)
    assert results.games[1] == again


def test_rows_add_up_to_the_games() -> None:
    results = tournament(RULES, LINEUP, games=12, seed=2, executor=InlineExecutor())
    honest, randoms = results.row("HonestBot"), results.row("RandomBot")
    assert (honest.games, randoms.games) == (12, 24)
    finished = sum(game.finished for game in results.games)
    assert honest.wins + randoms.wins == finished  # one winner a game in Cheat
    assert honest.losses + randoms.losses == 2 * finished
    assert honest.bluff_rate < randoms.bluff_rate
    assert results.mean_length == sum(g.length for g in results.games) / 12
    assert "HonestBot" in results.table() and "12 games" in results.table()
    with pytest.raises(KeyError, match="no agent named 'Nobody'"):
        results.row("Nobody")


def test_a_game_cut_off_counts_as_no_result() -> None:
    results = tournament(RULES, LINEUP, games=2, seed=2, executor=InlineExecutor(), max_steps=5)
    assert not any(game.finished for game in results.games)
    assert results.row("HonestBot").unfinished == 2 and results.row("HonestBot").wins == 0


def test_the_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


@attrs.frozen
class Cheater:
    """An agent that tries to lay a card it does not hold."""

    name: str = "Cheater"

    def act(self, observation: cr.Observation, rng: random.Random) -> cr.Action:
        return cr.Play("A♠ A♠", "A")


def test_bad_lineups_and_bad_agents_are_named() -> None:
    with pytest.raises(cr.RulesError, match="must seat 3 agents"):
        tournament(RULES, LINEUP[:2], games=1)
    with pytest.raises(cr.RulesError, match="games must be a whole number"):
        tournament(RULES, LINEUP, games=0)
    with pytest.raises(cr.RulesError, match="batch must be a whole number of at least 1"):
        tournament(RULES, LINEUP, games=3, batch=0)
    with pytest.raises(cr.RulesError, match="is not an agent"):
        tournament(RULES, [HonestBot(), RandomBot(), "bot"], games=1)  # type: ignore[list-item]
    with pytest.raises(cr.IllegalActionError, match="Cheater at seat 0 chose"):
        tournament(RULES, [Cheater(), RandomBot(), RandomBot()], games=1, executor=InlineExecutor())


class CountingExecutor(Executor):
    """Runs each task when its result is first asked for, counting the tasks in flight."""

    def __init__(self) -> None:
        self.submitted = 0
        self.in_flight = 0
        self.most_in_flight = 0

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        self.submitted += 1
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        future: Future[T] = Future()
        future.set_result(fn(*args, **kwargs))

        def landed(_: Future[T]) -> None:
            self.in_flight -= 1

        # The tournament learns of the result when it waits for it: count it landed then.
        original = future.result

        def result(timeout: float | None = None) -> T:
            if not getattr(future, "_counted", False):
                future._counted = True  # type: ignore[attr-defined]
                landed(future)
            return original(timeout)

        future.result = result  # type: ignore[method-assign]
        return future


def test_work_is_submitted_in_a_bounded_window() -> None:
    pool = CountingExecutor()
    seen: list[tuple[int, int]] = []

    def note(done: int, total: int) -> None:
        seen.append((done, pool.submitted))

    results = tournament(
        RULES, LINEUP, games=60, seed=3, executor=pool, batch=1, workers=2, progress=note
    )
    assert pool.submitted == 60 and pool.most_in_flight <= 8  # 4 tasks a worker at most
    assert seen[0][0] == 1 and seen[0][1] < 60  # progress from the first game, not the last
    assert [done for done, _ in seen] == list(range(1, 61))
    whole = tournament(RULES, LINEUP, games=60, seed=3, executor=InlineExecutor(), batch=7)
    assert results == whole


def test_never_more_workers_than_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[int] = []

    class Pool(InlineExecutor):
        def __init__(self, workers: int, **options: Any) -> None:
            super().__init__()
            made.append(workers)

    monkeypatch.setattr("cheatrules.arena.ProcessPoolExecutor", Pool)
    tournament(RULES, LINEUP, games=1, seed=1, workers=200)
    tournament(RULES, LINEUP, games=20, seed=1, workers=200, batch=8)
    assert made == [1, 3]


def test_the_plain_table_fits_80_columns() -> None:
    results = tournament(RULES, LINEUP, games=3, seed=1, executor=InlineExecutor())
    assert all(len(line) <= 80 for line in results.table().splitlines())


def test_a_protecting_joker_is_no_bluff_in_the_statistics() -> None:
    # Under check="jokers-protect" a group holding a joker is proved true, so the
    # arena does not count it as a bluff; with the default check it is one.
    hands = ["★♥ K♦ 5♣", "A♠ 2♥", "A♥ 9♣"]
    for check, bluffs in (("jokers-protect", 0), ("whole-group", 1)):
        rules = cr.english(3, jokers=True, check=check)
        state = cr.deal(rules, hands=hands).apply(cr.Play("★♥ K♦", "A")).apply(cr.Challenge())
        assert seat_stats(state)[0] == cr.arena.SeatStats(0, 0, 1, bluffs)
        assert seat_stats(state)[1].challenges == 1


# -- bots of every shape, and errors that say where they happened ---------------------------


def first_legal(seen: cr.Observation, rng: random.Random) -> cr.Action:
    """A function bot, defined at the top of a module so that it pickles."""
    return seen.legal_actions()[0]


@attrs.frozen
class Crasher:
    """An agent whose own code fails at its first decision."""

    def act(self, observation: cr.Observation, rng: random.Random) -> cr.Action:
        raise ZeroDivisionError("the bot divided by zero")


def test_a_function_bot_sits_in_a_lineup_as_any_agent() -> None:
    lineup: list[Agent | BotFunction] = [first_legal, RandomBot(), RandomBot()]
    here = tournament(RULES, lineup, games=3, seed=4, executor=InlineExecutor())
    assert [row.name for row in here.rows] == ["first_legal", "RandomBot"]
    assert here.row("first_legal").games == 3
    wrapped: list[Agent] = [FunctionBot(first_legal), RandomBot(), RandomBot()]
    assert tournament(RULES, wrapped, games=3, seed=4, executor=InlineExecutor()) == here
    assert tournament(RULES, lineup, games=3, seed=4, workers=2) == here  # it pickles
    assert play_game(RULES, lineup, seed=4, index=0) == here.games[0]


def test_a_class_where_an_agent_belongs_is_named_with_the_fix() -> None:
    with pytest.raises(cr.RulesError, match=r"is a class, not an agent: .* HonestBot\(\)"):
        tournament(RULES, [HonestBot, RandomBot(), RandomBot()], games=1)  # type: ignore[list-item]


def _where(seed: int, index: int, seats: str) -> str:
    return f"game {index} of the tournament seeded {seed} (seats: {seats})"


@pytest.mark.parametrize("pool", ["inline", "processes"])
def test_an_illegal_action_names_the_game_the_seed_and_the_seats(pool: str) -> None:
    lineup: list[Agent] = [RandomBot(), Cheater(), RandomBot()]
    executor = InlineExecutor() if pool == "inline" else None
    with pytest.raises(cr.IllegalActionError) as raised:
        tournament(RULES, lineup, games=1, seed=11, executor=executor)
    message = str(raised.value)
    assert message.startswith("Cheater at seat ")
    # Game 0 seats the lineup as given (game 1 would turn it one seat).
    assert _where(11, 0, "0 RandomBot, 1 Cheater, 2 RandomBot") in message


@pytest.mark.parametrize("pool", ["inline", "processes"])
def test_an_agents_own_error_goes_on_noting_the_game_the_seed_and_the_seats(pool: str) -> None:
    lineup: list[Agent] = [RandomBot(), RandomBot(), Crasher()]
    executor = InlineExecutor() if pool == "inline" else None
    with pytest.raises(ZeroDivisionError, match="the bot divided by zero") as raised:
        tournament(RULES, lineup, games=1, seed=12, executor=executor)
    notes = getattr(raised.value, "__notes__", [])
    assert len(notes) == 1
    assert notes[0].startswith("raised by Crasher at seat 2, in ")
    assert _where(12, 0, "0 RandomBot, 1 RandomBot, 2 Crasher") in notes[0]
    assert "play_game(rules, lineup, seed=12, index=0) replays it" in notes[0]
