"""A dispatcher created with lint settings runs the lint engine for find_writing_signals (issue 26)."""

from __future__ import annotations

from writing_rules.lint import FileSettings, lint_text
from writing_rules.tools import create_writing_tool_dispatcher

TEXT = (
    "A powerful tool.\n\n"
    "<!-- writing-rules-disable-next-line word-choice -->\n"
    "Another powerful tool.\n\n"
    "```\nA powerful snippet\n```\n"
)


def _signals(config: object, text: str = TEXT, **arguments: object) -> list[dict[str, object]]:
    result = create_writing_tool_dispatcher(config=config).dispatch(
        {"name": "find_writing_signals", "arguments": {"text": text, **arguments}}
    )
    assert result["ok"], result
    signals: list[dict[str, object]] = result["data"]["signals"]
    return signals


def test_lint_settings_apply_the_texts_inline_directives_as_the_command_line_does() -> None:
    lines = [signal["line"] for signal in _signals(FileSettings())]
    assert lines == [1, 7]  # line 4 is silenced by its directive; the hit in code is annotated, as the tool does


def test_the_tools_signals_are_the_engines() -> None:
    settings = FileSettings(accept=("Another",))
    expected = lint_text(TEXT, "page.md", settings.overlay(), language="en", include_code=True).signals
    assert _signals(settings) == [signal.wire() for signal in expected]


def test_a_mapping_config_applies_the_policy_but_reads_no_directives() -> None:
    # A plain mapping has no engine behind it (the tool layer cannot import lint): documented.
    assert [signal["line"] for signal in _signals({})] == [1, 4, 7]


def test_rules_the_policy_leaves_none_of_give_no_signals() -> None:
    assert _signals(FileSettings(disable=("word-choice",)), ruleIds=["word-choice"]) == []
