"""The report's reader view: the document as a reader sees it, each hit marked on the words it covers."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules.review import ReportDocument, render_html, render_report
from writing_rules.tools import create_writing_tool_dispatcher

from .html_page import read_page

MARKDOWN = (
    "---\ntitle: A guide\n---\n"
    "# Install *the* tool\n\n"
    'Basically, read the [very long guide](https://example.com/secret-url "t") first\n'
    "and run `make all` to build it. It is **really** simple.\n\n"
    "- first item that is really short\n"
    "- second <span>item</span>\n\n"
    "> A quote that obviously matters.\n\n"
    "| Name | Note |\n|---|---|\n| tool | very fast |\n\n"
    "```sh\necho basically <script>alert(1)</script>\n```\n"
)


def signals(text: str) -> list[dict[str, Any]]:
    envelope = create_writing_tool_dispatcher().dispatch({"name": "find_writing_signals", "arguments": {"text": text}})
    assert envelope["ok"], envelope
    return envelope["data"]["signals"]


def shown_text(page_html: str) -> str:
    return "".join(read_page(page_html).documents)


def test_the_reader_sees_no_urls_markup_or_emphasis_marks() -> None:
    page_html = render_html(MARKDOWN, signals(MARKDOWN))
    shown = shown_text(page_html)
    for hidden in ("https://", "secret-url", "](", "**", "*the*", "# Install", "<span>", "|", "---", "title:"):
        assert hidden not in shown, hidden
    view = page_html.split('<div class="doc reader"', 1)[1].split("</div>", 1)[0]
    assert "example.com" not in view and "&lt;span" not in view
    assert "Basically, read the very long guide first and run make all to build it. It is really simple." in shown
    assert "Install the tool" in shown
    assert "first item that is really short" in shown
    assert "A quote that obviously matters." in shown


def test_blocks_keep_their_kind() -> None:
    page_html = render_html(MARKDOWN, [])
    view = page_html.split('<div class="doc reader"', 1)[1].split("</div>", 1)[0].replace("\n", "")
    assert '<p class="heading" role="heading" aria-level="3">Install the tool</p>' in view
    assert "<ul><li>first item that is really short</li><li>second item</li></ul>" in view
    assert "<blockquote><p>A quote that obviously matters.</p></blockquote>" in view
    assert "<table><tr><td>Name</td><td>Note</td></tr><tr><td>tool</td><td>very fast</td></tr></table>" in view
    # Code is shown as code, escaped: the document's script never becomes markup.
    assert "<pre><code>echo basically &lt;script&gt;alert(1)&lt;/script&gt;</code></pre>" in view
    assert page_html.count("<script") == 1


def test_every_hit_is_marked_on_its_shown_words() -> None:
    found = signals(MARKDOWN)
    assert len(found) >= 5 and len({item["ruleId"] for item in found}) >= 2
    # And hits across a link, a soft line break, a code span and strong emphasis.
    start = MARKDOWN.index("read the [")
    found.append({"ruleId": "long-sentence", "start": start, "end": MARKDOWN.index(" to build")})
    found.append({"ruleId": "hedging", "start": MARKDOWN.index("It is **"), "end": MARKDOWN.index(" simple.")})
    page = read_page(render_html(MARKDOWN, found))
    assert len(page.attributes) == len(found)
    for number, attrs in page.attributes.items():
        start, end = int(attrs["data-start"]), int(attrs["data-end"])
        assert attrs["id"] == f"hit-{number}"
        shown = "".join(page.pieces[number])
        # The mark holds the hit's words with the markup taken out (a soft break reads as a space).
        words = re.sub(r"[*_`]|\]\([^)]*\)|\[", "", MARKDOWN[start:end]).replace("\n", " ")
        assert shown == words, (attrs, shown)


def test_a_hit_inside_emphasis_and_a_link_keeps_its_words() -> None:
    text = "We do it in *order* to see [the very](https://x.example/very) best.\n"
    hits = [
        {"ruleId": "wordy-phrases", "start": text.index("in *order* to"), "end": text.index(" see")},
        {"ruleId": "intensifiers", "start": text.index("very]"), "end": text.index("very]") + 4},
        {"ruleId": "hedging", "start": text.index("https"), "end": text.index(") best")},  # only a URL
    ]
    page = read_page(render_html(text, hits))
    assert page.documents == ["\nWe do it in order to see the very best.\n"]
    pieces = {page.attributes[n]["data-rule"]: "".join(p) for n, p in page.pieces.items()}
    assert pieces == {"wordy-phrases": "in order to", "intensifiers": "very", "hedging": ""}
    assert "x.example" not in render_html(text, hits).split("<aside>", 1)[0]


def test_plain_text_shows_paragraphs_and_multi_file_reports_keep_the_index() -> None:
    text = "One line\nwrapped here.\n\nSecond paragraph, basically.\n"
    documents = [
        ReportDocument("notes.txt", text, tuple(signals(text)), "en", markup="text"),
        ReportDocument("a.md", MARKDOWN, tuple(signals(MARKDOWN)), "en"),
    ]
    page_html = render_report(documents)
    assert '<nav class="files"' in page_html and 'href="#doc-1"' in page_html
    page = read_page(page_html)
    assert page.documents[0] == "\nOne line wrapped here.\nSecond paragraph, basically.\n"


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="ab *_`[]()<>#|-\n>&\"'x:/\r1.", max_size=80), st.data())
def test_any_document_renders_escaped_with_every_hit_anchored(text: str, data: st.DataObject) -> None:
    spans = data.draw(st.lists(st.tuples(st.integers(0, len(text)), st.integers(0, len(text))), max_size=5))
    hits = [{"ruleId": "hedging", "start": min(a, b), "end": max(a, b)} for a, b in spans]
    page_html = render_html(text, hits)
    page = read_page(page_html)
    assert page.tags.count("script") == 1
    assert len(page.attributes) == len(hits)
    assert all(attrs["id"] == f"hit-{number}" for number, attrs in page.attributes.items())
