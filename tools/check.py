"""Run every check the project has: lint, format, types, docs, and the tests beside them.

Usage: ``python tools/check.py`` from the repository root, after
``python -m pip install --no-compile -e ".[dev]"``. It:

1. makes sure what the tests need from the system is there: Debian's
   ``chromium`` and ``chromedriver`` (the browser the web table's tests
   drive) and ``postgresql`` (the binaries the server-database tests start
   a server from). Where any is missing it installs them with ``apt-get``,
   as root or through a ``sudo`` that asks no password, and otherwise stops
   at once with one line saying what to install;
2. starts ``ruff check``, ``ruff format --check``, ``mypy`` in strict mode
   (the file list is in ``pyproject.toml``) and the documentation build with
   warnings as errors (``sphinx-build -n -W``, into a temporary folder that
   is removed afterwards), two at a time, in the background;
3. runs ``pytest`` beside them: the tests, the doctests of the package, and
   every example in the README and the docs, spread over every core
   (pytest-xdist), each file kept on one worker since a page's examples
   share their names, with its report of the slowest tests. The static
   checks fill the cores where pytest's workers wait (a file left to one
   worker at the end, say): run after one another, the two took about 25 s
   more of the README's budget;
4. lets its checks keep the bytecode of what they import (:func:`environment`),
   so that a module is compiled once in the run rather than by each of the
   many processes the tests start, and rather than all at install time:
   pip's compiling of every file of every installed package took half of
   the install's time, most of it for files no check imports;
5. prints each static check's output whole, and last the whole run's time
   against the README's budget (:data:`BUDGET`) and the verdict, naming
   the checks that failed.

Every check runs even when another fails; the exit status is non-zero if
any failed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The seconds the README promises for its test command on a two-core machine, install included.
BUDGET = 180

#: What the tests need from Debian, each with how to tell it is there: the browser the web
#: table's tests drive, and the PostgreSQL binaries its server-database tests start a server
#: from (``tests/postgres_server.py``).
_SYSTEM_PACKAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "the web table's browser tests need Debian's chromium and chromedriver",
        ("chromium", "chromium-driver"),
    ),
    ("the PostgreSQL store's tests need Debian's postgresql server", ("postgresql",)),
)


def main() -> int:
    """Run each check; return 0 when all passed."""
    began = time.time()
    if not _system_ready():
        return 1
    with tempfile.TemporaryDirectory(prefix="cheatrules-check-") as scratch:
        variables = environment(os.environ, Path(scratch) / "bytecode")
        return _run_checks(sys.executable, Path(scratch) / "docs", variables, began)


def environment(variables: Mapping[str, str], bytecode: Path) -> dict[str, str]:
    """The checks' environment: ``variables``, with Python keeping the bytecode it compiles.

    Where ``PYTHONDONTWRITEBYTECODE`` asks Python to write no bytecode beside
    the sources, the checks write it under ``bytecode`` instead (a folder the
    run removes after), so that nothing lands in the working tree and still
    each module is compiled once.

    >>> environment({"PYTHONDONTWRITEBYTECODE": "1", "LANG": "C"}, Path("/tmp/b"))
    {'LANG': 'C', 'PYTHONPYCACHEPREFIX': '/tmp/b'}
    >>> environment({"LANG": "C"}, Path("/tmp/b"))
    {'LANG': 'C'}
    """
    kept = dict(variables)
    if kept.pop("PYTHONDONTWRITEBYTECODE", ""):
        kept.setdefault("PYTHONPYCACHEPREFIX", str(bytecode))
    return kept


def _system_ready() -> bool:
    """Whether the browser and PostgreSQL are there, installing what is missing where allowed."""
    found = (_browser_found(), _postgres_found())
    missing = [
        (why, names)
        for (why, names), there in zip(_SYSTEM_PACKAGES, found, strict=True)
        if not there
    ]
    if not missing:
        return True
    packages = [name for _, names in missing for name in names]
    install = ["apt-get", "install", "-y", "-qq", *packages]
    prefix = _privilege()
    if prefix is None or shutil.which("apt-get") is None:
        reasons = "; ".join(why for why, _ in missing)
        print(
            f"== system: {reasons}; install them with: sudo {' '.join(install)}",
            file=sys.stderr,
            flush=True,
        )
        return False
    print(f"== system: installing {' '.join(packages)} with apt-get", flush=True)
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], install):
        done = subprocess.run(
            [*prefix, *command], env=environment, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            print(done.stdout + done.stderr, file=sys.stderr)
            print(f"== system: '{' '.join(command)}' failed", file=sys.stderr, flush=True)
            return False
    return _browser_found() and _postgres_found()


def _browser_found() -> bool:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    return browser is not None and shutil.which("chromedriver") is not None


#: Where Debian's postgresql packages put each version's server binaries.
POSTGRES = Path("/usr/lib/postgresql")


def _postgres_found() -> bool:
    return any(POSTGRES.glob("*/bin/initdb"))


def _privilege() -> list[str] | None:
    """What runs apt-get with the right to install: nothing as root, else a passwordless sudo."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return []
    if shutil.which("sudo") is None:
        return None
    asked = subprocess.run(["sudo", "-n", "true"], capture_output=True, check=False)
    return ["sudo", "-n"] if asked.returncode == 0 else None


