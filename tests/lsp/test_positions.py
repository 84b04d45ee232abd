"""Offsets and LSP positions: exact against a naive reference, and no work per call that grows with the line."""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("pygls", reason="the lsp extra (pygls) is a test requirement")

from writing_rules.lsp._positions import LineIndex

# Line breaks of every kind, astral characters (two UTF-16 units), plain letters.
TEXTS = st.lists(st.sampled_from(["a", "b", "\n", "\r", "\r\n", "🙂", "ä", "\u2028"]), max_size=60).map("".join)


def naive_lines(text: str) -> list[tuple[int, int]]:
    """(start, end before the line break) of each line, breaking at CRLF, LF or a lone CR."""
    lines, start, at = [], 0, 0
    while at < len(text):
        if text[at] in "\r\n":
            width = 2 if text[at : at + 2] == "\r\n" else 1
            lines.append((start, at))
            start = at = at + width
        else:
            at += 1
    lines.append((start, len(text)))
    return lines


def units(text: str) -> int:
    return sum(2 if ord(character) > 0xFFFF else 1 for character in text)


@given(TEXTS, st.data())
def test_position_and_offset_match_a_naive_reference(text: str, data: st.DataObject) -> None:
    index = LineIndex(text)
    lines = naive_lines(text)
    assert index.line_count == len(lines)
    offset = data.draw(st.integers(0, len(text)))
    line = max(number for number, (start, _) in enumerate(lines) if start <= offset)
    if offset <= lines[line][1]:  # not inside a CRLF pair
        assert index.position(offset) == (line, units(text[lines[line][0] : offset]))
    line = data.draw(st.integers(0, len(lines) - 1))
    character = data.draw(st.integers(0, 2 * (lines[line][1] - lines[line][0]) + 2))
    start, end = lines[line]
    expected = end
    for at in range(start, end + 1):  # the first offset at or past the UTF-16 unit, else the line's end
        if units(text[start:at]) >= character:
            expected = at
            break
    assert index.offset(line, character) == expected


class CountingText(str):
    """A text that counts how often one character or slice of it is taken."""

    reads = 0

    def __getitem__(self, key: object) -> str:  # type: ignore[override]
        CountingText.reads += 1
        return str.__getitem__(self, key)  # type: ignore[index]


def test_an_offset_on_a_long_line_is_found_without_walking_the_line() -> None:
    # A code action on a 4-million-character line once walked the line a character at a time.
    text = CountingText("word 🙂 " * 500_000)
    index = LineIndex(text)
    CountingText.reads = 0
    assert index.offset(0, units(text) - 1) == len(text) - 1
    assert CountingText.reads < 100


def test_a_position_on_a_long_line_copies_nothing_of_the_line() -> None:
    # Each diagnostic on a one-line document once copied the line up to its offset: quadratic in all.
    text = "word 🙂 " * 500_000
    index = LineIndex(text)
    tracemalloc.start()
    try:
        assert index.position(len(text) - 1) == (0, units(text) - 1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100_000  # the line is 7 MB as UTF-16
