"""Block-level JSX, fences, asides and attributed block quotes in MDX end a sentence (issue 28).

Each snippet is cut from an Astro docs page of the field corpus
(benchmarks/field_eval/corpus/{en,de}/astro/), where the sentence before a
component or a fence ran into it and became one false long sentence.
"""

from __future__ import annotations

from itertools import pairwise

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writing_rules.prose import long_sentences, read_prose, sentences

from .test_map import check_map


def prose(source: str, markup: str = "mdx") -> str:
    return read_prose(source, markup).text


# tutorial/1-setup/2.mdx (de), cut down: a <Steps> list whose item shows <PackageManagerTabs>.
STEPS = """<Steps>
1. Führe in der Kommandozeile deines Terminals den folgenden Befehl aus:
    <PackageManagerTabs>
      <Fragment slot="npm">
      ```shell
      # Erstelle ein neues Projekt mit npm
      npm create astro@latest
      ```
      </Fragment>
    </PackageManagerTabs>

2. Gib `y` ein, um `create-astro` zu installieren.
</Steps>
"""


def test_a_component_line_ends_the_list_item_sentence() -> None:
    view = read_prose(STEPS, "mdx")
    assert view.text == (
        "Führe in der Kommandozeile deines Terminals den folgenden Befehl aus:\n"
        "Gib \ufffc ein, um \ufffc zu installieren.\n"
    )
    # The fence inside the component is code, not prose.
    assert "npm create astro@latest" in view.code_text


def test_steps_list_items_read_as_list_items() -> None:
    assert prose("<Steps>\n1. First step.\n2. Second step.\n</Steps>\n") == "First step.\nSecond step.\n"


def test_component_lines_with_content_are_blocks_of_their_own() -> None:
    # tutorial/2-pages/2.mdx (de): a quiz whose options followed the question.
    source = (
        "Inhalt in einer Markdown-Datei wird umgewandelt in:\n"
        "<MultipleChoice>\n"
        "    <Option isCorrect>HTML</Option>\n"
        "    <Option>CSS</Option>\n"
        "</MultipleChoice>\n"
    )
    assert prose(source) == "Inhalt in einer Markdown-Datei wird umgewandelt in:\nHTML\nCSS\n"


def test_a_fence_in_a_component_is_code() -> None:
    source = '<Tabs>\n  <TabItem label="npm">\n  ```sh\n  npm run dev\n  ```\n  </TabItem>\n</Tabs>\n'
    view = read_prose(source, "mdx")
    assert view.text.strip() == ""
    assert "npm run dev" in view.code_text


def test_plain_markdown_keeps_commonmark_html_blocks() -> None:
    # In .md files a tag line still opens an HTML block that runs to the blank line.
    assert prose("<Steps>\n1. First step.\n2. Second step.\n</Steps>\n", "markdown") == (
        " 1. First step. 2. Second step.\n"
    )


def test_an_aside_title_is_prose_without_its_brackets() -> None:
    source = "Der Text davor.\n:::tip[Mehr erfahren]\nText hier.\n:::\nDer Text danach.\n"
    assert prose(source) == "Der Text davor.\nMehr erfahren\nText hier.\nDer Text danach.\n"


def test_an_aside_in_a_list_item_ends_the_item_sentence() -> None:
    assert prose("1. Step one:\n   :::caution\n   Careful.\n   :::\n2. Two\n") == "Step one:\nCareful.\nTwo\n"


def test_a_block_quote_attribution_is_a_block_of_its_own() -> None:
    # concepts/islands.mdx (en): the quote's author, after a hard line break.
    source = "> The general idea is deceptively simple.  \n> — Jason Miller, Creator of Preact\n"
    view = read_prose(source, "mdx")
    assert view.text == "The general idea is deceptively simple.\n— Jason Miller, Creator of Preact\n"
    assert [view.text[s.start : s.end] for s in sentences(view.text, "en")] == [
        "The general idea is deceptively simple.",
        "— Jason Miller, Creator of Preact",
    ]


