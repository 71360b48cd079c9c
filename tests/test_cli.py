"""The command line: watch, play, arena and replay, as a person would use them."""

from __future__ import annotations

import contextlib
import functools
import io
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any, TypeVar

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules.arena import tournament
from cheatrules.bots import RandomBot
from cheatrules.cli import SCORINGS, _read, _Screen, main, play
from cheatrules.cli._options import scoring as _scoring
from cheatrules.cli._play import _HELP, play_match
from cheatrules.policies import Adjacent
from cheatrules.policies.families import Choice
from cheatrules.rules import NAMED_POLICIES
from cheatrules.variants import VARIANTS

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
    assert lines[1] == "house rules: jokers, window=extended, stock=5"
    assert lines[2] == "seat 2 deals 5, 5, 5 cards; 39 in the stock"


def test_the_header_names_only_the_house_rules_that_change_the_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = run(
        capsys, "watch", "--seed", "2", "--players", "3",
        "--with", "window=immediate", "--with", "claims=1-3", "--with", "ranks=ascending",
    )  # fmt: skip
    assert lines[1] == "house rules: claims=1-3"  # immediate and ascending are Cheat's own
    plain = run(capsys, "watch", "--seed", "2", "--players", "3", "--with", "ranks=ascending")
    assert not any(line.startswith("house rules") for line in plain)
    played = playing("quit\n", "--seed", "2", "--players", "3", "--with", "passing=consent")
    assert "house rules: passing=consent" in played.splitlines()[1]


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
    assert main(["play", "--seed", "2", "--players", "3"], stdin=io.StringIO("quit\n")) == 0
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


# -- the command line as a new user meets it --------------------------------------------


def playing(script: str, *argv: str) -> str:
    """The screen of ``cheatrules play`` given the lines of ``script`` (then end of input)."""
    out = io.StringIO()
    argv = argv or ("--seed", "2", "--players", "3")
    assert main(["play", *argv, "--plain"], stdin=io.StringIO(script), stdout=out) == 0
    return out.getvalue()


def test_a_rank_letter_never_quits_the_game() -> None:
    for letter in ("Q", "q"):
        text = playing(f"{letter}\n5♠\n")
        assert text.count("Goodbye.") == 1 and text.rstrip().endswith("Goodbye.")
        assert "type quit to leave" in text  # the answer is read, and the way out is named
        assert "seat 0 lays 1 card" in text  # the game went on after the Q
    assert "quit" in _HELP and "'q'" not in _HELP


def test_quit_or_exit_leave_at_once() -> None:
    for word in ("quit", "exit", "QUIT"):
        text = playing(f"{word}\n5♠\n")
        assert text.rstrip().endswith("Goodbye.") and "seat 1 " not in text


def test_as_is_the_word_only_before_the_rank_at_the_end() -> None:
    state = cr.deal(cr.english(3, ranks="free"), hands=["A♠ 7c 7d", "2h", "3h"])
    seen = state.observe(0)
    with pytest.raises(ValueError, match="'as' goes between the cards and the rank"):
        _read("as 7", seen)  # no cards before it
    for answer in ("as", "7c as", "7c 7d as"):  # the Ace of spades, with no rank named
        with pytest.raises(ValueError, match="name the rank you announce"):
            _read(answer, seen)
    assert _read("A♠ as 7", seen) == cr.Play("A♠", "7")
    assert _read("As as 7", seen) == cr.Play("A♠", "7")
    assert _read("7c as as 7", seen) == cr.Play("7♣ A♠", "7")
    without = cr.deal(cr.english(3, ranks="free"), hands=["7c 7d", "2h", "3h"]).observe(0)
    with pytest.raises(ValueError, match="'as' goes between the cards and the rank"):
        _read("7c 7d as", without)  # the word, its rank left out: no Ace of spades to lay


