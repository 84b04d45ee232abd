"""reStructuredText into a prose view.

Read line by line with indentation, the way rst nests: an explicit markup
block (``..``) or a literal block (after ``::``) owns every following line
that is blank or indented deeper than its start. Such a region is code
(literal blocks, ``code-block``/``code``/``math`` and the like), markup
(comments, hyperlink targets, substitution definitions, other directives) or
prose (admonitions and other directives whose body is text, read as normal
lines). Titles, paragraphs, list items, field bodies, table cells and
admonition bodies are prose; adornment lines, table borders and directive
options are markup.
"""

from __future__ import annotations

import re

from ._inline import Inline, LeafText
from ._lazy_regex import lazy_compile
from ._markdown import _lines
from ._view import CODE_PLACEHOLDER, Builder, ProseView

__all__ = ["read_rst"]

_ADORNMENT = lazy_compile(r"([=\-`:'\"~^_*+#<>.])\1{2,}[ \t]*$")
_EXPLICIT = lazy_compile(r"\.\.(?:[ \t]+|$)")
_DIRECTIVE = lazy_compile(r"\.\.[ \t]+(?:\|[^|]+\|[ \t]+)?([\w:.+-]+)::(?:[ \t]+|$)")
_TARGET = lazy_compile(r"\.\.[ \t]+_")
_FOOTNOTE = lazy_compile(r"\.\.[ \t]+\[[^\]]+\](?:[ \t]+|$)")
_SUBSTITUTION = lazy_compile(r"\.\.[ \t]+\|")
_OPTION = lazy_compile(r":[\w-]+:(?:[ \t]|$)")
_BULLET = lazy_compile(r"(?:[-*+\u2022\u2023\u2043]|\(?(?:\d+|#|[A-Za-z]|[ivxlcdmIVXLCDM]+)[.)])[ \t]+")
_FIELD = lazy_compile(r":([^:\s][^:]*):(?:[ \t]+|$)")
_GRID_BORDER = lazy_compile(r"\+[-=+]+\+?[ \t]*$")
_SIMPLE_BORDER = lazy_compile(r"=+(?:[ \t]+=+)+[ \t]*$")
_CODE_DIRECTIVES = frozenset(
    "code code-block sourcecode math literalinclude doctest testcode testoutput testsetup testcleanup "
    "productionlist highlight parsed-literal ipython jupyter-execute program-output command-output".split()
)
_PROSE_DIRECTIVES = frozenset(
    "note warning tip important caution danger attention error hint seealso admonition todo versionadded "
    "versionchanged deprecated topic sidebar rubric container only tab tabs tab-set tab-item card dropdown "
    "epigraph highlights pull-quote compound glossary list-table table hlist centered class rst-class "
    "line-block figure".split()
)
# Directives whose argument (text after ``::``) a reader sees as a title or first sentence.
_TITLED = frozenset(
    "note warning tip important caution danger attention error hint seealso admonition todo topic sidebar "
    "rubric tab tab-item card dropdown versionadded versionchanged deprecated".split()
)
_CODE_ROLES = frozenset(
    "code literal file samp command program envvar option kbd math regexp makevar mailheader mimetype "
    "newsgroup dfn token keyword func meth class attr mod data obj exc const var type member macro enum "
    "enumerator struct union function method property module".split()
)
_TEXT_ROLES = frozenset(
    "term abbr emphasis strong sup sub subscript superscript title-reference t guilabel menuselection".split()
)
# A role's name and a reference name are bounded: tried from each colon or word boundary, an
# unbounded run of name characters was read to its end each time (quadratic in a line of them).
_INLINE = lazy_compile(
    r"``|\\.|(?::[\w:.+-]{1,128}:)?`|\*\*?|\|[^|\s][^|\n]{0,200}?\|_{0,2}|\[[^\]\s]{1,64}\]_"
    r"|(?<![\w/.@-])(?:https?://|www\.)[^\s<>`]{1,4096}|\b[\w.-]{1,256}__?(?=$|[\s.,;:!?)\]'\"])",
    re.DOTALL,
)
_TITLES = frozenset("admonition topic sidebar rubric tab tab-item card dropdown".split())
_BODY = -3  # para_indent of a paragraph begun on a directive's line, until its next line sets it
_URL_TRAILING = lazy_compile(r"[?!.,:;*_~'\")]+$")


