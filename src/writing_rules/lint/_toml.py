"""Reading TOML: ``tomllib`` on Python 3.11+, ``tomli`` (a conditional dependency) on 3.10.

TOML parsers give no positions for keys, so ``KeyLines`` finds the line of a
key from the source text: good enough for an error message that names a line.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from typing import Any

__all__ = ["KeyLines", "TomlError", "parse_toml"]


_AT_LINE = re.compile(r"\(at line (\d+), column (\d+)\)")
_AT_END = re.compile(r"\(at end of document\)")
_HEADER = re.compile(r"\s*(\[\[?)\s*([^\]\n]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"""\s*("[^"\n]*"|'[^'\n]*'|[A-Za-z0-9_-]+)\s*[.=]""")


class TomlError(ValueError):
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
    try:
        return _toml.loads(source)
    except _toml.TOMLDecodeError as error:
        text = str(error)
        found = _AT_LINE.search(text)
        if found:
            line, column = int(found.group(1)), int(found.group(2))
        else:  # "at end of document": the last line
            lines = source.splitlines() or [""]
            line, column = len(lines), len(lines[-1]) + 1
        raise TomlError(_AT_END.sub("", _AT_LINE.sub("", text)).strip(), line, column) from None


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
            header = _HEADER.match(line)
            if header:
                path = tuple(_unquote(part.strip()) for part in header.group(2).split("."))
                if header.group(1) == "[[":
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
            if number > start and (_HEADER.match(text) or _KEY.match(text)):
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
