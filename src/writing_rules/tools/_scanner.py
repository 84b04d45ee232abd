"""Tool 3, ``find_writing_signals``: the static scanner.

Runs the compiled signal table of one language over the text and reports
every hit. Context flags (code, quotation, negation) annotate hits; they never
filter them, and the scanner judges no meaning.
"""

from __future__ import annotations

import re
from typing import Any

from .._lazy_rules import rule_data as data
from ._text_index import TextIndex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._catalog import SignalIndex

__all__ = ["scan_text"]


_WORD = re.compile(r"\w+")


def find_spans(text: str, language: str, rule_ids: tuple[str, ...]) -> list[tuple[int, int, int, str, str]]:
    """Distinct (start, end, rule order, rule id, signal id), sorted as the contract orders signals."""
    order = {rule_id: position for position, rule_id in enumerate(data.RULE_IDS) if rule_id in rule_ids}
    table = data.SIGNAL_TABLES[language]
    selected = [index for index, pattern in enumerate(table) if pattern.rule_id in order]
    seen: set[tuple[str, int, int]] = set()
    hits: list[tuple[int, int, int, str, str]] = []
    for index, spans in _pattern_spans(text, language, selected):
        pattern = table[index]
        for start, end in spans:
            key = (pattern.rule_id, start, end)
            # Two patterns of one rule on one span are one signal: the first pattern names it.
            if key not in seen:
                seen.add(key)
                hits.append((start, end, order[pattern.rule_id], pattern.rule_id, pattern.signal_id))
    hits.sort()
    return hits


def plain_spans(regex: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    """Every non-empty match of one pattern over the whole text (the reference behaviour)."""
    return [match.span() for match in regex.finditer(text) if match.end() > match.start()]


def _pattern_spans(text: str, language: str, selected: list[int]) -> list[tuple[int, list[tuple[int, int]]]]:
    """Spans per selected pattern, in table order; the same as ``plain_spans`` for each."""
    table = data.SIGNAL_TABLES[language]
    index = data.SIGNAL_INDEX[language]
    folded = text.lower()
    if len(folded) != len(text) or data.FOLD_UNSAFE.search(text):
        return [(i, plain_spans(table[i].regex, text)) for i in selected]
    wanted = set(selected)
    candidates: dict[int, list[int]] = {i: [] for i in selected}
    if any(i not in index.full for i in selected):
        _word_candidates(folded, index, wanted, candidates)
        for chars, offset, patterns in index.anchors:
            targets = [i for i in patterns if i in wanted]
            if targets:
                positions = _anchor_positions(text, chars, offset)
                for i in targets:
                    candidates[i].extend(positions)
        for i in index.start:
            if i in wanted:
                candidates[i].append(0)
    result = []
    full = set(index.full)
    for i in selected:
        regex = table[i].regex
        if i in full:
            result.append((i, plain_spans(regex, text)))
            continue
        spans: list[tuple[int, int]] = []
        last_end = -1
        for position in sorted(set(candidates[i])):
            if position < last_end:
                continue  # inside the previous match, as finditer would skip it
            match = regex.match(text, position)
            if match is not None and match.end() > position:
                spans.append((position, match.end()))
                last_end = match.end()
        result.append((i, spans))
    return result


def _word_candidates(
    folded: str, index: SignalIndex, wanted: set[int], candidates: dict[int, list[int]]
) -> None:
    """One pass over the words of the lowercased text, looking each up in the trigger table."""
    table = index.words
    # Keys are a word's first letters (the whole word when shorter); shorter
    # lengths are listed only for triggers that a longer word may start with.
    size = index.key_lengths[-1]
    partial = index.key_lengths[:-1]
    for match in _WORD.finditer(folded):
        word = match.group()
        entries = table.get(word[:size])
        if entries is not None:
            _check(entries, folded, match.start(), wanted, candidates)
        for length in partial:
            if len(word) > length:
                entries = table.get(word[:length])
                if entries is not None:
                    _check(entries, folded, match.start(), wanted, candidates)


def _check(
    entries: tuple[tuple[int, int, tuple[str, ...]], ...],
    folded: str,
    position: int,
    wanted: set[int],
    candidates: dict[int, list[int]],
) -> None:
    for i, offset, literals in entries:
        start = position - offset
        if start >= 0 and i in wanted and folded.startswith(literals, start):
            candidates[i].append(start)


def _anchor_positions(text: str, chars: str, offset: int) -> list[int]:
    """Positions ``offset`` characters after each occurrence of one of ``chars``."""
    limit = len(text)
    positions: list[int] = []
    for char in chars:
        found = text.find(char)
        while found != -1:
            if found + offset <= limit:
                positions.append(found + offset)
            found = text.find(char, found + 1)
    return positions


def scan_text(text: str, language: str, rule_ids: tuple[str, ...], max_signals: int) -> dict[str, Any]:
    """``data`` of ``find_writing_signals``."""
    hits = find_spans(text, language, rule_ids)
    index = TextIndex(text, language) if hits else None
    signals = []
    for start, end, _, rule_id, signal_id in hits[:max_signals]:
        assert index is not None
        line, column = index.line_column(start)
        signals.append(
            {
                "ruleId": rule_id,
                "signalId": signal_id,
                "match": text[start:end],
                "start": start,
                "end": end,
                "utf16Start": index.utf16_offset(start),
                "utf16End": index.utf16_offset(end),
                "line": line,
                "column": column,
                "context": index.context(start, end),
            }
        )
    return {
        "language": language,
        "ruleIds": list(rule_ids),
        "signals": signals,
        "totalSignals": len(hits),
        "truncated": len(hits) > max_signals,
    }
