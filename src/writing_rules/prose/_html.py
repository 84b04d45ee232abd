"""HTML: tags, comments and entities, for HTML files and for raw HTML in Markdown.

A tag is markup only when its name is an HTML element (or, in MDX, a
capitalised component): writers use ``<placeholder>``, ``<your-api-key>`` or
``<Platzhalter>`` as fill-ins, and a reader sees those as text.
"""

from __future__ import annotations

import re
from html import unescape

from ._lazy_regex import lazy_compile
from ._view import CODE_PLACEHOLDER, Builder, ProseView

__all__ = [
    "BLOCK_ELEMENTS",
    "CODE_ELEMENTS",
    "ELEMENTS",
    "HtmlMarks",
    "closed_names",
    "is_markup_tag",
    "markup_at",
    "read_html",
    "read_html_into",
]

ELEMENTS = frozenset(
    """a abbr acronym address area article aside audio b base basefont bdi bdo big blink blockquote body br
    button canvas caption center cite code col colgroup data datalist dd del details dfn dialog dir div dl dt
    em embed fieldset figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr
    html i iframe img input ins kbd label legend li link main map mark marquee math menu menuitem meta meter nav
    nobr noembed noframes noscript object ol optgroup option output p param picture plaintext pre progress q rb
    rp rt rtc ruby s samp script search section select slot small source span strike strong style sub summary
    sup svg table tbody td template textarea tfoot th thead time title tr track tt u ul var video wbr""".split()
)
# A block element's tags end a sentence; an inline element's tags do not.
BLOCK_ELEMENTS = frozenset(
    """address article aside blockquote body caption center dd details dialog dir div dl dt fieldset figcaption
    figure footer form frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html li main menu nav ol optgroup option
    p section summary table tbody td tfoot th thead title tr ul legend""".split()
)
# Their content is code (or script), never prose.
CODE_ELEMENTS = frozenset({"pre", "code", "script", "style", "textarea", "kbd", "samp", "math", "svg"})

# Bounded repeats keep every attempt short, so a page of unclosed tags stays linear.
_ATTRIBUTE = (
    r"(?:\s+[^\s\"'>/={}]{1,256}(?:\s*=\s*(?:[^\s\"'=<>`{}]{1,2048}|'[^']{0,2048}'|\"[^\"]{0,2048}\""
    r"|\{[^{}]{0,2048}\}))?|\s+\{[^{}]{0,2048}\})"
)
TAG = lazy_compile(rf"<(/?)([A-Za-z][A-Za-z0-9._:-]{{0,63}})((?:{_ATTRIBUTE}){{0,64}})\s*(/?)>")
_GREATER = lazy_compile(">")
ENTITY = lazy_compile(r"&(?:#[0-9]{1,7};|#[xX][0-9A-Fa-f]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)")
_SPECIAL = lazy_compile(r"[<&]")


