"""Tournaments on a Dask cluster against the local process pool, and the parent's memory.

Run: ``python benchmarks/arena.py [games]`` (the ``dask`` extra). Two parts:

1. Games per second of one seeded tournament (three-player English, a
   CountingBot against two RandomBots; 4,000 games unless given) on the
   default process pool of two workers and on a ``LocalCluster`` of two
   worker processes, one thread each, in alternating rounds (three each),
   and the cluster's median over the pool's (target: within 20%). The
   cluster is started once, outside the timing, as a league's would be.
2. With ``--memory [games]`` (100,000 unless given): one tournament of
   RandomBots on the two-worker cluster, ``keep_games=False`` as
   ``cheatrules arena`` runs, and the parent process's resident memory at
   each tenth of the games (target: flat, not growing with the games).
   ``--memory-pool [games]`` does the same on the process pool, where no
   scheduler shares the parent process.
"""

from __future__ import annotations

import contextlib
import statistics
import sys
import time

import distributed

import cheatrules as cr
from cheatrules.arena import CLUSTER_BATCH, tournament
from cheatrules.bots import Agent, CountingBot, RandomBot

WORKERS = 2


def _resident() -> int:
    """This process's resident memory in bytes (``/proc/self/statm``)."""
    with open("/proc/self/statm", encoding="ascii") as file:
        pages = int(file.read().split()[1])
    return pages * 4096


def _cluster() -> distributed.LocalCluster:
    """A cluster of :data:`WORKERS` worker processes on this machine, one thread each."""
    return distributed.LocalCluster(
        n_workers=WORKERS,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=True,
    )


def speed(games: int) -> None:
    rules = cr.english(3)
    lineup: list[Agent] = [CountingBot(), RandomBot(), RandomBot()]
    with (
        _cluster() as cluster,
        distributed.Client(cluster) as client,
    ):
        runs: dict[str, list[float]] = {}
        for round_ in range(3):
            results = []
            for label, batch, executor in (
                ("pool, batch 8", 8, None),
                (f"pool, batch {CLUSTER_BATCH}", CLUSTER_BATCH, None),
                ("cluster, batch 8", 8, client.get_executor()),
                (f"cluster, batch {CLUSTER_BATCH}", CLUSTER_BATCH, client.get_executor()),
            ):
                start = time.perf_counter()
                results.append(
                    tournament(
                        rules, lineup, games, round_, executor=executor, workers=WORKERS,
                        batch=batch,
                    )
                )  # fmt: skip
                runs.setdefault(label, []).append(games / (time.perf_counter() - start))
            assert all(result == results[0] for result in results)
            print(f"round {round_}: " + ", ".join(f"{k} {v[-1]:.0f}" for k, v in runs.items()))
    best_pool = max(statistics.median(runs[f"pool, batch {size}"]) for size in (8, CLUSTER_BATCH))
    print(f"{games} games a round, {WORKERS} workers, median games/s:")
    for label, speeds in runs.items():
        median = statistics.median(speeds)
        print(f"  {label}: {median:.0f} ({median / best_pool:.2f} of the faster pool)")
    print("target: the cluster (its batch) within 20% of the faster pool, >= 0.80")


def memory(games: int, pool: bool = False) -> None:
    rules = cr.english(3)
    lineup = [RandomBot(), RandomBot(), RandomBot()]
    marks = {games * step // 10 for step in range(1, 11)}
    seen: list[tuple[int, int]] = []

    def note(done: int, total: int) -> None:
        crossed = [mark for mark in marks if mark <= done]
        for mark in crossed:
            marks.discard(mark)
        if crossed:
            seen.append((done, _resident()))

    with contextlib.ExitStack() as stack:
        executor = None
        if not pool:
            cluster = stack.enter_context(_cluster())
            executor = stack.enter_context(distributed.Client(cluster)).get_executor()
        start = time.perf_counter()
        results = tournament(
            rules,
            lineup,
            games,
            seed=1,
            executor=executor,
            workers=WORKERS,
            batch=CLUSTER_BATCH,
            progress=note,
            keep_games=False,
        )
        seconds = time.perf_counter() - start
    assert results.played == games
    for done, resident in seen:
        print(f"{done:>8} games: parent resident {resident / 2**20:.1f} MiB")
    first, last = seen[0][1], seen[-1][1]
    where = "the process pool" if pool else "the cluster"
    print(
        f"{games} games on {where} in {seconds:.0f} s ({games / seconds:.0f} games/s): the"
        f" parent's memory {first / 2**20:.1f} MiB after the first tenth,"
        f" {last / 2**20:.1f} MiB at the end ({(last - first) / 2**20:+.1f} MiB)"
    )


def main(argv: list[str]) -> int:
    if argv[:1] in (["--memory"], ["--memory-pool"]):
        memory(int(argv[1]) if len(argv) > 1 else 100_000, pool=argv[0] == "--memory-pool")
    else:
        speed(int(argv[0]) if argv else 4_000)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
