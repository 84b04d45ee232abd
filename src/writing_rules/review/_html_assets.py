"""The report's inline style sheet, script and interface labels.

Both are fixed strings, so the report's Content-Security-Policy can name them
by hash: even a mistake in escaping could not make a browser run a script
that came from the document.
"""

from __future__ import annotations

__all__ = ["LABELS", "PAGED_SCRIPT", "PALETTE_SIZE", "SCRIPT", "STYLE"]

PALETTE_SIZE = 16  # one colour per rule of the catalogue, never reused (a test checks)

LABELS = {
    "en": {
        "title": "Writing review",
        "rules": "Rules",
        "previous": "Previous",
        "next": "Next",
        "keys": "Keys: j or n next, k or p previous",
        "hits": "hits",
        "hit": "hit",
        "none": "Nothing to show: no signals or findings.",
        "suggestion": "Suggestion",
        "not_scanned": "Not scanned",
        "files": "Files",
        "language": "language",
        "nav": "Navigate between hits",
        "documents": "Documents",
    },
    "de": {
        "title": "Schreibprüfung",
        "rules": "Regeln",
        "previous": "Zurück",
        "next": "Weiter",
        "keys": "Tasten: j oder n weiter, k oder p zurück",
        "hits": "Treffer",
        "hit": "Treffer",
        "none": "Nichts zu zeigen: keine Signale oder Befunde.",
        "suggestion": "Vorschlag",
        "not_scanned": "Nicht geprüft",
        "files": "Dateien",
        "language": "Sprache",
        "nav": "Zwischen Treffern springen",
        "documents": "Dokumente",
    },
}

# The buttons and keys that step through the hits, shared by the one-page and the paged script
# (each defines its own step(direction)).
_STEP_KEYS = """
  document.getElementById("next").addEventListener("click", function () { step(1); });
  document.getElementById("previous").addEventListener("click", function () { step(-1); });
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var target = event.target;
    if (target && (target.isContentEditable || /^(TEXTAREA|SELECT)$/.test(target.tagName) ||
        (target.tagName === "INPUT" && target.type !== "checkbox"))) { return; }
    if (event.key === "j" || event.key === "n") { step(1); event.preventDefault(); }
    else if (event.key === "k" || event.key === "p") { step(-1); event.preventDefault(); }
  });
"""

# Both scripts (one document, several) move through the hits with these. They read the
# script's own `view` (where the marks are), `heads` (each hit's first mark), `numbers` (their
# data-hit), `items` (data-hit -> side-list item), `counter` and `current`.
_MARKING = """
  function each(root, selector, action) { Array.prototype.forEach.call(root.querySelectorAll(selector), action); }
  function visible(index) { return !heads[index].classList.contains("off"); }
  function count() {
    var total = 0, before = 0;
    heads.forEach(function (mark, index) {
      if (visible(index)) { total += 1; if (index <= current) { before += 1; } }
    });
    var here = current >= 0 && visible(current) ? String(before) : "\\u2013";
    counter.textContent = here + " / " + total;
  }
  function mark(index, on) {
    if (index < 0 || index >= heads.length) { return; }
    each(view, "mark[data-hit='" + numbers[index] + "']", function (part) { part.classList.toggle("current", on); });
    var item = items[numbers[index]];
    if (item) { item.classList.toggle("current", on); }
  }
  function show(index) {
    mark(current, false);
    current = index;
    mark(current, true);
    heads[index].scrollIntoView({block: "center"});
    var item = items[numbers[index]];
    if (item && item.scrollIntoView) { item.scrollIntoView({block: "nearest"}); }
    count();
  }
  function showClicked(event) {
    var element = event.target.closest ? event.target.closest("mark[data-hit], ol.hits a") : null;
    if (!element) { return; }
    var number = element.getAttribute("data-hit") ||
      (element.getAttribute("href") || "").replace("#hit-", "");
    var index = numbers.indexOf(number);
    if (index >= 0 && visible(index)) { event.preventDefault(); show(index); }
  }
"""

