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
if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    # One import per module, as in the map below; `X as X` re-exports X for mypy.
    # isort: off
    from ._directory_store import DirectoryDocumentStore as DirectoryDocumentStore
    from ._dispatcher import (
        DocumentToolDispatcher as DocumentToolDispatcher,
        create_document_tool_dispatcher as create_document_tool_dispatcher,
        document_tool_definitions as document_tool_definitions,
    )
    from ._documentation_files import DOCUMENTATION_FILES as DOCUMENTATION_FILES, EXCLUDED_FILES as EXCLUDED_FILES
    from ._engine import EditResult as EditResult, apply_operations as apply_operations, edit as edit
    from ._errors import DocumentEditError as DocumentEditError
    from ._matching import occurrence_at as occurrence_at, occurrences_at as occurrences_at
    from ._memory_store import MemoryDocumentStore as MemoryDocumentStore
    from ._operations import MAX_OPERATIONS as MAX_OPERATIONS
    from ._postgres_store import PostgresDocumentStore as PostgresDocumentStore
    from ._sqlite_store import SqliteDocumentStore as SqliteDocumentStore
    from ._store import (
        Document as Document,
        DocumentExistsError as DocumentExistsError,
        DocumentNotFoundError as DocumentNotFoundError,
        DocumentStore as DocumentStore,
        DocumentStoreError as DocumentStoreError,
        DocumentUnreadableError as DocumentUnreadableError,
        DocumentWriteError as DocumentWriteError,
        InvalidDocumentArgumentsError as InvalidDocumentArgumentsError,
        StoreUnavailableError as StoreUnavailableError,
        VersionConflictError as VersionConflictError,
        VersionNotFoundError as VersionNotFoundError,
    )
    # isort: on

__all__, __getattr__, __dir__ = lazy_exports(
    globals(),
    {
        "._directory_store": ("DirectoryDocumentStore",),
        "._dispatcher": ("DocumentToolDispatcher", "create_document_tool_dispatcher", "document_tool_definitions"),
        "._documentation_files": ("DOCUMENTATION_FILES", "EXCLUDED_FILES"),
        "._engine": ("EditResult", "apply_operations", "edit"),
        "._errors": ("DocumentEditError",),
        "._matching": ("occurrence_at", "occurrences_at"),
        "._memory_store": ("MemoryDocumentStore",),
        "._operations": ("MAX_OPERATIONS",),
        "._postgres_store": ("PostgresDocumentStore",),
        "._sqlite_store": ("SqliteDocumentStore",),
        "._store": (
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
        ),
    },
)
