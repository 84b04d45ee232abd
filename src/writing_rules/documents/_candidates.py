"""The passages closest to a quote that was not found, so a model can retry.

Two stages keep this fast on large documents: a cheap prefilter scores line
windows by the rarer words they share with the quote (or, for a quote without
words, by length), then ``difflib`` compares only the best few in full.
"""

from __future__ import annotations

import heapq
import math
import re
from array import array
from bisect import bisect_left, bisect_right
from difflib import SequenceMatcher
from itertools import accumulate, islice, pairwise, repeat
from operator import sub

from .._text_units import split_lines
from ._text import LINE_BREAK, line_numbers, text_pieces

__all__ = ["closest_passages"]

_WORD = re.compile(r"\w+")
_MAX_HITS = 20_000  # word hits the prefilter looks at; rarer words first
# Distinct words of a quote counted in the document: each count reads the whole document, so a
# quote of thousands of words took a minute on a few megabytes. The longest are kept (the rarer).
_MAX_WORDS = 64
_PREFILTER_KEEP = 120  # windows that get a cheap quick_ratio
_FULL_COMPARE = 8  # windows that get a full difflib ratio
_COMPARE_CHARS = 1_500  # texts longer than this are cut for the full comparison
_THRESHOLD = 0.3  # below this a passage is noise, not a candidate


class _Lines:
    """The lines of a document without one object per line (a 9 MB text of line ends is 9
    million lines, about a gigabyte as line objects).

    ``lengths[k]`` is the total stripped length of the lines before line ``k`` (machine
    integers, 8 bytes a line); a line's offsets are found again by splitting only the piece
    of the document that holds it.
    """

    def __init__(self, document: str) -> None:
        self.document = document
        self.lengths: array[int] = array("q", [0])
        self._firsts: list[int] = []  # number of each piece's first line
        self._pieces: list[tuple[int, int]] = []  # each piece's (start, end) offsets
        self._split: tuple[int, list[int], list[int]] = (-1, [], [])  # the piece split last
        lengths = self.lengths
        for start, piece in text_pieces(document):
            self._firsts.append(len(lengths) - 1)
            self._pieces.append((start, start + len(piece)))
            lines = piece.split("\n") if "\r" not in piece else LINE_BREAK.split(piece)
            if start + len(piece) < len(document):
                del lines[-1]  # the empty "line" after the piece's last break opens the next piece
            lengths.extend(islice(accumulate(map(len, map(str.strip, lines)), initial=lengths[-1]), 1, None))
        self.total = len(lengths) - 1

    def span(self, line: int) -> tuple[int, int]:
        """Where line ``line`` (from 0) starts and ends, its line break left out."""
        index = bisect_right(self._firsts, line) - 1
        if self._split[0] != index:
            start, end = self._pieces[index]
            lines, starts = split_lines(self.document[start:end])
            self._split = (index, list(map(start.__add__, starts)), list(map(len, lines)))
        _, starts, lengths = self._split
        begin = starts[line - self._firsts[index]]
        return begin, begin + lengths[line - self._firsts[index]]


def _shortlist_by_words(document: str, target: str, line_total: int, size: int) -> list[int] | None:
    """The best windows by the rarer words they share with ``target``; None when no window shares one.

    Only the lines holding a word (at most ``_MAX_HITS``) score; a window's score, the difference
    of two running totals, changes only where a window edge crosses such a line, so the windows
    are ranked as runs of equal score (with the floating-point totals a table of every line gives).
    """
    words = {word.lower() for word in _WORD.findall(target)}
    if not words:
        return None
    if len(words) > _MAX_WORDS:
        words = set(sorted(words, key=lambda word: (-len(word), word))[:_MAX_WORDS])
    lower = document.lower()
    counts = sorted((lower.count(word), word) for word in words)
    chosen: list[tuple[str, int]] = []
    hits = 0
    for count, word in counts:
        if count == 0:
            continue
        if hits + count > _MAX_HITS:
            # (Even for the rarest word: a word on each of millions of lines narrows nothing, and
            # its hits would cost an object each; the windows are then ranked by length.)
            break
        chosen.append((word, count))
        hits += count
    if not chosen:
        return None
    weights = {word: 1.0 / math.log(2.0 + count) for word, count in chosen}
    pattern = re.compile("|".join(re.escape(word) for word, _ in sorted(chosen, key=lambda item: -len(item[0]))))
    matches = [(match.start(), match.group()) for match in pattern.finditer(lower)]
    # Lower-casing never adds or removes line breaks, so line numbers agree.
    per_line: dict[int, set[str]] = {}
    for number, (_, word) in zip(line_numbers(lower, [start for start, _ in matches]), matches, strict=True):
        per_line.setdefault(number - 1, set()).add(word)
    scored_lines = sorted(per_line)
    totals = list(accumulate((sum(weights[word] for word in per_line[line]) for line in scored_lines), initial=0.0))

    def total_before(line: int) -> float:  # the running total of every line before ``line``
        return totals[bisect_left(scored_lines, line)]

    window_total = line_total - size + 1
    edges = sorted(
        {0, window_total}
        | {edge for line in scored_lines for edge in (line + 1, line + 1 - size) if 0 < edge < window_total}
    )
    runs = []  # (score, first window, end)
    for first, end in pairwise(edges):
        runs.append((total_before(first + size) - total_before(first), first, end))
    if not any(score > 0 for score, _, _ in runs):
        return None
    # heapq.nlargest over every window: highest score first, the earlier window first among equals.
    runs.sort(key=lambda run: (-run[0], run[1]))
    shortlist: list[int] = []
    for _, first, end in runs:
        shortlist.extend(range(first, min(end, first + _PREFILTER_KEEP - len(shortlist))))
        if len(shortlist) == _PREFILTER_KEEP:
            break
    return shortlist


