"""The Markdown reader's short paths read exactly what its general path reads.

Most lines of a page are blank or plain prose, and most paragraphs hold no markup: the reader
takes short paths for those. Here the same documents are read a second time with every line
through the general block path and every leaf through the full inline pass, and the two views
must agree in every text, span and map entry.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writing_rules.prose import ProseView, _inline, _markdown

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
