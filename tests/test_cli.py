"""The command line: watch, play, arena and replay, as a person would use them."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules.bots import RandomBot
from cheatrules.cli import _read, _Screen, main, play

from .budget import examples


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    assert main(list(argv)) == 0
    return capsys.readouterr().out.splitlines()


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as caught:
        main(list(argv))
    assert caught.value.code == 2
    return capsys.readouterr().err


# -- watch ------------------------------------------------------------------------------


def test_watch_narrates_a_seeded_game_to_its_winner(capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(capsys, "watch", "--seed", "7", "--players", "4", "--plain")
    assert lines[0] == (
        "English Cheat, 4 players, seed 7: seat 0 CountingBot, seat 1 HonestBot, "
        "seat 2 RandomBot, seat 3 RandomBot."
    )
    assert lines[1] == "seat 3 deals 13, 13, 13, 13 cards"
    assert lines[2].startswith("seat 0 lays ") and "Ace" in lines[2]
    assert any("Cheat!" in line and "takes" in line for line in lines)
    assert lines[-2].startswith("game over: seat ") and lines[-2].endswith(" wins")
    assert lines[-1].endswith("decisions, 4 players, seed 7.")


def test_a_bare_command_still_watches(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--seed", "11") == run(capsys, "watch", "--seed", "11")
    assert run(capsys, "--seed", "11") != run(capsys, "--seed", "12")


def test_watch_seats_the_bots_asked_for_with_house_rules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = run(
        capsys, "watch", "--seed", "2", "--players", "3", "--bots", "random",
        "--with", "jokers", "--with", "window=extended", "--with", "stock=5",
    )  # fmt: skip
    assert lines[0].endswith("seat 0 RandomBot, seat 1 RandomBot, seat 2 RandomBot.")
    assert lines[1] == "seat 2 deals 5, 5, 5 cards; 39 in the stock"


def test_watch_plays_verish_to_its_loser(capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(capsys, "watch", "--variant", "verish", "--seed", "4", "--players", "4")
    assert lines[0].startswith("Verish' Ne Verish', 4 players, seed 4")
    assert lines[1] == "seat 3 deals 13, 13, 13, 12 cards; 1 set aside"
    assert any("I don't believe!" in line for line in lines)
    assert lines[-2].startswith("game over: seat ") and lines[-2].endswith(" loses")


def test_bad_options_are_clear_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert "English Cheat is played by 3 to 10 players; got 2" in fails(
        capsys, "watch", "--players", "2"
    )
    assert "unknown option wild" in fails(capsys, "watch", "--with", "wild")
    assert "unknown bot clever" in fails(capsys, "watch", "--bots", "clever")
    assert "give one, or one per seat (4)" in fails(capsys, "watch", "--bots", "random,honest")
    assert "--seat must be from 0 to 3" in fails(capsys, "play", "--seat", "9")


def test_python_dash_m_runs_the_main_job() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cheatrules", "watch", "--seed", "3", "--players", "5"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    assert "game over: seat" in done.stdout
    assert done.stderr == ""


def test_colour_comes_from_rich(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("rich")
    coloured = "\n".join(run(capsys, "watch", "--seed", "7", "--color"))
    assert "\x1b[" in coloured
    plain = run(capsys, "watch", "--seed", "7", "--plain")
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured).splitlines() == plain


# -- play -------------------------------------------------------------------------------


def test_a_person_plays_a_whole_game_against_bots() -> None:
    out = io.StringIO()
    screen = _Screen(out, False)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if "your turn" in prompt:
            hand = [line for line in out.getvalue().splitlines() if line.startswith("your hand")]
            card = hand[-1].split()[2]
            return f"{card} as 7" if "naming a rank" in prompt else card
        if "claims" in prompt:
            return "c" if len(prompts) % 4 == 0 else ""
        return ""

    rules = cr.english(3)
    state = play(rules, 5, 1, [RandomBot(), RandomBot()], screen, ask, "Cheat!")
    assert state.is_over
    text = out.getvalue()
    assert "You are seat 1." in text and ("You win!" in text or "You lose." in text)
    assert any("your turn: lay cards as" in prompt for prompt in prompts)


def test_odd_input_gets_a_message_and_the_question_again(
    capsys: pytest.CaptureFixture[str],
) -> None:
    script = io.StringIO("\nZz\nK♥ K♥ K♥ K♥ K♥\nhelp\nhand\n5♠ as 7\n")
    assert main(["play", "--seed", "2", "--players", "3", "--plain"], stdin=script) == 0
    out = capsys.readouterr().out
    assert "type the cards to lay" in out
    assert "cannot read 'Zz' as a card" in out
    assert "a claim holds 1 to 4 cards; this one holds 5" in out
    assert "How to answer:" in out and out.count("your hand:") >= 2
    assert "the announced rank must be A, not 7" in out
    assert out.rstrip().endswith("Goodbye.")  # the input ended: leave cleanly


def test_quit_leaves_cleanly(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seed", "2", "--players", "3"], stdin=io.StringIO("q\n")) == 0
    assert "Goodbye." in capsys.readouterr().out


@examples(60)
@given(st.lists(st.text(max_size=12).filter(lambda t: "\n" not in t and "\r" not in t), max_size=8))
def test_no_input_ends_in_a_traceback(lines: list[str]) -> None:
    out = io.StringIO()
    script = io.StringIO("".join(line + "\n" for line in lines))
    assert main(["play", "--seed", "1", "--players", "3", "--plain"], stdin=script, stdout=out) == 0


def test_answers_are_read_in_the_position_they_answer() -> None:
    state = cr.deal(cr.english(3, passing="consent"), hands=["7c 7d 9s", "2h", "3h"])
    seen = state.observe(0)
    assert _read("7c 7d", seen) == cr.Play("7♣ 7♦", "A")
    assert _read("7♣ as A", seen) == cr.Play("7♣", "A")
    assert _read("p", seen) == cr.Pass()
    asked = state.apply(cr.Play("9s", "A"))
    assert _read("", asked.observe(1)) == cr.Accept()
    assert _read("c", asked.observe(1)) == cr.Challenge()
    with pytest.raises(ValueError, match="type c to call cheat"):
        _read("maybe", asked.observe(1))


# -- arena and replay -------------------------------------------------------------------


def test_arena_prints_a_results_table(capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(
        capsys, "arena", "--games", "6", "--players", "3", "--seed", "1", "--plain",
        "--workers", "1", "--with", "stock=4",
    )  # fmt: skip
    assert "6/6 games" in lines
    assert any(line.startswith("agent") and "95% CI" in line for line in lines)
    assert sum(1 for line in lines if line.startswith(("CountingBot", "HonestBot"))) == 2


def test_a_saved_game_replays_as_it_was_told(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    told = run(capsys, "watch", "--seed", "9", "--plain", "--save", str(record))
    replayed = run(capsys, "replay", str(record), "--plain")
    assert replayed == told[1:-2]  # the narration, without the title and the tallies
    assert "cannot read" in fails(capsys, "replay", str(tmp_path / "missing.json"))
    record.write_text("{}", encoding="utf-8")
    assert "not a cheatrules record" in fails(capsys, "replay", str(record))
    record.write_text("[" * 100_000, encoding="utf-8")
    assert "a record must be JSON" in fails(capsys, "replay", str(record))


def test_q_at_the_fours_prompt_means_queens() -> None:
    rules = cr.verish(2, pack=52)
    state = cr.deal(rules, hands=["Q♣ Q♦ Q♥ 7♣", "Q♠ 7♦ 8♣"], hidden="2♣")
    state = state.apply(cr.Play("7♣", "Q")).apply(cr.Play("Q♠", "Q")).apply(cr.Challenge())
    assert state.phase is cr.Phase.DISCARD
    assert _read("Q", state.observe(0)) == cr.Discard("Q")


def test_fours_are_set_aside_on_the_turn_with_d() -> None:
    state = cr.deal(cr.english(3, discards="any-time"), hands=["J♣ J♦ J♥ J♠ 5♣", "9♣", "Q♥"])
    assert _read("d J", state.observe(0)) == cr.Discard("J")


def test_watch_stops_a_game_that_runs_too_long(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("cheatrules.cli.WATCH_LIMIT", 10)
    lines = run(capsys, "watch", "--seed", "7", "--plain")
    assert lines[-2] == "stopped after 10 decisions without a result."


def test_an_unreadable_line_is_asked_again() -> None:
    class Broken(io.StringIO):
        calls = 0

        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            self.calls += 1
            if self.calls == 1:
                raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
            return ""

    out = io.StringIO()
    assert (
        main(["play", "--seed", "1", "--players", "3", "--plain"], stdin=Broken(), stdout=out) == 0
    )
    assert "not readable text" in out.getvalue()
