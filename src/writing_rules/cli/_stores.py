"""Where the CLI finds documents: a folder, or a database named by a URL."""

from __future__ import annotations

import os
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..documents import DocumentStore

__all__ = ["STORE_LOCATIONS", "database_store", "is_database_url"]

STORE_LOCATIONS = "a folder, a PostgreSQL URL (postgresql://user:password@host:port/database) or sqlite:PATH"
_POSTGRES = ("postgresql://", "postgres://")
# A scheme, then a user name (or user name and password) ending at an '@'.
_URL_WITH_USER = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^@]*@")


def is_database_url(location: str) -> bool:
    """Whether ``location`` names a database rather than a folder."""
    return location.startswith((*_POSTGRES, "sqlite:"))


def database_store(location: str) -> DocumentStore | None:
    """The database store ``location`` names, connected and checked; None when it names a folder.

    Raises ``ValueError`` (``DocumentStoreError`` included; never with the password) when the
    database cannot be used, and ``ImportError`` when the ``postgres`` extra is missing.
    """
    if not is_database_url(location):
        if "=" in location and not os.path.exists(location):
            # Likely a key=value connection string: echoing it as a missing folder would show its password.
            raise ValueError(
                "neither a folder nor a database URL; give a PostgreSQL URL (postgresql://user:password@host/"
                "database) or sqlite:PATH, not key=value pairs (the value is not shown: it may hold a password)"
            )
        if _URL_WITH_USER.match(location) and not os.path.exists(location):
            # A URL with a user name (and so perhaps a password) that names no database this reads:
            # 'POSTGRESQL://' (libpq reads the scheme in lower case only), 'postgresql:/', a typo.
            raise ValueError(
                "neither a folder nor a database URL; a PostgreSQL URL starts with postgresql:// or postgres:// "
                "in lower case (postgresql://user:password@host/database), an SQLite one with sqlite: "
                "(the value is not shown: it may hold a password)"
            )
        return None
    from ..documents import PostgresDocumentStore, SqliteDocumentStore  # sqlite3 and psycopg only when used

    if location.startswith(_POSTGRES):
        return PostgresDocumentStore(location).open()
    path = location[len("sqlite:") :]
    # sqlite:///abs/path.db and sqlite:relative.db, as in SQLAlchemy's URLs.
    return SqliteDocumentStore(path[2:] if path.startswith("//") else path)
