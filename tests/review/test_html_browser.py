"""The HTML report in a real browser: Debian's headless chromium.

CI installs it (``apt-get install -y chromium``) and sets ``CI=true``: there a
missing browser fails the tests. Elsewhere they skip, saying why.
Screenshots go to ``test-artifacts/`` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
from pathlib import Path
from typing import Any

import pytest

from writing_rules.review import render_html as render_any
from writing_rules.tools import TextIndex, create_writing_tool_dispatcher

from .html_page import read_page


def render_html(text: str, hits: Any, **options: Any) -> str:
    """The report in its source view (``markup=None``), whose text is the document's, offset for offset.

    The reader view (the default) has its own tests in test_html_reader.py.
    """
    return render_any(text, hits, markup=None, **options)


ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DOCUMENT = (
    "# Guide\r\n\r\nBasically, the file was written by the tool. 😀 We really utilize it.\r\n"
    "It is obviously very easy, <b>really</b> & simple.\r\n\r\n"
    "```\r\nreally in code\r\n```\r\n"
)
HOSTILE = (
    "Basically <script>document.documentElement.setAttribute('data-pwned','script')</script>\n"
    "</pre><img src=x onerror=\"document.documentElement.setAttribute('data-pwned','img')\"> really.\n"
)

# Writes, for each hit, where the browser sees it: its pieces' text joined, and the
# UTF-16 offset of its first piece in its <pre>, as JavaScript counts.
HARNESS = """
(function () {
  var marks = document.querySelectorAll("mark[data-hit]");
  var seen = {};
  Array.prototype.forEach.call(marks, function (mark) {
    var number = mark.getAttribute("data-hit");
    var head = document.getElementById("hit-" + number);
    if (!seen[number]) {
      seen[number] = "";
      var range = document.createRange();
      range.setStart(mark.closest("pre"), 0);
      range.setEndBefore(mark);
      head.setAttribute("data-dom-start", String(range.toString().length));
    }
    seen[number] += mark.textContent;
    head.setAttribute("data-dom-text", JSON.stringify(seen[number]));
  });
  document.documentElement.setAttribute("data-harness", String(marks.length));
})();
"""


def chromium() -> str:
    found = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
    if found is None:
        message = "chromium is not installed (Debian: apt-get install -y chromium)"
        if os.environ.get("CI", "").lower() in {"true", "1", "yes"}:
            pytest.fail(f"{message}; CI must install it")
        pytest.skip(message)
    return found


def run_browser(tmp_path: Path, url: str, *options: str) -> str:
    command = [
        chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--virtual-time-budget=3000",
        *options,
        url,
    ]
    done = subprocess.run(command, capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-2000:]
    return done.stdout.decode("utf-8")


def signals(text: str) -> list[dict[str, Any]]:
    envelope = create_writing_tool_dispatcher().dispatch({"name": "find_writing_signals", "arguments": {"text": text}})
    return envelope["data"]["signals"]


def with_harness(page: str, harness: str = HARNESS) -> str:
    """The page plus a test script, allowed by adding its hash to the page's policy."""
    digest = base64.b64encode(hashlib.sha256(harness.encode()).digest()).decode()
    page, count = re.subn(r"script-src ('sha256-[^']+')", rf"script-src \1 'sha256-{digest}'", page)
    assert count == 1
    return page.replace("</body>", f"<script>{harness}</script>\n</body>")


def test_each_highlight_is_where_the_offsets_say(tmp_path: Path) -> None:
    hits = signals(DOCUMENT)
    first = hits[0]
    # Crossing and nested extra hits, so the split marks are checked in the browser too.
    hits += [
        {"ruleId": "hedging", "start": first["start"] + 2, "end": first["end"] + 12},
        {"ruleId": "easy-claims", "start": first["start"], "end": first["end"]},
    ]
    path = tmp_path / "report.html"
    path.write_text(with_harness(render_html(DOCUMENT, hits)), encoding="utf-8")
    dom = run_browser(tmp_path, path.as_uri(), "--dump-dom")
    assert re.search(r'data-harness="(\d+)"', dom), "the harness did not run"
    page = read_page(dom)
    index = TextIndex(DOCUMENT, "en")
    assert len(page.attributes) == len(hits) >= 5
    for attrs in page.attributes.values():
        start, end = int(attrs["data-start"]), int(attrs["data-end"])
        assert json.loads(attrs["data-dom-text"]) == DOCUMENT[start:end]
        assert int(attrs["data-dom-start"]) == index.utf16_offset(start)


def test_a_document_with_script_shows_it_and_runs_nothing(tmp_path: Path) -> None:
    path = tmp_path / "hostile.html"
    path.write_text(render_html(HOSTILE, signals(HOSTILE)), encoding="utf-8")
    # The hash makes the report's own script select the second hit: proof that scripts do run.
    dom = run_browser(tmp_path, path.as_uri() + "#hit-2", "--dump-dom")
    page = read_page(dom)
    assert page.root.get("lang") == "en" and "data-pwned" not in page.root
    assert page.documents == [HOSTILE]
    assert page.tags.count("script") == 1 and "img" not in page.tags
    assert re.search(r'<mark class="r\d current" id="hit-2"', dom), "the report's own script did not run"
    assert re.search(r'id="counter"[^>]*>2 / \d+<', dom)


