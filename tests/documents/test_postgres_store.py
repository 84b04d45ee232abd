"""What is particular to PostgresDocumentStore: schema, bad input, timeouts, crashes and lost connections."""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import random
import signal
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from documents_stores import StoreFactory
from postgres_cluster import OwnCluster, own_cluster

from tests.postgres_support import PostgresSchemas, postgres_dsn, with_search_path
from writing_rules.documents import (
    DocumentStoreError,
    InvalidDocumentArgumentsError,
    PostgresDocumentStore,
    StoreUnavailableError,
    create_document_tool_dispatcher,
)

psycopg = pytest.importorskip("psycopg")

__all__ = ["own_cluster"]  # the fixture, imported for this module's tests


@pytest.fixture
def schemas() -> Iterator[PostgresSchemas]:
    made = PostgresSchemas()
    yield made
    made.drop()


@pytest.fixture
def pg(store_factory: StoreFactory) -> PostgresDocumentStore:
    store = store_factory.open("postgres")
    assert isinstance(store, PostgresDocumentStore)
    return store


def _tables(dsn: str) -> set[str]:
    with psycopg.connect(dsn) as connection:
        rows = connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        ).fetchall()
    return {row[0] for row in rows}


# --- schema -----------------------------------------------------------------------------------


def test_the_schema_is_created_on_first_use_with_its_version(schemas: PostgresSchemas) -> None:
    dsn = schemas.fresh()
    with PostgresDocumentStore(dsn) as store:
        assert _tables(dsn) == set()  # nothing happens before the first call
        store.create("a.md", "x")
    assert _tables(dsn) == {"writing_rules_documents", "writing_rules_revisions", "writing_rules_schema"}
    with psycopg.connect(dsn) as connection:
        assert connection.execute("SELECT version FROM writing_rules_schema").fetchall() == [(1,)]
    with PostgresDocumentStore(dsn) as again:  # a second store checks the schema and finds the document
        assert again.read("a.md").content == "x"


def test_a_schema_of_another_version_is_refused_and_left_alone(schemas: PostgresSchemas) -> None:
    dsn = schemas.fresh()
    with PostgresDocumentStore(dsn) as store:
        store.create("a.md", "x")
    with psycopg.connect(dsn) as connection:
        connection.execute("UPDATE writing_rules_schema SET version = 99")
    with PostgresDocumentStore(dsn) as store, pytest.raises(StoreUnavailableError) as caught:
        store.read("a.md")
    assert "schema version 99" in caught.value.message and caught.value.code == "store-unavailable"
    with psycopg.connect(dsn) as connection:
        assert connection.execute("SELECT count(*) FROM writing_rules_revisions").fetchone() == (1,)


