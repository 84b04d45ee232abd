"""Inline suppression directives, driven through ``writing-rules scan``."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from writing_rules.lint._directives import apply_suppressions, comment_spans, format_directive, read_directives
from writing_rules.tools import Signal

from .conftest import write


def test_disable_next_line_with_rule_list_and_without(repo: Path, scan) -> None:
    write(
        repo,
        "page.md",
        "<!-- writing-rules-disable-next-line filler -->\nA very powerful tool.\n\n"
        "<!-- writing-rules-disable-next-line -->\nA very powerful tool.\n\nA very powerful tool.\n",
    )
    outcome = scan("page.md")
    assert [line.split(": ")[0] + " " + line.split(": ")[1] for line in outcome.lines()] == [
        "page.md:2:8 word-choice",
        "page.md:7:3 filler",
        "page.md:7:8 word-choice",
    ]
    assert "2 suppressed" not in outcome.err and "3 suppressed" in outcome.err


def test_disable_line_at_the_end_of_a_line(repo: Path, scan) -> None:
    write(
        repo,
        "page.md",
        "A very fast tool. <!-- writing-rules-disable-line filler -- reviewed in #12 -->\nA very fast tool.\n",
    )
    assert [line.split(":")[1] for line in scan("page.md").lines()] == ["2"]


def test_block_disable_and_enable_per_rule(repo: Path, scan) -> None:
    write(
        repo,
        "page.md",
        "<!-- writing-rules-disable filler, word-choice -->\n\nA very powerful tool.\n\n"
        "<!-- writing-rules-enable word-choice -->\n\nA very powerful tool.\n\n"
        "<!-- writing-rules-enable -->\n\nA very powerful tool.\n",
    )
    lines = [(line.split(":")[1], line.split(": ")[1]) for line in scan("page.md").lines()]
    assert lines == [("7", "word-choice"), ("11", "filler"), ("11", "word-choice")]


def test_disable_all_then_enable_one(repo: Path, scan) -> None:
    write(
        repo,
        "page.md",
        "<!-- writing-rules-disable -->\nA very powerful tool.\n<!-- writing-rules-enable filler -->\n"
        "A very powerful tool.\n",
    )
    assert [(line.split(":")[1], line.split(": ")[1]) for line in scan("page.md").lines()] == [("4", "filler")]


def test_disable_file_anywhere_in_the_file(repo: Path, scan) -> None:
    write(repo, "page.md", "A very powerful tool.\n\n<!-- writing-rules-disable-file word-choice -->\n")
    assert scan("page.md").rules() == ["filler"]


def test_mdx_comments_and_html_files(repo: Path, scan) -> None:
    write(repo, "page.mdx", "{/* writing-rules-disable-next-line filler */}\nA very fast tool.\n")
    write(repo, "page.html", "<p>A very fast tool. <!-- writing-rules-disable-line filler --></p>\n")
    outcome = scan("page.mdx", "page.html")
    assert outcome.lines() == []
    assert outcome.code == 0


def test_rst_comment_directives(repo: Path, scan) -> None:
    write(
        repo,
        "page.rst",
        "Title\n=====\n\n.. writing-rules-disable-next-line filler\nA very fast tool.\n\nA very fast tool.\n",
    )
    assert [line.split(":")[1] for line in scan("page.rst").lines()] == ["7"]


def test_a_directive_inside_code_is_no_directive(repo: Path, scan) -> None:
    write(
        repo,
        "page.md",
        "```html\n<!-- writing-rules-disable-file -->\n```\n\nUse `<!-- writing-rules-disable-file -->` here.\n\n"
        "A very fast tool.\n",
    )
    assert scan("page.md").rules() == ["filler"]


def test_multi_line_signal_belongs_to_its_start_line() -> None:
    text = "<!-- writing-rules-disable-next-line passive-voice -->\nIt has been\nshipped.\n"
    start = text.index("has")
    end = text.index(".")
    signal = Signal("passive-voice", "passive-en", "warning", text[start:end], start, end, start, end, 2, 4)
    kept, used = apply_suppressions([signal], read_directives(text), len(text))
    assert kept == [] and list(used.values()) == [{"passive-voice"}]
    # A directive for the signal's second line does not cover it.
    moved = "It has been\n<!-- writing-rules-disable-line passive-voice -->shipped.\n"
    signal = signal._replace(line=1, start=3, end=moved.index("."))
    kept, _ = apply_suppressions([signal], read_directives(moved), len(moved))
    assert kept == [signal]


def test_typo_in_a_directive_is_exit_2_with_file_and_line(repo: Path, scan) -> None:
    write(repo, "page.md", "Intro.\n\n<!-- writing-rules-disable-nextline filler -->\nA very fast tool.\n")
    outcome = scan("page.md")
    assert outcome.code == 2
    assert "page.md:3:1: error: unknown directive 'writing-rules-disable-nextline'" in outcome.err
    assert "did you mean 'writing-rules-disable-next-line'?" in outcome.err
    assert "filler" in outcome.out  # the comment is no directive: the signal is still reported


def test_unknown_rule_id_in_a_directive_is_reported(repo: Path, scan) -> None:
    write(repo, "page.md", "<!-- writing-rules-disable-next-line filer -->\nA very fast tool.\n")
    outcome = scan("page.md")
    assert outcome.code == 2
    assert "page.md:1:1: error: unknown rule id 'filer' in writing-rules-disable-next-line" in outcome.err
    assert "valid rule ids: " in outcome.err
    # As in the configuration's ``disable``: the near id (a renamed one, 'Vale.Terms' now '<pack>/Vale.Terms').
    assert "writing-rules-disable-next-line (did you mean 'filler'?); valid rule ids: " in outcome.err


def test_report_unused_suppressions(repo: Path, scan) -> None:
    write(
        repo,
        "page.md",
        "<!-- writing-rules-disable-next-line filler, hedging -->\nA very fast tool.\n\n"
        "<!-- writing-rules-disable-next-line -->\nA fast tool.\n",
    )
    quiet = scan("page.md")
    assert quiet.code == 0 and "unused" not in quiet.err
    outcome = scan("page.md", "--report-unused-suppressions")
    assert outcome.code == 1
    assert "page.md:1:1: unused suppression: writing-rules-disable-next-line hedging silenced nothing" in outcome.err
    assert "page.md:4:1: unused suppression: writing-rules-disable-next-line silenced nothing" in outcome.err


def test_an_ordinary_comment_is_left_alone(repo: Path, scan) -> None:
    write(repo, "page.md", "<!-- checked with writing-rules -->\nA very fast tool.\n")
    outcome = scan("page.md")
    assert outcome.code == 1 and outcome.rules() == ["filler"]


_PIECES = [
    "<!--",
    "-->",
    "`",
    "```",
    "\n",
    "a",
    " ",
    ",",
    "writing-rules-disable",
    "-next-line",
    "filler",
    "{/*",
    "*/}",
    ".. ",
]


@given(st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
def test_reading_directives_never_fails_on_any_text(text: str) -> None:
    for markup in ("markdown", "mdx", "html", "rst", "text"):
        for start, end in comment_spans(text, markup):
            assert 0 <= start <= end <= len(text)
        found = read_directives(text, markup)
        for directive in found.directives:
            assert 1 <= directive.line <= directive.end_line <= text.count("\n") + 1


@pytest.mark.parametrize("markup", ["markdown", "mdx", "html", "rst"])
def test_format_directive_round_trips(markup: str) -> None:
    comment = format_directive("disable-file", ["hedging", "filler"], markup)
    found = read_directives(comment + "\n", markup)
    assert not found.problems
    (directive,) = found.directives
    assert (directive.kind, directive.rule_ids) == ("disable-file", ("hedging", "filler"))
    with pytest.raises(ValueError):
        format_directive("disable-nextline")
    with pytest.raises(ValueError):
        format_directive("disable-line", ["filer"])


def test_the_prose_reader_decides_what_is_code(repo: Path, scan) -> None:
    # An indented code block and HTML <pre> are code to a reader: a directive there silences nothing.
    write(repo, "page.md", "Intro.\n\n    <!-- writing-rules-disable-file -->\n\nA very fast tool.\n")
    write(repo, "page.html", "<pre><!-- writing-rules-disable-file --></pre>\n<p>A very fast tool.</p>\n")
    write(repo, "page.rst", "Intro::\n\n  .. writing-rules-disable-file\n\nA very fast tool.\n")
    outcome = scan("page.md", "page.html", "page.rst")
    assert sorted(line.split(":")[0] for line in outcome.lines()) == ["page.html", "page.md", "page.rst"]
    assert outcome.rules() == ["filler", "filler", "filler"]


def test_rst_directive_then_the_blank_line_rst_requires(repo: Path, scan) -> None:
    # reStructuredText ends a comment with a blank line: the directive covers the next line with text.
    write(
        repo,
        "page.rst",
        "Title\n=====\n\n.. writing-rules-disable-next-line filler\n\nA very fast tool.\n\nA very fast tool.\n",
    )
    outcome = scan("page.rst", "--report-unused-suppressions")
    assert [line.split(":")[1] for line in outcome.lines()] == ["8"]
    assert "unused" not in outcome.err


def test_disable_next_line_skips_blank_lines_in_markdown_too(repo: Path, scan) -> None:
    text = "<!-- writing-rules-disable-next-line filler -->\n\n  \nA very fast tool.\nA very fast tool.\n"
    write(repo, "page.md", text)
    assert [line.split(":")[1] for line in scan("page.md").lines()] == ["5"]


def test_unused_suppressions_are_in_every_report_format(repo: Path, scan) -> None:
    # They fail the run (exit 1), so CI's report must show them, not only standard error.
    write(repo, "page.md", "Intro.\n\n<!-- writing-rules-disable-next-line hedging -->\nA fast tool.\n")
    text = scan("page.md", "--report-unused-suppressions")
    assert text.code == 1
    assert text.lines() == ["page.md:3:1: unused-suppression: writing-rules-disable-next-line hedging silenced nothing"]
    data = scan("page.md", "--report-unused-suppressions", "--format", "json").json()
    assert data[0]["unusedSuppressions"] == [
        {"line": 3, "column": 1, "message": "writing-rules-disable-next-line hedging silenced nothing"}
    ]
    github = scan("page.md", "--report-unused-suppressions", "--format", "github").lines()
    assert github == [
        "::warning file=page.md,line=3,col=1,title=unused-suppression::"
        "writing-rules-disable-next-line hedging silenced nothing"
    ]
    sarif = scan("page.md", "--report-unused-suppressions", "--format", "sarif").json()
    run = sarif["runs"][0]
    (result,) = run["results"]
    assert result["ruleId"] == "unused-suppression" and result["level"] == "warning"
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "unused-suppression"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 3
    # Without the option nothing is listed, and JSON keeps its shape.
    assert "unusedSuppressions" not in scan("page.md", "--format", "json").json()[0]
