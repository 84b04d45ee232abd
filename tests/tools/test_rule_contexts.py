"""Per-rule contexts: a hit in a context its rule's source excludes is dropped by the tool and the CLI alike."""

from __future__ import annotations

import pytest

from writing_rules import _rules_data as data
from writing_rules.lint import FileSettings, lint_text
from writing_rules.tools import create_writing_tool_dispatcher

DISPATCH = create_writing_tool_dispatcher().dispatch


def tool_rules(text: str, language: str = "en") -> list[tuple[str, str]]:
    envelope = DISPATCH({"name": "find_writing_signals", "arguments": {"text": text, "language": language}})
    assert envelope["ok"]
    return [(s["ruleId"], s["match"]) for s in envelope["data"]["signals"]]


def cli_rules(text: str, language: str = "en") -> list[tuple[str, str]]:
    result = lint_text(text, "page.md", FileSettings(language=language), language=language)
    return [(s.rule_id, s.match) for s in result.signals]


def test_the_shipped_rules_name_their_contexts() -> None:
    assert data.RULE_EXCLUDED_CONTEXTS["easy-claims"] == ("negated",)
    for rule_id, contexts in data.RULE_EXCLUDED_CONTEXTS.items():
        assert set(contexts) <= {"negated", "quotation", "heading", "code", "table"}, rule_id


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Setting this up is never easy, and it is not something you can simply skip.", "en"),
        ("You do not simply restart the\nserver; it takes a while.", "en"),  # a soft break does not end the clause
        ("Das ist nicht einfach.", "de"),
        ("Einfach ist das nicht.", "de"),  # German: the negation may follow
    ],
)
def test_easy_claims_are_dropped_in_negated_statements(text: str, language: str) -> None:
    assert not [hit for hit in tool_rules(text, language) if hit[0] == "easy-claims"]
    assert not [hit for hit in cli_rules(text, language) if hit[0] == "easy-claims"]


def test_easy_claims_still_fire_outside_negation() -> None:
    text = "Simply restart the server. It is not slow."
    assert ("easy-claims", "Simply") in tool_rules(text)
    assert ("easy-claims", "Simply") in cli_rules(text)


def test_long_sentences_skip_headings_and_code() -> None:
    sentence = ", ".join(["the client builds an index of every file in the workspace"] * 6) + "."
    assert [rule for rule, _ in tool_rules(sentence) if rule == "long-sentences"] == ["long-sentences"]
    heading = "# " + sentence[:-1] + "\n"
    fenced = "```\n" + sentence + "\n```\n"
    for text in (heading, fenced):
        assert "long-sentences" not in [rule for rule, _ in tool_rules(text)]
        assert "long-sentences" not in [rule for rule, _ in cli_rules(text)]


def test_placeholders_in_code_are_not_reported_by_the_tool() -> None:
    assert ("placeholders", "TODO") in tool_rules("TODO: write this section.")
    assert "placeholders" not in [rule for rule, _ in tool_rules("```\n# TODO: write this section.\n```\n")]


def test_a_heading_made_of_a_noun_phrase_is_no_nominal_style() -> None:
    # Issue 28: a heading is naturally nominal ("Bei der Verwendung von Slots").
    heading = "## Bei der Verwendung von Slots\n\nBei der Verwendung von Slots gilt Folgendes.\n"
    for found in (tool_rules(heading, "de"), cli_rules(heading, "de")):
        nominal = [match for rule, match in found if rule == "nominal-style"]
        assert nominal == ["Bei der Verwendung von"]  # the sentence's, not the heading's
