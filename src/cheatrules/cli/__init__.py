"""The ``cheatrules`` command: watch, play, run a tournament, replay a record.

``cheatrules watch`` narrates a game among bots; ``cheatrules play`` seats
you against bots in the terminal; ``cheatrules arena`` runs a tournament
with a progress bar and a results table; ``cheatrules replay FILE`` tells a
saved game. ``python -m cheatrules`` is the same command, and a bare
``cheatrules --seed 7`` still watches. With the ``cli`` extra installed
(``pip install "cheatrules[cli]"``, which brings ``rich``) the output has
colour, tables and a live progress bar; without it, plain text.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from cheatrules.actions import Accept, Action, Challenge, Discard, Pass, Play, Refuse
from cheatrules.arena import Results, tournament
from cheatrules.bots import Agent, CountingBot, HonestBot, RandomBot, SamplingBot
from cheatrules.cards import Card, Rank, cards, ranks
from cheatrules.deal import deal
from cheatrules.errors import CheatRulesError, RecordError
from cheatrules.events import describe_claim
from cheatrules.narration import narrate
from cheatrules.observation import Observation
from cheatrules.records import _json_object, dumps, loads, loads_view
from cheatrules.rules import Rules, english, verish
from cheatrules.state import GameState, Phase

__all__ = ["BOTS", "VARIANTS", "main", "random_decision"]

#: The games the command line offers, each with its rules, name, and challenge call.
VARIANTS: dict[str, tuple[Callable[..., Rules], str, str]] = {
    "english": (english, "English Cheat", "Cheat!"),
    "verish": (verish, "Verish' Ne Verish'", "I don't believe!"),
}

#: The bots the command line can seat, by name.
BOTS: dict[str, Callable[[], Agent]] = {
    "random": RandomBot,
    "honest": HonestBot,
    "counting": CountingBot,
    "sampling": SamplingBot,
}

_COMMANDS = ("watch", "play", "arena", "replay")

#: The most decisions ``watch`` lets a game run before it stops it.
WATCH_LIMIT = 5000


def random_decision(state: GameState, rng: random.Random, challenge: float = 0.15) -> Action:
    """A random bot's decision on the whole state (kept for scripts that used it).

    It acts as :class:`~cheatrules.bots.RandomBot` does from the mover's
    observation, challenging with probability ``challenge``.
    """
    seat: int = state.to_move  # type: ignore[assignment]
    return RandomBot(challenge=challenge).act(state.observe(seat), rng)


# -- output: rich when installed, plain text otherwise --------------------------------


class _Screen:
    """Where the command writes: a rich console when rich is installed, else plain text."""

    def __init__(self, out: TextIO, fancy: bool | None) -> None:
        self.out = out
        self.console: Any = None
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

    def say(self, text: str, style: str = "") -> None:
        if self.console is not None:
            self.console.print(text, style=style or None, markup=False)
        else:
            self.out.write(text + "\n")
        self.out.flush()

    def table(self, title: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        if self.console is not None:
            from rich.table import Table

            table = Table(title=title)
            for index, header in enumerate(headers):
                table.add_column(header, justify="left" if index == 0 else "right", overflow="fold")
            for row in rows:
                table.add_row(*row)
            self.console.print(table)
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
            self.out.write("  ".join(cells) + "\n")
        self.out.flush()


def _style(line: str) -> str:
    if "game over" in line or "goes out" in line:
        return "bold green"
    if ": a lie" in line or "— a lie" in line:
        return "red"
    if "— true" in line:
        return "cyan"
    return ""


# -- options shared by the subcommands -------------------------------------------------


def _house(values: Sequence[str]) -> dict[str, object]:
    """Read ``--with`` house options: ``jokers``, ``window=extended``, ``stock=5``."""
    options: dict[str, object] = {}
    for item in values:
        name, _, raw = item.partition("=")
        value: object
        if not raw or raw.lower() == "true":
            value = True
        elif raw.lower() == "false":
            value = False
        elif raw.isdigit():
            value = int(raw)
        else:
            value = raw
        options[name.strip().replace("-", "_")] = value
    return options


def _rules(args: argparse.Namespace) -> Rules:
    make_rules = VARIANTS[args.variant][0]
    return make_rules(args.players, **_house(args.house))


def _lineup(names: str | None, players: int, skip: int | None = None) -> list[Agent]:
    """The bots named in ``names`` (comma-separated), one per seat but ``skip``.

    By default a counting bot, an honest bot, and random bots in the other seats.
    """
    seats = players - (skip is not None)
    if names is None:
        names = ",".join(["counting", "honest", *["random"] * seats][:seats])
    wanted = [name.strip().lower() for name in names.split(",") if name.strip()]
    if len(wanted) == 1:
        wanted *= seats
    unknown = [name for name in wanted if name not in BOTS]
    if unknown:
        raise CheatRulesError(f"unknown bot {', '.join(unknown)}; the bots are {', '.join(BOTS)}")
    if len(wanted) != seats:
        raise CheatRulesError(
            f"--bots names {len(wanted)} bots; give one, or one per seat ({seats}), "
            "such as --bots counting,random,random"
        )
    return [BOTS[name]() for name in wanted]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cheatrules",
        description="Cheat and Verish' Ne Verish' in the terminal: watch, play, arena, replay.",
        epilog="Run 'cheatrules COMMAND --help' for a command's options. "
        "Without a command, 'cheatrules' watches a game.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def game_options(sub: argparse.ArgumentParser, bots: str | None) -> None:
        sub.add_argument(
            "--variant",
            choices=sorted(VARIANTS),
            default="english",
            help="english (Cheat, 3-10 players) or verish (Verish' Ne Verish', 2-6 players)",
        )
        sub.add_argument("--players", type=int, default=4, help="number of seats (default: 4)")
        sub.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
        sub.add_argument(
            "--with",
            dest="house",
            action="append",
            default=[],
            metavar="OPTION[=VALUE]",
            help="a house rule, such as jokers, window=extended, passing=consent, stock=5 "
            "(repeat for several)",
        )
        usual = bots or "counting, honest, then random"
        sub.add_argument(
            "--bots",
            default=bots,
            help=f"bots by seat, comma-separated, or one name for all: {', '.join(BOTS)} "
            f"(default: {usual})",
        )
        colour = sub.add_mutually_exclusive_group()
        colour.add_argument(
            "--color", dest="fancy", action="store_true", default=None, help="force colour"
        )
        colour.add_argument(
            "--plain", dest="fancy", action="store_false", help="plain text, no colour"
        )

    watch = commands.add_parser("watch", help="watch bots play a narrated game")
    game_options(watch, None)
    watch.add_argument(
        "--delay", type=float, default=0.0, help="seconds to pause between lines (default: 0)"
    )
    watch.add_argument("--save", metavar="FILE", help="write the game's record to FILE")

    play = commands.add_parser("play", help="play against bots in the terminal")
    game_options(play, "counting")
    play.add_argument("--seat", type=int, default=0, help="your seat (default: 0)")
    play.add_argument("--save", metavar="FILE", help="write the game's record to FILE at the end")

    arena = commands.add_parser("arena", help="a tournament among bots, with a results table")
    game_options(arena, None)
    arena.add_argument("--games", type=int, default=100, help="games to play (default: 100)")
    arena.add_argument("--workers", type=int, default=None, help="processes (default: cores)")

    replay = commands.add_parser("replay", help="narrate a saved game record")
    replay.add_argument("file", help="a record written by cheatrules.dumps (or --save)")
    replay.add_argument(
        "--delay", type=float, default=0.0, help="seconds to pause between lines (default: 0)"
    )
    colour = replay.add_mutually_exclusive_group()
    colour.add_argument("--color", dest="fancy", action="store_true", default=None)
    colour.add_argument("--plain", dest="fancy", action="store_false")
    return parser


# -- watch ------------------------------------------------------------------------


def watch(
    seed: int,
    players: int,
    delay: float,
    out: TextIO,
    variant: str = "english",
    lineup: Sequence[Agent] | None = None,
    rules: Rules | None = None,
    screen: _Screen | None = None,
) -> GameState:
    """Deal a seeded game, let bots play it, and narrate it line by line."""
    make_rules, title, challenge_word = VARIANTS[variant]
    rules = make_rules(players) if rules is None else rules
    lineup = list(lineup) if lineup is not None else [RandomBot()] * rules.players
    screen = screen or _Screen(out, False)
    state = deal(rules, seed=seed)
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(rules.players)]
    names = ", ".join(f"seat {seat} {type(bot).__name__}" for seat, bot in enumerate(lineup))
    screen.say(f"{title}, {rules.players} players, seed {seed}: {names}.", "bold")
    steps = 0
    while not state.is_over and steps < WATCH_LIMIT:
        seat: int = state.to_move  # type: ignore[assignment]
        state = state.apply(lineup[seat].act(state.observe(seat), rngs[seat]))
        steps += 1
    for line in narrate(state.events, challenge_word=challenge_word):
        screen.say(line, _style(line))
        if delay:
            time.sleep(delay)
    if not state.is_over:
        screen.say(f"stopped after {WATCH_LIMIT} decisions without a result.")
    screen.say(f"{len(state.actions)} decisions, {state.players} players, seed {seed}.")
    return state


# -- play -------------------------------------------------------------------------

_HELP = """How to answer:
  on your turn   type the cards to lay: '7c 7d' (or '7♣ 7♦'); when you name the
                 rank yourself, add it: '7c 7d as 7'. Suits: c d h s or ♣ ♦ ♥ ♠,
                 10 is '10' or 'T', a joker is '*h' or '*s'.
  challenge      'c' or 'cheat' (call the last claim a lie); 'e' for the earlier claim
  let it stand   Enter, 'a' or 'accept'
  pass           'p' or 'pass' (where the rules allow it)
  a pass asked   'y' to agree, 'n' to refuse
  fours          the ranks to set aside, such as 'Q 7', or Enter to keep them
  other          'h' or 'help', 'hand' (show your hand again), 'q' or 'quit'"""


class _LeaveError(Exception):
    """The player asked to leave."""


def _describe(seen: Observation) -> list[str]:
    lines = []
    sizes = "  ".join(
        f"seat {seat}{' (you)' if seat == seen.seat else ''}: {size}"
        for seat, size in enumerate(seen.hand_sizes)
    )
    lines.append(f"cards in hand  {sizes}")
    claim = seen.last_claim
    table = f"table: {seen.pile_size} card{'s' if seen.pile_size != 1 else ''}"
    if claim is not None:
        table += f"; last claim: seat {claim.seat}, {describe_claim(claim.count, claim.rank)}"
    if seen.stock_size:
        table += f"; stock: {seen.stock_size}"
    lines.append(table)
    lines.append(f"your hand: {_hand(seen.hand)}")
    return lines


def _hand(hand: Sequence[Card]) -> str:
    groups: dict[Rank, list[str]] = {}
    for card in hand:
        groups.setdefault(card.rank, []).append(str(card))
    return "   ".join(" ".join(group) for group in groups.values()) or "(empty)"


def _prompt(seen: Observation) -> str:
    phase = seen.phase
    legal = seen.legal_actions()
    if phase is Phase.CHALLENGE:
        claim = seen.last_claim
        assert claim is not None
        said = describe_claim(claim.count, claim.rank)
        extra = ", e = the earlier claim" if Challenge(earlier=True) in legal else ""
        return f"seat {claim.seat} claims {said}. c = cheat{extra}, Enter = accept > "
    if phase is Phase.CONSENT:
        return "a player asks to pass: y = agree, n = refuse > "
    if phase is Phase.DISCARD:
        fours = " ".join(map(str, seen.offered))
        return f"you may set aside fours of {fours}: type the ranks, or Enter to keep > "
    ranks_text = (
        f"as {seen.allowed_ranks[0]}"
        if len(seen.allowed_ranks) == 1
        else "naming a rank ('... as 7')"
    )
    extras = []
    if Challenge() in legal:
        extras.append("c = challenge")
    if Pass() in legal:
        extras.append("p = pass")
    if any(isinstance(action, Discard) for action in legal[:8]):
        extras.append("d RANK = set a four aside")
    tail = f" ({', '.join(extras)})" if extras else ""
    return f"your turn: lay cards {ranks_text}{tail} > "


def _read(text: str, seen: Observation) -> Action:
    """The action ``text`` means in the seat's position (raises ValueError for bad input)."""
    word = text.strip()
    lowered = word.lower()
    phase = seen.phase
    # "Q" names Queens where fours are asked for; "quit" always leaves.
    if lowered in ("quit", "exit") or (lowered == "q" and phase is not Phase.DISCARD):
        raise _LeaveError
    if phase is Phase.CHALLENGE:
        if lowered in ("", "a", "accept", "n", "no"):
            return Accept()
        if lowered in ("c", "cheat", "challenge", "y", "yes", "!"):
            return Challenge()
        if lowered in ("e", "earlier"):
            return Challenge(earlier=True)
        raise ValueError("type c to call cheat, or press Enter to let the claim stand")
    if phase is Phase.CONSENT:
        if lowered in ("", "y", "yes", "a", "accept"):
            return Accept()
        if lowered in ("n", "no", "r", "refuse"):
            return Refuse()
        raise ValueError("type y to agree to the pass, or n to refuse it")
    if phase is Phase.DISCARD:
        return Discard(ranks(word))
    if lowered in ("c", "cheat", "challenge", "!"):
        return Challenge()
    if lowered in ("p", "pass"):
        return Pass()
    verb, _, rest = word.partition(" ")
    if verb.lower() in ("d", "discard") and rest:
        return Discard(ranks(rest))  # fours set aside on the turn, where the rules allow it
    if not word:
        raise ValueError("type the cards to lay, such as '7c 7d' (h for help)")
    laid, separator, named = word.rpartition(" as ")
    if not separator:
        laid, named = word, ""
    if named:
        rank = Rank.parse(named)
    elif len(seen.allowed_ranks) == 1:
        rank = seen.allowed_ranks[0]
    else:
        raise ValueError("name the rank you announce: add 'as 7' (or as A, K, ...)")
    return Play(cards(laid), rank)


