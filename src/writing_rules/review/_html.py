"""A self-contained HTML report of signals or findings, highlighted in the document.

Escaping
    Every character of the document goes through ``html.escape``; a carriage
    return is written as ``&#13;`` (the HTML parser would turn a raw one into a
    line feed), so the page's text is the document's, code point for code
    point. Two characters no HTML page can hold become U+FFFD (same length, so
    offsets still hold): NUL and lone surrogates. A line feed right after
    ``<pre>`` is dropped by the parser, so one is always written there.

Overlapping hits
    Hits are opened in document order, a longer hit before a shorter one that
    starts at the same place, so a hit inside another nests inside its mark.
    Hits that cross are split: where the inner one must close, the marks above
    it close and reopen. The first piece of a hit carries ``id="hit-N"``; every
    piece carries ``data-hit="N"``, ``data-rule``, ``data-start`` and
    ``data-end`` (code-point offsets), so the pieces of a hit, read in order,
    are exactly ``text[start:end]``.

No network
    No external resource, and a Content-Security-Policy that allows only the
    report's own style sheet and script, by hash.

Reports of several documents render one document at a time
    A tree of 750 files made a 9 MB page that the browser laid out whole
    (about 5 s to open) and whose script went over every hit at each key
    press (30 ms with 4,300 hits, about 1 s on a larger tree). A report of several
    documents therefore carries each document's section (and its part of the
    side list) as JSON in a ``<script type="application/json">`` data block,
    which the browser stores as text without parsing it as HTML, and its
    script shows the file the reader opens from the index (or reaches with
    the keys, or names in the address: ``#doc-N``, ``#hit-N``). The JSON
    writes ``</`` as ``<\\/`` and ``<!--`` as ``\\u003c!--``, so no text inside
    can end the block; what it holds is the same escaped HTML a one-document
    page shows.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from .._catalog import Catalog, rule_source
from ..tools import TextIndex
from ._html_assets import LABELS, PAGED_SCRIPT, PALETTE_SIZE, SCRIPT, STYLE
from ._parse import ReviewParse
from ._reader_view import reader_blocks

__all__ = ["ReportDocument", "render_html", "render_report"]

_UNREPRESENTABLE = re.compile("[\x00\ud800-\udfff]")
_QUOTE_LIMIT = 90


@dataclass(frozen=True)
class ReportDocument:
    """One document of a report: its text and hits, or why it could not be read."""

    label: str | None
    text: str | None
    hits: tuple[Mapping[str, Any], ...] = ()
    language: str = "en"
    error: str | None = None
    # How to read ``text`` for the reader view (a ``writing_rules.prose`` markup name);
    # None shows the source as written.
    markup: str | None = "markdown"


@dataclass(frozen=True)
class _Hit:
    number: int
    rule_id: str
    start: int
    end: int
    line: int
    column: int
    document: int
    match: str
    explanation: str | None
    suggestion: str | None


def render_html(
    text: str,
    signals_or_findings: ReviewParse | Iterable[Mapping[str, Any]],
    *,
    language: str = "en",
    title: str | None = None,
    markup: str | None = "markdown",
) -> str:
    """One self-contained HTML page showing ``text`` with each signal or finding highlighted.

    ``markup``: how the document is shown: read as this markup, as a reader
    sees it (headings, paragraphs, lists, tables, code blocks; no link URLs or
    emphasis marks), or None for the source as written.

    ``signals_or_findings``: signals from ``find_writing_signals``, located
    findings, or a ``ReviewParse``; each needs ``ruleId``, ``start`` and
    ``end`` (code points), and ``match`` when present must equal
    ``text[start:end]`` (else ``ValueError``). Rule titles and instructions,
    and the page's labels, are in ``language``. The same input gives the same
    bytes.
    """
    items = signals_or_findings
    if isinstance(items, ReviewParse):
        items = items.findings
    if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Iterable):
        raise TypeError("signals_or_findings must be a list of signals or findings, or a ReviewParse")
    document = ReportDocument(None, text, tuple(items), language, markup=markup)
    return render_report([document], language=language, title=title)


# The rules a report names (the built-in ones, or a catalogue with a team's packs), while it renders.
_RULES: ContextVar[Catalog | None] = ContextVar("writing_rules_report_rules", default=None)


def _data() -> Catalog:
    return rule_source(_RULES.get())


def render_report(
    documents: Sequence[ReportDocument],
    *,
    language: str = "en",
    title: str | None = None,
    catalog: Catalog | None = None,
) -> str:
    """The report for several documents: one section each, one side list and navigation for all.

    ``catalog`` (``writing_rules.packs.catalog_for``) names the rules of the packs the hits
    may come from, with their titles and instructions; None: the built-in rules.
    """
    token = _RULES.set(catalog)
    try:
        return _render_report(documents, language, title)
    finally:
        _RULES.reset(token)


def _render_report(documents: Sequence[ReportDocument], language: str, title: str | None) -> str:
    if language not in LABELS:
        raise ValueError(f"language must be 'en' or 'de', not {language!r}")
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a str or None, not {type(title).__name__}")
    labels = LABELS[language]
    hits: list[_Hit] = []
    per_document: list[list[_Hit]] = []
    for position, document in enumerate(documents):
        found = _hits(document, position, len(hits)) if document.text is not None else []
        hits.extend(found)
        per_document.append(found)
    rule_ids = _rule_order(hit.rule_id for hit in hits)
    # A rule's colour is its place in the catalogue: the same in every report, and no two
    # rules share one (the palette has a colour for every rule).
    catalogue = {rule_id: position for position, rule_id in enumerate(_data().RULE_IDS)}
    colours = {rule_id: catalogue.get(rule_id, 0) % PALETTE_SIZE for rule_id in rule_ids}
    # The tooltip of a mark names its rule: title and id.
    tips = {rule_id: f"{_title(rule_id, language)} ({rule_id})" for rule_id in rule_ids}
    page_title = title if title is not None else labels["title"]
    labels_shown = [document.label for document in documents]
    script = SCRIPT
    if len(documents) > 1:
        # One document at a time (see the module's docstring): the index, a view, the data blocks.
        script = PAGED_SCRIPT
        sections = [_file_index(documents, per_document, labels), '<div id="view"></div>\n']
        for number, (document, found) in enumerate(zip(documents, per_document, strict=True)):
            section = _document_section(document, found, colours, labels, number, tips)
            side = _rule_sections(found, _rule_order(hit.rule_id for hit in found), colours, language, labels_shown)
            sections.append(_data_block(number, found, section, side))
        aside = _paged_aside(hits, rule_ids, colours, language, labels)
    else:
        sections = [
            _document_section(document, found, colours, labels, number, tips)
            for number, (document, found) in enumerate(zip(documents, per_document, strict=True))
        ]
        aside = _aside(hits, rule_ids, colours, language, labels, labels_shown)
    return "".join(
        (
            "<!DOCTYPE html>\n",
            f'<html lang="{_attr(language)}">\n<head>\n<meta charset="utf-8">\n',
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
            '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; ',
            f"style-src '{_digest(STYLE)}'; script-src '{_digest(script)}'; ",
            "base-uri 'none'; form-action 'none'\">\n",
            '<meta name="referrer" content="no-referrer">\n',
            f"<title>{_text(page_title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
            f'<header class="top"><h1>{_text(page_title)}</h1>',
            f'<span class="keys">{labels["keys"]}</span>',
            f'<nav class="nav" aria-label="{labels["nav"]}">',
            f'<button type="button" id="previous" title="{labels["previous"]} (k, p)" ',
            f'aria-label="{labels["previous"]}">\u25b2</button>',
            f'<span class="counter" id="counter" aria-live="polite">\u2013 / {len(hits)}</span>',
            f'<button type="button" id="next" title="{labels["next"]} (j, n)" ',
            f'aria-label="{labels["next"]}">\u25bc</button></nav></header>\n',
            '<div class="layout">\n<main>\n',
            *sections,
            "</main>\n",
            aside,
            "</div>\n",
            f"<script>{script}</script>\n</body>\n</html>\n",
        )
    )


def _data_block(number: int, hits: Sequence[_Hit], section: str, side: str) -> str:
    """One document's section and side list as a JSON data block the page's script renders on demand."""
    import json

    payload = json.dumps([section, side], ensure_ascii=False)
    # "</" as "<\\/" (a JSON escape of "/"): no "</script" can close the block; "<!--" as
    # "\\u003c!--": none can put the tokenizer into its escaped state. Nothing else ends script data.
    payload = payload.replace("</", "<\\/").replace("<!--", "\\u003c!--")
    first = hits[0].number if hits else 0
    last = hits[-1].number if hits else -1
    rules = " ".join(_rule_order(hit.rule_id for hit in hits))
    return (
        f'<script type="application/json" class="doc-data" id="data-{number}" data-first="{first}" '
        f'data-last="{last}" data-rules="{_attr(rules)}">{payload}</script>\n'
    )


def _digest(source: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(source.encode("utf-8")).digest()).decode("ascii")


def _text(value: str) -> str:
    """``value`` escaped for element content, every character kept or visibly replaced."""
    escaped = html.escape(value, quote=True).replace("\r", "&#13;")
    return _UNREPRESENTABLE.sub("\ufffd", escaped)


def _attr(value: str) -> str:
    return _text(value)


def _rule_order(rule_ids: Iterable[str]) -> list[str]:
    present = set(rule_ids)
    known = [rule_id for rule_id in _data().RULE_IDS if rule_id in present]
    return known + sorted(present - set(known))


def _hits(document: ReportDocument, position: int, first_number: int) -> list[_Hit]:
    text = document.text
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    index = TextIndex(text, document.language if document.language in LABELS else "en")
    spans = []
    for number, item in enumerate(document.hits):
        if not isinstance(item, Mapping):
            raise TypeError(f"hit {number} must be a mapping, not {type(item).__name__}")
        rule_id, start, end = item.get("ruleId"), item.get("start"), item.get("end")
        if not isinstance(rule_id, str):
            raise ValueError(f"hit {number}: ruleId must be a str")
        if not all(isinstance(value, int) and not isinstance(value, bool) for value in (start, end)):
            raise ValueError(f"hit {number}: start and end must be ints (code-point offsets)")
        assert isinstance(start, int) and isinstance(end, int)
        if not 0 <= start <= end <= len(text):
            raise ValueError(f"hit {number}: span {start}..{end} is not inside the text (0..{len(text)})")
        if "match" in item and item["match"] != text[start:end]:
            raise ValueError(f"hit {number}: match is not the text at {start}..{end}")
        explanation, suggestion = item.get("explanation"), item.get("suggestion")
        spans.append(
            (
                start,
                end,
                rule_id,
                explanation if isinstance(explanation, str) else None,
                suggestion if isinstance(suggestion, str) else None,
            )
        )
    order = {rule_id: rank for rank, rule_id in enumerate(_data().RULE_IDS)}
    spans.sort(key=lambda span: (span[0], span[1], order.get(span[2], len(order)), span[2]))
    hits = []
    for offset, (start, end, rule_id, explanation, suggestion) in enumerate(spans):
        line, column = index.line_column(start)
        hits.append(
            _Hit(
                first_number + offset + 1,
                rule_id,
                start,
                end,
                line,
                column,
                position,
                text[start:end],
                explanation,
                suggestion,
            )
        )
    return hits


def _open(hit: _Hit, colour: int, first: bool, tip: str) -> str:
    anchor = f' id="hit-{hit.number}"' if first else ""
    # The tooltip names the rule (its id is in data-rule for scripts).
    return (
        f'<mark class="r{colour}"{anchor} title="{_attr(tip)}" data-hit="{hit.number}" '
        f'data-rule="{_attr(hit.rule_id)}" data-start="{hit.start}" data-end="{hit.end}">'
    )


def _file_index(
    documents: Sequence[ReportDocument], per_document: Sequence[list[_Hit]], labels: Mapping[str, str]
) -> str:
    """A list of the report's files with their hit counts, each a link to its section."""
    items = []
    for number, (document, found) in enumerate(zip(documents, per_document, strict=True)):
        name = _text(document.label or f"{number + 1}")
        count = len(found)
        items.append(
            f'<li><a href="#doc-{number}">{name}</a> '
            f'<span class="meta">({count} {labels["hit"] if count == 1 else labels["hits"]})</span></li>'
        )
    files = labels["files"]
    return f'<nav class="files" aria-label="{files}"><strong>{files}</strong><ol>{"".join(items)}</ol></nav>\n'


