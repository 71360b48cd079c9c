"""The tables a server runs: one game state per table, one observation per seat.

A :class:`Room` holds one table: its :class:`~cheatrules.GameState`, its
settings and tokens, the connections watching it, the bots in its seats and
the real-time challenge window. Every change happens on the server's event
loop without awaiting in the middle, so a table is never seen half-changed;
what is sent goes through one queue per connection, in order.

The challenge window. The engine asks the opponents of a claim one at a
time (:class:`~cheatrules.Window` decisions). A real-time table asks them
all at once instead: when a window decision comes up, every opponent may
answer (call "Cheat!" or accept) for ``window`` seconds; bots answer after
the bot delay. The window closes as soon as its result is known (every
seat asked before some caller has accepted, or everyone has answered) or
when the time runs out (a seat that did not answer accepts), and the
answers are applied in the engine's order with
:func:`cheatrules.realtime.settle_window`: the first caller clockwise from
the declarer challenges.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import attrs

from cheatrules._i18n import translations
from cheatrules.actions import Accept, Action, Challenge, parse_action
from cheatrules.bots import Agent
from cheatrules.cli import BOTS
from cheatrules.deal import deal
from cheatrules.decision import Window
from cheatrules.errors import CheatRulesError, IllegalActionError, RecordError, RulesError
from cheatrules.narration import Narrator
from cheatrules.observation import Observation
from cheatrules.realtime import settle_window
from cheatrules.records import dumps
from cheatrules.rules import HOUSE_FAMILIES, NAMED_POLICIES
from cheatrules.state import GameState
from cheatrules.variants import VARIANTS, Variant, challenge_call, rules_for, variant

from . import protocol, storage
from .limits import Limits
from .postgres import PostgresStore
from .shared import Shared
from .words import N_, WordedError, bot_words, house_rule_words, told

__all__ = ["Hall", "RefusedActionError", "Room", "TableError"]

_log = logging.getLogger("cheatrules.web")

#: The most connections one table takes at once.
MAX_CONNECTIONS = 64
#: Seconds before a change the store refused is tried again (a window's close, a bot's move).
_RETRY = 1.0


class TableError(WordedError):
    """A request the tables cannot grant: bad settings, an unknown table or token.

    ``str(error)`` is the English message; ``error.describe(language)`` tells it
    in a reader's language.
    """


#: The refusal of an answer from a seat the window does not ask.
_NOT_ASKED = N_(
    "seat %(seat)s cannot answer this claim: only seats %(askers)s may call %(call)s or accept"
)


#: The refusal of an action that lost a race: another process kept a change to the table first.
_MOVED_ON = N_(
    "another seat acted first, so your action was not taken; decide again on the table as it"
    " stands now"
)


class RefusedActionError(WordedError, IllegalActionError):
    """An action the table refuses before the engine sees it: closed, over, or not this seat's turn.

    An :class:`~cheatrules.errors.IllegalActionError` that can tell itself in
    a seat's language (``describe``).
    """


class Sender(Protocol):
    """What a room needs of a connection: a place to put the text it sends, and its language.

    ``version`` is the protocol version the connection speaks, and ``sent``
    the number of log lines it has been sent (a version 2 view sends the
    rest).
    """

    role: str
    seat: int | None
    language: str
    version: int
    sent: int

    def send(self, text: str) -> None:
        """Queue ``text`` to be sent, in order."""


class _Told:
    """One reader's narrated log (a seat's, or the public one) in one language, told as it grows."""

    def __init__(self, narrator: Narrator) -> None:
        self.narrator = narrator
        self.lines: list[str] = []


@attrs.define
class _RealTimeWindow:
    """The challenge window open now: who may answer, and what each answered."""

    askers: tuple[int, ...]
    seconds: float
    deadline: float
    answers: dict[int, Action] = attrs.Factory(dict)

    def public(self, now: float, claim: dict[str, Any] | None) -> dict[str, Any]:
        return {
            "claim": claim,
            "askers": list(self.askers),
            "answered": sorted(self.answers),
            "seconds": self.seconds,
            "remaining": max(0.0, round(self.deadline - now, 3)),
        }

    def settled(self) -> bool:
        """Whether the answers so far decide the window: nobody still to answer matters."""
        for seat in self.askers:
            answer = self.answers.get(seat)
            if answer is None:
                return False
            if isinstance(answer, Challenge):
                return True
        return True


def _same(given: str, known: str) -> bool:
    """Compare tokens in constant time (any text: a client may send non-ASCII)."""
    return secrets.compare_digest(given.encode("utf-8"), known.encode("utf-8"))


def _token() -> str:
    return secrets.token_urlsafe(24)


def _options(players: object, options: object) -> tuple[int, dict[str, Any]]:
    if type(players) is not int:
        raise TableError(
            N_("players must be a whole number; got %(players)s"), players=repr(players)
        )
    if not isinstance(options, dict):
        raise TableError(
            N_('"options" must be a JSON object of house rules, such as %(example)s'),
            example='{"jokers": true}',
        )
    for name, value in options.items():
        if name in ("game", "players", "seed"):
            raise TableError(N_("%(name)s is not a house rule"), name=name)
        if not isinstance(value, (bool, int, str)):
            raise TableError(
                N_("house rule %(name)s must be true, false, a number or a name"), name=name
            )
    return players, options


def _seats(seats: object, players: int) -> list[dict[str, Any]]:
    if seats is None:
        return [{"kind": "human"}] * players
    if not isinstance(seats, list) or len(seats) != players:
        raise TableError(
            N_('"seats" must list each of the %(players)s seats: "human" or a bot (%(bots)s)'),
            players=players,
            bots=", ".join(BOTS),
        )
    made: list[dict[str, Any]] = []
    for seat in seats:
        if not isinstance(seat, str):
            raise TableError(
                N_("seat %(seat)s must be 'human' or a bot's name (%(bots)s)"),
                seat=len(made),
                bots=", ".join(BOTS),
            )
        if seat == "human":
            made.append({"kind": "human"})
        elif seat in BOTS:
            made.append({"kind": "bot", "bot": seat})
        else:
            raise TableError(
                N_("seat %(seat)s: %(kind)s is neither 'human' nor a bot (%(bots)s)"),
                seat=len(made),
                kind=repr(seat),
                bots=", ".join(BOTS),
            )
    return made


class Room:
    """One table: a game state, its seats, its connections and its window."""

    def __init__(self, hall: Hall, stored: storage.Stored, state: GameState) -> None:
        self.hall = hall
        self.table_id = stored.table_id
        self.settings = _checked_settings(stored.settings, state, hall)
        self.tokens = _checked_tokens(stored.tokens, self.settings)
        self.closed = False
        self.state = state
        #: The number of actions of the game, its version in the store (``state.actions``
        #: counts them afresh at every call).
        self.version = len(state.actions)
        self.call = challenge_call(state.rules)  # in English; call_in(language) for a seat
        self.bots: dict[int, Agent] = {}
        self.rngs: dict[int, random.Random] = {}
        for seat, kind in enumerate(self.settings["seats"]):
            if kind["kind"] == "bot":
                self.bots[seat] = BOTS[kind["bot"]]()
                # Seeded tables (tests, benchmarks) play the same game every time.
                seeded = hall.seeds is not None
                self.rngs[seat] = random.Random(
                    f"{state.seed}/{seat}" if seeded else secrets.randbits(64)
                )
        self.connections: list[Sender] = []
        self.told: dict[tuple[int | None, str], _Told] = {}
        self.window: _RealTimeWindow | None = None
        self.epoch = 0  # bumped at every change: a timer set before a change is stale
        self.timers: list[asyncio.TimerHandle] = []
        self.thinking: set[asyncio.Task[None]] = set()  # bots choosing in worker threads
        self.changed_at = time.time()

    # -- who is who ---------------------------------------------------------------

    def role_of(self, token: str) -> tuple[str, int | None]:
        """``("seat", k)``, ``("spectator", None)`` or ``("host", None)`` for ``token``.

        Raises:
            TableError: the token is none of this table's.

        """
        for seat, known in self.tokens["seats"].items():
            if _same(token, known):
                return "seat", int(seat)
        if _same(token, self.tokens["spectator"]):
            return "spectator", None
        if _same(token, self.tokens["host"]):
            return "host", None
        raise TableError(N_("this link's token is not one of this table's"))

    def is_host(self, token: str) -> bool:
        """Whether ``token`` is this table's host token."""
        return _same(token, self.tokens["host"])

    def call_in(self, language: str) -> str:
        """What a challenger calls out at this table, in ``language``."""
        return challenge_call(self.state.rules, language=language)

    def describe(self, language: str = "en") -> dict[str, Any]:
        """The table's public settings, for the ``welcome`` message, worded in ``language``."""
        return {
            "id": self.table_id,
            "game": self.state.rules.name,
            "title": variant(self.state.rules.name).title_in(language),
            "call": self.call_in(language),
            "players": self.state.players,
            "seats": [
                {"seat": seat, "kind": kind["kind"], "bot": kind.get("bot"), "name": name}
                for (seat, kind), name in zip(
                    enumerate(self.settings["seats"]), self.names(), strict=True
                )
            ],
            "options": self.settings["options"],
            "window": self.settings["window"],
            "bot_delay": self.settings["bot_delay"],
            "closed": self.closed,
        }

    # -- what is sent -------------------------------------------------------------

    def _window_json(self, language: str) -> dict[str, Any] | None:
        window = self.window
        if window is None:
            return None
        decision = self.state.decision
        claim = decision.claim if isinstance(decision, Window) else None
        shown = protocol.claim_json(claim, language)
        return window.public(asyncio.get_running_loop().time(), shown)

    def answers_for(self, seat: int) -> list[str]:
        """The answers ``seat`` may give in the open window (none once it answered)."""
        window = self.window
        decision = self.state.decision
        if window is None or seat not in window.askers or seat in window.answers:
            return []
        assert isinstance(decision, Window)
        return [action.text() for action in attrs.evolve(decision, seat=seat).choices]

    def lines(self, seat: int | None, language: str = "en") -> list[str]:
        """The narrated log ``seat`` reads (the public one for ``None``), in ``language``.

        Each reader's narration is kept and told on from where it stopped, so
        an update narrates only the events it adds.
        """
        key = (seat, language)
        told = self.told.get(key)
        if told is None:
            narrator = Narrator(self.call_in(language), language, translations(language))
            told = self.told[key] = _Told(narrator)
        state = self.state
        events = state.observe(seat).events if seat is not None else state.events
        heard = told.narrator.heard
        if heard < len(events):
            new = events[heard:]
            told.lines += told.narrator.extend(
                new if seat is not None else protocol.public_events(new)
            )
        return told.lines

    def view(self, role: str, seat: int | None, language: str = "en", since: int = 0) -> str:
        """The ``view`` message for a seat (``role == "seat"``) or a spectator, in ``language``.

        Its log holds the narrated lines from line ``since`` on (all of them
        for 0, or where ``since`` is past the log's end).
        """
        window = self._window_json(language)
        state = self.state
        call = self.call_in(language)
        seat = seat if role == "seat" else None
        lines = self.lines(seat, language)
        since = since if 0 <= since <= len(lines) else 0
        log = lines[since:]
        if seat is not None:
            fields = protocol.seat_view(
                state.observe(seat),
                call=call,
                window=window,
                answers=self.answers_for(seat),
                log=log,
                log_from=since,
                language=language,
            )
        else:
            fields = protocol.spectator_view(
                state.table,
                state.decision,
                state.events,
                call=call,
                window=window,
                log=log,
                log_from=since,
                language=language,
            )
        return protocol.message(
            "view",
            table=self.table_id,
            n=self.version,
            at=self.changed_at,
            closed=self.closed,
            names=self.names(),
            **fields,
        )

    def names(self) -> list[str | None]:
        """The name each seat gave when it joined (``None`` where it gave none)."""
        given = self.settings.get("names", {})
        return [given.get(str(seat)) for seat in range(self.state.players)]

    def send_view(self, connection: Sender, made: dict[tuple[Any, ...], str] | None = None) -> None:
        """Send ``connection`` its view: the log lines it has not been sent (all, in version 1)."""
        since = connection.sent if connection.version >= 2 else 0
        key = (connection.role, connection.seat, connection.language, since)
        text = made.get(key) if made is not None else None
        if text is None:
            text = self.view(connection.role, connection.seat, connection.language, since)
            if made is not None:
                made[key] = text
        connection.send(text)
        seat = connection.seat if connection.role == "seat" else None
        connection.sent = len(self.lines(seat, connection.language))

    def broadcast(self) -> None:
        """Send every connection its own view of the table as it stands, in its own language."""
        made: dict[tuple[Any, ...], str] = {}
        for connection in list(self.connections):
            self.send_view(connection, made)

    # -- what is done -------------------------------------------------------------

    def act(self, seat: int, action: Action) -> None:
        """``seat`` takes ``action``: checked by the engine, applied, saved and sent.

        Raises:
            IllegalActionError: the table is closed, it is not this seat's
                decision, or the engine refuses the action (its message).

        """
        if self.closed:
            raise RefusedActionError(N_("this table is closed"))
        started = time.time()
        window = self.window
        if window is not None:
            self._answer(seat, action, started)
            return
        state = self.state
        if state.is_over:
            raise RefusedActionError(N_("the game is over"))
        if state.to_move != seat:
            raise RefusedActionError(
                N_("it is not your decision: seat %(to_move)s decides now"),
                to_move=state.to_move,
            )
        try:
            self._change(state.apply(action), started)
        except storage.StoreConflictError:
            raise RefusedActionError(_MOVED_ON) from None

    def _answer(self, seat: int, action: Action, started: float) -> None:
        window = self.window
        assert window is not None
        if seat not in window.askers:
            raise RefusedActionError(
                _NOT_ASKED,
                seat=seat,
                askers=" ".join(map(str, window.askers)),
                call=lambda language: repr(self.call_in(language)),
            )
        if seat in window.answers:
            raise RefusedActionError(N_("seat %(seat)s has already answered this claim"), seat=seat)
        allowed = self.answers_for(seat)
        if action.text() not in allowed:
            raise RefusedActionError(
                N_("the challenge window is open: answer %(answers)s"),
                answers=functools.partial(_either, tuple(map(repr, allowed))),
            )
        shared = self.hall.shared
        if shared is not None:
            self._keep_answer(shared, seat, action)
        window.answers[seat] = action
        self.changed_at = started
        # Only the process that runs the table closes windows (always, alone on its store).
        if window.settled() and self.hall.runs(self.table_id):
            self._close_window(started)
        else:
            self.broadcast()

    def _keep_answer(self, shared: Shared, seat: int, action: Action) -> None:
        """Keep an answer in the shared store, where every process's window mirrors it.

        Raises:
            RefusedActionError: the window closed meanwhile, or the seat
                answered through another process (the table is caught up).
            StoreError: the store did not keep it.

        """
        try:
            kept = shared.store.answer(self.table_id, self.version, seat, action.text())
        except storage.StoreConflictError:
            shared.catch_up(self)
            raise RefusedActionError(_MOVED_ON) from None
        if not kept:
            shared.catch_up(self)
            raise RefusedActionError(N_("seat %(seat)s has already answered this claim"), seat=seat)

    def _settled(self, askers: tuple[int, ...], answers: Mapping[int, Action]) -> GameState:
        """The state after the window: the answers applied in the engine's order."""
        callers = [seat for seat in askers if isinstance(answers.get(seat), Challenge)]
        state = self.state
        if callers and answers[callers[0]] == Challenge(earlier=True):
            # The first caller challenged the claim beneath: everyone asked before
            # it accepts, then its own call is applied.
            while state.to_move != callers[0]:
                state = state.apply(Accept())
            state = state.apply(answers[callers[0]])
        else:
            state = settle_window(state, callers)
        return state

    def _close_window(self, started: float | None = None) -> None:
        window = self.window
        assert window is not None
        started = time.time() if started is None else started
        shared = self.hall.shared
        if shared is None:
            self._change(self._settled(window.askers, window.answers), started)
            return
        # Shared: the answers every process kept decide, with the table's row locked.
        done = self.version
        settled: list[GameState] = []

        def decide(kept: Mapping[int, str]) -> list[str]:
            answers = {seat: parse_action(text) for seat, text in kept.items()}
            settled.append(self._settled(window.askers, answers))
            return [action.text() for action in settled[-1].actions_after(self.state)]

        known = {seat: action.text() for seat, action in window.answers.items()}
        try:
            kept = shared.store.settle(self.table_id, done, decide, known=known)
        except storage.StoreConflictError:  # another process closed it first
            shared.catch_up(self)
            return
        self._show(settled[-1], len(kept), started)

    def _change(self, state: GameState, started: float) -> None:
        """Save the actions that lead to ``state``, then show it: nothing is shown unsaved.

        Raises:
            StoreConflictError: another process changed the table first; the
                table is caught up with it (a shared store).
            StoreError: the store refused the actions; the table is as it was.

        """
        done = self.version
        try:
            added = [action.text() for action in state.actions_after(self.state)]
            self.hall.store.append(self.table_id, done, added)
        except storage.StoreConflictError:
            if self.hall.shared is not None:
                self.hall.shared.catch_up(self)
            raise
        self._show(state, len(added), started)

    def _show(self, state: GameState, kept: int, started: float) -> None:
        """Make ``state`` the table's, set its timers and send it to everyone.

        ``state`` is kept already: ``kept`` actions past the table's.
        """
        self.version += kept
        self.state = state
        self.window = None
        self.epoch += 1
        self.changed_at = started
        self.schedule()
        self.broadcast()

    def apply_kept(self, actions: Sequence[str]) -> None:
        """Apply actions another process kept (legal where they were made), then show them.

        Raises:
            CheatRulesError: an action does not read, or is not legal here.

        """
        state = self.state
        for text in actions:
            state = state.apply(parse_action(text))
        self._show(state, len(actions), time.time())

    def mirror(self, answers: Mapping[int, str]) -> None:
        """Take the open window's answers kept by any process; close it if they decide it here.

        Only the process that runs the table closes its windows: when the
        answers decide it, when its time runs out, or when it takes the
        table over; so two processes never race to close one window.
        """
        window = self.window
        if window is None:
            return
        new = {
            seat: parse_action(text)
            for seat, text in answers.items()
            if seat in window.askers and seat not in window.answers
        }
        if not new:
            return
        window.answers.update(new)
        if not self._close_if_settled():
            self.broadcast()

    def _close_if_settled(self) -> bool:
        """Close the window if its answers decide it and this process runs the table."""
        window = self.window
        if window is None or not window.settled() or not self.hall.runs(self.table_id):
            return False
        try:
            self._close_window()
        except storage.StoreError as error:
            _log.error("table %s: %s; trying again", self.table_id, error)
            self._later(_RETRY, self._close_window)
        return True

    def take_over(self) -> None:
        """Run the table's timers and bots here, from now (its last runner stopped).

        A window its answers decided already is closed at once; another
        gets its full time again.
        """
        window = self.window
        if window is not None:
            if self._close_if_settled():
                return
            window.deadline = asyncio.get_running_loop().time() + window.seconds
        self.run_timers()

    def rename(self, seat: int, name: str) -> None:
        """Give ``seat`` the name its player chose (saved, then shown to everyone).

        Raises:
            StoreError: the store refused it; the seat keeps its name.

        """
        names = dict(self.settings.get("names", {}))
        if names.get(str(seat)) == name:
            return
        names[str(seat)] = name
        settings = {**self.settings, "names": names}
        self.hall.store.update(self.table_id, settings)
        self.settings = settings
        self.broadcast()

    def close(self, reason: str = N_("the host closed the table")) -> None:
        """Close the table (the host's action, or its expiry): no more actions; all are told."""
        self.closed = True
        self.window = None
        self.epoch += 1
        for timer in self.timers:
            timer.cancel()
        self.timers.clear()
        for connection in list(self.connections):
            told_reason = WordedError(reason).describe(connection.language)
            connection.send(protocol.message("closed", table=self.table_id, reason=told_reason))

    # -- bots and timers ----------------------------------------------------------

    def _later(self, delay: float, callback: Callable[[], None]) -> None:
        """Call ``callback`` after ``delay`` seconds, unless the table changed meanwhile.

        A change the store refused (a full disk) is tried again a second
        later, so a window closed or a bot's move is never lost for good.
        """
        epoch = self.epoch

        def fire() -> None:
            if self.epoch == epoch and not self.closed:
                try:
                    callback()
                except storage.StoreConflictError:
                    pass  # another process changed the table first: caught up already
                except storage.StoreError as error:
                    _log.error("table %s: %s; trying again", self.table_id, error)
                    self._later(_RETRY, callback)

        loop = asyncio.get_running_loop()
        self.timers = [timer for timer in self.timers if not timer.cancelled()]
        self.timers.append(loop.call_later(delay, fire))

    def schedule(self) -> None:
        """Open the window, or let a bot act, as the decision now asks."""
        state = self.state
        decision = state.decision
        if not (self.closed or state.is_over) and isinstance(decision, Window):
            seconds = float(self.settings["window"])
            deadline = asyncio.get_running_loop().time() + seconds
            self.window = _RealTimeWindow((decision.seat, *decision.askers), seconds, deadline)
        self.run_timers()

    def run_timers(self) -> None:
        """Set the window's and the bots' timers, where this process runs the table."""
        for timer in self.timers:
            timer.cancel()
        self.timers.clear()
        state = self.state
        if self.closed or state.is_over or not self.hall.runs(self.table_id):
            return
        delay = float(self.settings["bot_delay"])
        window = self.window
        if window is not None:
            left = window.deadline - asyncio.get_running_loop().time()
            self._later(max(0.0, left), self._close_window)
            for asker in window.askers:
                if asker in self.bots and asker not in window.answers:
                    self._later(delay, functools.partial(self._bot_answers, asker))
            return
        seat = state.decision.to_move
        if seat is not None and seat in self.bots:
            self._later(delay, functools.partial(self._bot_acts, seat))

    def _bot_acts(self, seat: int) -> None:
        self._think(seat, self.state.observe(seat), lambda action: self.act(seat, action))

    def _bot_answers(self, seat: int) -> None:
        window = self.window
        if window is None or seat in window.answers:
            return
        # The bot is asked as the engine would ask it: after the seats before it accepted.
        state = self.state
        while state.to_move != seat:
            state = state.apply(Accept())

        def answer(action: Action) -> None:
            if self.window is window and seat not in window.answers:
                self._answer(seat, action, time.time())

        self._think(seat, state.observe(seat), answer)

    def _think(self, seat: int, seen: Observation, then: Callable[[Action], None]) -> None:
        """Let the bot in ``seat`` choose in a worker thread, then act on the loop.

        A bot that thinks long (the sampling bot) so leaves the other tables'
        messages flowing; its choice is dropped if the table changed meanwhile.
        """
        epoch = self.epoch

        async def run() -> None:
            action = await asyncio.to_thread(self.bots[seat].act, seen, self.rngs[seat])
            if self.epoch != epoch or self.closed:
                return
            try:
                then(action)
            except storage.StoreConflictError:
                pass  # another process changed the table first: caught up already
            except storage.StoreError as error:  # not saved: the bot is asked again
                _log.error("table %s: %s; trying again", self.table_id, error)
                self._later(_RETRY, self.schedule)
            except CheatRulesError as error:  # a bot's mistake must not stop the table unseen
                if self.epoch != epoch:
                    return  # refused because the table moved on meanwhile (a shared store)
                _log.error("table %s: the bot in seat %s: %s", self.table_id, seat, error)

        task = asyncio.get_running_loop().create_task(run())
        self.thinking.add(task)
        task.add_done_callback(self.thinking.discard)


