"""Small appends through the PostgreSQL store against the SQLite store on the same machine.

Run (a server as docs/documents.md describes; fsync on for figures that mean something):
    WRITING_RULES_TEST_POSTGRES_DSN=postgresql://... PYTHONPATH=src python benchmarks/bench_document_stores.py

Each append is what an agent does: read the document, append a short line, write it
with the version read, and read again and retry on version-conflict. Four cases: one
document or 100 documents, one writer process or four. Every store is measured in
the same run, so the ratio PostgreSQL / SQLite holds better across machines than the
rates do. The script also checks that every append arrived exactly once (the lost-update
figure) and prints the server's durability settings, which the ratio depends on.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote

from writing_rules.documents import PostgresDocumentStore, SqliteDocumentStore, VersionConflictError

APPENDS = 400  # per case, shared by its writers
REPEAT = 2  # best of


def _store(kind: str, location: str) -> Any:
    return PostgresDocumentStore(location) if kind == "postgres" else SqliteDocumentStore(location)


def _writer(kind: str, location: str, worker: int, writers: int, documents: int, start: Any, result: Any) -> None:
    store = _store(kind, location)
    store.read("doc-0.md")  # connect (and check the schema) before the clock starts
    start.wait()
    conflicts = 0
    for index in range(APPENDS // writers):
        id = f"doc-{(worker + index * writers) % documents}.md"
        while True:
            document = store.read(id)
            try:
                store.write(id, document.content + f"w{worker}-{index}\n", document.version)
                break
            except VersionConflictError:
                conflicts += 1
    result[worker] = conflicts


def _run(kind: str, location: str, documents: int, writers: int) -> tuple[float, int]:
    """Seconds for APPENDS appends, and the conflicts retried; checks every append arrived once."""
    store = _store(kind, location)
    names = [f"doc-{number}.md" for number in range(documents)]
    for name in names:
        try:
            store.create(name, "")
        except ValueError:
            store.write(name, "")
    context = multiprocessing.get_context("fork")
    start, result = context.Barrier(writers + 1), context.Array("i", writers)
    processes = [
        context.Process(target=_writer, args=(kind, location, worker, writers, documents, start, result))
        for worker in range(writers)
    ]
    for process in processes:
        process.start()
    start.wait()
    began = time.perf_counter()
    for process in processes:
        process.join()
    elapsed = time.perf_counter() - began
    assert all(process.exitcode == 0 for process in processes)
    lines = [line for name in names for line in store.read(name).content.splitlines()]
    per_writer = APPENDS // writers
    expected = {f"w{worker}-{index}" for worker in range(writers) for index in range(per_writer)}
    assert len(lines) == len(expected) and set(lines) == expected, "an append was lost or doubled"
    if hasattr(store, "close"):
        store.close()
    return elapsed, sum(result)


def _fresh_postgres(dsn: str) -> tuple[str, str]:
    import psycopg

    schema = f"wr_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dsn, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
        settings = connection.execute(
            "SELECT current_setting('fsync'), current_setting('synchronous_commit'), version()"
        ).fetchone()
    assert settings is not None
    print(f"PostgreSQL: fsync={settings[0]}, synchronous_commit={settings[1]}; {settings[2].split(',')[0]}")
    option = quote(f"-c search_path={schema}")
    return f"{dsn}{'&' if '?' in dsn else '?'}options={option}", schema


def main() -> int:
    dsn = os.environ.get("WRITING_RULES_TEST_POSTGRES_DSN", "")
    if not dsn.startswith(("postgresql://", "postgres://")):
        print("set WRITING_RULES_TEST_POSTGRES_DSN to a postgresql:// URL (see docs/documents.md)", file=sys.stderr)
        return 2
    import psycopg

    postgres, schema = _fresh_postgres(dsn)
    print(f"{APPENDS} read-modify-write appends per case (best of {REPEAT}); appends per second\n")
    print(f"{'documents':>9} {'writers':>7} {'SQLite':>9} {'PostgreSQL':>11} {'PG/SQLite':>10} {'conflicts':>15}")
    try:
        with tempfile.TemporaryDirectory() as folder:
            for documents, writers in ((1, 1), (1, 4), (100, 1), (100, 4)):
                rates, conflicts = {}, {}
                for kind in ("sqlite", "postgres"):
                    location = postgres if kind == "postgres" else str(Path(folder) / f"{documents}-{writers}.sqlite")
                    runs = [_run(kind, location, documents, writers) for _ in range(REPEAT)]
                    seconds, conflicts[kind] = min(runs)
                    rates[kind] = APPENDS / seconds
                ratio = rates["postgres"] / rates["sqlite"]
                shown = f"{conflicts['sqlite']} / {conflicts['postgres']}"
                print(
                    f"{documents:>9} {writers:>7} {rates['sqlite']:>9.0f} {rates['postgres']:>11.0f} "
                    f"{ratio:>9.2f}x {shown:>15}"
                )
    finally:
        with psycopg.connect(dsn, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")
    print("\nEvery append arrived exactly once in every case (checked); conflicts are SQLite / PostgreSQL retries.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
