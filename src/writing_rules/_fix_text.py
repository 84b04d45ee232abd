"""Applying one safe fix at a hit: the rule shared by the compiler and the runtime.

The compiler (``generator/_fixes.py``) checks every declared fix with these
functions and the scanner (``tools/_fixes.py``) applies fixes with them, so a
fix behaves at run time exactly as its examples were checked. This module
imports nothing else from the package: the compiler loads it by file path.
"""

from __future__ import annotations

import re

__all__ = ["NEGATION_WORDS", "apply_case", "fix_at", "negated"]


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


# The negation words of ``tools/_text_index.py`` written plainly (that module's doc lists them),
# for the compiler's check that every fix has an example under a negation that gets no fix.
NEGATION_WORDS = {
    "en": re.compile(r"(?i)\b(?:not|no|never|none|nothing|without)\b|(?<=\w)n['\u2019]t\b"),
    "de": re.compile(r"(?i)\b(?:nicht|kein(?:e(?:[nm]|r(?:lei)?|s(?:wegs|falls)?)?)?|nie|niemals|ohne)\b"),
}
_CLAUSE_END = re.compile(r"[.!?;:\r\n]")


def negated(text: str, start: int, end: int, language: str) -> bool:
    """Whether a negation word stands before ``text[start:end]`` (in German also after it) in its clause.

    The rule of the scanner's ``negated`` flag, on a plain text: no fix is offered there.
    """
    words = NEGATION_WORDS[language]
    clause_start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, start)), default=0)
    if any(m.end() <= start for m in words.finditer(text, clause_start, start)):
        return True
    if language != "de":
        return False
    after = _CLAUSE_END.search(text, end)
    return words.search(text, end, len(text) if after is None else after.start()) is not None
