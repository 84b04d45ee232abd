"""The markup names the readers know, and which one a file's extension names.

Apart from the readers so that the command line and the linter can name a
file's markup without loading them: a run answered from the result cache
reads no prose.
"""

from __future__ import annotations

import os
from typing import NamedTuple

__all__ = ["FILE_TYPES", "MARKUPS", "FileType", "markup_for_path"]

MARKUPS = ("markdown", "mdx", "rst", "html", "text")


class FileType(NamedTuple):
    """What the package does with files of one extension."""

    markup: str  # the reader that reads it (one of MARKUPS)
    scanned: bool = False  # `writing-rules scan DIR` scans it without --glob
    served: bool = False  # the directory document store serves it without an include pattern


# The one table of file types: the prose readers, `scan`'s default globs and the document
# store's default files all come from it. AsciiDoc has no reader of its own: it is read as
# plain text (its markup is then prose to the scanner), and served as a prose document.
# MDX is scanned but not served by default: a site build runs its imports and expressions.
FILE_TYPES: dict[str, FileType] = {
    ".md": FileType("markdown", scanned=True, served=True),
    ".markdown": FileType("markdown", scanned=True, served=True),
    ".mdown": FileType("markdown"),
    ".mkd": FileType("markdown"),
    ".mdwn": FileType("markdown"),
    ".mdx": FileType("mdx", scanned=True),
    ".rst": FileType("rst", scanned=True, served=True),
    ".rest": FileType("rst"),
    ".adoc": FileType("text", served=True),
    ".txt": FileType("text", scanned=True, served=True),
    ".text": FileType("text"),
    ".html": FileType("html"),
    ".htm": FileType("html"),
    ".xhtml": FileType("html"),
}


def markup_for_path(path: str) -> str:
    """The markup a file's extension names; Markdown for anything else (plain prose is valid Markdown)."""
    found = FILE_TYPES.get(os.path.splitext(path)[1].lower())
    return "markdown" if found is None else found.markup
