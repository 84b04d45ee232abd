"""Documents read as a reader sees them: Markdown/MDX, reStructuredText, HTML and plain text.

``read_prose(source, markup)`` returns a :class:`ProseView`: the prose of the
document (what a reader reads, with code and markup left out) and an exact map
from every prose character back to the source, plus the document's code as a
separate text. The scanner runs its patterns over the prose and reports source
positions; ``sentences`` splits the prose into sentences and counts their
visible words. No dependencies; linear time on any input.
"""

from __future__ import annotations

from ._reader import ProseError, markup_for_path, read_prose
from ._sentences import Sentence, iter_sentences, long_sentences, sentences
from ._view import CODE_PLACEHOLDER, MARKUPS, ProseView, TextMap

__all__ = [
    "CODE_PLACEHOLDER",
    "MARKUPS",
    "ProseError",
    "ProseView",
    "Sentence",
    "TextMap",
    "iter_sentences",
    "long_sentences",
    "markup_for_path",
    "read_prose",
    "sentences",
]
