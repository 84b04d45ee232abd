"""Positions and context flags of a text, for the scanner and the other layers.

A :class:`TextIndex` is made once per text and answers, for any code-point
span, its UTF-16 offset, its 1-based line and column, and the ``context``
flags ``find_writing_signals`` gives a hit on that span. Each table is built
on first use: a caller that asks only for positions never reads the prose.

Positions
    Offsets are Python code-point offsets, ``0 <= offset <= len(text)``.
    UTF-16 units: a character above U+FFFF counts 2, everything else 1 (a lone
    surrogate is one unit, as in a JavaScript string). Lines end at ``\\r\\n``,
    ``\\r`` or ``\\n`` (nothing else: not ``\\v``, ``\\f`` or U+2028). Line and
    column are 1-based, the column in code points. The offset of a line break
    belongs to the line it ends; the offset just after it (also ``len(text)``
    after a final break) is column 1 of the next line. Inside ``\\r\\n`` the
    ``\\n`` is the column after the ``\\r``.

Context flags (``TextIndex.context``)
    The text is read as Markdown into its prose view (``writing_rules.prose``),
    as ``find_writing_signals`` reads it, and the span is found in that view:
    in the prose, or in the document's code (``inCode``). ``inQuote`` and
    ``negated`` are then read by :class:`ProseContext` on that text, the one
    code path the scanner's hits take, so a span the tool reports carries the
    same flags here. Where a span starts decides where it lies: at a prose
    character (an inline code span's placeholder stands at its opening
    backtick, so a long sentence opening with code is prose), else in code
    when the document's code holds it (a code block's lines, an inline span
    with its closing backticks), else at the next prose character (markup
    such as a fence line or a URL, the space between blocks).

Quotation marks (``inQuote``)
    Paired within one block of the prose view: ``"`` closes an open ``"``, else
    opens; ``„`` opens; ``“`` closes an open ``„`` (German), else opens
    (English); ``”`` closes an open ``“`` or ``„``; ``»`` and ``«`` close each
    other, else open; ``‚`` opens and ``‘`` closes it. A ``‘`` or ``”`` with
    nothing to close, straight single quotes and ``’`` are ignored
    (apostrophes). Closing a mark closes the marks opened after it; a mark
    still open at the end of its block ends there. A region holds both marks.
    A span is quoted when its start lies in a region.

Negation words (``negated``)
    A negation word stands before the span, or in German also after it, with
    no clause end between: ``.``, ``!``, ``?``, ``;``, ``:`` or the end of a
    block of the prose view (a soft line break is a space, no clause end).
    Words (whole words, any case): en ``not``, ``no``, ``never``, ``none``,
    ``nothing``, ``without`` and ``n't`` attached to a word (straight or
    typographic apostrophe); de ``nicht``, ``kein``, ``keine``, ``keinen``,
    ``keinem``, ``keiner``, ``keines``, ``keinerlei``, ``keineswegs``,
    ``keinesfalls``, ``nie``, ``niemals``, ``ohne``. A word
    overlapping the span is part of it and never negates it.
"""

from __future__ import annotations

import re
from _thread import LockType, allocate_lock
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from itertools import repeat
from typing import NamedTuple

from .. import prose
from .._text_units import line_column, line_starts, utf16_length
from ._signal import CONTEXTS, IN_CODE, NEGATED, QUOTED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..prose import TextMap

