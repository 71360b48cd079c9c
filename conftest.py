"""Run the examples in the Markdown files (README and docs) as tests, with Sybil."""

import os
from doctest import ELLIPSIS, NORMALIZE_WHITESPACE

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
