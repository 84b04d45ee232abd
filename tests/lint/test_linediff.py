"""Changed lines between two texts (``scan --diff`` compares them itself, in about linear time)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from writing_rules.lint._linediff import changed_line_numbers

lines = st.lists(st.sampled_from(["a", "b", "c", "", "x y", "# T"]), max_size=60)


def _is_subsequence(part: list[str], whole: list[str]) -> bool:
    iterator = iter(whole)
    return all(any(line == other for other in iterator) for line in part)


@given(lines, lines)
def test_unchanged_lines_are_really_the_old_lines_in_order(before: list[str], after: list[str]) -> None:
    changed = changed_line_numbers(before, after)
    assert all(1 <= number <= len(after) for number in changed)
    kept = [line for number, line in enumerate(after, 1) if number not in changed]
    assert _is_subsequence(kept, before)  # never a changed line reported unchanged


@given(lines)
def test_the_same_text_has_no_changed_lines(text: list[str]) -> None:
    assert changed_line_numbers(text, text) == frozenset()
    assert changed_line_numbers([], text) == frozenset(range(1, len(text) + 1))


def test_an_edit_among_unique_lines_is_just_that_line() -> None:
    before = [f"line {index}" for index in range(1000)]
    after = [*before[:500], "new", *before[501:], "end"]
    assert changed_line_numbers(before, after) == {501, 1001}


def test_swapped_repeated_lines_are_counted_changed_without_quadratic_work() -> None:
    before, after = ["x", "y"] * 10_000, ["y", "x"] * 10_000
    changed = changed_line_numbers(before, after)
    kept = [line for number, line in enumerate(after, 1) if number not in changed]
    assert _is_subsequence(kept, before)
