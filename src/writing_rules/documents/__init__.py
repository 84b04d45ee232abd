"""Block-based, quote-anchored editing of text documents for LLM agents.

An agent changes a document by quoting the text it wants to change
(``replaceBlock``, ``insertAfter``, …), never by line numbers. The pure core
(``edit``, ``apply_operations``) works on strings; the stores keep documents
with optimistic versioning; the dispatcher offers ``read_document`` and
``write_document`` as tools with the same envelopes as the review tools.
See ``docs/documents.md``.
"""

from __future__ import annotations

from .._lazy_exports import lazy_exports

# Each public name loads its module on first use: the command line's scan needs
# DOCUMENTATION_FILES, not the dispatcher's asyncio or the stores' sqlite3.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._directory_store import DirectoryDocumentStore
    from ._dispatcher import DocumentToolDispatcher, create_document_tool_dispatcher, document_tool_definitions
    from ._documentation_files import DOCUMENTATION_FILES, EXCLUDED_FILES
    from ._engine import EditResult, apply_operations, edit
    from ._errors import DocumentEditError
    from ._matching import occurrence_at
    from ._memory_store import MemoryDocumentStore
    from ._operations import MAX_OPERATIONS
    from ._postgres_store import PostgresDocumentStore
    from ._sqlite_store import SqliteDocumentStore
    from ._store import (
        Document,
        DocumentExistsError,
        DocumentNotFoundError,
        DocumentStore,
        DocumentStoreError,
        DocumentUnreadableError,
        DocumentWriteError,
        InvalidDocumentArgumentsError,
        StoreUnavailableError,
        VersionConflictError,
        VersionNotFoundError,
    )


__all__ = [
    "DOCUMENTATION_FILES",
    "EXCLUDED_FILES",
    "MAX_OPERATIONS",
    "DirectoryDocumentStore",
    "Document",
    "DocumentEditError",
    "DocumentExistsError",
    "DocumentNotFoundError",
    "DocumentStore",
    "DocumentStoreError",
    "DocumentToolDispatcher",
    "DocumentUnreadableError",
    "DocumentWriteError",
    "EditResult",
    "InvalidDocumentArgumentsError",
    "MemoryDocumentStore",
    "PostgresDocumentStore",
    "SqliteDocumentStore",
    "StoreUnavailableError",
    "VersionConflictError",
    "VersionNotFoundError",
    "apply_operations",
    "create_document_tool_dispatcher",
    "document_tool_definitions",
    "edit",
    "occurrence_at",
]

__getattr__, __dir__ = lazy_exports(
    globals(),
    {
        "DOCUMENTATION_FILES": "._documentation_files",
        "EXCLUDED_FILES": "._documentation_files",
        "DirectoryDocumentStore": "._directory_store",
        "Document": "._store",
        "DocumentEditError": "._errors",
        "DocumentExistsError": "._store",
        "DocumentNotFoundError": "._store",
        "DocumentStore": "._store",
        "DocumentStoreError": "._store",
        "DocumentToolDispatcher": "._dispatcher",
        "DocumentUnreadableError": "._store",
        "DocumentWriteError": "._store",
        "EditResult": "._engine",
        "InvalidDocumentArgumentsError": "._store",
        "MAX_OPERATIONS": "._operations",
        "MemoryDocumentStore": "._memory_store",
        "PostgresDocumentStore": "._postgres_store",
        "SqliteDocumentStore": "._sqlite_store",
        "StoreUnavailableError": "._store",
        "VersionConflictError": "._store",
        "VersionNotFoundError": "._store",
        "apply_operations": "._engine",
        "create_document_tool_dispatcher": "._dispatcher",
        "document_tool_definitions": "._dispatcher",
        "edit": "._engine",
        "occurrence_at": "._matching",
    },
)
