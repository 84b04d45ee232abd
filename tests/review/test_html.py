"""render_html: escaping, highlight offsets, side list, no network, determinism."""

from __future__ import annotations

import base64
import hashlib
import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules import _rules_data as data
from writing_rules.review import parse_review_response
from writing_rules.review import render_html as render_any
from writing_rules.tools import create_writing_tool_dispatcher

from .html_page import read_page


def render_html(text: str, hits: Any, **options: Any) -> str:
    """The report in its source view (``markup=None``), whose text is the document's, offset for offset.

    The reader view (the default) has its own tests in test_html_reader.py.
    """
    return render_any(text, hits, markup=None, **options)


HOSTILE = (
    "# Guide\r\n\r\nBasically <script>document.documentElement.setAttribute('data-pwned','1')</script>\n"
    "</pre><img src=x onerror=alert(1)> &amp; \"quoted\" 'single' we really utilize it.\r\n😀 Very unique.\n"
)


def signals(text: str, language: str = "en") -> list[dict[str, Any]]:
    envelope = create_writing_tool_dispatcher().dispatch(
        {"name": "find_writing_signals", "arguments": {"text": text, "language": language}}
    )
    assert envelope["ok"], envelope
    return envelope["data"]["signals"]


def hit(rule: str, start: int, end: int) -> dict[str, Any]:
    return {"ruleId": rule, "start": start, "end": end}


def assert_hits_in_place(page_html: str, text: str, hits: list[dict[str, Any]]) -> None:
    page = read_page(page_html)
    assert page.documents == [text]
    assert len(page.pieces) == len(hits)
    spans = sorted((item["start"], item["end"], item["ruleId"]) for item in hits)
    shown = sorted(
        (int(attrs["data-start"]), int(attrs["data-end"]), attrs["data-rule"]) for attrs in page.attributes.values()
    )
    assert shown == spans
    for number, attrs in page.attributes.items():
        start, end = int(attrs["data-start"]), int(attrs["data-end"])
        assert "".join(page.pieces[number]) == text[start:end]
        assert attrs["id"] == f"hit-{number}"


def test_document_markup_is_shown_as_text_and_never_becomes_markup() -> None:
    page_html = render_html(HOSTILE, signals(HOSTILE))
    assert page_html.count("<script") == 1  # the report's own script, at the end
    assert page_html.count("</pre>") == 1
    assert "<img" not in page_html
    assert "&lt;script&gt;document.documentElement" in page_html
    assert "&lt;/pre&gt;&lt;img src=x onerror=alert(1)&gt; &amp;amp; &quot;quoted&quot; &#x27;single&#x27;" in (
        page_html
    )
    page = read_page(page_html)
    assert page.documents == [HOSTILE]
    assert "img" not in page.tags


def test_every_hit_is_marked_at_its_code_point_offsets() -> None:
    found = signals(HOSTILE)
    assert len(found) >= 3
    assert_hits_in_place(render_html(HOSTILE, found), HOSTILE, found)


def test_nested_and_crossing_hits_keep_their_exact_text() -> None:
    text = "alpha beta gamma delta epsilon"
    hits = [
        hit("filler", 0, 16),  # alpha beta gamma
        hit("passive-voice", 6, 10),  # beta: nested
        hit("easy-claims", 11, 22),  # gamma delta: crosses the first
        hit("hedging", 6, 10),  # same span, another rule
        hit("filler", 30, 30),  # empty, at the end
        hit("filler", 17, 30),  # crosses the third
    ]
    page_html = render_html(text, hits)
    assert_hits_in_place(page_html, text, hits)
    page = read_page(page_html)
    crossing = next(n for n, a in page.attributes.items() if a["data-start"] == "11")
    assert len(page.pieces[crossing]) == 2  # split where the outer hit ends


def test_characters_no_page_can_hold_become_replacement_characters_in_place() -> None:
    text = "a\x00b\ud800c\rd"
    page = read_page(render_html(text, [hit("filler", 4, 5)]))
    assert page.documents == ["a\ufffdb\ufffdc\rd"]
    assert page.pieces["1"] == ["c"]


def test_a_leading_line_feed_survives_the_pre_element() -> None:
    text = "\n\nreally"
    assert read_page(render_html(text, [hit("filler", 2, 8)])).documents == [text]


def test_side_list_shows_each_rules_title_and_instruction_in_the_language() -> None:
    text = "Das ist eigentlich ganz einfach, und wir sind uns sicher."
    found = signals(text, "de")
    page_html = render_html(text, found, language="de")
    for rule_id in {item["ruleId"] for item in found}:
        texts = data.RULES[rule_id].texts["de"]
        escaped = texts.instruction.replace("&", "&amp;").replace('"', "&quot;").replace("'", "&#x27;")
        assert texts.title in page_html
        assert escaped.replace("<", "&lt;").replace(">", "&gt;") in page_html
        assert f'<input type="checkbox" checked data-rule="{rule_id}">' in page_html
    assert '<html lang="de">' in page_html and "Weiter" in page_html


def test_findings_show_explanation_and_suggestion() -> None:
    text = "We really need to utilize the tool."
    reply = {"findings": [{"ruleId": "filler", "quote": "utilize", "explanation": "Say <use>.", "suggestion": "use"}]}
    parsed = parse_review_response(json.dumps(reply), text=text, rule_ids=["filler"], max_findings=3)
    page_html = render_html(text, parsed, title="Review <1>")
    assert "Say &lt;use&gt;." in page_html and "<q>use</q>" in page_html
    assert "<title>Review &lt;1&gt;</title>" in page_html
    assert_hits_in_place(page_html, text, list(parsed.findings))


