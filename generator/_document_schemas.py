"""The two document tools' descriptors and the plan for their generated validators.

``read_document`` and ``write_document`` (``../shared/spec/documents.md``) are
checked like the review tools (``_tool_schemas.py``): a validator generated
from each schema, with the same error ranks and the same wording for an
unexpected, missing or mistyped argument. An operation list is checked item by
item in the order of ``docs/documents.md`` and returned parsed, so the
dispatcher and the pure core (``edit``) check it once, with the same code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "MAX_OPERATIONS",
    "OPERATION_EXAMPLE",
    "OPERATION_FIELDS",
    "DocumentToolPlan",
    "OperationPlan",
    "document_tool_plans",
    "operation_plans",
]

# Operations per call: enough for any review's edits; each may copy the whole document.
MAX_OPERATIONS = 100

_DRAFT = "https://json-schema.org/draft/2020-12/schema"

# kind -> (required fields, optional fields); "operation" is always required.
OPERATION_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "update": (("content",), ()),
    "append": (("content",), ()),
    "prepend": (("content",), ()),
    "replaceBlock": (("oldBlock", "newBlock"), ("occurrence", "fuzzyMatch")),
    "insertAfter": (("anchor", "content"), ("occurrence", "fuzzyMatch")),
    "insertBefore": (("anchor", "content"), ("occurrence", "fuzzyMatch")),
    "deleteBlock": (("anchor",), ("occurrence", "fuzzyMatch")),
    "replaceAll": (("anchor", "content"), ("occurrence", "fuzzyMatch")),
}
# The string fields, in the order they are checked; the first two must not be empty.
STRING_FIELDS = ("content", "oldBlock", "newBlock", "anchor")
NON_EMPTY = ("oldBlock", "anchor")

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
# The operation messages quote as an example (an empty list, a missing list).
OPERATION_EXAMPLE = '{"operation": "replaceBlock", "oldBlock": "...", "newBlock": "..."}'


@dataclass(frozen=True)
class ArgumentPlan:
    """One top-level argument: its kind and the noun phrase its messages use."""

    name: str
    kind: str  # "id" (a non-empty string), "operations", "version" (a non-empty string), "boolean"
    required: bool
    what: str  # "Argument <name> must be <what>; got ..."
    needs: str = ""  # "Missing required argument <name>: <tool> needs <needs>."


@dataclass(frozen=True)
class DocumentToolPlan:
    name: str
    function: str
    descriptor: dict[str, Any]
    arguments: tuple[ArgumentPlan, ...]

    @property
    def names(self) -> list[str]:
        return [argument.name for argument in self.arguments]


def _id_argument() -> ArgumentPlan:
    return ArgumentPlan(
        "id",
        "id",
        True,
        "a non-empty string naming the document",
        "the document's id (e.g. a path such as 'guides/setup.md')",
    )


def document_tool_plans() -> tuple[DocumentToolPlan, ...]:
    """``read_document`` and ``write_document``, in the order ``dispatcher.tools()`` lists them."""
    read = {
        "name": "read_document",
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
    }
    write = {
        "name": "write_document",
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
    }
    return (
        DocumentToolPlan("read_document", "validate_read_document", read, (_id_argument(),)),
        DocumentToolPlan(
            "write_document",
            "validate_write_document",
            write,
            (
                _id_argument(),
                ArgumentPlan(
                    "operations",
                    "operations",
                    True,
                    "an array of operation objects",
                    f"a non-empty array of operations, such as [{OPERATION_EXAMPLE}]",
                ),
                ArgumentPlan("expectedVersion", "version", False, "the version string read_document returned"),
                ArgumentPlan("dryRun", "boolean", False, "true or false"),
            ),
        ),
    )


def describe_fields(kind: str) -> str:
    """The fields of one kind, as an operation's messages list them."""
    required, optional = OPERATION_FIELDS[kind]
    text = "required: 'operation', " + ", ".join(repr(name) for name in required)
    if optional:
        text += "; optional: " + ", ".join(repr(name) for name in optional)
    return text


@dataclass(frozen=True)
class OperationPlan:
    """One operation kind, read off its schema: what the generated checks need."""

    kind: str
    allowed: tuple[str, ...]  # every field, "operation" first
    required: tuple[str, ...]  # besides "operation"
    strings: tuple[str, ...]  # string fields, in STRING_FIELDS order
    non_empty: tuple[str, ...]  # string fields with minLength 1
    occurrence: str | None  # "positive" (>= 1), "positive-or-all" (>= 1 or -1), "all" (only -1), None
    fuzzy: str | None  # "boolean", "false" (only false), None
    fields: str  # the fields as messages list them

    @property
    def text_field(self) -> str:
        return "newBlock" if "newBlock" in self.allowed else "content"

    @property
    def anchor_field(self) -> str:
        return "oldBlock" if "oldBlock" in self.allowed else "anchor"


def _occurrence_mode(schema: dict[str, Any] | None) -> str | None:
    if schema is None:
        return None
    if schema.get("const") == -1:
        return "all"
    if "anyOf" in schema:
        assert schema["anyOf"] == [{"type": "integer", "minimum": 1}, {"const": -1}], schema
        return "positive-or-all"
    assert (schema["type"], schema["minimum"]) == ("integer", 1), schema
    return "positive"


def operation_plans() -> tuple[OperationPlan, ...]:
    """Each kind's checks, derived from the schema ``write_document`` publishes for it."""
    plans = []
    for kind in OPERATION_FIELDS:
        schema = _operation_schema(kind)
        properties: dict[str, Any] = schema["properties"]
        fuzzy = properties.get("fuzzyMatch")
        plans.append(
            OperationPlan(
                kind=kind,
                allowed=tuple(properties),
                required=tuple(name for name in schema["required"] if name != "operation"),
                strings=tuple(name for name in STRING_FIELDS if properties.get(name, {}).get("type") == "string"),
                non_empty=tuple(name for name in STRING_FIELDS if properties.get(name, {}).get("minLength") == 1),
                occurrence=_occurrence_mode(properties.get("occurrence")),
                fuzzy=None if fuzzy is None else ("false" if fuzzy.get("const") is False else "boolean"),
                fields=describe_fields(kind),
            )
        )
    assert all(set(plan.non_empty) == set(NON_EMPTY) & set(plan.allowed) for plan in plans)
    return tuple(plans)
