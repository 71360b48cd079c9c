"""Every script in examples/ runs to the end without error."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.py"))

#: Command-line arguments that keep an example short here (IS-MCTS: one game of at most
#: 60 decisions, two simulations a decision; the first learner: three games of each stage).
ARGUMENTS = {"ismcts_vs_counting.py": ["1", "2", "60"], "first_learner.py": ["3", "3", "3"]}


def test_there_are_examples() -> None:
    assert {path.name for path in EXAMPLES} >= {
        "worked_example.py",
        "custom_policy.py",
        "bot_vs_bots.py",
        "replay_record.py",
        "ismcts_vs_counting.py",
    }


@pytest.mark.parametrize("path", EXAMPLES, ids=[path.name for path in EXAMPLES])
def test_example_runs(
    path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", [str(path), *ARGUMENTS.get(path.name, [])])
    runpy.run_path(str(path), run_name="__main__")
    assert capsys.readouterr().out.strip()


def test_the_worked_example_tells_the_rule_book_story(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(EXAMPLES[0].parent / "worked_example.py"), run_name="__main__")
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == [
        "required rank 7, pile 5 cards",
        "seat 0 to play",
        "seat 0 claims two 7s; seat 1 may challenge",
    ]
    assert lines[-2:] == [
        "seat 0 now holds 8 cards; the pile holds 0",
        "seat 1 plays next and must announce 8",
    ]
