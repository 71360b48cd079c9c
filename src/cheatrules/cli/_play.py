"""``cheatrules play``: a person at one seat, answering at the terminal, against bots."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import TextIO

from cheatrules.actions import Accept, Action, Challenge, Discard, Pass, Play, Refuse
from cheatrules.bots import Agent
from cheatrules.cards import Card, Rank, cards, ranks
from cheatrules.deal import deal
from cheatrules.decision import Consent, DiscardOffer, Window
from cheatrules.errors import CheatRulesError
from cheatrules.events import describe_claim
from cheatrules.match import FewestLosses, Match, Scoring
from cheatrules.narration import narrate
from cheatrules.observation import Observation
from cheatrules.rules import Rules
from cheatrules.state import GameState

from ._options import describe_scoring
from ._screen import _Screen, _style

_HELP = """How to answer:
  on your turn   type the cards to lay: '7c 7d' (or '7♣ 7♦'); when you name the
                 rank yourself, add it: '7c 7d as 7'. Suits: c d h s or ♣ ♦ ♥ ♠,
                 10 is '10' or 'T', a joker is '*h' or '*s'.
  challenge      'c' or 'cheat' (call the last claim a lie); 'e' for the earlier claim
  let it stand   Enter, 'a' or 'accept'
  pass           'p' or 'pass' (where the rules allow it)
  a pass asked   'y' to agree, 'n' to refuse
  fours          the ranks to set aside, such as 'Q 7', or Enter to keep them
  other          'h' or 'help', 'hand' (show your hand again)
  leave          'quit' or 'exit' (a rank letter such as Q never leaves)"""

#: The longest answer read; a play is a few cards, so anything longer is a mistake.
LONGEST_ANSWER = 200
#: The longest message shown for a bad answer (it may quote the answer).
LONGEST_MESSAGE = 160


class _LeaveError(Exception):
    """The player asked to leave, or the input ended: ``table`` is the game (or match) so far."""

    def __init__(self, table: GameState | Match | None = None) -> None:
        super().__init__("the player left")
        self.table = table


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
    decision = seen.decision
    legal = seen.legal_actions()
    if isinstance(decision, Window):
        claim = decision.claim
        said = describe_claim(claim.count, claim.rank)
        extra = ", e = the earlier claim" if Challenge(earlier=True) in legal else ""
        return f"seat {claim.seat} claims {said}. c = cheat{extra}, Enter = accept > "
    if isinstance(decision, Consent):
        return f"seat {decision.passer} asks to pass: y = agree, n = refuse > "
    if isinstance(decision, DiscardOffer):
        fours = " ".join(map(str, decision.fours))
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
    if any(isinstance(action, Discard) for action in legal[: len(seen.choices) + 1]):
        extras.append("d RANK = set a four aside")
    tail = f" ({', '.join(extras)})" if extras else ""
    return f"your turn: lay cards {ranks_text}{tail} > "


_AS = "'as' goes between the cards and the rank you announce, such as '7c 7d as 7'"


def _lay(word: str, seen: Observation) -> Action:
    """The cards of a lay answer, and the rank it announces."""
    tokens = word.split()
    lowered = [token.lower() for token in tokens]
    if "as" in lowered:
        at = len(lowered) - 1 - lowered[::-1].index("as")
        laid, named = tokens[:at], tokens[at + 1 :]
        if not laid or len(named) != 1 or "as" in lowered[:at]:
            raise ValueError(f"{_AS}; the Ace of spades is 'A♠'")
        return Play(cards(" ".join(laid)), Rank.parse(named[0]))
    if len(tokens) == 1:
        try:
            rank = Rank.parse(word)
        except CheatRulesError:
            pass
        else:
            raise ValueError(
                f"{word} names a rank: lay cards with their suits, such as '{rank}♥' "
                "(type quit to leave)"
            )
    if len(seen.allowed_ranks) != 1:
        raise ValueError("name the rank you announce: add 'as 7' (or as A, K, ...)")
    return Play(cards(word), seen.allowed_ranks[0])


def _read(text: str, seen: Observation) -> Action:
    """The action ``text`` means in the seat's position (raises ValueError for bad input).

    Only ``quit`` or ``exit`` leave: a rank letter (``Q``, ``q``) never does.
    """
    word = text.strip()
    lowered = word.lower()
    decision = seen.decision
    if lowered in ("quit", "exit"):
        raise _LeaveError
    if isinstance(decision, Window):
        if lowered in ("", "a", "accept", "n", "no"):
            return Accept()
        if lowered in ("c", "cheat", "challenge", "y", "yes", "!"):
            return Challenge()
        if lowered in ("e", "earlier"):
            return Challenge(earlier=True)
        raise ValueError(
            "type c to call cheat, or press Enter to let the claim stand (quit to leave)"
        )
    if isinstance(decision, Consent):
        if lowered in ("", "y", "yes", "a", "accept"):
            return Accept()
        if lowered in ("n", "no", "r", "refuse"):
            return Refuse()
        raise ValueError("type y to agree to the pass, or n to refuse it (quit to leave)")
    if isinstance(decision, DiscardOffer):
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
    return _lay(word, seen)


def _excerpt(text: str, longest: int = LONGEST_MESSAGE) -> str:
    return text if len(text) <= longest else text[: longest - 1] + "…"


def _yours(message: str, seat: int) -> str:
    """A library message about ``seat`` told to the person sitting there."""
    if message.startswith("illegal action ") and ": " in message:
        message = message.split(": ", 1)[1]
    message = re.sub(rf"\bseat {seat}'s\b", "your", message)
    message = re.sub(rf"\bseat {seat} holds\b", "you hold", message)
    message = re.sub(rf"\bseat {seat} (\w+) its own\b", r"you \1 your own", message)
    message = re.sub(rf"\bseat {seat}\b", "you", message)
    return _excerpt(message)


Table = GameState | Match


def _games_done(table: Table) -> int:
    return len(table.games) if isinstance(table, Match) else 0


def _session(
    table: Table,
    seat: int,
    lineup: Sequence[Agent],
    seed: int,
    screen: _Screen,
    ask: Callable[[str], str],
    challenge_word: str,
    game_over: Callable[[Table], None],
    language: str = "en",
) -> Table:
    """Play ``table`` (a game or a match) to its end; ``game_over`` is told each finished game."""
    bots = iter(lineup)
    players = len(table.observe(seat).hand_sizes)
    agents: list[Agent | None] = [None if s == seat else next(bots) for s in range(players)]
    rngs = [random.Random(f"{seed}/{s}") for s in range(players)]
    told = 0
    fresh = True  # something was told since the status was last shown
    last_status: list[str] = []

    def tell(seen: Observation, number: int) -> None:
        nonlocal told, fresh
        lines = list(narrate(seen.events, challenge_word=challenge_word, language=language))
        for line in lines[told:]:
            if isinstance(table, Match) and line.startswith("game over:"):
                line = line.replace("game over:", f"game {number} over:", 1)
            screen.say(line, _style(line))
            fresh = True
        told = len(lines)

    while not table.is_over:
        done = _games_done(table)
        tell(table.observe(seat), done + 1)
        mover: int = table.to_move  # type: ignore[assignment]
        agent = agents[mover]
        if agent is not None:
            table = table.apply(agent.act(table.observe(mover), rngs[mover]))
        else:
            seen = table.observe(seat)
            status = _describe(seen)
            if fresh or status != last_status:
                for line in status:
                    screen.say(line, "bold" if line.startswith("your hand") else "")
                last_status, fresh = status, False
            table = _answer(table, seen, seat, screen, ask)
        if isinstance(table, Match) and len(table.games) > done and not table.is_over:
            tell(table.games[-1].observe(seat), done + 1)
            game_over(table)
            told, fresh = 0, True
    tell(table.observe(seat), max(_games_done(table), 1))
    game_over(table)
    return table


def _answer(
    table: Table, seen: Observation, seat: int, screen: _Screen, ask: Callable[[str], str]
) -> Table:
    """Ask the person until an answer is legal; the table after it."""
    while True:
        try:
            answer = ask(_prompt(seen))
        except UnicodeDecodeError:
            screen.say("  that line was not readable text; try again", "yellow")
            continue
        except (EOFError, KeyboardInterrupt) as leaving:
            raise _LeaveError(table) from leaving
        if len(answer) > LONGEST_ANSWER:
            screen.say(
                f"  that answer is too long ({len(answer):,} characters or more): "
                f"{_excerpt(answer, 40)!r}; a play is a few cards, such as '7c 7d'",
                "yellow",
            )
            continue
        if answer.strip().lower() in ("h", "help", "?"):
            screen.say(_HELP)
            continue
        if answer.strip().lower() == "hand":
            screen.say(f"your hand: {_hand(seen.hand)}", "bold")
            continue
        try:
            return table.apply(_read(answer, seen))
        except _LeaveError:
            raise _LeaveError(table) from None
        except ValueError as error:
            screen.say(f"  {_yours(str(error), seat)}", "yellow")


def play(
    rules: Rules,
    seed: int,
    seat: int,
    lineup: Sequence[Agent],
    screen: _Screen,
    ask: Callable[[str], str],
    challenge_word: str,
    *,
    language: str = "en",
) -> GameState:
    """Play a game with a person at ``seat`` answering through ``ask``; return the last state.

    The narration is in ``language`` (``challenge_word`` is the call it tells).

    Raises:
        CheatRulesError: ``seat`` is not a seat at the table.
        _LeaveError: the person typed quit, or the input ended; it holds the game so far.

    """
    _check_seat(rules, seat)
    screen.say(f"You are seat {seat}. Type h for help.", "bold")

    def over(table: Table) -> None:
        outcome = table.observe(seat).outcome
        won = outcome is not None and seat in outcome.winners
        screen.say("You win!" if won else "You lose.", "bold green" if won else "bold red")

    state = _session(
        deal(rules, seed=seed), seat, lineup, seed, screen, ask, challenge_word, over, language
    )
    assert isinstance(state, GameState)
    return state


def play_match(
    rules: Rules,
    scoring: Scoring,
    seed: int,
    seat: int,
    lineup: Sequence[Agent],
    screen: _Screen,
    ask: Callable[[str], str],
    challenge_word: str,
    *,
    language: str = "en",
) -> Match:
    """Play a match, game after game, with a person at ``seat``; return the finished match.

    Raises:
        CheatRulesError: ``seat`` is not a seat at the table.
        _LeaveError: the person typed quit, or the input ended; it holds the match so far.

    """
    _check_seat(rules, seat)
    screen.say(f"A match: {describe_scoring(scoring)}", "bold")
    screen.say(f"You are seat {seat}. Type h for help.", "bold")

    def over(table: Table) -> None:
        assert isinstance(table, Match)
        game = table.games[-1]
        outcome = game.outcome
        won = outcome is not None and seat in outcome.winners
        screen.say(
            f"You win game {len(table.games)}." if won else f"You lose game {len(table.games)}.",
            "bold green" if won else "bold red",
        )
        for line in match_lines(table):
            screen.say(line, "bold")
        if table.is_over:
            took = seat in table.winners
            screen.say(
                "You take the match!" if took else "You lose the match.",
                "bold green" if took else "bold red",
            )

    match = Match.start(rules, scoring, seed=seed)
    table = _session(match, seat, lineup, seed, screen, ask, challenge_word, over, language)
    assert isinstance(table, Match)
    return table


def match_lines(match: Match) -> list[str]:
    """The match score after a game, and its result once it is over."""
    seats = range(match.rules.players)
    wins = ", ".join(f"seat {seat} {match.wins[seat]}" for seat in seats)
    lines = [f"match score: game wins {wins}"]
    if any(match.penalties):
        lines.append("penalty cards: " + ", ".join(f"seat {s} {match.penalties[s]}" for s in seats))
    if isinstance(match.scoring, FewestLosses):
        lines.append("defeats: " + ", ".join(f"seat {s} {match.losses[s]}" for s in seats))
    if match.is_over:
        winners = match.winners
        who = (
            f"seat {winners[0]} takes the match"
            if len(winners) == 1
            else f"seats {', '.join(map(str, winners))} share the match"
        )
        played = len(match.games)
        lines.append(f"match over: {who} after {played} game{'s' if played != 1 else ''}")
    return lines


def _check_seat(rules: Rules, seat: int) -> None:
    if not 0 <= seat < rules.players:
        raise CheatRulesError(f"--seat must be from 0 to {rules.players - 1}; got {seat}")


def _input(stdin: TextIO, out: TextIO) -> Callable[[str], str]:
    """Ask on ``out`` and read a line of ``stdin``, at most a little over the longest answer."""

    def ask(prompt: str) -> str:
        out.write(prompt)
        out.flush()
        line = stdin.readline(LONGEST_ANSWER + 2)
        if not line:
            raise EOFError
        if not line.endswith("\n") and len(line) > LONGEST_ANSWER:
            rest = line
            while rest and not rest.endswith("\n"):  # drop the rest of an overlong line
                rest = stdin.readline(1 << 16)
        return line.rstrip("\r\n")

    return ask
