"""Glob patterns relative to a config file's folder, as in ``.gitignore``.

- ``*``, ``?`` and ``[...]`` work as in ``fnmatch`` within one folder level;
- ``**`` as a whole part spans any number of folders (none included);
- a pattern without a ``/`` matches a file name at any depth (``*.mdx``);
- a pattern ending in ``/`` matches everything below that folder.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from functools import lru_cache

__all__ = ["glob_matches"]


@lru_cache(maxsize=512)
def _parts(pattern: str) -> tuple[str, ...]:
    anchored = "/" in pattern.rstrip("/")
    body = pattern.strip("/") + ("/**" if pattern.endswith("/") else "")
    parts: list[str] = [] if anchored else ["**"]
    for part in body.split("/"):
        if part and not (part == "**" and parts and parts[-1] == "**"):  # "**/**" is "**"
            parts.append(part)
    return tuple(parts)


def glob_matches(pattern: str, relative_path: str) -> bool:
    """Whether ``relative_path`` (``/``-separated, relative to the pattern's folder) matches."""
    patterns = _parts(pattern)
    parts = relative_path.split("/")
    # reachable[j]: the patterns seen so far can consume exactly parts[:j] (linear in each, no backtracking).
    reachable = [True] + [False] * len(parts)
    for part_pattern in patterns:
        if part_pattern == "**":
            seen = False
            for index in range(len(reachable)):
                seen = seen or reachable[index]
                reachable[index] = seen
        else:
            reachable = [False] + [
                reachable[index] and fnmatchcase(parts[index], part_pattern) for index in range(len(parts))
            ]
    return reachable[-1]
