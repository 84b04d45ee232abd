"""The error the pure editing core raises."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._errors import WritingRulesError

__all__ = ["EDIT_ERROR_CODES", "DocumentEditError"]

EDIT_ERROR_CODES = ("invalid-operation", "not-found", "occurrence-out-of-range", "ambiguous", "document-too-large")


class DocumentEditError(WritingRulesError):
    """An operation list is malformed, or one operation cannot be applied.

    ``index`` is the 0-based position of the failing operation (None when the
    list itself is malformed), ``operation`` its kind when known, ``code`` one of
    ``invalid-operation``, ``not-found``, ``occurrence-out-of-range``,
    ``ambiguous``, ``document-too-large`` (an operation would take the text past
    ``edit``'s ``max_length``); ``field`` is a JSON Pointer into the operation list (such as
    ``/2/occurrence``) for malformed input; ``candidates`` holds, for
    ``not-found``, the closest passages ``{line, text, similarity}``, best first.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        index: int | None = None,
        operation: str | None = None,
        field: str | None = None,
        candidates: tuple[Mapping[str, Any], ...] = (),
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.index = index
        self.operation = operation
        self.field = field
        self.candidates = tuple(dict(candidate) for candidate in candidates)

    def __repr__(self) -> str:
        return f"DocumentEditError(code={self.code!r}, index={self.index!r}, message={self.message!r})"
