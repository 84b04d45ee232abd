"""The sentence a signal sits in, normalised, for baseline fingerprints."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from bisect import bisect_left, bisect_right

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..tools import Signal

__all__ = ["fingerprint", "sentence_around", "sentence_span"]

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n|\r\n[ \t]*\r\n|\r[ \t]*\r")
_END = re.compile(r"[.!?…](?=[\s\"'”’)\]]|\Z)")
_MARKS = ".!?…"
_BREAK_AT = re.compile(r"(?=\n[ \t]*\n|\r\n[ \t]*\r\n|\r[ \t]*\r)")
_MARKERS = re.compile(r"(?m)^[ \t]*(?:[#>]+|[-*+]|\d+[.)])[ \t]+")
_SPACE = re.compile(r"\s+")


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence (or sentences) holding ``text[start:end]``, inside its paragraph."""
    first, last = sentence_span(text, start, end)
    return text[first:last]


def sentence_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Where ``sentence_around`` cuts: ``(first, last)`` with ``first <= start`` and ``end <= last``."""
    return _places(text).span(start, end)


class _Places:
    """Where a text's paragraph breaks and sentence ends are, found once: each span is then two
    look-ups (searching the text from its start for each signal was quadratic in a long page)."""

    __slots__ = ("break_ends", "break_starts", "digests", "sentence_ends", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        # The ends of the breaks a left-to-right search finds, and every place one could start
        # (a search from a given place finds the first of those at or after it).
        self.break_ends = [match.end() for match in _PARAGRAPH_BREAK.finditer(text)]
        self.break_starts = [match.start() for match in _BREAK_AT.finditer(text)]
        self.sentence_ends = [match.end() for match in _END.finditer(text)]
        self.digests: dict[tuple[int, int], str] = {}  # each sentence hashed once, for all its signals

    def span(self, start: int, end: int) -> tuple[int, int]:
        text = self.text
        # The last break before ``start`` (one running past it is not one before it).
        k = bisect_right(self.break_ends, start) - 1
        first = self.break_ends[k] if k >= 0 else 0
        k = bisect_left(self.break_starts, end)
        last = self.break_starts[k] if k < len(self.break_starts) else len(text)
        # The last sentence end before ``start``: a mark just before it ends a sentence there
        # (the old search stopped at ``start`` and read the end of its text after the mark).
        if first < start and text[start - 1] in _MARKS:
            first = start
        else:
            k = bisect_left(self.sentence_ends, start) - 1
            if k >= 0 and self.sentence_ends[k] > first:
                first = self.sentence_ends[k]
        # The first sentence end after the match, inside the paragraph (a mark at its very end ends it).
        k = bisect_right(self.sentence_ends, max(end, first))
        if k < len(self.sentence_ends) and self.sentence_ends[k] <= last:
            last = self.sentence_ends[k]
        return first, last


_LAST: list[_Places] = []  # the last text's places: a report asks for every signal of one text in turn


def _places(text: str) -> _Places:
    # Read once: another thread may put its text's places there between two reads.
    last = _LAST[0] if _LAST else None
    if last is not None and last.text is text:
        return last
    places = _Places(text)
    _LAST[:] = [places]
    return places


def normalise(sentence: str) -> str:
    """NFC, list/heading/quote markers dropped, runs of white space as one space."""
    sentence = _MARKERS.sub("", unicodedata.normalize("NFC", sentence))
    return _SPACE.sub(" ", sentence).strip()


def fingerprint(text: str, signal: Signal) -> str:
    """A digest of the normalised sentence around ``signal`` (not of its line or offset)."""
    places = _places(text)
    span = places.span(signal.start, signal.end)
    digest = places.digests.get(span)
    if digest is None:
        sentence = normalise(text[span[0] : span[1]])
        digest = places.digests[span] = hashlib.sha256(sentence.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return digest
