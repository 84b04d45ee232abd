"""Documents in an SQLite database, with every version kept.

Each document has a path, a numeric id and a UUID, and any of them finds it.
Every call opens its own connection, so the store is safe for threads and for
processes; writes run in ``BEGIN IMMEDIATE`` transactions that wait for each
other (busy timeout) instead of failing.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import uuid as uuid_module
from collections.abc import Iterator
from datetime import datetime, timezone

from ._id_kinds import id_kind, refuse_id_shaped_path
from ._store import (
    Document,
    DocumentExistsError,
    DocumentNotFoundError,
    DocumentUnreadableError,
    DocumentWriteError,
    InvalidDocumentArgumentsError,
    check_content,
    check_expected_version,
    check_id,
    revert_revision,
)

__all__ = ["SqliteDocumentStore"]

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS documents (
        numeric_id INTEGER PRIMARY KEY AUTOINCREMENT,
        uuid TEXT NOT NULL UNIQUE,
        path TEXT NOT NULL UNIQUE,
        revision INTEGER NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS revisions (
        numeric_id INTEGER NOT NULL REFERENCES documents (numeric_id),
        revision INTEGER NOT NULL,
        content TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (numeric_id, revision)
    )""",
)
_SELECT = (
    "SELECT d.numeric_id, d.uuid, d.path, d.revision, r.content FROM documents d "
    "JOIN revisions r ON r.numeric_id = d.numeric_id AND r.revision = d.revision WHERE "
)


