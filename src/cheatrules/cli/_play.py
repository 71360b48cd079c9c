"""``cheatrules play``: a person at one seat, answering at the terminal, against bots.

Everything the person reads is in the session's language: the prompts, the
help, the status lines, the messages for a bad answer, the match's lines.
The answers the command reads are the English ones (``c``, ``p``, ``quit``,
``as``...) in every language, and each language adds its own words beside
them (the catalog's ``answer words`` entries): ``comme``, ``как``, ``sair``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import TextIO

from cheatrules._i18n import N_, listed, rank_letter, translations
from cheatrules._i18n import claim as _claim
from cheatrules.actions import Accept, Action, Challenge, Discard, Pass, Play, Refuse
from cheatrules.bots import Agent
from cheatrules.cards import Card, Rank, cards
from cheatrules.deal import deal
from cheatrules.decision import Consent, DiscardOffer, Window
from cheatrules.errors import CheatRulesError, to_player
from cheatrules.events import GameOver
from cheatrules.match import FewestLosses, Match, Scoring
from cheatrules.narration import describe, narrate
from cheatrules.observation import Observation
from cheatrules.rules import Rules
from cheatrules.state import GameState
from cheatrules.variants import asks_belief, challenge_call

from ._options import describe_scoring
from ._screen import _Screen, _style

_HELP = N_(
    """How to answer:
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
)

#: The longest answer read; a play is a few cards, so anything longer is a mistake.
LONGEST_ANSWER = 200
#: The longest message shown for a bad answer (it may quote the answer).
LONGEST_MESSAGE = 160


class _LeaveError(Exception):
    """The player asked to leave, or the input ended: ``table`` is the game (or match) so far."""

    def __init__(self, table: GameState | Match | None = None) -> None:
        super().__init__("the player left")
        self.table = table


# -- the session's words ------------------------------------------------------------------


def _answer_words(kind: str, language: str) -> frozenset[str]:
    """The answers of ``kind`` the session reads: the English ones, and the language's own."""
    return _answers("en")[kind] | _answers(language)[kind]


@functools.cache
def _answers(language: str) -> dict[str, frozenset[str]]:
    """Each kind of answer's words in ``language``'s catalog (for English, the English words)."""
    catalog = translations(language)
    # Translators: the words a player may type for each answer, separated by spaces; the
    # English ones are always read too. Never a rank letter (A 2-10 J Q K T V D R В Д К Т).
    spelled = {
        "leave": catalog.pgettext("answer words: leave the game", "quit exit"),
        "help": catalog.pgettext("answer words: show the help", "h help ?"),
        "hand": catalog.pgettext("answer words: show the hand", "hand"),
        "accept": catalog.pgettext("answer words: let the claim stand", "a accept"),
        "challenge": catalog.pgettext("answer words: challenge the claim", "c cheat challenge !"),
        "earlier": catalog.pgettext("answer words: challenge the earlier claim", "e earlier"),
        "yes": catalog.pgettext("answer words: yes", "y yes"),
        "no": catalog.pgettext("answer words: no", "n no"),
        "refuse": catalog.pgettext("answer words: refuse a pass", "r refuse"),
        "pass": catalog.pgettext("answer words: pass", "p pass"),
        "discard": catalog.pgettext("answer words: set fours aside", "d discard"),
        "as": catalog.pgettext("answer words: between the cards and the rank", "as"),
    }
    return {kind: frozenset(text.lower().split()) for kind, text in spelled.items()}


def _seat(seat: int, language: str) -> str:
    return translations(language).gettext("seat %(seat)s") % {"seat": seat}


def _cards_count(count: int, language: str) -> str:
    return translations(language).ngettext("%(count)s card", "%(count)s cards", count) % {
        "count": count
    }


def _describe(seen: Observation, language: str = "en") -> list[str]:
    catalog = translations(language)
    you = catalog.gettext("%(seat)s (you): %(size)s")
    other = catalog.gettext("%(seat)s: %(size)s")
    sizes = "  ".join(
        (you if seat == seen.seat else other) % {"seat": _seat(seat, language), "size": size}
        for seat, size in enumerate(seen.hand_sizes)
    )
    lines = [catalog.gettext("cards in hand  %(sizes)s") % {"sizes": sizes}]
    table = catalog.gettext("table: %(cards)s") % {"cards": _cards_count(seen.pile_size, language)}
    claim = seen.last_claim
    if claim is not None:
        table += catalog.gettext("; last claim: %(seat)s, %(claim)s") % {
            "seat": _seat(claim.seat, language),
            "claim": _claim(claim.count, claim.rank, language),
        }
    if seen.stock_size:
        table += catalog.gettext("; stock: %(count)s") % {"count": seen.stock_size}
    lines.append(table)
    lines.append(_your_hand(seen.hand, language))
    return lines


