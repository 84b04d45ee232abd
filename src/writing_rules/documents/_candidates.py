"""The passages closest to a quote that was not found, so a model can retry.

Two stages keep this fast on large documents: a cheap prefilter scores line
windows by the rarer words they share with the quote (or, for a quote without
words, by length), then ``difflib`` compares only the best few in full.
"""

from __future__ import annotations

import heapq
import math
import re
from bisect import bisect_right
from difflib import SequenceMatcher
from itertools import accumulate

from .._text_units import LINE_BREAK, split_lines

__all__ = ["closest_passages"]

_WORD = re.compile(r"\w+")
_MAX_HITS = 20_000  # word hits the prefilter looks at; rarer words first
_PREFILTER_KEEP = 120  # windows that get a cheap quick_ratio
_FULL_COMPARE = 8  # windows that get a full difflib ratio
_COMPARE_CHARS = 1_500  # texts longer than this are cut for the full comparison
_THRESHOLD = 0.3  # below this a passage is noise, not a candidate


def _window_scores_by_words(document: str, target: str, line_total: int, size: int) -> list[float] | None:
    words = {word.lower() for word in _WORD.findall(target)}
    if not words:
        return None
    lower = document.lower()
    counts = sorted((lower.count(word), word) for word in words)
    chosen: list[tuple[str, int]] = []
    hits = 0
    for count, word in counts:
        if count == 0:
            continue
        if chosen and hits + count > _MAX_HITS:
            break
        chosen.append((word, count))
        hits += count
    if not chosen:
        return None
    # Lower-casing never adds or removes line breaks, so line indexes agree.
    _, lower_starts = split_lines(lower)
    weights = {word: 1.0 / math.log(2.0 + count) for word, count in chosen}
    pattern = re.compile("|".join(re.escape(word) for word, _ in sorted(chosen, key=lambda item: -len(item[0]))))
    per_line: dict[int, set[str]] = {}
    for match in pattern.finditer(lower):
        per_line.setdefault(bisect_right(lower_starts, match.start()) - 1, set()).add(match.group())
    line_scores = [0.0] * line_total
    for line, found in per_line.items():
        line_scores[line] = sum(weights[word] for word in found)
    prefix = list(accumulate(line_scores, initial=0.0))
    return [prefix[start + size] - prefix[start] for start in range(line_total - size + 1)]


def _window_scores_by_length(lines: list[str], target: str, size: int) -> list[float]:
    prefix = list(accumulate((len(line.strip()) + 1 for line in lines), initial=0))
    wanted = len(target)
    return [-abs(prefix[start + size] - prefix[start] - 1 - wanted) for start in range(len(lines) - size + 1)]


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
    lines, starts = split_lines(document)
    size = min(len(LINE_BREAK.split(target)), len(lines))
    scores = _window_scores_by_words(document, target, len(lines), size)
    if scores is None or not any(score > 0 for score in scores):
        scores = _window_scores_by_length(lines, target, size)
    shortlist = heapq.nlargest(_PREFILTER_KEEP, range(len(scores)), key=scores.__getitem__)

    short_target = target[:_COMPARE_CHARS]
    quick = SequenceMatcher(None, "", short_target, autojunk=False)
    passages: list[tuple[int, int, str]] = []  # (line index, start offset, text)
    for start_line in shortlist:
        last = start_line + size - 1
        begin = starts[start_line]
        text = document[begin : starts[last] + len(lines[last])]
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
    return tuple(
        {"line": bisect_right(starts, begin), "text": text, "similarity": round(ratio, 3)}
        for ratio, begin, text in chosen
    )
