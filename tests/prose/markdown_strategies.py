"""Hypothesis strategies that write Markdown documents out of the constructs readers meet."""

from __future__ import annotations

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


@st.composite
def inline(draw: st.DrawFn) -> str:
    word = draw(_WORDS)
    words = " ".join(draw(st.lists(_WORDS, min_size=1, max_size=3)))
    url = draw(_URL)
    return draw(
        st.sampled_from(
            [
                word,
                word,
                word,
                f"*{word}*",
                f"**{words}**",
                f"_{word}_",
                f"~~{word}~~",
                f"`{words}`",
                f"``a ` {word}``",
                f"[{words}]({url})",
                f'[{words}]({url} "{word} title")',
                f"[{words}][ref]",
                "[ref]",
                f"![{words}]({url})",
                f"<{url}>" if url.startswith("https") else word,
                url if url.startswith("https") else word,
                "&amp;",
                "&copy;",
                "\\*",
                f"<span>{word}</span>",
                f"<em>{word}</em>",
                "<placeholder>",
                "<your-api-key>",
                "<!-- hidden comment -->",
                f"{word}.",
                f"{word},",
                f"({word})",
                f"{word}:",
            ]
        )
    )


@st.composite
def paragraph(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(inline(), min_size=1, max_size=12))
    out = [pieces[0]]
    for piece in pieces[1:]:
        out.append(draw(st.sampled_from([" ", " ", " ", "\n"])))
        out.append(piece)
    return "".join(out)


@st.composite
def block(draw: st.DrawFn) -> str:
    text = draw(paragraph())
    one_line = text.replace("\n", " ")
    words = " ".join(draw(st.lists(_WORDS, min_size=1, max_size=4)))
    kind = draw(
        st.sampled_from(
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
    )
    if kind == "para":
        return text
    if kind == "heading":
        return f"{'#' * draw(st.integers(1, 6))} {one_line}" + draw(st.sampled_from(["", " {#some-id}", " ##"]))
    if kind == "setext":
        return f"{text}\n{draw(st.sampled_from(['===', '---']))}"
    if kind == "list":
        return "\n".join(f"- {line}" for line in text.split("\n"))
    if kind == "nested":
        return f"- {words}\n  - {one_line}\n    continued {words}\n- {words}"
    if kind == "ordered":
        return f"1. {one_line}\n2. {words}"
    if kind == "quote":
        return "\n".join(f"> {line}" for line in text.split("\n"))
    if kind == "fence":
        return f"```python\n{text}\n```"
    if kind == "tilde":
        return f"~~~\n{words}\n~~~"
    if kind == "indented":
        return f"    {words}\n    {words}"
    if kind == "table":
        return f"| {words} | head |\n|---|:-:|\n| {one_line.replace('|', ' ')} | {words} |"
    if kind == "html":
        return f'<div class="note">\n{words}\n</div>'
    if kind == "comment":
        return f"<!--\n{words}\n-->"
    if kind == "rule":
        return "---" if draw(st.booleans()) else "* * *"
    if kind == "definition":
        return '[ref]: https://example.com/definition "A title with words"'
    return f"::: tip {words}\n{text}\n:::"


@st.composite
def markdown_document(draw: st.DrawFn) -> str:
    blocks = draw(st.lists(block(), min_size=1, max_size=8))
    front = draw(st.sampled_from(["", "---\ntitle: Page title here\nlayout: doc\n---\n\n"]))
    return front + "\n\n".join(blocks) + "\n"