def _shortlist_by_length(lengths: array[int], target: str, size: int) -> list[int]:
    """The windows whose stripped lines, joined by one character each, are nearest ``target`` in length."""
    # Window length minus the wanted length, for every window, iterated in C.
    excess = map(sub, map(sub, islice(lengths, size, None), lengths), repeat(len(target) - size + 1))
    # Smallest distance first, the earlier window first among equals.
    distances = zip(map(abs, excess), range(len(lengths) - size), strict=True)
    return [start for _, start in heapq.nsmallest(_PREFILTER_KEEP, distances)]


def _best_region(target: str, text: str) -> tuple[int, int]:
    """The stretch of a long ``text`` that lines up with ``target``."""
    matcher = SequenceMatcher(None, text, target, autojunk=False)
    match = matcher.find_longest_match(0, len(text), 0, len(target))
    start = max(0, match.a - match.b)
    end = min(len(text), start + len(target))
    # Widen to word boundaries so the candidate is a quotable passage.
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return start, end


def closest_passages(document: str, anchor: str, *, limit: int = 3) -> tuple[dict[str, object], ...]:
    """Up to ``limit`` passages like ``anchor``: ``{line, text, similarity}``, best first."""
    target = anchor.strip()
    if not document.strip() or not target:
        return ()
    lines = _Lines(document)
    size = min(len(LINE_BREAK.split(target)), lines.total)
    shortlist = _shortlist_by_words(document, target, lines.total, size)
    if shortlist is None:
        shortlist = _shortlist_by_length(lines.lengths, target, size)

    short_target = target[:_COMPARE_CHARS]
    quick = SequenceMatcher(None, "", short_target, autojunk=False)
    passages: list[tuple[int, int, str]] = []  # (line index, start offset, text)
    for start_line in shortlist:
        begin = lines.span(start_line)[0]
        text = document[begin : lines.span(start_line + size - 1)[1]]
        if len(text) > 2 * len(target) + 40:
            region_start, region_end = _best_region(short_target, text[: 4 * _COMPARE_CHARS])
            text = text[region_start:region_end]
            begin += region_start
        stripped = text.strip()
        if stripped:
            offset = text.index(stripped[0])
            passages.append((start_line, begin + offset, stripped))

    def quick_ratio(passage: tuple[int, int, str]) -> float:
        quick.set_seq1(passage[2][:_COMPARE_CHARS])
        return quick.quick_ratio()

    finalists = heapq.nlargest(_FULL_COMPARE, passages, key=quick_ratio)
    scored = []
    for _, begin, text in finalists:
        ratio = SequenceMatcher(None, text[:_COMPARE_CHARS], short_target).ratio()
        if ratio >= _THRESHOLD:
            scored.append((ratio, begin, text))
    scored.sort(key=lambda item: (-item[0], item[1]))
    chosen: list[tuple[float, int, str]] = []
    for ratio, begin, text in scored:
        if all(begin + len(text) <= other or other + len(other_text) <= begin for _, other, other_text in chosen):
            chosen.append((ratio, begin, text))
        if len(chosen) == limit:
            break
    begins = sorted(begin for _, begin, _ in chosen)
    numbers = dict(zip(begins, line_numbers(document, begins), strict=True))
    return tuple({"line": numbers[begin], "text": text, "similarity": round(ratio, 3)} for ratio, begin, text in chosen)
