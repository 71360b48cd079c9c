"""The main job: ``python -m cheatrules`` narrates a seeded game among random bots."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cheatrules.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    assert main(list(argv)) == 0
    return capsys.readouterr().out.splitlines()


def test_watch_narrates_a_seeded_game_to_its_winner(capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(capsys, "--seed", "7", "--players", "4")
    assert lines[0] == "English Cheat, 4 players, seed 7."
    assert lines[1] == "seat 3 deals 13, 13, 13, 13 cards"
    assert lines[2].startswith("seat 0 lays ")
    assert "Ace" in lines[2]
    assert any("Cheat!" in line and "takes" in line for line in lines)
    assert lines[-2].startswith("game over: seat ") and lines[-2].endswith(" wins")
    assert lines[-1].endswith("decisions, 4 players, seed 7.")


def test_the_same_seed_tells_the_same_story(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--seed", "11") == run(capsys, "--seed", "11")
    assert run(capsys, "--seed", "11") != run(capsys, "--seed", "12")


def test_a_bad_player_count_is_a_clear_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--players", "2"])
    assert caught.value.code == 2
    assert "English Cheat is played by 3 to 10 players; got 2" in capsys.readouterr().err


def test_python_dash_m_runs_the_main_job() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cheatrules", "--seed", "3", "--players", "5"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    assert "game over: seat" in done.stdout
    assert done.stderr == ""


def test_watch_plays_verish_to_its_loser(capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(capsys, "--variant", "verish", "--seed", "4", "--players", "4")
    assert lines[0] == "Verish' Ne Verish', 4 players, seed 4."
    assert lines[1] == "seat 3 deals 13, 13, 13, 12 cards; 1 set aside"
    assert any("I don't believe!" in line for line in lines)
    assert sum(1 for line in lines if line.endswith(" goes out")) == 3
    assert lines[-2].startswith("game over: seat ") and lines[-2].endswith(" loses")


def test_verish_player_counts_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--variant", "verish", "--players", "7"])
    assert "Verish' Ne Verish' is played by 2 to 6 players; got 7" in capsys.readouterr().err
    assert run(capsys, "--variant", "verish", "--players", "2", "--seed", "1")[-2].endswith("loses")
