"""Store factories shared by the store, concurrency and dispatcher tests (and the `store` fixture)."""

from __future__ import annotations

from pathlib import Path

import pytest

from writing_rules.documents import DirectoryDocumentStore, MemoryDocumentStore, SqliteDocumentStore

STORE_KINDS = ("memory", "directory", "sqlite")


def make_store(kind: str, location: Path) -> object:
    if kind == "memory":
        return MemoryDocumentStore()
    location.mkdir(exist_ok=True)
    if kind == "directory":
        return DirectoryDocumentStore(location)
    return SqliteDocumentStore(location / "documents.sqlite")


@pytest.fixture(params=STORE_KINDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> object:
    return make_store(request.param, tmp_path / "store")
