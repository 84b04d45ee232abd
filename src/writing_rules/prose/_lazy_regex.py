"""Regular expressions compiled at their first use, not when their module is imported.

``re`` parses a pattern in Python: the prose reader and the sentence splitter
hold about 80 module-level patterns, some 5 ms of a one-page scan's start, and
most pages use a fifth of them (HTML, front matter, tables, link definitions,
autolinks, entities and reStructuredText are rare). A ``lazy_compile``
pattern compiles when one of its attributes is first read; after that its
methods are plain attributes of the object, so a hot loop pays no more than
for a compiled pattern. Compiling reads no file, so a pattern compiled during
a tool call keeps that call free of I/O.

Two threads that race for the first use each compile the pattern and store
equal methods: the result is the same either way.
"""

from __future__ import annotations

import re
from typing import Any, cast

__all__ = ["lazy_compile"]

# What callers read of a pattern: copied from the compiled pattern on first use.
_ATTRIBUTES = (
    "findall",
    "finditer",
    "flags",
    "fullmatch",
    "groupindex",
    "groups",
    "match",
    "pattern",
    "scanner",
    "search",
    "split",
    "sub",
    "subn",
)


class _LazyPattern:
    __slots__ = ("_source", *_ATTRIBUTES)

    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        # Called only while the attribute is unset: on the first use, or for a name no pattern has.
        compiled = re.compile(*self._source)
        for attribute in _ATTRIBUTES:
            setattr(self, attribute, getattr(compiled, attribute))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_compile({self._source[0]!r}, {self._source[1]!r})"


def lazy_compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, done when the pattern is first used.

    The result reads like a compiled pattern (``match``, ``search``,
    ``finditer``, ``sub``, ``pattern`` ...) but is no ``re.Pattern`` instance:
    pass it to no ``re`` function (``re.sub(pattern, ...)``), call its methods.
    """
    # Typed as the pattern it stands for: it answers every method a caller uses.
    return cast("re.Pattern[str]", _LazyPattern(pattern, flags))