def _your_hand(hand: Sequence[Card], language: str) -> str:
    catalog = translations(language)
    groups: dict[Rank, list[str]] = {}
    for card in hand:
        groups.setdefault(card.rank, []).append(str(card))
    shown = "   ".join(" ".join(group) for group in groups.values()) or catalog.gettext("(empty)")
    return catalog.gettext("your hand: %(hand)s") % {"hand": shown}


def _prompt(seen: Observation, language: str = "en") -> str:
    catalog = translations(language)
    decision = seen.decision
    legal = seen.legal_actions()
    if isinstance(decision, Window):
        claim = decision.claim
        values = {
            "seat": _seat(claim.seat, language),
            "claim": _claim(claim.count, claim.rank, language),
        }
        if Challenge(earlier=True) in legal:
            return (
                catalog.gettext(
                    "%(seat)s claims %(claim)s. c = cheat, e = the earlier claim, Enter = accept > "
                )
                % values
            )
        return catalog.gettext("%(seat)s claims %(claim)s. c = cheat, Enter = accept > ") % values
    if isinstance(decision, Consent):
        return catalog.gettext("%(seat)s asks to pass: y = agree, n = refuse > ") % {
            "seat": _seat(decision.passer, language)
        }
    if isinstance(decision, DiscardOffer):
        fours = " ".join(rank_letter(rank, language) for rank in decision.fours)
        return catalog.gettext(
            "you may set aside fours of %(ranks)s: type the ranks, or Enter to keep > "
        ) % {"ranks": fours}
    if len(seen.allowed_ranks) == 1:
        ranks_text = catalog.gettext("as %(rank)s") % {
            "rank": rank_letter(seen.allowed_ranks[0], language)
        }
    else:
        ranks_text = catalog.gettext("naming a rank ('... as 7')")
    extras = []
    if Challenge() in legal:
        extras.append(catalog.gettext("c = challenge"))
    if Pass() in legal:
        extras.append(catalog.gettext("p = pass"))
    if any(isinstance(action, Discard) for action in legal[: len(seen.choices) + 1]):
        extras.append(catalog.gettext("d RANK = set a four aside"))
    if extras:
        return catalog.gettext("your turn: lay cards %(ranks)s (%(extras)s) > ") % {
            "ranks": ranks_text,
            "extras": ", ".join(extras),
        }
    return catalog.gettext("your turn: lay cards %(ranks)s > ") % {"ranks": ranks_text}


def _as_message(language: str) -> str:
    return translations(language).gettext(
        "'as' goes between the cards and the rank you announce, such as '7c 7d as 7' "
        "(the Ace of spades is 'As' or 'A♠')"
    )


def _rank_or_none(text: str) -> Rank | None:
    try:
        return Rank.parse(text)
    except CheatRulesError:
        return None


def _is_card(text: str) -> bool:
    try:
        Card.parse(text)
    except CheatRulesError:
        return False
    return True


def _lay(word: str, seen: Observation, language: str = "en") -> Action:
    """The cards of a lay answer, and the rank it announces.

    A card is always a rank then a suit, so ``As`` is the Ace of spades
    wherever it stands; the word ``as`` (or the language's own, ``como``,
    ``comme``, ``как``) is a word only where exactly one rank follows it at
    the end: ``Ac Ad As``, ``AS as 2`` and ``as as A`` all lay the Ace of
    spades.
    """
    catalog = translations(language)
    tokens = word.replace(",", " ").split()
    _no_look_alike_ten(tokens, language)
    as_words = _answer_words("as", language)
    named: Rank | None = None
    laid = tokens
    if len(tokens) >= 2 and tokens[-2].lower() in as_words:
        named = _rank_or_none(tokens[-1])
        if named is not None:
            laid = tokens[:-2]
            if not laid:
                raise ValueError(_as_message(language))
    if any(token.lower() in as_words and not _is_card(token) for token in laid):
        raise ValueError(_as_message(language))  # a word that cannot be a card, misplaced
    if named is None and len(tokens) == 1:
        rank = _rank_or_none(word)
        if rank is not None:
            raise ValueError(
                catalog.gettext(
                    "%(word)s names a rank: lay cards with their suits, such as '%(card)s' "
                    "(type quit to leave)"
                )
                % {"word": word.strip(), "card": f"{rank}♥"}
            )
    if _ACE_OF_SPADES not in seen.hand and any(token in as_words for token in laid):
        # 'as' in lower case, and no Ace of spades to lay: the word, misplaced ('7c 7d as')
        raise ValueError(_as_message(language))
    played = cards(" ".join(laid))
    if named is None:
        if len(seen.allowed_ranks) != 1:
            raise ValueError(
                catalog.gettext("name the rank you announce: add 'as 7' (or as A, K, ...)")
            )
        named = seen.allowed_ranks[0]
    return Play(played, named)


