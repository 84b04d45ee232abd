"""Choosing a reader: by markup name or by a file's extension, with plain text as the fallback."""

from __future__ import annotations

import os
from collections.abc import Sequence

# The tool reads every text as Markdown (and falls back to plain text): these two readers load
# with the package, so that no tool call imports a module. The others load when first asked for.
from ._markdown import read_markdown
from ._plain import read_plain
from ._view import MARKUPS, ProseView

__all__ = ["ProseError", "markup_for_path", "read_prose"]

_EXTENSIONS = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdown": "markdown",
    ".mkd": "markdown",
    ".mdwn": "markdown",
    ".mdx": "mdx",
    ".rst": "rst",
    ".rest": "rst",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".txt": "text",
    ".text": "text",
}


class ProseError(ValueError):
    """An unknown markup name; the message lists the known ones."""


def markup_for_path(path: str) -> str:
    """The markup a file's extension names; Markdown for anything else (plain prose is valid Markdown)."""
    return _EXTENSIONS.get(os.path.splitext(path)[1].lower(), "markdown")


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
