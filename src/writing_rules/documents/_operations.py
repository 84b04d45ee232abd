"""Checking an operation list and turning it into frozen values.

The wire format is camelCase (``oldBlock``, ``fuzzyMatch``); every rule of
``docs/documents.md`` about fields, types and ranges is enforced here, before
any operation runs, so a malformed list never changes anything.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._describe import json_type_name, show_key
from .._tool_call import json_pointer
from ._errors import DocumentEditError

__all__ = ["MAX_OPERATIONS", "OPERATION_FIELDS", "Operation", "parse_operations"]

# Operations per call: enough for any review's edits; each may copy the whole document.
MAX_OPERATIONS = 100

# kind -> (required fields, optional fields); "operation" is always required.
OPERATION_FIELDS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "update": (("content",), ()),
    "append": (("content",), ()),
    "prepend": (("content",), ()),
    "replaceBlock": (("oldBlock", "newBlock"), ("occurrence", "fuzzyMatch")),
    "insertAfter": (("anchor", "content"), ("occurrence", "fuzzyMatch")),
    "insertBefore": (("anchor", "content"), ("occurrence", "fuzzyMatch")),
    "deleteBlock": (("anchor",), ("occurrence", "fuzzyMatch")),
    "replaceAll": (("anchor", "content"), ("occurrence", "fuzzyMatch")),
}
_KINDS = tuple(OPERATION_FIELDS)
_STRING_FIELDS = ("content", "oldBlock", "newBlock", "anchor")
_NON_EMPTY = ("oldBlock", "anchor")


@dataclass(frozen=True)
class Operation:
    """One checked operation.

    ``anchor`` is the text to find (``oldBlock`` for ``replaceBlock``), ``text``
    the text to write (``content`` or ``newBlock``); ``occurrence`` is None when
    the caller did not name one, -1 for every occurrence.
    """

    index: int
    kind: str
    text: str = ""
    anchor: str = ""
    occurrence: int | None = None
    fuzzy: bool = False


def _fail(message: str, *, index: int | None, kind: str | None = None, field: str | None = None) -> DocumentEditError:
    return DocumentEditError("invalid-operation", message, index=index, operation=kind, field=field)


def _field_error(index: int, kind: str, name: str | None, reason: str) -> DocumentEditError:
    """An ``invalid-operation`` error about one field of operation ``index`` (``name`` None: the whole item)."""
    field = json_pointer(index) if name is None else json_pointer(index, name)
    return _fail(f"Operation {index} ({kind}): {reason}", index=index, kind=kind, field=field)


def _describe_fields(kind: str) -> str:
    required, optional = OPERATION_FIELDS[kind]
    text = "required: 'operation', " + ", ".join(repr(name) for name in required)
    if optional:
        text += "; optional: " + ", ".join(repr(name) for name in optional)
    return text


def _as_integer(value: object) -> int | None:
    """An integer, or a whole-number float such as 2.0; never a boolean."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None


def _parse_occurrence(index: int, kind: str, value: object) -> int:
    number = _as_integer(value)
    if kind == "replaceAll":
        allowed = "replaceAll always replaces every occurrence; 'occurrence' may only be -1 here (or left out)"
    elif kind == "deleteBlock":
        allowed = "'occurrence' is an integer >= 1 (1 is the first match), or -1 to delete every match"
    else:
        allowed = f"'occurrence' is an integer >= 1 (1 is the first match); -1 is not allowed for {kind}"
    if number is None:
        raise _field_error(
            index,
            kind,
            "occurrence",
            f"'occurrence' must be an integer; got {json_type_name(value)}. {allowed}.",
        )
    valid = (
        number == -1
        if kind == "replaceAll"
        else (number >= 1 or number == -1)
        if kind == "deleteBlock"
        else number >= 1
    )
    if not valid:
        raise _field_error(
            index,
            kind,
            "occurrence",
            f"'occurrence' {number} is out of range. {allowed}.",
        )
    return number