STYLE = """
:root { color-scheme: light; --line: #d0d4da; --muted: #555c66; --current: #c2185b; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2127;
  background: #f6f7f9; }
header.top { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: .5rem 1rem;
  align-items: center; padding: .6rem 1rem; background: #fff; border-bottom: 1px solid var(--line); }
header.top h1 { font-size: 1.15rem; margin: 0; flex: 1 1 auto; overflow-wrap: anywhere; }
.nav { display: flex; align-items: center; gap: .4rem; }
.nav button { font: inherit; min-width: 2.75rem; min-height: 2.25rem; padding: .2rem .6rem; border: 1px solid
  var(--line); border-radius: .4rem; background: #fff; cursor: pointer; }
.nav button:hover, .nav button:focus-visible { border-color: #4a5563; }
.counter { min-width: 4.5rem; text-align: center; font-variant-numeric: tabular-nums; color: var(--muted); }
.keys { color: var(--muted); font-size: .85rem; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 24rem; gap: 1rem; padding: 1rem; }
main section.document { background: #fff; border: 1px solid var(--line); border-radius: .5rem;
  margin-bottom: 1rem; }
main h2 { font-size: 1rem; margin: 0; padding: .5rem .9rem; border-bottom: 1px solid var(--line);
  overflow-wrap: anywhere; }
main h2 .meta { font-weight: normal; color: var(--muted); font-size: .85rem; }
main p.failed { margin: 0; padding: .6rem .9rem; color: #8a1c1c; }
pre.doc { margin: 0; padding: .8rem .9rem; white-space: pre-wrap; overflow-wrap: anywhere; tab-size: 4;
  font: 14px/1.6 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
div.doc { padding: .3rem .9rem .6rem; line-height: 1.6; overflow-wrap: anywhere; }
div.doc p { margin: .5rem 0; }
div.doc p.heading { font-weight: 700; font-size: 1.1rem; margin-top: .9rem; }
div.doc blockquote { margin: .5rem 0; padding-left: .8rem; border-left: 3px solid var(--line); color: #3a4350; }
div.doc ul { margin: .4rem 0; padding-left: 1.4rem; }
div.doc table { border-collapse: collapse; margin: .5rem 0; }
div.doc td { border: 1px solid var(--line); padding: .2rem .5rem; vertical-align: top; }
div.doc pre { margin: .5rem 0; padding: .5rem .7rem; background: #f4f5f7; border-radius: .3rem;
  white-space: pre-wrap; overflow-wrap: anywhere; tab-size: 4;
  font: 13px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
mark { color: inherit; border-radius: 2px; cursor: pointer; }
mark mark { box-shadow: inset 0 -3px 0 rgba(0, 0, 0, .35); }
mark.current { outline: 2px solid var(--current); outline-offset: 1px; }
mark.off { background: none; box-shadow: none; cursor: auto; }
.r0 { background: #ffe08a; }
.r1 { background: #b8e0ff; }
.r2 { background: #c5efbd; }
.r3 { background: #ffc6d0; }
.r4 { background: #e0ccff; }
.r5 { background: #ffd3a8; }
.r6 { background: #b9efe6; }
.r7 { background: #e6e6a0; }
.r8 { background: #f4b6f0; }
.r9 { background: #a8d8c8; }
.r10 { background: #ffb3a1; }
.r11 { background: #c9d3ff; }
.r12 { background: #d8f0a0; }
.r13 { background: #f0c8a0; }
.r14 { background: #a0e8ff; }
.r15 { background: #e0b8c8; }
aside { align-self: start; position: sticky; top: 4rem; max-height: calc(100vh - 5rem); overflow: auto;
  background: #fff; border: 1px solid var(--line); border-radius: .5rem; padding: .6rem .9rem; }
fieldset.filter { border: 0; margin: 0 0 .6rem; padding: 0; }
fieldset.filter legend { font-weight: 600; padding: 0; margin-bottom: .3rem; }
fieldset.filter label { display: flex; gap: .45rem; align-items: center; padding: .15rem 0; cursor: pointer; }
.swatch { display: inline-block; width: .9rem; height: .9rem; border-radius: 3px; flex: none;
  border: 1px solid rgba(0, 0, 0, .2); }
section.rule { border-top: 1px solid var(--line); padding-top: .4rem; margin-top: .4rem; }
section.rule h3 { font-size: .95rem; margin: .2rem 0; }
section.rule h3 .swatch { vertical-align: -.1rem; margin-right: .35rem; }
section.rule h3 code { font-weight: normal; color: var(--muted); font-size: .8rem; white-space: nowrap; }
p.instruction { margin: .2rem 0 .4rem; color: var(--muted); font-size: .88rem; }
ol.hits { margin: 0; padding-left: 1.4rem; font-size: .9rem; }
ol.hits li { padding: .15rem .2rem; border-radius: .3rem; overflow-wrap: anywhere; }
ol.hits li.current { background: #fde7ef; }
ol.hits a { color: #1a56b0; font-variant-numeric: tabular-nums; }
ol.hits p { margin: .1rem 0; }
.off { display: none; }
mark.off { display: inline; }
p.empty { color: var(--muted); }
nav.files { background: #fff; border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .9rem;
  margin-bottom: 1rem; }
nav.files ol { margin: .2rem 0 0; padding-left: 1.4rem; columns: 2 18rem; font-size: .9rem; }
nav.files a { color: #1a56b0; overflow-wrap: anywhere; }
nav.files li.current > a { font-weight: 700; color: inherit; }
nav.files { max-height: 40vh; overflow: auto; }
@media (max-width: 800px) {
  body { font-size: 16px; }
  .layout { grid-template-columns: minmax(0, 1fr); padding: .5rem; }
  aside { position: static; max-height: none; order: -1; }
  .layout { display: flex; flex-direction: column; }
  header.top { padding: .5rem; }
  .keys { display: none; }
  pre.doc { font-size: 13px; padding: .6rem; }
  div.doc { padding: .2rem .6rem .5rem; }
}
@media print {
  body { background: #fff; font-size: 11pt; }
  header.top { position: static; border: 0; }
  .nav, .keys, fieldset.filter { display: none; }
  .layout { display: block; padding: 0; }
  aside { position: static; max-height: none; overflow: visible; border: 0; padding: 0; }
  main section.document { border: 0; break-inside: auto; }
  mark, .swatch { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  mark.current { outline: none; }
  ol.hits a { color: inherit; text-decoration: none; }
}
"""

