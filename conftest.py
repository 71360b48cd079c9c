"""Run the examples in the Markdown files (README and docs) as tests, with Sybil."""

import os
import time
from doctest import ELLIPSIS, NORMALIZE_WHITESPACE

import pytest
from sybil import Sybil
from sybil.parsers.myst import PythonCodeBlockParser, SkipParser

pytest_collect_file = Sybil(
    parsers=[
        PythonCodeBlockParser(doctest_optionflags=ELLIPSIS | NORMALIZE_WHITESPACE),
        SkipParser(),
    ],
    patterns=["*.md"],
    excludes=["_build/*"],
).pytest()

# The command line speaks the locale's language (LC_ALL, LC_MESSAGES, LANG);
# the tests and the docs' examples pin its English output, whatever the
# machine's locale. Tests of the locale set these variables themselves.
os.environ["LC_ALL"] = "C.UTF-8"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Under ``tools/check.py``, report the whole run's time against the README's budget.

    It comes just before pytest's own summary line, so that line still
    closes the output.
    """
    started = os.environ.get("CHEATRULES_CHECK_STARTED")
    if started is None:
        return
    budget = 180  # tools/check.py's BUDGET: the README's promise, the install included
    spent = time.time() - float(started)
    steps = os.environ.get("CHEATRULES_CHECK_STEPS", "")
    terminalreporter.write_sep("=", "time against the budget")
    terminalreporter.write_line(f"static checks, two at a time: {steps}")
    terminalreporter.write_line(
        f"tools/check.py: {spent:.0f} s in all; the README's test command has {budget} s "
        "on a two-core machine, the install included"
    )
