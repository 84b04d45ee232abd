"""Store factories shared by the document tests: one contract, run on every store kind.

PostgreSQL comes from ``WRITING_RULES_TEST_POSTGRES_DSN`` (tests/postgres_support.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres_support import PostgresSchemas
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
