"""Documents in a PostgreSQL database, with every version kept, for several hosts on several machines.

Each document has a path, a numeric id and a UUID, and any of them finds it, as
in the SQLite store. A write is one transaction that locks the document's row
(``SELECT … FOR UPDATE``), so ``expected_version`` is checked and the new
revision stored without another connection, process or machine in between.

psycopg 3 and psycopg_pool are imported only when a store is made: the rest of
the package runs without them (extra ``postgres``).
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import uuid as uuid_module
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from ._id_kinds import id_kind, refuse_id_shaped_path
from ._store import (
    Document,
    DocumentExistsError,
    DocumentNotFoundError,
    DocumentStoreError,
    DocumentWriteError,
    InvalidDocumentArgumentsError,
    StoreUnavailableError,
    check_content,
    check_expected_version,
    check_id,
    revert_revision,
)

if TYPE_CHECKING:
    import psycopg
    import psycopg_pool

__all__ = ["SCHEMA_VERSION", "PostgresDocumentStore"]

SCHEMA_VERSION = 1
_INSTALL = "pip install 'writing-rules[postgres]'"
# Any fixed number: it serialises schema creation by concurrent first users of one database.
_SCHEMA_LOCK = 0x77725F646F6373
_SCHEMA = (
    """CREATE TABLE writing_rules_documents (
        numeric_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        uuid uuid NOT NULL UNIQUE,
        path text NOT NULL UNIQUE,
        revision bigint NOT NULL
    )""",
    """CREATE TABLE writing_rules_revisions (
        numeric_id bigint NOT NULL REFERENCES writing_rules_documents (numeric_id) ON DELETE CASCADE,
        revision bigint NOT NULL,
        content text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (numeric_id, revision)
    )""",
    """CREATE TABLE writing_rules_schema (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        version integer NOT NULL
    )""",
    f"INSERT INTO writing_rules_schema (version) VALUES ({SCHEMA_VERSION})",
)
_DOCUMENT = "SELECT numeric_id, uuid::text, path, revision FROM writing_rules_documents WHERE "
_CURRENT = (
    "SELECT d.numeric_id, d.uuid::text, d.path, d.revision, r.content FROM writing_rules_documents d "
    "JOIN writing_rules_revisions r ON r.numeric_id = d.numeric_id AND r.revision = d.revision WHERE d."
)
# One statement stores the revision and moves the document to it, unless the content is unchanged.
_STORE_REVISION = """
WITH new AS (SELECT %(content)s::text AS content),
inserted AS (
    INSERT INTO writing_rules_revisions (numeric_id, revision, content)
    SELECT %(numeric_id)s, %(next)s, new.content FROM new
    WHERE new.content IS DISTINCT FROM (
        SELECT content FROM writing_rules_revisions WHERE numeric_id = %(numeric_id)s AND revision = %(revision)s
    )
    RETURNING numeric_id, revision
)
UPDATE writing_rules_documents d SET revision = inserted.revision FROM inserted
WHERE d.numeric_id = inserted.numeric_id RETURNING d.revision
"""
# A URL's password (user:PASSWORD@) and a key=value password, for keeping them out of messages.
_URL_PASSWORD = re.compile(r"(?<=:)[^:@/]*(?=@)")
_KEY_PASSWORD = re.compile(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)")
# What libpq's parse errors quote ('missing "=" after "…"'), "=" being the only piece never taken from the string.
_QUOTED = re.compile(r'"="|"[^"]*"|\'[^\']*\'')
_Row = tuple[int, str, str, int]
_CONNECT = "connect to the database"
# A B-tree entry must fit in a third of a page (about 2,700 bytes); paths stay well below.
_MAX_PATH_BYTES = 2000
_T = TypeVar("_T")


def _drivers() -> tuple[Any, Any]:
    try:
        import psycopg
        import psycopg_pool
    except ImportError as error:
        raise ImportError(f"PostgresDocumentStore needs psycopg 3 and psycopg_pool: {_INSTALL}") from error
    return psycopg, psycopg_pool


def redact_dsn(text: str, password: str | None = None) -> str:
    """``text`` with the connection string's password (and ``password``) replaced by ``***``."""
    if password:
        text = text.replace(password, "***")
    text = _KEY_PASSWORD.sub(r"\1***", text)
    return re.sub(r"\w+://[^\s@/]*@", lambda match: _URL_PASSWORD.sub("***", match.group(0)), text)