class Hall:
    """Every table a server runs, and where they are kept.

    Args:
        data: the folder whose database keeps the tables (created if
            missing), or ``None`` to keep them in memory only.
        bot_delay: seconds a bot waits before it acts.
        window: seconds the challenge window stays open after a claim.
        seed: deal every table from this seed's sequence (for tests and
            benchmarks: anyone who knows it knows the hands); ``None`` deals
            from the system's randomness.
        limits: the server's bounds (:class:`~cheatrules.web.limits.Limits`):
            here, how many tables it holds and when they expire (``None``: the defaults).
        store: where the tables are kept, in place of ``data``'s database.
            A :class:`~cheatrules.web.postgres.PostgresStore` is shared with
            other processes: the hall follows it (:class:`~cheatrules.web.shared.Shared`).

    Raises:
        TableError: a delay or window out of range.
        StoreError: the database cannot be opened.

    """

    def __init__(
        self,
        data: Path | str | None = None,
        *,
        bot_delay: float = 1.0,
        window: float = 5.0,
        seed: int | None = None,
        limits: Limits | None = None,
        store: storage.Store | None = None,
    ) -> None:
        if not 0 <= bot_delay <= 60:
            raise TableError(f"the bot delay must be 0 to 60 seconds; got {bot_delay}")
        if not 0 < window <= 120:
            raise TableError(
                f"the challenge window must be more than 0 and at most 120 seconds; got {window}"
            )
        self.bot_delay = bot_delay
        self.window = window
        self.limits = Limits() if limits is None else limits
        self.seeds = random.Random(seed) if seed is not None else None
        self.rooms: dict[str, Room] = {}
        self.skipped: list[str] = []
        if store is None:
            store = storage.MemoryStore() if data is None else storage.SQLiteStore(data)
        self.store: storage.Store = store
        #: The link to the processes that share the store (``None``: this process alone).
        self.shared = Shared(self, store) if isinstance(store, PostgresStore) else None
        self._load()

    def _load(self) -> None:
        """The tables the store keeps; a table that will not load is skipped with a warning."""
        for stored in self.store.load():
            if isinstance(stored, RecordError):
                self.skipped.append(str(stored))
                continue
            try:
                room = self._room_of(stored)
            except (CheatRulesError, KeyError, TypeError, ValueError) as error:
                self.skipped.append(f"table {stored.table_id}: {error}")
                continue
            self.rooms[stored.table_id] = room
        for reason in self.skipped:
            _log.warning("a table was not reloaded: %s", reason)

    def _room_of(self, stored: storage.Stored) -> Room:
        """The room of a kept table, as it was last changed.

        Raises:
            CheatRulesError: the table does not load (a bad record or action).
            KeyError: its settings lack a field.

        """
        room = Room(self, stored, stored.game())
        room.changed_at = stored.changed or room.changed_at
        return room

    def runs(self, table_id: str) -> bool:
        """Whether this process runs the table's timers and bots (always, alone on its store)."""
        return self.shared is None or self.shared.runs(table_id)

    def load(self, table_id: str) -> Room | None:
        """Read a table another process made from the shared store; ``None`` if it will not read.

        Raises:
            StoreError: the database did not answer.

        """
        if self.shared is None:
            return None
        stored = self.shared.store.table(table_id)
        if not isinstance(stored, storage.Stored):
            return None
        try:
            room = self._room_of(stored)
        except (CheatRulesError, KeyError, TypeError, ValueError) as error:
            _log.warning("table %s was not loaded: %s", table_id, error)
            return None
        self.rooms[table_id] = room
        self.shared.claim([table_id])
        room.schedule()
        return room

    def refresh(self, table_id: str) -> None:
        """Read a table's settings again (another process changed a seat's name), and show them.

        Raises:
            StoreError: the database did not answer.

        """
        room = self.rooms.get(table_id)
        if room is None or self.shared is None:
            return
        stored = self.shared.store.table(table_id)
        if not isinstance(stored, storage.Stored):
            return
        try:
            room.settings = _checked_settings(stored.settings, room.state, self)
        except RecordError as error:
            _log.warning("table %s kept its settings: %s", table_id, error)
            return
        room.broadcast()

    def forget(self, table_id: str) -> None:
        """Close a table another process removed (closed or expired): its connections are told."""
        room = self.rooms.pop(table_id, None)
        if room is not None:
            room.close(N_("the table was closed"))
        if self.shared is not None:
            self.shared.release(table_id)

    def start(self) -> None:
        """Set every loaded table going (bots act, windows open); call on the event loop.

        With a shared store, the hall starts following it, and runs the
        tables no other process runs.
        """
        if self.shared is not None:
            self.shared.start()
        for room in self.rooms.values():
            room.schedule()

    async def stop(self) -> None:
        """Stop following a shared store, letting its tables go to the other processes."""
        if self.shared is not None:
            await self.shared.stop()

    def create(
        self,
        game: object = "english",
        players: object = 4,
        options: object = None,
        seats: object = None,
    ) -> Room:
        """Deal a new table, kept in the store before it is answered.

        Args:
            game: a game's name (``"english"``, ``"verish"``...).
            players: the number of seats.
            options: house rules by name (``{"jokers": True, "window": "extended"}``).
            seats: for each seat, ``"human"`` or a bot's name; ``None`` for all human.

        Raises:
            TableError: the settings make no game (the message says why), or
                the server holds too many tables.
            StoreError: the store could not keep it (nothing was made).

        """
        self.expire(time.time())
        if len(self.rooms) >= self.limits.tables:
            raise TableError(
                N_("this server holds %(count)s tables already; try again later"),
                count=self.limits.tables,
            )
        if not isinstance(game, str):
            raise TableError(N_("game must be a game's name; got %(game)s"), game=repr(game))
        count, house = _options(players, {} if options is None else options)
        try:
            rules = rules_for(game, count, **house)
        except RulesError as error:
            # The rules' own message, in a language once the engine's errors can tell it.
            raise TableError("%(reason)s", reason=functools.partial(told, error)) from None
        made = _seats(seats, rules.players)
        seed = self.seeds.randrange(2**63) if self.seeds is not None else secrets.randbits(63)
        state = deal(rules, seed=seed)
        table_id = secrets.token_urlsafe(9)
        tokens = {
            "host": _token(),
            "spectator": _token(),
            "seats": {
                str(seat): _token() for seat, kind in enumerate(made) if kind["kind"] == "human"
            },
        }
        settings = {
            "game": rules.name,
            "players": rules.players,
            "options": house,
            "seats": made,
            "window": self.window,
            "bot_delay": self.bot_delay,
            "names": {},
        }
        stored = storage.Stored(table_id, settings, tokens, dumps(state), changed=time.time())
        room = Room(self, stored, state)
        self.store.create(stored)
        self.rooms[table_id] = room
        if self.shared is not None:
            self.shared.claim([table_id])
        room.schedule()
        return room

    def room(self, table_id: str) -> Room:
        """The table ``table_id`` (read from a shared store if this process does not hold it).

        Raises:
            TableError: no open table has that id.
            StoreError: the shared store did not answer.

        """
        room = self.rooms.get(table_id) if isinstance(table_id, str) else None
        if room is None and self.shared is not None and storage.valid_id(table_id):
            room = self.load(table_id)  # made by another process while this one did not hear
        if room is None:
            raise TableError(N_("no open table %(table)s"), table=repr(table_id))
        return room

    def close(self, table_id: str, host: str) -> None:
        """Close a table: only with its host token.

        Raises:
            TableError: no such table, or ``host`` is not its host token.

        """
        room = self.room(table_id)
        if not isinstance(host, str) or room.role_of(host)[0] != "host":
            raise TableError(N_("only the table's host token may close it"))
        self._drop(room, N_("the host closed the table"))

    def _drop(self, room: Room, reason: str) -> None:
        room.close(reason)
        self.rooms.pop(room.table_id, None)
        self.store.remove(room.table_id)
        if self.shared is not None:
            self.shared.release(room.table_id)

    def expire(self, now: float) -> list[str]:
        """Let go of the tables idle too long, or finished long enough ago; their ids.

        A table expires when nobody acted at it for
        :attr:`~cheatrules.web.limits.Limits.idle_seconds`, or when its game
        ended :attr:`~cheatrules.web.limits.Limits.finished_seconds` ago.
        Its connections are told, and the store forgets it.
        """
        limits = self.limits
        gone = [
            room
            for room in self.rooms.values()
            if now - room.changed_at
            >= (limits.finished_seconds if room.state.is_over else limits.idle_seconds)
        ]
        for room in gone:
            self._drop(room, N_("the table has expired"))
        return [room.table_id for room in gone]


