"""Markdown inline content: one leaf block (paragraph, heading, table cell) into prose.

The leaf arrives as source line spans. Its lines are joined with ``\\n`` into
one string, ``L``, on which all searches run; emitting a piece of ``L`` maps it
back to the source through the line table, and each ``\\n`` of ``L`` becomes a
space standing for the line break plus the next line's container prefix.

Every search here either runs once per leaf (pairing backticks and brackets)
or is a bounded match at one position, so the whole pass is linear.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Mapping
from heapq import heapreplace
from html import unescape

from ._html import CODE_ELEMENTS, ENTITY, HtmlMarks, closer, markup_at
from ._lazy_regex import lazy_compile
from ._view import CODE_PLACEHOLDER, Builder

__all__ = ["Inline", "LeafText", "normalize_label"]

# Where markup may start: a markup character, a bare URL (``https://``, ``http://`` or ``www.``
# after no word character, slash, dot, at sign or hyphen) and, in Markdown, ``{`` before ``#``,
# ``.`` or ``/``. Only the match's start is used. Each pattern opens with one character class
# so that re skips to those characters in C; the URL's look-behind at every position made
# this search a third of reading a plain page. tests/prose/test_inline_search.py checks it
# against the plain form.
_SPECIAL = r"\\`*_~\[\]<!&$"
_URL_START = r"(?<=h)(?<![\w/.@-]h)ttps?://|(?<=w)(?<![\w/.@-]w)ww\."
_SPECIAL_MD = lazy_compile(rf"[{_SPECIAL}hw{{](?:(?<=[{_SPECIAL}])|{_URL_START}|(?<=\{{)[#./])")
_SPECIAL_MDX = lazy_compile(rf"[{_SPECIAL}{{hw](?:(?<=[{_SPECIAL}{{])|{_URL_START})")
# The same searches for a text with neither "://" nor "www." in it, where no bare URL can start:
# no stop at every "h" and "w".
_SPECIAL_MD_NO_URL = lazy_compile(rf"[{_SPECIAL}{{](?:(?<=[{_SPECIAL}])|(?<=\{{)[#./])")
_SPECIAL_MDX_NO_URL = lazy_compile(rf"[{_SPECIAL}{{]")
# A line holding none of these characters and neither "://" nor "www." holds no inline markup
# but code spans: the characters the searches above stop at, less the backtick, "!" (an image
# only before "[") and "]" (a link only after "[").
_MARKUP_BUT_CODE = lazy_compile(r"[\\*_~\[<&${]")
# Those that Inline._reads_as_text never reads as text, with the backtick.
_MARKUP_BUT_TEXT = lazy_compile(r"[\\*~<&${`]")
# What a line of a leaf holds (Inline.shape).
PLAIN, CODE, OTHER = 0, 1, 2
# What Inline.shape looks ahead for, one at a time: str.find walks to a single character
# (memchr) tens of times faster than a search for a character class or a longer string. The
# characters _MARKUP_BUT_CODE finds, and "://" (looked for by its colon); "www." is searched
# in each line (its first character, "w", is everywhere).
_MARKUP_NEEDLES = ("\\", "*", "_", "~", "[", "<", "&", "$", "{", "://")
# How far one look for a needle goes: a look that finds nothing serves up to there.
_WINDOW = 8192
# How many plain lines in a row turn Inline.shape's look-ahead on: a page of prose. On the
# field corpus's pages (a link or code in most paragraphs) turning it on after fewer cost more
# than it saved.
_PLAIN_RUN = 16
# The searched patterns open with one literal or one character class, not a repeat or an
# alternation: re then skips to their first character in C, several times faster ("``*" finds
# what "`+" finds; "([*_~])\1*" what "\*+|_+|~+" finds).
_BACKTICKS = lazy_compile(r"``*")
_RUN = {"*": lazy_compile(r"\*+"), "_": lazy_compile(r"_+"), "~": lazy_compile(r"~+")}
_DELIMITER_RUN = lazy_compile(r"([*_~])\1*")
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
# An escaped character, a backtick run or a bracket (what r"\\.|`+|[\[\]]" finds).
_BRACKETS = lazy_compile(r"[\\`\[\]](?:(?<=\\).|(?<=`)`*|(?<=[\[\]]))", re.DOTALL)
# Bounded pieces keep a failed attempt short (hostile input stays linear).
_DESTINATION = lazy_compile(
    r"\(\s{0,64}(?:<[^<>\n]{0,4096}>|[^\s()<>]{0,4096}(?:\([^\s()]{0,4096}\)[^\s()]{0,4096}){0,16})"
    r"(?:\s{1,64}(?:\"(?:[^\"\\]|\\.){0,4096}\"|'(?:[^'\\]|\\.){0,4096}'|\((?:[^()\\]|\\.){0,4096}\)))?"
    r"\s{0,64}\)"
)
_AUTOLINK = lazy_compile(
    r"<(?:[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]{0,4096}|[\w.+-]{1,256}@[\w-]{1,256}(?:\.[\w-]{1,256}){0,16})>"
)
_COMMENT_CLOSE = lazy_compile(r"\*/\}")
_LINE_BREAK = lazy_compile("\n")
_URL = lazy_compile(r"(?:https?://|www\.)[^\s<>]{0,4096}")
_URL_TRAILING = lazy_compile(r"[?!.,:;*_~'\"]+$")
_ATTRIBUTES = lazy_compile(r"\{[#.][^{}\n]{0,1024}\}|\{/\*[^\n]{0,1024}?\*/\}")
_SPACE = lazy_compile(r"\s+")
_BRACES = lazy_compile(r"[{}]")


def _pair_code(text: str, runs: list[tuple[int, int]], first: int) -> list[tuple[int, int, int, int]]:
    """The code spans among backtick ``runs`` of ``text[first:]``, in order: (opening run's
    start, its end, closing run's start, its end).

    An opening run pairs with the next run of the same length; a backslash before it makes
    its first backtick literal, so the run stays text.
    """
    if len(runs) < 2:
        return []
    if len(runs) == 2:  # the common case, one code span: what the loop below does with two runs
        (open_at, open_end), (close_at, close_end) = runs
        if open_end - open_at == close_end - close_at and not (open_at > first and text[open_at - 1] == "\\"):
            return [(open_at, open_end, close_at, close_end)]
        return []
    pairs = []
    next_same = [-1] * len(runs)
    last: dict[int, int] = {}
    for k in range(len(runs) - 1, -1, -1):
        size = runs[k][1] - runs[k][0]
        next_same[k] = last.get(size, -1)
        last[size] = k
    k = 0
    while k < len(runs):
        j = next_same[k]
        if j < 0 or (runs[k][0] > first and text[runs[k][0] - 1] == "\\"):
            k += 1
            continue
        pairs.append((*runs[k], *runs[j]))
        k = j + 1
    return pairs


def _code_content(text: str, start: int, end: int) -> tuple[int, int]:
    """The content of a code span ``text[start:end]``: one space or line break is stripped from
    each end when both ends have one and the content is not all spaces (CommonMark)."""
    if end - start >= 2 and text[start] in " \n" and text[end - 1] in " \n" and text[start:end].strip(" \n"):
        return start + 1, end - 1
    return start, end


def normalize_label(label: str) -> str:
    """A link label as CommonMark matches it: case-folded, inner white space collapsed."""
    return _SPACE.sub(" ", label.strip()).casefold()


def _has_markup(source: str, start: int, end: int) -> bool:
    """Whether ``source[start:end]`` holds one of _MARKUP_NEEDLES."""
    return (
        _MARKUP_BUT_CODE.search(source, start, end) is not None
        or source.find("://", start, end) >= 0
        or source.find("www.", start, end) >= 0
    )


def _shape_of(source: str, start: int, end: int) -> int:
    """``Inline.shape`` of ``source[start:end]``, searched in the line alone."""
    if _has_markup(source, start, end):
        return OTHER
    return CODE if source.find("`", start, end) >= 0 else PLAIN


def _is_space(char: str) -> bool:
    return not char or char.isspace()


def _is_punct(char: str) -> bool:
    if not char:
        return False
    if char in _ASCII_PUNCTUATION:
        return True
    return unicodedata.category(char)[0] in "PS"


class Inline:
    """Reads leaves of one document; holds what all leaves share (link labels, search caches)."""

    __slots__ = (
        "_budget",
        "_latest",
        "_next",
        "_plain_run",
        "closed",
        "code",
        "code_spans",
        "labels",
        "mdx",
        "prose",
        "source",
    )

    def __init__(
        self,
        prose: Builder,
        code: Builder,
        code_spans: list[tuple[int, int]],
        labels: Mapping[str, bool],
        mdx: bool,
        closed: frozenset[str] = frozenset(),
    ) -> None:
        self.closed = closed
        self.prose = prose
        self.code = code
        self.code_spans = code_spans
        self.labels = labels
        self.mdx = mdx
        self.source = prose.source
        # The next place each of _MARKUP_NEEDLES may start, as a heap of (position, needle,
        # whether the needle is there): once the heap is on, no needle starts from ``_latest``
        # (the last line asked about) up to the smallest position.
        self._next = [(-1, needle, False) for needle in _MARKUP_NEEDLES]
        # The heap serves from here on; until then (and on a page where it does not pay) each
        # line is searched alone, and a run of plain lines turns the heap on.
        self._latest = 1 << 62
        self._plain_run = 0
        # What shape may still spend on looks before it gives up on the heap for this page:
        # each line asked about earns one, each look costs two (a look costs about what the
        # search of a line it saves does, and many lines need none). On a page dense in markup
        # characters (code blocks between paragraphs, a link in most lines) the looks cost
        # more than the per-line searches they save, and the rest of the page is searched
        # line by line. The first look for each needle is paid for in advance.
        self._budget = 2 * len(_MARKUP_NEEDLES) + 8

    def shape(self, start: int, end: int) -> int:
        """What inline content ``source[start:end]`` (one line of a leaf) holds: ``PLAIN`` (no
        markup at all), ``CODE`` (code spans and nothing else) or ``OTHER``.

        A page asks this of its lines in order, and most lines of prose hold no markup: each
        needle is looked for from a line on to its next occurrence, which then serves every
        line before it. A page is walked about once per needle, by str.find (memchr for one
        character, tens of times faster than a search for a character class), not once per
        line and needle.
        """
        source = self.source
        if start < self._latest:  # the line searched alone (the heap is off, or asked out of order)
            if (
                _MARKUP_BUT_CODE.search(source, start, end) is not None
                or source.find("://", start, end) >= 0
                or source.find("www.", start, end) >= 0
            ):
                if self._plain_run > 0:
                    self._plain_run = 0
                return OTHER
            if source.find("`", start, end) >= 0:
                if self._plain_run > 0:
                    self._plain_run = 0
                return CODE
            self._plain_run += 1
            if self._plain_run == _PLAIN_RUN:  # a page of prose: the heap serves from here on, once
                self._plain_run = -(1 << 62)
                self._latest = end
            return PLAIN
        self._latest = start
        heap = self._next
        top = heap[0]
        budget = self._budget + 1 if self._budget < 256 else 256
        while top[0] < start:
            budget -= 2
            if budget < 0:  # no longer worth it: every later line is searched alone
                self._latest = 1 << 62
                self._plain_run = -(1 << 62)
                return _shape_of(source, start, end)
            needle = top[1]
            limit = start + _WINDOW
            if needle == "://":
                at = source.find(":", start, limit)
                # A colon not starting "://" bounds the look too (not there): a few
                # are passed, not a page of them.
                for _ in range(8):
                    if at < 0 or source.startswith("://", at):
                        break
                    at = source.find(":", at + 1, limit)
                there = at >= 0 and source.startswith("://", at)
            else:
                at = source.find(needle, start, limit)
                there = at >= 0
            if at < 0:  # none wholly before the window's end; one may start just before it
                heapreplace(heap, (max(limit - len(needle) + 1, start), needle, False))
            else:
                heapreplace(heap, (at, needle, there))
            top = heap[0]
        self._budget = budget
        at, needle, there = top
        if at < end:
            if (there and at + len(needle) <= end) or _has_markup(source, start, end):
                return OTHER
        elif source.find("www.", start, end) >= 0:
            return OTHER
        return CODE if source.find("`", start, end) >= 0 else PLAIN

    def leaf(self, lines: list[tuple[int, int]]) -> None:
        """Emit the prose of one leaf block made of the source ``lines`` (content spans)."""
        if len(lines) == 1:
            start, end = lines[0]
            self.line(start, end, self.shape(start, end))
            return
        # Most paragraphs hold no markup at all: their lines are copied as they are, without
        # joining them first.
        shape = self.shape
        for s, e in lines:
            if shape(s, e) != PLAIN:
                if not self._reads_as_text(lines):
                    LeafText(self, self.text_of(lines), lines).run()
                    return
                break
        LeafText(self, "", lines).copy(0, sum(e - s + 1 for s, e in lines) - 1)

    def line(self, start: int, end: int, shape: int) -> None:
        """Emit a leaf of one line, ``source[start:end]``, whose ``shape`` is known."""
        if shape == PLAIN:
            self.prose.copy(start, end)
        elif shape == CODE:
            self._code_line(start, end)
        # A line whose markup characters all lie in its code spans ("`guest_id`", "`a<b`") reads as
        # one with code spans only: LeafText.run skips a code span whole. (A third of a page's
        # lines with markup, at a third of the cost of the full pass.)
        elif self.source.find("`", start, end) >= 0:
            if not self._code_line(start, end, checked=False):
                LeafText(self, self.source[start:end], [(start, end)]).run()
        elif self._reads_as_text([(start, end)]):
            self.prose.copy(start, end)  # what LeafText.run makes of it, a piece at a time
        else:
            LeafText(self, self.source[start:end], [(start, end)]).run()

    def _reads_as_text(self, lines: list[tuple[int, int]]) -> bool:
        """Whether LeafText.run would copy the leaf made of ``lines`` as it stands: its only
        markup characters are brackets that open no link ("[Name hier einfügen]") and
        underscores inside words ("OTEL_SERVICE_NAME").

        On a page without link reference definitions a bracket pair is a link only before "("
        or as a footnote reference ("[^1]"), and a run of underscores between two letters or
        digits neither opens nor closes emphasis; the full pass copies those as text. (Lines
        are joined by a line break in the leaf: no link, footnote or word runs across one.)
        """
        source = self.source
        for start, end in lines:
            if (
                _MARKUP_BUT_TEXT.search(source, start, end) is not None
                or source.find("://", start, end) >= 0
                or source.find("www.", start, end) >= 0
            ):
                return False
            if source.find("[", start, end) >= 0 and (
                self.labels or source.find("](", start, end) >= 0 or source.find("[^", start, end) >= 0
            ):
                return False
            at = source.find("_", start, end)
            while at >= 0:
                if at == start or not source[at - 1].isalnum():
                    return False
                after = at + 1
                while after < end and source[after] == "_":
                    after += 1
                if after == end or not source[after].isalnum():
                    return False
                at = source.find("_", after, end)
        return True

    def _code_line(self, start: int, end: int, checked: bool = True) -> bool:
        """A line whose only markup is code spans: what ``LeafText.run`` does with it, straight
        from the source (no joined text, no search for other markup).

        ``checked``: the line is known to hold no markup character (``CODE``). Otherwise the
        line is read here only when each of its markup characters lies in one of its code
        spans, which ``LeafText.run`` skips whole; else nothing is written and False returned.
        """
        source = self.source
        copy = self.prose.copy
        runs = [m.span() for m in _BACKTICKS.finditer(source, start, end)]
        pairs = _pair_code(source, runs, start)
        if not checked:
            # No markup needle has a backtick in it, so none crosses a code span's edge.
            position = start
            for at, _, _, close_end in pairs:
                if _has_markup(source, position, at):
                    return False
                position = close_end
            if _has_markup(source, position, end):
                return False
        position = start
        # The spans in order; an unpaired run stays text, copied with the text around it.
        for at, open_end, close_at, close_end in pairs:
            copy(position, at)
            inner_start, inner_end = _code_content(source, open_end, close_at)
            self.code_span(at, inner_start, inner_end, close_end)
            position = close_end
        copy(position, end)
        return True

    def code_span(self, at: int, inner_start: int, inner_end: int, end: int) -> None:
        """Emit the code span ``source[at:end]`` whose code is ``source[inner_start:inner_end]``
        (source offsets, the code on one line)."""
        if inner_end > inner_start:
            self.code.copy_block(inner_start, inner_end, end)  # copy, then boundary(end)
        else:
            self.code.boundary(end)
        self.prose.put(CODE_PLACEHOLDER, at, end)
        self.code_spans.append((at, end))

    def text_of(self, lines: list[tuple[int, int]]) -> str:
        source = self.source
        if len(lines) == 1:
            return source[lines[0][0] : lines[0][1]]
        return "\n".join(source[s:e] for s, e in lines)


def _pair_braces(text: str) -> dict[int, int]:
    """Each ``{`` of ``text`` that a later ``}`` balances -> that ``}``'s offset (linear: one stack)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for m in _BRACES.finditer(text):
        if m.group() == "{":
            stack.append(m.start())
        elif stack:
            pairs[stack.pop()] = m.start()
    return pairs


