"""The ``cheatrules`` command: watch, play, run a tournament, replay a record, list house rules.

``cheatrules watch`` narrates a game among bots; ``cheatrules play`` seats
you against bots in the terminal; ``--match first-to=3`` (or ``best-of=5``,
``penalty=3``) makes either a match of several games. ``cheatrules arena``
runs a tournament with a progress bar and a results table; ``cheatrules
replay FILE`` tells a saved game or match; ``cheatrules rules`` lists every
house rule ``--with`` takes. ``python -m cheatrules`` is the same command,
and a bare ``cheatrules --seed 7`` still watches. With the ``cli`` extra
installed (``pip install ".[cli]"`` from a checkout, which brings
``rich``) the output has colour, tables and a live progress bar; without
it, plain text. ``cheatrules serve`` runs the web table (the ``web`` extra).
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import math
import os
import random
import secrets
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO

from cheatrules import __version__
from cheatrules._extras import install_hint
from cheatrules._i18n import LANGUAGES, decimal, translations
from cheatrules._json import json_object as _json_object
from cheatrules.arena import CLUSTER_BATCH, COLUMNS, LEGEND, Results, tournament
from cheatrules.bots import Agent, RandomBot, agent_name
from cheatrules.deal import deal
from cheatrules.errors import CheatRulesError, RecordError
from cheatrules.events import Event
from cheatrules.match import Match, Scoring, dumps_match, loads_match
from cheatrules.narration import narrate
from cheatrules.records import dumps, loads, loads_view
from cheatrules.rules import Rules
from cheatrules.state import GameState
from cheatrules.variants import VARIANTS as GAMES
from cheatrules.variants import challenge_call

from . import _cluster
from ._html import replay_page
from ._options import (
    BOTS,
    SCORINGS,
    VARIANTS,
    house_rule_words,
    house_rules,
    listing,
    suggestion,
    variant_help,
)
from ._options import language as _language
from ._options import lineup as _lineup
from ._options import scoring as _scoring
from ._play import (
    _check_seat,
    _input,
    _LeaveError,
    a_match,
    error_text,
    match_lines,
    numbered,
    play_match,
)
from ._play import _read as _read
from ._play import play as play
from ._screen import _Screen as _Screen
from ._screen import _style

__all__ = ["BOTS", "SCORINGS", "VARIANTS", "main"]

_COMMANDS = ("watch", "play", "arena", "replay", "rules", "serve")

#: The most decisions ``watch`` lets a game run before it stops it.
WATCH_LIMIT = 5000


# -- the options ----------------------------------------------------------------------


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"give a whole number; got {text}") from None


def _at_least_one(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"give a whole number of 1 or more; got {text}")
    return value


def _number(text: str) -> float:
    """``text`` as a number; NaN (inside no range) where it is none."""
    try:
        return float(text)
    except ValueError:
        return math.nan


def _seconds(text: str) -> float:
    value = _number(text)
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(f"give a number of seconds from 0 to 10; got {text}")
    return value


class _Once(argparse.Action):
    """Store an option's value, refusing the option given twice."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        given: dict[str, str] = namespace.__dict__.setdefault("_given", {})
        if self.dest in given:
            parser.error(
                f"{option_string} given twice ({given[self.dest]} and {option_string} {values}); "
                "give it once"
            )
        given[self.dest] = f"{option_string} {values}"
        setattr(namespace, self.dest, values)