def play(
    rules: Rules,
    seed: int,
    seat: int,
    lineup: Sequence[Agent],
    screen: _Screen,
    ask: Callable[[str], str],
    challenge_word: str,
) -> GameState:
    """Play a game with a person at ``seat`` answering through ``ask``; return the last state."""
    if not 0 <= seat < rules.players:
        raise CheatRulesError(f"--seat must be from 0 to {rules.players - 1}; got {seat}")
    state = deal(rules, seed=seed)
    bots = iter(lineup)
    agents: list[Agent | None] = [None if s == seat else next(bots) for s in range(rules.players)]
    rngs = [random.Random(f"{seed}/{s}") for s in range(rules.players)]
    told = 0

    def tell() -> None:
        nonlocal told
        lines = list(narrate(state.observe(seat).events, challenge_word=challenge_word))
        for line in lines[told:]:
            screen.say(line, _style(line))
        told = len(lines)

    screen.say(f"You are seat {seat}. Type h for help.", "bold")
    while not state.is_over:
        tell()
        mover: int = state.to_move  # type: ignore[assignment]
        agent = agents[mover]
        if agent is not None:
            state = state.apply(agent.act(state.observe(mover), rngs[mover]))
            continue
        seen = state.observe(seat)
        for line in _describe(seen):
            screen.say(line, "bold" if line.startswith("your hand") else "")
        while True:
            try:
                answer = ask(_prompt(seen))
            except UnicodeDecodeError:
                screen.say("  that line was not readable text; try again", "yellow")
                continue
            if answer.strip().lower() in ("h", "help", "?"):
                screen.say(_HELP)
                continue
            if answer.strip().lower() == "hand":
                screen.say(f"your hand: {_hand(seen.hand)}", "bold")
                continue
            try:
                state = state.apply(_read(answer, seen))
            except ValueError as error:
                screen.say(f"  {error}", "yellow")
                continue
            break
    tell()
    outcome = state.outcome
    assert outcome is not None
    won = seat in outcome.winners
    screen.say("You win!" if won else "You lose.", "bold green" if won else "bold red")
    return state


