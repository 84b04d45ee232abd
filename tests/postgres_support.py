"""The PostgreSQL server the tests use: its DSN, and a fresh schema per test.

``.ci/run`` starts a server and sets ``WRITING_RULES_TEST_POSTGRES_DSN``. Every test gets a
schema of its own (through ``search_path``), so tests never see each other's documents and
the store creates its tables each time.
"""

from __future__ import annotations

import os
import uuid
from typing import Any
from urllib.parse import quote

import pytest

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

    def admin(self) -> Any:
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