SCRIPT = (
    """
(function () {
  "use strict";
  var heads = Array.prototype.slice.call(document.querySelectorAll("mark[id^='hit-']"));
  var items = {};
  Array.prototype.forEach.call(document.querySelectorAll("ol.hits li[data-hit]"), function (li) {
    items[li.getAttribute("data-hit")] = li;
  });
  var numbers = heads.map(function (mark) { return mark.getAttribute("data-hit"); });
  var view = document;
  var counter = document.getElementById("counter");
  var current = -1;
"""
    + _MARKING
    + """  function step(direction) {
    var total = heads.length, index = current;
    for (var tries = 0; tries < total; tries += 1) {
      index = index < 0 ? (direction > 0 ? 0 : total - 1) : (index + direction + total) % total;
      if (visible(index)) { show(index); return; }
    }
  }
"""
    + _STEP_KEYS
    + """  document.addEventListener("click", showClicked);
  Array.prototype.forEach.call(document.querySelectorAll("fieldset.filter input"), function (box) {
    box.addEventListener("change", function () {
      var rule = box.getAttribute("data-rule");
      Array.prototype.forEach.call(document.querySelectorAll("[data-rule]"), function (element) {
        if (element !== box && element.getAttribute("data-rule") === rule) {
          element.classList.toggle("off", !box.checked);
        }
      });
      if (current >= 0 && !visible(current)) { mark(current, false); current = -1; }
      count();
    });
  });
  var wanted = numbers.indexOf(location.hash.replace("#hit-", ""));
  if (wanted >= 0) { show(wanted); } else { count(); }
})();
"""
)