class HtmlMarks:
    """Finds the ends of comments, CDATA sections and element contents, each search at most once per place.

    A search that fails once fails for every later start too, and one that
    succeeds serves every start before its hit; so a page of unclosed
    comments costs one pass, not one per comment.
    """

    __slots__ = ("_cache", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self._cache: dict[str, tuple[int, int, int]] = {}

    def find(self, key: str, pattern: re.Pattern[str], start: int) -> tuple[int, int]:
        """(start, end) of the first match of ``pattern`` at or after ``start``, or (-1, -1)."""
        cached = self._cache.get(key)
        if cached is not None:
            searched_from, found, found_end = cached
            if searched_from <= start and (found < 0 or found >= start):
                return found, found_end
        match = pattern.search(self.source, start)
        result = (match.start(), match.end()) if match else (-1, -1)
        self._cache[key] = (start, *result)
        return result


_COMMENT_END = lazy_compile("-->")
_CDATA_END = lazy_compile(r"\]\]>")
_CLOSERS: dict[str, re.Pattern[str]] = {}


def closer(name: str) -> re.Pattern[str]:
    pattern = _CLOSERS.get(name)
    if pattern is None:
        pattern = _CLOSERS[name] = re.compile(rf"</{re.escape(name)}\s*>", re.IGNORECASE)
    return pattern


_CLOSING_NAME = lazy_compile(r"</([A-Za-z][A-Za-z0-9._:-]{0,63})\s*>")
_VALUED_ATTRIBUTE = lazy_compile(r"=")


def closed_names(source: str) -> frozenset[str]:
    """Names that some closing tag in the document uses (``</Sandpack>``): such a tag is markup."""
    # A page of prose holds a few "<" at most: str.find walks to each (memchr) in a fraction of
    # what one search for "</" over the whole page costs. A closing tag holds no "<" after its
    # first, so matching at each "<" finds what finditer finds; a page of tags goes to finditer.
    names: set[str] = set()
    find = source.find
    at = find("<")
    for _ in range(8):
        if at < 0:
            return frozenset(names)
        m = _CLOSING_NAME.match(source, at)
        if m is not None:
            names.add(m[1])
        at = find("<", at + 1)
    if at >= 0:
        names.update(m[1] for m in _CLOSING_NAME.finditer(source, at))
    return frozenset(names)


def is_markup_tag(tag: re.Match[str], mdx: bool, closed: frozenset[str]) -> bool:
    """Whether a tag (a ``TAG`` match) is markup, not a fill-in such as ``<your-api-key>``.

    Markup: an HTML element; in MDX any capitalised component; and any tag whose
    name is closed somewhere in the document, that closes itself (``<Foo />``)
    or that has an attribute with a value. A React page in ``.md`` uses
    components (``<Intro>`` … ``</Intro>``) the same way as MDX does.
    """
    name = tag[2]
    if name.lower() in ELEMENTS or (mdx and name[:1].isupper()):
        return True
    return name in closed or bool(tag[4]) or (bool(tag[3]) and _VALUED_ATTRIBUTE.search(tag[3]) is not None)


def markup_at(
    source: str, position: int, end: int, marks: HtmlMarks, mdx: bool, closed: frozenset[str] = frozenset()
) -> tuple[str, int, str] | None:
    """The markup starting at ``source[position] == '<'``: (kind, end, element name) or None for text.

    Kinds: ``comment``, ``declaration``, ``open``, ``close``, ``empty``.
    """
    if source.startswith("<!--", position):
        found, found_end = marks.find("comment", _COMMENT_END, position + 4)
        if found < 0 or found_end > end:
            return None
        return "comment", found_end, ""
    if source.startswith("<![CDATA[", position):
        found, found_end = marks.find("cdata", _CDATA_END, position + 9)
        if found < 0 or found_end > end:
            return None
        return "declaration", found_end, ""
    if source.startswith("<!", position) or source.startswith("<?", position):
        close = declaration_end(source, position, end, marks)
        return ("declaration", close, "") if close >= 0 else None
    match = TAG.match(source, position, end)
    if match is None or not is_markup_tag(match, mdx, closed):
        return None
    kind = "close" if match[1] else ("empty" if match[4] else "open")
    return kind, match.end(), match[2].lower() if match[2].lower() in ELEMENTS else match[2]


def declaration_end(source: str, position: int, end: int, marks: HtmlMarks) -> int:
    """Where ``<!x ... >`` or ``<? ... ?>`` at ``position`` ends (before ``end``), or -1 for none.

    At most 4,096 characters inside. No ">" can be inside, so the close is the first ">" after
    the opener, which ``marks`` finds once for a run of openers: the pattern this replaces
    (``<![A-Za-z][^>]{0,4096}>|<\\?[^>]{0,4096}\\?>``) read up to 4,096 characters ahead of each
    opener, 15 microseconds a character on a page of them (minutes for the largest page read).
    """
    if source.startswith("<!", position):
        letter = source[position + 2 : position + 3]
        if position + 3 > end or not ("A" <= letter <= "Z" or "a" <= letter <= "z"):
            return -1
        body, question = position + 3, 0
    else:
        body, question = position + 2, 1
    close, _ = marks.find(">", _GREATER, body)
    if close < 0 or close >= end or close - question - body > 4096 or close - question < body:
        return -1
    if question and source[close - 1] != "?":
        return -1
    return close + 1


def put_entity(builder: Builder, source: str, start: int, end: int) -> None:
    """Append the character an entity stands for (the entity itself when unknown)."""
    decoded = unescape(source[start:end])
    builder.put(decoded if decoded and "\x00" not in decoded else "\ufffd", start, end)


def read_html_into(
    prose: Builder,
    code: Builder,
    code_spans: list[tuple[int, int]],
    start: int,
    end: int,
    mdx: bool = False,
    closed: frozenset[str] = frozenset(),
) -> None:
    """Read ``source[start:end]`` as HTML: text nodes to prose, pre/code/script/style to code."""
    source = prose.source
    marks = HtmlMarks(source)
    position = start
    while position < end:
        found = _SPECIAL.search(source, position, end)
        if found is None:
            prose.copy_text(position, end)
            return
        at = found.start()
        prose.copy_text(position, at)
        if source[at] == "&":
            entity = ENTITY.match(source, at, end)
            if entity:
                put_entity(prose, source, at, entity.end())
                position = entity.end()
            else:
                prose.copy(at, at + 1)
                position = at + 1
            continue
        markup = markup_at(source, at, end, marks, mdx, closed)
        if markup is None:
            prose.copy(at, at + 1)
            position = at + 1
            continue
        kind, after, name = markup
        position = after
        if name in BLOCK_ELEMENTS:
            prose.boundary(at)
        elif name == "br" and prose.last_char() not in " \n":
            prose.put(" ", at, after)
        if kind == "open" and name in CODE_ELEMENTS:
            close_at, close_end = marks.find("</" + name, closer(name), after)
            if close_at < 0 or close_at > end:
                close_at = close_end = end
            if name in ("pre", "code", "kbd", "samp", "textarea"):
                code.copy(after, close_at)
                code.boundary(close_at)
                code_spans.append((after, close_at))
            if name in ("code", "kbd", "samp") and not source[after:close_at].count("\n"):
                prose.put(CODE_PLACEHOLDER, at, close_end)
            elif name == "pre":
                prose.boundary(at)
            position = close_end


def read_html(source: str) -> ProseView:
    """The prose view of an HTML document or fragment."""
    prose = Builder(source)
    code = Builder(source)
    code_spans: list[tuple[int, int]] = []
    read_html_into(prose, code, code_spans, 0, len(source), closed=closed_names(source))
    prose.boundary()
    text, prose_map = prose.build()
    code_text, code_map = code.build()
    return ProseView(
        source=source,
        markup="html",
        text=text,
        prose_map=prose_map,
        code_text=code_text,
        code_map=code_map,
        code_spans=tuple(sorted(code_spans)),
    )
