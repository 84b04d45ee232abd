"""Store factories shared by the document tests: one contract, run on every store kind.

PostgreSQL comes from ``WRITING_RULES_TEST_POSTGRES_DSN`` (``.ci/run`` starts a server and
sets it). Every test gets a fresh PostgreSQL schema of its own (through ``search_path``),
so tests never see each other's documents and the store creates its tables each time.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from writing_rules.documents import (
    DirectoryDocumentStore,
    MemoryDocumentStore,
    PostgresDocumentStore,
    SqliteDocumentStore,
)

STORE_KINDS = ("memory", "directory", "sqlite", "postgres")
# Stores that several processes can open at one location.
SHARED_KINDS = ("directory", "sqlite", "postgres")
DATABASE_KINDS = ("sqlite", "postgres")
DSN_VARIABLE = "WRITING_RULES_TEST_POSTGRES_DSN"
HOW_TO_START = (
    f"set {DSN_VARIABLE} to a PostgreSQL database the tests may use, e.g. "
    "postgresql://USER:PASSWORD@127.0.0.1:PORT/DATABASE; docs/documents.md "
    "('A PostgreSQL server for development') gives the commands to start one"
)


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def postgres_dsn() -> str:
    """The test database's connection string; skips without one, but fails in CI."""
    dsn = os.environ.get(DSN_VARIABLE, "").strip()
    if dsn:
        return dsn
    if in_ci():
        pytest.fail(f"CI=true but no PostgreSQL for the store tests: {HOW_TO_START}", pytrace=False)
    pytest.skip(f"no PostgreSQL for the store tests: {HOW_TO_START}")


def with_search_path(dsn: str, schema: str) -> str:
    """``dsn`` with its tables looked up and created in ``schema``."""
    option = f"-c search_path={schema}"
    if dsn.startswith(("postgresql://", "postgres://")):
        return f"{dsn}{'&' if '?' in dsn else '?'}options={quote(option)}"
    return f"{dsn} options='{option}'"


class PostgresSchemas:
    """Fresh schemas in the test database, dropped again (with their tables) at the end."""

    def __init__(self) -> None:
        self.base = postgres_dsn()
        self._made: list[str] = []

    def admin(self):  # type: ignore[no-untyped-def]
        import psycopg

        return psycopg.connect(self.base, autocommit=True)

    def fresh(self) -> str:
        return self.fresh_named()[0]

    def fresh_named(self) -> tuple[str, str]:
        """A DSN whose tables live in a new schema, and the schema's name."""
        name = f"wr_test_{uuid.uuid4().hex[:16]}"
        with self.admin() as connection:
            connection.execute(f"CREATE SCHEMA {name}")
        self._made.append(name)
        return with_search_path(self.base, name), name

    def drop(self) -> None:
        if not self._made:
            return
        with self.admin() as connection:
            for name in self._made:
                connection.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
        self._made.clear()


def open_store(kind: str, location: str, **options: object) -> object:
    """The ``kind`` store at ``location``, opened anew (in this process or in another one)."""
    if kind == "directory":
        return DirectoryDocumentStore(location, **options)  # type: ignore[arg-type]
    if kind == "sqlite":
        return SqliteDocumentStore(location, **options)  # type: ignore[arg-type]
    if kind == "postgres":
        return PostgresDocumentStore(location, **options)  # type: ignore[arg-type]
    raise ValueError(f"a {kind} store has no location")


class StoreFactory:
    """One test's stores: each kind lives at one location; what was opened is closed at the end."""

    def __init__(self, tmp_path: Path) -> None:
        self._tmp = tmp_path
        self._locations: dict[str, str] = {}
        self._opened: list[object] = []
        self._schemas: PostgresSchemas | None = None

    def location(self, kind: str) -> str:
        if kind not in self._locations:
            if kind == "directory":
                folder = self._tmp / "documents"
                folder.mkdir(exist_ok=True)
                self._locations[kind] = str(folder)
            elif kind == "sqlite":
                self._locations[kind] = str(self._tmp / "documents.sqlite")
            elif kind == "postgres":
                if self._schemas is None:
                    self._schemas = PostgresSchemas()
                self._locations[kind] = self._schemas.fresh()
            else:
                raise ValueError(f"a {kind} store has no location")
        return self._locations[kind]

    def open(self, kind: str, **options: object) -> object:
        store = MemoryDocumentStore() if kind == "memory" else open_store(kind, self.location(kind), **options)
        self._opened.append(store)
        return store

    def close(self) -> None:
        for store in self._opened:
            close = getattr(store, "close", None)
            if close is not None:
                close()
        if self._schemas is not None:
            self._schemas.drop()


@pytest.fixture
def store_factory(tmp_path: Path) -> Iterator[StoreFactory]:
    factory = StoreFactory(tmp_path)
    yield factory
    factory.close()


@pytest.fixture(params=STORE_KINDS)
def store(request: pytest.FixtureRequest, store_factory: StoreFactory) -> object:
    return store_factory.open(request.param)


@pytest.fixture(params=DATABASE_KINDS)
def database_store(request: pytest.FixtureRequest, store_factory: StoreFactory) -> object:
    return store_factory.open(request.param)