__all__ = ["CONTEXTS", "IN_CODE", "NEGATED", "QUOTED", "ProseContext", "TextIndex", "positions_in_order"]

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_CLAUSE_END = re.compile(r"[.!?;:\r\n]")
# The negation words, as the module's doc lists them. Plainly written:
#   en  \b(?:not|no|never|none|nothing|without)\b|(?<=\w)n['\u2019]t\b
#   de  \b(?:nicht|kein(?:e(?:[nm]|r(?:lei)?|s(?:wegs|falls)?)?)?|nie|niemals|ohne)\b
# Each opens with a class of first letters instead, so that re skips to them in C rather than
# trying a word boundary at every position (four times faster on a page); ``(?<!\w.)`` after
# the first letter is the word boundary before it. The class lists every letter that
# IGNORECASE matches (the Kelvin sign U+212A is a k) and is itself case-sensitive, which re
# tests about twice as fast per character. tests/tools/test_text_index.py checks
# that both forms find the same words.
_NEGATION = {
    "en": re.compile(
        r"[nNwW](?i:(?:(?<=n)(?<!\w.)(?:o(?:t|ne|thing)?|ever)|(?<=w)(?<!\w.)ithout|(?<=n)(?<=\w.)['\u2019]t)\b)"
    ),
    "de": re.compile(
        r"[nNkK\u212aoO](?i:(?<!\w.)(?:(?<=n)(?:icht|ie(?:mals)?)"
        r"|(?<=k)ein(?:e(?:[nm]|r(?:lei)?|s(?:wegs|falls)?)?)?|(?<=o)hne)\b)"
    ),
}

_QUOTE_MARKS = '"\u201c\u201d\u201e\u00bb\u00ab\u201a\u2018'
_QUOTE_MARK = re.compile(f"[{_QUOTE_MARKS}]")

# For each quotation mark: the open marks it may close, and whether it opens when it closes nothing.
_MARK_RULES: dict[str, tuple[str, bool]] = {
    '"': ('"', True),
    "\u201c": ("\u201e", True),  # “ closes „ (German), else opens (English)
    "\u201d": ("\u201c\u201e", False),  # ”
    "\u201e": ("", True),  # „
    "\u00bb": ("\u00ab", True),  # »
    "\u00ab": ("\u00bb", True),  # «
    "\u201a": ("", True),  # ‚
    "\u2018": ("\u201a", False),  # ‘
}


class _Intervals(NamedTuple):
    """Sorted, disjoint half-open intervals."""

    starts: tuple[int, ...]
    ends: tuple[int, ...]

    @classmethod
    def union(cls, spans: list[tuple[int, int]]) -> _Intervals:
        starts: list[int] = []
        ends: list[int] = []
        for start, end in sorted(spans):
            if start >= end:
                continue
            if ends and start <= ends[-1]:
                ends[-1] = max(ends[-1], end)
            else:
                starts.append(start)
                ends.append(end)
        return cls(tuple(starts), tuple(ends))

    def covers(self, offset: int) -> bool:
        i = bisect_right(self.starts, offset) - 1
        return i >= 0 and offset < self.ends[i]


