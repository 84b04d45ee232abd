"""occurrence_at: the occurrence number an exact operation needs to act at a given place."""

from __future__ import annotations

import re

from hypothesis import assume, given
from hypothesis import strategies as st

from writing_rules.documents import apply_operations, occurrence_at, occurrences_at

_TEXT = st.text(alphabet="ab\n", max_size=30)


@given(_TEXT, st.text(alphabet="ab\n", min_size=1, max_size=4), st.integers(min_value=0, max_value=30))
def test_the_number_counts_non_overlapping_matches_as_re_finditer_does(text: str, quote: str, start: int) -> None:
    starts = [match.start() for match in re.finditer(re.escape(quote), text)]
    expected = starts.index(start) + 1 if start in starts else None
    assert occurrence_at(text, quote, start) == expected


@given(_TEXT, st.text(alphabet="ab\n", min_size=1, max_size=4), st.data())
def test_an_operation_with_that_number_edits_exactly_that_place(text: str, quote: str, data: st.DataObject) -> None:
    places = [start for start in range(len(text)) if text.startswith(quote, start)]
    assume(places)
    start = data.draw(st.sampled_from(places))
    occurrence = occurrence_at(text, quote, start)
    if occurrence is None:  # inside an earlier non-overlapping match: no operation can reach it alone
        return
    operation = {"operation": "replaceBlock", "oldBlock": quote, "newBlock": "X", "occurrence": occurrence}
    assert apply_operations(text, [operation]) == text[:start] + "X" + text[start + len(quote) :]


def test_a_place_inside_an_earlier_match_has_no_number() -> None:
    assert occurrence_at("aaa", "aa", 0) == 1
    assert occurrence_at("aaa", "aa", 1) is None


@given(
    _TEXT,
    st.text(alphabet="ab\n", min_size=1, max_size=4),
    st.lists(st.integers(min_value=0, max_value=30), max_size=12),
)
def test_many_places_at_once_get_the_numbers_re_finditer_gives(text: str, quote: str, places: list[int]) -> None:
    # scan --fix numbers every place of a quote in one pass over the file.
    starts = [match.start() for match in re.finditer(re.escape(quote), text)]
    expected = {start: starts.index(start) + 1 for start in places if start in starts}
    assert occurrences_at(text, quote, places) == expected


def test_an_empty_quote_has_no_occurrence() -> None:
    assert occurrences_at("abc", "", [0, 1]) == {}
