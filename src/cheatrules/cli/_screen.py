"""Where the command writes: a rich console when rich is installed, else plain text."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any, TextIO

from cheatrules._extras import install_hint
from cheatrules._i18n import translations

#: The widest line the command's tables and listings are laid out for.
WIDTH = 80


class _Screen:
    """Where the command writes: a rich console when rich is installed, else plain text.

    ``err`` takes what is not the command's result (the arena's progress), so
    that ``cheatrules arena > table.txt`` keeps only the table.
    """

    def __init__(self, out: TextIO, fancy: bool | None, err: TextIO | None = None) -> None:
        self.out = out
        self.err = err if err is not None else out
        self.console: Any = None
        self.err_console: Any = None
        if fancy is not False:
            try:
                from rich.console import Console  # an optional extra
            except ImportError:
                if fancy:
                    raise SystemExit(f"--color needs rich: {install_hint('cli')}") from None
            else:
                self.console = Console(
                    file=out, force_terminal=fancy, highlight=False, soft_wrap=True
                )
                self.err_console = Console(file=self.err, force_terminal=fancy, highlight=False)

    def say(self, text: str, style: str = "") -> None:
        """Write one line (or several), styled when the screen has colour."""
        if self.console is not None:
            self.console.print(text, style=style or None, markup=False)
        else:
            self.out.write(text + "\n")
        self.out.flush()

    def note(self, text: str) -> None:
        """Write a line of progress to the error stream, away from the result."""
        self.err.write(text + "\n")
        self.err.flush()

    def table(self, title: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        """A table whose cells are never broken: the caller keeps it within :data:`WIDTH`."""
        if self.console is not None:
            from rich import box
            from rich.table import Table

            table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
            for index, header in enumerate(headers):
                table.add_column(header, justify="left" if index == 0 else "right", no_wrap=True)
            for row in rows:
                table.add_row(*row)
            self.console.print(table, soft_wrap=False)
            return
        widths = [
            max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=True)
        ]
        self.out.write(title + "\n")
        for row in (headers, *rows):
            cells = [
                str(cell).ljust(width) if index == 0 else str(cell).rjust(width)
                for index, (cell, width) in enumerate(zip(row, widths, strict=True))
            ]
            self.out.write("  ".join(cells).rstrip() + "\n")
        self.out.flush()


# The messages that end a game, as the narration (and a match's numbered
# ending) writes them: the English ids of catalog entries, looked up in the
# line's language to colour it. The last of each group has plural forms.
_ENDINGS = (
    "game over: %(winner)s wins, %(loser)s loses",
    "game over: %(winner)s wins",
    "seat %(seat)s goes out",
    "game %(number)s over: %(winner)s wins, %(loser)s loses",
    "game %(number)s over: %(winner)s wins",
)
_PLURAL_ENDINGS = (
    ("game over: %(losers)s loses", "game over: %(losers)s lose"),
    ("game %(number)s over: %(losers)s loses", "game %(number)s over: %(losers)s lose"),
)


def _pattern(template: str) -> str:
    """A regular expression matching ``template`` with anything in its placeholders."""
    return ".*".join(re.escape(piece) for piece in re.split(r"%\(\w+\)s", template))


@functools.cache
def _styles(language: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """What makes a line an ending, a lie shown or a truth shown, in ``language``."""
    catalog = translations(language)
    endings = [catalog.gettext(text) for text in _ENDINGS]
    endings += [catalog.ngettext(one, many, n) for one, many in _PLURAL_ENDINGS for n in (1, 2, 5)]
    verdict = catalog.gettext("%(cards)s — %(verdict)s")

    def shown(word: str) -> re.Pattern[str]:
        return re.compile(_pattern(verdict.replace("%(verdict)s", catalog.gettext(word))))

    return (
        re.compile("|".join(f"(?:{_pattern(text)})" for text in endings)),
        shown("a lie"),
        shown("true"),
    )


def _style(line: str, language: str = "en") -> str:
    """The colour of a narrated line: an ending green, a lie shown red, a truth shown cyan."""
    ending, lie, truth = _styles(language)
    if ending.search(line):
        return "bold green"
    if lie.search(line):
        return "red"
    if truth.search(line):
        return "cyan"
    return ""