def _parse_one(index: int, raw: object) -> Operation:
    if not isinstance(raw, Mapping):
        raise _fail(
            f"Operation {index} must be an object with an 'operation' field; got {json_type_name(raw)}.",
            index=index,
            field=json_pointer(index),
        )
    kinds = ", ".join(_KINDS)
    if "operation" not in raw:
        raise _fail(
            f"Operation {index} has no 'operation' field; name one of: {kinds}.",
            index=index,
            field=json_pointer(index, "operation"),
        )
    kind = raw["operation"]
    if not isinstance(kind, str) or kind not in OPERATION_FIELDS:
        shown = repr(kind) if isinstance(kind, str) else json_type_name(kind)
        raise _fail(
            f"Operation {index}: 'operation' {shown[:80]} is not known; use one of: {kinds}.",
            index=index,
            field=json_pointer(index, "operation"),
        )
    required, optional = OPERATION_FIELDS[kind]
    allowed = {"operation", *required, *optional}
    for key in raw:
        if key not in allowed:
            shown = show_key(key)
            raise _field_error(
                index,
                kind,
                key if isinstance(key, str) else None,
                f"unexpected field {shown}; {_describe_fields(kind)}.",
            )
    for name in required:
        if name not in raw:
            raise _field_error(
                index,
                kind,
                name,
                f"missing field {name!r}; {_describe_fields(kind)}.",
            )
    values: dict[str, Any] = {}
    for name in _STRING_FIELDS:
        if name not in raw:
            continue
        value = raw[name]
        if not isinstance(value, str):
            raise _field_error(
                index,
                kind,
                name,
                f"{name!r} must be a string; got {json_type_name(value)}.",
            )
        if name in _NON_EMPTY and not value:
            raise _field_error(
                index,
                kind,
                name,
                f"{name!r} is empty; quote the exact text to find, copied from the document.",
            )
        values[name] = value
    fuzzy = False
    if "fuzzyMatch" in raw:
        value = raw["fuzzyMatch"]
        if not isinstance(value, bool):
            raise _field_error(
                index,
                kind,
                "fuzzyMatch",
                f"'fuzzyMatch' must be true or false; got {json_type_name(value)}.",
            )
        if value and kind == "replaceAll":
            raise _field_error(
                index,
                kind,
                "fuzzyMatch",
                "'fuzzyMatch' true is not supported by replaceAll, which "
                "matches exactly. Leave it out, or use deleteBlock/replaceBlock with fuzzyMatch.",
            )
        fuzzy = value
    occurrence = _parse_occurrence(index, kind, raw["occurrence"]) if "occurrence" in raw else None
    if kind == "replaceAll":
        occurrence = -1  # replaceAll always means every occurrence
    anchor = values.get("oldBlock", values.get("anchor", ""))
    if fuzzy and not anchor.strip():
        name = "oldBlock" if kind == "replaceBlock" else "anchor"
        raise _field_error(
            index,
            kind,
            name,
            f"{name!r} is only white space; with fuzzyMatch it would match everywhere. Quote some of the text itself.",
        )
    return Operation(
        index=index,
        kind=kind,
        text=values.get("newBlock", values.get("content", "")),
        anchor=anchor,
        occurrence=occurrence,
        fuzzy=fuzzy,
    )


def parse_operations(operations: object) -> tuple[Operation, ...]:
    """Check a whole operation list; raise ``DocumentEditError`` at the first problem.

    Operations parsed already (a tuple of ``Operation``, as this returns) are returned as
    they are: ``write_document`` checks its arguments once and edits with what it parsed.
    """
    if isinstance(operations, tuple) and operations and all(type(item) is Operation for item in operations):
        return operations
    if isinstance(operations, (str, bytes, bytearray, Mapping)) or not isinstance(operations, Sequence):
        raise _fail(
            f"'operations' must be an array of operation objects; got {json_type_name(operations)}.",
            index=None,
            field="",
        )
    if not operations:
        raise _fail(
            "'operations' is empty; give at least one operation, such as "
            '{"operation": "replaceBlock", "oldBlock": "...", "newBlock": "..."}.',
            index=None,
            field="",
        )
    if len(operations) > MAX_OPERATIONS:
        raise _fail(
            f"'operations' has {len(operations)} operations; at most {MAX_OPERATIONS} are allowed in one call. "
            "Split the edit into several calls.",
            index=None,
            field="",
        )
    return tuple(_parse_one(index, raw) for index, raw in enumerate(operations))
