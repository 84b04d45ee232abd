"""Lines a piece at a time (issue 11): the same answers as splitting the whole document.

The candidate search, the fuzzy view and the line numbers of errors and warnings
no longer split a whole document into line objects (a 9 MB text of line ends is 9
million of them). These tests hold them to what the whole-document code answered:
``_reference_closest_passages`` is the candidate search as it was before, kept here
word for word, and every piece-wise table is checked with pieces of a few characters,
so that nearly every line crosses or touches a piece boundary.
"""

from __future__ import annotations

import functools
import heapq
import math
import re
from bisect import bisect_right
from difflib import SequenceMatcher
from itertools import accumulate

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from writing_rules._text_units import LINE_BREAK, line_starts, split_lines
from writing_rules.documents import _candidates, _matching
from writing_rules.documents._candidates import closest_passages
from writing_rules.documents._matching import Finder
from writing_rules.documents._text import line_count, line_numbers, line_pieces, text_pieces

# --- the candidate search before the fix, for comparison ---

_WORD = re.compile(r"\w+")


def _old_scores_by_words(document: str, target: str, line_total: int, size: int) -> list[float] | None:
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
        if chosen and hits + count > 20_000:  # (now also the first word: no test text comes near)
            break
        chosen.append((word, count))
        hits += count
    if not chosen:
        return None
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


def _old_scores_by_length(lines: list[str], target: str, size: int) -> list[float]:
    prefix = list(accumulate((len(line.strip()) + 1 for line in lines), initial=0))
    wanted = len(target)
    return [-abs(prefix[start + size] - prefix[start] - 1 - wanted) for start in range(len(lines) - size + 1)]


def _old_best_region(target: str, text: str) -> tuple[int, int]:
    matcher = SequenceMatcher(None, text, target, autojunk=False)
    match = matcher.find_longest_match(0, len(text), 0, len(target))
    start = max(0, match.a - match.b)
    end = min(len(text), start + len(target))
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return start, end


def _reference_closest_passages(document: str, anchor: str, *, limit: int = 3) -> tuple[dict[str, object], ...]:
    target = anchor.strip()
    if not document.strip() or not target:
        return ()
    lines, starts = split_lines(document)
    size = min(len(LINE_BREAK.split(target)), len(lines))
    scores = _old_scores_by_words(document, target, len(lines), size)
    if scores is None or not any(score > 0 for score in scores):
        scores = _old_scores_by_length(lines, target, size)
    shortlist = heapq.nlargest(120, range(len(scores)), key=scores.__getitem__)
    short_target = target[:1_500]
    quick = SequenceMatcher(None, "", short_target, autojunk=False)
    passages: list[tuple[int, int, str]] = []
    for start_line in shortlist:
        last = start_line + size - 1
        begin = starts[start_line]
        text = document[begin : starts[last] + len(lines[last])]
        if len(text) > 2 * len(target) + 40:
            region_start, region_end = _old_best_region(short_target, text[:6_000])
            text = text[region_start:region_end]
            begin += region_start
        stripped = text.strip()
        if stripped:
            offset = text.index(stripped[0])
            passages.append((start_line, begin + offset, stripped))

    def quick_ratio(passage: tuple[int, int, str]) -> float:
        quick.set_seq1(passage[2][:1_500])
        return quick.quick_ratio()

    finalists = heapq.nlargest(8, passages, key=quick_ratio)
    scored = []
    for _, begin, text in finalists:
        ratio = SequenceMatcher(None, text[:1_500], short_target).ratio()
        if ratio >= 0.3:
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


# --- inputs ---

# Words that repeat (so windows tie and the shortlist's order matters), white space
# at line ends, every kind of line break, a character whose lower case is longer (İ)
# and one that NFC composes (e + U+0301).
_PARTS = st.sampled_from(
    ["install", "Install", "the", "pip", "run", "x", " ", "  ", "\t", "\n", "\n", "\r\n", "\r", "é", "e\u0301", "İ"]
)
_DOCUMENTS = st.lists(_PARTS, max_size=200).map("".join)
_PIECE_SIZES = st.integers(min_value=1, max_value=12)


