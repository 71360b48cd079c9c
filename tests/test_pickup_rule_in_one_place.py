"""The pickup rule is stated once, by the engine: every reader follows the pickup's own facts.

Which groups a pickup takes, and whether a final play stays on the table
apart, is decided in ``state.py``; the pickup event says so (``groups``,
``kept``). A reader that worked it out again (comparing the pile's count
with the groups' sizes, or asking the window rule) would disagree with the
engine the day the rule changes. This test finds every function of the
package that takes a pickup event and checks that it reads those facts and
does no such arithmetic. The view records' checker is the one reader that
must know the rule itself (it refuses a view whose facts are wrong, and
works them out for version-1 records), so it is named here as the exception.
"""

from __future__ import annotations

import ast
from pathlib import Path

import cheatrules as cr

PACKAGE = Path(cr.__file__).parent

#: Where the pickup rule is stated (the engine) and checked (the view records' reader).
STATED = {"state.py", "_records/view_log.py"}


def _readers_of_pickups() -> dict[str, ast.FunctionDef]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = str(path.relative_to(PACKAGE))
        if name in STATED:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(
                isinstance(argument.annotation, ast.Name) and argument.annotation.id == "PileTaken"
                for argument in node.args.args
            ):
                found[f"{name}:{node.name}"] = node
    return found


def _sums_group_sizes(function: ast.FunctionDef) -> bool:
    """Whether it compares a pile's ``count`` with a sum: whether a final play stayed, worked out."""

    for node in ast.walk(function):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            counted = any(
                isinstance(part, ast.Attribute) and part.attr == "count"
                for side in sides
                for part in ast.walk(side)
            )
            summed = any(
                isinstance(part, ast.Call)
                and isinstance(part.func, ast.Name)
                and part.func.id == "sum"
                for side in sides
                for part in ast.walk(side)
            )
            if counted and summed:
                return True
    return False


def _reads_the_facts(function: ast.FunctionDef) -> bool:
    return any(
        isinstance(node, ast.Attribute) and node.attr in ("groups", "kept")
        for node in ast.walk(function)
    )


def test_the_readers_of_pickups_are_found() -> None:
    # Knowledge (both trackers), the seat memory and the sampler's search: if
    # none were found the test below would pass by finding nothing.
    assert {
        "knowledge.py:_take",
        "knowledge.py:_taken",
        "_seat_memory.py:_taken",
        "_sampler/search.py:_taken",
    } <= set(_readers_of_pickups())


def test_every_reader_of_a_pickup_follows_its_facts_and_works_out_no_rule() -> None:
    offenders = [
        name
        for name, function in _readers_of_pickups().items()
        if _sums_group_sizes(function)
        or (_mentions_the_table(function) and not _reads_the_facts(function))
    ]
    assert not offenders, f"pickup readers that work the rule out again: {offenders}"


def _mentions_the_table(function: ast.FunctionDef) -> bool:
    """Whether the function moves groups off a table: then it must say which, from the facts."""
    return any(
        isinstance(node, ast.Attribute) and node.attr in ("table", "groups")
        for node in ast.walk(function)
    )