@pytest.fixture
def limited_role(schemas: PostgresSchemas) -> Iterator[tuple[str, str, str]]:
    """A fresh schema, and a DSN for a role that may use it but not create tables in it."""
    base = postgres_dsn()
    dsn, schema = schemas.fresh_named()
    role, password = f"wr_limited_{uuid.uuid4().hex[:10]}", uuid.uuid4().hex
    with schemas.admin() as admin:
        database = admin.info.dbname
        admin.execute(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
        admin.execute(f"GRANT CONNECT ON DATABASE {database} TO {role}")
        admin.execute(f"GRANT USAGE ON SCHEMA {schema} TO {role}")
    parameters = psycopg.conninfo.conninfo_to_dict(base)
    parameters.update(user=role, password=password)
    limited = with_search_path(psycopg.conninfo.make_conninfo(**parameters), schema)
    try:
        yield dsn, limited, schema
    finally:
        with schemas.admin() as admin:
            # Not DROP OWNED BY: a CREATEROLE user (as in CI) may not run it on PostgreSQL 15.
            admin.execute(f"REVOKE ALL ON ALL TABLES IN SCHEMA {schema} FROM {role}")
            admin.execute(f"REVOKE ALL ON SCHEMA {schema} FROM {role}")
            admin.execute(f"REVOKE ALL ON DATABASE {database} FROM {role}")
            admin.execute(f"DROP ROLE {role}")


def test_a_database_without_the_schema_and_without_the_right_to_create_it(
    limited_role: tuple[str, str, str],
) -> None:
    owner, limited, schema = limited_role
    with PostgresDocumentStore(limited) as store:
        for call in (lambda: store.read("a.md"), lambda: store.create("a.md", "x"), store.open):
            with pytest.raises(StoreUnavailableError) as caught:
                call()
            assert "may not create them" in caught.value.message
            assert "schema_sql()" in caught.value.message
    assert _tables(owner) == set()
    # What the message says to do works: the owner runs the statements, grants use, and the role can work.
    with psycopg.connect(owner, autocommit=True) as connection:
        connection.execute(PostgresDocumentStore.schema_sql())
        role = psycopg.conninfo.conninfo_to_dict(limited)["user"]
        connection.execute(f"GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA {schema} TO {role}")
    with PostgresDocumentStore(limited) as store:
        store.create("a.md", "x")
        assert store.read("a.md").content == "x"


# --- bad input --------------------------------------------------------------------------------


def test_a_wrong_password_is_a_clear_error_that_never_shows_the_password() -> None:
    parameters = psycopg.conninfo.conninfo_to_dict(postgres_dsn())
    secret = f"Wrong-{uuid.uuid4().hex}"
    parameters["password"] = secret
    for dsn in (
        psycopg.conninfo.make_conninfo(**parameters),
        "postgresql://{user}:{password}@{host}:{port}/{dbname}".format(
            **{"host": "127.0.0.1", "port": "5432", **parameters}
        ),
    ):
        store = PostgresDocumentStore(dsn, connect_timeout=5)
        assert secret not in repr(store)
        with pytest.raises(StoreUnavailableError) as caught:
            store.read("a.md")
        assert secret not in str(caught.value) and secret not in repr(caught.value)
        # A traceback would not show the driver's error either (raised from None).
        assert caught.value.__cause__ is None and caught.value.__suppress_context__
        store.close()


def test_an_unreachable_server_is_a_clear_error() -> None:
    with PostgresDocumentStore("postgresql://someone:Sekrit-42@127.0.0.1:1/none", connect_timeout=3) as store:
        started = time.monotonic()
        with pytest.raises(StoreUnavailableError) as caught:
            store.write("a.md", "x")
    assert time.monotonic() - started < 10
    assert "Sekrit-42" not in caught.value.message and "Cannot connect to the database" in caught.value.message


@pytest.mark.parametrize(
    "dsn", ["postgresql://u:Sekrit-42@host:notaport/db?bogus=1", "host=x password=Sekrit-42 junk", "user='open"]
)
def test_a_malformed_connection_string_is_refused_without_showing_the_password(dsn: str) -> None:
    with pytest.raises(ValueError) as caught:
        PostgresDocumentStore(dsn)
    assert "Sekrit-42" not in str(caught.value)
    assert "connection string" in str(caught.value)


@pytest.mark.parametrize("bad", [42, None, b"postgresql://x"])
def test_a_store_needs_a_connection_string_or_a_pool(bad: object) -> None:
    with pytest.raises(TypeError):
        PostgresDocumentStore(bad)


def test_nul_in_content_is_refused_and_changes_nothing(pg: PostgresDocumentStore) -> None:
    pg.create("a.md", "one")
    with pytest.raises(InvalidDocumentArgumentsError) as caught:
        pg.write("a.md", "t\x00wo")
    assert "NUL" in caught.value.message
    with pytest.raises(InvalidDocumentArgumentsError):
        pg.create("b.md", "\x00")
    assert [document.content for document in pg.history("a.md")] == ["one"]


def test_a_path_too_long_to_index_is_refused(pg: PostgresDocumentStore) -> None:
    with pytest.raises(InvalidDocumentArgumentsError) as caught:
        pg.create("d/" + "é" * 1000, "x")
    assert "at most 2000 bytes" in caught.value.message
    pg.create("d/" + "e" * 1998, "x")
    with pytest.raises(DocumentStoreError) as missing:
        pg.read("d/" + "é" * 5000)  # a long id only finds nothing
    assert missing.value.code == "document-not-found"


def test_a_document_over_max_bytes_is_refused_and_nothing_changes(pg: PostgresDocumentStore) -> None:
    limit = 10 * 2**20
    pg.create("big.md", "x" * (limit + 1))
    pg.create("edge.md", "y" * (limit - 2))
    tools = create_document_tool_dispatcher(pg)
    read = tools.dispatch({"name": "read_document", "arguments": {"id": "big.md"}})
    assert read["error"]["code"] == "document-too-large"
    for id in ("big.md", "edge.md"):
        written = tools.dispatch(
            {
                "name": "write_document",
                "arguments": {"id": id, "operations": [{"operation": "append", "content": "zzz"}]},
            }
        )
        assert written["error"]["code"] == "document-too-large", written
        assert len(pg.history(id)) == 1
    assert pg.read("edge.md").content == "y" * (limit - 2)


@contextlib.contextmanager
def row_locked(dsn: str, path: str) -> Iterator[None]:
    """Another session holds the document's row lock, as a slow writer on another machine would."""
    connection = psycopg.connect(dsn)
    try:
        row = connection.execute("SELECT 1 FROM writing_rules_documents WHERE path = %s FOR UPDATE", (path,))
        assert row.fetchone() == (1,)
        yield
    finally:
        with contextlib.suppress(psycopg.Error):
            connection.rollback()
        connection.close()


def wait_for_blocked_writer(dsn: str) -> int:
    """The backend pid of the store's session that waits for the row lock."""
    deadline = time.monotonic() + 20
    with psycopg.connect(dsn, autocommit=True) as watcher:
        while time.monotonic() < deadline:
            row = watcher.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND application_name = 'writing-rules' AND wait_event_type = 'Lock'"
            ).fetchone()
            if row:
                return int(row[0])
            time.sleep(0.02)
    raise AssertionError("the writer never waited for the lock")


