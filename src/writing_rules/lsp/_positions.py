"""Offsets in a text (code points) and LSP positions (line, UTF-16 unit in the line)."""

from __future__ import annotations

import re
from bisect import bisect_right

__all__ = ["LineIndex", "PositionError"]

# Line breaks as LSP counts them, and as the review tools do: CRLF, LF or a lone CR.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class PositionError(ValueError):
    """A position that does not exist in the document (a line past its end, a negative number)."""


def _units(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


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

    def position(self, offset: int) -> tuple[int, int]:
        """(line, UTF-16 character) of a code-point offset."""
        line = self.line_of(offset)
        return line, _units(self.text[self._starts[line] : offset])

    def offset(self, line: int, character: int) -> int:
        """The code-point offset of an LSP position; a character past the line's end means its end."""
        if not 0 <= line < len(self._starts) or character < 0:
            raise PositionError(
                f"position line {line}, character {character} is outside the document "
                f"(lines 0 to {len(self._starts) - 1})"
            )
        start, end = self._starts[line], self._ends[line]
        units = 0
        for index in range(start, end):
            if units >= character:
                return index
            units += 2 if ord(self.text[index]) > 0xFFFF else 1
        return end