@st.composite
def _document_and_anchor(draw: st.DrawFn) -> tuple[str, str]:
    document = draw(_DOCUMENTS)
    if document and draw(st.booleans()):  # a quote from the document, slightly wrong
        start = draw(st.integers(0, len(document) - 1))
        anchor = document[start : start + draw(st.integers(1, 40))]
        anchor = anchor.replace(draw(st.sampled_from("aeinst ")), draw(st.sampled_from(["", "x", "  "])))
    else:
        anchor = draw(st.lists(_PARTS, min_size=1, max_size=8).map("".join))
    return document, anchor


def _small_pieces(module: object, size: int) -> pytest.MonkeyPatch:
    patch = pytest.MonkeyPatch()
    patch.setattr(module, "text_pieces", functools.partial(text_pieces, size=size))
    return patch


# --- tests ---


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(_document_and_anchor(), _PIECE_SIZES)
def test_candidates_are_those_the_whole_document_search_found(case: tuple[str, str], size: int) -> None:
    document, anchor = case
    expected = _reference_closest_passages(document, anchor)
    assert closest_passages(document, anchor) == expected
    patch = _small_pieces(_candidates, size)
    try:
        assert closest_passages(document, anchor) == expected
    finally:
        patch.undo()


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(_document_and_anchor())
def test_the_word_prefilter_ranks_windows_as_a_score_for_every_window_did(case: tuple[str, str]) -> None:
    # The shortlist's order decides which windows are compared only when a document has more
    # windows than the shortlist keeps, so the prefilter is compared on its own as well.
    document, anchor = case
    target = anchor.strip()
    assume(document.strip() and target)
    line_total = len(split_lines(document)[0])
    size = min(len(LINE_BREAK.split(target)), line_total)
    scores = _old_scores_by_words(document, target, line_total, size)
    expected = None
    if scores is not None and any(score > 0 for score in scores):
        expected = heapq.nlargest(120, range(len(scores)), key=scores.__getitem__)
    assert _candidates._shortlist_by_words(document, target, line_total, size) == expected


def test_candidates_of_a_long_document_are_those_the_whole_document_search_found() -> None:
    # More windows than the shortlist keeps, ties among them, and several 64 KB pieces.
    lines = [f"Install the package {n % 17} with pip{' ' * (n % 3)}" for n in range(6_000)]
    document = "\n".join(lines) + "\r\n\r\n" + "\n".join(lines[:50]) + "\n"
    for anchor in ("Install the package 3 with pipx", "package 16", "zzz yyy", "---", "the\npackage 5 with"):
        assert closest_passages(document, anchor) == _reference_closest_passages(document, anchor), anchor


@settings(max_examples=500)
@given(_DOCUMENTS, _PIECE_SIZES)
def test_lines_a_piece_at_a_time_are_the_lines_of_the_whole_text(text: str, size: int) -> None:
    lines: list[str] = []
    starts: list[int] = []
    for piece_lines, piece_starts in line_pieces(text, size):
        lines += piece_lines
        starts += piece_starts
    assert (lines, starts) == split_lines(text)
    assert "".join(piece for _, piece in text_pieces(text, size)) == text


@settings(max_examples=500)
@given(_DOCUMENTS, st.lists(st.integers(min_value=0, max_value=400), max_size=6), st.booleans())
def test_counted_line_numbers_are_those_of_the_line_start_table(text: str, offsets: list[int], ascending: bool) -> None:
    offsets = [min(offset, len(text)) for offset in offsets]
    if ascending:
        offsets.sort()
    starts = line_starts(text)
    assert line_numbers(text, offsets) == [bisect_right(starts, offset) for offset in offsets]
    assert line_count(text) == (0 if not text else len(starts) - (text.endswith(("\n", "\r"))))


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(_DOCUMENTS, st.lists(_PARTS, min_size=1, max_size=3).map("".join), _PIECE_SIZES)
def test_fuzzy_matches_with_small_pieces_are_those_of_one_piece(document: str, anchor: str, size: int) -> None:
    def answers() -> tuple[object, ...]:
        finder = Finder(document, anchor, fuzzy=True)
        return finder.spans(), finder.spans(1), finder.positions(), finder.count(), finder.is_ambiguous()

    assume(anchor.strip())
    patch = _small_pieces(_matching, len(document) + 1)
    try:
        whole = answers()
    finally:
        patch.undo()
    patch = _small_pieces(_matching, size)
    try:
        assert answers() == whole
    finally:
        patch.undo()
