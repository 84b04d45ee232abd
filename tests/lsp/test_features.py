"""Diagnostics and code actions as values: positions, levels, the directive per markup."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the lsp extra (pygls) is a test requirement")

from lsprotocol import types

from writing_rules.lsp._features import code_actions, diagnostics
from writing_rules.lsp._linting import lint_document
from writing_rules.lsp._positions import LineIndex, PositionError


def disable_text(path: Path, text: str) -> str:
    linted = lint_document(path.as_uri(), 1, text, language="en")
    start = linted.signals[0].start
    (action,) = [a for a in code_actions(linted, start, start) if a.title.startswith("Disable")]
    assert action.edit is not None and action.edit.document_changes is not None
    (change,) = action.edit.document_changes
    assert isinstance(change, types.TextDocumentEdit)
    (edit,) = change.edits
    assert isinstance(edit, types.TextEdit)
    index = linted.index
    at = index.offset(edit.range.start.line, edit.range.start.character)
    return text[:at] + edit.new_text + text[at:]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("page.md", "Do it in order to win. <!-- writing-rules-disable-line nominal-style -->\n"),
        ("page.txt", "Do it in order to win. <!-- writing-rules-disable-line nominal-style -->\n"),
        ("page.mdx", "Do it in order to win. {/* writing-rules-disable-line nominal-style */}\n"),
        # A blank line ends an rst comment; without it docutils warns (and `sphinx -W` fails).
        ("page.rst", ".. writing-rules-disable-next-line nominal-style\n\nDo it in order to win.\n"),
    ],
)
def test_disable_inserts_the_directive_the_linter_reads(tmp_path: Path, name: str, expected: str) -> None:
    text = "Do it in order to win.\n"
    fixed = disable_text(tmp_path / name, text)
    assert fixed == expected
    assert lint_document((tmp_path / name).as_uri(), 2, fixed, language="en").signals == ()


def test_disable_in_the_middle_of_an_rst_paragraph_keeps_the_paragraph(tmp_path: Path) -> None:
    # A comment line inside an rst paragraph is paragraph text: it would show in the built page.
    # The action wraps the paragraph in disable ... enable instead, each comment on its own.
    text = "Title\n=====\n\nThe first line.\nDo it in order to win.\n\nNext paragraph.\n"
    path = tmp_path / "page.rst"
    linted = lint_document(path.as_uri(), 1, text, language="en")
    (signal,) = linted.signals
    (action,) = [a for a in code_actions(linted, signal.start, signal.start) if a.title.startswith("Disable")]
    assert action.edit is not None and action.edit.document_changes is not None
    (change,) = action.edit.document_changes
    assert isinstance(change, types.TextDocumentEdit)
    index = linted.index
    fixed = text
    for edit in sorted(change.edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        assert isinstance(edit, types.TextEdit)
        at = index.offset(edit.range.start.line, edit.range.start.character)
        fixed = fixed[:at] + edit.new_text + fixed[at:]
    assert fixed == (
        "Title\n=====\n\n.. writing-rules-disable nominal-style\n\nThe first line.\nDo it in order to win.\n\n"
        ".. writing-rules-enable nominal-style\n\nNext paragraph.\n"
    )
    assert lint_document(path.as_uri(), 2, fixed, language="en").signals == ()


def test_positions_are_utf16_units() -> None:
    text = "🙂 in order to\r\nzweite Zeile"
    index = LineIndex(text)
    assert index.position(2) == (0, 3)  # the emoji is two UTF-16 units
    assert index.offset(0, 3) == 2
    assert index.position(len(text)) == (1, 12)
    assert index.offset(0, 999) == text.index("\r")  # past the line's end: its end
    with pytest.raises(PositionError):
        index.offset(2, 0)


def test_diagnostic_range_and_level(tmp_path: Path) -> None:
    linted = lint_document(
        (tmp_path / "a.md").as_uri(), 3, "🙂 Es ist sehr groß.\n", language="de", min_level="suggestion"
    )
    (diagnostic,) = diagnostics(linted)
    assert (diagnostic.range.start.character, diagnostic.range.end.character) == (10, 14)
    assert diagnostic.code == "filler" and diagnostic.data["fix"] == {"replacement": "", "match": "sehr "}
    assert diagnostic.severity == types.DiagnosticSeverity.Information  # filler-word-de is a suggestion


def test_a_file_the_configuration_excludes_gets_no_diagnostics(tmp_path: Path) -> None:
    # The editor follows the same configuration as the CLI, which never lints an excluded file.
    (tmp_path / ".git").mkdir()
    (tmp_path / ".writing-rules.toml").write_text('exclude = ["vendor/", "CHANGELOG.md"]\n', encoding="utf-8")
    text = "Do it in order to win.\n"
    for name in ("vendor/lib/page.md", "CHANGELOG.md"):
        assert lint_document((tmp_path / name).as_uri(), 1, text, language="en").signals == ()
    assert lint_document((tmp_path / "docs" / "page.md").as_uri(), 1, text, language="en").signals != ()