_ACE_OF_SPADES = Card.parse("A♠")


def _no_look_alike_ten(tokens: Sequence[str], language: str) -> None:
    """Refuse a Latin ``T`` (the ten) where the language writes the Ace with a Cyrillic ``Т``.

    The two look alike, so neither is guessed: the player is asked to write
    the ten as ``10``. Other languages keep the English ``T`` for the ten.

    Raises:
        ValueError: a card or rank written with the Latin ``T``, under such a language.

    """
    if rank_letter(Rank.ACE, language) != "Т":
        return
    for token in tokens:
        if token[:1] in ("T", "t") and (len(token) == 1 or _is_card(token)):
            raise ValueError(
                translations(language).gettext(
                    "%(word)s: the Latin T (the ten) looks like the Cyrillic Т (the Ace); "
                    "write the ten as 10, as in '10♣'"
                )
                % {"word": token}
            )


def _fours(text: str, language: str = "en") -> Discard:
    """The fours an answer sets aside: their ranks (``Q 7``), or a card of each (``Qs 7h``).

    A card names its rank here, so ``Ks`` typed at the prompt sets the
    Kings aside as ``K`` does.
    """
    words = text.replace(",", " ").split()
    _no_look_alike_ten(words, language)
    return Discard(
        tuple(
            Card.parse(word).rank if _rank_or_none(word) is None and _is_card(word) else word
            for word in words
        )
    )


#: The Cyrillic letters a Russian keyboard types on the keys of the Latin ones they look
#: like, read as those in a one-letter answer (never rank letters: those are Т К Д В).
_LOOK_ALIKE = str.maketrans("асеорух", "aceopyx")
#: What a shouted answer may carry around its words.
_PUNCTUATION = "!¡?¿.,;:…\"'«»“”„ "


def _plain(text: str) -> str:
    """An answer as a player means it: lower case, its punctuation and extra spaces aside.

    A one-letter Cyrillic answer that looks like a Latin letter is that letter.

    >>> _plain("  ¡No te creo! "), _plain("Не  верю!"), _plain("С")
    ('no te creo', 'не верю', 'c')
    """
    plain = " ".join(text.lower().strip(_PUNCTUATION).split())
    return plain.translate(_LOOK_ALIKE) if len(plain) == 1 else plain


def _called(plain: str, seen: Observation, language: str) -> bool:
    """Whether ``plain`` is the game's challenge call, in the session's language or English."""
    calls = {challenge_call(seen.rules, language=code) for code in {language, "en"}}
    return bool(plain) and plain in {_plain(call) for call in calls}


def _read(text: str, seen: Observation, language: str = "en") -> Action:
    """The action ``text`` means in the seat's position (raises ValueError for bad input).

    Only ``quit`` or ``exit`` (or the language's own words for leaving) leave:
    a rank letter (``Q``, ``q``) never does.
    """
    catalog = translations(language)
    word = text.strip()
    lowered = word.lower()
    plain = _plain(word)

    def said(*kinds: str) -> bool:
        return any(
            answer in _answer_words(kind, language)
            for answer in (lowered, plain, plain.replace(" ", ""))
            for kind in kinds
        )

    decision = seen.decision
    if said("leave"):
        raise _LeaveError
    if isinstance(decision, Window):
        # Yes and no answer the game's own question: "Cheat?" or "Do you believe?".
        believing = asks_belief(seen.rules)
        if not lowered or said("accept", "yes" if believing else "no"):
            return Accept()
        if said("challenge", "no" if believing else "yes") or _called(plain, seen, language):
            return Challenge()
        if said("earlier"):
            return Challenge(earlier=True)
        raise ValueError(
            catalog.gettext(
                "type c to call cheat, or press Enter to let the claim stand (quit to leave)"
            )
        )
    if isinstance(decision, Consent):
        if not lowered or said("yes", "accept"):
            return Accept()
        if said("no", "refuse"):
            return Refuse()
        raise ValueError(
            catalog.gettext("type y to agree to the pass, or n to refuse it (quit to leave)")
        )
    if isinstance(decision, DiscardOffer):
        return _fours(word, language)
    if said("challenge") or _called(plain, seen, language):
        return Challenge()
    if said("pass"):
        return Pass()
    verb, _, rest = word.partition(" ")
    if verb.lower() in _answer_words("discard", language) and rest:
        return _fours(rest, language)  # fours set aside on the turn, where the rules allow it
    if not word:
        raise ValueError(catalog.gettext("type the cards to lay, such as '7c 7d' (h for help)"))
    return _lay(word, seen, language)


