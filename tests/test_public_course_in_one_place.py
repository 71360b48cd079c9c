"""The public course of a game is worked out in one place: the engine, its fold and its decisions.

How the table moves (the ranks allowed next, who leaves, the result) is
:meth:`Table.after <cheatrules.Table.after>`; who is asked next is the
engine's decisions (:meth:`Window.on <cheatrules.Window.on>`,
:meth:`Window.again <cheatrules.Window.again>`, :meth:`Consent.to_pass
<cheatrules.Consent.to_pass>`...). A reader of a log (knowledge, the seat
memory, the sampler, narration, the encoders, the pictures) that asked the
rules' policies those questions itself would be a second engine, wrong the
day a house rule of one's own answers differently. This test finds every
such question in the package and keeps it where it belongs.
"""

from __future__ import annotations

import ast
from pathlib import Path

import cheatrules as cr

PACKAGE = Path(cr.__file__).parent

#: The questions that make up the public course: (policy family, method or property).
COURSE = {
    ("ranks", "allowed"),
    ("window", "askers"),
    ("window", "extended"),
    ("window", "on_turn"),
    ("after_challenge", "opener"),
    ("ending", "is_over"),
    ("ending", "result"),
    ("passing", "consent"),
}

#: Where they may be asked, and why.
ASKED_IN = {
    "state.py": "the engine",
    "table.py": "the fold of the public table",
    "decision.py": "the engine's decisions",
    "_records/view_log.py": "checks each event of a stored log against the rules",
    "_records/views.py": "checks a stored view's own choices against the rules",
    "encoding.py": "lays out the action space: every rank and choice the rules can ever offer",
    "bots.py": "a bot's own reasoning about what comes next",
    "realtime.py": "the real-time variant, where any seat may call out of turn",
    "_adapters.py": "the result a game cut short would have (cut rewards)",
}

#: Readers that follow a log; each must be found, and ask none of the questions.
READERS = {
    "knowledge.py",
    "_seat_memory.py",
    "_sampler/plan.py",
    "_sampler/search.py",
    "narration.py",
    "information_state.py",
    "svg.py",
    "observation.py",
    "sampling.py",
}


def _questions(path: Path) -> list[str]:
    """Each ``<...>.family.name`` of :data:`COURSE` in the module, as ``family.name`` at a line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Attribute):
            continue
        # rules.ending.is_over, or a policy held in a name of its family: ending.is_over
        # (not "window": a decision's Window has askers of its own, read by everyone)
        family = node.value.attr if isinstance(node.value, ast.Attribute) else None
        if isinstance(node.value, ast.Name) and node.value.id != "window":
            family = node.value.id
        if (family, node.attr) in COURSE:
            found.append(f"{family}.{node.attr} (line {node.lineno})")
    return found


def _modules() -> dict[str, Path]:
    return {
        str(path.relative_to(PACKAGE)): path
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.parent.name != "policies"  # the policies answer the questions
    }


def test_the_readers_are_found() -> None:
    assert set(_modules()) >= READERS


def test_no_reader_works_out_the_public_course_again() -> None:
    asking = {name: _questions(path) for name, path in _modules().items()}
    strays = {name: found for name, found in asking.items() if found and name not in ASKED_IN}
    assert strays == {}, "the public course worked out again outside the engine"


def test_the_places_named_still_ask() -> None:
    # A place that no longer asks any question should leave the list.
    modules = _modules()
    assert [name for name in ASKED_IN if not _questions(modules[name])] == []
