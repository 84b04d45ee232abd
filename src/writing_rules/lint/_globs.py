"""Glob patterns relative to a config file's folder, as in ``.gitignore``.

- ``*`` and ``?`` never cross a ``/``; ``**`` spans any number of folders;
- a pattern without a ``/`` matches a file name at any depth (``*.mdx``);
- a pattern ending in ``/`` matches everything below that folder.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["glob_matches"]


@lru_cache(maxsize=512)
def _compile(pattern: str) -> re.Pattern[str]:
    anchored = "/" in pattern.rstrip("/")
    body = pattern.lstrip("/")
    if body.endswith("/"):
        body += "**"
    out = []
    index = 0
    while index < len(body):
        char = body[index]
        if body.startswith("**/", index):
            out.append("(?:[^/]*/)*")
            index += 3
            continue
        if body.startswith("**", index):
            out.append(".*")
            index += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            close = body.find("]", index + 2)
            if close < 0:
                out.append(re.escape(char))
            else:
                inner = body[index + 1 : close]
                if inner.startswith("!"):
                    inner = "^" + inner[1:]
                out.append("[" + inner.replace("\\", "\\\\") + "]")
                index = close
        else:
            out.append(re.escape(char))
        index += 1
    prefix = "" if anchored else "(?:.*/)?"
    return re.compile(prefix + "".join(out) + r"\Z", re.DOTALL)


def glob_matches(pattern: str, relative_path: str) -> bool:
    """Whether ``relative_path`` (``/``-separated, relative to the pattern's folder) matches."""
    return _compile(pattern).match(relative_path) is not None