def _checked_settings(settings: dict[str, Any], state: GameState, hall: Hall) -> dict[str, Any]:
    """A kept table's settings, checked against its game; a missing delay or window is the hall's.

    Raises:
        RecordError: the settings do not fit the game (the message says what).

    """
    seats = settings.get("seats")
    if not isinstance(seats, list) or len(seats) != state.players:
        raise RecordError(f"its settings must list its {state.players} seats")
    for seat in seats:
        kind = seat.get("kind") if isinstance(seat, dict) else None
        if kind == "bot" and seat.get("bot") not in BOTS:
            raise RecordError(f"it names a bot this server lacks: {seat.get('bot')!r}")
        if kind not in ("human", "bot"):
            raise RecordError(f"a seat must be a person or a bot; got {seat!r}")
    checked = dict(settings)
    for name, default, low, high in (
        ("bot_delay", hall.bot_delay, 0.0, 60.0),
        ("window", hall.window, 0.001, 120.0),
    ):
        value = checked.setdefault(name, default)
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not low <= value <= high
        ):
            raise RecordError(f"its {name} must be a number from {low} to {high}; got {value!r}")
    names = checked.setdefault("names", {})
    if not isinstance(names, dict) or not all(isinstance(n, str) for n in names.values()):
        raise RecordError("its seats' names must be a JSON object of texts")
    return checked


