"""Run the examples in the Markdown files (README and docs) as tests, with Sybil."""

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
