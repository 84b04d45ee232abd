"""Reading TOML: ``tomllib`` on Python 3.11+, ``tomli`` (a conditional dependency) on 3.10.

TOML parsers give no positions for keys, so ``KeyLines`` finds the line of a
key from the source text: good enough for an error message that names a line.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from typing import Any

from .._errors import WritingRulesError

__all__ = ["KeyLines", "TomlError", "check_size", "parse_toml"]


_AT_LINE = re.compile(r"\(at line (\d+), column (\d+)\)")
_AT_END = re.compile(r"\(at end of document\)")
_KEY = re.compile(r"""\s*("[^"\n]*"|'[^'\n]*'|[A-Za-z0-9_-]+)\s*[.=]""")
# What a configuration file may hold before it is parsed at all: TOML parsers take time that grows
# with the square of a dotted key's parts (a key of 100,000 parts: over a minute and 7.9 GB).
_MAX_DOTS_PER_LINE = 256
_MAX_DOTS = 10_000
_TOKENS = re.compile(r"""\"\"\"|'''|\\.|["'#.\n]""", re.DOTALL)
_DIGITS = re.compile(r"\d{4301,}")  # past Python's limit for converting a decimal string to an int


def _header(line: str) -> tuple[str, str] | None:
    """``("[", name)`` or ``("[[", name)`` for a table header line, else None (linear: no regex backtracking)."""
    text = line.strip()
    if not text.startswith("["):
        return None
    opener = "[[" if text.startswith("[[") else "["
    close = text.find("]", len(opener))
    if close < 0:
        return None
    name = text[len(opener) : close].strip()
    rest = text[close + 1 :]
    if rest.startswith("]"):
        rest = rest[1:]
    rest = rest.strip()
    if not name or (rest and not rest.startswith("#")):
        return None
    return opener, name


def check_size(source: str) -> tuple[int, str] | None:
    """``(line, reason)`` when ``source`` has more dotted parts than a configuration needs, else None.

    Dots are counted outside strings and comments, in one pass over the special characters only.
    """
    total = on_line = 0
    line = 1
    quote: str | None = None  # the string being read: one of " ' """ '''
    comment = False
    for token in _TOKENS.finditer(source):
        char = token.group()
        if char.endswith("\n"):
            line += 1
            on_line = 0
            comment = False
            if quote in ('"', "'"):
                quote = None  # an unclosed one-line string: the parser reports it
            continue
        if comment:
            continue
        if quote is not None:
            if char == quote or (char[0] == "\\" and quote == "'" and char[1:] == "'"):
                quote = None
            continue
        if char == ".":
            total += 1
            on_line += 1
            if on_line > _MAX_DOTS_PER_LINE:
                return line, f"more than {_MAX_DOTS_PER_LINE} dots on one line: no key of a configuration has so many"
            if total > _MAX_DOTS:
                return line, f"more than {_MAX_DOTS:,} dots outside strings: no configuration has so many key parts"
        elif char == "#":
            comment = True
        elif char[0] != "\\":
            quote = char
    return None


class TomlError(WritingRulesError):
    """The text is not valid TOML; ``line`` and ``column`` say where (1-based), when known."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


def parse_toml(source: str) -> dict[str, Any]:
    """The TOML document as a dict; ``TomlError`` with the line when it is malformed."""
    # Loaded here, not at import: a scan that finds no configuration file never parses TOML.
    if sys.version_info >= (3, 11):
        import tomllib as _toml
    else:  # pragma: no cover - exercised on 3.10 only
        try:
            import tomli as _toml
        except ModuleNotFoundError:  # the package declares it; a broken install still gets a message
            raise TomlError("reading TOML on Python 3.10 needs the 'tomli' package (pip install tomli)", 1, 1) from None
    shape = check_size(source)
    if shape is not None:
        raise TomlError(shape[1], shape[0], 1)
    try:
        return _toml.loads(source)
    except RecursionError:
        raise TomlError("nested too deeply (arrays or inline tables inside each other)", 1, 1) from None
    except _toml.TOMLDecodeError as error:
        text = str(error)
        found = _AT_LINE.search(text)
        if found:
            line, column = int(found.group(1)), int(found.group(2))
        else:  # "at end of document": the last line
            lines = source.splitlines() or [""]
            line, column = len(lines), len(lines[-1]) + 1
        raise TomlError(_AT_END.sub("", _AT_LINE.sub("", text)).strip(), line, column) from None
    except ValueError:  # an integer of more than 4,300 digits: Python refuses to convert it
        digits = _DIGITS.search(source)
        line = source.count("\n", 0, digits.start()) + 1 if digits else 1
        raise TomlError("a number with more than 4,300 digits", line, 1) from None


def _unquote(key: str) -> str:
    return key[1:-1] if key[:1] in "\"'" and len(key) >= 2 else key


class KeyLines:
    """Where tables and keys start in a TOML source.

    A table is named by its dotted path and, for arrays of tables, the index of
    the entry: ``("tool", "writing-rules", "overrides", 2)``.
    """

    def __init__(self, source: str) -> None:
        self._source_lines = source.splitlines()
        self._lines: dict[tuple[Any, ...], int] = {}
        counts: dict[tuple[str, ...], int] = {}
        table: tuple[Any, ...] = ()
        for number, line in enumerate(source.splitlines(), 1):
            header = _header(line)
            if header:
                path = tuple(_unquote(part.strip()) for part in header[1].split("."))
                if header[0] == "[[":
                    index = counts.get(path, 0)
                    counts[path] = index + 1
                    table = (*path, index)
                else:
                    table = path
                self._lines.setdefault(table, number)
                continue
            key = _KEY.match(line)
            if key:
                self._lines.setdefault((*table, _unquote(key.group(1))), number)

    def value_line(self, path: tuple[Any, ...], value: str) -> int:
        """The line holding the string ``value`` of the array at ``path`` (an array can span lines)."""
        start = self.line(*path)
        quoted = (f'"{value}"', f"'{value}'")
        for number in range(start, len(self._source_lines) + 1):
            text = self._source_lines[number - 1]
            if number > start and (_header(text) or _KEY.match(text)):
                break  # the next key or table: the value was not written in a form found here
            if any(form in text for form in quoted):
                return number
        return start

    def line(self, *path: Any) -> int:
        """The line of the longest known prefix of ``path`` (1 when nothing is known)."""
        for size in range(len(path), 0, -1):
            found = self._lines.get(tuple(path[:size]))
            if found is not None:
                return found
        return 1


def is_table(value: object) -> bool:
    return isinstance(value, Mapping)
