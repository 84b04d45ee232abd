"""What a reader sees in Markdown, MDX and front matter (prose-model.md, one test per rule)."""

from __future__ import annotations

import pytest

from writing_rules.prose import CODE_PLACEHOLDER, ProseError, markup_for_path, read_prose


def prose(source: str, markup: str = "markdown") -> str:
    return read_prose(source, markup).text


def test_markers_are_not_prose() -> None:
    source = "# Title\n\n> quoted *words* and ~~old~~\n\n- item **one**\n2. second\n\n| a | b |\n|---|---|\n| c | d |\n"
    assert prose(source) == "Title\nquoted words and old\nitem one\nsecond\na\nb\nc\nd\n"


def test_a_soft_line_break_and_the_next_line_prefix_are_one_space() -> None:
    assert prose("It has been\nshipped.\n") == "It has been shipped.\n"
    assert prose("> It has been\n> shipped.\n") == "It has been shipped.\n"
    assert prose("- It has been\n  shipped.\n") == "It has been shipped.\n"
    assert prose("It has been\r\nshipped.\r\n") == "It has been shipped.\n"


def test_blocks_end_sentences() -> None:
    assert prose("One\n\nTwo\n# Three\n- Four\n- Five\n") == "One\nTwo\nThree\nFour\nFive\n"


def test_links_keep_their_text_only() -> None:
    source = (
        'See [the guide](https://example.com/simply "Easy title"), [ref][r], [r], <https://a.io/x>, '
        "https://b.io/powerful and ![alt text](img.png).\n\n"
        '[r]: https://example.com/def "Definition title"\n'
    )
    assert prose(source) == "See the guide, ref, r, ,  and alt text.\n"


def test_heading_ids_are_markup() -> None:
    assert prose("## Routing {#simple-routing-from-scratch}\n") == "Routing\n"
    assert prose("## Try React {/*try-react*/}\n") == "Try React\n"


def test_code_is_not_prose_and_is_scanned_apart() -> None:
    source = "Run `make all` to build.\n\n```sh\nmake simply\n```\n\n    indented code\n\n$$x = y$$\n"
    view = read_prose(source)
    assert view.text == f"Run {CODE_PLACEHOLDER} to build.\n"
    assert view.code_text == "make all\nmake simply\nindented code\nx = y\n"
    start, end = view.code_source_span(0, 8)
    assert source[start:end] == "make all"
    # The placeholder stands for the whole span, backticks included.
    start, end = view.source_span(4, 5)
    assert source[start:end] == "`make all`"


def test_html_tags_comments_and_fill_ins() -> None:
    source = "Use <b>bold</b> <!-- a note --> and <your-api-key>, <placeholder>, <Platzhalter>.\n"
    assert prose(source) == "Use bold  and <your-api-key>, <placeholder>, <Platzhalter>.\n"
    assert prose("Text <pre>code here</pre> more.\n") == f"Text {CODE_PLACEHOLDER} more.\n"


def test_components_are_markup_in_mdx_and_when_closed() -> None:
    assert prose("<Note>Careful.</Note>\n") == "Careful.\n"
    assert prose("Set <Platzhalter> here.\n", "mdx") == "Set  here.\n"
    assert prose("import X from './x'\nexport const a = 1\n\nText {props.name} here.\n", "mdx") == "Text  here.\n"


def test_containers_are_markup_around_prose() -> None:
    assert prose("::: tip Good to know\nBody text.\n:::\n") == "Good to know\nBody text.\n"


def test_front_matter_values_of_prose_keys_only() -> None:
    source = '---\ntitle: "The title"\nlayout: simply\ndescription: What it does\n---\n\nBody.\n'
    assert prose(source) == "The title\nWhat it does\nBody.\n"
    toml = '+++\ntitle = "TOML title"\ndraft = true\n+++\nBody.\n'
    assert prose(toml) == "TOML title\nBody.\n"


def test_headings_are_known() -> None:
    view = read_prose("# A heading\n\nBody text.\n")
    assert view.is_heading(0) and not view.is_heading(view.text.index("Body"))


def test_markup_is_chosen_by_extension() -> None:
    # AsciiDoc has no reader: it is read as plain text (the document store serves it as prose).
    assert [markup_for_path(p) for p in ("a.md", "b.MDX", "c.rst", "d.htm", "e.txt", "f.adoc", "g.xyz")] == [
        "markdown",
        "mdx",
        "rst",
        "html",
        "text",
        "text",
        "markdown",
    ]
    with pytest.raises(ProseError, match="choose one of markdown"):
        read_prose("x", "asciidoc")


def test_plain_text_joins_lines_of_a_paragraph() -> None:
    assert (
        prose("It has been\nshipped. *Not* markup.\n\nNext.\n", "text") == "It has been shipped. *Not* markup.\nNext.\n"
    )


def test_html_documents() -> None:
    source = "<html><head><title>T</title><style>p {}</style></head><body><p>One &amp; <em>two</em>.</p>"
    source += "<pre>code</pre><script>var x;</script><p>Three</p></body></html>"
    view = read_prose(source, "html")
    assert view.text == "T\nOne & two.\nThree\n"
    assert "code" in view.code_text


def test_rst_documents() -> None:
    source = (
        "Title\n=====\n\nSome ``literal`` text with a `link <https://x.io>`_ and :func:`os.path`.\n"
        "It ends here::\n\n    code block\n\n.. note:: A note\n   that wraps.\n\n"
        ".. code-block:: python\n   :linenos:\n\n   print()\n\n.. a comment\n\n- item\n"
    )
    view = read_prose(source, "rst")
    assert view.text == (
        f"Title\nSome {CODE_PLACEHOLDER} text with a link and {CODE_PLACEHOLDER}. It ends here:\n"
        "A note that wraps.\nitem\n"
    )
    assert view.code_text == "literal\nos.path\ncode block\nprint()\n"