def write_in_thread(store: PostgresDocumentStore, id: str, content: str) -> tuple[threading.Thread, dict[str, Any]]:
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["version"] = store.write(id, content)
        except BaseException as error:
            outcome["error"] = error

    thread = threading.Thread(target=work)
    thread.start()
    return thread, outcome


def test_a_statement_timeout_is_a_clear_error_and_changes_nothing(store_factory: StoreFactory) -> None:
    store = store_factory.open("postgres", statement_timeout=0.3)
    store.create("a.md", "one")
    with row_locked(store_factory.location("postgres"), "a.md"):
        started = time.monotonic()
        with pytest.raises(StoreUnavailableError) as caught:
            store.write("a.md", "two")
        assert time.monotonic() - started < 5
    assert "statement timeout (0.3 s)" in caught.value.message and "Nothing was written" in caught.value.message
    assert [document.content for document in store.history("a.md")] == ["one"]
    assert store.write("a.md", "two") == "2"


# --- concurrency beyond the contract suite ------------------------------------------------------


def test_a_given_pool_is_used_and_left_open(store_factory: StoreFactory) -> None:
    from psycopg_pool import ConnectionPool

    with ConnectionPool(store_factory.location("postgres"), min_size=1, max_size=2) as pool:
        with pytest.raises(ValueError):
            PostgresDocumentStore(pool, statement_timeout=1)
        store = PostgresDocumentStore(pool)
        store.create("a.md", "x")
        store.write("a.md", "y", "1")
        assert [document.content for document in store.history("a.md")] == ["y", "x"]
        store.close()
        with pool.connection() as connection:
            assert connection.execute("SELECT count(*) FROM writing_rules_revisions").fetchone() == (2,)


def _write_in_child(store: PostgresDocumentStore) -> None:
    document = store.read("a.md")
    store.write("a.md", document.content + "child\n", document.version)


def test_a_store_used_before_a_fork_works_in_the_child(pg: PostgresDocumentStore) -> None:
    pg.create("a.md", "parent\n")
    child = multiprocessing.get_context("fork").Process(target=_write_in_child, args=(pg,))
    child.start()
    child.join(60)
    assert child.exitcode == 0
    pg.write("a.md", pg.read("a.md").content + "parent again\n", "2")
    assert pg.read("a.md").content == "parent\nchild\nparent again\n"


# --- crashes and lost connections ------------------------------------------------------------------

CRASH_ROUNDS = 40
CRASH_DOCUMENTS = ("crash/a.md", "crash/b.md", "crash/c.md")


