"""Executing ``read_document`` / ``write_document`` calls against a store.

Speaks the same envelopes as the review tools (``writing_rules._tool_call``).
``dispatch`` never raises: a model's bad call is a failure envelope, and a
bug is ``internal-error``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from .._tool_call import (
    ToolCallError,
    call_identity,
    error_envelope,
    is_plain_json,
    json_pointer,
    non_json_call_error,
    parse_tool_call,
    registry_definitions,
    success_envelope,
    unknown_tool_error,
)
from ._diff import unified_diff
from ._directory_policy import MAX_ID_LENGTH, shown_id
from ._engine import edit
from ._errors import DocumentEditError
from ._operations import Operation, operations_from
from ._schemas import READ_DOCUMENT, TOOL_NAMES, tool_descriptors
from ._store import DocumentStoreError, VersionConflictError
from ._text import line_count

__all__ = ["DocumentToolDispatcher", "create_document_tool_dispatcher", "document_tool_definitions"]


def _invalid(message: str, field: str) -> ToolCallError:
    return ToolCallError("invalid-arguments", message, field=field)


def _refused(problems: list[tuple[int, str, str, str]]) -> ToolCallError:
    """The generated validator's first problem as the error a failure envelope shows."""
    _, code, field, message = problems[0]
    return ToolCallError(code, message, field=field)


