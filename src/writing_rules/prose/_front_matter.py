"""Front matter: a YAML (``---``) or TOML (``+++``) block opening a document.

Only the values of the prose keys (by default ``title`` and ``description``)
are prose, each a block of its own; keys, other values and the fences are
markup. Values are read as a reader of the rendered page sees them: quotes
are not part of the text, a folded or literal block scalar is one paragraph.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._lazy_regex import lazy_compile
from ._view import Builder

__all__ = ["read_front_matter"]

_OPEN = lazy_compile(r"(---|\+\+\+)[ \t]*(?:\r\n|\r|\n)")
_LINE = lazy_compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")
_KEY = {
    "---": lazy_compile(r"([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+|$)"),
    "+++": lazy_compile(r"([A-Za-z_][\w-]*)[ \t]*=[ \t]*"),
}
_MAX_LINES = 2_000


def read_front_matter(source: str, prose: Builder, keys: Sequence[str] | None) -> int:
    """Emit the prose values of the front matter at the start of ``source``; returns where the body starts.

    ``keys`` None: the text has no front matter (a later piece of a long file).
    """
    opened = _OPEN.match(source) if keys is not None else None
    if opened is None or keys is None:
        return 0
    fence = opened[1]
    lines: list[tuple[int, int]] = []
    position = opened.end()
    body = -1
    for _ in range(_MAX_LINES):
        if position >= len(source):
            break
        m = _LINE.match(source, position)
        assert m is not None
        content_end = m.start() + len(m.group().rstrip("\r\n"))
        stripped = source[m.start() : content_end].rstrip(" \t")
        if stripped == fence or (fence == "---" and stripped == "..."):
            body = m.end()
            break
        lines.append((m.start(), content_end))
        position = m.end()
    if body < 0:
        return 0  # no closing fence: not front matter
    wanted = set(keys)
    key_pattern = _KEY[fence]
    k = 0
    while k < len(lines):
        start, end = lines[k]
        k += 1
        m = key_pattern.match(source, start, end)
        if m is None or m[1] not in wanted:
            continue
        value_start, value_end = m.end(), end
        value = source[value_start:value_end].strip()
        if fence == "---" and value[:1] in ("|", ">") and value.rstrip("-+0123456789") in ("|", ">"):
            # A block scalar: the indented lines that follow.
            while k < len(lines) and (lines[k][0] == lines[k][1] or source[lines[k][0]] in " \t"):
                s, e = lines[k]
                while s < e and source[s] in " \t":
                    s += 1
                if s < e:
                    if prose.last_char() not in "\n ":
                        prose.put(" ", s, s)
                    prose.copy(s, e)
                k += 1
            prose.boundary()
            continue
        _value(source, prose, value_start, value_end, fence)
        prose.boundary()
    return body


def _value(source: str, prose: Builder, start: int, end: int, fence: str) -> None:
    while start < end and source[start] in " \t":
        start += 1
    while end > start and source[end - 1] in " \t":
        end -= 1
    if end - start >= 2 and source[start] in "\"'" and source[end - 1] == source[start]:
        start, end = start + 1, end - 1
    elif fence == "---":
        comment = source.find(" #", start, end)
        if comment >= 0:
            end = comment
    prose.copy(start, end)