def _marked(
    text: str,
    placed: Sequence[tuple[_Hit, int, int]],
    colours: Mapping[str, int],
    tips: Mapping[str, str],
    anchored: set[int] | None = None,
) -> str:
    """``text`` escaped, with nested (and where hits cross, split) marks.

    ``placed``: each hit with its span in ``text``. ``anchored``: hits whose
    ``id`` was already written (a hit shown over several blocks has one).
    """
    done: set[int] = set() if anchored is None else anchored
    ends = {hit.number: end for hit, _, end in placed}
    opening: dict[int, list[tuple[_Hit, int, int]]] = {}
    for item in placed:
        opening.setdefault(item[1], []).append(item)
    positions = sorted({start for _, start, _ in placed} | set(ends.values()))
    out: list[str] = []
    stack: list[_Hit] = []
    previous = 0

    def open_mark(hit: _Hit) -> str:
        first = hit.number not in done
        done.add(hit.number)
        return _open(hit, colours[hit.rule_id], first, tips.get(hit.rule_id, hit.rule_id))

    for position in positions:
        out.append(_text(text[previous:position]))
        previous = position
        if any(ends[hit.number] == position for hit in stack):
            reopen: list[_Hit] = []
            while any(ends[hit.number] == position for hit in stack):
                hit = stack.pop()
                out.append("</mark>")
                if ends[hit.number] != position:
                    reopen.append(hit)
            for hit in reversed(reopen):
                out.append(open_mark(hit))
                stack.append(hit)
        for hit, _, end in sorted(opening.get(position, ()), key=lambda item: (-item[2], item[0].number)):
            out.append(open_mark(hit))
            if end == position:
                out.append("</mark>")  # an empty span: a zero-width mark keeps its place
            else:
                stack.append(hit)
    out.append(_text(text[previous:]))
    return "".join(out)