def _ambiguous_url(dsn: str) -> bool:
    """Whether a URL's user name and password could be split from its host in two ways.

    libpq takes the user name and password to end at the first '@', unless a '/' comes
    first (then there are none); RFC 3986 (``urllib.parse`` and every other reader of a
    URL) takes the authority to end at the first '/', '?' or '#', and its user name and
    password at the authority's last '@'. A URL on which the two differ, or with an '@'
    in its host or database name (most likely the end of a user name and password
    holding a '/' or a second '@'), is refused before anything parses it: an unescaped '@', '/', '?' or
    '#' in a password makes libpq take part of it for the host or database, and its
    errors show that part. An '@' in the query (``?options=…``, an ``sslrootcert``
    path) is legal and read alike by both.
    """
    scheme, separator, rest = dsn.partition("://")
    if not separator or scheme.lower() not in ("postgresql", "postgres"):
        return False
    first = next((index for index, character in enumerate(rest) if character in "@/"), -1)
    libpq_at = first if first >= 0 and rest[first] == "@" else -1
    authority_end = next((index for index, character in enumerate(rest) if character in "/?#"), len(rest))
    if rest.rfind("@", 0, authority_end) != libpq_at:
        return True
    # After the user name and password, libpq reads the host and the database name up to the
    # first '?' (a '#' is no delimiter to it): an '@' there is one a password held.
    start = libpq_at + 1
    query = rest.find("?", start)
    return "@" in rest[start : len(rest) if query < 0 else query]


def _without_quotes(reason: str) -> str:
    """libpq's parse error without the pieces of the string it quotes: any of them may be a password's."""
    first = reason.splitlines()[0] if reason else ""
    return _QUOTED.sub(lambda quoted: quoted[0] if quoted[0] == '"="' else '"…"', first)[:300]


