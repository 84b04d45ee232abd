"""Line breaks: counting lines, finding line numbers, keeping CRLF documents CRLF.

A document may hold millions of short lines (9 MB of line ends is a legal text), so
nothing here makes one object per line of a whole document: lines are counted with
``str.count`` and split a bounded piece at a time (``line_pieces``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .._text_units import LINE_BREAK, split_lines

__all__ = [
    "LINE_BREAK",
    "adapt_line_breaks",
    "line_count",
    "line_numbers",
    "line_pieces",
    "text_pieces",
    "uses_crlf",
]

_PIECE = 1 << 16  # characters split into line objects at a time

_BARE_LF = re.compile(r"(?<!\r)\n")


def uses_crlf(text: str) -> bool:
    """True when ``text`` has line breaks and every one of them is CRLF."""
    crlf = text.count("\r\n")
    return crlf > 0 and text.count("\n") == crlf and text.count("\r") == crlf


def adapt_line_breaks(inserted: str, document: str) -> str:
    """Write every bare LF of ``inserted`` as CRLF when ``document`` uses CRLF throughout."""
    # "\r" is a one-character search, far cheaper on a large document than "\r\n".
    if "\n" not in inserted or "\r" not in document or not uses_crlf(document):
        return inserted
    return _BARE_LF.sub("\r\n", inserted)


def _breaks(text: str, start: int = 0, end: int | None = None) -> int:
    """Line breaks (CRLF, LF or CR) lying wholly inside ``text[start:end]``."""
    if end is None:
        end = len(text)
    return text.count("\n", start, end) + text.count("\r", start, end) - text.count("\r\n", start, end)


def _splits_crlf(text: str, offset: int) -> bool:
    return 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n"


def line_numbers(text: str, offsets: Iterable[int]) -> list[int]:
    """1-based line numbers of ``offsets`` (a line starts after each CRLF, LF or CR), without
    a table of line starts; ascending offsets cost one pass over the text in all."""
    numbers = []
    previous, breaks = 0, 0  # breaks ending at or before ``previous``
    for offset in offsets:
        if offset < previous:
            previous, breaks = 0, 0
        # A CRLF cut by ``previous`` is counted here by its LF; one cut by ``offset`` ends after it.
        if offset > previous:
            breaks += _breaks(text, previous, offset) - _splits_crlf(text, offset)
        previous = offset
        numbers.append(breaks + 1)
    return numbers


def line_count(text: str) -> int:
    """Number of lines: 0 for "", and a final line break does not open a new line."""
    if not text:
        return 0
    breaks = _breaks(text)
    return breaks if text.endswith(("\n", "\r")) else breaks + 1


def _piece_end(text: str, start: int, end: int) -> int:
    """Where a piece of lines starting at ``start`` ends: just after the last line break before
    ``end``, or after the first one past it when a line is longer than the piece."""
    # A CR found before end - 1 is followed inside the window, so a CRLF is never cut.
    last = max(text.rfind("\n", start, end), text.rfind("\r", start, end - 1))
    if last >= start:
        return last + 1
    found = [index for index in (text.find("\n", end), text.find("\r", end)) if index != -1]
    if not found:
        return len(text)
    first = min(found)
    return first + 2 if _splits_crlf(text, first + 1) else first + 1


def text_pieces(text: str, size: int = _PIECE) -> Iterator[tuple[int, str]]:
    """``text`` cut into pieces of whole lines of about ``size`` characters: (start offset, piece).

    Every piece but the last ends with a line break.
    """
    start, length = 0, len(text)
    while True:
        end = length if start + size >= length else _piece_end(text, start, start + size)
        yield start, text[start:end]
        if end >= length:
            return
        start = end


def line_pieces(text: str, size: int = _PIECE) -> Iterator[tuple[list[str], list[int]]]:
    """``split_lines(text)`` a piece at a time: lines without breaks and the offsets they start at.

    The pieces, joined, are ``split_lines(text)``; each holds whole lines of about ``size``
    characters, so memory for line objects stays bounded however many lines the text has.
    """
    for start, piece in text_pieces(text, size):
        lines, starts = split_lines(piece)
        if start + len(piece) < len(text):
            del lines[-1], starts[-1]  # the empty "line" after the piece's last break opens the next piece
        yield lines, list(map(start.__add__, starts)) if start else starts