class SqliteDocumentStore:
    """Documents in the SQLite file at ``path``; versions are revision numbers as strings ("1", "2", …)."""

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = 30.0) -> None:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be a file path; got {type(path).__name__}")
        location = os.fspath(path)
        if location in ("", ":memory:") or location.startswith("file:"):
            raise ValueError(
                "SqliteDocumentStore needs a database file: every call opens its own connection, so an "
                "in-memory database would be empty each time."
            )
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
            raise ValueError("timeout must be a positive number of seconds")
        self._path = location
        self._timeout = float(timeout)
        try:
            with self._connection() as connection:
                connection.execute("PRAGMA journal_mode=WAL")
                with self._transaction(connection):
                    for statement in _SCHEMA:
                        connection.execute(statement)
        except sqlite3.Error as error:
            raise ValueError(f"cannot open the document database {location!r}: {error}") from None

    @contextlib.contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        connection = sqlite3.connect(self._path, timeout=self._timeout, isolation_level=None)
        try:
            yield connection
        finally:
            connection.close()

    @staticmethod
    @contextlib.contextmanager
    def _transaction(connection: sqlite3.Connection) -> Iterator[None]:
        # IMMEDIATE takes the write lock first, so read-check-write cannot interleave.
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")

    @staticmethod
    def _where(id: str) -> tuple[str, object]:
        column, value = id_kind(id)
        return f"d.{column} = ?", value

    def _current(self, connection: sqlite3.Connection, id: str) -> tuple[int, str, str, int, str]:
        clause, value = self._where(id)
        row: tuple[int, str, str, int, str] | None = connection.execute(_SELECT + clause, (value,)).fetchone()
        if row is None:
            raise DocumentNotFoundError(
                f"No document {id!r} (a path, a numeric id or a UUID); the tools never create one.",
                document_id=id,
            )
        return row

    @staticmethod
    def _document(id: str, row: tuple[int, str, str, int, str]) -> Document:
        numeric_id, uuid, path, revision, content = row
        return Document(id=id, content=content, version=str(revision), path=path, numeric_id=numeric_id, uuid=uuid)

    def read(self, id: str) -> Document:
        check_id(id)
        try:
            with self._connection() as connection:
                return self._document(id, self._current(connection, id))
        except sqlite3.Error as error:
            raise DocumentUnreadableError(
                f"Document {id!r} cannot be read from the database ({type(error).__name__}).", document_id=id
            ) from None

    def _store_revision(
        self, connection: sqlite3.Connection, id: str, content: str, expected_version: str | None
    ) -> str:
        numeric_id, _, _, revision, current = self._current(connection, id)
        check_expected_version(id, expected_version, revision)
        if content == current:
            return str(revision)
        connection.execute(
            "INSERT INTO revisions (numeric_id, revision, content, created_at) VALUES (?, ?, ?, ?)",
            (numeric_id, revision + 1, content, datetime.now(timezone.utc).isoformat()),
        )
        connection.execute("UPDATE documents SET revision = ? WHERE numeric_id = ?", (revision + 1, numeric_id))
        return str(revision + 1)

    def write(self, id: str, content: str, expected_version: str | None = None) -> str:
        check_id(id)
        check_content(content)
        try:
            with self._connection() as connection, self._transaction(connection):
                return self._store_revision(connection, id, content, expected_version)
        except sqlite3.Error as error:
            raise _unchanged(id, error) from None

    def create(self, id: str, content: str) -> str:
        check_id(id)
        check_content(content)
        refusal = refuse_id_shaped_path(id)
        if refusal is not None:
            raise InvalidDocumentArgumentsError(refusal, document_id=id)
        try:
            with self._connection() as connection, self._transaction(connection):
                if connection.execute("SELECT 1 FROM documents WHERE path = ?", (id,)).fetchone():
                    raise DocumentExistsError(f"A document {id!r} already exists.", document_id=id)
                cursor = connection.execute(
                    "INSERT INTO documents (uuid, path, revision) VALUES (?, ?, 1)",
                    (str(uuid_module.uuid4()), id),
                )
                connection.execute(
                    "INSERT INTO revisions (numeric_id, revision, content, created_at) VALUES (?, 1, ?, ?)",
                    (cursor.lastrowid, content, datetime.now(timezone.utc).isoformat()),
                )
        except sqlite3.Error as error:
            raise DocumentWriteError(
                f"Document {id!r} cannot be created in the database ({type(error).__name__}).", document_id=id
            ) from None
        return id

    def history(self, id: str) -> tuple[Document, ...]:
        """Every version of the document, newest first."""
        check_id(id)
        clause, value = self._where(id)
        try:
            with self._connection() as connection:
                rows = connection.execute(
                    "SELECT d.numeric_id, d.uuid, d.path, r.revision, r.content FROM documents d "
                    "JOIN revisions r ON r.numeric_id = d.numeric_id WHERE " + clause + " ORDER BY r.revision DESC",
                    (value,),
                ).fetchall()
        except sqlite3.Error as error:
            raise DocumentUnreadableError(
                f"The history of {id!r} cannot be read ({type(error).__name__}).", document_id=id
            ) from None
        if not rows:
            raise DocumentNotFoundError(f"No document {id!r}.", document_id=id)
        return tuple(self._document(id, row) for row in rows)

    def revert(self, id: str, version: str, expected_version: str | None = None) -> str:
        """Write ``version``'s content back as a new version; return the new version."""
        check_id(id)
        try:
            with self._connection() as connection, self._transaction(connection):
                numeric_id = self._current(connection, id)[0]

                def content_of(revision: int) -> str | None:
                    row = connection.execute(
                        "SELECT content FROM revisions WHERE numeric_id = ? AND revision = ?", (numeric_id, revision)
                    ).fetchone()
                    return None if row is None else str(row[0])

                return revert_revision(
                    id,
                    version,
                    expected_version,
                    content_of=content_of,
                    store=lambda content, expected: self._store_revision(connection, id, content, expected),
                )
        except sqlite3.Error as error:
            raise _unchanged(id, error) from None


def _unchanged(id: str, error: sqlite3.Error) -> DocumentWriteError:
    """The error for a write or revert the database refused (its transaction rolled back)."""
    return DocumentWriteError(
        f"Document {id!r} cannot be written to the database ({type(error).__name__}); it is unchanged.",
        document_id=id,
    )
