"""The scanner's context flags on prose: built per block on demand, equal to a whole-text reading."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules.tools._text_index import _NEGATION, _QUOTE_MARKS, NEGATED, QUOTED, ProseContext, _pair_marks

_CLAUSE_END = re.compile(r"[.!?;:\r\n]")
_QUOTE_MARK_OR_LINE_END = re.compile(f"[{_QUOTE_MARKS}\n]")


def _block_quotations(text: str) -> list[tuple[int, int]]:
    """Quotation regions of a prose text, marks paired within each line (one pass over the marks)."""
    regions: list[tuple[int, int]] = []
    line: list[tuple[str, int]] = []
    for m in _QUOTE_MARK_OR_LINE_END.finditer(text):
        if m.group() != "\n":
            line.append((m.group(), m.start()))
        elif line:
            regions.extend(_pair_marks(line, m.start()))
            line = []
    regions.extend(_pair_marks(line, len(text)))
    return regions


def reference_in_quote(text: str, start: int) -> bool:
    """Whether any quotation region of the whole text (marks paired per line) holds ``start``."""
    return any(region_start <= start < region_end for region_start, region_end in _block_quotations(text))


def reference_negated(text: str, language: str, start: int, end: int) -> bool:
    """A negation word of the whole text before the hit, or (German) after it, with no clause end between."""
    for word in _NEGATION[language].finditer(text):
        if word.end() <= start and not _CLAUSE_END.search(text[word.end() : start]):
            return True
        if language == "de" and word.start() >= end and not _CLAUSE_END.search(text[end : word.start()]):
            return True
    return False


# Prose with what the flags read: quotation marks, negation words (also glued to letters and
# apostrophes), clause ends and block ends.
_PIECES = st.sampled_from(
    [
        "a",
        "Wort",
        " ",
        " not ",
        "n't",
        "n’t",
        "no",
        "never",
        "without",
        "nothing",
        "nicht",
        "keine",
        "kein",
        "niemals",
        "ohne",
        "Nie",
        '"',
        "„",
        "“",
        "”",
        "»",
        "«",
        "‚",
        "‘",
        "'",
        ".",
        ";",
        ":",
        "!",
        "?",
        "\n",
        "\r",
        "\n\n",
        "e.g.",
        "\ufffc",
    ]
)
_PROSE = st.lists(_PIECES, max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(_PROSE, st.sampled_from(("en", "de")), st.data())
def test_flags_equal_a_whole_text_reading(text: str, language: str, data: st.DataObject) -> None:
    context = ProseContext(text, language)
    # Several spans of one text, in any order, so that blocks read for one span serve the next.
    for _ in range(5):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, len(text)))
        quoted, negated = reference_in_quote(text, start), reference_negated(text, language, start, end)
        assert context.in_quote(start) == quoted
        assert context.negated(start, end) == negated
        # The scanner's one call per signal: both flags as bits, the negation only when asked.
        asked = data.draw(st.booleans())
        assert context.flags(start, end, asked) == (QUOTED if quoted else 0) | (NEGATED if asked and negated else 0)


def test_a_negation_word_in_another_block_does_not_negate() -> None:
    text = "It is not\nHIT here"
    context = ProseContext(text, "de")
    assert not context.negated(text.index("HIT"), text.index("HIT") + 3)
    assert ProseContext("HIT\nnicht", "de").negated(0, 3) is False
    assert ProseContext("HIT nicht", "de").negated(0, 3) is True


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="language"):
        ProseContext("text", "fr")


@settings(max_examples=300, deadline=None)
@given(_PROSE, st.sampled_from(("en", "de")), st.data())
def test_flags_of_many_hits_are_the_flags_of_each(text: str, language: str, data: st.DataObject) -> None:
    # The scanner asks for the flags of all reported hits in one call (mostly in order, a
    # block's tables read once); each must be what a call for that hit alone answers.
    spans = []
    for _ in range(data.draw(st.integers(0, 12))):
        start = data.draw(st.integers(0, len(text)))
        spans.append((start, data.draw(st.integers(start, len(text))), data.draw(st.booleans())))
    if data.draw(st.booleans()):
        spans.sort()
    starts, ends, asked = zip(*spans, strict=True) if spans else ((), (), ())
    expected = [ProseContext(text, language).flags(start, end, negation) for start, end, negation in spans]
    assert ProseContext(text, language).flags_of(starts, ends, asked) == expected


def test_a_hit_across_blocks_is_negated_by_a_word_after_its_end() -> None:
    # German: the word after the hit counts in the block where the hit ends, even when the
    # block where it starts holds no negation word.
    text = "Es ist HIT\nHIT nicht"
    start, end = text.index("HIT"), text.rindex("HIT") + 3
    assert ProseContext(text, "de").flags_of([start], [end], [True]) == [NEGATED]
    assert ProseContext(text, "de").flags_of([start], [end], [False]) == [0]
    assert ProseContext(text, "en").flags_of([start], [end], [True]) == [0]