def _reader_view(
    document: ReportDocument, hits: list[_Hit], colours: Mapping[str, int], tips: Mapping[str, str]
) -> str:
    """The document's blocks as a reader sees them, each hit marked on the text it covers."""
    assert document.text is not None and document.markup is not None
    blocks = reader_blocks(document.text, document.markup)
    # Every shown character in one run, in source order: a hit covers the characters
    # that begin at or after its start and end at or before its end.
    shown_starts: list[int] = []
    shown_ends: list[int] = []
    block_starts: list[int] = []
    for block in blocks:
        block_starts.append(len(shown_starts))
        shown_starts.extend(block.starts)
        shown_ends.extend(block.ends)
    block_starts.append(len(shown_starts))
    per_block: list[list[tuple[_Hit, int, int]]] = [[] for _ in blocks]
    for hit in hits:
        first = bisect_left(shown_starts, hit.start)
        last = max(first, bisect_right(shown_ends, hit.end))
        k = max(0, bisect_right(block_starts, first) - 1)
        while k < len(blocks):
            begin, finish = block_starts[k], block_starts[k + 1]
            if begin >= last and not (first == last and begin == first):
                break
            local_start, local_end = max(first, begin) - begin, min(last, finish) - begin
            if local_start <= local_end and (local_start < local_end or first == last):
                per_block[k].append((hit, local_start, local_end))
            if last <= finish:
                break
            k += 1
    anchored: set[int] = set()
    if not blocks and hits:
        # Nothing to show (an empty or all-markup document): the hits keep their anchors.
        return "".join(_marked("", [(hit, 0, 0) for hit in hits], colours, tips, anchored))
    out: list[str] = []
    open_list = open_table = open_row = False
    row = -1
    for block, placed in zip(blocks, per_block, strict=True):
        body = _marked(block.text, placed, colours, tips, anchored)
        if open_row and (block.kind != "cell" or block.row != row):
            out.append("</tr>")
            open_row = False
        if open_table and block.kind != "cell":
            out.append("</table>")
            open_table = False
        if open_list and block.kind != "item":
            out.append("</ul>")
            open_list = False
        if block.kind == "cell":
            if not open_table:
                out.append("<table>")
                open_table = True
            if not open_row:
                out.append("<tr>")
                open_row, row = True, block.row
            out.append(f"<td>{body}</td>")
        elif block.kind == "item":
            if not open_list:
                out.append("<ul>")
                open_list = True
            out.append(f"<li>{body}</li>")
        elif block.kind == "heading":
            out.append(f'<p class="heading" role="heading" aria-level="3">{body}</p>')
        elif block.kind == "quote":
            out.append(f"<blockquote><p>{body}</p></blockquote>")
        elif block.kind == "code":
            out.append(f"<pre><code>{body}</code></pre>")
        else:
            out.append(f"<p>{body}</p>")
        out.append("\n")
    out.append("</tr>" if open_row else "")
    out.append("</table>" if open_table else "")
    out.append("</ul>" if open_list else "")
    # A hit that covers no shown character (a URL, a tag) still gets its anchor, where it would be.
    missing = [hit for hit in hits if hit.number not in anchored]
    if missing:
        out.append(_marked("", [(hit, 0, 0) for hit in missing], colours, tips, anchored))
    return "".join(out)


