"""Turning located findings into ``replaceBlock`` operations for ``write_document``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ._parse import ReviewParse

__all__ = ["findings_to_operations"]


def findings_to_operations(
    parse_or_findings: ReviewParse | Iterable[Mapping[str, Any]], *, text: str | None = None
) -> list[dict[str, Any]]:
    """``replaceBlock`` operations that put each finding's suggestion in place of its match.

    Give a ``ReviewParse``, or located findings together with the document as
    ``text`` (needed to place each edit). Applied in order with
    ``apply_operations``/``write_document``, the operations change exactly the
    located spans and nothing else.

    - Findings with an empty suggestion, or one equal to the match, give no operation.
    - Overlapping findings: the first one in the given order wins; a later
      finding whose span shares a character with a kept one is skipped (an
      edit of an edit is a new review). Findings that only touch are both kept.
    - Operations run from the end of the document to its start, so each edit
      leaves the text before it, and thus the occurrence count, untouched.
    - ``oldBlock`` is the document's own text. When it occurs more than once
      (overlapping places included) the operation names its ``occurrence``.
      If no occurrence number can reach the place (``"aa"`` at offset 1 of
      ``"aaa"``: occurrences count non-overlapping matches from the left),
      ``oldBlock`` is widened to the left with the document's text, and
      ``newBlock`` carries the same prefix.
    - As with any ``write_document`` edit, a bare LF in a suggestion becomes
      CRLF in a document that uses CRLF throughout.

    Raises ``ValueError`` for findings whose offsets do not fit the text.
    """
    findings: list[Mapping[str, Any]]
    if isinstance(parse_or_findings, ReviewParse):
        findings = list(parse_or_findings.findings)
        document = parse_or_findings.text if text is None else text
    else:
        if text is None:
            raise TypeError("text is required with a list of findings (a ReviewParse carries its own)")
        findings = list(parse_or_findings)
        document = text
    if not isinstance(document, str):
        raise TypeError(f"text must be a str, not {type(document).__name__}")
    kept: list[tuple[int, int, str]] = []
    for number, finding in enumerate(findings):
        start, end, suggestion = _edit(finding, document, number)
        if not suggestion or suggestion == document[start:end]:
            continue
        if any(start < other_end and other_start < end for other_start, other_end, _ in kept):
            continue
        kept.append((start, end, suggestion))
    operations = []
    current = document
    for start, end, suggestion in sorted(kept, reverse=True):
        operations.append(_operation(current, start, end, suggestion))
        current = current[:start] + suggestion + current[end:]
    return operations


def _edit(finding: object, text: str, number: int) -> tuple[int, int, str]:
    if not isinstance(finding, Mapping):
        raise TypeError(f"finding {number} must be a mapping, not {type(finding).__name__}")
    start, end, match, suggestion = (finding.get(key) for key in ("start", "end", "match", "suggestion"))
    if not all(isinstance(value, int) and not isinstance(value, bool) for value in (start, end)):
        raise ValueError(f"finding {number}: start and end must be ints")
    assert isinstance(start, int) and isinstance(end, int)
    if not 0 <= start < end <= len(text):
        raise ValueError(f"finding {number}: span {start}..{end} is not inside the text")
    if not isinstance(match, str) or text[start:end] != match:
        raise ValueError(f"finding {number}: match is not the text at {start}..{end}; was it located in this text?")
    if not isinstance(suggestion, str):
        raise ValueError(f"finding {number}: suggestion must be a str")
    return start, end, suggestion


def _operation(text: str, start: int, end: int, suggestion: str) -> dict[str, Any]:
    # Imported here: the CLI imports review for its HTML report, and a scan never needs documents.
    from ..documents import occurrence_at

    # Widen leftwards (1, 2, 4, ... characters, so a text like "aaaa..." stays cheap) until
    # an occurrence number lands on the place; at offset 0 the block is a prefix of the
    # text, which is always its first occurrence.
    prefix_start, width = start, 0
    while True:
        block = text[prefix_start:end]
        occurrence = occurrence_at(text, block, prefix_start)
        if occurrence is not None:
            break
        width = max(1, width * 2)
        prefix_start = max(0, start - width)
        if prefix_start > 0 and text.startswith("\r\n", prefix_start - 1):
            # Never begin inside a CRLF: write_document would turn the bare LF into CRLF.
            prefix_start -= 1
    operation: dict[str, Any] = {
        "operation": "replaceBlock",
        "oldBlock": block,
        "newBlock": text[prefix_start:start] + suggestion,
    }
    if _places(text, block) > 1:
        operation["occurrence"] = occurrence
    return operation


def _places(text: str, block: str) -> int:
    """How many places ``block`` matches, overlapping ones included (counting stops at 2)."""
    first = text.find(block)
    return 0 if first == -1 else 1 if text.find(block, first + 1) == -1 else 2
