"""Tool 3, ``find_writing_signals``: the static scanner.

Runs the compiled signal table of one language over the text and reports
every hit. Context flags (code, quotation, negation) annotate hits; they never
filter them, and the scanner judges no meaning.
"""

from __future__ import annotations

from typing import Any

from .. import _rules_data as data
from ._text_index import TextIndex

__all__ = ["scan_text"]


def find_spans(text: str, language: str, rule_ids: tuple[str, ...]) -> list[tuple[int, int, int, str, str]]:
    """Distinct (start, end, rule order, rule id, signal id), sorted as the contract orders signals."""
    selected = {rule_id: order for order, rule_id in enumerate(data.RULE_IDS) if rule_id in rule_ids}
    seen: set[tuple[str, int, int]] = set()
    hits: list[tuple[int, int, int, str, str]] = []
    for pattern in data.SIGNAL_TABLES[language]:
        order = selected.get(pattern.rule_id)
        if order is None:
            continue
        for match in pattern.regex.finditer(text):
            start, end = match.span()
            key = (pattern.rule_id, start, end)
            # Two patterns of one rule on one span are one signal: the first pattern names it.
            if end > start and key not in seen:
                seen.add(key)
                hits.append((start, end, order, pattern.rule_id, pattern.signal_id))
    hits.sort()
    return hits


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