def _document_section(
    document: ReportDocument,
    hits: list[_Hit],
    colours: Mapping[str, int],
    labels: Mapping[str, str],
    number: int = 0,
    tips: Mapping[str, str] | None = None,
) -> str:
    heading = ""
    if document.label is not None:
        if document.error is not None:
            meta = ""
        else:
            count = len(hits)
            meta = (
                f' <span class="meta">({labels["language"]} {_text(document.language)}, '
                f"{count} {labels['hit'] if count == 1 else labels['hits']})</span>"
            )
        heading = f"<h2>{_text(document.label)}{meta}</h2>"
    if document.error is not None or document.text is None:
        reason = _text(document.error or "")
        return (
            f'<section class="document" id="doc-{number}">{heading}'
            f'<p class="failed">{labels["not_scanned"]}: {reason}</p></section>\n'
        )
    if document.markup is not None:
        return (
            f'<section class="document" id="doc-{number}">{heading}'
            f'<div class="doc reader" lang="{_attr(document.language)}">\n'
            f"{_reader_view(document, hits, colours, tips or {})}</div></section>\n"
        )
    return (
        f'<section class="document" id="doc-{number}">{heading}<pre class="doc" lang="{_attr(document.language)}">\n'
        f"{_marked(document.text, [(hit, hit.start, hit.end) for hit in hits], colours, tips or {})}</pre></section>\n"
    )


