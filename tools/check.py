"""Run every check the project has: lint, format, types, docs, then the tests.

Usage: ``python tools/check.py`` from the repository root, after
``python -m pip install -e ".[dev]"``. It:

1. makes sure the browser the web table's tests drive is there: Debian's
   ``chromium`` and ``chromedriver``. Where either is missing it installs
   both with ``apt-get``, as root or through a ``sudo`` that asks no
   password, and otherwise stops at once with one line saying what to
   install;
2. runs ``ruff check``, ``ruff format --check``, ``mypy`` in strict mode
   (the file list is in ``pyproject.toml``) and the documentation build with
   warnings as errors (``sphinx-build -n -W``, into a temporary folder that
   is removed afterwards), two at a time, each one's output printed whole
   when it ends;
3. runs ``pytest`` last: the tests, the doctests of the package, and every
   example in the README and the docs, spread over every core
   (pytest-xdist), each file kept on one worker since a page's examples
   share their names. Its report of the slowest tests and of the whole
   run's time against the README's budget (:data:`BUDGET`) comes just
   before its summary, which closes the output.

Every check runs even when an earlier one fails; the exit status is non-zero
if any failed, and the failed checks are named at the end.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The seconds the README promises for its test command on a two-core machine, install included.
BUDGET = 180

#: Where the time report finds when the run began (seconds since the epoch) and what came first.
STARTED = "CHEATRULES_CHECK_STARTED"
STEPS = "CHEATRULES_CHECK_STEPS"

_BROWSER_PACKAGES = ("chromium", "chromium-driver")


def main() -> int:
    """Run each check; return 0 when all passed."""
    began = time.time()
    if not _browser_ready():
        return 1
    with tempfile.TemporaryDirectory(prefix="cheatrules-docs-") as docs_out:
        return _run_checks(sys.executable, Path(docs_out), began)


def _browser_ready() -> bool:
    """Whether chromium and chromedriver are on the path, installing them where allowed."""
    if _browser_found():
        return True
    install = ["apt-get", "install", "-y", "-qq", *_BROWSER_PACKAGES]
    prefix = _privilege()
    if prefix is None or shutil.which("apt-get") is None:
        print(
            "== browser: the web table's tests need Debian's chromium and chromedriver; "
            f"install them with: sudo {' '.join(install)}",
            file=sys.stderr,
            flush=True,
        )
        return False
    print(f"== browser: installing {' '.join(_BROWSER_PACKAGES)} with apt-get", flush=True)
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], install):
        done = subprocess.run(
            [*prefix, *command], env=environment, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            print(done.stdout + done.stderr, file=sys.stderr)
            print(f"== browser: '{' '.join(command)}' failed", file=sys.stderr, flush=True)
            return False
    return _browser_found()


def _browser_found() -> bool:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    return browser is not None and shutil.which("chromedriver") is not None


def _privilege() -> list[str] | None:
    """What runs apt-get with the right to install: nothing as root, else a passwordless sudo."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return []
    if shutil.which("sudo") is None:
        return None
    asked = subprocess.run(["sudo", "-n", "true"], capture_output=True, check=False)
    return ["sudo", "-n"] if asked.returncode == 0 else None


def _run_checks(python: str, docs_out: Path, began: float) -> int:
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
        for name, command, returncode, output, seconds in pool.map(_capture, static):
            print(f"== {name}: {' '.join(command)}", flush=True)
            if output.strip():
                print(output.rstrip(), flush=True)
            verdict = "FAILED" if returncode != 0 else "passed"
            print(f"== {name}: {verdict} in {seconds:.0f} s", flush=True)
            times.append(f"{name} {seconds:.0f} s")
            if returncode != 0:
                failed.append(name)
    pytest = [python, "-m", "pytest", "--numprocesses", "auto", "--dist", "loadfile"]
    pytest += ["--durations", "12", *sys.argv[1:]]
    print(f"== pytest: {' '.join(pytest)}", flush=True)
    environment = {**os.environ, STARTED: f"{began:.3f}", STEPS: ", ".join(times)}
    if subprocess.run(pytest, cwd=ROOT, env=environment, check=False).returncode != 0:
        failed.append("pytest")
    if failed:
        print(f"== failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def _capture(step: tuple[str, list[str]]) -> tuple[str, list[str], int, str, float]:
    """Run one check, its output kept to be printed whole: its name, command, code, output, time."""
    name, command = step
    began = time.perf_counter()
    done = subprocess.run(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False
    )
    return name, command, done.returncode, done.stdout, time.perf_counter() - began


if __name__ == "__main__":
    sys.exit(main())