def test_html_element_lines_in_mdx_are_blocks_and_their_fences_code() -> None:
    # tutorial/5-astro-api/1.mdx (en): a hint folded in <details> inside a <Steps> item.
    source = (
        "1. Create a new component in `src/components/`.\n"
        "\n"
        "    <details>\n"
        "    <summary>Show the filename</summary>\n"
        "    ```\n"
        "    BlogPost.astro\n"
        "    ```\n"
        "    </details>\n"
    )
    view = read_prose(source, "mdx")
    assert view.text == "Create a new component in \ufffc.\nShow the filename\n"
    assert "BlogPost.astro" in view.code_text


def test_a_lowercase_tag_line_continues_a_paragraph() -> None:
    assert prose("Press\n<b>Ctrl</b>\nto copy.\n") == "Press Ctrl to copy.\n"


def test_mdx_has_no_indented_code() -> None:
    # tutorial/4-layouts/1.mdx (en): a quiz option's text, indented under <Option>.
    source = (
        "    <MultipleChoice>\n"
        "      <Option isCorrect>\n"
        "        all of the above, because Astro lets you use plain HTML or supercharge it!\n"
        "      </Option>\n"
        "    </MultipleChoice>\n"
    )
    assert prose(source) == "all of the above, because Astro lets you use plain HTML or supercharge it!\n"
    assert prose("Text.\n\n    indented code\n", "markdown") == "Text.\n"


def test_an_indented_fence_in_mdx_closes() -> None:
    # tutorial/5-astro-api/3.mdx (de): a fence indented 4 under <details> ran to the page's end.
    source = (
        "<details>\n"
        "    <summary>Code anzeigen</summary>\n"
        "    \n"
        "    ```astro\n"
        "    const tags = ['astro'];\n"
        "    ```\n"
        "</details>\n"
        "\n"
        "Schau dir die Vorschau an.\n"
    )
    view = read_prose(source, "mdx")
    assert view.text == "Code anzeigen\nSchau dir die Vorschau an.\n"
    assert "const tags" in view.code_text


def test_deeply_indented_list_items_in_mdx_are_list_items() -> None:
    # tutorial/6-islands/4.mdx (en): a list indented 10 columns in a <Steps> item.
    source = (
        "7. The tutorial blog project also generates a page for each tag.\n"
        "   \n"
        "          Apply the same changes as above to these two files:\n"
        "      \n"
        "          - fetch data about all your blog posts using `getCollection()`\n"
        "          - access all frontmatter values using `data`\n"
    )
    assert prose(source) == (
        "The tutorial blog project also generates a page for each tag.\n"
        "Apply the same changes as above to these two files:\n"
        "fetch data about all your blog posts using \ufffc\n"
        "access all frontmatter values using \ufffc\n"
    )


def test_an_attributed_block_quote_is_a_quotation() -> None:
    source = (
        "Intro.\n\n"
        "> The general idea is deceptively simple: render HTML pages on the server.  \n"
        "> — Jason Miller, Creator of Preact\n\n"
        "> A note in a block quote.\n\n"
        "> Der Satz.\n> <cite>Jason Miller</cite>\n"
    )
    for markup in ("markdown", "mdx"):
        view = read_prose(source, markup)
        text = view.text
        assert text == (
            "Intro.\n"
            "The general idea is deceptively simple: render HTML pages on the server.\n"
            "— Jason Miller, Creator of Preact\n"
            "A note in a block quote.\n"
            "Der Satz.\n"
            "Jason Miller\n"
        )
        quoted = [text[s:e].strip() for s, e in view.quote_spans]
        assert quoted == ["The general idea is deceptively simple: render HTML pages on the server.", "Der Satz."]
        assert view.in_quotation(text.index("render"))
        assert not view.in_quotation(text.index("A note"))  # a block quote without author is prose
        assert not view.in_quotation(text.index("Jason"))


def test_deeply_nested_block_quotes_read_in_linear_time() -> None:
    view = read_prose(">" * 10_000 + " quote\n" + ">" * 10_000 + " — Author\n", "markdown")
    assert view.text.split() == ["quote", "—", "Author"]
    assert view.quote_spans == ((0, 6),)


