"""What a document store is: the ``Document`` value, the protocol and its errors."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .._errors import WritingRulesError

__all__ = [
    "Document",
    "DocumentExistsError",
    "DocumentNotFoundError",
    "DocumentStore",
    "DocumentStoreError",
    "DocumentUnreadableError",
    "DocumentWriteError",
    "InvalidDocumentArgumentsError",
    "StoreUnavailableError",
    "VersionConflictError",
    "VersionNotFoundError",
    "check_content",
    "check_expected_version",
    "check_id",
    "content_digest",
    "revert_revision",
]


class DocumentStoreError(WritingRulesError):
    """A store refused a call; ``code`` is the tool error code it becomes."""

    code = "internal-error"

    def __init__(self, message: str, *, document_id: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.document_id = document_id


class InvalidDocumentArgumentsError(DocumentStoreError):
    """The id (or content) is not one this store accepts, e.g. a path leaving the root."""

    code = "invalid-arguments"


class DocumentNotFoundError(DocumentStoreError):
    """No document has this id."""

    code = "document-not-found"


class DocumentUnreadableError(DocumentStoreError):
    """The document is not UTF-8 text, or not a regular file."""

    code = "document-unreadable"


class VersionConflictError(DocumentStoreError):
    """``expected_version`` is no longer the current version; nothing was written."""

    code = "version-conflict"

    def __init__(self, message: str, *, document_id: str | None = None, current_version: str | None = None):
        super().__init__(message, document_id=document_id)
        self.current_version = current_version


class DocumentExistsError(DocumentStoreError):
    """``create`` was given an id that already exists."""

    code = "document-exists"


class VersionNotFoundError(DocumentStoreError):
    """``revert`` was given a version the document never had."""

    code = "version-not-found"


class DocumentWriteError(DocumentStoreError):
    """The storage refused the write (permissions, a full disk); nothing was changed."""

    code = "write-not-allowed"


class StoreUnavailableError(DocumentStoreError):
    """The database cannot be reached or used now (down, timed out, connection lost, no schema).

    Nothing was written (the message says so where a lost commit leaves it open);
    the call may be retried. The message never holds a password.
    """

    code = "store-unavailable"


@dataclass(frozen=True)
class Document:
    """One version of a document. ``path``, ``numeric_id``, ``uuid`` are None where a store has none."""

    id: str
    content: str
    version: str
    path: str | None = None
    numeric_id: int | None = None
    uuid: str | None = None


@runtime_checkable
class DocumentStore(Protocol):
    """Where documents live. Implementations are safe for concurrent threads."""

    def read(self, id: str) -> Document:
        """The current version; ``DocumentNotFoundError`` if there is none."""
        ...

    def write(self, id: str, content: str, expected_version: str | None = None) -> str:
        """Replace the content if ``expected_version`` (when given) is current; return the new version."""
        ...

    def create(self, id: str, content: str) -> str:
        """Make a new document; ``DocumentExistsError`` if the id is taken. Returns the id."""
        ...


def check_id(id: object) -> str:
    """A document id is a non-empty str of valid Unicode without NUL."""
    if not isinstance(id, str):
        raise InvalidDocumentArgumentsError(f"A document id must be a string; got {type(id).__name__}.")
    if not id:
        raise InvalidDocumentArgumentsError("A document id must not be empty.")
    if "\x00" in id:
        raise InvalidDocumentArgumentsError("A document id must not contain NUL characters.", document_id=None)
    try:
        id.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidDocumentArgumentsError("A document id must be valid Unicode (no lone surrogates).") from None
    return id


def check_content(content: object) -> str:
    """Content is a str that can be stored as UTF-8."""
    if not isinstance(content, str):
        raise TypeError(f"content must be a str; got {type(content).__name__}")
    try:
        content.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidDocumentArgumentsError(
            "The content is not valid Unicode (it holds a lone surrogate) and cannot be stored as UTF-8."
        ) from None
    return content


def content_digest(data: bytes) -> str:
    """The version of a content-addressed store: the SHA-256 of the stored bytes."""
    return hashlib.sha256(data).hexdigest()


# -- revisions: what the SQLite and PostgreSQL stores share ------------------------------------------


def check_expected_version(id: str, expected_version: str | None, revision: int) -> None:
    """``VersionConflictError`` when a caller's expected version is not the current revision."""
    if expected_version is not None and expected_version != str(revision):
        raise VersionConflictError(
            f"Document {id[:200]!r} changed: expected version {str(expected_version)[:40]!r}, "
            f"current is {str(revision)!r}. Read it again and redo the edit.",
            document_id=id,
            current_version=str(revision),
        )


def revert_revision(
    id: str,
    version: object,
    expected_version: str | None,
    *,
    content_of: Callable[[int], str | None],
    store: Callable[[str, str | None], str],
) -> str:
    """Write ``version``'s content back as a new revision (``revert`` of a revision store).

    ``content_of`` gives a revision's content (None: no such revision); ``store``
    writes content as the next revision if ``expected_version`` still holds. Both
    run in the caller's transaction, with the document's row locked.
    """
    content = None
    if isinstance(version, str) and version.isascii() and version.isdigit() and len(version) <= 18:
        content = content_of(int(version))
    if content is None:
        raise VersionNotFoundError(
            f"Document {id[:200]!r} has no version {str(version)[:40]!r}; history() lists its versions.",
            document_id=id,
        )
    return store(content, expected_version)