# -- arena ------------------------------------------------------------------------


def _arena(
    rules: Rules, lineup: list[Agent], games: int, seed: int, workers: int | None, screen: _Screen
) -> Results:
    if screen.console is not None:
        from rich.progress import Progress

        with Progress(console=screen.console, transient=True) as bar:
            task = bar.add_task("games", total=games)
            results = tournament(
                rules,
                lineup,
                games,
                seed,
                workers=workers,
                progress=lambda done, total: bar.update(task, completed=done),
            )
    else:
        marks = {games * step // 10 for step in range(1, 11)}

        def note(done: int, total: int) -> None:
            if done in marks or done == total:
                screen.out.write(f"{done}/{total} games\n")
                screen.out.flush()

        results = tournament(rules, lineup, games, seed, workers=workers, progress=note)
    rows = []
    for row in results.rows:
        low, high = row.win_interval
        rows.append(
            (
                row.name,
                str(row.games),
                f"{row.win_rate:.3f}",
                f"{low:.3f}–{high:.3f}",
                f"{row.loss_rate:.3f}",
                f"{row.challenge_accuracy:.3f}",
                f"{row.bluff_rate:.3f}",
            )
        )
    headers = ("agent", "games", "win rate", "95% CI", "loss rate", "challenge acc.", "bluffs")
    screen.table(
        f"{games} games, seed {seed}, mean length {results.mean_length:.1f} decisions",
        headers,
        rows,
    )
    return results


# -- replay -----------------------------------------------------------------------


def _replay(path: str, screen: _Screen, delay: float) -> None:
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except OSError as error:
        raise CheatRulesError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        is_view = "view" in _json_object(text)
    except RecordError:
        is_view = False  # loads() below says what is wrong with it
    if is_view:
        seen = loads_view(text)
        events = seen.events
        rules = seen.rules
    else:
        state = loads(text)
        events = state.events
        rules = state.rules
    word = VARIANTS["verish"][2] if rules.name == "verish" else VARIANTS["english"][2]
    for line in narrate(events, challenge_word=word):
        screen.say(line, _style(line))
        if delay:
            time.sleep(delay)


# -- the entry point ----------------------------------------------------------------


def _input(stdin: TextIO, out: TextIO) -> Callable[[str], str]:
    def ask(prompt: str) -> str:
        out.write(prompt)
        out.flush()
        line = stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    return ask


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run the command line; return the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or (args_list[0] not in _COMMANDS and args_list[0] not in ("-h", "--help")):
        args_list.insert(0, "watch")  # 'cheatrules --seed 7' watches, as it always has
    parser = _parser()
    args = parser.parse_args(args_list)
    out = stdout if stdout is not None else sys.stdout
    source = stdin if stdin is not None else sys.stdin
    screen = _Screen(out, args.fancy)
    try:
        if args.command == "replay":
            _replay(args.file, screen, _delay(args.delay))
            return 0
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        rules = _rules(args)
        title, word = VARIANTS[args.variant][1:]
        if args.command == "watch":
            lineup = _lineup(args.bots, rules.players)
            state = watch(
                seed, rules.players, _delay(args.delay), out, args.variant, lineup, rules, screen
            )
            _save(getattr(args, "save", None), state, screen)
        elif args.command == "play":
            lineup = _lineup(args.bots, rules.players, skip=args.seat)
            screen.say(f"{title}, {rules.players} players, seed {seed}.", "bold")
            try:
                state = play(rules, seed, args.seat, lineup, screen, _input(source, out), word)
            except (EOFError, _LeaveError):
                screen.say("\nGoodbye.")
                return 0
            _save(args.save, state, screen)
        else:
            lineup = _lineup(args.bots, rules.players)
            _arena(rules, lineup, args.games, seed, args.workers, screen)
    except CheatRulesError as error:
        parser.exit(2, f"cheatrules: error: {error}\n")
    except ValueError as error:  # a house option the rules do not know
        parser.exit(2, f"cheatrules: error: {error}\n")
    except KeyboardInterrupt:
        screen.say("\nInterrupted.")
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as other tools do.
        sys.stdout = None
        return 0
    return 0


def _delay(value: float) -> float:
    return min(max(0.0, value), 10.0)


def _save(path: str | None, state: GameState, screen: _Screen) -> None:
    if not path:
        return
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(dumps(state))
    except OSError as error:
        raise CheatRulesError(f"cannot write {path}: {error.strerror or error}") from None
    screen.say(f"record saved to {path}; replay it with: cheatrules replay {path}")
