"""Where the command writes: a rich console when rich is installed, else plain text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TextIO

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
                    raise SystemExit("--color needs rich: pip install 'cheatrules[cli]'") from None
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

            table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False)
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


def _style(line: str) -> str:
    if "game over" in line or "goes out" in line or " over: " in line:
        return "bold green"
    if ": a lie" in line or "— a lie" in line:
        return "red"
    if "— true" in line:
        return "cyan"
    return ""
