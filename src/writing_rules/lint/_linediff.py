"""Which lines of a new text are changed from an old one, in about linear time.

``difflib`` is quadratic on texts with many repeated lines (20,000 lines with
two values swapped took 35 s). This matches as git's patience diff does: the
common start and end first, then lines that occur exactly once on both sides
(kept in order by a longest increasing subsequence), then the same again
between each pair of matches. A stretch with no such anchor is compared line
by line only when small; beyond that budget every new line in it counts as
changed. A line is only ever matched with an equal line, so a changed line is
never reported unchanged: in doubt, a line counts as changed.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

__all__ = ["changed_line_numbers"]

# Cells of the line-by-line table for a stretch without anchors (a few milliseconds).
_TABLE_BUDGET = 40_000


def changed_line_numbers(before: Sequence[str], after: Sequence[str]) -> frozenset[int]:
    """1-based numbers of the lines of ``after`` that are not matched with a line of ``before``."""
    changed: set[int] = set()
    stack = [(0, len(before), 0, len(after))]
    while stack:
        old_start, old_end, new_start, new_end = stack.pop()
        while old_start < old_end and new_start < new_end and before[old_start] == after[new_start]:
            old_start += 1
            new_start += 1
        while old_start < old_end and new_start < new_end and before[old_end - 1] == after[new_end - 1]:
            old_end -= 1
            new_end -= 1
        if new_start == new_end:
            continue
        if old_start == old_end:
            changed.update(range(new_start + 1, new_end + 1))
            continue
        anchors = _unique_anchors(before, old_start, old_end, after, new_start, new_end)
        if anchors:
            previous_old, previous_new = old_start, new_start
            for old_index, new_index in anchors:
                stack.append((previous_old, old_index, previous_new, new_index))
                previous_old, previous_new = old_index + 1, new_index + 1
            stack.append((previous_old, old_end, previous_new, new_end))
        elif (old_end - old_start) * (new_end - new_start) <= _TABLE_BUDGET:
            changed.update(_table(before, old_start, old_end, after, new_start, new_end))
        else:
            changed.update(range(new_start + 1, new_end + 1))
    return frozenset(changed)


def _unique_anchors(
    before: Sequence[str], old_start: int, old_end: int, after: Sequence[str], new_start: int, new_end: int
) -> list[tuple[int, int]]:
    """Pairs of lines unique on both sides, the longest run of them in the same order on both."""
    counts: dict[str, list[int]] = {}  # line -> [count before, index before, count after, index after]
    for index in range(old_start, old_end):
        entry = counts.setdefault(before[index], [0, 0, 0, 0])
        entry[0] += 1
        entry[1] = index
    for index in range(new_start, new_end):
        found = counts.get(after[index])
        if found is not None:
            found[2] += 1
            found[3] = index
    pairs = sorted((entry[3], entry[1]) for entry in counts.values() if entry[0] == 1 and entry[2] == 1)
    if not pairs:
        return []
    # Longest increasing subsequence of the old indices, in new-index order (patience sorting).
    tails: list[int] = []  # old index ending the best run of each length
    tail_at: list[int] = []  # position in pairs of that end
    previous: list[int] = [-1] * len(pairs)
    for position, (_, old_index) in enumerate(pairs):
        length = bisect_left(tails, old_index)
        if length == len(tails):
            tails.append(old_index)
            tail_at.append(position)
        else:
            tails[length] = old_index
            tail_at[length] = position
        previous[position] = tail_at[length - 1] if length else -1
    chain = []
    position = tail_at[-1]
    while position != -1:
        new_index, old_index = pairs[position]
        chain.append((old_index, new_index))
        position = previous[position]
    chain.reverse()
    return chain


def _table(
    before: Sequence[str], old_start: int, old_end: int, after: Sequence[str], new_start: int, new_end: int
) -> set[int]:
    """The unmatched new lines of a small stretch, from a longest-common-subsequence table."""
    rows, columns = old_end - old_start, new_end - new_start
    lengths = [[0] * (columns + 1) for _ in range(rows + 1)]
    for row in range(rows - 1, -1, -1):
        line = before[old_start + row]
        here, below = lengths[row], lengths[row + 1]
        for column in range(columns - 1, -1, -1):
            if line == after[new_start + column]:
                here[column] = below[column + 1] + 1
            else:
                here[column] = max(below[column], here[column + 1])
    changed = set()
    row = column = 0
    while column < columns:
        if row < rows and before[old_start + row] == after[new_start + column]:
            row += 1
            column += 1
        elif row < rows and lengths[row + 1][column] >= lengths[row][column + 1]:
            row += 1
        else:
            changed.add(new_start + column + 1)
            column += 1
    return changed