def test_long_sentences_leave_out_a_quotation_given_by_the_view() -> None:
    # concepts/islands.mdx (de): a quoted definition, too long but not the writer's to shorten.
    quote = (
        "Die allgemeine Idee einer Insel-Architektur ist täuschend einfach: Man rendert HTML-Seiten auf dem "
        "Server und fügt Platzhalter oder Slots um hochdynamische Bereiche herum ein, die dann auf dem Client in "
        "kleine, in sich geschlossene Widgets hydratisiert werden können, die ihr vom Server gerendertes "
        "Ausgangs-HTML wiederverwenden."
    )
    view = read_prose(f"> {quote}  \n> — Jason Miller, Erfinder von Preact\n", "mdx")
    assert long_sentences(view.text, "de", 25, None) != []
    assert long_sentences(view.text, "de", 25, None, quotations=view.quote_spans) == []


def test_a_dash_item_ending_a_block_quote_is_its_attribution() -> None:
    # concepts/islands.mdx (de): the author's line is written as a list item.
    view = read_prose("> Die allgemeine Idee ist einfach.  \n> - Jason Miller, Erfinder von Preact\n\nDanach.\n", "mdx")
    assert view.text == "Die allgemeine Idee ist einfach.\nJason Miller, Erfinder von Preact\nDanach.\n"
    assert [view.text[s:e].strip() for s, e in view.quote_spans] == ["Die allgemeine Idee ist einfach."]
    # A list that goes on is a list: the quote stays prose.
    listed = read_prose("> Zwei Schritte:\n> - eins\n> - zwei\n", "mdx")
    assert listed.quote_spans == ()


def test_nested_attributed_quotes_give_disjoint_spans() -> None:
    view = read_prose("> Outer words.\n>\n> > Inner words.\n> > — Inner Author\n>\n> More outer.\n> — Outer Author\n")
    text = view.text
    assert all(a < b <= c for (a, b), (c, _) in pairwise(view.quote_spans))
    assert view.in_quotation(text.index("Inner words"))
    assert view.in_quotation(text.index("More outer"))


def test_a_one_item_list_ending_a_quote_stays_prose() -> None:
    assert read_prose("> Note the following:\n> - Restart the server.\n").quote_spans == ()


_MDX_LINES = st.lists(
    st.tuples(
        st.sampled_from(["", "  ", "    ", "        ", "> ", "> > ", "1. ", "- ", "   "]),
        st.sampled_from(
            [
                "<Steps>",
                "</Steps>",
                '<Fragment slot="npm">',
                "<Option isCorrect>HTML</Option>",
                "<details>",
                "<summary>Show</summary>",
                "```sh",
                "```",
                ":::tip[Title]",
                ":::",
                "— Jason Miller",
                "- Jason Miller",
                "<cite>Author</cite>",
                "Ein Satz, der weitergeht",
                "and ends here.",
                "",
                "<Foo",
                "[",
            ]
        ),
    ),
    max_size=30,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_MDX_LINES, st.sampled_from(["mdx", "markdown"]))
def test_mdx_blocks_and_quotes_read_with_an_exact_map(lines: list[tuple[str, str]], markup: str) -> None:
    source = "\n".join(prefix + line for prefix, line in lines)
    view = read_prose(source, markup)
    check_map(view)
    spans = view.quote_spans
    assert all(0 <= start < end <= len(view.text) for start, end in spans)
    assert all(end <= following for (_, end), (following, _) in pairwise(spans))


def test_an_aside_fence_after_a_list_item_ends_its_sentence() -> None:
    # tutorial/2-pages/3.mdx (en): the aside's closing fence followed the last item unindented.
    source = ":::note[Takeaways]\n1. **Define** variables in your script.\n2. **Use** these variables.\n:::\n"
    for markup in ("mdx", "markdown"):
        assert prose(source, markup) == "Takeaways\nDefine variables in your script.\nUse these variables.\n"
