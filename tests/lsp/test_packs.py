"""The language server with a team's pack: diagnostics, quick fixes, disable actions and rule pages."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the lsp extra (pygls) is a test requirement")

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from writing_rules.lsp._features import code_actions, diagnostics
from writing_rules.lsp._linting import WorkspaceConfigs, lint_document

from .conftest import Session, run
from .test_protocol_faults import code_action, still_serving

ACME = Path(__file__).resolve().parents[2] / "examples" / "packs" / "acme"
PAGE = "Please log in first. Acme cloud runs it.\n"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    shutil.copytree(ACME, tmp_path / "styles" / "acme", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / ".writing-rules.toml").write_text('packs = ["./styles/acme"]\n', encoding="utf-8")
    return tmp_path


def test_pack_diagnostics_fixes_and_rule_pages(folder: Path) -> None:
    uri = (folder / "page.md").as_uri()
    linted = lint_document(uri, 1, PAGE, configs=WorkspaceConfigs([str(folder)]))
    found = diagnostics(linted)
    assert [(d.code, d.severity) for d in found] == [
        ("acme/terms", types.DiagnosticSeverity.Warning),
        ("acme/terms", types.DiagnosticSeverity.Error),
    ]
    first = found[0]
    # The pack's own message for the hit, and the safe fix.
    assert first.message == (
        "Use 'sign in' instead of 'log in'. Our product says \"sign in\" everywhere. (safe fix: “sign in”)"
    )
    assert first.data["fix"] == {"replacement": "sign in", "match": "log in"}
    assert first.code_description is not None
    page = Path(first.code_description.href.removeprefix("file://"))
    assert page.name == "acme--terms.md"
    assert page.read_text(encoding="utf-8").startswith("# ")
    assert "(`acme/terms`)" in page.read_text(encoding="utf-8")
    start = linted.signals[0].start
    titles = [action.title for action in code_actions(linted, start, start)]
    assert titles == [
        "Replace “log in” with “sign in”",
        "Disable acme/terms for this line",
        "Apply all safe fixes in this file (2)",
    ]
    (disable,) = [action for action in code_actions(linted, start, start) if action.title.startswith("Disable")]
    assert disable.edit is not None and disable.edit.document_changes is not None
    edit = disable.edit.document_changes[0].edits[0]  # type: ignore[union-attr]
    assert edit.new_text == " <!-- writing-rules-disable-line acme/terms -->"
    again = lint_document(uri, 2, PAGE.rstrip("\n") + edit.new_text + "\n", configs=WorkspaceConfigs([str(folder)]))
    assert again.signals == () and again.problems == ()


def test_a_pack_through_the_real_server(folder: Path) -> None:
    uri = (folder / "page.md").as_uri()

    async def session(client: Session) -> None:
        await client.initialize(folder.as_uri())
        client.open(uri, PAGE)
        assert [d.code for d in await client.diagnostics(uri, 1)] == ["acme/terms", "acme/terms"]
        # A pack that cannot be used: one message naming the configuration line, no diagnostics.
        (folder / "styles" / "acme" / "_pack_data.py").unlink()
        client.client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[
                    types.FileEvent(
                        uri=(folder / "styles" / "acme" / "_pack_data.py").as_uri(), type=types.FileChangeType.Deleted
                    )
                ]
            )
        )
        message = await client.message("the pack is not built")
        assert ".writing-rules.toml:1: pack " in message.message and "pack build" in message.message

    run(session)


def test_a_pack_line_edited_by_hand_is_one_message_naming_the_pack(folder: Path) -> None:
    # The section's checksum made to match: the pack loads; the bad message is read at the first hit.
    from ..packs.test_loader import set_line

    set_line(folder / "styles" / "acme", "messages", "acme/terms", "sign-in-en", '"broken')
    uri = (folder / "page.md").as_uri()

    async def session(client: Session) -> None:
        await client.initialize(folder.as_uri())
        client.open(uri, PAGE)
        message = await client.message("pack build")
        assert message.type == types.MessageType.Error
        assert message.message.startswith("writing-rules: pack ")
        assert "styles/acme: _pack_data.py was changed after it was built" in message.message
        assert await client.diagnostics(uri, 1) == []
        # Code actions (an editor asks for them at every cursor move) answer RequestFailed with the
        # same line, as documented; the server keeps serving, and logs no traceback per request:
        # a broken pack is the user's configuration, not a fault of the server.
        for _ in range(3):
            with pytest.raises(JsonRpcException) as refused:
                await client.client.text_document_code_action_async(code_action(uri, (0, 8), (0, 8)))
            assert refused.value.code == types.LSPErrorCodes.RequestFailed
            assert "was changed after it was built" in refused.value.message
        await still_serving(client, folder.parent / "elsewhere")
        assert sum("pack build" in shown.message for shown in client.messages) == 1
        process = client.client._server
        assert process is not None and process.stderr is not None
        await client.client.shutdown_async(None)
        client.client.exit(None)
        # EOF once the server has exited: the bound only turns a server that never exits into a failure.
        log = (await asyncio.wait_for(process.stderr.read(), 60)).decode("utf-8", "replace")
        assert "Traceback" not in log, log
        assert log.count("RequestFailed") == 3 and "was changed after it was built" in log  # one line each

    run(session)


@pytest.mark.parametrize("suffix", ["x" * 300, "nul\0id"])
def test_a_rule_id_no_file_can_be_named_after_still_gets_a_link(
    suffix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A pack's rule id is its namespace and any text: a page that cannot be written is no
    # link target, never an error that takes the document's diagnostics with it.
    import tempfile
    from types import SimpleNamespace

    from writing_rules._catalog import builtin_catalog
    from writing_rules.lsp._rule_pages import rule_page_uri

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)  # (pages go under tmp_path, not a desktop's runtime folder)
    rule_id = f"acme/{suffix}"
    catalog = SimpleNamespace(digest="f" * 64, RULES={rule_id: builtin_catalog().RULES["hedging"]})
    uri = rule_page_uri(rule_id, "en", catalog=catalog)  # type: ignore[arg-type]
    assert uri.startswith("file://") and uri.endswith(".md")
