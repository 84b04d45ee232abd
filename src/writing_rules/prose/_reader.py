"""Choosing a reader: by markup name or by a file's extension, with plain text as the fallback."""

from __future__ import annotations

from collections.abc import Sequence

# The tool reads every text as Markdown (and falls back to plain text): these two readers load
# with the package, so that no tool call imports a module. The others load when first asked for.
from ._markdown import read_markdown
from ._markups import MARKUPS, markup_for_path
from ._plain import read_plain
from ._view import ProseView, TextMap

__all__ = ["ProseError", "markup_for_path", "read_prose"]


_BOM = "\ufeff"


def _shift(text_map: TextMap) -> TextMap:
    return TextMap(
        text_map.starts,
        tuple(start + 1 for start in text_map.source_starts),
        tuple(end + 1 for end in text_map.source_ends),
        text_map.copied,
    )


def _shifted(view: ProseView, source: str) -> ProseView:
    """``view`` of ``source[1:]`` as a view of ``source``: every source offset one further."""
    # Only the source and what points into it change; every other field is kept as read
    # (naming each one lost the table cells, so a long sentence in a table came back).
    return view._replace(
        source=source,
        prose_map=_shift(view.prose_map),
        code_map=_shift(view.code_map),
        code_spans=tuple((start + 1, end + 1) for start, end in view.code_spans),
    )


class ProseError(ValueError):
    """An unknown markup name; the message lists the known ones."""


def read_prose(
    source: str, markup: str = "markdown", *, front_matter_keys: Sequence[str] | None = ("title", "description")
) -> ProseView:
    """Read ``source`` as ``markup`` into a prose view.

    ``front_matter_keys``: the front-matter keys whose values are prose (Markdown);
    None when the text cannot open with front matter (a later piece of a file).

    Never fails on the document: one the reader cannot make sense of is read as
    plain text, and ``note`` on the view says why.
    """
    if markup not in MARKUPS:
        raise ProseError(f"unknown markup {markup!r}; choose one of {', '.join(MARKUPS)}")
    if not isinstance(source, str):
        raise TypeError(f"source must be a str, not {type(source).__name__}")
    if source.startswith(_BOM):
        # A byte-order mark (from a file opened as "utf-8") is markup; it must not hide the front
        # matter or the first heading, nor move a position.
        return _shifted(_read(source[1:], markup, front_matter_keys), source)
    return _read(source, markup, front_matter_keys)


def _read(source: str, markup: str, front_matter_keys: Sequence[str] | None) -> ProseView:
    try:
        if markup in ("markdown", "mdx"):
            return read_markdown(source, mdx=markup == "mdx", front_matter_keys=front_matter_keys)
        if markup == "rst":
            from ._rst import read_rst

            return read_rst(source)
        if markup == "html":
            from ._html import read_html

            return read_html(source)
    except (RecursionError, MemoryError, ValueError, IndexError, KeyError, AssertionError, TypeError) as error:
        # A reader bug must not cost the user the scan: fall back to plain text, say why.
        return read_plain(source, note=f"read as plain text: the {markup} reader failed ({type(error).__name__})")
    return read_plain(source)
