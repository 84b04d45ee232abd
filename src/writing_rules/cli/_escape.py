"""Printing names and texts that come from the files scanned, so they cannot fake output lines.

A file name may hold a line break followed by ``::error file=x.md,line=1::...``,
which GitHub Actions executes as a workflow command when it starts a line of a
step's output, or right-to-left overrides that make a line read differently
from what it holds. The text report and every message on standard error show
control characters (line breaks included), the bidirectional controls and the
line and paragraph separators as escapes (``\\n``, ``\\u202e``) instead.
"""

from __future__ import annotations

import re
from typing import Any, TextIO

__all__ = ["EscapingStream", "escape_controls"]

_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\x1b": "\\e"}


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: str) -> str:
    """``text`` with control, bidirectional-control and separator characters escaped (tabs kept)."""
    return text if text.isprintable() else _UNSAFE.sub(_escape, text)


class EscapingStream:
    """Standard error for the commands: each write is one message, its own line breaks escaped.

    A message's final line break is kept, and so is a leading carriage return (the progress
    counter rewrites its line with one).
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        end = "\n" if text.endswith("\n") else ""
        body = text[: len(text) - len(end)]
        start = "\r" if body.startswith("\r") else ""
        return self._stream.write(start + escape_controls(body[len(start) :]) + end)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