def _excerpt(text: str, longest: int = LONGEST_MESSAGE) -> str:
    """``text``, or as much of it as fits in ``longest`` characters, cut between words."""
    if len(text) <= longest:
        return text
    cut = text[: longest - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(" ,;:") + "…"


def error_text(error: Exception, language: str = "en") -> str:
    """``error``'s message in ``language`` when the error can say it there, else its own text.

    A library error that offers ``describe(language)`` is rendered through
    it; any other keeps its English message.
    """
    if language != "en":
        render = getattr(error, "describe", None)
        if callable(render):
            return str(render(language))
    return str(error)


def _bad_answer(error: Exception, seat: int, language: str) -> str:
    """The message for a refused answer, told to the person at ``seat``.

    An engine refusal is told by its reason alone, in every language (not
    the action written as code).
    """
    if isinstance(error, CheatRulesError):
        return _excerpt(to_player(error, language, seat))
    return _excerpt(error_text(error, language))


Table = GameState | Match


def _games_done(table: Table) -> int:
    return len(table.games) if isinstance(table, Match) else 0


def game_over_line(event: GameOver, number: int, language: str = "en") -> str:
    """The line that ends game ``number`` of a match: "game 2 over: seat 1 wins"."""
    catalog = translations(language)
    if len(event.winners) == 1 and len(event.losers) == 1:
        return catalog.gettext(
            "game %(number)s over: seat %(winner)s wins, seat %(loser)s loses"
        ) % {"number": number, "winner": event.winners[0], "loser": event.losers[0]}
    if len(event.winners) == 1:
        return catalog.gettext("game %(number)s over: seat %(winner)s wins") % {
            "number": number,
            "winner": event.winners[0],
        }
    if len(event.losers) == 1:
        return catalog.gettext("game %(number)s over: seat %(loser)s loses") % {
            "number": number,
            "loser": event.losers[0],
        }
    return catalog.gettext("game %(number)s over: seats %(losers)s lose") % {
        "number": number,
        "losers": listed(map(str, event.losers), language),
    }


def numbered(line: str, events: Sequence[object], number: int | None, language: str) -> str:
    """``line``, or, when it tells the end of game ``number`` of a match, that line numbered."""
    if number is None or not events or not isinstance(events[-1], GameOver):
        return line
    ending = events[-1]
    if line != describe(ending, language):
        return line
    return game_over_line(ending, number, language)


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
        match_number = number if isinstance(table, Match) else None
        for line in lines[told:]:
            line = numbered(line, seen.events, match_number, language)
            screen.say(line, _style(line, language))
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
            status = _describe(seen, language)
            if fresh or status != last_status:
                for line in status:
                    screen.say(line, "bold" if line == status[-1] else "")
                last_status, fresh = status, False
            table = _answer(table, seen, seat, screen, ask, language)
        if isinstance(table, Match) and len(table.games) > done and not table.is_over:
            tell(table.games[-1].observe(seat), done + 1)
            game_over(table)
            told, fresh = 0, True
    tell(table.observe(seat), max(_games_done(table), 1))
    game_over(table)
    return table


def _answer(
    table: Table,
    seen: Observation,
    seat: int,
    screen: _Screen,
    ask: Callable[[str], str],
    language: str = "en",
) -> Table:
    """Ask the person until an answer is legal; the table after it."""
    catalog = translations(language)
    while True:
        try:
            answer = ask(_prompt(seen, language))
        except UnicodeDecodeError:
            screen.say(
                "  " + catalog.gettext("that line was not readable text; try again"), "yellow"
            )
            continue
        except (EOFError, KeyboardInterrupt) as leaving:
            raise _LeaveError(table) from leaving
        if len(answer) > LONGEST_ANSWER:
            screen.say(
                "  "
                + catalog.gettext(
                    "that answer is too long (%(count)s characters or more): %(excerpt)s; "
                    "a play is a few cards, such as '7c 7d'"
                )
                % {"count": f"{len(answer):,}", "excerpt": repr(_excerpt(answer, 40))},
                "yellow",
            )
            continue
        lowered = answer.strip().lower()
        if lowered in _answer_words("help", language):
            screen.say(catalog.gettext(_HELP))
            continue
        if lowered in _answer_words("hand", language):
            screen.say(_your_hand(seen.hand, language), "bold")
            continue
        try:
            return table.apply(_read(answer, seen, language))
        except _LeaveError:
            raise _LeaveError(table) from None
        except ValueError as error:
            screen.say(f"  {_bad_answer(error, seat, language)}", "yellow")


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

    Everything shown is in ``language`` (``challenge_word`` is the call the narration tells).

    Raises:
        CheatRulesError: ``seat`` is not a seat at the table.
        _LeaveError: the person typed quit, or the input ended; it holds the game so far.

    """
    _check_seat(rules, seat)
    catalog = translations(language)
    screen.say(_welcome(seat, language), "bold")

    def over(table: Table) -> None:
        outcome = table.observe(seat).outcome
        won = outcome is not None and seat in outcome.winners
        screen.say(
            catalog.gettext("You win!") if won else catalog.gettext("You lose."),
            "bold green" if won else "bold red",
        )

    state = _session(
        deal(rules, seed=seed), seat, lineup, seed, screen, ask, challenge_word, over, language
    )
    assert isinstance(state, GameState)
    return state


def _welcome(seat: int, language: str) -> str:
    return translations(language).gettext("You are seat %(seat)s. Type h for help.") % {
        "seat": seat
    }


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
    catalog = translations(language)
    screen.say(a_match(scoring, language), "bold")
    screen.say(_welcome(seat, language), "bold")

    def over(table: Table) -> None:
        assert isinstance(table, Match)
        game = table.games[-1]
        outcome = game.outcome
        won = outcome is not None and seat in outcome.winners
        number = {"number": len(table.games)}
        screen.say(
            catalog.gettext("You win game %(number)s.") % number
            if won
            else catalog.gettext("You lose game %(number)s.") % number,
            "bold green" if won else "bold red",
        )
        for line in match_lines(table, language):
            screen.say(line, "bold")
        if table.is_over:
            took = seat in table.winners
            screen.say(
                catalog.gettext("You take the match!")
                if took
                else catalog.gettext("You lose the match."),
                "bold green" if took else "bold red",
            )

    match = Match.start(rules, scoring, seed=seed)
    table = _session(match, seat, lineup, seed, screen, ask, challenge_word, over, language)
    assert isinstance(table, Match)
    return table


def a_match(scoring: Scoring, language: str = "en") -> str:
    """The line that opens a match: "A match: the first seat to win 3 games takes the match."."""
    return translations(language).gettext("A match: %(scoring)s") % {
        "scoring": describe_scoring(scoring, language)
    }


def match_lines(match: Match, language: str = "en") -> list[str]:
    """The match score after a game, and its result once it is over, in ``language``."""
    catalog = translations(language)
    seats = range(match.rules.players)

    def each(values: Sequence[int]) -> str:
        return ", ".join(
            catalog.gettext("%(seat)s %(value)s")
            % {"seat": _seat(seat, language), "value": values[seat]}
            for seat in seats
        )

    lines = [catalog.gettext("match score: game wins %(wins)s") % {"wins": each(match.wins)}]
    if any(match.penalties):
        lines.append(catalog.gettext("penalty cards: %(seats)s") % {"seats": each(match.penalties)})
    if isinstance(match.scoring, FewestLosses):
        lines.append(catalog.gettext("defeats: %(seats)s") % {"seats": each(match.losses)})
    if match.is_over:
        winners = match.winners
        played = len(match.games)
        if len(winners) == 1:
            lines.append(
                catalog.ngettext(
                    "match over: %(seat)s takes the match after %(games)s game",
                    "match over: %(seat)s takes the match after %(games)s games",
                    played,
                )
                % {"seat": _seat(winners[0], language), "games": played}
            )
        else:
            lines.append(
                catalog.ngettext(
                    "match over: seats %(seats)s share the match after %(games)s game",
                    "match over: seats %(seats)s share the match after %(games)s games",
                    played,
                )
                % {"seats": ", ".join(map(str, winners)), "games": played}
            )
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
