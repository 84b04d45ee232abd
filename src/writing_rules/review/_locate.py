"""Finding a model's quote in the document: exact first, then white-space-tolerant.

The tolerant search compares NFC-normalised text and lets each run of white
space in the quote match any run of Unicode white space (``str.isspace``) in
the document; white space at the ends of the quote is dropped, because models
add or lose it freely and it would only make one place look like several.
Every position counts, overlapping ones too: a quote found at two places is
ambiguous and is never resolved by guessing.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

__all__ = ["Location", "locate"]

_SPACE_RUN = re.compile(r"\s+")
_MAX_CHUNK = 64


@dataclass(frozen=True)
class Location:
    """Where a quote was found: ``spans`` holds every position (code-point offsets)."""

    spans: tuple[tuple[int, int], ...]


def locate(text: str, quote: str) -> Location:
    """Positions of ``quote`` in ``text``: exact ones if any, else tolerant ones (maybe none)."""
    exact = _exact(text, quote)
    if exact:
        return Location(exact)
    return Location(_tolerant(text, quote))


def _exact(text: str, quote: str) -> tuple[tuple[int, int], ...]:
    spans = []
    position = text.find(quote)
    while position != -1:
        spans.append((position, position + len(quote)))
        if len(spans) == 2:  # two are enough to call it ambiguous; "e" may match everywhere
            break
        position = text.find(quote, position + 1)
    return tuple(spans)


def _tolerant(text: str, quote: str) -> tuple[tuple[int, int], ...]:
    words = _SPACE_RUN.split(unicodedata.normalize("NFC", quote).strip())
    if words == [""]:
        return ()
    pattern = re.compile(r"\s+".join(re.escape(word) for word in words))
    view = _NfcView.of(text)
    spans: list[tuple[int, int]] = []
    match = pattern.search(view.text)
    while match is not None:
        span = view.original(match.start(), match.end())
        if span not in spans:
            spans.append(span)
            if len(spans) == 2:
                break
        match = pattern.search(view.text, match.start() + 1)
    return tuple(spans)


@dataclass(frozen=True)
class _NfcView:
    """The NFC form of a text and the map from its offsets back to the original.

    The text is cut into chunks that NFC normalises independently (a starter
    and what composes with it); a span that starts or ends inside a chunk
    widens to the whole chunk, since a composed character cannot be split.
    """

    text: str
    original_starts: tuple[int, ...]
    normal_starts: tuple[int, ...]

    @classmethod
    def of(cls, text: str) -> _NfcView:
        if unicodedata.is_normalized("NFC", text):
            return cls(text, (), ())  # the common case: offsets are the same
        pieces: list[str] = []
        original: list[int] = []
        normal: list[int] = []
        size, start, length = 0, 0, len(text)
        while start < length:
            stop = start + 1
            # The cap keeps a run of thousands of combining marks linear; NFC of
            # such a run may then differ from the quote's, and the quote is not found.
            while stop < length and stop - start < _MAX_CHUNK and not _starts_chunk(text, start, stop):
                stop += 1
            piece = unicodedata.normalize("NFC", text[start:stop])
            pieces.append(piece)
            original.append(start)
            normal.append(size)
            size += len(piece)
            start = stop
        original.append(length)
        normal.append(size)
        return cls("".join(pieces), tuple(original), tuple(normal))

    def original(self, start: int, end: int) -> tuple[int, int]:
        if not self.normal_starts:
            return start, end
        first = bisect_right(self.normal_starts, start) - 1
        last = bisect_left(self.normal_starts, end)
        return self.original_starts[first], self.original_starts[last]


def _starts_chunk(text: str, start: int, stop: int) -> bool:
    """Whether ``text[stop]`` begins a new chunk after ``text[start:stop]``."""
    char = text[stop]
    if unicodedata.combining(char):
        return False
    head = unicodedata.normalize("NFC", text[start:stop])
    return unicodedata.normalize("NFC", text[start : stop + 1]) == head + unicodedata.normalize("NFC", char)
