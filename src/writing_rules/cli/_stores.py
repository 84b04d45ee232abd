"""Where the CLI finds documents: a folder, or a database named by a URL."""

from __future__ import annotations

from ..documents import DocumentStore, PostgresDocumentStore, SqliteDocumentStore

__all__ = ["STORE_LOCATIONS", "database_store"]

STORE_LOCATIONS = "a folder, a PostgreSQL URL (postgresql://user:password@host:port/database) or sqlite:PATH"
_POSTGRES = ("postgresql://", "postgres://")


def database_store(location: str) -> DocumentStore | None:
    """The database store ``location`` names, connected and checked; None when it names a folder.

    Raises ``ValueError`` (``DocumentStoreError`` included; never with the password) when the
    database cannot be used, and ``ImportError`` when the ``postgres`` extra is missing.
    """
    if location.startswith(_POSTGRES):
        return PostgresDocumentStore(location).open()
    if location.startswith("sqlite:"):
        path = location[len("sqlite:") :]
        # sqlite:///abs/path.db and sqlite:relative.db, as in SQLAlchemy's URLs.
        return SqliteDocumentStore(path[2:] if path.startswith("//") else path)
    return None
