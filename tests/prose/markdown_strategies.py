"""Hypothesis strategies that write Markdown documents out of the constructs readers meet.

Each composite draws only what the construct it picked uses (the kind first, then its words), and
every strategy is built once: generating documents is most of what the property tests that use
them spend, so the same documents cost fewer draws.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

_WORDS = st.sampled_from(
    "the build is not simply shipped has been easy Größe über Straße zur Verfügung 42 v2 API "
    "powerful order in to Note tip data".split()
)
_URL = st.sampled_from(
    [
        "https://example.com/simply-easy-powerful",
        "https://x.org/a_(b)",
        "/docs/guide.md",
        "#anchor",
        "www.example.org/x",
    ]
)
_INLINE_WORDS = st.lists(_WORDS, min_size=1, max_size=3).map(" ".join)
_BLOCK_WORDS = st.lists(_WORDS, min_size=1, max_size=4).map(" ".join)

Draw = Callable[[st.SearchStrategy[str]], str]


def _url_or_word(draw: Draw, keep: Callable[[str], str]) -> str:
    url = draw(_URL)
    return keep(url) if url.startswith("https") else draw(_WORDS)


# Each inline form, with what it draws; a plain word three times as often as any other form.
_INLINE_FORMS: tuple[Callable[[Draw], str], ...] = (
    lambda draw: draw(_WORDS),
    lambda draw: draw(_WORDS),
    lambda draw: draw(_WORDS),
    lambda draw: f"*{draw(_WORDS)}*",
    lambda draw: f"**{draw(_INLINE_WORDS)}**",
    lambda draw: f"_{draw(_WORDS)}_",
    lambda draw: f"~~{draw(_WORDS)}~~",
    lambda draw: f"`{draw(_INLINE_WORDS)}`",
    lambda draw: f"``a ` {draw(_WORDS)}``",
    lambda draw: f"[{draw(_INLINE_WORDS)}]({draw(_URL)})",
    lambda draw: f'[{draw(_INLINE_WORDS)}]({draw(_URL)} "{draw(_WORDS)} title")',
    lambda draw: f"[{draw(_INLINE_WORDS)}][ref]",
    lambda draw: "[ref]",
    lambda draw: f"![{draw(_INLINE_WORDS)}]({draw(_URL)})",
    lambda draw: _url_or_word(draw, lambda url: f"<{url}>"),
    lambda draw: _url_or_word(draw, lambda url: url),
    lambda draw: "&amp;",
    lambda draw: "&copy;",
    lambda draw: "\\*",
    lambda draw: f"<span>{draw(_WORDS)}</span>",
    lambda draw: f"<em>{draw(_WORDS)}</em>",
    lambda draw: "<placeholder>",
    lambda draw: "<your-api-key>",
    lambda draw: "<!-- hidden comment -->",
    lambda draw: f"{draw(_WORDS)}.",
    lambda draw: f"{draw(_WORDS)},",
    lambda draw: f"({draw(_WORDS)})",
    lambda draw: f"{draw(_WORDS)}:",
)
_INLINE_FORM = st.sampled_from(_INLINE_FORMS)


@st.composite
def inline(draw: st.DrawFn) -> str:
    return draw(_INLINE_FORM)(draw)


_INLINE = inline()
_SEPARATOR = st.sampled_from([" ", " ", " ", "\n"])


@st.composite
def paragraph(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(_INLINE, min_size=1, max_size=12))
    out = [pieces[0]]
    for piece in pieces[1:]:
        out.append(draw(_SEPARATOR))
        out.append(piece)
    return "".join(out)


_PARAGRAPH = paragraph()
_KIND = st.sampled_from(
    [
        "para",
        "para",
        "heading",
        "setext",
        "list",
        "nested",
        "ordered",
        "quote",
        "fence",
        "tilde",
        "indented",
        "table",
        "html",
        "comment",
        "rule",
        "definition",
        "container",
    ]
)
_HEADING_END = st.sampled_from(["", " {#some-id}", " ##"])
_SETEXT_LINE = st.sampled_from(["===", "---"])


@st.composite
def block(draw: st.DrawFn) -> str:
    kind = draw(_KIND)
    if kind == "para":
        return draw(_PARAGRAPH)
    if kind == "heading":
        one_line = draw(_PARAGRAPH).replace("\n", " ")
        return f"{'#' * draw(st.integers(1, 6))} {one_line}" + draw(_HEADING_END)
    if kind == "setext":
        return f"{draw(_PARAGRAPH)}\n{draw(_SETEXT_LINE)}"
    if kind == "list":
        return "\n".join(f"- {line}" for line in draw(_PARAGRAPH).split("\n"))
    if kind == "nested":
        one_line, words = draw(_PARAGRAPH).replace("\n", " "), draw(_BLOCK_WORDS)
        return f"- {words}\n  - {one_line}\n    continued {words}\n- {words}"
    if kind == "ordered":
        return f"1. {draw(_PARAGRAPH).replace(chr(10), ' ')}\n2. {draw(_BLOCK_WORDS)}"
    if kind == "quote":
        return "\n".join(f"> {line}" for line in draw(_PARAGRAPH).split("\n"))
    if kind == "fence":
        return f"```python\n{draw(_PARAGRAPH)}\n```"
    if kind == "tilde":
        return f"~~~\n{draw(_BLOCK_WORDS)}\n~~~"
    if kind == "indented":
        words = draw(_BLOCK_WORDS)
        return f"    {words}\n    {words}"
    if kind == "table":
        one_line, words = draw(_PARAGRAPH).replace("\n", " "), draw(_BLOCK_WORDS)
        return f"| {words} | head |\n|---|:-:|\n| {one_line.replace('|', ' ')} | {words} |"
    if kind == "html":
        return f'<div class="note">\n{draw(_BLOCK_WORDS)}\n</div>'
    if kind == "comment":
        return f"<!--\n{draw(_BLOCK_WORDS)}\n-->"
    if kind == "rule":
        return "---" if draw(st.booleans()) else "* * *"
    if kind == "definition":
        return '[ref]: https://example.com/definition "A title with words"'
    text, words = draw(_PARAGRAPH), draw(_BLOCK_WORDS)
    return f"::: tip {words}\n{text}\n:::"


_BLOCKS = st.lists(block(), min_size=1, max_size=8)
_FRONT_MATTER = st.sampled_from(["", "---\ntitle: Page title here\nlayout: doc\n---\n\n"])


@st.composite
def markdown_document(draw: st.DrawFn) -> str:
    blocks = draw(_BLOCKS)
    front = draw(_FRONT_MATTER)
    return front + "\n\n".join(blocks) + "\n"