def _checked_tokens(tokens: dict[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    """A kept table's tokens: a host's, a spectators', and one per person's seat.

    Raises:
        RecordError: a token is missing or not text.

    """
    seats = tokens.get("seats")
    people = {str(seat) for seat, kind in enumerate(settings["seats"]) if kind["kind"] == "human"}
    if (
        not isinstance(tokens.get("host"), str)
        or not isinstance(tokens.get("spectator"), str)
        or not isinstance(seats, dict)
        or set(seats) != people
        or not all(isinstance(token, str) and token for token in seats.values())
    ):
        raise RecordError("its tokens must be a host's, a spectators' and one per person's seat")
    return tokens


def _either(answers: tuple[str, ...], language: str) -> str:
    """``'challenge' or 'accept'``: the answers a seat may give, in ``language``."""
    if len(answers) < 2:
        return "".join(answers)
    return translations(language).gettext("%(some)s or %(last)s") % {
        "some": ", ".join(answers[:-1]),
        "last": answers[-1],
    }


def _option_help(game: Variant, language: str) -> dict[str, str]:
    """What each of the game's options means, in ``language``; the deck's with its values."""
    say = translations(language).gettext
    found = {option.name: say(option.meaning) for option in game.options}
    decks = "; ".join(f"{choice.cards}: {say(choice.meaning)}" for choice in game.decks)
    found["deck"] = f"{found['deck']} {decks}"
    return found


def games(language: str = "en") -> dict[str, Any]:
    """The games, house rules and bots a host may choose from, for the host page.

    Read from the games' records (:data:`cheatrules.variants.VARIANTS`) and
    the families of policies: the titles, calls, the house rules' names and
    meanings and the bots' names are in ``language``, and each game gives
    its player range. ``policies`` and ``bots`` name the choices as options
    and seats take them; ``house_rules`` and ``bot_titles`` say them in words.
    """
    say = translations(language).gettext
    shown = house_rule_words(language)
    house_rules = []
    for family in HOUSE_FAMILIES:
        titles = shown["policies"].get(family.name, {})
        choices = [
            {
                "name": choice.name,
                "title": titles.get(choice.name, choice.name),
                "help": say(choice.meaning),
            }
            for choice in family.choices
        ]
        house_rules.append(
            {
                "family": family.name,
                "title": shown["families"].get(family.name, family.name),
                "help": say(family.summary),
                "choices": choices,
            }
        )
    bots = bot_words(language)
    return {
        "games": [
            {
                "name": game.name,
                "title": game.title_in(language),
                "call": game.call_in(language),
                "players": [game.min_players, game.max_players],
                "options": _option_help(game, language),
            }
            for game in VARIANTS.values()
        ],
        "policies": {family: list(names) for family, names in NAMED_POLICIES.items()},
        "house_rules": house_rules,
        "bots": list(BOTS),
        "bot_titles": {name: bots.get(name, name) for name in BOTS},
    }
