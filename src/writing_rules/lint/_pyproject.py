"""Whether a ``pyproject.toml`` can hold a ``[tool.writing-rules]`` table, without parsing it.

Most projects have a ``pyproject.toml`` and few configure writing-rules in it;
a scan that finds one would otherwise load ``tomllib`` and parse the file
(about 3 ms, a third of a one-page scan's own time) only to learn that it does
not count. This check reads the file's structure line by line: table headers,
and keys outside any value. It answers "maybe" for anything it does not
understand (multi-line strings, ``\\u`` escapes, an unusual line), so a table
that exists is never missed; the file is then parsed as before.

A file it rules out is not parsed at all: a ``pyproject.toml`` that is not valid
TOML stops a scan only when it may hold the table (docs/linting.md says so).
"""

from __future__ import annotations

import re

__all__ = ["may_hold_table"]

_TABLE = ("tool", "writing-rules")
_KEY = r"""[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*'"""
_PARTS = re.compile(_KEY)
# A header's dotted key; one with a bracket or # in a quoted part is not matched (so: "maybe").
_HEADER = re.compile(r"[ \t]*\[\[?([^\[\]#]+)\]\]?[ \t]*(?:#.*)?")
_KEY_LINE = re.compile(rf"[ \t]*((?:{_KEY})(?:[ \t]*\.[ \t]*(?:{_KEY}))*)[ \t]*=")
# Left out before a value's brackets are counted: strings and a comment (their brackets are text).
# A string without its closing quote runs to the end of the line: each match ends where the next
# search starts, so the work is linear (a closing quote required made every quote of a line of
# escaped quotes start a scan to its end: 80,000 of them took 89 s).
_TEXT = re.compile(r"""(?:"(?:[^"\\\n]|\\.)*(?P<double>")?|'[^'\n]*(?P<single>')?|#.*)""")


def _without_text(found: re.Match[str]) -> str:
    """Nothing for a closed string or a comment; the opening quote of an unclosed string."""
    text = found.group()
    if text[0] == "#" or found.group("double") or found.group("single"):
        return ""
    return text[0]


def may_hold_table(source: str) -> bool:
    """False only when the TOML text ``source`` certainly has no ``tool.writing-rules`` key."""
    if '"""' in source or "'''" in source or "\\u" in source or "\\U" in source:
        return True  # multi-line strings can fake structure; an escape can spell the key
    table: tuple[str, ...] = ()
    depth = 0  # open brackets and braces of a value spanning lines
    for line in source.splitlines():
        rest = line
        if depth == 0:
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            header = _HEADER.fullmatch(line)
            if header is not None:
                table = _path(header.group(1))
                if table[:2] == _TABLE:
                    return True
                continue
            key = _KEY_LINE.match(line)
            if key is None:
                return True  # not a line this check understands
            if not table or table[0] == "tool":
                full = (*table, *_path(key.group(1)))
                # tool.writing-rules.x = ..., or tool = {...} / [tool] writing-rules = ... that may hold it
                if full[:2] == _TABLE or _TABLE[: len(full)] == full:
                    return True
            rest = line[key.end() :]
        brackets = _TEXT.sub(_without_text, rest)
        if '"' in brackets or "'" in brackets:
            return True  # an unclosed quote: not TOML this check can follow
        depth += brackets.count("[") + brackets.count("{") - brackets.count("]") - brackets.count("}")
        if depth < 0:
            return True
    return False


def _path(text: str) -> tuple[str, ...]:
    """A dotted key's parts, unquoted (escapes kept: no escape but ``\\u`` can spell the table's name)."""
    return tuple(part[1:-1] if part[0] in "\"'" else part for part in _PARTS.findall(text))