_RULES_HINT = "'cheatrules rules' lists every house rule with its values"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cheatrules",
        description="Cheat and Verish' Ne Verish' in the terminal, and on a web table: "
        f"{', '.join(_COMMANDS)}.",
        epilog="Run 'cheatrules COMMAND --help' for a command's options, and "
        f"{_RULES_HINT} (for --with NAME=VALUE). "
        "Without a command, 'cheatrules' watches a game.",
    )
    parser.add_argument("--version", action="version", version=f"cheatrules {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_watch(commands)
    _add_play(commands)
    _add_arena(commands)
    _add_replay(commands)
    _add_rules(commands)
    _add_serve(commands)
    return parser


def _add_watch(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    watch = commands.add_parser("watch", help="watch bots play a narrated game (or match)")
    _add_game_options(watch, None)
    _add_match_option(watch)
    _add_delay(watch)
    _add_language(watch)
    watch.add_argument("--save", metavar="FILE", action=_Once, help="write the record to FILE")


def _add_play(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    play = commands.add_parser("play", help="play against bots in the terminal")
    _add_game_options(play, "counting")
    _add_match_option(play)
    _add_language(play)
    play.add_argument("--seat", type=_whole, default=0, action=_Once, help="your seat (default: 0)")
    play.add_argument(
        "--save",
        metavar="FILE",
        action=_Once,
        help="write the record to FILE at the end (or when you leave)",
    )


def _add_arena(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    arena = commands.add_parser("arena", help="a tournament among bots, with a results table")
    _add_game_options(arena, None)
    arena.add_argument(
        "--games", type=_at_least_one, default=100, action=_Once, help="games (default: 100)"
    )
    arena.add_argument(
        "--workers",
        type=_at_least_one,
        default=None,
        action=_Once,
        help="processes (default: the cores, never more than the games)",
    )
    arena.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        action=_Once,
        help="run on a Dask cluster: its scheduler, tcp://HOST:PORT, or local:N to start "
        "N worker processes here (the dask extra)",
    )
    _add_language(arena)


def _add_replay(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    replay = commands.add_parser("replay", help="narrate a saved game or match record")
    replay.add_argument("file", help="a record written by --save, cheatrules.dumps or dumps_match")
    _add_delay(replay)
    _add_colours(replay)
    _add_language(replay)
    replay.add_argument(
        "--html",
        metavar="OUT",
        action=_Once,
        help="write one self-contained page to OUT stepping through the game, "
        "a picture per event beside the narration (a game record only)",
    )
    replay.add_argument(
        "--seat",
        type=_whole,
        default=None,
        action=_Once,
        help="with --html: draw this seat's view instead of every hand",
    )


def _add_rules(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rules = commands.add_parser("rules", help="list every house rule --with takes")
    _add_variant(rules)
    _add_colours(rules)
    _add_language(rules)


def _port(text: str) -> int:
    value = _whole(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"give a port from 0 to 65535; got {text}")
    return value


def _window_seconds(text: str) -> float:
    value = _number(text)
    if not 0 < value <= 120:
        raise argparse.ArgumentTypeError(
            f"give a number of seconds more than 0 and at most 120; got {text}"
        )
    return value


def _add_serve(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = commands.add_parser(
        "serve", help="run the web table: people play in their browsers (the web extra)"
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        action=_Once,
        help="address to listen on (default: 127.0.0.1)",
    )
    serve.add_argument(
        "--port", type=_port, default=8000, action=_Once, help="port to listen on (default: 8000)"
    )
    serve.add_argument(
        "--data",
        metavar="DIR",
        default=None,
        action=_Once,
        help="keep the tables in DIR's database, each action saved before it is shown, and "
        "reloaded on restart (default: in memory only)",
    )
    serve.add_argument(
        "--store",
        metavar="URL",
        default=None,
        action=_Once,
        help="keep the tables in a PostgreSQL database (postgresql://USER@HOST/DBNAME, the "
        "server extra), which several processes can share, in place of --data",
    )
    serve.add_argument(
        "--workers",
        type=_at_least_one,
        default=1,
        action=_Once,
        help="processes serving the port, any of them serving any table; more than 1 needs "
        "--store (default: 1)",
    )
    serve.add_argument(
        "--bot-delay",
        type=_seconds,
        default=1.0,
        action=_Once,
        help="seconds a bot waits before it acts, 0 to 10 (default: 1)",
    )
    serve.add_argument(
        "--window",
        type=_window_seconds,
        default=5.0,
        action=_Once,
        help="seconds the challenge window stays open after a claim (default: 5)",
    )
    _add_public(serve)
    _add_language(serve)


def _add_public(serve: argparse.ArgumentParser) -> None:
    """The options of a server open to the public: who may create tables, and expiry."""
    serve.add_argument(
        "--create-token",
        metavar="TOKEN",
        default=None,
        action=_Once,
        help="the token that creating a table needs; listening beyond this machine, one is "
        "made if none is given, and the host page's link carries it (default: none on "
        "127.0.0.1)",
    )
    serve.add_argument(
        "--idle-expiry",
        type=_expiry,
        default=6 * 3600.0,
        action=_Once,
        metavar="SECONDS",
        help="a table nobody acted at for this long is let go (default: 21600, six hours)",
    )
    serve.add_argument(
        "--finished-expiry",
        type=_expiry,
        default=3600.0,
        action=_Once,
        metavar="SECONDS",
        help="a finished game's table is let go this long after its end (default: 3600)",
    )


def _expiry(text: str) -> float:
    """A number of seconds above 0, for an expiry."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0; got {text!r}")
    return value


def _local(host: str) -> bool:
    """Whether ``host`` is an address of this machine alone (loopback)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _serve(args: argparse.Namespace, screen: _Screen, language: str = "en") -> None:
    """Run the web table, which needs the web extra."""
    try:
        from cheatrules import web
    except ImportError as error:
        missing = (error.name or "a module").split(".")[0]
        raise CheatRulesError(
            f"cheatrules serve needs the web extra ({missing} is missing): {install_hint('web')}"
        ) from None
    if args.workers > 1 and args.store is None:
        raise CheatRulesError(
            f"--workers {args.workers} needs --store postgresql://...: the processes share the "
            "tables there; --data's SQLite database serves one process"
        )
    if args.store is not None and args.data is not None:
        raise CheatRulesError("give --data DIR or --store URL, not both: the tables live in one")
    catalog = translations(language)
    token = args.create_token
    if token is None and not _local(args.host):
        token = secrets.token_urlsafe(16)
    where = f"http://{args.host}:{args.port}/" + ("" if token is None else f"#create={token}")
    try:
        place = args.data if args.store is None else web.shown_store(args.store)
    except ImportError as error:  # --store without the server extra
        raise CheatRulesError(str(error)) from None
    kept = (
        catalog.gettext("tables kept in %(dir)s") % {"dir": place}
        if place
        else catalog.gettext("tables kept in memory only (--data DIR keeps them)")
    )
    screen.say(
        catalog.gettext("cheatrules web table on %(address)s (%(kept)s); Ctrl-C stops it.")
        % {"address": where, "kept": kept}
    )
    web.serve(
        args.host,
        args.port,
        data=args.data,
        bot_delay=args.bot_delay,
        window=args.window,
        create_token=token,
        limits=web.Limits(idle_seconds=args.idle_expiry, finished_seconds=args.finished_expiry),
        store=args.store,
        workers=args.workers,
    )


def _add_colours(sub: argparse.ArgumentParser) -> None:
    colour = sub.add_mutually_exclusive_group()
    colour.add_argument(
        "--color", dest="fancy", action="store_true", default=None, help="force colour"
    )
    colour.add_argument("--plain", dest="fancy", action="store_false", help="plain text, no colour")


def _add_variant(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--variant",
        choices=sorted(VARIANTS),
        default=None,
        action=_Once,
        help=variant_help(),
    )


def _add_game_options(sub: argparse.ArgumentParser, bots: str | None) -> None:
    """The options of every command that plays games: variant, table, house rules, bots."""
    _add_variant(sub)
    sub.add_argument(
        "--players", type=_whole, default=4, action=_Once, help="number of seats (default: 4)"
    )
    sub.add_argument(
        "--seed", type=_whole, default=None, action=_Once, help="seed (default: random)"
    )
    sub.add_argument(
        "--with",
        dest="house",
        action="append",
        default=[],
        metavar="NAME[=VALUE]",
        help="a house rule, such as jokers, window=extended, passing=consent, stock=5 "
        f"(repeat for several; --with help or {_RULES_HINT})",
    )
    usual = bots or "counting, honest, then random"
    sub.add_argument(
        "--bots",
        default=bots,
        action=_Once,
        help=f"bots by seat, comma-separated, or one name for all: {', '.join(BOTS)} "
        f"(default: {usual})",
    )
    _add_colours(sub)


def _add_match_option(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--match",
        metavar="SCORING",
        action=_Once,
        help="play a match of several games: "
        + ", ".join(f"{name}=N" for name in SCORINGS)
        + " (such as first-to=3)",
    )


def _add_language(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--lang",
        metavar="LANGUAGE",
        default=None,
        action=_Once,
        help=f"the language of everything the command shows: {', '.join(LANGUAGES)} "
        "(default: from the locale, LC_ALL, LC_MESSAGES or LANG; else en)",
    )


def _add_delay(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--delay",
        type=_seconds,
        default=0.0,
        action=_Once,
        help="seconds to pause between lines, 0 to 10 (default: 0)",
    )


def _owners(parser: argparse.ArgumentParser) -> dict[str, list[str]]:
    """Each option string, with the commands that take it."""
    owners: dict[str, list[str]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                for option in sub._option_string_actions:
                    owners.setdefault(option, []).append(name)
    return owners


def _arguments(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """Parse ``argv``, saying plainly what is misplaced, mistyped or belongs to another command."""
    if not argv or (argv[0] not in _COMMANDS and argv[0] not in ("-h", "--help", "--version")):
        misplaced = [word for word in argv if word in _COMMANDS]
        if misplaced:
            rest = " ".join(word for word in argv if word != misplaced[0])
            parser.error(
                f"the command {misplaced[0]} must come first: cheatrules {misplaced[0]} {rest}"
            )
        if argv and not argv[0].startswith("-"):
            parser.error(
                f"unknown command {argv[0]}{suggestion(argv[0].lower(), _COMMANDS)}; "
                f"the commands are {', '.join(_COMMANDS)}"
            )
        argv = ["watch", *argv]  # 'cheatrules --seed 7' watches, as it always has
    args, extras = parser.parse_known_args(argv)
    if extras:
        owners = _owners(parser)
        for word in extras:
            option = word.split("=", 1)[0]
            if option in owners and args.command not in owners[option]:
                parser.error(
                    f"{option} is an option of {' and '.join(owners[option])}, "
                    f"not of {args.command}"
                )
        mine = [option for option, commands in owners.items() if args.command in commands]
        first = extras[0].split("=", 1)[0]
        hint = suggestion(first, mine) if first.startswith("--") else ""
        parser.error(f"unrecognized arguments: {' '.join(extras)}{hint}")
    return args


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
    language: str = "en",
    house: Sequence[str] = (),
) -> GameState:
    """Deal a seeded game, let bots play it, and narrate it line by line in ``language``.

    ``house`` names the house rules in play that differ from the game's
    defaults (``["window=extended"]``), said under the title.
    """
    rules = VARIANTS[variant][0](players) if rules is None else rules
    lineup = list(lineup) if lineup is not None else [RandomBot()] * rules.players
    screen = screen or _Screen(out, False)
    state = deal(rules, seed=seed)
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(rules.players)]
    screen.say(_title_line(variant, rules.players, seed, language, lineup), "bold")
    _say_house(house, screen, language)
    state = _bots_play(state, lineup, rngs)
    _tell(narrate(state.events, game=variant, language=language), screen, delay, language)
    if not state.is_over:
        screen.say(_stopped(language))
    screen.say(_tally(len(state.actions), state.players, seed, language))
    return state


def _names(lineup: Sequence[Agent], language: str = "en") -> str:
    seat_word = translations(language).gettext("seat %(seat)s")
    return ", ".join(
        f"{seat_word % {'seat': seat}} {agent_name(bot)}" for seat, bot in enumerate(lineup)
    )


def _say_house(house: Sequence[str], screen: _Screen, language: str) -> None:
    """The line under a game's title naming the house rules on, if any differ from the defaults."""
    if house:
        # Translators: under a game's title; the house rules stay as typed after --with.
        line = translations(language).gettext("house rules: %(rules)s")
        screen.say(line % {"rules": ", ".join(house)}, "bold")


def _players(players: int, language: str) -> str:
    return translations(language).ngettext("%(count)s player", "%(count)s players", players) % {
        "count": players
    }


def _title_line(
    variant: str, players: int, seed: int, language: str, lineup: Sequence[Agent] | None = None
) -> str:
    """The line that opens a game: its title, its players and its seed (and the bots seated)."""
    catalog = translations(language)
    values = {
        "title": GAMES[variant].title_in(language),
        "players": _players(players, language),
        "seed": seed,
    }
    if lineup is None:
        # Translators: opens a game the user plays: "English Cheat, 4 players, seed 7."
        return catalog.gettext("%(title)s, %(players)s, seed %(seed)s.") % values
    # Translators: opens a game of bots: "English Cheat, 4 players, seed 7: seat 0 CountingBot, ..."
    return catalog.gettext("%(title)s, %(players)s, seed %(seed)s: %(lineup)s.") % {
        **values,
        "lineup": _names(lineup, language),
    }


def _stopped(language: str) -> str:
    return translations(language).gettext("stopped after %(limit)s decisions without a result.") % {
        "limit": WATCH_LIMIT
    }


def _tally(decisions: int, players: int, seed: int, language: str) -> str:
    """The line that closes a watched game: "312 decisions, 4 players, seed 7."."""
    catalog = translations(language)
    # Translators: closes a watched game: "312 decisions, 4 players, seed 7."
    return catalog.gettext("%(decisions)s, %(players)s, seed %(seed)s.") % {
        "decisions": catalog.ngettext("%(count)s decision", "%(count)s decisions", decisions)
        % {"count": decisions},
        "players": _players(players, language),
        "seed": seed,
    }


def _bots_play(state: GameState, lineup: Sequence[Agent], rngs: list[random.Random]) -> GameState:
    steps = 0
    while not state.is_over and steps < WATCH_LIMIT:
        seat: int = state.to_move  # type: ignore[assignment]
        state = state.apply(lineup[seat].act(state.observe(seat), rngs[seat]))
        steps += 1
    return state


def _tell(
    lines: Iterator[str],
    screen: _Screen,
    delay: float,
    language: str = "en",
    number: int | None = None,
    events: Sequence[Event] = (),
) -> None:
    """Say the narrated ``lines``, numbering the end of game ``number`` of a match (``events``)."""
    for line in lines:
        line = numbered(line, events, number, language)
        screen.say(line, _style(line, language))
        if delay:
            time.sleep(delay)


def _dealt_by(number: int, dealer: int, language: str) -> str:
    """The line that opens a game of a match: "game 2, dealt by seat 1"."""
    catalog = translations(language)
    return catalog.gettext("game %(number)s, dealt by %(seat)s") % {
        "number": number,
        "seat": catalog.gettext("seat %(seat)s") % {"seat": dealer},
    }


def watch_match(
    rules: Rules,
    scoring: Scoring,
    seed: int,
    lineup: Sequence[Agent],
    screen: _Screen,
    variant: str = "english",
    delay: float = 0.0,
    language: str = "en",
    house: Sequence[str] = (),
) -> Match:
    """Let bots play a seeded match, narrating each game, its end and the match score."""
    catalog = translations(language)
    screen.say(_title_line(variant, rules.players, seed, language, lineup), "bold")
    _say_house(house, screen, language)
    screen.say(a_match(scoring, language), "bold")
    match = Match.start(rules, scoring, seed=seed)
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(rules.players)]
    decisions = 0
    while not match.is_over:
        done = len(match.games)
        screen.say(_dealt_by(done + 1, match.game.dealer, language), "bold")
        steps = 0
        while len(match.games) == done and steps < WATCH_LIMIT:
            seat: int = match.to_move  # type: ignore[assignment]
            match = match.apply(lineup[seat].act(match.observe(seat), rngs[seat]))
            steps += 1
        decisions += steps
        game = match.games[-1] if len(match.games) > done else match.game
        lines = narrate(game.events, game=variant, language=language)
        _tell(lines, screen, delay, language, done + 1, game.events)
        if len(match.games) == done:
            screen.say(_stopped(language))
            break
        for line in match_lines(match, language):
            screen.say(line, "bold")
    games = len(match.games) + (not match.is_over)
    # Translators: closes a watched match: "3 games, 312 decisions, 4 players, seed 7."
    screen.say(
        catalog.gettext("%(games)s, %(decisions)s, %(players)s, seed %(seed)s.")
        % {
            "games": catalog.ngettext("%(count)s game", "%(count)s games", games)
            % {"count": games},
            "decisions": catalog.ngettext("%(count)s decision", "%(count)s decisions", decisions)
            % {"count": decisions},
            "players": _players(rules.players, language),
            "seed": seed,
        }
    )
    return match


# -- arena ------------------------------------------------------------------------


def _arena(
    rules: Rules,
    lineup: list[Agent],
    games: int,
    seed: int,
    workers: int | None,
    screen: _Screen,
    language: str = "en",
    scheduler: str | None = None,
) -> Results:
    """The tournament, with a progress bar (or a line each tenth), keeping no game's result."""
    catalog = translations(language)
    with contextlib.ExitStack() as stack:
        executor, batch = None, 8
        if scheduler is not None:
            where = _cluster.scheduler(scheduler)
            executor, workers = stack.enter_context(_cluster.cluster(where, lineup))
            # Large tasks, as a cluster's scheduler wants, yet two a worker at least.
            batch = max(1, min(CLUSTER_BATCH, games // (2 * workers)))
        progress: Callable[[int, int], None]
        if screen.err_console is not None:
            from rich.progress import Progress

            bar = stack.enter_context(Progress(console=screen.err_console, transient=True))
            task = bar.add_task(catalog.gettext("games"), total=games)

            def advance(done: int, total: int) -> None:
                bar.update(task, completed=done)

            progress = advance
        else:
            progress = _tenths(screen, catalog.ngettext, games)
        results = tournament(
            rules,
            lineup,
            games,
            seed,
            executor=executor,
            workers=workers,
            batch=batch,
            progress=progress,
            keep_games=False,
        )
    _arena_table(results, games, seed, screen, language)
    return results


def _tenths(
    screen: _Screen, ngettext: Callable[[str, str, int], str], games: int
) -> Callable[[int, int], None]:
    """A progress line after the first batch and at each tenth of the games, on ``screen``."""
    marks = {games * step // 10 for step in range(1, 11)}
    first = True

    def note(done: int, total: int) -> None:
        nonlocal first
        if first or done in marks or done == total:
            screen.note(
                ngettext("%(done)s/%(total)s game", "%(done)s/%(total)s games", total)
                % {"done": done, "total": total}
            )
        first = False

    return note


def _arena_table(
    results: Results, games: int, seed: int, screen: _Screen, language: str = "en"
) -> None:
    """The arena's results table, and the legend of its short columns."""
    catalog = translations(language)
    rows = []
    for row in results.rows:
        low, high = row.win_interval
        rows.append(
            (
                row.name,
                str(row.games),
                decimal(row.win_rate, 3, language),
                f"{decimal(low, 3, language)}–{decimal(high, 3, language)}",
                decimal(row.loss_rate, 3, language),
                decimal(row.challenge_accuracy, 3, language),
                decimal(row.bluff_rate, 3, language),
            )
        )
    # Translators: the arena table's title: "100 games, seed 7, mean length 85.3 decisions".
    title = catalog.ngettext(
        "%(count)s game, seed %(seed)s, mean length %(length)s decisions",
        "%(count)s games, seed %(seed)s, mean length %(length)s decisions",
        games,
    ) % {"count": games, "seed": seed, "length": decimal(results.mean_length, 1, language)}
    screen.table(title, [catalog.gettext(header) for header in COLUMNS], rows)
    for line in LEGEND:
        screen.say(catalog.gettext(line), "dim")


# -- replay -----------------------------------------------------------------------


def _read_record(path: str) -> tuple[str, dict[str, Any]]:
    """A record's text, and its JSON object (empty when it is none: loading says why)."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise CheatRulesError(f"cannot read {path}: {reason}") from None
    try:
        data = _json_object(text)
    except RecordError:
        data = {}  # loads() says what is wrong with it
    return text, data


def _replay_html(
    path: str, out: str, seat: int | None, screen: _Screen, language: str = "en"
) -> None:
    """Write the page stepping through the game recorded at ``path`` to ``out``."""
    text, data = _read_record(path)
    if data.get("format") == "cheatrules-match" or "view" in data:
        kind = "a match" if "view" not in data else "one seat's view"
        raise CheatRulesError(
            f"--html needs a whole game's record (written by --save or cheatrules.dumps); "
            f"{path} holds {kind}"
        )
    page = replay_page(loads(text), seat=seat, language=language)
    try:
        with open(out, "w", encoding="utf-8") as file:
            file.write(page)
    except OSError as error:
        raise CheatRulesError(f"cannot write {out}: {error.strerror or error}") from None
    frames = page.count('<li class="frame"')
    size = len(page.encode("utf-8"))
    screen.say(
        translations(language).ngettext(
            "wrote %(count)s frame (%(size)s KB) to %(out)s; open it in a browser",
            "wrote %(count)s frames (%(size)s KB) to %(out)s; open it in a browser",
            frames,
        )
        % {"count": frames, "size": f"{size / 1024:.0f}", "out": out}
    )


def _replay(path: str, screen: _Screen, delay: float, language: str = "en") -> None:
    text, data = _read_record(path)
    if data.get("format") == "cheatrules-match":
        match = loads_match(text)
        word = challenge_call(match.rules, language=language)
        screen.say(a_match(match.scoring, language), "bold")
        played = [*match.games] + ([] if match.is_over else [match.game])
        for number, game in enumerate(played, start=1):
            screen.say(_dealt_by(number, game.dealer, language), "bold")
            lines = narrate(game.events, challenge_word=word, language=language)
            _tell(lines, screen, delay, language, number, game.events)
        screen.say(
            match_lines(match, language)[-1]
            if match.is_over
            else translations(language).gettext("the match was left unfinished")
        )
        return
    if "view" in data:
        seen = loads_view(text)
        events = seen.events
        rules = seen.rules
    else:
        state = loads(text)
        events = state.events
        rules = state.rules
    word = challenge_call(rules, language=language)
    _tell(narrate(events, challenge_word=word, language=language), screen, delay, language)


# -- the entry point ----------------------------------------------------------------


@contextlib.contextmanager
def _streams(out: TextIO | None, err: TextIO | None) -> Iterator[None]:
    """Send what argparse prints (help, version, usage errors) to the streams given."""
    with contextlib.ExitStack() as stack:
        if out is not None:
            stack.enter_context(contextlib.redirect_stdout(out))
        if err is not None:
            stack.enter_context(contextlib.redirect_stderr(err))
        yield


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line; return the exit status.

    A usage error (a bad option, an unknown house rule, a record that will
    not load) prints a one-line message and exits with status 2, as
    argparse does; leaving a game exits with 0.
    """
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    with _streams(stdout, stderr):
        args = _arguments(parser, args_list)
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    source = stdin if stdin is not None else sys.stdin
    screen = _Screen(out, getattr(args, "fancy", None), err)
    try:
        return _run(args, screen, source, out)
    except CheatRulesError as error:
        # A note says where the error happened (a tournament's game, its seed and seats).
        notes = "".join(f"  {note}\n" for note in getattr(error, "__notes__", ()))
        with _streams(stdout, stderr):
            said = error_text(error, _quiet_language(args))
            parser.exit(2, f"cheatrules: error: {said}\n{notes}")
    except KeyboardInterrupt:
        screen.say("\n" + translations(_quiet_language(args)).gettext("Interrupted."))
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as other tools do.
        sys.stdout = None
        return 0
    return 0


def _quiet_language(args: argparse.Namespace) -> str:
    """The language ``args`` ask for, or English when that is not a language (never raises)."""
    try:
        return _language(getattr(args, "lang", None), os.environ)
    except CheatRulesError:
        return "en"


def _run(args: argparse.Namespace, screen: _Screen, source: TextIO, out: TextIO) -> int:
    """Run the command ``args`` name; return the exit status."""
    language = _language(getattr(args, "lang", None), os.environ)
    if args.command == "replay":
        if args.html is not None:
            _replay_html(args.file, args.html, args.seat, screen, language)
        elif args.seat is not None:
            raise CheatRulesError("--seat draws a seat's view in the --html page; add --html OUT")
        else:
            _replay(args.file, screen, args.delay, language)
        return 0
    if args.command == "serve":
        _serve(args, screen, language)
        return 0
    variant = args.variant or "english"
    if args.command == "rules" or "help" in args.house:
        _list_rules(screen, [variant] if args.variant else list(VARIANTS), language)
        return 0
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    rules = house_rules(variant, args.players, args.house)
    house = house_rule_words(variant, args.players, args.house)
    scoring = _scoring(args.match) if getattr(args, "match", None) else None
    if args.command == "watch":
        bots = _lineup(args.bots, rules.players)
        table: GameState | Match
        if scoring is not None:
            table = watch_match(
                rules, scoring, seed, bots, screen, variant, args.delay, language, house
            )
        else:
            table = watch(
                seed, rules.players, args.delay, out, variant, bots, rules, screen, language, house
            )
        _save(args.save, table, screen, language=language)
    elif args.command == "play":
        _run_play(args, rules, scoring, seed, variant, screen, source, out, language, house)
    else:
        bots = _lineup(args.bots, rules.players)
        _arena(rules, bots, args.games, seed, args.workers, screen, language, args.scheduler)
    return 0


def _list_rules(screen: _Screen, variants: list[str], language: str = "en") -> None:
    """Every house rule of each of ``variants``, a blank line between variants."""
    for index, name in enumerate(variants):
        if index:
            screen.say("")
        for line in listing(name, language):
            screen.say(line)


def _run_play(
    args: argparse.Namespace,
    rules: Rules,
    scoring: Scoring | None,
    seed: int,
    variant: str,
    screen: _Screen,
    source: TextIO,
    out: TextIO,
    language: str = "en",
    house: Sequence[str] = (),
) -> None:
    """Seat the player against bots for a game or a match, and save it (even when left).

    Everything that can be refused (the seat, the bots) is checked before the
    game's header is shown.
    """
    word = GAMES[variant].call_in(language)
    _check_seat(rules, args.seat)
    bots = _lineup(args.bots, rules.players, skip=args.seat)
    screen.say(_title_line(variant, rules.players, seed, language), "bold")
    _say_house(house, screen, language)
    ask = _input(source, out)
    table: GameState | Match
    try:
        if scoring is not None:
            table = play_match(
                rules, scoring, seed, args.seat, bots, screen, ask, word, language=language
            )
        else:
            table = play(rules, seed, args.seat, bots, screen, ask, word, language=language)
    except _LeaveError as leaving:
        screen.say("\n" + translations(language).gettext("Goodbye."))
        _save(args.save, leaving.table, screen, so_far=True, language=language)
        return
    _save(args.save, table, screen, language=language)


def _save(
    path: str | None,
    table: GameState | Match | None,
    screen: _Screen,
    so_far: bool = False,
    language: str = "en",
) -> None:
    if not path:
        return
    catalog = translations(language)
    if table is None:
        screen.say(
            catalog.gettext("nothing to save to %(path)s: no card was dealt") % {"path": path}
        )
        return
    text = dumps_match(table) if isinstance(table, Match) else dumps(table)
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as error:
        raise CheatRulesError(f"cannot write {path}: {error.strerror or error}") from None
    values = {"path": path}
    if not so_far:
        line = catalog.gettext(
            "record saved to %(path)s; replay it with: cheatrules replay %(path)s"
        )
    elif isinstance(table, Match):
        line = catalog.gettext(
            "the match so far is saved to %(path)s; replay it with: cheatrules replay %(path)s"
        )
    else:
        line = catalog.gettext(
            "the game so far is saved to %(path)s; replay it with: cheatrules replay %(path)s"
        )
    screen.say(line % values)