def _utf8_size(text: str) -> int:
    if text.isascii():  # a flag CPython keeps: no copy of a large document just to count it
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def _check_text(value: str, field: str, what: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _invalid(
            f"{what} holds a lone surrogate, which is not valid Unicode text; send real characters.", field
        ) from None


def _check_id(value: str) -> str:
    """What the schema cannot say about an id it accepted: its length and its characters."""
    if len(value) > MAX_ID_LENGTH:
        raise _invalid(
            f"Argument id is {len(value)} characters long; a document id has at most {MAX_ID_LENGTH}.", "/id"
        )
    _check_text(value, "/id", "Argument id")
    return value


def _check_operation_texts(operations: list[Any]) -> None:
    for index, operation in enumerate(operations):
        for key, value in operation.items():
            if isinstance(value, str):
                _check_text(value, json_pointer("operations", index, key), f"Operation {index}: {key!r}")


class DocumentToolDispatcher:
    """Runs the document tools for one store; create it with ``create_document_tool_dispatcher``."""

    __slots__ = ("_can_write", "_max_bytes", "_store", "_strict")

    def __init__(
        self,
        store: Any,
        *,
        can_write: Callable[[str], bool] | None,
        strict_occurrence: bool,
        max_bytes: int,
    ) -> None:
        # The argument validators are in the rule data: imported now, so that no dispatch imports (reads) a file.
        from .. import _rules_data  # noqa: F401

        self._store = store
        self._can_write = can_write
        self._strict = strict_occurrence
        self._max_bytes = max_bytes

    @property
    def tool_names(self) -> tuple[str, ...]:
        return TOOL_NAMES

    def tools(self) -> list[dict[str, Any]]:
        """Fresh descriptors ``{name, description, inputSchema, annotations}`` of both tools."""
        return tool_descriptors()

    def dispatch(self, call: object) -> dict[str, Any]:
        """Execute one decoded tool call; always returns an envelope, never raises."""
        name, has_id, call_id = call_identity(call)
        tool = name if name in TOOL_NAMES else None
        try:
            parsed = parse_tool_call(call, TOOL_NAMES)
            has_id, call_id = parsed.has_id, parsed.call_id
            if parsed.name not in TOOL_NAMES:
                raise unknown_tool_error(parsed.name, TOOL_NAMES)
            tool = parsed.name
            data = self._read(parsed.arguments) if tool == READ_DOCUMENT else self._write(parsed.arguments)
            return success_envelope(tool, data, has_id=has_id, call_id=call_id)
        except ToolCallError as error:
            return error_envelope(tool, error, has_id=has_id, call_id=call_id)
        except DocumentStoreError as error:
            return error_envelope(tool, self._store_error(error), has_id=has_id, call_id=call_id)
        except Exception as error:  # a bug, a host store that broke its contract, or a non-JSON call
            if not is_plain_json(call):
                return error_envelope(None, non_json_call_error(), has_id=has_id, call_id=call_id)
            failure = ToolCallError(
                "internal-error",
                f"The tool failed unexpectedly ({type(error).__name__}); nothing was written by this call.",
            )
            return error_envelope(tool, failure, has_id=has_id, call_id=call_id)

    async def dispatch_async(self, call: object) -> dict[str, Any]:
        """``dispatch`` in a worker thread, so store I/O does not block the event loop."""
        return await asyncio.to_thread(self.dispatch, call)

    @staticmethod
    def _store_error(error: DocumentStoreError) -> ToolCallError:
        code = error.code if isinstance(error.code, str) else "internal-error"
        field = "/id" if code == "invalid-arguments" else None
        details: dict[str, Any] = {}
        if isinstance(error, VersionConflictError) and isinstance(error.current_version, str):
            details["currentVersion"] = error.current_version
        return ToolCallError(code, str(error.message), field=field, details=details)

    def _too_large(self, id: str, size: int, what: str) -> ToolCallError:
        return ToolCallError(
            "document-too-large",
            f"{what} {shown_id(id)} is {size} bytes of UTF-8, over this host's limit of {self._max_bytes} bytes.",
        )

    def _read(self, arguments: Mapping[Any, Any]) -> dict[str, Any]:
        from .. import _rules_data  # on first use: importing the package stays cheap

        problems = _rules_data.validate_read_document(arguments)
        if problems:
            raise _refused(problems)
        id = _check_id(arguments["id"])
        document = self._store.read(id)
        size = _utf8_size(document.content)
        if size > self._max_bytes:
            raise self._too_large(id, size, "Document")
        return {
            "id": id,
            "content": document.content,
            "version": document.version,
            "lineCount": line_count(document.content),
        }

    @staticmethod
    def _check_write_arguments(arguments: Mapping[Any, Any]) -> tuple[str, tuple[Operation, ...], str | None, bool]:
        """The checked arguments, the operations parsed (the edit uses them: nothing is parsed twice)."""
        from .. import _rules_data

        values: list[tuple[str, str, str, int | None, bool]] = []
        problems = _rules_data.validate_write_document(arguments, values)
        if problems:
            raise _refused(problems)
        id = _check_id(arguments["id"])
        try:
            parsed = operations_from(values)
        except DocumentEditError as error:
            raise _invalid(error.message, "/operations" + (error.field or "")) from None
        _check_operation_texts(arguments["operations"])
        return id, parsed, arguments.get("expectedVersion"), arguments.get("dryRun", False)

    def _allowed(self, id: str) -> bool:
        if self._can_write is None:
            return True
        try:
            # Only a real True allows: a check that fails or answers oddly refuses.
            return self._can_write(id) is True
        except Exception:
            return False

    def _write(self, arguments: Mapping[Any, Any]) -> dict[str, Any]:
        id, operations, expected, dry_run = self._check_write_arguments(arguments)
        if not self._allowed(id):
            raise ToolCallError(
                "write-not-allowed",
                f"This host does not allow changing {shown_id(id)}{' (not even as a dry run)' if dry_run else ''}. "
                "Report the change you wanted instead.",
            )
        document = self._store.read(id)
        size = _utf8_size(document.content)
        if size > self._max_bytes:
            raise self._too_large(id, size, "Document")
        if expected is not None and expected != document.version:
            raise ToolCallError(
                "version-conflict",
                f"Document {shown_id(id)} changed since you read it (expected version {shown_id(expected)}, current is "
                f"{document.version!r}). Read it again and redo your edit on the current text.",
                details={"currentVersion": document.version},
            )
        try:
            # Each character is at least one byte of UTF-8: a longer text is over max_bytes for sure.
            result = edit(document.content, operations, strict_occurrence=self._strict, max_length=self._max_bytes)
        except DocumentEditError as error:
            if error.code == "document-too-large":
                raise ToolCallError(
                    "document-too-large",
                    f"{error.message} This host's limit is {self._max_bytes} bytes of UTF-8. Nothing was written.",
                    field=json_pointer("operations", error.index) if error.index is not None else "/operations",
                ) from None
            raise ToolCallError(
                "operation-failed",
                error.message + " Nothing was written.",
                field=json_pointer("operations", error.index) if error.index is not None else "/operations",
                details={
                    "index": error.index,
                    "operation": error.operation,
                    "reason": error.code,
                    "candidates": [dict(candidate) for candidate in error.candidates],
                },
            ) from None
        size = _utf8_size(result.content)
        if size > self._max_bytes:
            raise self._too_large(id, size, "The edited document")
        version = document.version
        if not dry_run and result.content != document.content:
            # Compare-and-set against the version this edit was computed from.
            version = self._store.write(id, result.content, document.version)
        return {
            "id": id,
            "content": result.content,
            "version": version,
            "diff": unified_diff(document.content, result.content, name=id),
            "warnings": [dict(warning) for warning in result.warnings],
            "dryRun": dry_run,
        }


def create_document_tool_dispatcher(
    store: Any,
    *,
    can_write: Callable[[str], bool] | None = None,
    strict_occurrence: bool = False,
    max_bytes: int = 10 * 2**20,
) -> DocumentToolDispatcher:
    """A dispatcher for ``read_document`` and ``write_document`` on ``store``.

    Host mistakes raise here: ``TypeError`` for a store without callable
    ``read``/``write``/``create``, a ``can_write`` that is not callable, a
    non-boolean ``strict_occurrence`` or a non-integer ``max_bytes``;
    ``ValueError`` for ``max_bytes`` below 1.
    """
    missing = [name for name in ("read", "write", "create") if not callable(getattr(store, name, None))]
    if missing:
        raise TypeError(f"store must be a DocumentStore; {type(store).__name__} lacks: {', '.join(missing)}")
    if can_write is not None and not callable(can_write):
        raise TypeError("can_write must be a callable (id) -> bool, or None to allow every write")
    if not isinstance(strict_occurrence, bool):
        raise TypeError("strict_occurrence must be True or False")
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int):
        raise TypeError(f"max_bytes must be an int; got {type(max_bytes).__name__}")
    if max_bytes < 1:
        raise ValueError(f"max_bytes must be at least 1; got {max_bytes}")
    # The argument validators are in the rule data: imported now, so that no dispatch imports (reads) a file.
    from .. import _rules_data  # noqa: F401

    return DocumentToolDispatcher(store, can_write=can_write, strict_occurrence=strict_occurrence, max_bytes=max_bytes)


def document_tool_definitions(dispatcher: DocumentToolDispatcher) -> list[dict[str, Any]]:
    """Registry definitions ``{id, description, input_schema, resolve}``, one per document tool.

    ``resolve(arguments, context)`` returns the dispatcher's envelope.
    """
    if not isinstance(dispatcher, DocumentToolDispatcher):
        raise TypeError("document_tool_definitions needs a DocumentToolDispatcher")

    return registry_definitions(dispatcher.tools(), dispatcher.dispatch)
