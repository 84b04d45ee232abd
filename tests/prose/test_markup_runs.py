"""A run of openers that never close (``<?``, ``<!x``, ``{/*``) costs reading in proportion to its length."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules.prose import _html, _inline, read_prose

from .line_count import lines_run

_OLD_DECLARATION = re.compile(r"<![A-Za-z][^>]{0,4096}>|<\?[^>]{0,4096}\?>")
_OLD_ATTRIBUTES = re.compile(r"\{[#.][^{}\n]{0,1024}\}|\{/\*[^\n]{0,1024}?\*/\}")


class _Reads:
    """A bounded pattern that counts the characters its repeat may read at each try (its bound at most)."""

    def __init__(self, pattern: re.Pattern[str], bound: int, count: list[int]) -> None:
        self.pattern, self.bound, self.count = pattern, bound, count

    def match(self, text: str, position: int = 0, end: int | None = None) -> Any:
        stop = len(text) if end is None else min(end, len(text))
        self.count[0] += min(stop - position, self.bound)
        return self.pattern.match(text, position, stop)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pattern, name)


@contextmanager
def _work(module: Any, name: str, pattern: re.Pattern[str], bound: int) -> Iterator[list[int]]:
    """Lines run in ``module`` plus the characters read by its bounded pattern ``name``."""
    reads = [0]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, name, _Reads(pattern, bound, reads), raising=False)
        with lines_run(module) as lines:
            yield reads
        reads[0] += lines[0]


@pytest.mark.parametrize("markup", ["markdown", "html", "mdx"])
@pytest.mark.parametrize("opener", ["<?", "<!x"])
def test_a_run_of_unclosed_declarations_reads_each_character_a_few_times(markup: str, opener: str) -> None:
    # Each opener searched up to 4,096 characters ahead for its close: a 50 MB page took minutes.
    text = "Some prose. " + opener * 3000 + " and more prose."
    with _work(_html, "_DECLARATION", _OLD_DECLARATION, 4096) as work:
        view = read_prose(text, markup)
    assert "Some prose." in view.text
    assert work[0] < 60 * len(text), work[0]


def test_a_run_of_unclosed_heading_comments_reads_each_character_a_few_times() -> None:
    text = "Some prose " + "{/*" * 3000 + " and more prose.\n"
    with _work(_inline, "_ATTRIBUTES", _OLD_ATTRIBUTES, 1024) as work:
        view = read_prose(text, "markdown")
    assert "Some prose" in view.text
    assert work[0] < 60 * len(text), work[0]


_PIECES = st.sampled_from(
    [
        "<?",
        "?>",
        "<!",
        "<!x",
        "<!DOCTYPE",
        ">",
        "?",
        "a",
        " ",
        "\n",
        "{/*",
        "*/}",
        "*/",
        "{",
        "}",
        "{#",
        "{.",
        "<",
        "x",
        "-",
        "<!--",
        "-->",
        "`",
        "y" * 1021,
        "z" * 4094,
        "\n\n",
        "# ",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=40), st.sampled_from(["markdown", "html", "mdx"]))
def test_declarations_and_comments_read_as_the_bounded_patterns_read_them(pieces: list[str], markup: str) -> None:
    text = "".join(pieces)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_html, "_DECLARATION", _OLD_DECLARATION, raising=False)
        patch.setattr(_inline, "_ATTRIBUTES", _OLD_ATTRIBUTES)
        patch.setattr(_html, "declaration_end", _old_declaration_end, raising=False)
        patch.setattr(_inline, "comment_end", _old_comment_end, raising=False)
        before = read_prose(text, markup)
    assert read_prose(text, markup) == before


def _old_declaration_end(source: str, position: int, end: int, marks: Any) -> int:
    match = _OLD_DECLARATION.match(source, position, end)
    return match.end() if match else -1


def _old_comment_end(text: str, at: int, marks: Any) -> int:
    match = _OLD_ATTRIBUTES.match(text, at)
    return match.end() if match else -1


def test_long_declarations_and_comments_still_end_at_their_bound() -> None:
    inside = "q" * 4096
    assert "q" not in read_prose(f"Text <?{inside}?> end.", "html").text
    assert "q" in read_prose(f"Text <?{inside}q?> end.", "html").text
    assert "q" not in read_prose(f"Text <!D{inside}> end.", "html").text
    assert "q" in read_prose(f"Text <!D{inside}q> end.", "html").text
    assert "y" not in read_prose("Text {/* " + "y" * 1022 + " */} end.\n", "markdown").text
    assert "y" in read_prose("Text {/* " + "y" * 1023 + " */} end.\n", "markdown").text
    assert "y" in read_prose("Text {/* y\n */} end.\n", "markdown").text