class LeafText:
    """One leaf's lines joined with ``\\n``, with the map of its offsets back to the source."""

    __slots__ = ("base", "brace_pairs", "code_pairs", "jumps", "leaf_starts", "lines", "owner", "paired", "text")

    def __init__(self, owner: Inline, text: str, lines: list[tuple[int, int]]) -> None:
        self.owner = owner
        self.text = text
        self.lines = lines
        # Most leaves are one line: an offset of L is then the line's start plus the offset, and
        # the mapping takes no search (``base`` is -1 for a leaf of several lines).
        self.base = lines[0][0] if len(lines) == 1 else -1
        starts = [0]
        size = 0
        for s, e in lines[:-1]:
            size += e - s + 1
            starts.append(size)
        self.leaf_starts = starts
        self.code_pairs: dict[int, tuple[int, int]] = {}
        self.jumps: dict[int, int] = {}
        self.paired: dict[int, int] = {}  # start -> end of each delimiter run that is emphasis markup
        self.brace_pairs: dict[int, int] | None = None  # MDX: each "{" -> its balancing "}", made when first asked

    # -- mapping ----------------------------------------------------------------------------------

    def _source_start(self, offset: int) -> int:
        if self.base >= 0:
            return min(self.base + offset, self.lines[0][1])
        k = bisect_right(self.leaf_starts, offset) - 1
        s, e = self.lines[k]
        return min(s + offset - self.leaf_starts[k], e)

    def _source_end(self, offset: int) -> int:
        if self.base >= 0:
            return min(self.base + max(offset, 0), self.lines[0][1])
        if offset <= 0:
            return self.lines[0][0]
        k = bisect_right(self.leaf_starts, offset - 1) - 1
        s, e = self.lines[k]
        return min(s + offset - self.leaf_starts[k], e)

    def copy(self, a: int, b: int, builder: Builder | None = None) -> None:
        """Emit ``text[a:b]``; each ``\\n`` in it is a soft line break."""
        if b <= a:
            return
        out = builder or self.owner.prose
        if self.base >= 0:
            out.copy(self.base + a, self.base + b)
            return
        lines = self.lines
        starts = self.leaf_starts
        k = bisect_right(starts, a) - 1
        while a < b:
            s, e = lines[k]
            line_end = starts[k] + e - s
            if a < line_end:
                stop = min(b, line_end)
                out.copy(s + a - starts[k], s + stop - starts[k])
                a = stop
            if a < b:  # at the "\n" between line k and k + 1
                following = lines[k + 1][0]
                if builder is not None:
                    out.put("\n", e, following)
                elif following == e + 1 and self.owner.source[e] == "\n":
                    out.copy_text(e, following)
                else:
                    out.put(" ", e, following)
                a += 1
                k += 1

    def put(self, string: str, a: int, b: int, builder: Builder | None = None) -> None:
        (builder or self.owner.prose).put(string, self._source_start(a), self._source_end(b))

    # -- pairing ----------------------------------------------------------------------------------

    def _pair_backticks(self) -> None:
        runs = [m.span() for m in _BACKTICKS.finditer(self.text)]
        self.code_pairs = {at: (close_at, close_end) for at, _, close_at, close_end in _pair_code(self.text, runs, 0)}

    def _pair_brackets(self) -> dict[int, int]:
        pairs: dict[int, int] = {}
        stack: list[int] = []
        text = self.text
        code_pairs = self.code_pairs
        position = 0
        while True:
            m = _BRACKETS.search(text, position)
            if m is None:
                return pairs
            at = m.start()
            token = m.group()
            position = m.end()
            if token[0] == "`":
                pair = code_pairs.get(at)
                if pair is not None:
                    position = pair[1]
            elif token == "[":
                stack.append(at)
            elif token == "]" and stack:
                pairs[stack.pop()] = at

    # -- the pass ---------------------------------------------------------------------------------

    def run(self) -> None:
        text = self.text
        owner = self.owner
        if "`" in text:
            self._pair_backticks()
        if "*" in text or "_" in text or "~" in text:
            self._pair_delimiters()
        brackets = self._pair_brackets() if "[" in text else {}
        if "://" in text or "www." in text:
            special = _SPECIAL_MDX if owner.mdx else _SPECIAL_MD
        else:
            special = _SPECIAL_MDX_NO_URL if owner.mdx else _SPECIAL_MD_NO_URL
        marks: HtmlMarks | None = None
        length = len(text)
        position = 0
        # The text between markup, copied straight to the prose when the leaf is one line.
        base = self.base
        copy = owner.prose.copy if base >= 0 else None
        while position < length:
            m = special.search(text, position)
            if m is None:
                if copy is not None:
                    copy(base + position, base + length)
                else:
                    self.copy(position, length)
                return
            at = m.start()
            if copy is not None:
                copy(base + position, base + at)
            else:
                self.copy(position, at)
            char = text[at]
            position = at + 1
            if char == "\\":
                following = text[at + 1 : at + 2]
                if following in _ASCII_PUNCTUATION and following:
                    self.copy(at + 1, at + 2)
                    position = at + 2
                elif following == "\n":
                    self.copy(at + 1, at + 2)  # a hard line break reads as a space
                    position = at + 2
                else:
                    self.copy(at, at + 1)
            elif char == "`":
                run_end = _BACKTICKS.match(text, at).end()  # type: ignore[union-attr]
                pair = self.code_pairs.get(at)
                if pair is None:
                    self.copy(at, run_end)
                    position = run_end
                else:
                    self._code(at, run_end, pair[0], pair[1])
                    position = pair[1]
            elif char in "*_~":
                position = self._delimiters(at, char)
            elif char == "!":
                resume = self._link(at + 1, brackets) if text.startswith("[", at + 1) else -1
                if resume < 0:
                    self.copy(at, at + 1)
                else:
                    position = resume
            elif char == "[":
                resume = self._link(at, brackets)
                if resume < 0:
                    self.copy(at, at + 1)
                else:
                    position = resume
            elif char == "]":
                jump = self.jumps.get(at)
                if jump is None:
                    self.copy(at, at + 1)
                else:
                    position = jump
            elif char == "<":
                if marks is None:
                    marks = HtmlMarks(text)
                position = self._angle(at, marks)
            elif char == "&":
                entity = ENTITY.match(text, at)
                if entity is None:
                    self.copy(at, at + 1)
                else:
                    decoded = unescape(entity.group())
                    self.put(decoded if "\x00" not in decoded else "\ufffd", at, entity.end())
                    position = entity.end()
            elif char == "$":
                position = self._math(at)
            elif char == "{":
                if marks is None:
                    marks = HtmlMarks(text)
                position = self._braces(at, marks)
            else:  # a bare URL: markup
                position = self._url(at)

    def _code(self, at: int, content_start: int, content_end: int, end: int) -> None:
        owner = self.owner
        inner_start, inner_end = _code_content(self.text, content_start, content_end)
        base = self.base
        if base >= 0:  # one line: offsets map by adding its start
            owner.code_span(base + at, base + inner_start, base + inner_end, base + end)
            return
        self.copy(inner_start, inner_end, owner.code)
        owner.code.boundary(self._source_end(end))
        self.put(CODE_PLACEHOLDER, at, end)
        owner.code_spans.append((self._source_start(at), self._source_end(end)))

    def _pair_delimiters(self) -> None:
        """Which runs of ``*``, ``_`` and ``~~`` open or close emphasis: a closer pairs with the
        nearest open opener of its character (CommonMark's rule, without the rule of three).
        Unpaired runs stay text, so ``2 * 3`` and ``0*x`` keep their characters."""
        text = self.text
        code = sorted((start, end) for start, (_, end) in self.code_pairs.items())
        code_starts = [start for start, _ in code]
        openers: list[tuple[str, int, int]] = []
        # Where in ``openers`` each character's open openers are, lowest first: a closer finds the
        # nearest of its character without looking through the others' (quadratic on a line of them).
        places: dict[str, list[int]] = {"*": [], "_": [], "~": []}
        paired = self.paired
        for m in _DELIMITER_RUN.finditer(text):
            at, end = m.span()
            k = bisect_right(code_starts, at) - 1
            if k >= 0 and at < code[k][1]:
                continue  # inside a code span
            char = text[at]
            if char == "~" and end - at != 2:
                continue  # strikethrough is exactly two tildes
            before = text[at - 1] if at else ""
            after = text[end : end + 1]
            if char == "_" and before.isalnum() and after.isalnum():
                continue  # snake_case: an underscore inside a word neither opens nor closes
            left = not _is_space(after) and (not _is_punct(after) or _is_space(before) or _is_punct(before))
            right = not _is_space(before) and (not _is_punct(before) or _is_space(after) or _is_punct(after))
            if char == "_":
                can_open = left and (not right or _is_punct(before))
                can_close = right and (not left or _is_punct(after))
            else:
                can_open, can_close = left, right
            if can_close and places[char]:
                index = places[char][-1]
                _, open_at, open_end = openers[index]
                paired[open_at] = open_end
                paired[at] = end
                for removed in openers[index:]:  # each opener is removed once: linear in all
                    places[removed[0]].pop()
                del openers[index:]
                continue
            if can_open:
                places[char].append(len(openers))
                openers.append((char, at, end))

    def _delimiters(self, at: int, char: str) -> int:
        end = self.paired.get(at)
        if end is None:
            end = _RUN[char].match(self.text, at).end()  # type: ignore[union-attr]
            self.copy(at, end)
        return end

    def _link(self, at: int, brackets: dict[int, int]) -> int:
        """At ``[``: where to go on when it opens a link (its tail is then skipped), else -1."""
        close = brackets.get(at)
        if close is None:
            return -1
        text = self.text
        labels = self.owner.labels
        if text.startswith("^", at + 1):  # a footnote reference [^1]: markup
            return close + 1
        following = text[close + 1 : close + 2]
        tail_end = -1
        # A link label has at most 999 characters (CommonMark): longer bracket pairs are text or
        # inline links only, which keeps a page of nested brackets linear.
        labelled = close - at <= 1000
        if following == "(":
            m = _DESTINATION.match(text, close + 1)
            if m is not None:
                tail_end = m.end()
        elif following == "[":
            label_close = brackets.get(close + 1)
            if label_close is not None and label_close - close <= 1000 and labelled:
                label = text[close + 2 : label_close] or text[at + 1 : close]
                if normalize_label(label) in labels:
                    tail_end = label_close + 1
        if tail_end < 0 and labelled and labels and normalize_label(text[at + 1 : close]) in labels:
            tail_end = close + 1
        if tail_end < 0:
            return -1
        self.jumps[close] = tail_end
        return at + 1

    def _angle(self, at: int, marks: HtmlMarks) -> int:
        text = self.text
        owner = self.owner
        autolink = _AUTOLINK.match(text, at)
        if autolink is not None:
            return autolink.end()
        markup = markup_at(text, at, len(text), marks, owner.mdx, owner.closed)
        if markup is None:
            self.copy(at, at + 1)
            return at + 1
        kind, end, name = markup
        if kind == "open" and name in CODE_ELEMENTS:
            close_at, close_end = marks.find("</" + name, closer(name), end)
            if close_at < 0:
                close_at = close_end = len(text)
            if name in ("script", "style"):
                return close_end
            self.copy(end, close_at, owner.code)
            owner.code.boundary(self._source_end(close_at))
            owner.code_spans.append((self._source_start(end), self._source_end(close_at)))
            self.put(CODE_PLACEHOLDER, at, close_end)
            return close_end
        if name == "br":
            self.put(" ", at, end)
        return end

    def _math(self, at: int) -> int:
        text = self.text
        if not text.startswith("$$", at):
            self.copy(at, at + 1)
            return at + 1
        close = text.find("$$", at + 2)
        if close < 0:
            self.copy(at, at + 2)
            return at + 2
        self._code(at, at + 2, close, close + 2)
        return close + 2

    def _braces(self, at: int, marks: HtmlMarks) -> int:
        text = self.text
        if not self.owner.mdx:
            end = comment_end(text, at, marks)
            if end < 0:
                self.copy(at, at + 1)
                return at + 1
            return end
        # An MDX expression: markup up to its balancing brace (bounded, so a stray brace stays text).
        # The braces are paired once per leaf: looking ahead from each brace cost up to 4,096 steps
        # a brace, minutes on a long line of them.
        pairs = self.brace_pairs
        if pairs is None:
            pairs = self.brace_pairs = _pair_braces(text)
        close = pairs.get(at, -1)
        if 0 <= close < at + 4096:
            return close + 1
        self.copy(at, at + 1)
        return at + 1

    def _url(self, at: int) -> int:
        text = self.text
        m = _URL.match(text, at)
        end = m.end() if m else at + 1
        url = text[at:end]
        trailing = _URL_TRAILING.search(url)
        if trailing:
            end -= len(trailing.group())
            url = url[: len(url) - len(trailing.group())]
        # A closing parenthesis without its opener ends the URL ("(see https://x.org)").
        while url.endswith(")") and url.count(")") > url.count("("):
            url = url[:-1]
            end -= 1
        if end <= at + 4:
            self.copy(at, at + 1)
            return at + 1
        return end


def comment_end(text: str, at: int, marks: HtmlMarks) -> int:
    """Where ``{#id}``, ``{.class}`` or a comment ``{/* ... */}`` (one line) at ``at`` ends, or -1 for none.

    At most 1,024 characters inside. A comment ends at the first ``*/}`` after its opener, which
    ``marks`` finds once for a run of openers (and the line's end too): the lazy bounded pattern
    this replaces read up to 1,024 characters ahead of each ``{/*``.
    """
    if text.startswith("{/*", at):
        body = at + 3
        close, _ = marks.find("*/}", _COMMENT_CLOSE, body)
        if close < 0 or close - body > 1024:
            return -1
        line_end, _ = marks.find("\n", _LINE_BREAK, body)
        return -1 if 0 <= line_end < close else close + 3
    m = _ATTRIBUTES.match(text, at)
    return m.end() if m else -1
