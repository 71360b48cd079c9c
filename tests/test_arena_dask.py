"""Tournaments on a real Dask cluster: worker processes, bots shipped to them, a worker killed.

A league runs its games on a cluster: ``tournament(..., executor=
client.get_executor())``, or ``cheatrules arena --scheduler``. These tests
start a real :class:`distributed.LocalCluster` of two worker processes
(one for the module) and hold the cluster's results to those of the same
seeded tournament played here, in this thread.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import distributed
import pytest

import cheatrules as cr
from cheatrules.arena import GameResult, tournament
from cheatrules.bots import Agent, CountingBot, FunctionBot, RandomBot
from cheatrules.cli import _cluster, main

T = TypeVar("T")

RULES = cr.english(3, stock=4)  # short games: four cards each, and a stock

#: A bot author's module, which no worker has: the tests send it.
LEAGUE_BOTS = '''
import time

import cheatrules as cr


class Steady:
    """Accepts every claim and lays its first legal play."""

    def act(self, seen, rng):
        if seen.phase is cr.Phase.CHALLENGE:
            return cr.Accept()
        return seen.legal_actions()[0]


class Slow(Steady):
    """Steady, thinking a millisecond a decision: its games are still running when a worker dies."""

    def act(self, seen, rng):
        time.sleep(0.001)
        return super().act(seen, rng)
'''


class InlineExecutor(Executor):
    """Each task at once, in this thread: the tournament as one process plays it."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """A client of a real local cluster: a scheduler and two worker processes."""
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # the HTTP endpoints on a free port, not 8787
            silence_logs=True,
        ) as cluster,
        distributed.Client(cluster) as made,
    ):
        yield made


@pytest.fixture
def league(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The bot author's module, imported here from a folder that is on no worker's path."""
    name = f"league_bots_{abs(hash(tmp_path)) % 10**8}"
    path = tmp_path / f"{name}.py"
    path.write_text(LEAGUE_BOTS, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    return module


def test_a_tournament_on_the_cluster_equals_the_one_played_here(
    client: Any, league: ModuleType
) -> None:
    lineup = [league.Steady(), CountingBot(), RandomBot()]
    client.upload_file(league.__file__)  # the bot author's module, sent to every worker
    workers = len(client.nthreads())
    assert workers == 2
    here = tournament(RULES, lineup, games=24, seed=5, executor=InlineExecutor(), batch=2)
    there = tournament(
        RULES, lineup, games=24, seed=5, executor=client.get_executor(), workers=workers, batch=2
    )
    assert there == here
    assert [row.name for row in there.rows] == ["Steady", "CountingBot", "RandomBot"]
    ran = client.run(lambda: sorted(name for name in sys.modules if name.startswith("league")))
    assert all(league.__name__ in names for names in ran.values())  # each worker played


def test_a_worker_killed_mid_run_loses_no_game_and_counts_none_twice(
    client: Any, league: ModuleType
) -> None:
    client.upload_file(league.__file__)
    lineup = [league.Slow(), league.Steady(), RandomBot()]
    games = 40
    here = tournament(RULES, lineup, games=games, seed=9, executor=InlineExecutor(), batch=1)
    pids: dict[str, int] = client.run(os.getpid)
    killed: list[tuple[str, int, int]] = []  # (worker, tasks it was running, games done then)

    def kill_a_busy_worker(done: int, total: int) -> None:
        if killed or done < 4:
            return
        # The scheduler queues tasks and hands a worker one at a time: between two, both
        # may be idle for a moment. Look again a few times; else try at the next game.
        for _ in range(100):
            busy = {worker: len(tasks) for worker, tasks in client.processing().items() if tasks}
            if busy:
                break
            time.sleep(0.01)
        else:
            return
        worker = max(busy, key=busy.__getitem__)
        killed.append((worker, busy[worker], done))
        os.kill(pids[worker], 9)

    streamed: list[GameResult] = []
    there = tournament(
        RULES,
        lineup,
        games=games,
        seed=9,
        executor=client.get_executor(),
        workers=2,
        batch=1,
        progress=kill_a_busy_worker,
        on_game=streamed.append,
    )
    assert killed, "no worker was killed: the run ended before the fourth game"
    _, running, done = killed[0]
    assert running >= 1 and done < games  # it died with games of the run on it
    assert there == here  # its games were played again elsewhere, and counted once
    assert sorted(game.index for game in streamed) == list(range(games))
    assert there.played == games and sum(row.games for row in there.rows) == 3 * games
    client.wait_for_workers(2, timeout=30)  # the nanny restarts it: a new process
    assert sorted(client.run(os.getpid).values()) != sorted(pids.values())


def test_a_tournament_that_keeps_no_games_keeps_the_same_rows(client: Any) -> None:
    lineup: list[Agent] = [CountingBot(), RandomBot(), RandomBot()]
    kept = tournament(RULES, lineup, games=30, seed=2, executor=client.get_executor(), workers=2)
    lean = tournament(
        RULES, lineup, games=30, seed=2, executor=client.get_executor(), workers=2,
        keep_games=False,
    )  # fmt: skip
    assert lean.games == () and len(kept.games) == 30
    assert (lean.rows, lean.played, lean.decisions) == (kept.rows, kept.played, kept.decisions)
    assert lean.table() == kept.table()


# -- the command line -------------------------------------------------------------------------


@pytest.fixture
def bots_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The bot author's module in the current directory, as ``--bots`` finds it; its name."""
    name = f"arena_bots_{abs(hash(tmp_path)) % 10**8}"
    (tmp_path / f"{name}.py").write_text(LEAGUE_BOTS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the command adds the directory
    return name


def arena(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    command = ["arena", "--games", "9", "--players", "3", "--seed", "4", "--plain", *argv]
    assert main(list(command)) == 0
    return capsys.readouterr().out.splitlines()


def test_the_arena_runs_on_a_running_cluster_and_sends_it_the_bots(
    capsys: pytest.CaptureFixture[str], client: Any, bots_here: str
) -> None:
    bots = ("--bots", f"{bots_here}:Steady,counting,random", "--with", "stock=4")
    alone = arena(capsys, *bots, "--workers", "1")
    address = client.scheduler.address
    assert address.startswith("tcp://")
    assert arena(capsys, *bots, "--scheduler", address) == alone
    ran = client.run(lambda: [name for name in sys.modules if name.startswith("arena_bots")])
    assert all(bots_here in names for names in ran.values())


def test_the_arena_starts_a_local_cluster(
    capsys: pytest.CaptureFixture[str], bots_here: str
) -> None:
    bots = ("--bots", f"{bots_here}:Steady,counting,random", "--with", "stock=4")
    alone = arena(capsys, *bots, "--workers", "1")
    assert arena(capsys, *bots, "--scheduler", "local:2") == alone


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("local:0", "--scheduler local:0: local:N needs 1 worker or more"),
        ("localhost:8786", "give a scheduler's address, such as tcp://10.0.0.5:8786, or local:N"),
        ("local:two", "give a scheduler's address"),
    ],
)
def test_a_scheduler_that_is_neither_an_address_nor_local_is_told(
    capsys: pytest.CaptureFixture[str], given: str, said: str
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["arena", "--games", "1", "--players", "3", "--scheduler", given])
    assert caught.value.code == 2
    message = capsys.readouterr().err
    assert said in message and "Traceback" not in message


def test_a_scheduler_nobody_answers_at_is_told(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_cluster, "CONNECT_TIMEOUT", 1)
    with pytest.raises(SystemExit) as caught:
        main(["arena", "--games", "1", "--players", "3", "--scheduler", "tcp://127.0.0.1:9"])
    assert caught.value.code == 2
    message = capsys.readouterr().err
    assert "--scheduler tcp://127.0.0.1:9: cannot reach the scheduler" in message


def test_without_dask_the_arena_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if it were not installed
    with pytest.raises(SystemExit) as caught:
        main(["arena", "--games", "1", "--players", "3", "--scheduler", "local:1"])
    assert caught.value.code == 2
    message = capsys.readouterr().err
    assert "--scheduler needs the dask extra" in message and ".[dask]" in message


def test_the_bots_modules_are_the_ones_sent(league: ModuleType) -> None:
    shipped = _cluster.modules_to_ship([league.Steady(), CountingBot(), RandomBot()])
    assert shipped == [Path(str(league.__file__)).resolve()]
    first = FunctionBot(lambda seen, rng: seen.legal_actions()[0])  # of a package: not sent
    assert __name__ == "tests.test_arena_dask"
    assert _cluster.modules_to_ship([CountingBot(), first]) == []
