"""The reference for the differential test: the words of markdown-it-py's rendered text.

markdown-it-py (a test dependency) parses CommonMark with the GitHub tables,
strikethrough, task lists, footnotes, front matter and ``:::`` containers; the
words of what it renders as text are compared with the words of the prose
view. Left out on both sides, as the contract says: code (fenced, indented,
inline, HTML ``pre``/``code``/``script``/``style``) and URLs (destinations,
autolinks, bare URLs). Raw HTML blocks are read with the standard library's
``html.parser``: the text between tags is text.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import yaml
from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from writing_rules.prose._html import BLOCK_ELEMENTS, ELEMENTS, TAG, closed_names, is_markup_tag

_URL = re.compile(r"(?:https?://|www\.)\S*")
_WORD = re.compile(r"[^\W_]+")
_HEADING_ID = re.compile(r"\{#[^{}]*\}|\{/\*.*?\*/\}")
_HEADING_LINE_ID = re.compile(r"(?m)^([ \t]{0,3}#{1,6}[ \t].*?)[ \t]*(?:\{#[^{}\n]*\}|\{/\*[^\n]*?\*/\})[ \t]*$")
_CODE_TAGS = {"pre", "code", "script", "style", "textarea", "kbd", "samp", "math", "svg"}


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    md.use(front_matter_plugin).use(footnote_plugin).use(tasklists_plugin)
    md.use(container_plugin, name="any", validate=lambda params, *_: True)
    return md


_MD = _parser()


def words(text: str) -> list[str]:
    """Words (runs of letters and digits) with URLs taken out."""
    return _WORD.findall(_URL.sub(" ", text))


class _Html(HTMLParser):
    def __init__(self, closed: frozenset[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.code_depth = 0
        self.closed = closed

    def handle_starttag(self, tag: str, attrs: object) -> None:
        raw = self.get_starttag_text() or ""
        match = TAG.match(raw)
        if match is not None and not is_markup_tag(match, False, self.closed) and tag not in ELEMENTS:
            self.parts.append(raw)  # a fill-in such as <your-api-key>: text
        elif tag in _CODE_TAGS:
            self.code_depth += 1
        self.parts.append(_between(tag))

    def handle_endtag(self, tag: str) -> None:
        if tag in _CODE_TAGS and self.code_depth:
            self.code_depth -= 1
        self.parts.append(_between(tag))

    def handle_data(self, data: str) -> None:
        if not self.code_depth:
            self.parts.append(data)


def _between(tag: str) -> str:
    """What a browser shows for a tag: a block element's tags part words, an inline element's do not."""
    return " " if tag in BLOCK_ELEMENTS or tag in ("br", "pre") else ""


def _html_text(raw: str, closed: frozenset[str]) -> str:
    parser = _Html(closed)
    parser.feed(raw)
    parser.close()
    return "".join(parser.parts)


def reference_words(source: str) -> list[str]:
    """Words of markdown-it-py's rendering of ``source``, code and URLs left out."""
    closed = closed_names(source)
    parts: list[str] = []
    # Heading ids ({#id}, MDX {/*id*/}) are an extension markdown-it-py does not know: taken out first.
    source = _HEADING_LINE_ID.sub(r"\1", source)
    # A fill-in such as <your-api-key> is text (prose-model.md), so it must not open an HTML block
    # there either: its "<" is escaped (same words).
    source = TAG.sub(lambda m: m.group() if is_markup_tag(m, False, closed) else "&lt;" + m.group()[1:], source)
    tokens = _MD.parse(source)
    for token in tokens:
        if token.type == "front_matter":
            parts.append(_front_matter_text(token.content))
        elif token.type == "container_any_open":
            parts.append(" " + token.info.strip().partition(" ")[2] + " ")
        elif token.type == "html_block":
            parts.append(" " + _html_text(token.content, closed) + " ")
        elif token.type == "inline":
            parts.append(" " + _inline_text(token.children or [], closed) + " ")
    return words("".join(parts))


def _front_matter_text(content: str) -> str:
    try:
        data = yaml.safe_load(content)
    except yaml.YAMLError:
        return ""
    if not isinstance(data, dict):
        return ""
    return " ".join(str(data[key]) for key in ("title", "description") if isinstance(data.get(key), str))


def _inline_text(children: list[Token], closed: frozenset[str]) -> str:
    parts: list[str] = []
    skip = 0
    code = 0
    for child in children:
        if child.type == "link_open" and child.markup == "autolink":
            skip += 1
        elif child.type == "link_close" and skip:
            skip -= 1
        elif skip:
            continue
        elif child.type == "text" and not code:
            parts.append(_HEADING_ID.sub(" ", child.content))
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(_inline_text(child.children or [], closed))
        elif child.type == "html_inline":
            match = TAG.match(child.content)
            name = match[2].lower() if match else ""
            if match is not None and not is_markup_tag(match, False, closed):
                parts.append(child.content)
            elif name in _CODE_TAGS:
                code = code + (-1 if match and match[1] else 1)
                code = max(code, 0)
                parts.append(" ")
            else:
                parts.append(_between(name))
        elif child.type == "code_inline":
            parts.append(" ")
    return "".join(parts)
