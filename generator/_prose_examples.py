"""Rule examples read the way the tool reads a text: through the Markdown prose view.

A pattern's ``must_match`` and ``must_not_match`` examples are checked on the
prose of the example (``writing_rules.prose``), with every span mapped back to
the example, so an example behaves as a user sees it. Hits inside code (an
inline code span in an example) are what the tool annotates with ``inCode``
and the CLI leaves out, so they neither satisfy ``must_match`` nor break
``must_not_match``. The prose package is loaded from the source
tree by file path: it imports nothing else from the runtime, and the build must
not depend on an installed copy.
"""

from __future__ import annotations

import re
from functools import cache
from types import ModuleType

from ._runtime import load_runtime

__all__ = ["example_spans", "long_sentence_spans"]


@cache
def _prose() -> ModuleType:
    return load_runtime("prose")


def example_spans(regex: re.Pattern[str], example: str) -> tuple[list[tuple[int, int]], bool]:
    """Source spans of the pattern's non-empty matches on the example's prose, and whether any was empty."""
    view = _prose().read_prose(example, "markdown")
    spans: list[tuple[int, int]] = []
    empty = False
    for match in regex.finditer(view.text):
        if match.end() > match.start():
            spans.append(view.source_span(*match.span()))
        else:
            empty = True
    return spans, empty


def long_sentence_spans(
    example: str, language: str, max_words: int | None, max_chars: int | None, min_clauses: int | None = None
) -> list[tuple[int, int]]:
    """Source spans of the example's sentences over the limits, counted by the scanner's own counter."""
    view = _prose().read_prose(example, "markdown")
    spans = _prose().long_sentences(view.text, language, max_words, max_chars, min_clauses=min_clauses)
    return [view.source_span(*span) for span in spans]
