"""A store in process memory, for tests and for hosts that keep documents themselves."""

from __future__ import annotations

import threading
from collections.abc import Mapping

from ._store import (
    Document,
    DocumentExistsError,
    DocumentNotFoundError,
    VersionConflictError,
    check_content,
    check_id,
    content_digest,
)

__all__ = ["MemoryDocumentStore"]


class MemoryDocumentStore:
    """Documents in a dict guarded by a lock; versions are SHA-256 digests of the UTF-8 text.

    Safe for threads of one process; each process has its own copy.
    """

    def __init__(self, documents: Mapping[str, str] | None = None) -> None:
        self._lock = threading.Lock()
        self._documents: dict[str, str] = {}
        for id, content in (documents or {}).items():
            self.create(id, content)

    def read(self, id: str) -> Document:
        check_id(id)
        with self._lock:
            content = self._documents.get(id)
        if content is None:
            raise DocumentNotFoundError(f"No document with id {id!r}.", document_id=id)
        return Document(id=id, content=content, version=content_digest(content.encode("utf-8")))

    def write(self, id: str, content: str, expected_version: str | None = None) -> str:
        check_id(id)
        check_content(content)
        version = content_digest(content.encode("utf-8"))
        with self._lock:
            current = self._documents.get(id)
            if current is None:
                raise DocumentNotFoundError(f"No document with id {id!r}; the tools never create one.", document_id=id)
            current_version = content_digest(current.encode("utf-8"))
            if expected_version is not None and expected_version != current_version:
                raise VersionConflictError(
                    f"Document {id!r} changed: expected version {expected_version!r}, current is "
                    f"{current_version!r}. Read it again and redo the edit.",
                    document_id=id,
                    current_version=current_version,
                )
            self._documents[id] = content
        return version

    def create(self, id: str, content: str) -> str:
        check_id(id)
        check_content(content)
        with self._lock:
            if id in self._documents:
                raise DocumentExistsError(f"A document with id {id!r} already exists.", document_id=id)
            self._documents[id] = content
        return id

    def ids(self) -> tuple[str, ...]:
        """Every id, sorted."""
        with self._lock:
            return tuple(sorted(self._documents))