def crash_content(generation: int) -> str:
    """A large text whose every line names its generation: a partial write could not pass as whole."""
    return f"begin {generation}\n" + f"line of generation {generation}\n" * 12_000 + f"end {generation}\n"


def _crash_writer(dsn: str, first: int, ready: Any, in_write: Any) -> None:
    store = PostgresDocumentStore(dsn)
    for generation in itertools.count(first):
        for id in CRASH_DOCUMENTS:
            in_write.value = 1
            store.write(id, crash_content(generation))
            in_write.value = 0
            ready.set()


def _check_documents(dsn: str, seen: dict[str, int]) -> None:
    """Every document is one full content; its history is 1..N with no gap and no partial row."""
    with psycopg.connect(dsn) as connection:
        for id in CRASH_DOCUMENTS:
            numeric_id, current = connection.execute(
                "SELECT numeric_id, revision FROM writing_rules_documents WHERE path = %s", (id,)
            ).fetchone()
            revisions = [
                row[0]
                for row in connection.execute(
                    "SELECT revision FROM writing_rules_revisions WHERE numeric_id = %s ORDER BY revision",
                    (numeric_id,),
                )
            ]
            assert revisions == list(range(1, current + 1)), id
            for revision, content in connection.execute(
                "SELECT revision, content FROM writing_rules_revisions WHERE numeric_id = %s AND revision > %s",
                (numeric_id, seen.get(id, 0)),
            ):
                generation = int(content[len("begin ") : content.index("\n")])
                assert content == crash_content(generation), (id, revision)
            seen[id] = current


def test_a_writer_killed_mid_transaction_leaves_old_or_new_content_and_whole_history(
    pg: PostgresDocumentStore, store_factory: StoreFactory
) -> None:
    dsn = store_factory.location("postgres")
    for id in CRASH_DOCUMENTS:
        pg.create(id, crash_content(0))
    context = multiprocessing.get_context("fork")
    chance = random.Random(17)
    seen: dict[str, int] = {}
    killed_in_write = 0
    for round in range(CRASH_ROUNDS):
        ready, in_write = context.Event(), context.Value("i", 0)
        writer = context.Process(target=_crash_writer, args=(dsn, 1000 * (round + 1), ready, in_write))
        writer.start()
        assert ready.wait(30), "the writer never finished a first write"
        time.sleep(chance.uniform(0.0, 0.04))
        killed_in_write += in_write.value
        os.kill(writer.pid, signal.SIGKILL)
        writer.join(30)
        assert writer.exitcode == -signal.SIGKILL
        _check_documents(dsn, seen)
    # Most kills must land inside a write, or the test proves little.
    assert killed_in_write >= CRASH_ROUNDS // 2, killed_in_write
    # No killed session left a lock behind: a quick write goes through on every document.
    with PostgresDocumentStore(dsn, statement_timeout=5) as after:
        for id in CRASH_DOCUMENTS:
            current = after.read(id)
            after.write(id, crash_content(1), current.version)
    _check_documents(dsn, seen)


def test_a_connection_lost_mid_write_is_a_clear_error_and_the_next_call_reconnects(
    pg: PostgresDocumentStore, store_factory: StoreFactory
) -> None:
    dsn = store_factory.location("postgres")
    pg.create("a.md", "one")
    with row_locked(dsn, "a.md"):
        thread, outcome = write_in_thread(pg, "a.md", "two")
        pid = wait_for_blocked_writer(dsn)
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        thread.join(30)
    error = outcome.get("error")
    assert isinstance(error, StoreUnavailableError), outcome
    assert "connection was lost" in error.message and "Nothing was written" in error.message
    assert [document.content for document in pg.history("a.md")] == ["one"]
    assert pg.write("a.md", "two", "1") == "2"