def test_no_external_resource_and_a_policy_that_allows_only_the_reports_own_code() -> None:
    page_html = render_html(HOSTILE, signals(HOSTILE))
    # The report's own markup (the document's text, escaped, sits inside <pre>).
    own = re.sub(r"<pre.*?</pre>", "", page_html, flags=re.DOTALL)
    assert not re.search(r"(?i)https?:|\bsrc=|\bhref=\"(?!#hit-)|url\(|@import|<link|<iframe|<img", own)
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page_html)
    assert policy is not None
    style = re.search(r"<style>(.*?)</style>", page_html, re.DOTALL)
    script = re.search(r"<script>(.*?)</script>", page_html, re.DOTALL)
    assert style is not None and script is not None
    for name, source in (("style-src", style.group(1)), ("script-src", script.group(1))):
        digest = base64.b64encode(hashlib.sha256(source.encode()).digest()).decode()
        assert f"{name} 'sha256-{digest}'" in policy.group(1)
    assert "default-src 'none'" in policy.group(1)


def test_same_input_same_bytes_whatever_the_order_of_hits() -> None:
    found = signals(HOSTILE)
    shuffled = found[:]
    random.Random(7).shuffle(shuffled)
    assert render_html(HOSTILE, found) == render_html(HOSTILE, shuffled)


def test_no_hits_still_shows_the_document() -> None:
    page_html = render_html("Plain text.", [])
    assert read_page(page_html).documents == ["Plain text."]
    assert "no signals or findings" in page_html


@pytest.mark.parametrize(
    ("text", "hits", "error"),
    [
        (b"bytes", [], TypeError),
        ("text", "not a list", TypeError),
        ("text", [hit("filler", 0, 9)], ValueError),
        ("text", [hit("filler", 3, 2)], ValueError),
        ("text", [{**hit("filler", 0, 2), "match": "xx"}], ValueError),
        ("text", [{"ruleId": 1, "start": 0, "end": 1}], ValueError),
        ("text", [{"ruleId": "filler", "start": True, "end": 1}], ValueError),
        ("text", [["filler", 0, 1]], TypeError),
    ],
)
def test_bad_input_raises(text: Any, hits: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        render_html(text, hits)


def test_unknown_language_raises() -> None:
    with pytest.raises(ValueError):
        render_html("text", [], language="fr")


@settings(max_examples=150, deadline=None)
@given(
    text=st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from("<>&\"'\r\n\t😀"), max_size=60),
    data=st.data(),
)
def test_any_text_and_spans_round_trip_through_the_page(text: str, data: Any) -> None:
    hits = []
    for _ in range(data.draw(st.integers(0, 6))):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, len(text)))
        hits.append(hit(data.draw(st.sampled_from(["filler", "hedging", "x<y"])), start, end))
    shown = text.replace("\x00", "\ufffd")
    page_html = render_html(text, hits)
    page = read_page(page_html)
    assert page.documents == [shown]
    assert page.ids.count("hit-1") <= 1 and len(page.ids) == len(set(page.ids))
    for number, attrs in page.attributes.items():
        start, end = int(attrs["data-start"]), int(attrs["data-end"])
        assert "".join(page.pieces[number]) == shown[start:end]
    assert len(page.attributes) == len(hits)


def test_each_rule_keeps_its_own_colour_in_every_report_and_marks_name_their_rule() -> None:
    text = "Basically, the file was written by the tool. It is simply very easy. TODO: add data."
    found = signals(text)
    rules = {signal["ruleId"] for signal in found}
    assert len(rules) >= 4
    first = render_html(text, found)
    found_marks = re.findall(r'<mark class="(r\d+)"[^>]* title="([^"]+) \(([a-z-]+)\)"', first)
    colour_of = {rule: colour for colour, _, rule in found_marks}
    # The tooltip gives the rule's title and id.
    assert all(title == data.RULES[rule].texts["en"].title for _, title, rule in found_marks)
    assert set(colour_of) == rules  # every mark's tooltip names its rule
    assert len(set(colour_of.values())) == len(rules)  # no two rules share a colour
    # Another report with only some of those rules gives each the same colour.
    one_rule = [signal for signal in found if signal["ruleId"] == sorted(rules)[-1]]
    second = render_html(text, one_rule)
    (colour,) = set(re.findall(r'<mark class="(r\d+)"', second))
    assert colour == colour_of[sorted(rules)[-1]]
    # The palette has a colour for every rule of the catalogue.
    from writing_rules.review._html_assets import PALETTE_SIZE, STYLE

    assert len(data.RULE_IDS) <= PALETTE_SIZE
    assert (
        len({re.search(rf"\.r{i} {{ background: (#[0-9a-f]+)", STYLE)[1] for i in range(PALETTE_SIZE)}) == PALETTE_SIZE
    )


def test_a_report_of_several_files_opens_with_an_index_of_them() -> None:
    from writing_rules.review import ReportDocument, render_report

    documents = [
        ReportDocument(f"docs/page-{n}.md", "A powerful tool.", tuple(signals("A powerful tool.")), "en", markup=None)
        for n in range(3)
    ]
    page = render_report(documents)
    index = page[page.index('<nav class="files"') : page.index("</nav>", page.index('<nav class="files"'))]
    assert [m for m in re.findall(r'href="#(doc-\d)">([^<]+)<', index)] == [
        (f"doc-{n}", f"docs/page-{n}.md") for n in range(3)
    ]
    # Each document's section waits in a data block until it is opened (test_html_paged.py).
    from .html_page import expand

    assert all(f'<section class="document" id="doc-{n}">' in expand(page) for n in range(3))
    single = render_report(documents[:1])
    assert '<nav class="files"' not in single