# A report of several documents: each document's section and side list wait in a JSON data
# block (script.doc-data) until the reader opens that document; only one is in the page at a
# time, so opening the report and every key press stay as quick as for one document.
PAGED_SCRIPT = (
    """
(function () {
  "use strict";
  var view = document.getElementById("view");
  var rulesView = document.getElementById("rules-view");
  var counter = document.getElementById("counter");
  var blocks = Array.prototype.slice.call(document.querySelectorAll("script.doc-data"));
  var fileItems = Array.prototype.map.call(document.querySelectorAll("nav.files li"), function (li) { return li; });
  var off = {};
  var shown = -1, current = -1, heads = [], numbers = [], items = {};
"""
    + _MARKING
    + """
  function filter(root) {
    each(root, "[data-rule]", function (element) {
      element.classList.toggle("off", off[element.getAttribute("data-rule")] === true);
    });
  }
  function open(index) {
    if (index === shown || index < 0 || index >= blocks.length) { return; }
    var parts = JSON.parse(blocks[index].textContent);
    view.innerHTML = parts[0];
    rulesView.innerHTML = parts[1];
    filter(view);
    filter(rulesView);
    if (fileItems[shown]) { fileItems[shown].classList.remove("current"); }
    shown = index;
    if (fileItems[shown]) { fileItems[shown].classList.add("current"); }
    heads = Array.prototype.slice.call(view.querySelectorAll("mark[id^='hit-']"));
    numbers = heads.map(function (mark) { return mark.getAttribute("data-hit"); });
    items = {};
    each(rulesView, "ol.hits li[data-hit]", function (li) { items[li.getAttribute("data-hit")] = li; });
    current = -1;
    count();
  }
  function blockOf(number) {
    for (var k = 0; k < blocks.length; k += 1) {
      var first = Number(blocks[k].getAttribute("data-first")), last = Number(blocks[k].getAttribute("data-last"));
      if (number >= first && number <= last) { return k; }
    }
    return -1;
  }
  function hasVisible(index) {
    return blocks[index].getAttribute("data-rules").split(" ").some(function (rule) {
      return rule !== "" && off[rule] !== true;
    });
  }
  function firstVisible(from, direction) {
    for (var index = from; index >= 0 && index < heads.length; index += direction) {
      if (visible(index)) { return index; }
    }
    return -1;
  }
  function step(direction) {
    var index = firstVisible(current < 0 ? (direction > 0 ? 0 : heads.length - 1) : current + direction, direction);
    if (index >= 0) { show(index); return; }
    for (var k = 1; k <= blocks.length; k += 1) {
      var next = ((shown + direction * k) % blocks.length + blocks.length) % blocks.length;
      if (hasVisible(next)) {
        open(next);
        index = firstVisible(direction > 0 ? 0 : heads.length - 1, direction);
        if (index >= 0) { show(index); }
        return;
      }
    }
  }
  function fromAddress() {
    var hit = /^#hit-(\\d+)$/.exec(location.hash), doc = /^#doc-(\\d+)$/.exec(location.hash);
    if (hit) {
      open(blockOf(Number(hit[1])));
      var index = numbers.indexOf(hit[1]);
      if (index >= 0) { show(index); }
    } else if (doc) {
      open(Number(doc[1]));
      view.scrollIntoView();
    } else if (shown < 0) {
      open(0);
    }
  }
"""
    + _STEP_KEYS
    + """  document.addEventListener("click", function (event) {
    var file = event.target.closest ? event.target.closest("nav.files a") : null;
    if (file) {
      event.preventDefault();
      open(Number((file.getAttribute("href") || "").replace("#doc-", "")));
      view.scrollIntoView();
      return;
    }
    showClicked(event);
  });
  each(document, "fieldset.filter input", function (box) {
    box.addEventListener("change", function () {
      off[box.getAttribute("data-rule")] = !box.checked;
      filter(view);
      filter(rulesView);
      if (current >= 0 && !visible(current)) { mark(current, false); current = -1; }
      count();
    });
  });
  window.addEventListener("hashchange", fromAddress);
  fromAddress();
})();
"""
)
