"""Checking an operation list and turning it into frozen values.

The wire format is camelCase (``oldBlock``, ``fuzzyMatch``). The checks are
generated from ``write_document``'s schema into the rule-data module
(``parse_document_operations``, the same code ``write_document``'s validator
runs), which returns each operation parsed; what no schema can say (an anchor
of white space only with ``fuzzyMatch``) is checked here. Every rule of
``docs/documents.md`` about fields, types and ranges is enforced before any
operation runs, so a malformed list never changes anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ._errors import DocumentEditError

__all__ = ["MAX_OPERATIONS", "Operation", "operations_from", "parse_operations"]

# Operations per call: enough for any review's edits; each may copy the whole document.
# The published schema's maxItems (a test checks that the two agree).
MAX_OPERATIONS = 100


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


def _index_in(field: str) -> int | None:
    """The operation a pointer relative to the list names ("/3/anchor" is 3); None for the list."""
    step = field[1:].split("/", 1)[0]
    return int(step) if step.isdigit() else None


def _kind_of(operations: Sequence[Any], index: int | None) -> str | None:
    if index is None:
        return None
    raw = operations[index]
    kind = raw.get("operation") if isinstance(raw, Mapping) else None
    return kind if isinstance(kind, str) and kind in _fields() else None


def _fields() -> Mapping[str, Any]:
    from .. import _rules_data

    return _rules_data.DOCUMENT_OPERATION_FIELDS


def operations_from(values: Sequence[tuple[str, str, str, int | None, bool]]) -> tuple[Operation, ...]:
    """The operations the generated validator parsed, as values; raises ``DocumentEditError``
    (``invalid-operation``, field relative to the list) for a check beyond the schema."""
    operations = []
    for index, (kind, text, anchor, occurrence, fuzzy) in enumerate(values):
        if fuzzy and not anchor.strip():
            name = "oldBlock" if kind == "replaceBlock" else "anchor"
            raise DocumentEditError(
                "invalid-operation",
                f"Operation {index} ({kind}): {name!r} is only white space; with fuzzyMatch it would match "
                "everywhere. Quote some of the text itself.",
                index=index,
                operation=kind,
                field=f"/{index}/{name}",
            )
        operations.append(Operation(index, kind, text, anchor, occurrence, fuzzy))
    return tuple(operations)


def parse_operations(operations: object) -> tuple[Operation, ...]:
    """Check a whole operation list; raise ``DocumentEditError`` at the first problem.

    Operations parsed already (a tuple of ``Operation``, as this returns) are returned as
    they are: ``write_document`` checks its arguments once and edits with what it parsed.
    """
    if isinstance(operations, tuple) and operations and all(type(item) is Operation for item in operations):
        return operations
    from .. import _rules_data

    if isinstance(operations, Sequence) and not isinstance(operations, (str, bytes, bytearray, list)):
        operations = list(operations)  # a tuple or another sequence: checked as the JSON array it stands for
    values: list[tuple[str, str, str, int | None, bool]] = []
    problem = _rules_data.parse_document_operations(operations, values)
    if problem is not None:
        _, _, field, message = problem
        index = _index_in(field)
        assert isinstance(operations, list) or index is None
        kind = _kind_of(operations, index) if isinstance(operations, list) else None
        raise DocumentEditError("invalid-operation", message, index=index, operation=kind, field=field)
    return operations_from(values)