def _short(value: str) -> str:
    return value if len(value) <= _QUOTE_LIMIT else value[: _QUOTE_LIMIT - 1] + "\u2026"


def _filter(hits: list[_Hit], rule_ids: list[str], colours: Mapping[str, int], language: str, legend: str) -> str:
    counts = dict.fromkeys(rule_ids, 0)
    for hit in hits:
        counts[hit.rule_id] += 1
    out = [f'<fieldset class="filter"><legend>{legend}</legend>']
    for rule_id in rule_ids:
        out.append(
            f'<label><input type="checkbox" checked data-rule="{_attr(rule_id)}">'
            f'<span class="swatch r{colours[rule_id]}"></span>{_text(_title(rule_id, language))} '
            f"({counts[rule_id]})</label>"
        )
    out.append("</fieldset>\n")
    return "".join(out)


def _rule_sections(
    hits: Sequence[_Hit],
    rule_ids: list[str],
    colours: Mapping[str, int],
    language: str,
    document_labels: Sequence[str | None],
) -> str:
    """Per rule: its title, instruction and list of hits."""
    labels = LABELS[language]
    by_rule: dict[str, list[_Hit]] = {rule_id: [] for rule_id in rule_ids}
    for hit in hits:
        by_rule[hit.rule_id].append(hit)
    out = []
    for rule_id in rule_ids:
        rule = _data().RULES.get(rule_id)
        texts = rule.texts if rule is not None else {}
        text = texts.get(language) or next(iter(texts.values()), None)  # a pack may have one language
        instruction = text.instruction if text is not None else ""
        out.append(
            f'<section class="rule" data-rule="{_attr(rule_id)}">'
            f'<h3><span class="swatch r{colours[rule_id]}"></span>'
            f"{_text(_title(rule_id, language))} <code>{_text(rule_id)}</code></h3>"
        )
        if instruction:
            out.append(f'<p class="instruction">{_text(instruction)}</p>')
        out.append('<ol class="hits">')
        for hit in by_rule[rule_id]:
            out.append(_hit_item(hit, rule_id, labels, document_labels))
        out.append("</ol></section>\n")
    return "".join(out)