class PostgresDocumentStore:
    """Documents in a PostgreSQL database; versions are revision numbers as strings ("1", "2", …).

    ``dsn_or_pool`` is a connection string (``postgresql://user:password@host:5432/db`` or
    ``host=… dbname=…``) or a ``psycopg_pool.ConnectionPool`` the host owns and configures.
    With a connection string the store keeps its own pool of up to ``max_connections``
    connections per process, with ``statement_timeout`` seconds for each statement
    (lock waits included) and ``connect_timeout`` seconds to get a connection.

    Nothing is connected until the first call (or ``open()``), which creates the tables
    if the database has none (and the user may) or checks their recorded schema version.
    Safe for threads and processes; a forked child makes its own pool.
    """

    def __init__(
        self,
        dsn_or_pool: Any,
        *,
        statement_timeout: float | None = None,
        connect_timeout: float = 10.0,
        max_connections: int = 4,
    ) -> None:
        psycopg, pool_module = _drivers()
        for name, value in (("connect_timeout", connect_timeout), ("statement_timeout", statement_timeout)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0):
                raise ValueError(f"{name} must be a positive number of seconds")
        if isinstance(max_connections, bool) or not isinstance(max_connections, int) or max_connections < 1:
            raise ValueError("max_connections must be an int of at least 1")
        self._dsn: str | None = None
        self._password: str | None = None
        self._given_pool: psycopg_pool.ConnectionPool | None = None
        self._dsn_keys: frozenset[str] = frozenset()
        if isinstance(dsn_or_pool, str):
            if _ambiguous_url(dsn_or_pool):
                raise ValueError(
                    "The PostgreSQL URL holds a '/', '?' or '#' before its '@', more than one '@' before the "
                    "host, or an '@' in the database name: part of the user name or password would be read as "
                    "the host or database. Percent-encode these characters in the user name, password and "
                    "database name ('@' as %40, '/' as %2F, '?' as %3F, '#' as %23, ':' as %3A, '%' as %25); "
                    "an '@' in the query (after '?') may stay. The URL is not shown: it may hold a password."
                )
            try:
                parameters = psycopg.conninfo.conninfo_to_dict(dsn_or_pool)
            except psycopg.Error as error:
                raise ValueError(
                    "not a PostgreSQL connection string (postgresql://user:password@host:port/database or "
                    f"key=value pairs): {_without_quotes(str(error).strip())}. The string is not shown: it may "
                    "hold a password; percent-encode special characters in a URL's user name and password, "
                    "and quote values with spaces in key=value pairs ('a b')."
                ) from None
            except UnicodeDecodeError:  # libpq decoded a %XX escape into bytes that are no UTF-8
                raise ValueError(
                    "a percent-encoded part of the PostgreSQL URL (a %XX escape in the user name, password, "
                    "host, database name or a parameter) is not UTF-8 text once decoded; encode the value's "
                    "UTF-8 bytes ('é' as %C3%A9). The URL is not shown: it may hold a password."
                ) from None
            self._dsn = dsn_or_pool
            self._password = parameters.get("password") or None
            self._dsn_keys = frozenset(parameters)
        elif isinstance(dsn_or_pool, pool_module.ConnectionPool):
            if statement_timeout is not None:
                raise ValueError("statement_timeout applies to a connection string; configure a given pool yourself")
            self._given_pool = dsn_or_pool
        else:
            raise TypeError(
                f"PostgresDocumentStore needs a connection string or a psycopg_pool.ConnectionPool; "
                f"got {type(dsn_or_pool).__name__}"
            )
        self._statement_timeout = 30.0 if statement_timeout is None else float(statement_timeout)
        self._connect_timeout = float(connect_timeout)
        self._max_connections = max_connections
        self._lock = threading.Lock()
        # The pool and the schema check belong to one process: a forked child starts afresh.
        self._pid: int | None = None
        self._pool: psycopg_pool.ConnectionPool | None = None
        self._closed = False

    def __repr__(self) -> str:
        where = "<pool>" if self._dsn is None else repr(redact_dsn(self._dsn, self._password))
        return f"PostgresDocumentStore({where})"

    def __enter__(self) -> PostgresDocumentStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- connections ----------------------------------------------------------------------------

    def open(self) -> PostgresDocumentStore:
        """Connect now and create or check the schema; ``StoreUnavailableError`` says why not."""
        self._ready_pool()
        return self

    def close(self) -> None:
        """Close the store's own pool (a given pool stays open: its owner closes it)."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
            if pool is not None and pool is not self._given_pool and self._pid == os.getpid():
                pool.close()

    def _connection_kwargs(self) -> dict[str, Any]:
        defaults: dict[str, Any] = {
            "connect_timeout": max(1, round(self._connect_timeout)),
            # A peer that vanishes without closing the socket is noticed in about 30 s, not hours.
            "keepalives": 1,
            "keepalives_idle": 15,
            "keepalives_interval": 5,
            "keepalives_count": 3,
            "application_name": "writing-rules",
        }
        # What the connection string says wins over these defaults.
        kwargs = {key: value for key, value in defaults.items() if key not in self._dsn_keys}
        kwargs["autocommit"] = True
        return kwargs

    def _configure(self, connection: psycopg.Connection[Any]) -> None:
        milliseconds = max(1, round(self._statement_timeout * 1000))
        connection.execute(f"SET statement_timeout = {milliseconds}")
        # A client frozen inside a transaction must not hold a document's lock for ever.
        connection.execute(f"SET idle_in_transaction_session_timeout = {max(milliseconds * 2, 10_000)}")

    def _ready_pool(self) -> psycopg_pool.ConnectionPool:
        with self._lock:
            if self._closed:
                raise StoreUnavailableError("This PostgresDocumentStore was closed.")
            if self._pool is not None and self._pid == os.getpid():
                return self._pool
            psycopg, pool_module = _drivers()
            if self._given_pool is not None:
                pool = self._given_pool
                with (
                    self._errors("prepare the database"),
                    pool.connection(timeout=self._connect_timeout) as connection,
                ):
                    self._prepare_schema(connection)
            else:
                assert self._dsn is not None
                # One direct connection first: the pool would hide a refused password behind a timeout.
                with self._errors(_CONNECT):
                    connection = psycopg.connect(self._dsn, **self._connection_kwargs())
                    try:
                        self._configure(connection)
                        self._prepare_schema(connection)
                    finally:
                        connection.close()
                pool = pool_module.ConnectionPool(
                    self._dsn,
                    kwargs=self._connection_kwargs(),
                    min_size=1,
                    max_size=self._max_connections,
                    open=False,
                    configure=self._configure,
                    # Connections that died with a restarted server are replaced before use.
                    check=pool_module.ConnectionPool.check_connection,
                    timeout=self._connect_timeout,
                    name="writing-rules-documents",
                )
                pool.open(wait=False)
            self._pool, self._pid = pool, os.getpid()
            return pool

    def _prepare_schema(self, connection: psycopg.Connection[Any]) -> None:
        with self._transaction(connection):
            encoding = connection.execute("SELECT current_setting('server_encoding')").fetchone()
            if encoding is None or encoding[0] != "UTF8":
                raise StoreUnavailableError(
                    f"The database's encoding is {encoding[0] if encoding else '?'}, not UTF8, so not every "
                    "document could be stored; create the database with ENCODING 'UTF8'."
                )
            if self._schema_version(connection) is None:
                connection.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                if self._schema_version(connection) is None:
                    psycopg, _ = _drivers()
                    try:
                        for statement in _SCHEMA:
                            connection.execute(statement)
                    except (psycopg.errors.InsufficientPrivilege, psycopg.errors.InvalidSchemaName):
                        user = connection.info.user
                        raise StoreUnavailableError(
                            f"The database has no writing-rules tables and user {user!r} may not create them "
                            "(or no schema is selected). Let the database owner run "
                            "PostgresDocumentStore.schema_sql() once, or grant CREATE on the schema; "
                            "see docs/documents.md."
                        ) from None
                    return
            version = self._schema_version(connection)
            if version != SCHEMA_VERSION:
                raise StoreUnavailableError(
                    f"The database holds writing-rules schema version {version}; this writing-rules "
                    f"understands version {SCHEMA_VERSION}. Use a matching writing-rules release."
                )

    @staticmethod
    def _schema_version(connection: psycopg.Connection[Any]) -> int | None:
        exists = connection.execute("SELECT to_regclass('writing_rules_schema') IS NOT NULL").fetchone()
        if not exists or not exists[0]:
            return None
        row = connection.execute("SELECT version FROM writing_rules_schema").fetchone()
        return -1 if row is None else int(row[0])

    @staticmethod
    def schema_sql() -> str:
        """The statements that create the tables, for a database owner to run once by hand."""
        return ";\n".join(_SCHEMA) + ";\n"

    @staticmethod
    @contextlib.contextmanager
    def _transaction(connection: psycopg.Connection[Any]) -> Iterator[None]:
        with connection.transaction():
            yield

    @contextlib.contextmanager
    def _errors(self, action: str, id: str | None = None, *, writes: bool = False) -> Iterator[None]:
        """Turn driver and pool errors into ``DocumentStoreError``s that never show a password."""
        psycopg, pool_module = _drivers()
        shown = "" if id is None else f" for {id[:200]!r}"
        unchanged = " Nothing was written." if writes else ""
        try:
            yield
        except DocumentStoreError:
            raise
        except pool_module.PoolTimeout:
            raise StoreUnavailableError(
                f"No connection to the database within {self._connect_timeout:g} s to {action}{shown} "
                f"(is the server up and reachable?).{unchanged} The call may be retried.",
                document_id=id,
            ) from None
        except pool_module.PoolClosed:
            raise StoreUnavailableError("This PostgresDocumentStore was closed.", document_id=id) from None
        except psycopg.errors.QueryCanceled:
            raise StoreUnavailableError(
                f"The database did not {action}{shown} within the statement timeout "
                f"({self._statement_timeout:g} s); another writer may hold the document.{unchanged} "
                "The call may be retried.",
                document_id=id,
            ) from None
        except (psycopg.errors.SerializationFailure, psycopg.errors.DeadlockDetected):
            raise StoreUnavailableError(
                f"The database could not {action}{shown} now (a conflicting transaction).{unchanged} "
                "The call may be retried.",
                document_id=id,
            ) from None
        except psycopg.errors.InsufficientPrivilege:
            kind = DocumentWriteError if writes else StoreUnavailableError
            raise kind(
                f"The database user may not {action}{shown} (permission denied).{unchanged}", document_id=id
            ) from None
        except (psycopg.OperationalError, psycopg.InterfaceError) as error:
            reason = redact_dsn(str(error).strip().splitlines()[0] if str(error).strip() else "", self._password)
            if action == _CONNECT:
                raise StoreUnavailableError(
                    f"Cannot connect to the database ({type(error).__name__}: {reason[:300]}). Check the "
                    "host, port, database, user and password, or retry when the server is up.",
                    document_id=id,
                ) from None
            raise StoreUnavailableError(
                f"Cannot {action}{shown}: the database is unreachable or the connection was lost "
                f"({type(error).__name__}: {reason[:300]}).{unchanged} The call may be retried; "
                "the next call connects again.",
                document_id=id,
            ) from None
        except psycopg.Error as error:
            code = getattr(error, "sqlstate", None) or "no SQLSTATE"
            kind = DocumentWriteError if writes else StoreUnavailableError
            raise kind(
                f"The database refused to {action}{shown} ({type(error).__name__}, {code}).{unchanged}",
                document_id=id,
            ) from None

    def _run(self, action: str, id: str | None, body: Callable[[Any], _T], *, writes: bool = False) -> _T:
        """Run ``body(connection)`` in one transaction on a pooled connection."""
        committing = False
        try:
            with self._errors(action, id, writes=writes):
                pool = self._ready_pool()
                connection = pool.getconn()
                try:
                    with self._transaction(connection):
                        result = body(connection)
                        committing = True
                    return result
                finally:
                    pool.putconn(connection)
        except StoreUnavailableError as error:
            if committing and writes:
                # The commit was sent but its answer was lost: the write may or may not be stored.
                raise StoreUnavailableError(
                    f"The connection was lost while committing the write to {id!r}; it may or may not "
                    "be stored. Read the document again before retrying (a retry with expected_version "
                    "cannot apply twice).",
                    document_id=id,
                ) from None
            raise error from None

    # -- documents ------------------------------------------------------------------------------

    @staticmethod
    def _not_found(id: str) -> DocumentNotFoundError:
        return DocumentNotFoundError(
            f"No document {id[:200]!r} (a path, a numeric id or a UUID); the tools never create one.",
            document_id=id,
        )

    def _locked(self, connection: psycopg.Connection[Any], id: str) -> _Row:
        # The row lock alone (no join): after waiting for another writer it re-reads the newest row.
        column, value = id_kind(id)
        row = connection.execute(_DOCUMENT + f"{column} = %s FOR UPDATE", (_parameter(column, value),)).fetchone()
        if row is None:
            raise self._not_found(id)
        numeric_id, uuid, path, revision = row
        return int(numeric_id), str(uuid), str(path), int(revision)

    def read(self, id: str) -> Document:
        check_id(id)
        column, value = id_kind(id)

        def body(connection: psycopg.Connection[Any]) -> Document:
            row = connection.execute(_CURRENT + f"{column} = %s", (_parameter(column, value),)).fetchone()
            if row is None:
                raise self._not_found(id)
            numeric_id, uuid, path, revision, content = row
            return Document(id, content, str(revision), path=path, numeric_id=numeric_id, uuid=uuid)

        return self._run("read the document", id, body)

    def _store_revision(
        self, connection: psycopg.Connection[Any], id: str, content: str, expected_version: str | None
    ) -> str:
        numeric_id, _, _, revision = self._locked(connection, id)
        check_expected_version(id, expected_version, revision)
        stored = connection.execute(
            _STORE_REVISION,
            {"content": content, "numeric_id": numeric_id, "revision": revision, "next": revision + 1},
        ).fetchone()
        return str(revision if stored is None else stored[0])

    def write(self, id: str, content: str, expected_version: str | None = None) -> str:
        check_id(id)
        _check_text(content)
        return self._run(
            "write the document",
            id,
            lambda connection: self._store_revision(connection, id, content, expected_version),
            writes=True,
        )

    def create(self, id: str, content: str) -> str:
        check_id(id)
        _check_text(content)
        refusal = refuse_id_shaped_path(id)
        if refusal is not None:
            raise InvalidDocumentArgumentsError(refusal, document_id=id)
        if len(id.encode("utf-8")) > _MAX_PATH_BYTES:
            raise InvalidDocumentArgumentsError(
                f"A path may have at most {_MAX_PATH_BYTES} bytes of UTF-8 in this store (the database indexes it).",
                document_id=id,
            )

        def body(connection: psycopg.Connection[Any]) -> str:
            row = connection.execute(
                "INSERT INTO writing_rules_documents (uuid, path, revision) VALUES (%s, %s, 1) "
                "ON CONFLICT (path) DO NOTHING RETURNING numeric_id",
                (uuid_module.uuid4(), id),
            ).fetchone()
            if row is None:
                raise DocumentExistsError(f"A document {id[:200]!r} already exists.", document_id=id)
            connection.execute(
                "INSERT INTO writing_rules_revisions (numeric_id, revision, content) VALUES (%s, 1, %s)",
                (row[0], content),
            )
            return id

        return self._run("create the document", id, body, writes=True)

    def history(self, id: str) -> tuple[Document, ...]:
        """Every version of the document, newest first."""
        check_id(id)
        column, value = id_kind(id)

        def body(connection: psycopg.Connection[Any]) -> tuple[Document, ...]:
            rows = connection.execute(
                "SELECT d.numeric_id, d.uuid::text, d.path, r.revision, r.content FROM writing_rules_documents d "
                f"JOIN writing_rules_revisions r ON r.numeric_id = d.numeric_id WHERE d.{column} = %s "
                "ORDER BY r.revision DESC",
                (_parameter(column, value),),
            ).fetchall()
            if not rows:
                raise self._not_found(id)
            return tuple(
                Document(id, content, str(revision), path=path, numeric_id=numeric_id, uuid=uuid)
                for numeric_id, uuid, path, revision, content in rows
            )

        return self._run("read the history", id, body)

    def revert(self, id: str, version: str, expected_version: str | None = None) -> str:
        """Write ``version``'s content back as a new version; return the new version."""
        check_id(id)

        def body(connection: psycopg.Connection[Any]) -> str:
            numeric_id = self._locked(connection, id)[0]

            def content_of(revision: int) -> str | None:
                row = connection.execute(
                    "SELECT content FROM writing_rules_revisions WHERE numeric_id = %s AND revision = %s",
                    (numeric_id, revision),
                ).fetchone()
                return None if row is None else str(row[0])

            return revert_revision(
                id,
                version,
                expected_version,
                content_of=content_of,
                store=lambda content, expected: self._store_revision(connection, id, content, expected),
            )

        return self._run("revert the document", id, body, writes=True)


def _parameter(column: str, value: object) -> object:
    return uuid_module.UUID(str(value)) if column == "uuid" else value


def _check_text(content: object) -> str:
    check_content(content)
    assert isinstance(content, str)
    if "\x00" in content:
        raise InvalidDocumentArgumentsError(
            "The content holds a NUL character, which PostgreSQL text cannot store; remove it."
        )
    return content
