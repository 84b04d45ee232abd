"""How every part of the package counts text: lines and UTF-16 code units.

The tools, the document editor and the command line all report positions;
they agree because they count here. A line ends at CRLF, LF or a lone CR
(``docs/review-tools.md``); a character outside the Basic Multilingual Plane
is two UTF-16 code units and a lone surrogate is one.
"""

from __future__ import annotations

import codecs
import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate

__all__ = ["LINE_BREAK", "line_column", "line_starts", "lines_with_breaks", "split_lines", "utf16_length"]

LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LINE_BREAK_KEPT = re.compile(r"(\r\n|\r|\n)")
# Look the codec up now: its first use imports encodings.utf_16_le, and no tool call may import (read) a file.
codecs.lookup("utf-16-le")


def line_starts(text: str) -> list[int]:
    """Offsets at which each line of ``text`` starts (the first is 0)."""
    return [0, *(match.end() for match in LINE_BREAK.finditer(text))]


def line_column(starts: Sequence[int], offset: int) -> tuple[int, int]:
    """1-based line and column (in code points) of ``offset``, given ``line_starts(text)``."""
    line = bisect_right(starts, offset)
    return line, offset - starts[line - 1] + 1


def lines_with_breaks(text: str) -> list[str]:
    """The lines of ``text``, each with its line break (``str.splitlines`` also breaks at form feeds and U+2028)."""
    starts = line_starts(text)
    return [text[start:end] for start, end in zip(starts, [*starts[1:], len(text)], strict=True) if start < end]


def split_lines(text: str) -> tuple[list[str], list[int]]:
    """The lines of ``text`` without their breaks, and the offset each starts at."""
    parts = _LINE_BREAK_KEPT.split(text)
    return parts[0::2], list(accumulate(map(len, parts), initial=0))[0::2]


def utf16_length(text: str) -> int:
    """Length of ``text`` in UTF-16 code units."""
    if text.isascii():
        return len(text)
    # The codec counts in C, far faster than finding astral characters with a regex;
    # surrogatepass writes a lone surrogate as the one unit it is.
    return len(text.encode("utf-16-le", "surrogatepass")) // 2