def _run_checks(python: str, docs_out: Path, variables: dict[str, str], began: float) -> int:
    """Run every check, building the docs into ``docs_out``; return 0 when all passed."""
    sphinx = [python, "-m", "sphinx", "-n", "-W", "--keep-going", "-q", "-b", "html"]
    static = [
        ("ruff check", [python, "-m", "ruff", "check", "."]),
        ("ruff format", [python, "-m", "ruff", "format", "--check", "."]),
        ("mypy", [python, "-m", "mypy"]),
        ("docs", [*sphinx, "docs", str(docs_out)]),
    ]
    failed: list[str] = []
    times: list[str] = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        checks = pool.map(partial(_capture, variables=variables), static)  # pytest runs beside
        pytest = [python, "-m", "pytest", "--numprocesses", "auto", "--dist", "loadfile"]
        pytest += ["--durations", "12", *sys.argv[1:]]
        print(f"== pytest: {' '.join(pytest)}", flush=True)
        began_tests = time.perf_counter()
        done = subprocess.run(pytest, cwd=ROOT, env=variables, check=False)
        tests_passed = done.returncode == 0
        times.append(f"pytest {time.perf_counter() - began_tests:.0f} s")
        for name, command, returncode, output, seconds in checks:
            print(f"== {name}: {' '.join(command)}", flush=True)
            if output.strip():
                print(output.rstrip(), flush=True)
            verdict = "FAILED" if returncode != 0 else "passed"
            print(f"== {name}: {verdict} in {seconds:.0f} s", flush=True)
            times.append(f"{name} {seconds:.0f} s")
            if returncode != 0:
                failed.append(name)
    if not tests_passed:
        failed.append("pytest")
    print(report(time.time() - began, times, failed), flush=True)
    return 1 if failed else 0


def report(spent: float, times: list[str], failed: list[str]) -> str:
    """The closing lines: the run's time against :data:`BUDGET`, then the verdict.

    >>> print(report(90, ["pytest 80 s", "mypy 19 s"], ["mypy"]).splitlines()[-1])
    == failed: mypy
    """
    verdict = f"== failed: {', '.join(failed)}" if failed else "== all passed"
    return (
        f"== time: {', '.join(times)} (the static checks beside the tests)\n"
        f"== tools/check.py: {spent:.0f} s in all; the README's test command has {BUDGET} s"
        " on a two-core machine, the install included\n"
        f"{verdict}"
    )


def _capture(
    step: tuple[str, list[str]], variables: dict[str, str]
) -> tuple[str, list[str], int, str, float]:
    """Run one check, its output kept to be printed whole: its name, command, code, output, time."""
    name, command = step
    began = time.perf_counter()
    done = subprocess.run(
        command,
        cwd=ROOT,
        env=variables,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
    )
    return name, command, done.returncode, done.stdout, time.perf_counter() - began


if __name__ == "__main__":
    sys.exit(main())
