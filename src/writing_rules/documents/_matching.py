"""Finding an anchor in a document: exact, or line-trimmed and NFC-normalised.

Fuzzy matching searches a normalised view of the document (each line stripped
of Unicode white space, every line break a single LF, NFC) and maps the match
back to the original text, so the edit lands on the document's own characters.
"""

from __future__ import annotations

import unicodedata
from array import array
from bisect import bisect_right
from collections.abc import Iterable
from itertools import accumulate, islice

from .._nfc_view import NfcView
from .._text_units import split_lines
from ._text import LINE_BREAK, text_pieces

__all__ = ["Finder", "normalise_anchor", "occurrence_at", "occurrences_at"]


def occurrence_at(text: str, quote: str, start: int) -> int | None:
    """The ``occurrence`` that makes an exact operation on ``quote`` act at ``start``, or None.

    Occurrences count non-overlapping matches from the left (1 is the first), so
    a place that overlaps an earlier match (``"aa"`` at offset 1 of ``"aaa"``)
    has no occurrence number.
    """
    return occurrences_at(text, quote, (start,)).get(start)


def occurrences_at(text: str, quote: str, starts: Iterable[int]) -> dict[int, int]:
    """:func:`occurrence_at` for many places of one quote, in one pass over ``text``.

    Places with no occurrence number are left out. Counted from the start for
    each place, N places would cost N * N / 2 searches (``scan --fix`` on a file
    of 100,000 fixable sentences, most of an hour).
    """
    found: dict[int, int] = {}
    if not quote:  # no operation quotes nothing; and find("") never moves on
        return found
    number = 0
    position = text.find(quote)
    for start in sorted(starts):
        while position != -1 and position < start:
            number += 1
            position = text.find(quote, position + len(quote))
        if position == start:
            found[start] = number + 1
    return found


def normalise_anchor(anchor: str) -> str:
    """The fuzzy form of a quoted text: lines stripped, LF breaks, NFC."""
    return unicodedata.normalize("NFC", "\n".join(line.strip() for line in LINE_BREAK.split(anchor)))


class _FuzzyView:
    """The normalised document and the map from its offsets to the original's.

    Line tables are cumulative lengths built by C-level ``accumulate``; a line
    start is ``cumulative[k] + k * break_width``, found by binary search, so a
    1 MB document is indexed in a few milliseconds.
    """

    __slots__ = (
        "_break",
        "_chunks",
        "_document",
        "_line_total",
        "_normal_cumulative",
        "_original_cumulative",
        "_starts",
        "text",
    )

    def __init__(self, document: str) -> None:
        self._document = document
        self._starts: array[int] | None = None
        if "\r" not in document:
            self._break = 1
        elif document.count("\r") == document.count("\n") == document.count("\r\n"):
            self._break = 2
        else:  # mixed line breaks: keep every line start
            self._starts = array("q")
            self._break = 0
        # Machine integers, not lists of int objects, filled a piece of lines at a time: a
        # text of millions of short lines never exists as line objects all at once.
        self._original_cumulative = original = array("q", [0])
        self._normal_cumulative = normal = array("q", [0])
        self._chunks: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        pieces = []
        first = 0  # number of the piece's first line
        for start, piece in text_pieces(document):
            if self._break:  # one kind of break: str.split, far faster than the regex
                lines = piece.split("\r\n" if self._break == 2 else "\n")
                if start + len(piece) < len(document):
                    del lines[-1]  # the empty "line" after the piece's last break opens the next piece
            else:
                lines, starts = split_lines(piece)
                if start + len(piece) < len(document):
                    del lines[-1], starts[-1]
                assert self._starts is not None
                self._starts.extend(map(start.__add__, starts))
            original.extend(islice(accumulate(map(len, lines), initial=original[-1]), 1, None))
            stripped = list(map(str.strip, lines))
            text = "\n".join(stripped)
            if not text.isascii() and not unicodedata.is_normalized("NFC", text):
                for number, line in enumerate(stripped):
                    if not unicodedata.is_normalized("NFC", line):
                        view = NfcView.of(line)
                        stripped[number] = view.text
                        self._chunks[first + number] = (view.original_starts, view.normal_starts)
                text = "\n".join(stripped)
            normal.extend(islice(accumulate(map(len, stripped), initial=normal[-1]), 1, None))
            pieces.append(text)
            first += len(lines)
        self._line_total = first
        self.text = "\n".join(pieces)

    def _line_start(self, line: int) -> int:
        if self._starts is not None:
            return self._starts[line]
        return self._original_cumulative[line] + line * self._break

    def _normal_line(self, offset: int) -> tuple[int, int]:
        """The normalised line holding ``offset`` and the column in it."""
        cumulative = self._normal_cumulative
        low, high = 0, self._line_total - 1
        while low < high:  # last line whose start (cumulative[k] + k) <= offset
            middle = (low + high + 1) // 2
            if cumulative[middle] + middle <= offset:
                low = middle
            else:
                high = middle - 1
        return low, offset - cumulative[low] - low

    def _normal_length(self, line: int) -> int:
        return self._normal_cumulative[line + 1] - self._normal_cumulative[line]

    def _column(self, line: int, column: int, *, end: bool) -> int:
        """Map a column of the normalised line to one of the stripped original line."""
        chunks = self._chunks.get(line)
        if chunks is None:
            return column
        original_starts, normal_starts = chunks
        chunk = bisect_right(normal_starts, column) - 1
        if normal_starts[chunk] == column or not end:
            return original_starts[chunk]
        return original_starts[chunk + 1]

    def _length(self, line: int) -> int:
        return self._original_cumulative[line + 1] - self._original_cumulative[line]

    def _lead(self, line: int) -> int:
        start = self._line_start(line)
        text = self._document[start : start + self._length(line)]
        return len(text) - len(text.lstrip())

    def map_start(self, offset: int) -> int:
        line, column = self._normal_line(offset)
        if column == 0:
            # A match from the start of a line takes the line's indentation too.
            return self._line_start(line)
        return self._line_start(line) + self._lead(line) + self._column(line, column, end=False)

    def map_end(self, offset: int) -> int:
        line, column = self._normal_line(offset)
        if column == 0 and line > 0:
            # The match ended with a line break: take the whole break (CRLF too).
            return self._line_start(line)
        if column == self._normal_length(line):
            # The match ended at the end of a line's text: take its trailing white space.
            return self._line_start(line) + self._length(line)
        return self._line_start(line) + self._lead(line) + self._column(line, column, end=True)


