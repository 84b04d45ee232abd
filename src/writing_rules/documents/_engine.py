"""Applying block operations to a text: the pure core of the document tools."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .._describe import quote
from ._candidates import closest_passages
from ._errors import DocumentEditError
from ._matching import Finder
from ._operations import Operation, parse_operations
from ._text import adapt_line_breaks, line_numbers

__all__ = ["EditResult", "apply_operations", "edit"]

_MAX_WARNING_LINES = 50  # an anchor like "e" matches everywhere; list enough to act on
_MAX_COUNTED = 1000  # ambiguous positions counted; past this "1000 or more" says enough


@dataclass(frozen=True)
class EditResult:
    """The edited text and one warning ``{index, message, lines}`` per ambiguous match."""

    content: str
    warnings: tuple[Mapping[str, Any], ...] = ()


def _anchor_name(operation: Operation) -> str:
    return "oldBlock" if operation.kind == "replaceBlock" else "anchor"


def _not_found(operation: Operation, document: str) -> DocumentEditError:
    name = _anchor_name(operation)
    hints = []
    if not operation.fuzzy:
        fuzzy_spans = Finder(document, operation.anchor, fuzzy=True).spans(1) if operation.anchor.strip() else []
        if fuzzy_spans:
            (line,) = line_numbers(document, [fuzzy_spans[0][0]])
            hints.append(
                f"It matches at line {line} if white space at the line ends and line-break style are "
                "ignored: copy the text exactly, or set fuzzyMatch to true"
            )
        elif "\r\n" in document and "\n" in operation.anchor.replace("\r\n", ""):
            hints.append("The document uses CRLF line breaks; your text uses LF")
    candidates = closest_passages(document, operation.anchor)
    if candidates:
        shown = ", ".join(f"line {item['line']} (similarity {item['similarity']})" for item in candidates)
        hints.append(f"Closest passages: {shown}; see 'candidates' for their text")
    else:
        hints.append("No similar passage was found; read the document again")
    hint = ". ".join(hints)
    return DocumentEditError(
        "not-found",
        f"Operation {operation.index} ({operation.kind}): {name} {quote(operation.anchor)} was not found in "
        f"the document ({'white-space-tolerant' if operation.fuzzy else 'exact'} match). {hint}.",
        index=operation.index,
        operation=operation.kind,
        candidates=candidates,
    )


def _ambiguity(operation: Operation, document: str, finder: Finder, strict: bool) -> dict[str, Any] | None:
    if operation.occurrence is not None or not finder.is_ambiguous():
        return None
    positions = finder.positions(_MAX_COUNTED)
    counted = f"{_MAX_COUNTED} or more" if len(positions) >= _MAX_COUNTED else str(len(positions))
    lines: list[int] = []
    for line in line_numbers(document, positions):
        if not lines or lines[-1] != line:
            lines.append(line)
            if len(lines) == _MAX_WARNING_LINES:
                break
    name = _anchor_name(operation)
    where = ", ".join(map(str, lines)) + (" …" if len(lines) == _MAX_WARNING_LINES else "")
    if strict:
        raise DocumentEditError(
            "ambiguous",
            f"Operation {operation.index} ({operation.kind}): {name} {quote(operation.anchor)} matches at "
            f"{counted} positions (lines {where}). Name the 'occurrence' to change (1 is the first), "
            "or quote more of the surrounding text so it matches once.",
            index=operation.index,
            operation=operation.kind,
        )
    return {
        "index": operation.index,
        "message": f"Operation {operation.index} ({operation.kind}): {name} {quote(operation.anchor)} "
        f"matches at {counted} positions (lines {where}); the first was used. "
        "Name 'occurrence' or quote more text to choose another.",
        "lines": lines,
    }


def _too_large(operation: Operation, length: int, limit: int) -> DocumentEditError:
    return DocumentEditError(
        "document-too-large",
        f"Operation {operation.index} ({operation.kind}) would make the document {length} characters long, "
        f"over the limit of {limit}.",
        index=operation.index,
        operation=operation.kind,
    )


def _apply(operation: Operation, document: str, strict: bool, limit: int | None) -> tuple[str, dict[str, Any] | None]:
    """One operation on ``document``; a result longer than ``limit`` is refused before it is built."""
    kind = operation.kind
    text = adapt_line_breaks(operation.text, document)

    def check(length: int) -> None:
        if limit is not None and length > limit:
            raise _too_large(operation, length, limit)

    if kind == "update":
        check(len(text))
        return text, None
    if kind in ("append", "prepend"):
        check(len(document) + len(text))
        return (document + text if kind == "append" else text + document), None
    replacement = "" if kind == "deleteBlock" else text
    if not operation.fuzzy and operation.occurrence == -1:
        # Every occurrence, exact: str.replace is non-overlapping, left to right.
        if operation.anchor not in document:
            raise _not_found(operation, document)
        if len(replacement) > len(operation.anchor):
            check(len(document) + document.count(operation.anchor) * (len(replacement) - len(operation.anchor)))
        return document.replace(operation.anchor, replacement), None

    finder = Finder(document, operation.anchor, fuzzy=operation.fuzzy)
    if operation.occurrence == -1:
        spans = finder.spans()
        if not spans:
            del finder  # a fuzzy view's tables are not kept while the candidates are sought
            raise _not_found(operation, document)
        check(len(document) + sum(len(replacement) - (end - start) for start, end in spans))
        pieces = []
        previous = 0
        for start, end in spans:
            pieces.append(document[previous:start])
            pieces.append(replacement)
            previous = end
        pieces.append(document[previous:])
        return "".join(pieces), None

    wanted = operation.occurrence or 1
    spans = finder.spans(wanted)
    if not spans:
        del finder  # a fuzzy view's tables are not kept while the candidates are sought
        raise _not_found(operation, document)
    if len(spans) < wanted:
        total = finder.count()
        raise DocumentEditError(
            "occurrence-out-of-range",
            f"Operation {operation.index} ({kind}): occurrence {wanted} was asked for, but "
            f"{_anchor_name(operation)} {quote(operation.anchor)} occurs {total} time"
            f"{'' if total == 1 else 's'} (non-overlapping). Use an occurrence from 1 to {total}.",
            index=operation.index,
            operation=kind,
        )
    warning = _ambiguity(operation, document, finder, strict)
    start, end = spans[wanted - 1]
    check(len(document) + len(text) - (0 if kind in ("insertAfter", "insertBefore") else end - start))
    if kind == "insertAfter":
        start = end
    elif kind == "insertBefore":
        end = start
    elif kind == "deleteBlock":
        text = ""
    if wanted == 1 and not operation.fuzzy:
        # The first exact match is the one str.replace finds: one pass, one copy.
        anchor = operation.anchor
        replacement = {"insertAfter": anchor + text, "insertBefore": text + anchor}.get(kind, text)
        return document.replace(anchor, replacement, 1), warning
    return "".join((document[:start], text, document[end:])), warning


def edit(
    content: str, operations: object, *, strict_occurrence: bool = False, max_length: int | None = None
) -> EditResult:
    """Apply block operations in order, each to the result of the one before.

    Raises ``DocumentEditError`` (and changes nothing) when the list is
    malformed or an operation cannot be applied. With ``max_length``, an
    operation whose result would be longer (in characters) is refused with code
    ``document-too-large`` before that result is built, so memory stays within a
    small multiple of the limit whatever the operations ask for.
    """
    if not isinstance(content, str):
        raise TypeError(f"content must be a str; got {type(content).__name__}")
    if not isinstance(strict_occurrence, bool):
        raise TypeError("strict_occurrence must be True or False")
    if max_length is not None and (isinstance(max_length, bool) or not isinstance(max_length, int)):
        raise TypeError("max_length must be an int or None")
    warnings = []
    for operation in parse_operations(operations):
        content, warning = _apply(operation, content, strict_occurrence, max_length)
        if warning is not None:
            warnings.append(warning)
    return EditResult(content=content, warnings=tuple(warnings))


def apply_operations(content: str, operations: object, *, strict_occurrence: bool = False) -> str:
    """``edit(...).content``: the edited text alone."""
    return edit(content, operations, strict_occurrence=strict_occurrence).content
