"""The prose view of a document and the map from its characters to the source.

A view holds two texts built from the source: ``text``, what a reader reads
(prose), and ``code_text``, the code the document shows, scanned apart. Each
is a run of *segments*: a copied slice of the source (one prose character per
source character) or a short synthetic string standing for a source span (a
space for a soft line break, ``\\n`` for a block boundary, one placeholder for
an inline code span, a decoded entity). Every prose character therefore has a
source start and a source end, and any prose span maps to one source span.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterable
from operator import le
from typing import NamedTuple

from ._markups import MARKUPS

__all__ = ["CODE_PLACEHOLDER", "MARKUPS", "ProseView", "TextMap"]

# Stands for an inline code span in the prose: one character that is neither a
# letter nor a space, so it reads as one opaque word and no word pattern runs
# into it or across it (U+FFFC OBJECT REPLACEMENT CHARACTER).
CODE_PLACEHOLDER = "\ufffc"


class TextMap(NamedTuple):
    """Segments of a built text: where each starts in it and which source span it stands for.

    ``copied[k]`` is true for a slice copied from the source (offsets move one
    for one); otherwise the whole segment stands for ``source_starts[k] ..
    source_ends[k]``.
    """

    starts: tuple[int, ...] = ()
    source_starts: tuple[int, ...] = ()
    source_ends: tuple[int, ...] = ()
    copied: tuple[bool, ...] = ()

    def source_start(self, offset: int) -> int:
        """Source offset where the character at ``offset`` begins (``offset`` may be the text's length)."""
        k = bisect_right(self.starts, offset) - 1
        if k < 0:
            return 0
        if self.copied[k]:
            return min(self.source_starts[k] + offset - self.starts[k], self.source_ends[k])
        if offset >= self._end(k):
            return self.source_ends[k]
        return self.source_starts[k]

    def source_end(self, offset: int) -> int:
        """Source offset where the character just before ``offset`` ends."""
        if offset <= 0:
            return self.source_start(0)
        k = bisect_right(self.starts, offset - 1) - 1
        if k < 0:
            return 0
        if self.copied[k]:
            return self.source_starts[k] + offset - self.starts[k]
        return self.source_ends[k]

    def _end(self, k: int) -> int:
        return self.starts[k + 1] if k + 1 < len(self.starts) else 1 << 62

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        """The source span of the built text's span ``[start, end)``."""
        if end <= start:
            at = self.source_start(start)
            return at, at
        return self.source_start(start), self.source_end(end)

    def keeps_order(self) -> bool:
        """Whether ``source_start`` never decreases along the built text.

        It holds when each segment's source span starts where the one before ends, or
        later (the readers build the text in source order): then the first hits of the
        text are the first hits of the source, and the others need no mapping to be
        counted.
        """
        starts, ends = self.source_starts, self.source_ends
        return all(map(le, starts, ends)) and all(map(le, ends[:-1], starts[1:]))

    def source_spans(self, starts: Iterable[int], ends: Iterable[int]) -> list[tuple[int, int]]:
        """``source_span(start, end)`` of each pair of ``starts`` and ``ends``, in one call.

        A scan maps thousands of hits: one loop with the tables at hand costs a third of
        a method call per hit.
        """
        segments, sources, source_ends, copied = self.starts, self.source_starts, self.source_ends, self.copied
        last = len(segments) - 1
        spans: list[tuple[int, int]] = []
        append = spans.append
        for start, end in zip(starts, ends, strict=True):
            # source_start(start): a copied segment moves one for one, any other stands whole.
            k = bisect_right(segments, start) - 1
            if k < 0:
                first = 0
            elif copied[k]:
                first = min(sources[k] + start - segments[k], source_ends[k])
                if start < end and (k == last or end <= segments[k + 1]):
                    # Mostly the hit ends in the copied segment it starts in (source_end below finds k).
                    append((first, sources[k] + end - segments[k]))
                    continue
            else:
                first = sources[k]
            if end <= start:
                append((first, first))
                continue
            # source_end(end): where the character before ``end`` ends (at or after segment k).
            k = bisect_right(segments, end - 1, max(k, 0)) - 1
            if k < 0:
                append((first, 0))
            elif copied[k]:
                append((first, sources[k] + end - segments[k]))
            else:
                append((first, source_ends[k]))
        return spans


class ProseView(NamedTuple):
    """A document as a reader sees it, with an exact map back to its source.

    - ``text``: the prose. A soft line break is a space; each block (paragraph,
      heading, list item, table cell, ...) ends with ``\\n``; an inline code
      span is one ``CODE_PLACEHOLDER``; markup is left out.
    - ``code_text``: the code of the document (blocks and inline spans), one
      ``\\n`` after each piece, scanned separately from the prose.
    - ``source_span`` / ``code_source_span`` map a span of either text to the
      source span it came from.
    - ``code_spans``: source spans of code: an inline span with its backticks, a
      block's content lines (its fence lines are markup);
      ``heading_spans``: spans of ``text`` that are headings; ``table_spans``:
      spans of ``text`` that are table cells (Markdown tables).
    - ``note``: why the document was read as plain text instead, or None.
    - ``quote_spans``: spans of ``text`` that are quotations set as block quotes, those
      with an attribution line (``> — Author``, ``> <cite>Author</cite>``). A block quote
      without one is prose like any other (a note, a callout).
    """

    source: str
    markup: str
    text: str
    prose_map: TextMap
    code_text: str
    code_map: TextMap
    code_spans: tuple[tuple[int, int], ...] = ()
    heading_spans: tuple[tuple[int, int], ...] = ()
    table_spans: tuple[tuple[int, int], ...] = ()
    note: str | None = None
    quote_spans: tuple[tuple[int, int], ...] = ()

    def __repr__(self) -> str:
        # The texts and spans a reader can see; the maps and the code would drown them.
        return f"ProseView(source={self.source!r}, markup={self.markup!r}, text={self.text!r}, note={self.note!r})"

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        """The source span of the prose span ``text[start:end]``."""
        _check(start, end, len(self.text))
        return self.prose_map.source_span(start, end)

    def code_source_span(self, start: int, end: int) -> tuple[int, int]:
        """The source span of the code span ``code_text[start:end]``."""
        _check(start, end, len(self.code_text))
        return self.code_map.source_span(start, end)

    @property
    def markup_spans(self) -> tuple[tuple[int, int], ...]:
        """Source spans that are neither prose nor code, white space left out."""
        covered: list[tuple[int, int]] = list(self.code_spans)
        pm = self.prose_map
        for k, copied in enumerate(pm.copied):
            if copied or (pm.source_ends[k] - pm.source_starts[k] == 1 and self.source[pm.source_starts[k]] != "\n"):
                covered.append((pm.source_starts[k], pm.source_ends[k]))
        covered.sort()
        spans: list[tuple[int, int]] = []
        position = 0
        for start, end in covered:
            if start > position:
                spans.extend(_trimmed(self.source, position, start))
            position = max(position, end)
        spans.extend(_trimmed(self.source, position, len(self.source)))
        return tuple(spans)

    def is_heading(self, start: int) -> bool:
        """Whether the prose offset ``start`` lies in a heading."""
        return _covers(self.heading_spans, start)

    def in_table(self, start: int) -> bool:
        """Whether the prose offset ``start`` lies in a table cell."""
        return _covers(self.table_spans, start)

    def in_quotation(self, start: int) -> bool:
        """Whether the prose offset ``start`` lies in an attributed block quote (``quote_spans``)."""
        return _covers(self.quote_spans, start)


def _covers(spans: tuple[tuple[int, int], ...], start: int) -> bool:
    k = bisect_right(spans, (start, 1 << 62)) - 1
    return k >= 0 and spans[k][0] <= start < spans[k][1]


def _trimmed(source: str, start: int, end: int) -> list[tuple[int, int]]:
    piece = source[start:end]
    stripped = piece.strip()
    if not stripped:
        return []
    first = start + len(piece) - len(piece.lstrip())
    return [(first, first + len(stripped))]


def _next_break(source: str, start: int, end: int) -> int:
    n = source.find("\n", start, end)
    r = source.find("\r", start, end if n < 0 else n)
    return r if r >= 0 else n


def _check(start: int, end: int, length: int) -> None:
    if not (0 <= start <= end <= length):
        raise ValueError(f"span {start}..{end} is outside 0..{length}")


class Builder:
    """Collects the segments of one built text (prose or code)."""

    __slots__ = ("_copied", "_ends", "_open", "_parts", "_size", "_source_starts", "_starts", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self._parts: list[str] = []
        # The segment table as machine integers while it grows (a long page has thousands of
        # segments); the map's tuples are made once, after the text is joined.
        self._starts = array("q")
        self._source_starts = array("q")
        self._ends = array("q")
        self._copied = bytearray()
        self._size = 0
        # Where the last segment ends in the source when it is a copied slice, else -1: a copy
        # starting there extends it.
        self._open = -1

    @property
    def size(self) -> int:
        return self._size

    def copy(self, start: int, end: int) -> None:
        """Append ``source[start:end]`` one for one."""
        if end <= start:
            return
        if self._open == start:
            # Extends the previous copied slice.
            self._ends[-1] = end
        else:
            self._starts.append(self._size)
            self._source_starts.append(start)
            self._ends.append(end)
            self._copied.append(True)
        self._open = end
        self._parts.append(self.source[start:end])
        self._size += end - start

    def copy_block(self, start: int, end: int, at: int | None = None) -> None:
        """``copy(start, end)`` then ``boundary(at)`` (``at`` defaults to ``end``), for a
        non-empty piece of one line.

        The common case of a whole paragraph or a code span in one step: the piece holds no
        line break, so the boundary is always a new ``\\n`` segment.
        """
        if at is None:
            at = end
        size = self._size
        if self._open == start:
            self._ends[-1] = end
        else:
            self._starts.append(size)
            self._source_starts.append(start)
            self._ends.append(end)
            self._copied.append(True)
        size += end - start
        self._starts.append(size)
        self._source_starts.append(at)
        self._ends.append(at)
        self._copied.append(False)
        self._open = -1
        self._parts += (self.source[start:end], "\n")
        self._size = size + 1

    def copy_lines(self, lines: list[tuple[int, int]]) -> None:
        """``copy(start, end)`` then ``put("\\n", end, end)`` for each line: a code block."""
        if not lines:
            return
        first_start, first_end = lines[0]
        self.copy(first_start, first_end)
        self.put("\n", first_end, first_end)
        # After a "\n" put, no copy extends the previous segment: each line is a new one.
        starts, source_starts, ends, copied = self._starts, self._source_starts, self._ends, self._copied
        parts, source, size = self._parts, self.source, self._size
        for start, end in lines[1:]:
            if end > start:
                starts.append(size)
                source_starts.append(start)
                ends.append(end)
                copied.append(True)
                parts.append(source[start:end])
                size += end - start
            starts.append(size)
            source_starts.append(end)
            ends.append(end)
            copied.append(False)
            parts.append("\n")
            size += 1
        self._size = size
        self._open = -1

    def put(self, text: str, start: int, end: int) -> None:
        """Append ``text``, standing for ``source[start:end]``."""
        if not text:
            return
        self._starts.append(self._size)
        self._source_starts.append(start)
        self._ends.append(end)
        self._copied.append(False)
        self._open = -1
        self._parts.append(text)
        self._size += len(text)

    def copy_text(self, start: int, end: int) -> None:
        """Append ``source[start:end]``, each line break in it read as a space."""
        source = self.source
        while start < end:
            cut = _next_break(source, start, end)
            if cut < 0:
                self.copy(start, end)
                return
            self.copy(start, cut)
            after = cut + 2 if source.startswith("\r\n", cut) and cut + 1 < end else cut + 1
            if after - cut == 1 and source[cut] == "\n":
                # One for one: keeps a hard-wrapped paragraph a single copied slice.
                self._parts.append(" ")
                self._size += 1
                if self._open == cut:
                    self._ends[-1] = after
                else:
                    self._starts.append(self._size - 1)
                    self._source_starts.append(cut)
                    self._ends.append(after)
                    self._copied.append(True)
                self._open = after
            else:
                self.put(" ", cut, after)
            start = after

    def last_char(self) -> str:
        return self._parts[-1][-1] if self._parts else "\n"

    def boundary(self, at: int | None = None) -> None:
        """End the current block (once): a ``\\n`` at source offset ``at`` (default: where the text ends)."""
        if self._parts and self._parts[-1][-1] != "\n":
            if at is None:
                at = self._ends[-1]
            if self._parts[-1][-1] == " " and not self._copied[-1] and self._starts[-1] == self._size - 1:
                # A trailing soft break becomes the boundary.
                self._parts[-1] = "\n"
                return
            if self._parts[-1][-1] == " " and self._copied[-1] and self.source[self._ends[-1] - 1] == "\n":
                # So does a line break copied one for one.
                self._parts[-1] = self._parts[-1][:-1]
                self._ends[-1] -= 1
                self._size -= 1
                at = self._ends[-1]
                if self._starts[-1] == self._size:
                    for table in (self._starts, self._source_starts, self._ends, self._copied):
                        table.pop()
                if not self._parts[-1]:
                    self._parts.pop()
            self.put("\n", at, at)

    def build(self) -> tuple[str, TextMap]:
        text = "".join(self._parts)
        self._parts = [text]  # the pieces go before the map's tuples are made
        source_starts = tuple(self._source_starts)
        # A segment mostly ends where the next begins: equal offsets share one int object.
        shared = dict(zip(source_starts, source_starts, strict=True))
        ends = tuple(map(shared.get, self._ends, self._ends))
        return text, TextMap(tuple(self._starts), source_starts, ends, tuple(map(bool, self._copied)))
