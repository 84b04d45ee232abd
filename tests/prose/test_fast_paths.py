"""The Markdown reader's short paths read exactly what its general path reads.

Most lines of a page are blank or plain prose, and most paragraphs hold no markup: the reader
takes short paths for those. Here the same documents are read a second time with every line
through the general block path and every leaf through the full inline pass, and the two views
must agree in every text, span and map entry.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from writing_rules.prose import ProseView, _inline, _markdown
from writing_rules.prose._view import Builder

from .markdown_strategies import markdown_document
from .test_map import _ANY_TEXT


class _GeneralReader(_markdown._Reader):
    """Every line through ``_line``, as the reader did before it had short paths."""

    def _blocks(self, start: int) -> None:
        for line in _markdown._lines(self.source, start):
            self._line(*line)


def _general(source: str, mdx: bool, keys: Sequence[str] | None) -> ProseView:
    with pytest.MonkeyPatch.context() as patch:
        # No line counts as plain or as code spans only: each leaf takes the full inline pass.
        patch.setattr(_inline.Inline, "shape", lambda self, start, end: _inline.OTHER)
        # ... no leaf of unlinked brackets and words with underscores is copied as it stands,
        patch.setattr(_inline.Inline, "_reads_as_text", lambda self, lines: False)
        # ... and no line of markup in code spans only is read as a line of code spans.
        patch.setattr(
            _inline.Inline,
            "line",
            lambda self, start, end, shape: _inline.LeafText(self, self.source[start:end], [(start, end)]).run(),
        )
        return _GeneralReader(source, mdx, keys).read()


def _same(source: str) -> None:
    for mdx in (False, True):
        for keys in (("title", "description"), None):
            fast = _markdown.read_markdown(source, mdx=mdx, front_matter_keys=keys)
            slow = _general(source, mdx, keys)
            assert fast.text == slow.text
            assert fast.code_text == slow.code_text
            assert fast.prose_map == slow.prose_map
            assert fast.code_map == slow.code_map
            assert fast.code_spans == slow.code_spans
            assert fast.heading_spans == slow.heading_spans
            assert fast.table_spans == slow.table_spans


def _variants(source: str) -> list[str]:
    return [
        source,
        source.replace("\n", "\r\n"),
        source.replace("\n", "\r"),
        "> " + source.replace("\n", "\n> "),
        "- " + source.replace("\n", "\n  "),
    ]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(markdown_document())
def test_generated_markdown_reads_the_same_on_the_short_paths(source: str) -> None:
    for variant in _variants(source):
        _same(variant)


_LINES = st.lists(
    st.sampled_from(
        [
            "",
            " ",
            "plain words here",
            "Über alles",
            "import x from 'y'",
            "export const a = 1",
            "ends with two spaces  ",
            "ends with a backslash\\",
            "a https://example.com/x link",
            "see www.example.org",
            "ahttp://x.org",
            "{#id} and {.class}",
            "| a | b |",
            "|---|---|",
            "---",
            "===",
            "- item",
            "1. item",
            "> quote",
            "    indented",
            "```",
            "# heading",
            "<div>",
            "</div>",
            "$$",
            "[ref]: /x",
            "a `code` span",
            "``a ` b`` and ` c ` and `` ` ``",
            "`unclosed and `closed` ``",
            "`a` `b` `c`",
            "`  `",
            "Hello! And ] or a ~ or $5",
            "![img](x.png) and [^1] and [x] ]",
            "~~struck~~ ~one~ $$x$$ {#id} {.c} {/* c */} {x}",
            "a & b &amp; &#42; <x> <em>",
            "a *b* _c_ ~~d~~",
            "\t tab",
        ]
    ),
    max_size=12,
).map("\n".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_LINES | _ANY_TEXT)
def test_any_lines_read_the_same_on_the_short_paths(source: str) -> None:
    _same(source)


# Lines mixing code spans, brackets and other markup characters: a line whose markup characters
# all lie in its code spans is read as a line of code spans only, and one whose only markup is
# brackets that open no link (no "(" or "[" after them, no footnote, no link definition on the
# page) as plain text.
_CODE_AND_MARKUP_LINE = st.lists(
    st.sampled_from(
        [
            *"ab `\\*_~[]<>&${}!:/w.#^(",
            "``",
            "://",
            "www.",
            "&amp;",
            "<em>",
            "</em>",
            "[x](y)",
            "[x]",
            "[a][x]",
            "[^1]",
            "`a_b`",
            "a_b",
            "Z__9",
            "é_ß",
        ]
    ),
    max_size=30,
).map("".join)
# Paragraphs of such lines ("#" a heading's mark, or a line break in a paragraph), some with a
# link reference definition on the page.
_CODE_AND_MARKUP_PARAGRAPH = _CODE_AND_MARKUP_LINE | _CODE_AND_MARKUP_LINE.map(lambda line: line.replace("#", "\n"))
_CODE_AND_MARKUP = st.lists(_CODE_AND_MARKUP_PARAGRAPH | st.sampled_from(["[x]: /y", "[^1]: note"]), max_size=6).map(
    "\n\n".join
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_CODE_AND_MARKUP)
# A leaf of several lines is copied as it stands only when none of them holds other markup.
@example("a_b [x]\n&amp; _c")
@example("a_b [x]\nsee www.example.org")
@example("[x]\n[y](z)")
@example("`a_b` `c\nd`")
def test_a_line_of_code_spans_or_unlinked_brackets_reads_as_the_full_pass_reads_it(source: str) -> None:
    _same(source)


def _plain_shape(line: str) -> int:
    """What Inline.shape answers, from its definition."""
    if any(char in line for char in "\\*_~[<&${") or "://" in line or "www." in line:
        return _inline.OTHER
    return _inline.CODE if "`" in line else _inline.PLAIN


_SHAPE_TEXT = st.lists(
    st.sampled_from([*"ab \n`*_~[<&${\\:/w.", "://", "www.", "ww", "http", "Über"]), max_size=60
).map("".join)


@settings(max_examples=300, deadline=None)
@given(
    _SHAPE_TEXT,
    st.lists(st.tuples(st.integers(0, 70), st.integers(0, 20)), max_size=30),
    st.sampled_from([1, 3, 8, 8192]),
    st.sampled_from([0, 2, 32]),
    st.booleans(),
    st.booleans(),
)
def test_shape_of_a_line_is_what_the_line_holds(
    text: str, spans: list[tuple[int, int]], window: int, budget: int, in_order: bool, heap_on: bool
) -> None:
    # shape keeps where each needle next occurs across calls; lines asked in order (as a page
    # reads) or in any order, with looks that reach only a few characters, must answer as a
    # search of the line alone does.
    lines = [(min(s, len(text)), min(s + n, len(text))) for s, n in spans]
    if in_order:
        lines.sort()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_inline, "_WINDOW", window)
        inline = _inline.Inline(Builder(text), Builder(text), [], {}, False)
        inline._budget = budget
        if heap_on:  # else it turns on after a run of plain lines
            inline._latest = 0
        for start, end in lines:
            assert inline.shape(start, end) == _plain_shape(text[start:end])
