"""Emphasis delimiters (``*``, ``_``, ``~~``): paired in time linear in a line's length."""

from __future__ import annotations

import pytest

from writing_rules.prose import _inline, read_prose

from .line_count import lines_run


def prose(source: str) -> str:
    return read_prose(source, "markdown").text


def test_a_closer_pairs_with_the_nearest_opener_of_its_character() -> None:
    assert prose("An *emph* and _this_ and ~~gone~~ here.\n").split() == [
        "An",
        "emph",
        "and",
        "this",
        "and",
        "gone",
        "here.",
    ]
    assert prose("A *b _c* d_ e.\n").split() == ["A", "b", "_c", "d_", "e."]
    assert prose("snake_case_name and 2 * 3.\n").split() == ["snake_case_name", "and", "2", "*", "3."]


@pytest.mark.parametrize("unit", ["x_*", "_a***=", "*a_"])
def test_closers_that_find_no_opener_of_their_character_cost_work_in_proportion(unit: str) -> None:
    # Each closer looked back through every open opener of the other character: a line of
    # 100,000 characters such as "x_*x_*…" took 37 s to read, a megabyte about an hour.
    size = 3_000
    with lines_run(_inline) as count:
        read_prose(unit * (size // len(unit)) + "\n", "markdown")
    assert count[0] < 60 * size, count[0]
