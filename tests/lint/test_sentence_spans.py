"""The sentence around a signal (baseline fingerprints, excerpts): the same cut as ever, in linear time."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules.lint import _sentences, sentence_span

from ..prose.line_count import lines_run

# The cut as 0.7.0 made it, one search from the start of the text per signal: baselines written
# then hold fingerprints of these sentences, so the cut must not move.
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n|\r\n[ \t]*\r\n|\r[ \t]*\r")
_END = re.compile(r"[.!?…](?=[\s\"'”’)\]]|\Z)")


def reference_span(text: str, start: int, end: int) -> tuple[int, int]:
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


_PIECES = st.sampled_from(["a", "b ", " ", "\t", "\n", "\r", "\r\n", ".", "!", "?", "…", '"', "”", ")", "]", "x."])


@settings(max_examples=400)
@given(st.lists(_PIECES, max_size=40).map("".join), st.data())
def test_the_cut_is_the_one_baselines_were_written_with(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    assert sentence_span(text, start, end) == reference_span(text, start, end)


def test_every_signal_of_a_long_page_costs_work_independent_of_its_place() -> None:
    # Each signal searched the text from its start for the paragraph and the sentence it sits
    # in: a page of 20,000 lines without a blank one took five minutes to fingerprint.
    lines = 2_000
    text = "It is obviously simple.\n" * lines
    with lines_run(_sentences) as count:
        spans = [sentence_span(text, at, at + 9) for at in range(6, len(text), 24)]
    assert spans[-1] == (len(text) - 25, len(text) - 1)  # from the line break after the last full stop
    assert count[0] < 100 * lines, count[0]


def test_a_text_is_never_cut_with_the_places_of_another_text_read_at_the_same_time() -> None:
    # Linting runs in threads (the language server's worker, a host's own): another text's places
    # may replace the remembered ones between looking at them and using them.
    first, other = "One. Two.", "A much longer text. With more in it."

    class Replaced(list[_sentences._Places]):
        def __getitem__(self, index: Any) -> Any:
            found = super().__getitem__(index)
            super().__setitem__(0, _sentences._Places(other))  # another thread's text, meanwhile
            return found

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_sentences, "_LAST", Replaced([_sentences._Places(first)]))
        assert sentence_span(first, 5, 8) == reference_span(first, 5, 8)
