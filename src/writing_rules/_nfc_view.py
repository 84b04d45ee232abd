"""The NFC form of a text with a map from its offsets back to the original.

Used wherever a quote is matched tolerantly (document edits with
``fuzzyMatch``, a model's review quotes): the search runs on the normalised
text and the edit or highlight lands on the original's characters.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

__all__ = ["NfcView"]

# A chunk longer than this is cut: a run of thousands of combining marks stays
# linear to normalise; NFC of such a run may then differ from a quote's.
_MAX_CHUNK = 64


@dataclass(frozen=True)
class NfcView:
    """``text`` in NFC; ``original_starts[i]`` and ``normal_starts[i]`` begin chunk ``i``.

    The text is cut into chunks that NFC normalises independently (a starter
    and what composes with it); a span that starts or ends inside a chunk
    widens to the whole chunk, since a composed character cannot be split.
    Both start lists end with the texts' lengths. They are empty when the text
    was already NFC: then offsets are the same in both.
    """

    text: str
    original_starts: tuple[int, ...]
    normal_starts: tuple[int, ...]

    @classmethod
    def of(cls, text: str) -> NfcView:
        if unicodedata.is_normalized("NFC", text):
            return cls(text, (), ())
        pieces: list[str] = []
        original: list[int] = []
        normal: list[int] = []
        size, start, length = 0, 0, len(text)
        while start < length:
            stop = start + 1
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
        """The original span of the normalised span ``[start, end)``, widened to whole chunks."""
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