class TextIndex:
    """Offsets, lines and context flags of one text; immutable once built."""

    __slots__ = ("_astral", "_language", "_line_starts", "_lock", "_text", "_view")
    _text: str
    _language: str
    _line_starts: tuple[int, ...] | None
    _astral: tuple[int, ...] | None
    _view: _ViewFlags | None
    _lock: LockType

    def __init__(self, text: str, language: str) -> None:
        if not isinstance(text, str):
            raise TypeError("text must be a str")
        if language not in _NEGATION:
            raise ValueError(f"language must be 'en' or 'de', not {language!r}")
        setattr_ = object.__setattr__
        setattr_(self, "_text", text)
        setattr_(self, "_language", language)
        # The tables are built on first use: a caller may ask only for some of them.
        setattr_(self, "_line_starts", None)
        setattr_(self, "_astral", None)
        setattr_(self, "_view", None)
        # context() reads and moves a ProseContext's per-block caches: one caller at a time.
        setattr_(self, "_lock", allocate_lock())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("TextIndex is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("TextIndex is immutable")

    def __repr__(self) -> str:
        return f"TextIndex(<{len(self._text)} chars>, {self._language!r})"

    def line_column(self, offset: int) -> tuple[int, int]:
        """1-based line and column (in code points) of a code-point offset."""
        self._check(offset)
        return line_column(self._lines(), offset)

    def utf16_offset(self, offset: int) -> int:
        """The UTF-16 code-unit offset of a code-point offset."""
        self._check(offset)
        astral = self._astral
        if astral is None:
            # An ASCII text (flagged by the str itself) has no character outside the BMP.
            astral = () if self._text.isascii() else tuple(m.start() for m in _ASTRAL.finditer(self._text))
            # Idempotent: two threads racing here store equal tables.
            object.__setattr__(self, "_astral", astral)
        return offset + bisect_left(astral, offset)

    def span_fields(self, start: int, end: int) -> dict[str, int]:
        """The position fields a signal or finding carries, in wire order.

        ``{"start", "end", "utf16Start", "utf16End", "line", "column"}``.
        """
        line, column = self.line_column(start)
        return {
            "start": start,
            "end": end,
            "utf16Start": self.utf16_offset(start),
            "utf16End": self.utf16_offset(end),
            "line": line,
            "column": column,
        }

    def _lines(self) -> tuple[int, ...]:
        starts = self._line_starts
        if starts is None:
            starts = tuple(line_starts(self._text))
            object.__setattr__(self, "_line_starts", starts)  # idempotent, as above
        return starts

    def context(self, start: int, end: int) -> dict[str, bool]:
        """``{"inCode", "inQuote", "negated"}`` of the span ``text[start:end]``: the flags
        ``find_writing_signals`` gives a signal on that span (a fresh dict each call).

        The first call reads the text's prose view (linear in the text's length).
        """
        self._check(start)
        self._check(end)
        if start > end:
            raise ValueError(f"start {start} is after end {end}")
        with self._lock:
            view = self._view
            if view is None:
                view = _ViewFlags(self._text, self._language)
                object.__setattr__(self, "_view", view)
            flags = view.flags(start, end)
        return CONTEXTS[flags].copy()

    def _check(self, offset: int) -> None:
        if not isinstance(offset, int) or isinstance(offset, bool):
            raise TypeError(f"offset must be an int, not {type(offset).__name__}")
        if not 0 <= offset <= len(self._text):
            raise ValueError(f"offset {offset} is outside 0..{len(self._text)}")


def positions_in_order(text: str, spans: Sequence[tuple[int, int]]) -> Iterator[tuple[int, int, int, int]]:
    """(utf16Start, utf16End, line, column) of each span, as ``TextIndex.span_fields`` gives them.

    For spans sorted by start (a scan's signals), each is counted on from the one
    before with C-level ``str.count`` and ``str.rfind`` (CRLF, CR and LF breaks, as
    above): a scan reports a few hundred signals, often near the start of a long
    page, and whole-text tables cost more than that. Spans out of order are counted
    from the start of the text.
    """
    crs = "\r" in text
    # Mostly no character before the last span's end counts two UTF-16 units.
    same_units = text.isascii() or _within_bmp(text, max((end for _, end in spans), default=0))
    previous, line, line_start, units = 0, 1, 0, 0
    size = len(text)
    for start, end in spans:
        if not 0 <= start <= end <= size:
            raise ValueError(f"span {start}..{end} is outside 0..{len(text)}")
        if start < previous:
            previous, line, line_start, units = 0, 1, 0, 0
        breaks = text.count("\n", previous, start)
        if crs:
            # A CR is a break of its own unless an LF follows (then the LF counts): a CRLF
            # whose LF is at ``start`` has not ended the line yet.
            breaks += text.count("\r", previous, start) - text.count("\r\n", previous, start + 1)
        if breaks:
            line += breaks
            line_start = text.rfind("\n", previous, start) + 1
            if crs:
                line_start = _after_last_cr(text, max(line_start, previous), start, line_start)
        if same_units:
            yield start, end, line, start - line_start + 1
        else:
            units += utf16_length(text[previous:start])
            yield units, units + utf16_length(text[start:end]), line, start - line_start + 1
        previous = start


def _after_last_cr(text: str, low: int, offset: int, line_start: int) -> int:
    """Where the line holding ``offset`` starts, given where it would start after LFs alone."""
    cr = text.rfind("\r", low, offset)
    if cr >= 0 and text.startswith("\n", cr + 1):
        # The CR of a CRLF whose LF is at ``offset`` (an LF before it was found already);
        # a CR before this one is followed by no LF, so it ends a line.
        cr = text.rfind("\r", low, cr)
    return max(line_start, cr + 1)


_CHUNK = 16_384


def _within_bmp(text: str, end: int) -> bool:
    """Whether no character of ``text[:end]`` lies outside the BMP (a chunk at a time: the copies stay small)."""
    for low in range(0, end, _CHUNK):
        piece = text[low : min(low + _CHUNK, end)]
        if utf16_length(piece) != len(piece):
            return False
    return True


def _pair_marks(marks: Iterable[tuple[str, int]], end: int) -> list[tuple[int, int]]:
    """Quotation regions from one block's marks, in order: a closing mark pairs with the nearest
    open mark it closes (and ends the ones opened inside it); marks left open run to ``end``."""
    regions: list[tuple[int, int]] = []
    stack: list[tuple[str, int]] = []
    open_count = dict.fromkeys(_MARK_RULES, 0)
    for mark, pos in marks:
        closes, opens = _MARK_RULES[mark]
        if any(open_count[c] for c in closes):
            while True:
                opener, opened_at = stack.pop()
                open_count[opener] -= 1
                regions.append((opened_at, pos + 1))
                if opener in closes:
                    break
        elif opens:
            stack.append((mark, pos))
            open_count[mark] += 1
    regions.extend((opened_at, end) for _, opened_at in stack)
    return regions


class ProseContext:
    """The ``context`` flags of spans of a prose view's text (``writing_rules.prose``).

    The text is already prose: each ``\\n`` ends a block, a soft line break is
    a space, code and markup are gone. So quotation marks pair within a block
    (line), a clause ends at ``.``, ``!``, ``?``, ``;``, ``:`` or a block end,
    and a block quote is prose, not a quotation. ``inCode`` is the caller's to
    set: the code of a document is scanned as a text of its own.

    Every flag depends only on the block (line) that holds the offset, so the
    tables are built per block, on first use: a scan asks for the flags of the
    few hundred signals it reports, not of every hit on a long page.
    """

    __slots__ = ("_language", "_last", "_negation", "_next_mark", "_quotes", "_text", "_words")

    def __init__(self, text: str, language: str) -> None:
        if language not in _NEGATION:
            raise ValueError(f"language must be 'en' or 'de', not {language!r}")
        self._text = text
        self._language = language
        self._negation = _NEGATION[language]
        self._last = (0, -1)  # the block looked up last: (start, offset of its ``\n``)
        # Its quotation regions and negation words (starts, ends), once read. Only the last
        # block's are kept: hits are asked for in order, and tables for every block a scan
        # visits would weigh more than the text's own.
        self._quotes: _Intervals | None = None
        self._words: tuple[list[int], list[int]] | None = None
        # (offset, where the first quotation mark at or after it is, or the text's length).
        self._next_mark = (0, -1)

    def in_quote(self, start: int) -> bool:
        block = self._block(start)
        quotes = self._quotes
        if quotes is None:
            quotes = self._quotes = self._block_quotations(block)
        return quotes is not _NO_INTERVALS and quotes.covers(start)

    def flags(self, start: int, end: int, negation: bool = True) -> int:
        """``in_quote`` and (when ``negation``) ``negated`` of a hit as the bits ``QUOTED`` and ``NEGATED``.

        One call per reported signal, its block looked up once.
        """
        last = self._last
        if not last[0] <= start <= last[1]:
            self._block(start)
        quotes = self._quotes
        if quotes is None:
            quotes = self._quotes = self._block_quotations(self._last)
        flags = QUOTED if quotes is not _NO_INTERVALS and quotes.covers(start) else 0
        if negation and self.negated(start, end):
            flags |= NEGATED
        return flags

    def flags_of(self, starts: Iterable[int], ends: Iterable[int], negations: Iterable[bool]) -> list[int]:
        """``flags(start, end, negation)`` of each hit, in one call: a scan reports hundreds, mostly
        in blocks with no quotation and no negation word, whose flags take no method call here."""
        found: list[int] = []
        append = found.append
        negated = self.negated
        last = self._last
        for start, end, negation in zip(starts, ends, negations, strict=True):
            if not last[0] <= start <= last[1]:
                last = self._block(start)
            quotes = self._quotes
            if quotes is None:
                quotes = self._quotes = self._block_quotations(last)
            flags = QUOTED if quotes is not _NO_INTERVALS and quotes.covers(start) else 0
            if negation:
                words = self._words
                if words is None:
                    words = self._words = self._block_words()
                # No negation word in the hit's block (or blocks): not negated.
                if (words is not _NO_WORDS or end > last[1]) and negated(start, end):
                    flags |= NEGATED
                last = self._last  # negated may have looked up the block of the hit's end
            append(flags)
        return found

    def negated(self, start: int, end: int) -> bool:
        # A negation word holds no clause end, so the one that negates a hit lies in the
        # block of its start (before the hit) or of its end (after it, German only), with no
        # clause end between it and the hit. The block's words are found once, in one pass
        # (a whole word of the block: its bounds are a block end or a non-word character), and
        # each hit looks at the nearest on each side with one bounded search for a clause end.
        text = self._text
        self._block(start)
        words = self._words
        if words is None:
            words = self._words = self._block_words()
        starts, ends = words
        if starts:
            # The last word ending at or before the hit's start; an earlier one is in the
            # same clause only if this one is.
            k = bisect_right(ends, start) - 1
            if k >= 0 and _CLAUSE_END.search(text, ends[k], start) is None:
                return True
        if self._language != "de":
            return False
        if end > self._last[1]:
            self._block(end)
            words = self._words = self._block_words()
            starts = words[0]
        # The first word starting at or after the hit's end.
        k = bisect_left(starts, end)
        return k < len(starts) and _CLAUSE_END.search(text, end, starts[k]) is None

    def _block_words(self) -> tuple[list[int], list[int]]:
        """Starts and ends of the negation words of the block looked up last (two empty lists if none)."""
        text = self._text
        block = self._last
        negation = self._negation
        # Most blocks hold none: one search rules them out before any list is made.
        first = negation.search(text, *block)
        if first is None:
            return _NO_WORDS
        starts = [first.start()]
        ends = [first.end()]
        for word in negation.finditer(text, first.end(), block[1]):
            starts.append(word.start())
            ends.append(word.end())
        return starts, ends

    def _block(self, offset: int) -> tuple[int, int]:
        """(start, end) of the block holding ``offset``; its end is the offset of its ``\\n`` or the text's length."""
        last = self._last
        # Hits are asked for in order: mostly the block of the hit before (which holds its ``\n``).
        if last[0] <= offset <= last[1]:
            return last
        text = self._text
        start = text.rfind("\n", 0, offset) + 1
        end = text.find("\n", start)
        self._last = block = (start, len(text) if end < 0 else end)
        self._quotes = self._words = None
        return block

    def _block_quotations(self, block: tuple[int, int]) -> _Intervals:
        """The quotation regions of ``block`` (its marks paired within the block)."""
        start, end = block
        searched_from, mark = self._next_mark
        if not searched_from <= start <= mark:
            # Quotation marks are rare: the next one is found with a C-level find per mark (a
            # regular expression reads each character ten times slower), and serves every
            # block up to it.
            text = self._text
            mark = min((at for at in map(text.find, _QUOTE_MARKS, repeat(start)) if at >= 0), default=len(text))
            self._next_mark = (start, mark)
        if mark >= end:
            return _NO_INTERVALS  # most blocks quote nothing
        return _quotations_in_block(self._text, start, end)


_NO_INTERVALS = _Intervals((), ())
_NO_WORDS: tuple[list[int], list[int]] = ([], [])


def _quotations_in_block(text: str, start: int, end: int) -> _Intervals:
    """The quotation regions of the block ``text[start:end]`` (its marks paired within the block)."""
    if _QUOTE_MARK.search(text, start, end) is None:
        return _NO_INTERVALS  # most blocks quote nothing
    return _Intervals.union(_pair_marks([(m.group(), m.start()) for m in _QUOTE_MARK.finditer(text, start, end)], end))


class _ViewFlags:
    """A text's prose view and the flag bits of its source spans, as the scanner gives them to hits."""

    __slots__ = ("_code", "_contexts", "_spans", "_view")

    def __init__(self, text: str, language: str) -> None:
        # Read as the tool reads a text: Markdown, front matter and all.
        self._view = view = prose.read_prose(text)
        self._code = _Intervals.union(list(view.code_spans))
        # The two texts of the view, as the scanner scans them: prose (False) and code (True).
        self._contexts = (ProseContext(view.text, language), ProseContext(view.code_text, language))
        # The readers build each text in source order, so a span is found by binary search.
        self._spans = tuple(_text_span if m.keeps_order() else _text_span_scan for m in (view.prose_map, view.code_map))

    def flags(self, start: int, end: int) -> int:
        view = self._view
        first, last, at = self._spans[False](view.prose_map, len(view.text), start, end)
        # A prose character starting at ``start`` (a copied one, or the placeholder of a code
        # span at its backtick) is where a prose hit on this span starts. Otherwise a code
        # region holding ``start`` makes it code; else (markup, the space between blocks) the
        # span is read at the next prose character, as the prose shows it.
        if at != start and self._code.covers(start):
            first, last, _ = self._spans[True](view.code_map, len(view.code_text), start, end)
            return self._contexts[True].flags(first, last) | IN_CODE
        return self._contexts[False].flags(first, last)


def _text_span(text_map: TextMap, size: int, start: int, end: int) -> tuple[int, int, int]:
    """Where the source span ``start..end`` lies in a built text of ``size`` characters mapped by ``text_map``.

    (first, last, at): ``first`` is the first character whose source ends after ``start``
    (the one holding it, or the next; ``size`` if none), ``at`` where that character's
    source starts (-1 if none), ``last`` the end of the characters whose source starts
    before ``end`` (at least ``first``). For a span mapped out of ``first..last`` by
    ``text_map.source_span``, this gives ``first..last`` back.
    """
    starts, sources, source_ends = text_map.starts, text_map.source_starts, text_map.source_ends
    # The segments' source spans rise (``text_map.keeps_order()``).
    k = bisect_right(source_ends, start)
    if k == len(starts):
        first, at = size, -1
    elif text_map.copied[k] and start > sources[k]:
        first, at = starts[k] + start - sources[k], start
    else:
        first, at = starts[k], sources[k]
    k = bisect_left(sources, end) - 1
    last = 0 if k < 0 else _segment_end(text_map, size, k, end)
    return first, max(first, last), at


def _text_span_scan(text_map: TextMap, size: int, start: int, end: int) -> tuple[int, int, int]:
    """``_text_span`` of a map whose segments are not in source order, one segment at a time."""
    first, at, last = size, -1, 0
    for k, (segment, source, source_end) in enumerate(
        zip(text_map.starts, text_map.source_starts, text_map.source_ends, strict=True)
    ):
        if at < 0 and source_end > start:
            if text_map.copied[k] and start > source:
                first, at = segment + start - source, start
            else:
                first, at = segment, source
        if source < end:
            last = max(last, _segment_end(text_map, size, k, end))
    return first, max(first, last), at


def _segment_end(text_map: TextMap, size: int, k: int, end: int) -> int:
    """The end of segment ``k``'s characters whose source starts before ``end`` (some do)."""
    starts = text_map.starts
    length = (starts[k + 1] if k + 1 < len(starts) else size) - starts[k]
    if text_map.copied[k]:
        # One character per source character; a stand-in's characters all start where it does.
        length = min(length, end - text_map.source_starts[k])
    return starts[k] + length
