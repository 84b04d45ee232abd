"""Scanning a whole file with ``find_writing_signals``, whatever its length.

The tool takes at most ``MAX_TEXT_UNITS`` UTF-16 code units per call. Longer
files are cut into pieces (at blank lines outside fenced code where possible,
so context flags stay right), and every position is mapped back to the whole
file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .._lazy_rules import rule_data as data
from .._text_units import LINE_BREAK, utf16_length
from ..prose import read_prose
from ..tools import scan_text

__all__ = [
    "DEFAULT_FRONT_MATTER_KEYS",
    "ScanError",
    "join_pieces",
    "scan_chosen",
    "scan_whole_text",
    "split_points",
]

DEFAULT_FRONT_MATTER_KEYS = ("title", "description")

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
    """Where to end a piece in ``text[start:end]``: the best boundary, latest first.

    Linear in the window: only its line breaks are visited (a regex that
    matched whole lines rescanned a window without a break from every position,
    4 minutes for one 250,000-character line).
    """
    window = text[start:end]
    blank_outside = blank_any = line_end = -1
    if max(window.rfind("\n"), window.rfind("\r")) >= 0:
        in_fence = False
        line_start = 0
        for match in LINE_BREAK.finditer(window):
            position = match.end()
            if text[start + position - 1] == "\r" and text[start + position : start + position + 1] == "\n":
                continue  # never part a CRLF
            if _FENCE.match(window, line_start):
                in_fence = not in_fence
            if not window[line_start : match.start()].strip():
                blank_any = position
                if not in_fence:
                    blank_outside = position
            line_end = position
            line_start = position
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


def _fits(text: str, start: int, limit: int) -> bool:
    # Each character is one or two UTF-16 units: only a rest of at most ``limit``
    # characters can fit, so no step encodes more than one window.
    rest = len(text) - start
    return rest <= limit // 2 or (rest <= limit and utf16_length(text[start:]) <= limit)


def split_points(text: str, limit: int) -> list[int]:
    """Start offsets of pieces of at most ``limit`` UTF-16 units that cover ``text``."""
    starts = [0]
    start = 0
    while not _fits(text, start, limit):
        end = _fit(text, start, limit)
        # A limit below one character's width still makes progress.
        start = max(_cut(text, start, end), start + 1)
        starts.append(start)
    return starts


def _origins(text: str, starts: list[int]) -> list[tuple[int, int, int]]:
    """UTF-16 offset, line and column (1-based, code points) of each start, in one pass over ``text``."""
    origins = []
    utf16, line, line_start, previous = 0, 1, 0, 0
    for start in starts:
        segment = text[previous:start]
        utf16 += utf16_length(segment)
        for match in LINE_BREAK.finditer(segment):  # pieces never part a CRLF
            line += 1
            line_start = previous + match.end()
        origins.append((utf16, line, start - line_start + 1))
        previous = start
    return origins


def _shift(signal: Mapping[str, Any], offset: int, origin: tuple[int, int, int]) -> dict[str, Any]:
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


def join_pieces(
    text: str, starts: Sequence[int], pieces: Iterable[Iterable[Mapping[str, Any]]]
) -> list[dict[str, Any]]:
    """The signals of the pieces of ``text`` that start at ``starts``, at their whole-text positions."""
    signals: list[dict[str, Any]] = []
    for first, origin, piece in zip(starts, _origins(text, list(starts)), pieces, strict=True):
        signals.extend(_shift(signal, first, origin) for signal in piece)
    return signals


def scan_whole_text(
    dispatch: Dispatch,
    text: str,
    arguments: Mapping[str, Any],
    *,
    limit: int = data.MAX_TEXT_UNITS,
    markup: str = "markdown",
    front_matter_keys: Sequence[str] | None = DEFAULT_FRONT_MATTER_KEYS,
    min_level: str | None = None,
    code: bool = True,
) -> dict[str, Any]:
    """``find_writing_signals`` data for all of ``text`` read as ``markup``, with every signal kept.

    ``arguments`` are the tool's other arguments (``language``, ``profile``,
    ``ruleIds``); raises ``ScanError`` when the tool refuses them. The tool
    checks the arguments once and chooses the rules; ``scan_chosen`` scans.
    """
    envelope = dispatch({"name": "find_writing_signals", "arguments": {**arguments, "text": "", "maxSignals": 1}})
    if not envelope["ok"]:
        raise ScanError(envelope["error"]["code"], envelope["error"]["message"])
    return scan_chosen(
        text,
        envelope["data"]["language"],
        tuple(envelope["data"]["ruleIds"]),
        limit=limit,
        markup=markup,
        front_matter_keys=front_matter_keys,
        min_level=min_level,
        code=code,
    )


def scan_chosen(
    text: str,
    language: str,
    rule_ids: tuple[str, ...],
    *,
    limit: int = data.MAX_TEXT_UNITS,
    markup: str = "markdown",
    front_matter_keys: Sequence[str] | None = DEFAULT_FRONT_MATTER_KEYS,
    min_level: str | None = None,
    code: bool = True,
) -> dict[str, Any]:
    """``scan_whole_text`` for a language and rules the tool would choose as they are.

    That is: ``"en"`` or ``"de"``, and known rules with signals in catalogue order
    (the command line's settings give them so). Each piece is read into its prose
    view (``writing_rules.prose``) and scanned over it by the tool's own scanner,
    without the 500-signal cap a model's call has, so a dense file is read once,
    not once and then again in smaller pieces. ``front_matter_keys`` None: the
    text cannot open with front matter (a later piece of a file). ``note`` says
    why a piece was read as plain text (its reader failed), else it is None.

    ``min_level`` and ``code=False`` leave out what the caller drops anyway: the
    patterns below that level and the code (see ``scan_text``).
    """
    starts = split_points(text, limit)
    notes: list[str] = []

    def scanned(first: int, following: int) -> list[dict[str, Any]]:
        piece = text[first:following]
        view = read_prose(piece, markup, front_matter_keys=front_matter_keys if first == 0 else None)
        if view.note is not None:
            notes.append(view.note)
        found: list[dict[str, Any]] = scan_text(
            piece, language, rule_ids, len(piece) + 1, view=view, min_level=min_level, code=code
        )["signals"]
        return found

    bounds = zip(starts, [*starts[1:], len(text)], strict=True)
    signals = join_pieces(text, starts, [scanned(first, following) for first, following in bounds])
    return {
        "language": language,
        "ruleIds": list(rule_ids),
        "signals": signals,
        "totalSignals": len(signals),
        "truncated": False,
        "note": notes[0] if notes else None,
    }
