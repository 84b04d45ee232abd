"""MDX expressions (``{...}``) on a line: markup up to the balancing brace, within 4,096 characters."""

from __future__ import annotations

from writing_rules.prose import _inline, read_prose

from .line_count import lines_run


def prose(source: str) -> str:
    return read_prose(source, "mdx").text


def test_an_expression_is_markup_and_a_stray_brace_text() -> None:
    assert prose("Run {props.name} {a {b} c} now.\n").split() == ["Run", "now."]
    assert prose("A { stray brace.\n").split() == ["A", "{", "stray", "brace."]
    assert prose("One } and { two {x}.\n").split() == ["One", "}", "and", "{", "two", "."]


def test_an_expression_longer_than_the_bound_stays_text() -> None:
    inside = "x" * 5000
    assert prose("A {" + inside + "} b.\n").split() == ["A", "{" + inside + "}", "b."]


def test_an_expression_of_4096_characters_with_its_braces_is_the_longest_markup() -> None:
    assert "x" not in prose("A {" + "x" * 4094 + "} b.\n")
    assert "x" in prose("A {" + "x" * 4095 + "} b.\n")


def test_a_line_of_unbalanced_braces_costs_work_in_proportion_to_its_length() -> None:
    # Each brace looked up to 4,096 characters ahead for its partner, one character at a time:
    # a line of 100,000 braces in a checkout's .mdx page took 15 s to scan, 1 MB minutes.
    size = 2_000
    with lines_run(_inline) as count:
        text = prose("{" * size + "\n")
    assert text.strip() == "{" * size
    assert count[0] < 60 * size, count[0]
