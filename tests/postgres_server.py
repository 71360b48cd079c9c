"""A PostgreSQL server of the tests' own, started from Debian's binaries in a temporary folder.

The server listens on a unix socket in its folder and on no TCP port, so
nothing else on the machine reaches it and no port can be taken; it runs
without fsync, since its data dies with it. ``initdb`` refuses to run as
root, so under root (CI, containers) the server runs as the ``postgres``
user the Debian package makes. ``.ci/run`` installs the ``postgresql``
package where it is missing; a test that finds no server binaries fails
and says so, never skips.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import re
import shutil
import subprocess
import tempfile
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: Where Debian installs each major version's server binaries.
BINARIES = Path("/usr/lib/postgresql")
#: The port number: it names the socket file (``.s.PGSQL.5432``) in the server's own folder.
PORT = 5432

_INSTALL = "apt-get install -y postgresql (.ci/run installs it)"


def binaries() -> Path:
    """The newest ``/usr/lib/postgresql/<version>/bin`` that holds ``initdb`` and ``pg_ctl``."""
    found = sorted(
        (
            folder
            for folder in BINARIES.glob("*/bin")
            if (folder / "initdb").exists() and (folder / "pg_ctl").exists()
        ),
        key=lambda folder: [int(part) for part in re.findall(r"\d+", folder.parent.name)],
    )
    if not found:
        pytest.fail(
            "the PostgreSQL store's tests start a server from Debian's binaries, and found none"
            f" in {BINARIES}/*/bin: install the postgresql package: {_INSTALL}",
            pytrace=False,
        )
    return found[-1]


def _server_user() -> dict[str, Any]:
    """What runs the server's commands: the ``postgres`` user when this is root, else as is."""
    if os.geteuid() != 0:
        return {}
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        pytest.fail(
            "running as root, the tests start PostgreSQL as the postgres user (initdb refuses"
            f" root), and there is none: the postgresql package makes it: {_INSTALL}",
            pytrace=False,
        )
    return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}


class PostgresServer:
    """A running server; :meth:`database` makes a fresh database on it, and gives its URL."""

    def __init__(self, folder: Path, programs: Path, user: dict[str, Any]) -> None:
        self.folder = folder
        self.programs = programs
        self.user = user
        self._numbers = itertools.count()

    def url(self, database: str = "postgres", **options: str) -> str:
        """The URL of ``database`` on this server, through its socket, with libpq ``options``."""
        query = urllib.parse.urlencode(
            {"host": str(self.folder), "port": PORT, "user": "postgres", **options},
            quote_via=urllib.parse.quote,
        )
        return f"postgresql:///{database}?{query}"

    def fresh_url(self) -> str:
        """The URL of a new, empty place for tables (one for each test, so none sees another's).

        It is a schema of its own in the ``postgres`` database, which the
        URL puts first on the search path: a schema takes a millisecond to
        make, a database a tenth of a second.
        """
        import psycopg

        name = f"test_{next(self._numbers)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE SCHEMA {name}")
        return self.url(options=f"-c search_path={name}")

    def log(self) -> str:
        """The server's log so far."""
        try:
            return (self.folder / "log").read_text(encoding="utf-8", errors="replace")
        except OSError as error:
            return f"(no log: {error})"

    def _run(self, *command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.programs / command[0]), *command[1:]],
            cwd=self.folder,
            capture_output=True,
            text=True,
            check=False,
            **self.user,
        )

    def start(self) -> None:
        """``initdb``, then ``pg_ctl start``, waiting until the server takes connections."""
        made = self._run(
            "initdb",
            "--pgdata",
            str(self.folder / "data"),
            "--username",
            "postgres",
            "--auth",
            "trust",
            "--encoding",
            "UTF8",
            "--locale",
            "C",
            "--no-sync",
            "--no-instructions",
        )
        if made.returncode != 0:
            pytest.fail(f"initdb failed:\n{made.stdout}{made.stderr}", pytrace=False)
        options = (
            f"-k {self.folder} -p {PORT} -c listen_addresses='' -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off"
        )
        started = self._run(
            "pg_ctl", "start", "--pgdata", str(self.folder / "data"), "--wait", "--silent",
            "--log", str(self.folder / "log"), "--options", options,
        )  # fmt: skip
        if started.returncode != 0:
            pytest.fail(
                f"PostgreSQL did not start:\n{started.stdout}{started.stderr}\n{self.log()}",
                pytrace=False,
            )

    def stop(self) -> None:
        """Stop the server at once (its data is thrown away)."""
        self._run(
            "pg_ctl", "stop", "--pgdata", str(self.folder / "data"), "--mode", "immediate",
            "--wait", "--silent",
        )  # fmt: skip


@contextlib.contextmanager
def running() -> Iterator[PostgresServer]:
    """A server in a new temporary folder, stopped and deleted on leaving."""
    try:
        import psycopg  # noqa: F401
    except ImportError as missing:
        pytest.fail(
            f"the PostgreSQL store's tests need psycopg ({missing}): pip install -e '.[server]'",
            pytrace=False,
        )
    programs, user = binaries(), _server_user()
    # A short path (a socket's path has at most 107 bytes) that the server's user may enter.
    folder = Path(tempfile.mkdtemp(prefix="cheatrules-pg-", dir="/tmp"))
    try:
        if user:
            os.chown(folder, user["user"], user["group"])
        server = PostgresServer(folder, programs, user)
        server.start()
        try:
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
