"""The offset map is exact, and no input makes a reader fail, slow down or lose the map."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writing_rules.prose import MARKUPS, ProseView, read_prose

from .markdown_strategies import markdown_document


def check_map(view: ProseView) -> None:
    """Every copied prose character is its source character; spans map inside the source, in order."""
    source, text = view.source, view.text
    pm = view.prose_map
    assert pm.starts == tuple(sorted(pm.starts))
    for k, copied in enumerate(pm.copied):
        start = pm.starts[k]
        end = pm.starts[k + 1] if k + 1 < len(pm.starts) else len(text)
        if copied:
            piece = source[pm.source_starts[k] : pm.source_ends[k]]
            # A line break copied one for one reads as a space.
            assert text[start:end] == piece.replace("\n", " ")
        else:
            assert 0 <= pm.source_starts[k] <= pm.source_ends[k] <= len(source)
    previous = 0
    for offset in range(0, len(text) + 1, max(1, len(text) // 200)):
        start, end = view.source_span(offset, min(len(text), offset + 7))
        assert 0 <= start <= end <= len(source)
        assert start >= previous or text[offset - 1 : offset] == "\n"
        previous = start
    for start, end in view.code_spans:
        assert 0 <= start <= end <= len(source)


_ANY_TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=()) | st.sampled_from("\r\n\t>*_`[]()<>!&#|-:${}\\\x00\ud800"),
    max_size=300,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_ANY_TEXT, st.sampled_from(MARKUPS))
def test_any_text_reads_with_an_exact_map(source: str, markup: str) -> None:
    view = read_prose(source, markup)
    assert view.note is None
    check_map(view)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(markdown_document())
def test_generated_markdown_reads_with_an_exact_map(source: str) -> None:
    view = read_prose(source)
    check_map(view)
    # Mixed line endings read the same.
    crlf = read_prose(source.replace("\n", "\r\n"))
    assert crlf.text == view.text


HOSTILE = {
    "unclosed fence": "```\n" + "code line\n" * 20_000,
    "unclosed comment": "<!-- " * 50_000,
    "unclosed tags": '<a b="' * 30_000,
    "10,000 nested quotes": ">" * 10_000 + " deep text\n" + ">" * 10_000 + " more\n",
    "10,000 list levels": "".join("  " * level + "- item\n" for level in range(400)) + "- " * 10_000 + "x\n",
    "250,000-character line": "word " * 50_000,
    "NUL and lone surrogates": "a\x00b\ud800c \udfff d\n" * 10_000,
    "mixed line endings": "one\r\ntwo\rthree\nfour\r\n\r\nfive\r" * 10_000,
    "brackets": "[" * 100_000 + "]" * 100_000,
    "link openers": "[a](" * 50_000,
    "backticks": "`" * 1_000 + " x ".join("`" * size for size in range(1, 300)),
    "emphasis": "*a " * 80_000,
    "angle brackets": "<" * 200_000,
    "entities": "&amp" * 50_000,
    "html blocks": "<div>\n" * 50_000,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("markup", MARKUPS)
def test_hostile_documents_are_read(name: str, markup: str) -> None:
    source = HOSTILE[name]
    view = read_prose(source, markup)
    assert view.note is None
    check_map(view)


def test_deeply_nested_quote_keeps_its_text() -> None:
    source = ">" * 10_000 + " deep text\n"
    view = read_prose(source)
    assert view.text == "deep text\n"
    start, end = view.source_span(0, 9)
    assert source[start:end] == "deep text"


@pytest.mark.parametrize("markup", MARKUPS)
@pytest.mark.parametrize(
    "body",
    [
        "---\ntitle: Very simple\nkey: very simple\n---\n# Heading is simple\n\nText.\n",
        "Title\n=====\n\nText is very simple.\n",
        "<p>Text is very simple.</p>\n",
        "| a | b |\n|---|---|\n| x | `y` very simple |\n",
    ],
)
def test_a_byte_order_mark_is_markup_and_changes_nothing_else(body: str, markup: str) -> None:
    # An agent that opens a file with encoding="utf-8" passes the BOM on: the front matter, the
    # first heading, the table cells and every position must come out as for the file without it.
    plain, marked = read_prose(body, markup), read_prose("\ufeff" + body, markup)
    check_map(marked)
    moved = {"source", "prose_map", "code_map", "code_spans"}
    for name in ProseView._fields:
        if name not in moved:
            assert getattr(marked, name) == getattr(plain, name), name
    for start in range(len(plain.text)):
        shifted = tuple(offset + 1 for offset in plain.source_span(start, start + 1))
        assert marked.source_span(start, start + 1) == shifted
    assert marked.code_spans == tuple((start + 1, end + 1) for start, end in plain.code_spans)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_ANY_TEXT | markdown_document(), st.sampled_from(MARKUPS), st.data())
def test_spans_map_in_one_call_as_one_by_one(source: str, markup: str, data: st.DataObject) -> None:
    view = read_prose(source, markup)
    for text, text_map in ((view.text, view.prose_map), (view.code_text, view.code_map)):
        spans = data.draw(
            st.lists(st.tuples(st.integers(0, len(text)), st.integers(0, len(text))).map(sorted), max_size=20)
        )
        starts = [start for start, _ in spans]
        ends = [end for _, end in spans]
        assert text_map.source_spans(starts, ends) == [text_map.source_span(start, end) for start, end in spans]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_ANY_TEXT | markdown_document(), st.sampled_from(MARKUPS))
def test_a_map_that_keeps_order_never_maps_back(source: str, markup: str) -> None:
    view = read_prose(source, markup)
    for text, text_map in ((view.text, view.prose_map), (view.code_text, view.code_map)):
        if text_map.keeps_order():
            starts = [text_map.source_start(offset) for offset in range(len(text) + 1)]
            assert starts == sorted(starts)
