"""The shape of the package's source: no function grows too long to read.

A function is measured from its ``def`` line to its last line, leaving out
its docstring; nested functions and methods are measured on their own too
(and still count inside the function that holds them).
"""

from __future__ import annotations

import ast
from pathlib import Path

import cheatrules as cr

SOURCE = Path(cr.__file__).parent
LONGEST = 60


def _docstring_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """How many lines the docstring of ``node`` spans (0 when it has none)."""
    first = node.body[0]
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return (first.end_lineno or first.lineno) - first.lineno + 1
    return 0


def function_length(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines from the ``def`` line to the end of ``node``, its docstring left out."""
    end = node.end_lineno or node.lineno
    return end - node.lineno + 1 - _docstring_lines(node)


def long_functions(root: Path = SOURCE, longest: int = LONGEST) -> list[str]:
    """Every function under ``root`` longer than ``longest`` lines, as ``path:line name (N lines)``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            length = function_length(node)
            if length > longest:
                where = path.relative_to(root.parent)
                found.append(f"{where}:{node.lineno} {node.name} ({length} lines)")
    return sorted(found)


def test_no_function_is_longer_than_sixty_lines() -> None:
    offenders = long_functions()
    assert not offenders, "functions longer than 60 lines:\n" + "\n".join(offenders)


def test_the_check_counts_from_def_to_end_without_the_docstring(tmp_path: Path) -> None:
    package = tmp_path / "cheatrules"
    (package / "cli").mkdir(parents=True)
    body = "".join(f"    x{i} = {i}\n" for i in range(58))
    docstring = '    """One line.\n\n    More lines.\n    """\n'
    files = {
        # def + 59 body lines = 60: just allowed.
        "short.py": "def fits():\n" + body + "    return x0\n",
        # 60 lines of code, plus a four-line docstring that is not counted.
        "documented.py": "def fits_too():\n" + docstring + body + "    return x0\n",
        # def + 60 body lines = 61: too long.
        "cli/long.py": "def too_long():\n" + body + "    x = 1\n    return x\n",
        # A nested method is measured on its own, and counts in its holder.
        "nested.py": (
            "class Holder:\n"
            "    async def outer(self):\n"
            "        def inner():\n"
            + "".join(f"            y{i} = {i}\n" for i in range(60))
            + "            return y0\n"
            "        return inner\n"
        ),
    }
    for name, text in files.items():
        (package / name).write_text(text, encoding="utf-8")
    assert long_functions(package) == [
        "cheatrules/cli/long.py:1 too_long (61 lines)",
        "cheatrules/nested.py:2 outer (64 lines)",
        "cheatrules/nested.py:3 inner (62 lines)",
    ]
