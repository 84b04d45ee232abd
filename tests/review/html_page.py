"""Reading a report back the way an HTML parser does, for the offset and escaping tests."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

# A report of several documents keeps each document's section and side list in a JSON data block.
_DATA = re.compile(r'<script type="application/json" class="doc-data"[^>]*>(.*?)</script>\n?', re.DOTALL)


@dataclass
class Page:
    """Each document's text (as shown) and, per hit number, its marks' attributes and text pieces."""

    documents: list[str] = field(default_factory=list)
    pieces: dict[str, list[str]] = field(default_factory=dict)
    attributes: dict[str, dict[str, str]] = field(default_factory=dict)
    document_of: dict[str, int] = field(default_factory=dict)
    ids: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    root: dict[str, str] = field(default_factory=dict)  # the <html> element's attributes


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self._in_pre = False  # inside a document: <pre class="doc"> (source view) or <div class="doc"> (reader view)
        self._doc_tag = ""
        self._skip_newline = False
        self._open: list[str | None] = []  # per open mark inside a pre: its hit number

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        self.page.tags.append(tag)
        if "id" in values:
            self.page.ids.append(values["id"])
        if tag == "html":
            self.page.root = values
        if tag in ("pre", "div") and "doc" in values.get("class", "").split() and not self._in_pre:
            self._in_pre = True
            self._doc_tag = tag
            self.page.documents.append("")
            self._skip_newline = tag == "pre"  # the HTML parser drops one line feed right after <pre>
        elif tag == "mark" and self._in_pre:
            number = values["data-hit"]
            self._open.append(number)
            self.page.pieces.setdefault(number, []).append("")
            self.page.attributes.setdefault(number, values)
            self.page.document_of.setdefault(number, len(self.page.documents) - 1)

    def handle_endtag(self, tag: str) -> None:
        if self._in_pre and tag == self._doc_tag:
            self._in_pre = False
        elif tag == "mark" and self._in_pre:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if not self._in_pre:
            return
        if self._skip_newline:
            self._skip_newline = False
            data = data.removeprefix("\n")
        self.page.documents[-1] += data
        for number in set(self._open):
            self.page.pieces[number][-1] += data


def expand(page: str) -> str:
    """The page as it would be with every document shown: data blocks replaced by their sections."""
    sides: list[str] = []

    def section(found: re.Match[str]) -> str:
        main, side = json.loads(found.group(1))
        sides.append(side)
        return str(main)

    page = _DATA.sub(section, page)
    return page.replace('<div id="rules-view"></div>', "".join(sides), 1) if sides else page


def read_page(page: str) -> Page:
    page = expand(page)
    reader = _Reader()
    reader.feed(page)
    reader.close()
    return reader.page
