"""A unified diff between two versions of a document, as a model or a person reads it."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from .._patch_names import needs_quoting, quote_patch_name

__all__ = ["unified_diff"]

_LINE = re.compile(r"[^\n]*\n|[^\n]+")
_HUNK = re.compile(r"@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")
_CONTEXT = 3
# difflib is super-linear on lines that repeat (a 1.8 MB text took 30 s): above this many
# (old x new) changed lines, the changed block is shown as one hunk, removed then added.
_MAX_DIFF_WORK = 2_000_000
# Nor is a side with more changed lines than this split into line objects: a 9 MB text of
# line ends is 9 million of them, about 1 GB with their prefixed copies. The one hunk is
# built from slices of the texts instead, in memory proportional to their size.
_MAX_DIFF_LINES = 100_000
_NO_NEWLINE = "\n\\ No newline at end of file\n"
_CHUNK = 8192


def _common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix, compared a chunk at a time (linear, few objects)."""
    limit = min(len(a), len(b))
    start = 0
    while start < limit:
        end = min(start + _CHUNK, limit)
        if a[start:end] != b[start:end]:
            while a[start] == b[start]:
                start += 1
            return start
        start = end
    return limit


def _common_suffix(a: str, b: str, limit: int) -> int:
    """Length of the longest common suffix, at most ``limit``."""
    size_a, size_b = len(a), len(b)
    done = 0
    while done < limit:
        step = min(_CHUNK, limit - done)
        if a[size_a - done - step : size_a - done] != b[size_b - done - step : size_b - done]:
            while a[size_a - done - 1] == b[size_b - done - 1]:
                done += 1
            return done
        done += step
    return limit


def _line_count(text: str, start: int, end: int) -> int:
    if start >= end:
        return 0
    return text.count("\n", start, end) + (text[end - 1] != "\n")


def _back(text: str, position: int, lines: int) -> int:
    """The start of the line ``lines`` lines before the line starting at ``position``."""
    for _ in range(lines):
        if position == 0:
            break
        position = text.rfind("\n", 0, position - 1) + 1
    return position


def _forward(text: str, position: int, lines: int) -> int:
    """The end of ``lines`` whole lines from the line starting at ``position``."""
    for _ in range(lines):
        if position >= len(text):
            break
        newline = text.find("\n", position)
        position = len(text) if newline == -1 else newline + 1
    return position


def _shift(header: str, offset: int) -> str:
    match = _HUNK.match(header)
    if match is None or offset == 0:
        return header
    old, old_count, new, new_count = match.groups()
    # difflib writes a start of 0 for an empty range; it stays relative to the cut.
    old_start = int(old) + offset if int(old) or offset else 0
    new_start = int(new) + offset if int(new) or offset else 0
    return f"@@ -{old_start}{old_count or ''} +{new_start}{new_count or ''} @@" + header[match.end() :]


def _label(prefix: str, name: str) -> str:
    """``prefix + name``, C-quoted as git quotes it when the name could break a line of the patch."""
    return quote_patch_name(prefix, name) if needs_quoting(name) else prefix + name


def unified_diff(before: str, after: str, *, name: str) -> str:
    """``diff -u`` style text from ``a/NAME`` to ``b/NAME``; "" when nothing changed.

    Lines equal at both ends are cut before diffing, so a small edit in a large
    document stays cheap; hunk line numbers refer to the whole document. The work
    is done on offsets into the two texts: only the changed lines and their context
    become line objects, and only when they are few.
    """
    if before == after:
        return ""
    # Whole lines equal at the start: the common prefix, back to a line start.
    head = before.rfind("\n", 0, _common_prefix(before, after)) + 1
    # Whole lines equal at the end, not reaching into those: the common suffix, forward
    # to a line start in both texts (a line that differs only before its end is changed).
    tail = _common_suffix(before, after, min(len(before), len(after)) - head)
    cut_before, cut_after = len(before) - tail, len(after) - tail
    if (cut_before > head and before[cut_before - 1] != "\n") or (cut_after > head and after[cut_after - 1] != "\n"):
        newline = before.find("\n", cut_before)
        tail = 0 if newline == -1 else len(before) - newline - 1
        cut_before, cut_after = len(before) - tail, len(after) - tail
    head_lines = before.count("\n", 0, head)
    tail_lines = _line_count(before, cut_before, len(before))
    old_changed = _line_count(before, head, cut_before)
    new_changed = _line_count(after, head, cut_after)
    start = _back(before, head, _CONTEXT)
    start_line = head_lines - before.count("\n", start, head)
    end_before = _forward(before, cut_before, min(_CONTEXT, tail_lines))
    end_after = len(after) - (len(before) - end_before)
    if old_changed * new_changed > _MAX_DIFF_WORK or max(old_changed, new_changed) > _MAX_DIFF_LINES:
        context = min(_CONTEXT, tail_lines)
        parts: Iterable[str] = _one_hunk(
            before, after, name, (start, head, cut_before, end_before), (cut_after, start_line), context
        )
        return "".join(parts)
    lines = difflib.unified_diff(
        _LINE.findall(before, start, end_before),
        _LINE.findall(after, start, end_after),
        _label("a/", name),
        _label("b/", name),
        n=_CONTEXT,
    )
    out = []
    for line in lines:
        if line.startswith("@@"):
            line = _shift(line, start_line)
        elif not line.endswith("\n"):
            line += _NO_NEWLINE
        out.append(line)
    return "".join(out)


def _range(start: int, length: int) -> str:
    # As difflib writes it: 1-based, an empty range names the line before it.
    if length == 1:
        return str(start + 1)
    return f"{start + 1 if length else start},{length}"


def _prefixed(prefix: str, text: str) -> str:
    """Each line of ``text`` (whole lines, the last perhaps without a line end) after ``prefix``."""
    if not text:
        return ""
    if text.endswith("\n"):
        return prefix + text[:-1].replace("\n", "\n" + prefix) + "\n"
    return prefix + text.replace("\n", "\n" + prefix) + _NO_NEWLINE


def _one_hunk(
    before: str,
    after: str,
    name: str,
    cuts: tuple[int, int, int, int],
    after_cut: tuple[int, int],
    context: int,
) -> Iterable[str]:
    """Linear: the changed lines as one removal and one addition, with the usual context."""
    start, head, cut_before, end_before = cuts
    cut_after, start_line = after_cut
    leading = before.count("\n", start, head)
    old_length = leading + _line_count(before, head, cut_before) + context
    new_length = leading + _line_count(after, head, cut_after) + context
    yield f"--- {_label('a/', name)}\n"
    yield f"+++ {_label('b/', name)}\n"
    yield f"@@ -{_range(start_line, old_length)} +{_range(start_line, new_length)} @@\n"
    yield _prefixed(" ", before[start:head])
    yield _prefixed("-", before[head:cut_before])
    yield _prefixed("+", after[head:cut_after])
    yield _prefixed(" ", before[cut_before:end_before])
