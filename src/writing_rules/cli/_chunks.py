"""Scanning a whole file with ``find_writing_signals``, whatever its length.

The tool takes at most ``MAX_TEXT_UNITS`` UTF-16 code units per call. Longer
files are cut into pieces (at blank lines outside fenced code where possible,
so context flags stay right), and every position is mapped back to the whole
file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from .._lazy_rules import rule_data as data
from .._text_units import LINE_BREAK, utf16_length
from ..tools import scan_text

__all__ = ["ScanError", "scan_whole_text", "split_points"]

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)")
_FENCE = re.compile(r"[ \t]{0,3}(```|~~~)")

Dispatch = Callable[[Mapping[str, Any]], Mapping[str, Any]]


class ScanError(ValueError):
    """The scanner refused a call (e.g. an unknown rule); ``code`` is the tool's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _fit(text: str, start: int, limit: int) -> int:
    """The largest end such that ``text[start:end]`` has at most ``limit`` UTF-16 units."""
    end = min(len(text), start + limit)
    while (excess := utf16_length(text[start:end]) - limit) > 0:
        end -= excess
    return end


def _cut(text: str, start: int, end: int) -> int:
    """Where to end a piece in ``text[start:end]``: the best boundary, latest first."""
    window = text[start:end]
    in_fence = False
    blank_outside = blank_any = line_end = -1
    for line in _LINE.finditer(window):
        position = line.end()
        if text[start + position - 1] == "\r" and text[start + position : start + position + 1] == "\n":
            continue  # never part a CRLF
        if _FENCE.match(line.group()):
            in_fence = not in_fence
        if not line.group().strip():
            blank_any = position
            if not in_fence:
                blank_outside = position
        line_end = position
    for candidate in (blank_outside, blank_any, line_end):
        if candidate > 0:
            return start + candidate
    space = max(window.rfind(" "), window.rfind("\t"))
    if space >= 0:
        return start + space + 1
    # No boundary at all: a hard cut, but never inside a CRLF.
    if text[end - 1 : end] == "\r" and text[end : end + 1] == "\n" and end - 1 > start:
        return end - 1
    return end


def split_points(text: str, limit: int) -> list[int]:
    """Start offsets of pieces of at most ``limit`` UTF-16 units that cover ``text``."""
    starts = [0]
    start = 0
    while utf16_length(text[start:]) > limit:
        end = _fit(text, start, limit)
        # A limit below one character's width still makes progress.
        start = max(_cut(text, start, end), start + 1)
        starts.append(start)
    return starts


def _origin(text: str, offset: int) -> tuple[int, int, int]:
    """UTF-16 offset, line and column (1-based, code points) of ``offset`` in ``text``."""
    before = text[:offset]
    breaks = list(LINE_BREAK.finditer(before))
    line_start = breaks[-1].end() if breaks else 0
    return utf16_length(before), len(breaks) + 1, offset - line_start + 1


def _shift(signal: dict[str, Any], offset: int, origin: tuple[int, int, int]) -> dict[str, Any]:
    utf16, line, column = origin
    shifted = dict(signal)
    shifted["start"] += offset
    shifted["end"] += offset
    shifted["utf16Start"] += utf16
    shifted["utf16End"] += utf16
    if signal["line"] == 1:
        shifted["column"] += column - 1
    shifted["line"] += line - 1
    return shifted


def scan_whole_text(
    dispatch: Dispatch,
    text: str,
    arguments: Mapping[str, Any],
    *,
    limit: int = data.MAX_TEXT_UNITS,
) -> dict[str, Any]:
    """``find_writing_signals`` data for all of ``text``, with every signal kept.

    ``arguments`` are the tool's other arguments (``language``, ``profile``,
    ``ruleIds``); raises ``ScanError`` when the tool refuses them. The tool
    checks the arguments once; each piece is then scanned by the tool's own
    scanner without the 500-signal cap a model's call has, so a dense file is
    read once, not once and then again in smaller pieces.
    """
    envelope = dispatch({"name": "find_writing_signals", "arguments": {**arguments, "text": "", "maxSignals": 1}})
    if not envelope["ok"]:
        raise ScanError(envelope["error"]["code"], envelope["error"]["message"])
    rule_ids = tuple(envelope["data"]["ruleIds"])
    language = envelope["data"]["language"]
    signals: list[dict[str, Any]] = []
    starts = split_points(text, limit)
    for first, following in zip(starts, [*starts[1:], len(text)], strict=True):
        piece = text[first:following]
        result = scan_text(piece, language, rule_ids, len(piece) + 1)
        origin = _origin(text, first) if first else (0, 1, 1)
        signals.extend(_shift(signal, first, origin) for signal in result["signals"])
    return {
        "language": language,
        "ruleIds": list(rule_ids),
        "signals": signals,
        "totalSignals": len(signals),
        "truncated": False,
    }
