"""A report of several documents shows one document at a time, so a big tree's report opens quickly.

Each document's section and side list wait in a JSON data block; the page's script renders the one
the reader opens (index, keys, ``#doc-N`` / ``#hit-N``). Checked as text and in headless chromium.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules.review import ReportDocument, render_html, render_report
from writing_rules.tools import create_writing_tool_dispatcher

from .html_page import read_page
from .test_html_browser import run_browser, with_harness

_BLOCK = re.compile(r'<script type="application/json" class="doc-data"([^>]*)>(.*?)</script>', re.DOTALL)
PAGES = [
    "# One\n\nA powerful tool. It is obviously simple.\n",
    "# Two\n\nNothing to see here.\n",
    "# Three\n\nBasically, a very powerful idea.\n",
]
HOSTILE = (
    "Basically </script><script>document.documentElement.setAttribute('data-pwned','1')</script> really.\n"
    "<!-- <script> --> </SCRIPT >\n"
)


def signals(text: str) -> list[dict[str, Any]]:
    envelope = create_writing_tool_dispatcher().dispatch({"name": "find_writing_signals", "arguments": {"text": text}})
    return envelope["data"]["signals"]


def report(texts: list[str], markup: str | None = "markdown") -> str:
    documents = [
        ReportDocument(f"docs/page-{n}.md", text, tuple(signals(text)), "en", markup=markup)
        for n, text in enumerate(texts)
    ]
    return render_report(documents)


def test_documents_wait_in_data_blocks_and_the_page_holds_none_of_them() -> None:
    page = report(PAGES)
    blocks = _BLOCK.findall(page)
    assert len(blocks) == 3
    outside = _BLOCK.sub("", page)
    assert "<mark" not in outside and '<section class="document"' not in outside
    assert '<div id="view"></div>' in outside and '<div id="rules-view"></div>' in outside
    total = sum(len(signals(text)) for text in PAGES)
    assert sorted(int(number) for number in read_page(page).attributes) == list(range(1, total + 1))
    first_block = json.loads(blocks[0][1])
    assert '<section class="document" id="doc-0">' in first_block[0] and 'ol class="hits"' in first_block[1]
    # The filter counts the whole report.
    assert re.search(r'data-rule="word-choice">.*?\((\d+)\)</label>', outside).group(1) == "2"  # type: ignore[union-attr]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="</>!-scriptSCRIPT \n&\"'\\u", max_size=60), min_size=2, max_size=3))
def test_no_document_text_can_end_its_data_block(texts: list[str]) -> None:
    page = report(texts, markup=None)
    blocks = _BLOCK.findall(page)
    assert len(blocks) == len(texts)
    for _, raw in blocks:
        assert "</script" not in raw.lower() and "<!--" not in raw
        section, _ = json.loads(raw)
        assert section.startswith('<section class="document"')
    assert read_page(page).documents == texts


# Records where the report goes: the shown document, key presses across documents, an address.
PAGED = """
(function () {
  var root = document.documentElement, seen = [];
  function shown() {
    var section = document.querySelector("#view section.document");
    var mark = document.querySelector("mark.current[id]");
    return (section ? section.id : "none") + ":" + (mark ? mark.id : "none");
  }
  root.setAttribute("data-start", shown());
  for (var i = 0; i < 5; i += 1) {
    document.dispatchEvent(new KeyboardEvent("keydown", {key: "j", bubbles: true}));
    seen.push(shown());
  }
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "k", bubbles: true}));
  seen.push(shown());
  root.setAttribute("data-seen", JSON.stringify(seen));
  document.querySelectorAll("nav.files a")[1].click();
  root.setAttribute("data-clicked", shown());
  root.setAttribute("data-side", String(document.querySelectorAll("#rules-view li[data-hit]").length));
  var box = document.querySelector("fieldset.filter input[data-rule='word-choice']");
  box.checked = false;
  box.dispatchEvent(new Event("change"));
  document.querySelectorAll("nav.files a")[2].click();
  root.setAttribute("data-off", String(document.querySelectorAll("#view mark.off").length));
  root.setAttribute("data-counter", document.getElementById("counter").textContent);
})();
"""


def test_keys_walk_across_documents_and_the_index_opens_one(tmp_path: Path) -> None:
    page = report(PAGES)
    path = tmp_path / "report.html"
    path.write_text(with_harness(page, PAGED), encoding="utf-8")
    attrs = read_page(run_browser(tmp_path, path.as_uri(), "--dump-dom")).root
    assert attrs["data-start"] == "doc-0:none"
    seen = json.loads(attrs["data-seen"])
    hits = [len(signals(text)) for text in PAGES]
    assert hits[0] >= 2 and hits[1] == 0 and hits[2] >= 2
    expected = [f"doc-0:hit-{n}" for n in range(1, hits[0] + 1)]
    expected += [f"doc-2:hit-{hits[0] + n}" for n in range(1, hits[2] + 1)]
    assert hits == [2, 0, 3]  # the walk below: doc-0's two hits, then doc-2's three (doc-1 has none)
    assert seen == [*expected, expected[3]]  # five steps forward, then one back
    assert attrs["data-clicked"] == "doc-1:none" and attrs["data-side"] == "0"
    # The unticked rule stays off in a document opened later; the counter leaves its hits out.
    assert int(attrs["data-off"]) >= 1
    assert attrs["data-counter"] == f"\u2013 / {hits[2] - int(attrs['data-off'])}"


def test_an_address_opens_the_document_of_a_hit(tmp_path: Path) -> None:
    page = report(PAGES)
    last = sum(len(signals(text)) for text in PAGES)
    path = tmp_path / "report.html"
    path.write_text(page, encoding="utf-8")
    dom = run_browser(tmp_path, path.as_uri() + f"#hit-{last}", "--dump-dom")
    shown = dom[dom.index('<div id="view">') :]
    assert shown.startswith('<div id="view"><section class="document" id="doc-2">')
    assert re.search(rf'<mark class="r\d+ current" id="hit-{last}"', shown)


def test_a_hostile_document_in_a_paged_report_runs_nothing(tmp_path: Path) -> None:
    page = report([HOSTILE, PAGES[0]], markup=None)
    path = tmp_path / "report.html"
    path.write_text(page, encoding="utf-8")
    dom = run_browser(tmp_path, path.as_uri(), "--dump-dom")
    page_read = read_page(dom)
    assert "data-pwned" not in page_read.root
    shown = page_read.documents[0]
    assert shown == HOSTILE


def test_rst_roles_and_literals_keep_their_text_in_the_reader_view() -> None:
    text = (
        "Governance\n==========\n\nThe Typing Council (:pep:`729`) decides, see :rfc:`2119` and\n"
        ":ref:`the guide <guide>`. Call ``obviously_simple()`` or :func:`len` on :class:`~typing.Any`.\n\n"
        "* :pep:`484#abstract`\n"
    )
    page = render_html(text, signals(text), markup="rst")
    shown = read_page(page).documents[0]
    assert "The Typing Council (PEP 729) decides, see RFC 2119 and the guide." in shown
    assert "Call obviously_simple() or len on Any." in shown
    assert "PEP 484" in shown


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from([":pep:`8`", ":class:`~a.B`", ":func:`!f`", ":ref:`T <t>`", "``x``", "`y`", "word", " ", "\n"]),
        max_size=12,
    ),
    st.data(),
)
def test_any_rst_with_roles_renders_with_every_hit_anchored(parts: list[str], data: st.DataObject) -> None:
    text = "".join(parts)
    spans = data.draw(st.lists(st.tuples(st.integers(0, len(text)), st.integers(0, len(text))), max_size=4))
    hits = [{"ruleId": "hedging", "start": min(a, b), "end": max(a, b)} for a, b in spans]
    page = read_page(render_html(text, hits, markup="rst"))
    assert len(page.attributes) == len(hits)
    assert all(attrs["id"] == f"hit-{number}" for number, attrs in page.attributes.items())