def test_errors_at_the_terminal_speak_to_you() -> None:
    text = playing("p\nK♥\n")
    assert "you may not pass now; you must lay cards as A" in text
    assert "K♥ is not in your hand" in text
    assert "seat 0" not in "".join(line for line in text.splitlines() if line.startswith("  "))
    assert "illegal action" not in text


def test_a_huge_answer_is_quoted_in_a_short_excerpt() -> None:
    text = playing("Zz" * 5_000_000 + "\n")
    assert len(text) < 5_000
    assert "that answer is too long" in text


def test_the_status_is_not_shown_twice_with_nothing_between() -> None:
    out = io.StringIO()
    screen = _Screen(out, False)
    shown: list[str] = []
    seen_at = 0

    def ask(prompt: str) -> str:
        nonlocal seen_at
        new = out.getvalue()[seen_at:]
        seen_at = len(out.getvalue())
        shown.append(new)
        if "your turn" in prompt:
            hand = [line for line in out.getvalue().splitlines() if line.startswith("your hand")]
            return f"{hand[-1].split()[2]} as 7" if "naming" in prompt else hand[-1].split()[2]
        return ""

    play(cr.english(3), 5, 1, [RandomBot(), RandomBot()], screen, ask, "Cheat!")
    last_status = ""
    repeats = 0
    for new in shown:
        lines = new.splitlines(keepends=True)
        block = "".join(lines[-3:]) if len(lines) >= 3 and lines[-3].startswith("cards in") else ""
        if new == block:  # nothing was told since the last question: no status again either
            assert block != last_status, block
        repeats += new == ""
        last_status = block or last_status
    assert repeats  # asked again with nothing new to show, and nothing shown


def test_an_unknown_bot_is_named_once(capsys: pytest.CaptureFixture[str]) -> None:
    message = fails(capsys, "watch", "--bots", "foo")
    assert "unknown bot foo;" in message and message.count("foo") == 1


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("watch", "--delay", "-1"), "--delay"),
        (("watch", "--delay", "nan"), "--delay"),
        (("arena", "--workers", "0"), "--workers"),
        (("arena", "--games", "0"), "--games"),
        (("watch", "--with", "players=3"), "--players 3"),
        (("watch", "--with", "jokers", "--with", "jokers=no"), "--with jokers given twice"),
        (("watch", "--players", "3", "--players", "4"), "--players given twice"),
        (("watch", "--seed", "1", "--seed", "2"), "--seed given twice"),
        (("--seed", "7", "arena"), "the command arena must come first"),
        (("watch", "--games", "5"), "--games is an option of arena"),
        (("watch", "--with", "window"), "--with window=immediate"),
        (("watch", "--with", "window=sideways"), "--with window=sideways"),
        (("watch", "--with", "stock=lots"), "--with stock=lots"),
        (("watch", "--match", "first-to=0"), "--match first-to=0"),
        (("watch", "--match", "sudden-death"), "--match sudden-death"),
    ],
)
def test_every_bad_option_is_a_clear_usage_error(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], said: str
) -> None:
    message = fails(capsys, *argv)
    assert said in message, message
    assert "Traceback" not in message
    for python in ("True", "False", "Policy", "policy", "got '", "int(", "float("):
        assert python not in message, message


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--version"])
    assert caught.value.code == 0
    assert capsys.readouterr().out.strip() == f"cheatrules {cr.__version__}"


# -- house rules are listed from the library's own tables -------------------------------