# Presses keys and unticks the first rule's box, then records what the report did.
NAVIGATION = """
(function () {
  var seen = [];
  function press(key) {
    document.dispatchEvent(new KeyboardEvent("keydown", {key: key, bubbles: true}));
    var mark = document.querySelector("mark.current[id]");
    seen.push(mark ? mark.id : "none");
  }
  press("j"); press("j"); press("k"); press("p");
  var box = document.querySelector("fieldset.filter input");
  box.checked = false;
  box.dispatchEvent(new Event("change"));
  press("n"); press("n");
  var root = document.documentElement;
  root.setAttribute("data-seen", JSON.stringify(seen));
  root.setAttribute("data-unticked", box.getAttribute("data-rule"));
  root.setAttribute("data-off", JSON.stringify(Array.prototype.map.call(
    document.querySelectorAll("mark.off"), function (mark) { return mark.getAttribute("data-rule"); })));
  root.setAttribute("data-counter", document.getElementById("counter").textContent);
})();
"""


def test_keys_move_between_hits_and_the_filter_hides_a_rule(tmp_path: Path) -> None:
    hits = signals(DOCUMENT)
    page_html = render_html(DOCUMENT, hits)
    path = tmp_path / "report.html"
    path.write_text(with_harness(page_html, NAVIGATION), encoding="utf-8")
    dom = run_browser(tmp_path, path.as_uri(), "--dump-dom")
    attrs = read_page(dom).root
    assert "data-seen" in attrs, "the navigation script did not run"
    seen = json.loads(attrs["data-seen"])
    total = len(hits)
    assert seen[:4] == ["hit-1", "hit-2", "hit-1", f"hit-{total}"]
    shown = read_page(page_html).attributes
    unticked = attrs["data-unticked"]
    assert set(json.loads(attrs["data-off"])) == {unticked}
    assert len(json.loads(attrs["data-off"])) == sum(a["data-rule"] == unticked for a in shown.values())
    for hit_id in seen[4:]:
        assert shown[hit_id.removeprefix("hit-")]["data-rule"] != unticked
    assert seen[4] != seen[5]
    visible = sum(a["data-rule"] != unticked for a in shown.values())
    assert attrs["data-counter"].endswith(f"/ {visible}")


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


@pytest.mark.parametrize(("name", "width", "height"), [("desktop", 1200, 900), ("phone", 390, 844)])
def test_screenshots_are_kept_as_artefacts(tmp_path: Path, name: str, width: int, height: int) -> None:
    text = (Path(__file__).resolve().parents[2] / "examples" / "getting-started.md").read_text(encoding="utf-8")
    text += "\n" + DOCUMENT
    path = tmp_path / "report.html"
    path.write_text(render_any(text, signals(text), title="getting-started.md"), encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / f"html-report-{name}.png"
    shot.unlink(missing_ok=True)
    # The page as it opens: headless chromium captures a scrolled page with a blank band on top.
    run_browser(tmp_path, path.as_uri(), f"--screenshot={shot}", f"--window-size={width},{height}")
    assert png_size(shot) == (width, height)
    assert shot.stat().st_size > 10_000  # a blank page compresses to far less


LAYOUT = """
(function () {
  var aside = document.querySelector("aside").getBoundingClientRect();
  var main = document.querySelector("main").getBoundingClientRect();
  document.documentElement.setAttribute("data-aside-top", String(aside.top));
  document.documentElement.setAttribute("data-main-top", String(main.top));
})();
"""


@pytest.mark.parametrize(("width", "legend_first"), [(390, True), (1200, False)])
def test_the_legend_comes_before_the_document_at_phone_width(tmp_path: Path, width: int, legend_first: bool) -> None:
    page_html = render_any(DOCUMENT, signals(DOCUMENT))  # the reader view, as the CLI writes it
    path = tmp_path / "report.html"
    path.write_text(with_harness(page_html, LAYOUT), encoding="utf-8")
    dom = run_browser(tmp_path, path.as_uri(), "--dump-dom", f"--window-size={width},900")
    attrs = read_page(dom).root
    aside_top, main_top = float(attrs["data-aside-top"]), float(attrs["data-main-top"])
    assert (aside_top < main_top) is legend_first


READER = (
    "# Guide\n\nBasically, see [the *very* long guide](https://example.com/hidden-url) first,\n"
    "it is obviously simple.\n\n- really one\n- two\n"
)


def test_the_reader_view_shows_words_not_markup_and_marks_each_hit(tmp_path: Path) -> None:
    hits = signals(READER)
    assert len(hits) >= 3
    path = tmp_path / "report.html"
    path.write_text(render_any(READER, hits), encoding="utf-8")
    dom = run_browser(tmp_path, path.as_uri(), "--dump-dom")
    page = read_page(dom)
    assert page.documents == [
        "\nGuide\nBasically, see the very long guide first, it is obviously simple.\nreally one\ntwo\n"
    ]
    assert "hidden-url" not in dom.split("<aside", 1)[0]
    assert len(page.attributes) == len(hits)
    for number, attrs in page.attributes.items():
        start, end = int(attrs["data-start"]), int(attrs["data-end"])
        assert "".join(page.pieces[number]) == READER[start:end]  # plain words: shown as written
        assert attrs["id"] == f"hit-{number}"