def test_a_server_restart_mid_write_is_a_clear_error_and_the_next_call_reconnects(own_cluster: OwnCluster) -> None:
    store = PostgresDocumentStore(own_cluster.dsn, connect_timeout=3)
    tools = create_document_tool_dispatcher(store)
    try:
        store.create("a.md", "one\n")
        with row_locked(own_cluster.dsn, "a.md"):
            thread, outcome = write_in_thread(store, "a.md", "two\n")
            wait_for_blocked_writer(own_cluster.dsn)
            own_cluster.restart()
            thread.join(30)
        assert not thread.is_alive(), "the interrupted write did not return"
        error = outcome.get("error")
        assert isinstance(error, StoreUnavailableError), outcome
        assert isinstance(error, DocumentStoreError)
        # The next call reconnects. What the interrupted write left depends on when the
        # restart reached its connection, and the message says which: before the commit,
        # nothing was stored and the call may be retried; during the commit (the lock
        # holder's connection went first, so the write ran on), it may or may not be.
        history = [document.content for document in store.history("a.md")]
        if "may be retried" in error.message:
            assert history == ["one\n"]
        else:
            assert "may or may not be stored" in error.message and "Read the document again" in error.message
            assert history in (["one\n"], ["one\n", "two\n"])
        current = store.read("a.md").version
        assert store.write("a.md", "two\n", current) == str(int(current) + 1)
        # While the server is down, a tool call gets a structured error, not a traceback.
        own_cluster.stop()
        down = tools.dispatch({"name": "read_document", "arguments": {"id": "a.md"}})
        assert down["ok"] is False and down["error"]["code"] == "store-unavailable", down
        own_cluster.start()
        # The pool retries its connection with growing waits after an outage; until one of them
        # reaches the server again, a call gets the same structured error (and writes nothing), so
        # the caller retries, as a model would. How long that takes depends on how fast the server
        # came back, not on the store.
        deadline = time.monotonic() + 60
        while True:
            up = tools.dispatch(
                {
                    "name": "write_document",
                    "arguments": {"id": "a.md", "operations": [{"operation": "append", "content": "three\n"}]},
                }
            )
            if up["ok"] or up["error"]["code"] != "store-unavailable" or time.monotonic() > deadline:
                break
        assert up["ok"] is True, up
        assert store.read("a.md").content == "two\nthree\n"
    finally:
        store.close()


# Issue 25, finding 20: an unescaped '@' in a URL's password made libpq take the rest as the host, and
# the error showed it ("failed to resolve host 'tPART2@127.0.0.1'"). No part of a password is ever shown.
@pytest.mark.parametrize(
    "dsn",
    [
        "postgresql://u:s3cr@tPART2@127.0.0.1:1/db",
        "postgres://u:s3cr@t:PART2@127.0.0.1:1/db",
        "postgresql://u:s3cr/tPART2@127.0.0.1:1/db",
        "postgresql://u:s3cr?tPART2@127.0.0.1:1/db",
        "postgresql://u:s3cr#tPART2@127.0.0.1:1/db",
        "postgresql://u:s3cr@t PART2@127.0.0.1:1/db",
        "postgresql://u:s3cr@t%zzPART2@127.0.0.1:1/db",
        "postgresql://u:s3 crPART2@127.0.0.1:1/db",
        "postgresql://u:s3crPART2%zz@127.0.0.1:1/db",
        "host=127.0.0.1 port=1 password=s3 crPART2",
        "host=127.0.0.1 port=1 password='s3crPART2",
    ],
)
def test_no_part_of_a_password_is_shown_however_the_string_is_broken(dsn: str) -> None:
    # StoreUnavailableError is a ValueError too.
    with pytest.raises(ValueError) as caught, PostgresDocumentStore(dsn, connect_timeout=3) as store:
        store.open()
    message = str(caught.value)
    assert "PART2" not in message and "s3" not in message and "tPART" not in repr(caught.value)
    assert "connection string" in message or "URL" in message
    # A traceback would not show the driver's error either.
    assert caught.value.__cause__ is None
    assert caught.value.__context__ is None or caught.value.__suppress_context__


def test_an_ambiguous_url_says_what_to_percent_encode() -> None:
    with pytest.raises(ValueError, match="%40") as caught:
        PostgresDocumentStore("postgresql://u:p@ss@127.0.0.1:1/db")
    assert "ss@" not in str(caught.value)
    # Percent-encoded, the same password is fine (and never shown either).
    with PostgresDocumentStore("postgresql://u:p%40ssPART2@127.0.0.1:1/db", connect_timeout=3) as store:
        assert "PART2" not in repr(store)
        with pytest.raises(StoreUnavailableError) as refused:
            store.open()
    assert "PART2" not in str(refused.value)
