"""The two tool descriptors: names, model-facing descriptions, input schemas, MCP annotations."""

from __future__ import annotations

import copy
from typing import Any

from ._operations import MAX_OPERATIONS, OPERATION_FIELDS

__all__ = ["READ_DOCUMENT", "TOOL_NAMES", "WRITE_DOCUMENT", "tool_descriptors"]

READ_DOCUMENT = "read_document"
WRITE_DOCUMENT = "write_document"
TOOL_NAMES = (READ_DOCUMENT, WRITE_DOCUMENT)

_DRAFT = "https://json-schema.org/draft/2020-12/schema"

_FIELD_SCHEMAS: dict[str, dict[str, Any]] = {
    "content": {"type": "string", "description": "The text to write. Line breaks are not added for you."},
    "oldBlock": {
        "type": "string",
        "minLength": 1,
        "description": "The exact text to replace, copied from the document.",
    },
    "newBlock": {"type": "string", "description": "The complete new version of the block ('' deletes it)."},
    "anchor": {
        "type": "string",
        "minLength": 1,
        "description": "The exact text to find, copied from the document.",
    },
    "fuzzyMatch": {
        "type": "boolean",
        "default": False,
        "description": "Ignore white space at the start and end of each line, CRLF versus LF, and "
        "Unicode normalisation when matching.",
    },
}
_OCCURRENCE = {
    "type": "integer",
    "minimum": 1,
    "default": 1,
    "description": "Which non-overlapping match to use, counted from 1 at the start of the document.",
}
_OCCURRENCE_OR_ALL = {
    "anyOf": [{"type": "integer", "minimum": 1}, {"const": -1}],
    "default": 1,
    "description": "Which non-overlapping match to delete (1 is the first), or -1 for every match.",
}
_KIND_DESCRIPTIONS = {
    "update": "Replace the whole document with content.",
    "append": "Add content at the end.",
    "prepend": "Add content at the start.",
    "replaceBlock": "Replace oldBlock with newBlock. The recommended edit.",
    "insertAfter": "Insert content right after anchor.",
    "insertBefore": "Insert content right before anchor.",
    "deleteBlock": "Delete anchor.",
    "replaceAll": "Replace every exact match of anchor with content.",
}


def _operation_schema(kind: str) -> dict[str, Any]:
    required, optional = OPERATION_FIELDS[kind]
    properties: dict[str, Any] = {"operation": {"const": kind}}
    for name in (*required, *optional):
        if name == "occurrence":
            if kind == "replaceAll":
                properties[name] = {"const": -1, "description": "Only -1 (every match), the default."}
            elif kind == "deleteBlock":
                properties[name] = _OCCURRENCE_OR_ALL
            else:
                properties[name] = _OCCURRENCE
        elif name == "fuzzyMatch" and kind == "replaceAll":
            properties[name] = {"const": False, "description": "replaceAll matches exactly; only false."}
        else:
            properties[name] = _FIELD_SCHEMAS[name]
    return {
        "type": "object",
        "description": _KIND_DESCRIPTIONS[kind],
        "properties": properties,
        "required": ["operation", *required],
        "additionalProperties": False,
    }


_ID = {
    "type": "string",
    "minLength": 1,
    "description": "The document's id, e.g. a path such as 'guides/setup.md'.",
}

_DESCRIPTORS: tuple[dict[str, Any], ...] = (
    {
        "name": READ_DOCUMENT,
        "description": (
            "Read a text document: its full content, its current version and its line count. "
            "Read a document before you change it, and quote its text exactly in write_document."
        ),
        "inputSchema": {
            "$schema": _DRAFT,
            "type": "object",
            "properties": {"id": _ID},
            "required": ["id"],
            "additionalProperties": False,
        },
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    },
    {
        "name": WRITE_DOCUMENT,
        "description": (
            "Change an existing text document with block operations that quote its text, never line "
            "numbers. Operations run in order, each on the result of the one before; if one fails, "
            "nothing is written and the error names the operation and the closest passages. Prefer "
            "replaceBlock with oldBlock copied exactly from read_document. Line breaks are not added for "
            "you. Pass expectedVersion (from read_document) so a concurrent change is not overwritten; "
            "dryRun shows the result and diff without writing. The document must exist."
        ),
        "inputSchema": {
            "$schema": _DRAFT,
            "type": "object",
            "properties": {
                "id": _ID,
                "operations": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": MAX_OPERATIONS,
                    "description": f"The operations, applied in order (at most {MAX_OPERATIONS} per call).",
                    "items": {"oneOf": [_operation_schema(kind) for kind in OPERATION_FIELDS]},
                },
                "expectedVersion": {
                    "type": "string",
                    "minLength": 1,
                    "description": "The version read_document returned; the write fails if the document changed since.",
                },
                "dryRun": {
                    "type": "boolean",
                    "default": False,
                    "description": "Return the new content and diff without writing.",
                },
            },
            "required": ["id", "operations"],
            "additionalProperties": False,
        },
        "annotations": {
            "readOnlyHint": False,
            "destructiveHint": True,
            "idempotentHint": False,
            "openWorldHint": False,
        },
    },
)


def tool_descriptors() -> list[dict[str, Any]]:
    """Fresh copies of both descriptors: a caller may change them freely."""
    return copy.deepcopy(list(_DESCRIPTORS))
