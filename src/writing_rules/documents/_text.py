"""Line breaks: counting lines, finding line numbers, keeping CRLF documents CRLF."""

from __future__ import annotations

import re
from bisect import bisect_right

from .._text_units import LINE_BREAK, line_starts

__all__ = ["LINE_BREAK", "adapt_line_breaks", "line_count", "line_number", "line_starts", "uses_crlf"]

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


def line_number(starts: list[int], offset: int) -> int:
    """1-based line number of ``offset``, given ``line_starts(text)``."""
    return bisect_right(starts, offset)


def line_count(text: str) -> int:
    """Number of lines: 0 for "", and a final line break does not open a new line."""
    if not text:
        return 0
    breaks = len(LINE_BREAK.findall(text))
    return breaks if text.endswith(("\n", "\r")) else breaks + 1
