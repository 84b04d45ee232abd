"""How the package counts text: lines end at CRLF, LF or a lone CR, and nowhere else."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from writing_rules._text_units import line_column, line_starts, lines_with_breaks, split_lines, utf16_length

# Line breaks of every kind Python knows, so the ones that must not count are exercised too.
_PARTS = ["a", "\n", "\r", "\r\n", "\x0c", "\u2028", "\x85", "\U0001f600", "\ud800"]
_TEXT = st.lists(st.sampled_from(_PARTS), max_size=30).map("".join)


@given(_TEXT)
def test_lines_end_only_at_crlf_lf_or_cr(text: str) -> None:
    lines = lines_with_breaks(text)
    assert "".join(lines) == text
    assert lines == re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+", text)
    assert [line.rstrip("\r\n") for line in lines] == split_lines(text)[0][: len(lines)]


@given(_TEXT, st.data())
def test_line_and_column_count_breaks_before_the_offset(text: str, data: st.DataObject) -> None:
    offset = data.draw(st.integers(min_value=0, max_value=len(text)))
    ends = [match.end() for match in re.finditer(r"\r\n|\r|\n", text) if match.end() <= offset]
    expected = (len(ends) + 1, offset - (ends[-1] if ends else 0) + 1)
    assert line_column(line_starts(text), offset) == expected


@given(_TEXT)
def test_utf16_length_is_what_javascript_counts(text: str) -> None:
    assert utf16_length(text) == sum(2 if ord(char) > 0xFFFF else 1 for char in text)
