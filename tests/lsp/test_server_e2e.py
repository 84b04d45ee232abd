"""End to end: initialize, open, change, diagnostics, code actions, apply the edit, shutdown."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

from lsprotocol import types

from writing_rules._rules_data import RULES
from writing_rules.lint import signal_level

from .conftest import Session, run


def apply(text: str, edit: types.WorkspaceEdit) -> str:
    """What a client does with a WorkspaceEdit: apply its text edits, last first."""
    assert edit.document_changes is not None
    (change,) = edit.document_changes
    assert isinstance(change, types.TextDocumentEdit)
    lines = text.split("\n")

    def offset(position: types.Position) -> int:  # ASCII test texts: UTF-16 units are characters
        return sum(len(line) + 1 for line in lines[: position.line]) + position.character

    for item in sorted(change.edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        assert isinstance(item, types.TextEdit)
        text = text[: offset(item.range.start)] + item.new_text + text[offset(item.range.end) :]
    return text


def test_a_whole_editing_session(tmp_path: Path) -> None:
    uri = (tmp_path / "guide.md").as_uri()  # never saved: the server sees only the editor's text

    async def session(client: Session) -> None:
        result = await client.initialize(tmp_path.as_uri())
        assert result.capabilities.code_action_provider is not None
        text = "Restart the service in order to apply the settings.\n\nThe tool is very fast.\n"
        client.open(uri, text)
        found = await client.diagnostics(uri, 1)
        assert sorted((d.code, d.range.start.line, d.range.start.character) for d in found) == [
            ("filler", 2, 12),
            ("nominal-style", 0, 20),
        ]
        nominal = next(d for d in found if d.code == "nominal-style")
        assert (
            nominal.severity
            == {"error": 1, "warning": 2, "suggestion": 3}[signal_level("nominal-style", "nominal-phrase-en")]
        )
        assert nominal.source == "writing-rules"
        assert "in order to" in nominal.message and "safe fix" in nominal.message
        page = Path(urlparse(nominal.code_description.href).path).read_text(encoding="utf-8")
        assert RULES["nominal-style"].texts["en"].instruction in page

        # A change: the diagnostics follow the unsaved text.
        text = "Restart it in order to apply it.\n\nThe tool is very fast.\n"
        client.change(uri, text, 2)
        found = await client.diagnostics(uri, 2)
        nominal = next(d for d in found if d.code == "nominal-style")
        assert (nominal.range.start.line, nominal.range.start.character) == (0, 11)

        actions = await client.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri),
                range=nominal.range,
                context=types.CodeActionContext(diagnostics=[nominal]),
            )
        )
        titles = [action.title for action in actions]
        assert titles == [
            "Replace “in order to” with “to”",
            "Disable nominal-style for this line",
            "Apply all safe fixes in this file (2)",
        ]
        fix, disable, fix_all = actions
        assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred

        # Apply this fix: the signal goes, the other one stays.
        client.change(uri, apply(text, fix.edit), 3)
        assert [d.code for d in await client.diagnostics(uri, 3)] == ["filler"]

        # Disable the rule for the line: the same directive the command line honours.
        disabled = apply(text, disable.edit)
        assert disabled.startswith(
            "Restart it in order to apply it. <!-- writing-rules-disable-line nominal-style -->\n"
        )
        client.change(uri, disabled, 4)
        assert [d.code for d in await client.diagnostics(uri, 4)] == ["filler"]

        # Apply all safe fixes in the file.
        client.change(uri, text, 5)
        await client.diagnostics(uri, 5)
        fixed = apply(text, fix_all.edit)
        assert fixed == "Restart it to apply it.\n\nThe tool is fast.\n"
        client.change(uri, fixed, 6)
        assert await client.diagnostics(uri, 6) == []

        # source.fixAll on its own, as editors ask for it on save.
        client.change(uri, text, 7)
        await client.diagnostics(uri, 7)
        only = await client.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri),
                range=types.Range(types.Position(0, 0), types.Position(0, 0)),
                context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll]),
            )
        )
        assert [(action.kind, apply(text, action.edit)) for action in only] == [
            ("source.fixAll.writing-rules", "Restart it to apply it.\n\nThe tool is fast.\n")
        ]

        await client.client.shutdown_async(None)
        client.client.exit(None)

    run(session)


def test_configuration_and_directives_are_those_of_the_command_line(tmp_path: Path) -> None:
    (tmp_path / ".writing-rules.toml").write_text('disable = ["filler"]\n', encoding="utf-8")
    uri = (tmp_path / "page.md").as_uri()

    async def session(client: Session) -> None:
        await client.initialize(tmp_path.as_uri())
        client.open(
            uri,
            "It is very fast.\n\n<!-- writing-rules-disable-next-line nominal-style -->\n"
            "Do it in order to win.\n\nDo it in order to win.\n",
        )
        found = await client.diagnostics(uri, 1)
        assert [(d.code, d.range.start.line) for d in found] == [("nominal-style", 5)]

    run(session)
