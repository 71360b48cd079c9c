"""The PostgreSQL store, against a real server that the test session starts.

One server serves the whole module (``tests/postgres_server.py``) and each
test gets a schema of its own. The store must keep what the SQLite store
keeps for the same calls, let one of two processes win a race for one
version, and tell its listeners of every committed change and of nothing
else.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import cheatrules as cr
from cheatrules.web import create_app, postgres
from cheatrules.web.notifications import CARRIED_BYTES, Listener, Notification
from cheatrules.web.postgres import PostgresStore
from cheatrules.web.storage import SQLiteStore, Store, StoreConflictError, Stored, StoreError

from . import postgres_server
from .budget import examples, scaled
from .web_client import Seat, create, token

TABLE = "tableAAA1"


@pytest.fixture(scope="module")
def server() -> Iterator[postgres_server.PostgresServer]:
    with postgres_server.running() as running:
        yield running


@pytest.fixture
def url(server: postgres_server.PostgresServer) -> str:
    return server.fresh_url()


@pytest.fixture
def store(url: str) -> Iterator[PostgresStore]:
    kept = PostgresStore(url)
    yield kept
    kept.close()


def _stored(table_id: str = TABLE, actions: tuple[str, ...] = ()) -> Stored:
    return Stored(table_id, {"game": "english", "names": {}}, {"host": "h" * 32}, "{}", actions)


# -- the same calls keep the same tables as SQLite --------------------------------------

_TEXT = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"))
_VALUES = st.dictionaries(
    _TEXT.filter(lambda text: len(text) <= 5),
    st.one_of(st.integers(), st.booleans(), st.none(), _TEXT.filter(lambda text: len(text) <= 8)),
    max_size=3,
)
_ACTIONS = st.lists(_TEXT.filter(lambda text: len(text) <= 12), max_size=3)
_IDS = st.sampled_from(["tableAAA1", "tableBBB2", "tableCCC3"])
_CALLS = st.lists(
    st.one_of(
        st.tuples(st.just("create"), _IDS, _VALUES, _VALUES, _TEXT, _ACTIONS),
        # How far the first action's number is from the count kept: 0 fits.
        st.tuples(st.just("append"), _IDS, st.sampled_from([0, 0, 0, -1, 1]), _ACTIONS),
        st.tuples(st.just("update"), _IDS, _VALUES),
        st.tuples(st.just("remove"), _IDS),
    ),
    max_size=12,
)


def _call(store: Store, call: tuple[Any, ...], counts: dict[str, int]) -> object:
    """Make ``call`` on ``store``: what came of it (``None``, or the error's kind and numbers)."""
    kind, table_id, *rest = call
    try:
        if kind == "create":
            settings, tokens, record, actions = rest
            store.create(Stored(table_id, settings, tokens, record, tuple(actions), 1.5))
        elif kind == "append":
            offset, actions = rest
            store.append(table_id, max(0, counts.get(table_id, 0) + offset), actions)
        elif kind == "update":
            store.update(table_id, rest[0])
        else:
            store.remove(table_id)
    except StoreConflictError as error:
        return ("conflict", error.table_id, error.expected, error.found, str(error))
    except StoreError as error:
        return ("refused", str(error))
    return None


def _kept(store: Store) -> list[object]:
    """What ``store`` loads, with the times left out (each store reads its own clock)."""
    return [
        attrs.evolve(table, changed=0.0) if isinstance(table, Stored) else str(table)
        for table in store.load()
    ]


@given(calls=_CALLS)
# One database for every example (the function's fixture): each example empties it first.
@settings(
    examples(25),
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
def test_the_same_calls_keep_the_same_tables_as_the_sqlite_store(
    store: PostgresStore, calls: list[tuple[Any, ...]]
) -> None:
    store.db.execute("TRUNCATE tables CASCADE")
    with tempfile.TemporaryDirectory() as folder:
        sqlite = SQLiteStore(folder)
        try:
            counts: dict[str, int] = {}
            for call in calls:
                came = _call(store, call, counts)
                assert came == _call(sqlite, call, counts), call
                counts = {
                    table.table_id: len(table.actions)
                    for table in sqlite.load()
                    if isinstance(table, Stored)
                }
            assert _kept(store) == _kept(sqlite)
        finally:
            sqlite.close()


def test_a_table_round_trips_with_its_actions_in_order(store: PostgresStore) -> None:
    store.create(_stored(actions=("play A♣ as A",)))
    store.append(TABLE, 1, ["challenge", "play 2♦ as 2"])
    store.update(TABLE, {"game": "english", "names": {"0": "Ana"}})
    (table,) = store.load()
    assert isinstance(table, Stored)
    assert table.actions == ("play A♣ as A", "challenge", "play 2♦ as 2")
    assert table.settings == {"game": "english", "names": {"0": "Ana"}}
    assert store.table(TABLE) == table
    assert store.actions_since(TABLE, 1) == ("challenge", "play 2♦ as 2")
    assert store.actions_since(TABLE, 3) == ()
    store.remove(TABLE)
    assert list(store.load()) == []
    assert store.table(TABLE) is None
    assert store.actions_since(TABLE, 0) is None


def test_a_version_to_read_from_is_a_whole_number_of_0_or_more(store: PostgresStore) -> None:
    for wrong in (-1, 1.5, True, "3"):
        with pytest.raises(ValueError, match=r"whole number of 0 or more; got"):
            store.actions_since(TABLE, wrong)  # type: ignore[arg-type]


# -- two processes, one version ---------------------------------------------------------


def _race(stores: list[PostgresStore], table_id: str) -> list[object]:
    """Both stores append after version 0 at once: what came of each (``"kept"`` or its error)."""
    barrier = threading.Barrier(2)
    came: list[object] = [None, None]

    def act(seat: int) -> None:
        barrier.wait()
        try:
            stores[seat].append(table_id, 0, [f"play by {seat}"] * (seat + 1))
            came[seat] = "kept"
        except StoreConflictError as error:
            came[seat] = error

    threads = [threading.Thread(target=act, args=(seat,)) for seat in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    return came


def test_of_two_stores_appending_after_one_version_exactly_one_wins(url: str) -> None:
    stores = [PostgresStore(url), PostgresStore(url)]
    try:
        for round_ in range(scaled(6)):
            table_id = f"race{round_:05d}"
            stores[0].create(_stored(table_id))
            came = _race(stores, table_id)
            assert came.count("kept") == 1, came
            winner = came.index("kept")
            error = came[1 - winner]
            assert isinstance(error, StoreConflictError)
            assert (error.table_id, error.expected, error.found) == (table_id, 0, winner + 1)
            assert f"its stored version is {winner + 1}, the change follows version 0" in str(error)
            assert stores[1].actions_since(table_id, 0) == (f"play by {winner}",) * (winner + 1)
    finally:
        for store in stores:
            store.close()


def _waits_for_a_lock(url: str) -> bool:
    """Whether one session of the database comes to wait for a lock within five seconds."""
    with psycopg.connect(url, autocommit=True) as watcher:
        for _ in range(500):
            row = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE wait_event_type = 'Lock' AND datname = current_database()"
            ).fetchone()
            if row == (1,):
                return True
            time.sleep(0.01)
    return False


def _after_the_row_is_held(url: str, held: Sequence[str], call: Callable[[], object]) -> object:
    """What ``call`` returns, or the store error it raises, having waited for a held row.

    Another transaction runs the statements ``held`` (each given the table's
    id), so holds the table's row; ``call`` runs in a thread of its own
    until it waits for that row's lock; then the transaction commits.
    """
    came: list[object] = []

    def run() -> None:
        try:
            came.append(call())
        except StoreError as error:
            came.append(error)

    with psycopg.connect(url) as other:  # a transaction, left open: it holds the table's row
        for statement in held:
            other.execute(statement, (TABLE,))
        thread = threading.Thread(target=run)
        thread.start()
        assert _waits_for_a_lock(url), "the call never waited for the row's lock"
        other.commit()
    thread.join(10)
    (outcome,) = came
    return outcome


def test_an_append_that_waits_for_the_row_finds_the_version_moved_on(
    url: str, store: PostgresStore
) -> None:
    store.create(_stored())
    error = _after_the_row_is_held(
        url,
        [
            "UPDATE tables SET version = 1 WHERE id = %s",
            "INSERT INTO actions VALUES (%s, 0, 'play by another')",
        ],
        lambda: store.append(TABLE, 0, ["play by this one"]),
    )
    assert isinstance(error, StoreConflictError)
    assert (error.expected, error.found) == (0, 1)
    assert store.actions_since(TABLE, 0) == ("play by another",)


@pytest.fixture(scope="module")
def two_stores(server: postgres_server.PostgresServer) -> Iterator[list[PostgresStore]]:
    """Two stores over one database, as two server processes would hold."""
    url = server.fresh_url()
    stores = [PostgresStore(url), PostgresStore(url)]
    yield stores
    for store in stores:
        store.close()


_EXAMPLES = itertools.count()


@given(turns=st.lists(st.tuples(st.sampled_from([0, 1]), st.integers(1, 3)), max_size=10))
@examples(15)
def test_appends_from_two_stores_in_any_order_keep_the_versions_consecutive(
    two_stores: list[PostgresStore], turns: list[tuple[int, int]]
) -> None:
    """Each store acts on the version it last saw, and on a conflict catches up and acts again."""
    table_id = f"turns{next(_EXAMPLES):05d}"  # a table of the example's own
    stores = two_stores

    async def play() -> None:
        async with stores[0].listen() as listener:
            stores[0].create(_stored(table_id))
            seen = [0, 0]  # the version each store last saw
            kept: list[str] = []
            for number, (seat, count) in enumerate(turns):
                actions = [f"{seat} {number} {index}" for index in range(count)]
                if seen[seat] < len(kept):  # the other store acted since: refused, caught up
                    with pytest.raises(StoreConflictError) as refused:
                        stores[seat].append(table_id, seen[seat], actions)
                    assert (refused.value.expected, refused.value.found) == (seen[seat], len(kept))
                    caught_up = stores[seat].actions_since(table_id, seen[seat])
                    assert caught_up is not None and list(caught_up) == kept[seen[seat] :]
                    seen[seat] += len(caught_up)
                stores[seat].append(table_id, seen[seat], actions)
                kept += actions
                seen[seat] = len(kept)
            heard: list[Notification] = []
            while len(heard) < len(turns) + 1:
                more = await listener.heard(timeout=5)
                assert more, f"heard {heard}, then nothing"
                heard += more
            assert heard[0] == Notification("created", table_id, 0)
            assert [note.kind for note in heard[1:]] == ["appended"] * len(turns)
            versions = [note.version for note in heard]
            assert [later - earlier for earlier, later in itertools.pairwise(versions)] == [
                count for _, count in turns
            ]
            assert versions[-1] == len(kept)
            assert stores[1].actions_since(table_id, 0) == tuple(kept)

    asyncio.run(play())


# -- notifications ----------------------------------------------------------------------


def test_a_listener_hears_each_committed_change_and_nothing_refused(
    url: str, store: PostgresStore
) -> None:
    async def listen() -> None:
        async with store.listen() as listener:
            store.create(_stored(actions=("play A♣ as A",)))
            store.append(TABLE, 1, ["challenge", "play 2♦ as 2"])
            with pytest.raises(StoreConflictError):
                store.append(TABLE, 1, ["accept"])
            with pytest.raises(StoreError):
                store.create(_stored())  # kept already
            store.append(TABLE, 3, [])  # nothing new: nothing told
            store.update(TABLE, {"names": {"1": "Bo"}})
            store.remove(TABLE)
            store.update(TABLE, {"names": {}})  # no such table: nothing told
            store.remove(TABLE)
            heard: list[Notification] = []
            while len(heard) < 4:
                heard += await listener.heard(timeout=5)
            assert heard == [
                Notification("created", TABLE, 1),
                Notification("appended", TABLE, 3, ("challenge", "play 2♦ as 2")),
                Notification("updated", TABLE, 3),
                Notification("removed", TABLE, 3),
            ]
            assert await listener.heard(timeout=0.2) == ()

    asyncio.run(listen())


def test_a_change_whose_transaction_fails_after_its_notification_is_not_heard(
    url: str, store: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.create(_stored())
    # The append's one statement fails after its notification was sent: a division by
    # zero that only the row's count shows, in the column after pg_notify's.
    sent = "THEN pg_notify('cheatrules_tables', %(payload)s) END"
    assert sent in postgres._APPEND
    failing = postgres._APPEND.replace(sent, f"{sent}, 1 / (count(*) - count(*))")

    async def listen() -> None:
        async with Listener(url) as listener:
            monkeypatch.setattr(postgres, "_APPEND", failing)
            with pytest.raises(StoreError, match="could not be saved just now"):
                store.append(TABLE, 0, ["play A♣ as A"])
            monkeypatch.undo()
            assert await listener.heard(timeout=0.2) == ()
            assert store.actions_since(TABLE, 0) == ()
            store.append(TABLE, 0, ["play A♣ as A"])  # the version was not moved
            assert await listener.heard(timeout=5) == (
                Notification("appended", TABLE, 1, ("play A♣ as A",)),
            )

    asyncio.run(listen())


def test_a_listener_whose_connection_drops_says_so_then_listens_again(
    url: str, store: PostgresStore
) -> None:
    async def listen() -> None:
        async with Listener(url) as listener:
            store.db.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE query LIKE 'LISTEN %%' AND datname = current_database()"
            )
            with pytest.raises(StoreError, match=r"did not answer"):
                await listener.heard(timeout=5)
            store.create(_stored())  # told while no one listened: not heard
            assert await listener.heard(timeout=0.2) == ()  # listening again
            store.append(TABLE, 0, ["play A♣ as A"])
            assert await listener.heard(timeout=5) == (
                Notification("appended", TABLE, 1, ("play A♣ as A",)),
            )

    asyncio.run(listen())


def test_a_store_whose_connection_drops_refuses_one_write_then_connects_again(
    url: str, store: PostgresStore
) -> None:
    store.create(_stored())
    with psycopg.connect(url, autocommit=True) as admin:
        pid = store.db.info.backend_pid
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(StoreError, match="could not be saved just now"):
        store.append(TABLE, 0, ["play A♣ as A"])
    store.append(TABLE, 0, ["play A♣ as A"])
    assert store.actions_since(TABLE, 0) == ("play A♣ as A",)


@given(
    actions=st.lists(
        st.sampled_from(["challenge", "accept", "pass", "play 10♣ Q♣ as 6", "play ★♥ as K"]),
        max_size=400,
    )
)
def test_a_notification_reads_back_from_its_payload_and_nothing_else_does(
    actions: list[str],
) -> None:
    note = Notification.appended("7RkQ2bXw-_", 12, actions)
    assert Notification.read(note.payload()) == note
    assert len(note.payload().encode()) < 8000  # what NOTIFY carries at most
    assert note.version == 12 + len(actions)
    # The actions ride along where they fit; past that the others read them back.
    fits = len(json.dumps(actions, ensure_ascii=False).encode()) <= CARRIED_BYTES
    assert note.actions == (tuple(actions) if fits else ())
    bare = Notification("appended", "7RkQ2bXw-_", 12)
    assert Notification.read(bare.payload()) == bare
    assert Notification.appended("7RkQ2bXw-_", 0, ["play 10♣ Q♣ as 6"] * 400).actions == ()
    answered = Notification.answered("7RkQ2bXw-_", 12, 3, "challenge earlier")
    assert Notification.read(answered.payload()) == answered
    wrongs = (
        "appended 7RkQ2bXw",
        "moved 7RkQ2bXw 3",
        "appended 7RkQ2bXw -1",
        "appended ../x 3",
        "appended 7RkQ2bXw 3 [1, 2]",
        "appended 7RkQ2bXw 3 not json",
        "removed 7RkQ2bXw 3 []",
        'answered 7RkQ2bXw 3 ["2", "challenge"]',
        'answered 7RkQ2bXw 3 [-1, "challenge"]',
        'answered 7RkQ2bXw 3 ["challenge"]',
        "",
    )
    for wrong in wrongs:
        with pytest.raises(ValueError, match="kind one of created, appended, updated, removed"):
            Notification.read(wrong)


# -- rows that will not read ------------------------------------------------------------

# The same statement for either database: each spoils the table tableAAA1 alone.
_CORRUPTIONS = {
    "settings not JSON": "UPDATE tables SET settings = '{not json' WHERE id = 'tableAAA1'",
    "settings a list": "UPDATE tables SET settings = '[]' WHERE id = 'tableAAA1'",
    "tokens a string": "UPDATE tables SET tokens = '\"x\"' WHERE id = 'tableAAA1'",
    "an action missing": "DELETE FROM actions WHERE table_id = 'tableAAA1' AND n = 0",
}


def _read(tables: list[Stored | cr.RecordError]) -> list[str]:
    return [str(table) if isinstance(table, cr.RecordError) else table.table_id for table in tables]


@pytest.mark.parametrize("corruption", sorted(_CORRUPTIONS))
def test_a_corrupt_row_gives_the_same_record_error_as_from_sqlite(
    store: PostgresStore, tmp_path: Path, corruption: str
) -> None:
    sqlite = SQLiteStore(tmp_path)
    for kept in (store, sqlite):
        kept.create(_stored(actions=("play A♣ as A", "challenge")))
        kept.create(_stored("tableZZZ9"))
    with sqlite.db:
        sqlite.db.execute(_CORRUPTIONS[corruption])
    store.db.execute(_CORRUPTIONS[corruption])
    from_postgres, from_sqlite = list(store.load()), list(sqlite.load())
    sqlite.close()
    assert _read(from_postgres) == _read(from_sqlite)
    assert _read(from_postgres)[0].startswith(f"table {TABLE}: ")
    assert _read(from_postgres)[1] == "tableZZZ9"  # the other table still reads
    assert isinstance(store.table(TABLE), cr.RecordError)


def test_a_version_that_does_not_count_the_actions_kept_is_a_record_error(
    store: PostgresStore,
) -> None:
    store.create(_stored(actions=("play A♣ as A",)))
    store.db.execute("UPDATE tables SET version = 3")
    (error,) = store.load()
    assert str(error) == f"table {TABLE}: its version is 3, but it keeps 1 actions"


# -- opening ----------------------------------------------------------------------------


def test_the_schema_is_made_once_and_a_newer_one_is_refused(url: str) -> None:
    PostgresStore(url).close()
    again = PostgresStore(url)  # opened again: nothing to migrate
    row = again.db.execute("SELECT version FROM cheatrules_schema").fetchall()
    assert row == [(postgres.SCHEMA,)]
    again.db.execute("UPDATE cheatrules_schema SET version = 99")
    again.close()
    with pytest.raises(
        StoreError, match=rf"schema version 99; this version reads up to {postgres.SCHEMA}\b"
    ):
        PostgresStore(url)


def test_a_database_of_schema_2_opens_with_its_open_windows_answers(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as old:  # as the previous version left it
        old.execute("CREATE TABLE cheatrules_schema (version integer NOT NULL)")
        old.execute("INSERT INTO cheatrules_schema (version) VALUES (2)")
        for statement in postgres._MIGRATIONS[1] + postgres._MIGRATIONS[2]:
            old.execute(statement)
        for table_id, version in ((TABLE, 1), ("tableBBB2", 0)):
            old.execute(
                "INSERT INTO tables VALUES (%s, '{}', '{}', '{}', %s, 1.5, 1.5)",
                (table_id, version),
            )
        old.execute("INSERT INTO actions VALUES (%s, 0, 'play A♣ as A')", (TABLE,))
        with old.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO answers (table_id, version, seat, action) VALUES (%s, %s, %s, %s)",
                [
                    (TABLE, 1, 2, "challenge"),
                    (TABLE, 1, 0, "accept"),
                    (TABLE, 0, 1, "accept"),  # a closed window's: forgotten
                    ("tableBBB2", 0, 1, "challenge"),
                ],
            )
    store = PostgresStore(url)
    try:
        assert store.answers(TABLE, 1) == {0: "accept", 2: "challenge"}
        assert store.answers("tableBBB2", 0) == {1: "challenge"}
        assert not store.answer(TABLE, 1, 2, "accept")  # answered already, before the migration
        assert store.answer(TABLE, 1, 1, "accept")
        assert store.settle(TABLE, 1, lambda answers: [answers[2]]) == ["challenge"]
        assert store.actions_since(TABLE, 0) == ("play A♣ as A", "challenge")
        assert store.db.execute("SELECT version FROM cheatrules_schema").fetchall() == [
            (postgres.SCHEMA,)
        ]
        assert store.db.execute("SELECT to_regclass('answers')").fetchone() == (None,)
    finally:
        store.close()


def test_a_database_that_cannot_be_reached_is_named_without_its_password(
    server: postgres_server.PostgresServer,
) -> None:
    url = server.url("nosuchdb").replace("postgresql://", "postgresql://postgres:s3cret@")
    with pytest.raises(StoreError) as refused:
        PostgresStore(url)
    said = str(refused.value)
    assert said.startswith("cannot open the table database in postgresql://postgres@")
    assert "nosuchdb" in said and "s3cret" not in said


def test_without_psycopg_the_web_table_imports_and_the_store_says_what_to_install() -> None:
    script = (
        "import sys\n"
        "sys.modules['psycopg'] = None\n"
        "import cheatrules.web\n"
        "from cheatrules.web import PostgresStore\n"
        "try:\n"
        "    PostgresStore('postgresql:///x')\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    said = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout
    assert said.startswith("PostgresStore needs the server extra (")
    assert '"cheatrules[server]"' in said and "[server]" in said.split(";")[1]


# -- a web table kept in PostgreSQL -------------------------------------------------------


def test_a_server_over_postgres_resumes_its_tables_with_the_same_links(url: str) -> None:
    def app() -> TestClient:
        return TestClient(
            create_app(None, store=PostgresStore(url), seed=7, bot_delay=0.0, window=60.0)
        )

    with app() as client:
        made = create(client, game="english", players=3, seats=["human"] * 3)
        table_id = made["table"]
        with client.websocket_connect(f"/ws/{table_id}") as socket:
            seat = Seat(socket, token(made["seats"]["0"]))
            view = seat.view
            seat.act(f"play {view['hand'][0]} as {view['allowed_ranks'][0]}")
            seat.next("view", lambda message: message["n"] == 1)
        state = client.app.state.hall.rooms[table_id].state
    with app() as client:
        assert client.app.state.hall.rooms[table_id].state == state
        assert len(state.actions) == 1


def test_a_kept_game_reads_back_as_the_game(store: PostgresStore) -> None:
    state = cr.deal(cr.english(3), seed=5)
    assert state.to_move is not None
    state = state.apply(cr.Play(state.hands[state.to_move][:1], state.table.allowed_ranks[0]))
    record = cr.dumps(state)
    store.create(Stored(TABLE, {}, {}, record, tuple(a.text() for a in state.actions)))
    after = state.apply(cr.parse_action("challenge"))
    store.append(TABLE, 1, [after.actions[-1].text()])
    (table,) = store.load()
    assert isinstance(table, Stored)
    assert table.game() == after


def test_window_answers_are_kept_while_the_window_is_open_and_settled_from_the_kept(
    url: str, store: PostgresStore
) -> None:
    store.create(_stored())
    store.append(TABLE, 0, ["play A♣ as A"])

    async def listen() -> None:
        async with Listener(url) as listener:
            assert store.answer(TABLE, 1, 2, "challenge")
            assert not store.answer(TABLE, 1, 2, "accept")  # answered already: not kept
            assert await listener.heard(timeout=5) == (
                Notification.answered(TABLE, 1, 2, "challenge"),
            )
            with pytest.raises(StoreConflictError) as late:
                store.answer(TABLE, 0, 1, "accept")  # the window of version 0 is closed
            assert (late.value.expected, late.value.found) == (0, 1)
            assert store.answers(TABLE, 1) == {2: "challenge"}
            seen: list[dict[int, str]] = []

            def decide(answers: Any) -> list[str]:
                seen.append(dict(answers))
                return ["accept", answers[2]]

            assert store.settle(TABLE, 1, decide) == ["accept", "challenge"]
            assert seen == [{2: "challenge"}]
            assert await listener.heard(timeout=5) == (
                Notification("appended", TABLE, 3, ("accept", "challenge")),
            )
            with pytest.raises(StoreConflictError):  # closed already: another process's close
                store.settle(TABLE, 1, decide)
            assert store.actions_since(TABLE, 1) == ("accept", "challenge")
            assert store.answers(TABLE, 1) == {}

    asyncio.run(listen())


# -- a window closed in one statement ---------------------------------------------------


def _deciding(seen: list[dict[int, str]]) -> Any:
    """A close's ``decide``: each answer becomes an action, after the ones before; noted."""

    def decide(answers: Any) -> list[str]:
        seen.append(dict(answers))
        return [f"{seat} {action}" for seat, action in sorted(answers.items())] or ["accept"]

    return decide


@pytest.fixture
def window(store: PostgresStore) -> PostgresStore:
    """A store whose table ``TABLE`` has its window open at version 1."""
    store.create(_stored())
    store.append(TABLE, 0, ["play A♣ as A"])
    return store


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The statements every connection of this process runs from now on, in order."""
    ran: list[str] = []
    execute = psycopg.Cursor.execute

    def noted(cursor: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        ran.append(" ".join(str(query).split()))
        return execute(cursor, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", noted)
    return ran


def test_a_close_from_the_answers_kept_is_one_statement_deciding_once(
    url: str, window: PostgresStore, statements: list[str]
) -> None:
    store = window
    assert store.answer(TABLE, 1, 2, "challenge")
    seen: list[dict[int, str]] = []

    async def listen() -> None:
        async with Listener(url) as listener:
            statements.clear()
            assert store.settle(TABLE, 1, _deciding(seen), known={2: "challenge"}) == [
                "2 challenge"
            ]
            assert await listener.heard(timeout=5) == (
                Notification("appended", TABLE, 2, ("2 challenge",)),
            )

    asyncio.run(listen())
    assert seen == [{2: "challenge"}]
    (statement,) = statements  # no read: the write checks the answers itself
    assert statement.startswith("WITH moved AS ( UPDATE tables")
    assert store.answers(TABLE, 2) == {}
    assert store.actions_since(TABLE, 1) == ("2 challenge",)


def test_a_close_without_the_answers_known_reads_them_first(
    window: PostgresStore, statements: list[str]
) -> None:
    store = window
    assert store.answer(TABLE, 1, 2, "challenge")
    seen: list[dict[int, str]] = []
    statements.clear()
    assert store.settle(TABLE, 1, _deciding(seen)) == ["2 challenge"]
    assert seen == [{2: "challenge"}]
    assert len(statements) == 2


def test_a_close_from_stale_answers_still_counts_every_answer_kept(window: PostgresStore) -> None:
    store = window
    assert store.answer(TABLE, 1, 1, "accept")
    assert store.answer(TABLE, 1, 2, "challenge")  # not yet heard of by the closer
    seen: list[dict[int, str]] = []
    kept = store.settle(TABLE, 1, _deciding(seen), known={1: "accept"})
    assert seen == [{1: "accept"}, {1: "accept", 2: "challenge"}]
    assert kept == ["1 accept", "2 challenge"]
    assert store.actions_since(TABLE, 1) == ("1 accept", "2 challenge")


def test_an_answer_kept_while_a_close_waits_for_the_row_is_counted_by_the_close(
    url: str, window: PostgresStore
) -> None:
    store = window
    seen: list[dict[int, str]] = []
    kept = _after_the_row_is_held(  # another process's answer, not yet committed
        url,
        ["""UPDATE tables SET answers = answers || '{"2": "challenge"}' WHERE id = %s"""],
        lambda: store.settle(TABLE, 1, _deciding(seen), known={}),
    )
    assert seen == [{}, {2: "challenge"}]
    assert kept == ["2 challenge"]
    assert store.actions_since(TABLE, 1) == ("2 challenge",)


def test_an_answer_that_waits_for_a_close_finds_the_window_closed(
    url: str, window: PostgresStore
) -> None:
    store = window
    error = _after_the_row_is_held(  # another process's close, not yet committed
        url,
        [
            "UPDATE tables SET version = 2, answers = '{}' WHERE id = %s",
            "INSERT INTO actions VALUES (%s, 1, 'accept')",
        ],
        lambda: store.answer(TABLE, 1, 2, "challenge"),
    )
    assert isinstance(error, StoreConflictError)
    assert (error.expected, error.found) == (1, 2)
    assert store.answers(TABLE, 2) == {}


def test_a_close_of_a_window_closed_or_a_table_not_kept_keeps_nothing(
    window: PostgresStore,
) -> None:
    store = window
    seen: list[dict[int, str]] = []
    with pytest.raises(StoreConflictError) as closed:
        store.settle(TABLE, 0, _deciding(seen), known={})
    assert (closed.value.expected, closed.value.found) == (0, 1)
    with pytest.raises(StoreError, match="could not be saved just now"):
        store.settle("tableZZZ9", 0, _deciding(seen), known={})
    with pytest.raises(StoreError, match="could not be saved just now"):
        store.answer("tableZZZ9", 0, 1, "accept")
    assert seen == [{}, {}]  # decided from what the caller knew, then refused
    assert store.actions_since(TABLE, 0) == ("play A♣ as A",)


# -- several threads, several connections -----------------------------------------------


def test_the_connections_a_store_may_hold_are_a_whole_number_of_1_or_more(url: str) -> None:
    for wrong in (0, -1, True, "4", 2.0, None):
        with pytest.raises(ValueError, match=r"a whole number of 1 or more; got"):
            PostgresStore(url, connections=wrong)  # type: ignore[arg-type]


def test_threads_sharing_a_store_keep_every_table_consecutive_on_its_few_connections(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[psycopg.Connection[Any]] = []
    connect = psycopg.connect

    def noted(*args: Any, **kwargs: Any) -> psycopg.Connection[Any]:
        opened.append(connect(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(psycopg, "connect", noted)
    store = PostgresStore(url, connections=3)
    rounds = scaled(50)
    failed: list[BaseException] = []

    def play(number: int) -> None:
        table_id = f"thread{number:03d}"
        try:
            store.create(_stored(table_id))
            for version in range(rounds):
                store.append(table_id, version, [f"play {version}"])
                assert store.answer(table_id, version + 1, number % 3, "challenge")
        except BaseException as error:  # told to the main thread below
            failed.append(error)

    threads = [threading.Thread(target=play, args=(number,)) for number in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failed == []
    for number in range(8):
        table_id = f"thread{number:03d}"
        kept = store.actions_since(table_id, 0)
        assert kept == tuple(f"play {version}" for version in range(rounds))
        assert store.answers(table_id, rounds) == {number % 3: "challenge"}
    assert 1 <= len(opened) <= 3
    store.close()
    assert all(connection.closed for connection in opened)


def test_a_call_that_waits_for_one_table_holds_up_no_call_on_another(url: str) -> None:
    store = PostgresStore(url, connections=2)
    try:
        store.create(_stored())
        store.create(_stored("tableBBB2"))
        with psycopg.connect(url) as other:  # a transaction, left open: it holds one row
            other.execute("UPDATE tables SET changed = 0 WHERE id = %s", (TABLE,))
            waiting = threading.Thread(target=store.append, args=(TABLE, 0, ["play A♣ as A"]))
            waiting.start()
            assert _waits_for_a_lock(url), "the append never waited for the row's lock"
            elsewhere = threading.Thread(
                target=store.append, args=("tableBBB2", 0, ["play 2♦ as A"])
            )
            elsewhere.start()
            elsewhere.join(10)
            assert not elsewhere.is_alive(), "a call on another table waited"
            assert store.actions_since("tableBBB2", 0) == ("play 2♦ as A",)
            assert waiting.is_alive()
            other.commit()
        waiting.join(10)
        assert store.actions_since(TABLE, 0) == ("play A♣ as A",)
    finally:
        store.close()
