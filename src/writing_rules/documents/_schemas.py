"""The two tool names and their descriptors (names, model-facing descriptions, input schemas,
MCP annotations), which the rule compiler generates with their validators from
``generator/_document_schemas.py``."""

from __future__ import annotations

from typing import Any

__all__ = ["READ_DOCUMENT", "TOOL_NAMES", "WRITE_DOCUMENT", "tool_descriptors"]

READ_DOCUMENT = "read_document"
WRITE_DOCUMENT = "write_document"
TOOL_NAMES = (READ_DOCUMENT, WRITE_DOCUMENT)


def tool_descriptors() -> list[dict[str, Any]]:
    """Fresh copies of both descriptors: a caller may change them freely."""
    from .. import _rules_data  # on first use: a host that only edits text never loads the rule data

    return _rules_data.document_tool_descriptors()
