"""``cheatrules arena --scheduler``: a tournament on a Dask cluster (the ``dask`` extra).

``--scheduler tcp://HOST:PORT`` connects to a running cluster's scheduler;
``--scheduler local:N`` starts a cluster of ``N`` worker processes on this
machine for the run. Either way the games run through the cluster's
:class:`concurrent.futures.Executor` (``client.get_executor()``), and the
files of the bots' own modules (``--bots mybots:MyBot``) are sent to every
worker, those that join later included, so a cluster needs only
cheatrules installed. Dask reruns a task whose worker died on another
worker; each task's games are counted once, when its result comes back.
"""

from __future__ import annotations

import contextlib
import re
import sys
import sysconfig
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor
from pathlib import Path

from cheatrules._extras import install_hint
from cheatrules.bots import Agent
from cheatrules.errors import CheatRulesError

__all__ = ["cluster", "modules_to_ship", "scheduler"]

#: ``local:N``: a cluster of ``N`` worker processes on this machine.
_LOCAL = re.compile(r"local:(\d+)")
#: A scheduler's address: a protocol Dask speaks, a host and a port.
_ADDRESS = re.compile(
    r"(tcp|tls|ws|wss)://[^\s/:]+(:\d+)?|(tcp|tls|ws|wss)://\[[0-9a-fA-F:.]+\](:\d+)?"
)

#: Seconds to wait for a remote scheduler to answer before saying it cannot be reached.
CONNECT_TIMEOUT = 10


def scheduler(text: str) -> str | int:
    """``--scheduler``'s value: an address as given, or the worker count of ``local:N``.

    >>> scheduler("tcp://10.0.0.5:8786"), scheduler("local:2")
    ('tcp://10.0.0.5:8786', 2)

    Raises:
        CheatRulesError: it is neither, or ``local:`` asks for no workers.

    """
    text = text.strip()
    local = _LOCAL.fullmatch(text)
    if local is not None:
        workers = int(local.group(1))
        if workers < 1:
            raise CheatRulesError(f"--scheduler {text}: local:N needs 1 worker or more")
        return workers
    if _ADDRESS.fullmatch(text) is None:
        raise CheatRulesError(
            f"--scheduler {text}: give a scheduler's address, such as tcp://10.0.0.5:8786, "
            "or local:N for a cluster of N worker processes on this machine"
        )
    return text


def modules_to_ship(lineup: Sequence[Agent]) -> list[Path]:
    """The source files of the bots' own modules: one-file modules, not installed ones.

    A bot's module is its class's (a :class:`~cheatrules.bots.FunctionBot`'s,
    its function's). Modules of cheatrules, of the standard library and of
    the installed packages are on the workers already; a module inside a
    package of your own is not sent either (Dask sends one-file modules,
    imported by their file's name): install the package on the workers.
    """
    installed = {
        Path(folder).resolve()
        for name in ("stdlib", "platstdlib", "purelib", "platlib")
        if (folder := sysconfig.get_paths().get(name))
    }
    files: list[Path] = []
    for agent in lineup:
        made = getattr(agent, "function", agent)
        name = getattr(made, "__module__", None) or type(made).__module__
        if "." in name or name == "cheatrules":
            continue
        module = sys.modules.get(name)
        where = getattr(module, "__file__", None)
        if where is None or not where.endswith(".py") or Path(where).name == "__init__.py":
            continue
        path = Path(where).resolve()
        if any(path.is_relative_to(root) for root in installed) or path in files:
            continue
        files.append(path)
    return files


@contextlib.contextmanager
def cluster(where: str | int, lineup: Sequence[Agent]) -> Iterator[tuple[Executor, int]]:
    """A Dask cluster's executor and its worker threads, for the time of a tournament.

    ``where`` is :func:`scheduler`'s answer: an address to connect to, or
    the number of worker processes of a cluster started here (one thread
    each, closed at the end). The bots' module files
    (:func:`modules_to_ship`) are sent to every worker first.

    Raises:
        CheatRulesError: Dask is not installed (it says how to install the
            extra), or the scheduler cannot be reached.

    """
    try:
        from distributed import Client, LocalCluster
    except ImportError as error:
        raise CheatRulesError(
            f"--scheduler needs the dask extra ({error.name} is missing): {install_hint('dask')}"
        ) from None
    with contextlib.ExitStack() as stack:
        if isinstance(where, int):
            local = stack.enter_context(
                LocalCluster(
                    n_workers=where,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",  # the HTTP endpoints on a free port, not 8787
                    silence_logs=True,
                )
            )
            client = stack.enter_context(Client(local))
        else:
            try:
                client = stack.enter_context(Client(where, timeout=CONNECT_TIMEOUT))
            except OSError as error:
                raise CheatRulesError(
                    f"--scheduler {where}: cannot reach the scheduler ({error})"
                ) from None
        for path in modules_to_ship(lineup):
            client.upload_file(str(path))
        threads = sum(client.nthreads().values())
        yield client.get_executor(), max(threads, 1)
