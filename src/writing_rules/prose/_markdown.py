"""Markdown (CommonMark with the GitHub extensions, MDX, front matter) into a prose view.

Block structure is read line by line, as CommonMark does: the open containers
(block quotes, list items) are matched, new ones opened, and the rest of the
line goes to the open leaf block or starts a new one. Leaves are read for
their inline content only once the whole document is read, because a link
reference definition may follow its use.

Kept simple where it does not change what a reader sees: a tab counts four
columns; a list item's blank-line rules are not tracked (looseness changes no
words); a link reference definition must fit on one line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from ._front_matter import read_front_matter
from ._html import BLOCK_ELEMENTS, TAG, closed_names, is_markup_tag, read_html_into
from ._inline import PLAIN, Inline, normalize_label
from ._lazy_regex import lazy_compile
from ._view import Builder, ProseView

__all__ = ["read_markdown"]

# Not _text_units.LINE_BREAK: prose imports nothing from the rest of the package, because
# the rule compiler loads it by file path to check rule examples (generator/_prose_examples.py).
_LINE_BREAK = lazy_compile(r"\r\n|\r|\n")
_LIST_MARKER = lazy_compile(r"([-+*]|(\d{1,9})[.)])(?=[ \t]|$)")
_TASK = lazy_compile(r"\[[ xX]\](?=[ \t]|$)")
_THEMATIC = lazy_compile(r"(?:([-*_])[ \t]*)(?:\1[ \t]*){2,}$")
_ATX = lazy_compile(r"#{1,6}(?=[ \t]|$)")
_ATX_CLOSING = lazy_compile(r"(?:[ \t]+#+)?[ \t]*$")
_HEADING_ID = lazy_compile(r"[ \t]*(?:\{#[^{}\n]{0,1024}\}|\{/\*[^\n]{0,1024}?\*/\})[ \t]*$")
_FENCE = lazy_compile(r"(`{3,}|~{3,})(.*)")
_SETEXT = lazy_compile(r"(=+|-+)[ \t]*$")
_DELIMITER_ROW = lazy_compile(r"\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
# An escaped character, a backtick run or a pipe (what r"\\.|`+|\|" finds, with re's fast
# skip to a first character).
_CELL_SPLIT = lazy_compile(r"[\\`|](?:(?<=\\).|(?<=`)`*|(?<=\|))")
_DEFINITION = lazy_compile(
    r"\[((?:[^\[\]\\]|\\.){1,999})\]:[ \t]*(?:<[^<>\n]*>|[^\s<>]+)?"
    r"(?:[ \t]+(?:\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|\((?:[^()\\\n]|\\.)*\)))?[ \t]*$"
)
_CONTAINER = lazy_compile(r":{3,}[ \t]*([\w-]*)[ \t]*(.*)$")
_MATH = lazy_compile(r"\$\$")
_ESM = lazy_compile(r"(?:import|export)\b")
_HTML_OPEN = {
    1: lazy_compile(r"<(?:script|pre|style|textarea)(?:\s|>|$)", re.IGNORECASE),
    2: lazy_compile(r"<!--"),
    3: lazy_compile(r"<\?"),
    4: lazy_compile(r"<![A-Za-z]"),
    5: lazy_compile(r"<!\[CDATA\["),
    6: lazy_compile(r"</?([A-Za-z][A-Za-z0-9-]*)(?:\s|/?>|$)"),
}
_HTML_CLOSE = {
    1: lazy_compile(r"</(?:script|pre|style|textarea)>", re.IGNORECASE),
    2: lazy_compile(r"-->"),
    3: lazy_compile(r"\?>"),
    4: lazy_compile(r">"),
    5: lazy_compile(r"\]\]>"),
}
_TAB = 4
_ATTRIBUTION_DASHES = "\u2014\u2013\u2015"  # em dash, en dash, horizontal bar
_RAW = frozenset(("fence", "html", "math", "esm"))  # leaves whose lines are taken as they are


class _Leaf:
    """An open or closed leaf block: its kind and its source line spans."""

    __slots__ = ("extra", "kind", "lines")

    def __init__(self, kind: str, extra: Any = None, lines: list[tuple[int, int]] | None = None) -> None:
        self.kind = kind  # para, heading, cell, code, fence, indented, html, math, markup
        self.lines: list[tuple[int, int]] = [] if lines is None else lines
        self.extra = extra


_DONE = _Leaf("done")  # stands in the leaf list for a leaf already read
# Every block boundary is the same (it has no lines and is never changed): one object serves.
_BOUNDARY = _Leaf("boundary")


def _lines(source: str, start: int) -> Iterator[tuple[int, int, int]]:
    """(start, end without the break, start of the next line) of every line from ``start``.

    One at a time: a list of them all would be the largest thing a long page's reading holds.
    """
    position = start
    for m in _LINE_BREAK.finditer(source, start):
        yield position, m.start(), m.end()
        position = m.end()
    if position < len(source) or position == start:
        yield position, len(source), len(source)


def _skip_space(source: str, pos: int, col: int, end: int) -> tuple[int, int]:
    """Position and column after the spaces and tabs at ``pos``."""
    while pos < end:
        char = source[pos]
        if char == " ":
            col += 1
        elif char == "\t":
            col += _TAB - col % _TAB
        else:
            break
        pos += 1
    return pos, col


def _advance(source: str, pos: int, col: int, target: int, end: int) -> tuple[int, int]:
    """Consume white space up to column ``target`` (a tab that overshoots is consumed whole)."""
    while pos < end and col < target and source[pos] in " \t":
        col = col + 1 if source[pos] == " " else col + _TAB - col % _TAB
        pos += 1
    return pos, col


class _Reader:
    def __init__(self, source: str, mdx: bool, front_matter_keys: Sequence[str] | None) -> None:
        self.source = source
        self.mdx = mdx
        self.front_matter_keys = front_matter_keys
        # Leaves in source order; a (start, end) span is a paragraph of one line followed by a
        # block boundary.
        self.leaves: list[_Leaf | tuple[int, int]] = []
        self.labels: dict[str, bool] = {}
        self.leaf: _Leaf | None = None
        self.containers: list[int] = []  # -1 for a block quote, else a list item's content column
        self.closed = closed_names(source)
        self._tails: dict[tuple[int, str], int] = {}
        # Where (in ``leaves``) the block quote last opened at each container depth began; and
        # the leaf ranges of the block quotes closed by an attribution (``> — Author``): quotations.
        self._quote_starts: dict[int, int] = {}
        self.quoted: list[tuple[int, int]] = []

    def close(self) -> None:
        leaf = self.leaf
        if leaf is not None:
            if leaf.kind == "indented":
                # Trailing blank lines are not part of the block.
                while leaf.lines and leaf.lines[-1][0] >= leaf.lines[-1][1]:
                    leaf.lines.pop()
            if leaf.lines or leaf.kind == "boundary":
                self.leaves.append(leaf)
            self.leaf = None

    def boundary(self) -> None:
        self.close()
        self.leaves.append(_BOUNDARY)

    def read(self) -> ProseView:
        source = self.source
        prose = Builder(source)
        code = Builder(source)
        code_spans: list[tuple[int, int]] = []
        start = read_front_matter(source, prose, self.front_matter_keys)
        self._blocks(start)
        self.close()
        return self._emit(prose, code, code_spans)

    def _blocks(self, start: int) -> None:
        """Read the block structure of every line from ``start``.

        Most lines of a page are blank or prose outside any container: those take a short path
        here that does what ``_line`` does with them (a blank line ends a paragraph or table; a
        line opening with a letter starts or continues a paragraph, since no block construct
        opens with a letter). Every other line goes through ``_line``.
        """
        source = self.source
        containers = self.containers
        leaves = self.leaves
        general = self._line
        # In MDX a line opening with "import" or "export" outside a paragraph is an ESM block.
        esm = "ie" if self.mdx else ""
        # str.find walks to the next "\n" several times faster than any pattern finds a line
        # break; a source with a "\r" in it needs the pattern.
        find = None if "\r" in source else source.find
        search = _LINE_BREAK.search
        position = start
        while True:
            if find is not None:
                line_end = after = find("\n", position)
                if line_end < 0:
                    break
                after += 1
            else:
                m = search(source, position)
                if m is None:
                    break
                line_end, after = m.span()
            leaf = self.leaf
            if containers:
                general(position, line_end, 0)
            elif leaf is not None and leaf.kind != "para" and leaf.kind != "table":
                if leaf.kind in _RAW:  # what _line does with a line of a fence, HTML, math or ESM block
                    self._continue_raw(leaf, position, 0, line_end)
                else:
                    general(position, line_end, 0)
            elif position == line_end:  # a blank line
                if leaf is not None:
                    self.close()
                    leaves.append(_BOUNDARY)
            elif source[position].isalpha() and (leaf is None or leaf.kind == "para"):
                end = line_end
                if source[end - 1] in " \t\\":
                    end = self._content_end(position, end)
                if leaf is not None:
                    leaf.lines.append((position, end))
                elif source[position] not in esm:
                    if find is not None and source.startswith("\n", after):
                        # A paragraph of one line and the blank line after it, the commonest
                        # pair of lines: its span stands for the paragraph and the boundary.
                        leaves.append((position, end))
                        position = after + 1
                        continue
                    self.leaf = _Leaf("para", None, [(position, end)])
                else:
                    general(position, line_end, 0)
                    position = after
                    continue
                if find is not None and source.startswith("\n", after):
                    # The blank line after a paragraph, taken here: it ends the paragraph.
                    self.close()
                    leaves.append(_BOUNDARY)
                    after += 1
            else:
                general(position, line_end, 0)
            position = after
        if position < len(source) or position == start:
            general(position, len(source), len(source))

    # -- blocks -------------------------------------------------------------------------------------

    def _line(self, line_start: int, line_end: int, _next: int) -> None:
        source = self.source
        pos, col = line_start, 0
        containers = self.containers
        matched = 0
        # The first non-blank of the line's current white-space run and its (absolute) column:
        # the same from any position in the run, so it is found once, not once per container.
        run_pos, run_col = -1, 0
        for indent in containers:
            if pos > run_pos:
                run_pos, run_col = _skip_space(source, pos, col, line_end)
            p, c = run_pos, run_col
            if indent < 0:
                if p < line_end and source[p] == ">" and c - col < 4:
                    pos, col = p + 1, c + 1
                    if pos < line_end and source[pos] in " \t":
                        pos, col = pos + 1, col + 1
                    matched += 1
                    continue
                break
            if p >= line_end or c >= indent:
                pos, col = _advance(source, pos, col, indent, line_end)
                matched += 1
                continue
            break
        leaf = self.leaf
        all_matched = matched == len(containers)
        if leaf is not None and leaf.kind in ("fence", "html", "math", "esm") and all_matched:
            if self._continue_raw(leaf, pos, col, line_end):
                return
        elif leaf is not None and leaf.kind == "indented" and all_matched:
            p, c = _skip_space(source, pos, col, line_end)
            if p >= line_end:
                leaf.lines.append((line_end, line_end))
                return
            if c - col >= 4:
                pos, col = _advance(source, pos, col, col + 4, line_end)
                leaf.lines.append((pos, line_end))
                return
        if not all_matched:
            if leaf is not None and leaf.kind == "para" and self._lazy(pos, col, line_end):
                p, _ = _skip_space(source, pos, col, line_end)
                leaf.lines.append((p, self._content_end(p, line_end)))
                return
            self.close()
            del containers[matched:]
            self.leaves.append(_BOUNDARY)
        # New containers.
        while True:
            p, c = _skip_space(source, pos, col, line_end)
            # In MDX a list item or block quote may be indented any depth (no indented code).
            if (c - col >= 4 and not self.mdx) or p >= line_end:
                break
            char = source[p]
            if char == ">":
                self.boundary()
                self._quote_starts[len(containers)] = len(self.leaves)
                containers.append(-1)
                pos, col = p + 1, c + 1
                if pos < line_end and source[pos] in " \t":
                    pos, col = pos + 1, col + 1
                continue
            if char in "-+*0123456789":
                m = _LIST_MARKER.match(source, p, line_end)
                if m is None or self._thematic(p, line_end):
                    break
                leaf = self.leaf
                after, after_col = m.end(), c + m.end() - p
                q, qc = _skip_space(source, after, after_col, line_end)
                empty = q >= line_end
                if leaf is not None and leaf.kind == "para" and (empty or (m[2] is not None and m[2] != "1")):
                    break  # cannot interrupt a paragraph
                if empty or qc - after_col > 4:
                    indent = after_col + 1
                    pos, col = _advance(source, after, after_col, indent, line_end)
                else:
                    indent = qc
                    pos, col = q, qc
                if m[1] == "-" and containers and containers[-1] < 0 and leaf is not None and leaf.kind == "para":
                    self._dash_attribution(len(containers) - 1, q, line_end)
                self.boundary()
                containers.append(indent)
                task = _TASK.match(source, pos, line_end)
                if task:
                    pos, col = task.end(), col + 3
                continue
            break
        self._leaf_line(pos, col, line_end)

    def _dash_attribution(self, depth: int, start: int, line_end: int) -> None:
        """A ``- Author`` item that ends a block quote right after its paragraph is the quote's
        attribution (the German islands page writes ``> - Jason Miller``): the quote is a quotation.
        A list that goes on, a quote that goes on after it, or an item that reads as a sentence
        (lower-case start, closing punctuation) is a list."""
        source = self.source
        item = source[start:line_end].rstrip()
        if not item[:1].isupper() or item.endswith((".", ":", "!", "?", ";")):
            return
        following = _LINE_BREAK.match(source, line_end)
        if following is not None:
            after = following.end()
            nxt = _LINE_BREAK.search(source, after)
            if source[after : len(source) if nxt is None else nxt.start()].strip():
                return
        opened = self._quote_starts.get(depth)
        if opened is not None:
            self.close()
            self.quoted.append((opened, len(self.leaves)))

    def _thematic(self, p: int, line_end: int) -> bool:
        """Whether the rest of the line from ``p`` is a thematic break (``---``, ``* * *``)."""
        char = self.source[p]
        if char not in "-*_":
            return False
        # Where the line's tail of this character and blanks begins, found once per line and
        # character: a line of 10,000 list markers must not run the pattern 10,000 times.
        key = (line_end, char)
        tail = self._tails.get(key)
        if tail is None:
            source = self.source
            tail = line_end
            while tail > 0 and source[tail - 1] in (char, " ", "\t") and source[tail - 1] not in "\r\n":
                tail -= 1
            self._tails = {key: tail}
        return p >= tail and _THEMATIC.match(self.source, p, line_end) is not None

    def _lazy(self, pos: int, col: int, line_end: int) -> bool:
        """Whether the rest of the line continues a paragraph lazily (it starts no block)."""
        source = self.source
        p, c = _skip_space(source, pos, col, line_end)
        if p >= line_end:
            return False
        char = source[p]
        if char == "<" and self._jsx_line(p, line_end):
            return False
        if c - col >= 4 and not self.mdx:
            return True
        if char == ">":
            return False
        if char in "-+*0123456789":
            m = _LIST_MARKER.match(source, p, line_end)
            if m is not None and source[m.end() : line_end].strip():
                return False
            if self._thematic(p, line_end):
                return False
        if char == "#" and _ATX.match(source, p, line_end):
            return False
        if char in "`~" and _FENCE.match(source, p, line_end):
            return False
        if char == ":" and source.startswith(":::", p) and _CONTAINER.match(source, p, line_end):
            return False  # an aside's fence ends a list item's last sentence, as markdown-it-container does
        return not (char == "<" and self._html_start(p, line_end, True))

    def _content_end(self, start: int, end: int) -> int:
        source = self.source
        while end > start and source[end - 1] in " \t":
            end -= 1
        if end > start and source[end - 1] == "\\":
            end -= 1  # a backslash hard line break
        return end

    def _continue_raw(self, leaf: _Leaf, pos: int, col: int, line_end: int) -> bool:
        """A line inside a fence, HTML block, math block or MDX import/export: True when consumed."""
        source = self.source
        if leaf.kind == "fence":
            char, size, indent = leaf.extra
            if source.find(char, pos, line_end) >= 0:  # only a line holding the fence's character can close it
                p, c = _skip_space(source, pos, col, line_end)
                # An MDX fence may be indented 4 or more (MDX has no indented code); its closing
                # fence may be as deep. (Elsewhere ``indent`` is below 4: CommonMark as it is.)
                if (c - col < 4 or c - col <= indent) and source.startswith(char * size, p):
                    rest = source[p:line_end].rstrip(" \t")
                    if rest == char * len(rest):
                        self.close()
                        self.leaves.append(_BOUNDARY)
                        return True
            if indent:
                pos, col = _advance(source, pos, col, col + indent, line_end)
            leaf.lines.append((pos, line_end))
            return True
        if leaf.kind == "math":
            if _MATH.search(source, pos, line_end):
                leaf.lines.append((pos, source.find("$$", pos, line_end)))
                self.close()
                return True
            leaf.lines.append((pos, line_end))
            return True
        p, _ = _skip_space(source, pos, col, line_end)
        blank = p >= line_end
        if leaf.kind == "esm":
            if blank:
                self.close()
                return True
            leaf.lines.append((pos, line_end))
            return True
        kind = leaf.extra
        if kind in _HTML_CLOSE:
            leaf.lines.append((pos, line_end))
            if _HTML_CLOSE[kind].search(source, pos, line_end):
                self.close()
            return True
        if blank:
            self.close()
            return True
        leaf.lines.append((pos, line_end))
        return True

    def _html_start(self, p: int, line_end: int, interrupting: bool) -> int:
        """The CommonMark HTML block kind starting at ``p`` (0 for none)."""
        source = self.source
        for kind in (1, 2, 3, 4, 5):
            if _HTML_OPEN[kind].match(source, p, line_end):
                return kind
        m = _HTML_OPEN[6].match(source, p, line_end)
        if m is not None and m[1].lower() in BLOCK_ELEMENTS:
            return 6
        if interrupting:
            return 0
        tag = TAG.match(source, p, line_end)
        if tag is not None and is_markup_tag(tag, self.mdx, self.closed) and not source[tag.end() : line_end].strip():
            return 7
        return 0

    def _jsx_line(self, p: int, line_end: int) -> bool:
        """Whether the line from ``p`` is an MDX component on a line of its own (block-level JSX).

        ``<Steps>``, ``</PackageManagerTabs>``, ``<Fragment slot="npm">`` or
        ``<Option>CSS</Option>``: in MDX such a line is a block, the lines after it are Markdown
        again (a fence is code, a list item a list item), and it ends the paragraph before it.
        CommonMark would open an HTML block running to the next blank line, which glued a list
        item's sentence to the fences of a ``<PackageManagerTabs>`` into one long sentence.
        An HTML element (``<details>``, ``<summary>…</summary>``) is JSX in MDX as well, but
        only a component interrupts a paragraph: a line opening with ``<a href>`` or ``<kbd>``
        may continue the sentence before it.
        """
        if not self.mdx:
            return False
        source = self.source
        tag = TAG.match(source, p, line_end)
        if tag is None or not source[p:line_end].rstrip(" \t").endswith(">"):
            return False
        if tag[2][:1].isupper():
            return True
        leaf = self.leaf
        return (leaf is None or leaf.kind != "para") and is_markup_tag(tag, True, self.closed)

    def _leaf_line(self, pos: int, col: int, line_end: int) -> None:
        source = self.source
        p, c = _skip_space(source, pos, col, line_end)
        leaf = self.leaf
        if p >= line_end:  # blank
            if leaf is not None and leaf.kind in ("para", "table"):
                self.close()
                self.leaves.append(_BOUNDARY)
            return
        in_para = leaf is not None and leaf.kind == "para"
        # Before the indented-code test: MDX has no indented code, and components are often
        # indented deep inside <Steps> and <PackageManagerTabs>.
        if source[p] == "<" and self._jsx_line(p, line_end):
            self.boundary()
            self.leaves.append(_Leaf("html", 7, [(p, line_end)]))
            self.leaves.append(_BOUNDARY)
            return
        # MDX has no indented code: text indented under <Option> or in a <Steps> item is prose.
        if c - col >= 4 and not self.mdx:
            if in_para:
                assert leaf is not None
                leaf.lines.append((p, self._content_end(p, line_end)))
                return
            self.close()
            start, _ = _advance(source, pos, col, col + 4, line_end)
            self.leaf = _Leaf("indented")
            self.leaf.lines.append((start, line_end))
            return
        char = source[p]
        if char in "`~":
            m = _FENCE.match(source, p, line_end)
            if m is not None and not (m[1][0] == "`" and "`" in m[2]):
                self.boundary()
                self.leaf = _Leaf("fence", (m[1][0], len(m[1]), c - col))
                return
        if char == "#":
            m = _ATX.match(source, p, line_end)
            if m is not None:
                self.boundary()
                start, _ = _skip_space(source, m.end(), 0, line_end)
                end = line_end
                heading_id = _HEADING_ID.search(source, start, end)
                if heading_id is not None:
                    end = heading_id.start()
                closing = _ATX_CLOSING.search(source, start, end)
                if closing is not None and closing.start() >= start:
                    end = closing.start()
                heading = _Leaf("heading")
                heading.lines.append((start, end))
                self.leaves.append(heading)
                self.leaves.append(_BOUNDARY)
                return
        if in_para and char in "=-" and _SETEXT.match(source, p, line_end):
            assert leaf is not None
            leaf.kind = "heading"
            self.close()
            self.leaves.append(_BOUNDARY)
            return
        if char in "-*_" and self._thematic(p, line_end):
            self.boundary()
            return
        if char == "<":
            kind = self._html_start(p, line_end, in_para)
            if kind:
                self.boundary()
                self.leaf = _Leaf("html", kind)
                self._continue_raw(self.leaf, p, c, line_end)
                return
        if char == "$" and source.startswith("$$", p):
            self.boundary()
            rest = source.find("$$", p + 2, line_end)
            if rest >= 0:
                math = _Leaf("math")
                math.lines.append((p + 2, rest))
                self.leaves.append(math)
                self.leaves.append(_BOUNDARY)
                return
            self.leaf = _Leaf("math")
            self.leaf.lines.append((p + 2, line_end))
            return
        if char == ":" and source.startswith(":::", p):
            m = _CONTAINER.match(source, p, line_end)
            if m is not None:
                self.boundary()
                if m[2].strip():
                    start, end = m.start(2), self._content_end(m.start(2), line_end)
                    close = source.rfind("]", start, end)
                    if source[start] == "[" and close > start + 1:
                        # A Starlight aside's title, ``:::tip[Title]``: the brackets are markup.
                        start, end = start + 1, close
                    title = _Leaf("para")
                    title.lines.append((start, end))
                    self.leaves.append(title)
                    self.leaves.append(_BOUNDARY)
                return
        if self.mdx and not in_para and not self.containers and _ESM.match(source, p, line_end):
            self.boundary()
            self.leaf = _Leaf("esm")
            self.leaf.lines.append((p, line_end))
            return
        if leaf is not None and leaf.kind == "table":
            self._row(leaf, p, line_end)
            return
        if in_para and "|" in source[p:line_end] and _DELIMITER_ROW.match(source, p, line_end):
            assert leaf is not None
            if len(leaf.lines) == 1 and "|" in source[leaf.lines[0][0] : leaf.lines[0][1]]:
                header = leaf.lines[0]
                self.leaf = None
                table = _Leaf("table")
                self._row(table, header[0], header[1])
                self.leaf = table
                return
        if char == "[" and not in_para:
            m = _DEFINITION.match(source, p, line_end)
            if m is not None:
                if m[1].startswith("^"):  # a footnote definition: its text is prose
                    self.boundary()
                    text_start, _ = _skip_space(source, source.find("]:", p) + 2, 0, line_end)
                    self.leaf = _Leaf("para")
                    self.leaf.lines.append((text_start, self._content_end(text_start, line_end)))
                    return
                self.labels.setdefault(normalize_label(m[1]), True)
                self.boundary()
                return
        if (
            in_para
            and self.containers
            and self.containers[-1] < 0
            and (char in _ATTRIBUTION_DASHES or source.startswith("<cite>", p))
        ):
            # A block quote's attribution (``> — Jason Miller``, ``> <cite>…</cite>``) is a line
            # of its own, not the end of the quote's last sentence; and the lines above it are
            # someone else's words: a quotation.
            self.close()
            opened = self._quote_starts.get(len(self.containers) - 1)
            if opened is not None:
                self.quoted.append((opened, len(self.leaves)))
            self.leaves.append(_BOUNDARY)
            in_para = False
        if in_para:
            assert leaf is not None
            leaf.lines.append((p, self._content_end(p, line_end)))
            return
        self.close()
        self.leaf = _Leaf("para")
        self.leaf.lines.append((p, self._content_end(p, line_end)))

    def _row(self, table: _Leaf, start: int, end: int) -> None:
        """Split a table row into cells; each cell is a leaf of its own."""
        source = self.source
        cells: list[tuple[int, int]] = []
        cell_start = start
        position = start
        while True:
            m = _CELL_SPLIT.search(source, position, end)
            if m is None:
                break
            if m.group() == "|":
                cells.append((cell_start, m.start()))
                cell_start = m.end()
            position = m.end()
        cells.append((cell_start, end))
        for cell_start, cell_end in cells:
            s, e = cell_start, cell_end
            while s < e and source[s] in " \t":
                s += 1
            while e > s and source[e - 1] in " \t":
                e -= 1
            if s < e:
                cell = _Leaf("cell")
                cell.lines.append((s, e))
                self.leaves.append(cell)
                self.leaves.append(_BOUNDARY)
        table.lines.append((start, end))

    # -- output -----------------------------------------------------------------------------------

    def _emit(self, prose: Builder, code: Builder, code_spans: list[tuple[int, int]]) -> ProseView:
        inline = Inline(prose, code, code_spans, self.labels, self.mdx, self.closed)
        headings: list[tuple[int, int]] = []
        cells: list[tuple[int, int]] = []
        source = self.source
        leaves, self.leaves = self.leaves, []
        # Whether the prose is known to end a block: every leaf that writes prose ends with
        # prose.boundary() (code leaves leave the prose as it was), so the boundary leaf after
        # it is a no-op, and most leaves are such boundaries.
        ended = False
        # Leaf indexes where an attributed block quote starts or ends (most pages have none).
        quote_marks = {k for span in self.quoted for k in span}
        quote_offsets: list[int] = []
        for k, leaf in enumerate(leaves):
            if quote_marks and k in quote_marks:
                quote_offsets.append(prose.size)
            leaves[k] = _DONE  # each leaf is let go once read: the text being built takes its place
            if isinstance(leaf, tuple):  # what the para branch below and a boundary do with it
                s, e = leaf
                shape = inline.shape(s, e)
                if shape == PLAIN:
                    prose.copy_block(s, e)
                else:
                    inline.line(s, e, shape)
                    prose.boundary(e)
                ended = True
                continue
            kind = leaf.kind
            if kind == "boundary":
                if not ended:
                    prose.boundary()
                    ended = True
                continue
            lines = leaf.lines
            if (kind == "para" or kind == "cell") and len(lines) == 1 and lines[0][0] < lines[0][1]:
                # Most paragraphs and every table cell: one line, read without inline.leaf's
                # general steps.
                s, e = lines[0]
                shape = inline.shape(s, e)
                first = prose.size
                if shape == PLAIN:
                    prose.copy_block(s, e)  # what inline.leaf and prose.boundary do with it
                    if kind == "cell":
                        cells.append((first, first + e - s))
                else:
                    inline.line(s, e, shape)
                    if kind == "cell" and prose.size > first:
                        cells.append((first, prose.size))
                    prose.boundary(e)
                ended = True
                continue
            if kind in ("para", "heading", "cell"):
                first = prose.size
                inline.leaf(lines)
                if kind == "heading" and prose.size > first:
                    headings.append((first, prose.size))
                elif kind == "cell" and prose.size > first:
                    cells.append((first, prose.size))
                prose.boundary(lines[-1][1])
                ended = True
            elif kind in ("fence", "indented", "math"):
                code.copy_lines(lines)
                code_spans.append((lines[0][0], lines[-1][1]))
            elif kind == "html":
                if (
                    len(lines) > 1
                    and all(lines[k][1] < lines[k + 1][0] for k in range(len(lines) - 1))
                    and (not self._has_prefixes(lines))
                ):
                    read_html_into(prose, code, code_spans, lines[0][0], lines[-1][1], self.mdx, self.closed)
                else:
                    for s, e in lines:
                        read_html_into(prose, code, code_spans, s, e, self.mdx, self.closed)
                prose.boundary(lines[-1][1])
                ended = True
        text, prose_map = prose.build()
        code_text, code_map = code.build()
        del source
        return ProseView(
            source=self.source,
            markup="mdx" if self.mdx else "markdown",
            text=text,
            prose_map=prose_map,
            code_text=code_text,
            code_map=code_map,
            code_spans=tuple(sorted(code_spans)),
            heading_spans=tuple(headings),
            table_spans=tuple(cells),
            quote_spans=self._quote_spans(quote_offsets),
        )

    def _quote_spans(self, offsets: list[int]) -> tuple[tuple[int, int], ...]:
        """The prose spans of the attributed block quotes, from the offsets ``_emit`` noted at
        their leaf bounds (a bound shared by two quotes is noted once)."""
        if not self.quoted:
            return ()
        at = dict(zip(sorted({k for span in self.quoted for k in span}), offsets, strict=True))
        # Disjoint, so that a bisect finds the span holding an offset: a quote attributed inside
        # an attributed quote is part of it.
        spans: list[tuple[int, int]] = []
        for start, end in sorted((at[start], at[end]) for start, end in self.quoted if at[start] < at[end]):
            if spans and start <= spans[-1][1]:
                spans[-1] = (spans[-1][0], max(spans[-1][1], end))
            else:
                spans.append((start, end))
        return tuple(spans)

    def _has_prefixes(self, lines: list[tuple[int, int]]) -> bool:
        source = self.source
        for k in range(len(lines) - 1):
            gap = source[lines[k][1] : lines[k + 1][0]]
            if gap not in ("\n", "\r\n", "\r"):
                return True
        return False


def read_markdown(
    source: str, *, mdx: bool = False, front_matter_keys: Sequence[str] | None = ("title", "description")
) -> ProseView:
    """The prose view of a Markdown (or, with ``mdx``, MDX) document."""
    return _Reader(source, mdx, front_matter_keys).read()