def _aside(
    hits: list[_Hit],
    rule_ids: list[str],
    colours: Mapping[str, int],
    language: str,
    labels: Mapping[str, str],
    document_labels: Sequence[str | None],
) -> str:
    if not hits:
        return f'<aside><p class="empty">{labels["none"]}</p></aside>\n'
    return (
        f"<aside>\n{_filter(hits, rule_ids, colours, language, labels['rules'])}"
        f"{_rule_sections(hits, rule_ids, colours, language, document_labels)}</aside>\n"
    )


def _paged_aside(
    hits: list[_Hit], rule_ids: list[str], colours: Mapping[str, int], language: str, labels: Mapping[str, str]
) -> str:
    """The filter for every document's hits (counts of the whole report) and a place for the shown one's list."""
    if not hits:
        return f'<aside><p class="empty">{labels["none"]}</p><div id="rules-view"></div></aside>\n'
    return (
        f'<aside>\n{_filter(hits, rule_ids, colours, language, labels["rules"])}<div id="rules-view"></div></aside>\n'
    )


def _hit_item(hit: _Hit, rule_id: str, labels: Mapping[str, str], document_labels: Sequence[str | None]) -> str:
    where = f"{hit.line}:{hit.column}"
    label = document_labels[hit.document]
    if label is not None:
        where = f"{label}:{where}"
    parts = [
        f'<li data-rule="{_attr(rule_id)}" data-hit="{hit.number}"><a href="#hit-{hit.number}">'
        f"{_text(where)}</a> <q>{_text(_short(hit.match))}</q>"
    ]
    if hit.explanation:
        parts.append(f"<p>{_text(hit.explanation)}</p>")
    if hit.suggestion:
        parts.append(f"<p>{labels['suggestion']}: <q>{_text(_short(hit.suggestion))}</q></p>")
    parts.append("</li>")
    return "".join(parts)


def _title(rule_id: str, language: str) -> str:
    rule = _data().RULES.get(rule_id)
    if rule is None:
        return rule_id
    text = rule.texts.get(language) or next(iter(rule.texts.values()))  # a pack may have one language
    return text.title
