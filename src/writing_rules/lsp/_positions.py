"""Offsets in a text (code points) and LSP positions (line, UTF-16 unit in the line).

Built once per document version: where each line starts and ends, and where the
characters outside the Basic Multilingual Plane are (the only ones that take two
UTF-16 units). Every conversion is then a few binary searches, never a walk over
the line: a one-line document of millions of characters with thousands of
signals costs no more per signal than a short one.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from .._errors import WritingRulesError

__all__ = ["LineIndex", "PositionError"]

# Line breaks as LSP counts them, and as the review tools do: CRLF, LF or a lone CR.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# Characters that take two UTF-16 units (lone surrogates, as Python may hold them, take one).
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class PositionError(WritingRulesError):
    """A position that does not exist in the document (a line past its end, a negative number)."""


class LineIndex:
    """Converts between code-point offsets and LSP positions for one text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts = [0]
        self._ends = []  # where each line's text ends, before its line break
        for found in _LINE_BREAK.finditer(text):
            self._ends.append(found.start())
            self._starts.append(found.end())
        self._ends.append(len(text))
        self._astral = [found.start() for found in _ASTRAL.finditer(text)]

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def line_of(self, offset: int) -> int:
        """0-based line of ``offset``."""
        return bisect_right(self._starts, offset) - 1

    def line_text(self, line: int) -> str:
        """The text of ``line`` (0-based), without its line break."""
        return self.text[self._starts[line] : self._ends[line]]

    def line_start(self, line: int) -> int:
        return self._starts[line]

    def line_end(self, line: int) -> int:
        return self._ends[line]

    def _units(self, start: int, offset: int) -> int:
        """UTF-16 units from ``start`` to ``offset``: one per code point, one more per astral one."""
        return offset - start + bisect_left(self._astral, offset) - bisect_left(self._astral, start)

    def position(self, offset: int) -> tuple[int, int]:
        """(line, UTF-16 character) of a code-point offset."""
        line = self.line_of(offset)
        return line, self._units(self._starts[line], offset)

    def offset(self, line: int, character: int) -> int:
        """The code-point offset of an LSP position; a character past the line's end means its end.

        A character inside an astral character (between its two UTF-16 units) means the offset after it.
        """
        if not 0 <= line < len(self._starts) or character < 0:
            raise PositionError(
                f"position line {line}, character {character} is outside the document "
                f"(lines 0 to {len(self._starts) - 1})"
            )
        start, end = self._starts[line], self._ends[line]
        # The first offset whose units reach ``character``: units grow with the offset, so bisect.
        low, high = start, end
        while low < high:
            middle = (low + high) // 2
            if self._units(start, middle) >= character:
                high = middle
            else:
                low = middle + 1
        return low
