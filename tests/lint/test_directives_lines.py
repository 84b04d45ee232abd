"""Directives see lines as Markdown and the tools do: a form feed or U+2028 does not end a line."""

from __future__ import annotations

import pytest

from writing_rules.lint._directives import comment_spans


@pytest.mark.parametrize("separator", ["\x0c", "\u2028", "\x85", "\x1c"])
def test_a_fence_after_a_character_that_is_no_line_break_opens_nothing(separator: str) -> None:
    text = f"Text{separator}```\n<!-- writing-rules-disable -->\n"
    start = text.index("<!--")
    assert comment_spans(text, "markdown") == [(start, len(text) - 1)]


def test_a_fence_at_a_line_start_still_hides_the_comments_inside() -> None:
    assert comment_spans("Text\n```\n<!-- writing-rules-disable -->\n", "markdown") == []
