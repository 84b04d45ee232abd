"""A unified diff between two versions of a document, as a model or a person reads it."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

__all__ = ["unified_diff"]

_LINE = re.compile(r"[^\n]*\n|[^\n]+")
_HUNK = re.compile(r"@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")
_CONTEXT = 3
# difflib is super-linear on lines that repeat (a 1.8 MB text took 30 s): above this many
# (old x new) changed lines, the changed block is shown as one hunk, removed then added.
_MAX_DIFF_WORK = 2_000_000


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
    if (len(old) - head - tail) * (len(new) - head - tail) > _MAX_DIFF_WORK:
        lines = _one_hunk(old, new, head, tail, start, keep, name)
    else:
        lines = difflib.unified_diff(
            old[start : len(old) - keep], new[start : len(new) - keep], f"a/{name}", f"b/{name}", n=_CONTEXT
        )
        lines = (_shift(line, start) if line.startswith("@@") else line for line in lines)
    out = []
    for line in lines:
        if not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        out.append(line)
    return "".join(out)


def _range(start: int, length: int) -> str:
    # As difflib writes it: 1-based, an empty range names the line before it.
    if length == 1:
        return str(start + 1)
    return f"{start + 1 if length else start},{length}"


def _one_hunk(old: list[str], new: list[str], head: int, tail: int, start: int, keep: int, name: str) -> Iterator[str]:
    """Linear: the changed lines as one removal and one addition, with the usual context."""
    yield f"--- a/{name}\n"
    yield f"+++ b/{name}\n"
    old_length, new_length = len(old) - keep - start, len(new) - keep - start
    yield f"@@ -{_range(start, old_length)} +{_range(start, new_length)} @@\n"
    yield from (" " + line for line in old[start:head])
    yield from ("-" + line for line in old[head : len(old) - tail])
    yield from ("+" + line for line in new[head : len(new) - tail])
    yield from (" " + line for line in old[len(old) - tail : len(old) - keep])
