"""The sentence a signal sits in, normalised, for baseline fingerprints."""

from __future__ import annotations

import hashlib
import re
import unicodedata

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..tools import Signal

__all__ = ["fingerprint", "sentence_around", "sentence_span"]

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n|\r\n[ \t]*\r\n|\r[ \t]*\r")
_END = re.compile(r"[.!?…](?=[\s\"'”’)\]]|\Z)")
_MARKERS = re.compile(r"(?m)^[ \t]*(?:[#>]+|[-*+]|\d+[.)])[ \t]+")
_SPACE = re.compile(r"\s+")


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence (or sentences) holding ``text[start:end]``, inside its paragraph."""
    first, last = sentence_span(text, start, end)
    return text[first:last]


def sentence_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Where ``sentence_around`` cuts: ``(first, last)`` with ``first <= start`` and ``end <= last``."""
    breaks_before = [match.end() for match in _PARAGRAPH_BREAK.finditer(text, 0, start)]
    first = breaks_before[-1] if breaks_before else 0
    following = _PARAGRAPH_BREAK.search(text, end)
    last = following.start() if following else len(text)
    ends_before = [match.end() for match in _END.finditer(text, first, start)]
    if ends_before:
        first = ends_before[-1]
    closing = _END.search(text, max(end, first), last)
    if closing:
        last = closing.end()
    return first, last


def normalise(sentence: str) -> str:
    """NFC, list/heading/quote markers dropped, runs of white space as one space."""
    sentence = _MARKERS.sub("", unicodedata.normalize("NFC", sentence))
    return _SPACE.sub(" ", sentence).strip()


def fingerprint(text: str, signal: Signal) -> str:
    """A digest of the normalised sentence around ``signal`` (not of its line or offset)."""
    sentence = normalise(sentence_around(text, signal.start, signal.end))
    return hashlib.sha256(sentence.encode("utf-8", "surrogatepass")).hexdigest()[:32]
