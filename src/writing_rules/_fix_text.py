"""Applying one safe fix at a hit: the rule shared by the compiler and the runtime.

The compiler (``generator/_fixes.py``) checks every declared fix with these
functions and the scanner (``tools/_fixes.py``) applies fixes with them, so a
fix behaves at run time exactly as its examples were checked. This module
imports nothing else from the package: the compiler loads it by file path.
"""

from __future__ import annotations

import re

__all__ = ["apply_case", "fix_at"]


def apply_case(replacement: str, matched: str) -> str:
    """``replacement`` in the capitalisation of ``matched``: ALL CAPS, Capitalised, or as written."""
    letters = [char for char in matched if char.isalpha()]
    if not replacement or not letters:
        return replacement
    if len(letters) > 1 and all(char.isupper() for char in letters):
        return replacement.upper()
    if letters[0].isupper():
        for index, char in enumerate(replacement):
            if char.isalpha():
                return replacement[:index] + char.upper() + replacement[index + 1 :]
    return replacement


def fix_at(regex: re.Pattern[str], template: str, text: str, start: int, end: int) -> tuple[int, str] | None:
    """(end of the replaced span, replacement) when the fix applies to the hit ``text[start:end]``.

    A fix applies when its match starts at the hit and reaches at least to the hit's end.
    """
    found = regex.match(text, start)
    if found is None or found.end() < end:
        return None
    # A template without a backslash names no group and expands to itself (Python 3.11
    # parses the template again on every expand).
    replacement = found.expand(template) if "\\" in template else template
    return found.end(), apply_case(replacement, found.group(0))