class _RstInline(LeafText):
    def run(self) -> None:
        text = self.text
        owner = self.owner
        length = len(text)
        position = 0
        while position < length:
            m = _INLINE.search(text, position)
            if m is None:
                self.copy(position, length)
                return
            at, token = m.start(), m.group()
            self.copy(position, at)
            position = m.end()
            if token == "``":
                close = text.find("``", at + 2)
                if close < 0:
                    self.copy(at, at + 2)
                    continue
                self.copy(at + 2, close, owner.code)
                owner.code.boundary(self._source_end(close))
                owner.code_spans.append((self._source_start(at), self._source_end(close + 2)))
                self.put(CODE_PLACEHOLDER, at, close + 2)
                position = close + 2
            elif token[0] == "\\":
                self.copy(at + 1, at + 2)
            elif token.endswith("`"):
                position = self._interpreted(at, m.end(), token[1:-2] if token.startswith(":") else "")
            elif token[0] == "*":
                before = text[at - 1] if at else " "
                after = text[m.end() : m.end() + 1] or " "
                if not (before.isalnum() and after.isalnum()) and not (before.isspace() and after.isspace()):
                    continue  # emphasis marks
                self.copy(at, m.end())
            elif token[0] in "|[" or token[0:4] in ("http", "www."):
                if token[0] in "h" and token[0:4] in ("http", "www."):
                    trailing = _URL_TRAILING.search(token)
                    if trailing:
                        position -= len(trailing.group())
                continue  # substitution, footnote reference, URL: markup
            else:  # a reference name_ : the name is prose, the underscore markup
                self.copy(at, at + len(token.rstrip("_")))

    def _interpreted(self, at: int, start: int, role: str) -> int:
        text = self.text
        owner = self.owner
        close = text.find("`", start)
        if close < 0:
            self.copy(at, start)
            return start
        end = close + 1
        while end < len(text) and text[end] == "_":
            end += 1
        inner_start, inner_end = start, close
        target = text.rfind("<", inner_start, inner_end)
        has_title = target > inner_start and text[inner_end - 1 : inner_end] == ">"
        if role and role.split(":")[-1] in _CODE_ROLES:
            self.copy(inner_start, inner_end, owner.code)
            owner.code.boundary(self._source_end(inner_end))
            owner.code_spans.append((self._source_start(at), self._source_end(end)))
            self.put(CODE_PLACEHOLDER, at, end)
            return end
        if has_title:
            title_end = target
            while title_end > inner_start and text[title_end - 1] in " \n":
                title_end -= 1
            self.copy(inner_start, title_end)
            return end
        if role and role.split(":")[-1] not in _TEXT_ROLES:
            return end  # a cross-reference shown by its target's title: markup here
        self.copy(inner_start, inner_end)
        return end


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.prose = Builder(source)
        self.code = Builder(source)
        self.code_spans: list[tuple[int, int]] = []
        self.inline = Inline(self.prose, self.code, self.code_spans, {}, False)
        self.headings: list[tuple[int, int]] = []
        self.para: list[tuple[int, int]] = []
        self.para_indent = -1
        self.region: tuple[str, int] | None = None  # (code | markup | options, indent)
        self.literal_next = -1  # indent of a paragraph that ended with "::"

    def flush(self, heading: bool = False) -> None:
        if not self.para:
            return
        lines = self.para
        source = self.source
        last_start, last_end = lines[-1]
        literal = source[last_start:last_end].rstrip()
        if literal.endswith("::") and not heading:
            cut = last_start + len(literal) - (2 if literal.endswith(" ::") or literal == "::" else 1)
            lines[-1] = (last_start, cut if literal != "::" else last_start)
            if literal.endswith(" ::"):
                lines[-1] = (last_start, last_start + len(literal[:-3].rstrip()))
            self.literal_next = self.para_indent
        first = self.prose.size
        lines = [(s, e) for s, e in lines if e > s] or []
        if lines:
            _RstInline(self.inline, self.inline.text_of(lines), lines).run()
            if heading and self.prose.size > first:
                self.headings.append((first, self.prose.size))
        self.prose.boundary()
        self.para = []
        self.para_indent = -1

    def read(self) -> ProseView:
        source = self.source
        for line_start, line_end, _ in _lines(source, 0):
            p = line_start
            indent = 0
            while p < line_end and source[p] in " \t":
                indent += 1 if source[p] == " " else 8 - indent % 8
                p += 1
            self._line(p, line_end, indent)
        self.flush()
        text, prose_map = self.prose.build()
        code_text, code_map = self.code.build()
        return ProseView(
            source=source,
            markup="rst",
            text=text,
            prose_map=prose_map,
            code_text=code_text,
            code_map=code_map,
            code_spans=tuple(sorted(self.code_spans)),
            heading_spans=tuple(self.headings),
        )

    def _line(self, p: int, end: int, indent: int) -> None:
        source = self.source
        if p >= end:  # blank
            self.flush()
            if self.region is not None and self.region[0] == "options":
                self.region = None
            elif self.region is not None and self.region[0] == "code-head":
                self.region = ("code", self.region[1])
            return
        region = self.region
        if region is not None:
            kind, region_indent = region
            if indent > region_indent:
                if kind == "code-head" and _OPTION.match(source, p, end):
                    return
                if kind in ("code", "code-head"):
                    self.code.copy(p, end)
                    self.code.put("\n", end, end)
                    self.code_spans.append((p, end))
                    return
                if kind == "markup":
                    return
                if _OPTION.match(source, p, end):  # directive options
                    return
                self.region = None
            else:
                self.region = None
        if self.literal_next >= 0:
            literal_indent = self.literal_next
            self.literal_next = -1
            if indent > literal_indent and not self.para:
                self.region = ("code", literal_indent)
                self._line(p, end, indent)
                return
        if _ADORNMENT.match(source, p, end):
            if len(self.para) == 1:
                self.flush(heading=True)
            else:
                self.flush()
            return
        if source.startswith("..", p) and _EXPLICIT.match(source, p, end):
            self.flush()
            self._explicit(p, end, indent)
            return
        if source.startswith(">>>", p):
            self.flush()
            self.code.copy(p, end)
            self.code.put("\n", end, end)
            self.code_spans.append((p, end))
            return
        if source[p] in "+=" and (_GRID_BORDER.match(source, p, end) or _SIMPLE_BORDER.match(source, p, end)):
            self.flush()
            return
        if source[p] == "|" and source[end - 1 : end] == "|" and end - p > 1:  # a grid table row
            self.flush()
            cell = p + 1
            while cell < end:
                bar = source.find("|", cell, end)
                bar = end if bar < 0 else bar
                s, e = cell, bar
                while s < e and source[s] in " \t":
                    s += 1
                while e > s and source[e - 1] in " \t":
                    e -= 1
                if s < e:
                    self.para = [(s, e)]
                    self.flush()
                cell = bar + 1
            return
        bullet = _BULLET.match(source, p, end)
        if bullet is not None and (not self.para or indent != self.para_indent):
            self.flush()
            self.para = [(bullet.end(), _rstrip(source, bullet.end(), end))]
            self.para_indent = indent + bullet.end() - p
            return
        field = _FIELD.match(source, p, end) if source[p] == ":" else None
        if field is not None:
            self.flush()
            if field.end() < end:
                self.para = [(field.end(), _rstrip(source, field.end(), end))]
                self.para_indent = indent + 2
            return
        if self.para and self.para_indent == _BODY:
            self.para_indent = indent
        if self.para and indent != self.para_indent:
            self.flush()
        if not self.para:
            self.para_indent = indent
        self.para.append((p, _rstrip(source, p, end)))

    def _explicit(self, p: int, end: int, indent: int) -> None:
        source = self.source
        directive = _DIRECTIVE.match(source, p, end)
        if directive is not None:
            name = directive[1].split(":")[-1].lower()
            substitution = source.startswith("|", p + 3) or "|" in source[p : directive.start(1)]
            if name in _CODE_DIRECTIVES and not substitution:
                self.region = ("code-head", indent)
                if name == "math" and directive.end() < end:
                    self.code.copy(directive.end(), end)
                    self.code.put("\n", end, end)
                return
            if name in _PROSE_DIRECTIVES and not substitution:
                if name in _TITLED and directive.end() < end:
                    self.para = [(directive.end(), _rstrip(source, directive.end(), end))]
                    if name in _TITLES:
                        self.flush(heading=True)  # a title: a block of its own
                    else:
                        self.para_indent = _BODY  # the body's first paragraph: its next lines continue it
                self.region = ("options", indent)
                return
            self.region = ("markup", indent)
            return
        if _FOOTNOTE.match(source, p, end):
            m = _FOOTNOTE.match(source, p, end)
            assert m is not None
            if m.end() < end:
                self.para = [(m.end(), _rstrip(source, m.end(), end))]
                self.para_indent = indent + 3
            return
        # Hyperlink targets, substitution definitions and comments own their indented lines.
        self.region = ("markup", indent)


def _rstrip(source: str, start: int, end: int) -> int:
    while end > start and source[end - 1] in " \t":
        end -= 1
    return end


def read_rst(source: str) -> ProseView:
    """The prose view of a reStructuredText document."""
    return _Reader(source).read()
