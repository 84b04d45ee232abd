"""Plain text: everything is prose; a blank line ends a paragraph, a line break inside one is a space."""

from __future__ import annotations

from ._lazy_regex import lazy_compile
from ._view import Builder, ProseView

__all__ = ["read_plain", "read_plain_into"]

_BLANK_LINES = lazy_compile(r"(?:\r\n|\r|\n)[ \t]*(?:(?:\r\n|\r|\n)[ \t]*)+")


def read_plain_into(prose: Builder, start: int, end: int) -> None:
    """Paragraphs of ``source[start:end]``: blank lines end them, other line breaks read as spaces."""
    position = start
    for m in _BLANK_LINES.finditer(prose.source, start, end):
        prose.copy_text(position, m.start())
        prose.boundary(m.start())
        position = m.end()
    prose.copy_text(position, end)
    prose.boundary(end)


def read_plain(source: str, note: str | None = None) -> ProseView:
    """The prose view of plain text."""
    prose = Builder(source)
    read_plain_into(prose, 0, len(source))
    text, prose_map = prose.build()
    empty, empty_map = Builder(source).build()
    return ProseView(
        source=source, markup="text", text=text, prose_map=prose_map, code_text=empty, code_map=empty_map, note=note
    )
