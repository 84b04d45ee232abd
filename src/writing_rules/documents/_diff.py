"""A unified diff between two versions of a document, as a model or a person reads it."""

from __future__ import annotations

import difflib
import re

__all__ = ["unified_diff"]

_LINE = re.compile(r"[^\n]*\n|[^\n]+")
_HUNK = re.compile(r"@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")
_CONTEXT = 3


def _shift(header: str, offset: int) -> str:
    match = _HUNK.match(header)
    if match is None or offset == 0:
        return header
    old, old_count, new, new_count = match.groups()
    # difflib writes a start of 0 for an empty range; it stays relative to the cut.
    old_start = int(old) + offset if int(old) or offset else 0
    new_start = int(new) + offset if int(new) or offset else 0
    return f"@@ -{old_start}{old_count or ''} +{new_start}{new_count or ''} @@" + header[match.end() :]


def unified_diff(before: str, after: str, *, name: str) -> str:
    """``diff -u`` style text from ``a/NAME`` to ``b/NAME``; "" when nothing changed.

    Lines equal at both ends are cut before diffing, so a small edit in a large
    document stays cheap; hunk line numbers refer to the whole document.
    """
    if before == after:
        return ""
    old = _LINE.findall(before)
    new = _LINE.findall(after)
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    start = max(0, head - _CONTEXT)
    keep = max(0, tail - _CONTEXT)
    lines = difflib.unified_diff(
        old[start : len(old) - keep], new[start : len(new) - keep], f"a/{name}", f"b/{name}", n=_CONTEXT
    )
    out = []
    for line in lines:
        if line.startswith("@@"):
            line = _shift(line, start)
        if not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        out.append(line)
    return "".join(out)
