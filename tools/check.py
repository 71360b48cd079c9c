"""Run every check the project has: lint, format, types, docs, then the tests.

Usage: ``python tools/check.py`` from the repository root, after
``python -m pip install -e ".[dev]"``. It runs, in order:

1. ``ruff check`` and ``ruff format --check``;
2. ``mypy`` in strict mode over the package, the examples, the benchmarks
   and the tests (the file list is in ``pyproject.toml``);
3. the documentation build, with warnings as errors (``sphinx-build -n -W``),
   into a temporary folder that is removed afterwards;
4. ``pytest``: the tests, the doctests of the package, and every example in
   the README and the docs, spread over every core (pytest-xdist), each
   file kept on one worker since a page's examples share their names. It
   runs last, so its summary closes the output.

Every step runs even when an earlier one fails; the exit status is non-zero
if any failed, and the failed steps are named at the end.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    """Run each step; return 0 when all passed."""
    with tempfile.TemporaryDirectory(prefix="cheatrules-docs-") as docs_out:
        return _run_steps(sys.executable, Path(docs_out))


def _run_steps(python: str, docs_out: Path) -> int:
    """Run every step, building the docs into ``docs_out``; return 0 when all passed."""
    steps = [
        ("ruff check", [python, "-m", "ruff", "check", "."]),
        ("ruff format", [python, "-m", "ruff", "format", "--check", "."]),
        ("mypy", [python, "-m", "mypy"]),
        (
            "docs",
            [
                python,
                "-m",
                "sphinx",
                "-n",
                "-W",
                "--keep-going",
                "-q",
                "-b",
                "html",
                "docs",
                str(docs_out),
            ],
        ),
        (
            "pytest",
            [python, "-m", "pytest", "--numprocesses", "auto", "--dist", "loadfile", *sys.argv[1:]],
        ),
    ]
    failed = []
    for name, command in steps:
        print(f"== {name}: {' '.join(command)}", flush=True)
        began = time.perf_counter()
        if subprocess.run(command, cwd=ROOT, check=False).returncode != 0:
            failed.append(name)
        if name != "pytest":  # pytest's own summary, with its time, closes the output
            verdict = "FAILED" if name in failed else "passed"
            print(f"== {name}: {verdict} in {time.perf_counter() - began:.0f} s", flush=True)
    if failed:
        print(f"== failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