def test_the_rules_command_lists_every_option_with_its_values(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = "\n".join(run(capsys, "rules"))
    for family, choices in NAMED_POLICIES.items():
        for name in choices:
            assert f"--with {family}={name}" in text, (family, name)
    for shorthand in ("jokers", "stock"):
        assert f"--with {shorthand}" in text
    for deck in (36, 52, 104):
        assert f"--with deck={deck} (the default for " in text
    assert "English Cheat" in text and "Verish' Ne Verish'" in text
    assert "(the default)" in text
    verish_only = "\n".join(run(capsys, "rules", "--variant", "verish"))
    assert "--with deck=36" in verish_only and "--with deck=104" not in verish_only
    # The older spellings still work, and are not listed: one name for the deck.
    assert "--with decks" not in text and "--with pack" not in text
    assert "\n".join(run(capsys, "watch", "--variant", "verish", "--with", "help")) == verish_only
    assert all(len(line) <= 80 for line in text.splitlines())


def test_a_new_named_policy_is_listed_without_touching_the_command_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = VARIANTS["english"]
    ranks = next(found for found in game.families if found.name == "ranks")
    sideways = Choice("sideways", "Sideways, a house rule of this test.", lambda deck: Adjacent())
    wider = attrs.evolve(ranks, choices=(*ranks.choices, sideways))
    families = tuple(wider if found is ranks else found for found in game.families)
    monkeypatch.setitem(VARIANTS, "english", attrs.evolve(game, families=families))
    listed = run(capsys, "rules", "--variant", "english")
    at = listed.index("  --with ranks=sideways")
    assert listed[at + 1].strip() == "Sideways, a house rule of this test."
    # And it is taken: the game's record builds it (a refused house rule exits with status 2).
    watched = run(capsys, "watch", "--players", "3", "--seed", "1", "--with", "ranks=sideways")
    assert watched[1] == "house rules: ranks=sideways"


def test_help_points_to_the_house_rules(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--help"], ["watch", "--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        assert "cheatrules rules" in " ".join(capsys.readouterr().out.split())


# -- arena output ---------------------------------------------------------------------------


def test_the_arena_table_fits_80_columns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ("arena", "--games", "3", "--players", "3", "--seed", "1", "--workers", "1")
    plain = run(capsys, *argv, "--plain")
    pytest.importorskip("rich")
    monkeypatch.setenv("COLUMNS", "80")
    coloured = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in run(capsys, *argv, "--color")]
    for lines in (plain, coloured):
        assert all(len(line) <= 80 for line in lines), lines
        rows = [line for line in lines if "CountingBot" in line or "HonestBot" in line]
        assert len(rows) == 2, lines  # each row on one line: no name or interval broken
        assert all(re.search(r"\d\.\d{3}–\d\.\d{3}", row) for row in rows), rows


def test_arena_progress_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--games", "3", "--players", "3", "--workers", "1", "--plain"]) == 0
    out, err = capsys.readouterr()
    assert "3/3 games" in err and "games" not in out.splitlines()[-1]
    assert "/3 games" not in out


# -- saving when leaving, and match play -------------------------------------------------


def test_quitting_with_save_keeps_the_game_so_far(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    text = playing("5♠\nquit\n", "--seed", "2", "--players", "3", "--save", str(record))
    assert f"the game so far is saved to {record}" in text
    state = cr.loads(record.read_text(encoding="utf-8"))
    assert not state.is_over and len(state.actions) >= 1


def test_watch_a_match_to_its_end(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    lines = run(
        capsys, "watch", "--seed", "3", "--players", "3", "--plain",
        "--match", "first-to=2", "--save", str(record),
    )  # fmt: skip
    ends = [line for line in lines if line.startswith("game ") and " over: " in line]
    assert ends and ends[0].startswith("game 1 over: seat ")
    assert any(line.startswith("match score: ") for line in lines)
    assert any(line.startswith("match over: ") and "takes the match" in line for line in lines)
    match = cr.loads_match(record.read_text(encoding="utf-8"))
    assert match.is_over and match.scoring == cr.FirstTo(2) and len(match.games) == len(ends)


def test_play_a_match_and_leave_it(tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    text = playing("quit\n", "--seed", "2", "--players", "3", "--match", "best-of=3",
                   "--save", str(record))  # fmt: skip
    assert "At most 3 games" in text and "Goodbye." in text
    match = cr.loads_match(record.read_text(encoding="utf-8"))
    assert match.scoring == cr.BestOf(3) and not match.is_over


def test_the_match_scorings_come_from_one_table() -> None:
    assert set(SCORINGS) >= {"first-to", "best-of", "penalty", "fewest-losses"}
    assert _scoring("penalty=100") == cr.Penalty(100)
    assert _scoring("first-to=3") == cr.FirstTo(3)
    assert _scoring("fewest-losses=2") == cr.FewestLosses(2)


def test_a_verish_match_counts_defeats(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # "You can count defeats": the match ends once a seat has lost twice.
    record = tmp_path / "match.json"
    lines = run(
        capsys, "watch", "--variant", "verish", "--seed", "5", "--players", "3", "--plain",
        "--match", "fewest-losses=2", "--save", str(record),
    )  # fmt: skip
    assert any(line.startswith("match over: ") for line in lines)
    match = cr.loads_match(record.read_text(encoding="utf-8"))
    assert match.is_over and match.scoring == cr.FewestLosses(2)
    assert max(match.losses) == 2
    defeats = ", ".join(f"seat {seat} {match.losses[seat]}" for seat in range(3))
    assert f"defeats: {defeats}" in lines


# -- no command line ends in a traceback ---------------------------------------------------

_WORDS = {
    "command": ["watch", "play", "arena", "replay", "rules", "bogus", "--help", "--version"],
    "--variant": ["english", "verish", "x"],
    "--players": ["2", "3", "4", "11", "x", "-1"],
    "--seed": ["1", "7", "x"],
    "--with": ["jokers", "jokers=no", "window", "window=extended", "stock=4", "stock=x",
               "players=3", "help", "wild", "ranks=free", "pack=36", "decks=2", "=", "="],
    "--bots": ["random", "honest", "random,honest", "foo", ","],
    "--delay": ["0", "-1", "x", "0.0"],
    "--seat": ["0", "2", "9", "x"],
    "--games": ["1", "2", "0", "x"],
    "--workers": ["1", "0", "x"],
    "--match": ["first-to=1", "best-of=1", "penalty=1", "fewest-losses=1", "first-to=0", "x", "first-to"],
    "--save": ["SAVE"],
    "--plain": [],
    "--color": [],
}  # fmt: skip


@st.composite
def argvs(draw: st.DrawFn) -> list[str]:
    argv = [draw(st.sampled_from(_WORDS["command"]))] if draw(st.integers(0, 4)) else []
    options = [word for word in _WORDS if word != "command"] + ["--with"] * 3  # the most varied
    for _ in range(draw(st.integers(0, 4))):
        option = draw(st.sampled_from(options))
        argv.append(option)
        if _WORDS[option] and draw(st.integers(0, 9)) > 0:
            argv.append(draw(st.sampled_from(_WORDS[option])))
    return argv


class _Inline(Executor):
    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


T = TypeVar("T")


@examples(100)
@given(argvs())
def test_no_command_line_ends_in_a_traceback(argv: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr("cheatrules.arena.ProcessPoolExecutor", _Inline)
        patch.setattr("cheatrules.cli.WATCH_LIMIT", 20)  # short games: the options matter here
        patch.setattr("cheatrules.cli.tournament", functools.partial(tournament, max_steps=20))
        argv = [str(Path(folder) / "saved.json") if word == "SAVE" else word for word in argv]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv, stdin=io.StringIO(""), stdout=out, stderr=err)
            except SystemExit as leaving:
                code = 0 if leaving.code is None else int(leaving.code)
        assert code in (0, 2), (argv, err.getvalue())
        if code == 2:
            assert "cheatrules" in err.getvalue() and "error:" in err.getvalue()


def test_a_person_plays_a_whole_match() -> None:
    out = io.StringIO()

    def ask(prompt: str) -> str:
        if "your turn" in prompt:
            hand = [line for line in out.getvalue().splitlines() if line.startswith("your hand")]
            card = hand[-1].split()[2]
            return f"{card} as 7" if "naming a rank" in prompt else card
        return ""

    match = play_match(
        cr.english(3, stock=3), cr.BestOf(2), 4, 0, [RandomBot(), RandomBot()],
        _Screen(out, False), ask, "Cheat!",
    )  # fmt: skip
    assert match.is_over
    text = out.getvalue()
    assert "A match: At most 2 games; the most game wins takes the match." in text
    assert "game 1 over: seat " in text and "match score: game wins seat 0 " in text
    assert "You take the match!" in text or "You lose the match." in text
    assert f"after {len(match.games)} game" in text


# -- a newcomer's slips: help, mistyped commands, a seat that is not there -------------------


def test_the_top_level_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    description = capsys.readouterr().out.split("positional arguments")[0]
    for command in ("watch", "play", "arena", "replay", "rules", "serve"):
        assert command in description, command


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("wacth",), "unknown command wacth (did you mean watch?)"),
        (("arnea", "--games", "3"), "unknown command arnea (did you mean arena?)"),
        (("zzz",), "unknown command zzz; the commands are watch, play, arena"),
        (("watch", "--sed", "3"), "unrecognized arguments: --sed 3 (did you mean --seed?)"),
        (("watch", "--bots", "countin"), "unknown bot countin (did you mean counting?)"),
        (("watch", "--with", "jokrs"), "unknown option jokrs for English Cheat (did you mean"),
        (("watch", "--with", "window=extnded"), "no such window (did you mean extended?)"),
        (("watch", "--match", "frist-to=3"), "no such scoring (did you mean first-to?)"),
    ],
)
def test_a_mistyped_word_gets_a_did_you_mean(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], said: str
) -> None:
    message = fails(capsys, *argv)
    assert said in message, message


def test_a_seat_not_at_the_table_is_refused_before_the_game_is_shown(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["play", "--seat", "5", "--players", "4", "--plain"], stdin=io.StringIO(""))
    assert caught.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""  # no header before the error
    assert "--seat must be from 0 to 3; got 5" in err


@pytest.mark.parametrize("variant", ["english", "verish"])
def test_rules_marks_the_default_of_every_family(
    capsys: pytest.CaptureFixture[str], variant: str
) -> None:
    text = "\n".join(run(capsys, "rules", "--variant", variant))
    for name in NAMED_POLICIES:
        block = text.split(f"\n{name}: ", 1)[1].split("\n\n", 1)[0]
        assert block.count("(the default)") == 1, (variant, name, block)
        assert f"--with {name}={VARIANTS[variant].default(name)} (the default)" in block


def test_verish_names_its_default_window_and_turn_after_a_challenge(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = "\n".join(run(capsys, "rules", "--variant", "verish"))
    assert "--with window=next-player (the default)" in text
    assert "--with after_challenge=challenger-or-next (the default)" in text
    english = "\n".join(run(capsys, "rules", "--variant", "english"))
    assert "--with window=immediate (the default)" in english
    assert cr.english(3, window="next-player").window == cr.verish(3).window
    assert cr.verish(3, after_challenge="challenger-or-next") == cr.verish(3)


# -- bots of your own in the arena ----------------------------------------------------------

MY_BOTS = '''
import cheatrules as cr


class Careful:
    """Takes the first legal action."""

    def act(self, seen, rng):
        return seen.legal_actions()[0]


def first_legal(seen, rng):
    return seen.legal_actions()[0]


def make_careful():
    return Careful()


class NeedsArguments:
    def __init__(self, depth):
        self.depth = depth

    def act(self, seen, rng):
        return seen.legal_actions()[0]


class NoAct:
    pass


NUMBER = 7
'''


@pytest.fixture
def my_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A module of bots in the current directory, as a bot author has it; its name."""
    name = f"my_bots_{abs(hash(tmp_path)) % 10**8}"
    (tmp_path / f"{name}.py").write_text(MY_BOTS, encoding="utf-8")
    (tmp_path / "broken_bots.py").write_text("1 / 0\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the command adds the directory
    return name


def test_a_bot_class_of_your_own_enters_the_arena(
    capsys: pytest.CaptureFixture[str], my_bots: str
) -> None:
    argv = ["arena", "--games", "3", "--players", "3", "--seed", "1", "--plain"]
    lines = run(capsys, *argv, "--workers", "1", "--bots", f"{my_bots}:Careful,counting,random")
    rows = [line.split()[0] for line in lines[2:5]]
    assert sorted(rows) == ["Careful", "CountingBot", "RandomBot"]
    factory = run(capsys, *argv, "--bots", f"{my_bots}:make_careful,counting,random")
    assert factory == lines  # a factory makes the same bot; one process or several
    function = run(capsys, *argv, "--bots", f"{my_bots}:first_legal,counting,random")
    assert any(line.startswith("first_legal ") for line in function)
    watched = run(capsys, "watch", "--seed", "1", "--players", "3", "--bots", f"{my_bots}:Careful")
    assert watched[0].endswith("seat 0 Careful, seat 1 Careful, seat 2 Careful.")


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("no_such_module:Bot", "no module named no_such_module (looked in the current directory"),
        ("broken_bots:Bot", "importing broken_bots failed: ZeroDivisionError: division by zero"),
        ("{mine}:Carefull", "{mine} has no Carefull (did you mean Careful?)"),
        ("{mine}:NoAct", "NoAct has no act method; a bot is a class whose instances have act"),
        ("{mine}:NUMBER", "7 is not a bot; a bot is a class"),
        ("{mine}:NeedsArguments", "NeedsArguments() failed: TypeError"),
        ("{mine}:", "give a module and a name in it, such as --bots mybots:MyBot"),
    ],
)
def test_a_bot_that_will_not_load_is_told_plainly(
    capsys: pytest.CaptureFixture[str], my_bots: str, spec: str, said: str
) -> None:
    spec, said = spec.format(mine=my_bots), said.format(mine=my_bots)
    message = fails(capsys, "arena", "--games", "1", "--players", "3", "--bots", spec)
    assert f"--bots {spec}: " in message and said in message, message
    assert "Traceback" not in message


def test_the_arena_and_the_results_table_say_the_same_columns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = run(capsys, "arena", "--games", "3", "--players", "3", "--workers", "1", "--plain")
    results = tournament(cr.english(3), [RandomBot()] * 3, games=3, seed=1, executor=_Inline())
    table = results.table().splitlines()
    assert lines[1].split() == table[0].split()  # the headers
    assert lines[-3:] == table[-3:]  # the legend
    assert "catch rate" in lines[1] and "challenge acc." not in lines[1]


# -- installing an extra, from a checkout or from PyPI --------------------------------------


def test_an_install_hint_gives_the_form_that_works_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cheatrules._extras import checkout, install_hint

    package = Path(cr.__file__).resolve().parent
    root = checkout()
    assert root == (package.parent.parent if package.parent.name == "src" else None)
    monkeypatch.chdir(tmp_path)
    said = install_hint("web")
    assert said.startswith('pip install "cheatrules[web]" once cheatrules is on PyPI; ')
    if root is not None:  # run from this checkout: name it, and keep the install editable
        assert said.endswith(f'from this checkout: pip install -e "{root}[web]"')
        monkeypatch.chdir(root)
        assert install_hint("web").endswith('from this checkout: pip install -e ".[web]"')
    else:
        assert said.endswith('from a checkout of its source: pip install ".[web]"')


def test_serve_without_the_web_extra_says_both_ways_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in [name for name in sys.modules if name.split(".")[0] == "starlette"]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "starlette", None)
    for name in [name for name in sys.modules if name.startswith("cheatrules.web")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.delattr(cr, "web", raising=False)
    message = fails(capsys, "serve", "--port", "0")
    assert "needs the web extra (starlette is missing): " in message
    assert 'pip install "cheatrules[web]" once cheatrules is on PyPI' in message
    assert "[web]" in message.split("; ", 1)[1]  # and the checkout's form after it