class Finder:
    """Occurrences of one anchor in one document, in original offsets."""

    __slots__ = ("_haystack", "_needle", "_view")

    def __init__(self, document: str, anchor: str, *, fuzzy: bool) -> None:
        if fuzzy:
            self._view: _FuzzyView | None = _FuzzyView(document)
            self._haystack = self._view.text
            self._needle = normalise_anchor(anchor)
        else:
            self._view = None
            self._haystack = document
            self._needle = anchor

    def _span(self, start: int, end: int) -> tuple[int, int]:
        if self._view is None:
            return start, end
        return self._view.map_start(start), self._view.map_end(end)

    def spans(self, limit: int | None = None) -> list[tuple[int, int]]:
        """Non-overlapping matches, left to right (at most ``limit``)."""
        haystack, needle = self._haystack, self._needle
        found: list[tuple[int, int]] = []
        position = haystack.find(needle)
        previous_end = 0
        while position != -1 and (limit is None or len(found) < limit):
            start, end = self._span(position, position + len(needle))
            # Mapped fuzzy spans may touch through a line's trailing white space.
            start = max(start, previous_end)
            found.append((start, end))
            previous_end = end
            if limit is not None and len(found) == limit:
                break
            position = haystack.find(needle, position + len(needle))
        return found

    def count(self) -> int:
        """How many non-overlapping matches there are."""
        return self._haystack.count(self._needle)

    def is_ambiguous(self) -> bool:
        """True when the anchor matches at two or more positions, overlapping ones included."""
        first = self._haystack.find(self._needle)
        return first != -1 and self._haystack.find(self._needle, first + 1) != -1

    def positions(self, limit: int | None = None) -> list[int]:
        """Every start position (at most ``limit``), overlapping ones included, in original offsets."""
        haystack, needle = self._haystack, self._needle
        found: list[int] = []
        position = haystack.find(needle)
        while position != -1 and (limit is None or len(found) < limit):
            found.append(position)
            position = haystack.find(needle, position + 1)
        if self._view is not None:
            found = [self._view.map_start(position) for position in found]
        return found
