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
from dataclasses import dataclass

from .._nfc_view import NfcView

__all__ = ["Location", "locate"]

_SPACE_RUN = re.compile(r"\s+")


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
    view = NfcView.of(text)
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
