"""Which file names count as documentation: what a document folder and ``writing-rules edit`` serve by default.

A module of its own because the command line's help text names them on every
start, and the folder policy beside them is not needed then.
"""

from __future__ import annotations

__all__ = ["DOCUMENTATION_FILES"]

DOCUMENTATION_FILES = ("*.md", "*.markdown", "*.mdx", "*.rst", "*.txt", "*.html", "*.htm", "*.adoc")
