"""The markup names the readers know, and which one a file's extension names.

Apart from the readers so that the command line and the linter can name a
file's markup without loading them: a run answered from the result cache
reads no prose.
"""

from __future__ import annotations

import os

__all__ = ["MARKUPS", "markup_for_path"]

MARKUPS = ("markdown", "mdx", "rst", "html", "text")

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


def markup_for_path(path: str) -> str:
    """The markup a file's extension names; Markdown for anything else (plain prose is valid Markdown)."""
    return _EXTENSIONS.get(os.path.splitext(path)[1].lower(), "markdown")
