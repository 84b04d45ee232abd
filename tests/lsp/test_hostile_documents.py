"""End to end: URIs with escapes, oversized documents, saves of files never opened, broken configuration."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from writing_rules.lsp import MAX_DOCUMENT_CHARACTERS

from .conftest import Session, run
from .test_protocol_faults import code_action, still_serving

NOMINAL = "Do it in order to win. It is very fast.\n"


def partial_change(uri: str, version: int, start: tuple[int, int], end: tuple[int, int], text: str) -> object:
    return types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(version=version, uri=uri),
        [
            types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(*start), types.Position(*end)), text=text
            )
        ],
    )


def save(client: Session, uri: str) -> None:
    client.client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))


@pytest.mark.parametrize(
    "folder",
    ["my docs/Köln", pytest.param("c:/Straße und Weg", marks=pytest.mark.skipif(os.name == "nt", reason="POSIX"))],
)
def test_a_uri_with_percent_escapes_gets_diagnostics_code_actions_and_its_folder_configuration(
    tmp_path: Path, folder: str
) -> None:
    # A space, a non-ASCII letter, and a colon as VS Code escapes a drive letter (file:///c%3A/...).
    root = tmp_path / folder
    (root / ".git").mkdir(parents=True)
    (root / ".writing-rules.toml").write_text('disable = ["filler"]\n', encoding="utf-8")
    uri = (root / "page.md").as_uri().replace(":/S", "%3A/S")
    assert "%20" in uri or "%3A" in uri

    async def session(client: Session) -> None:
        await client.initialize(tmp_path.as_uri())
        client.open(uri, NOMINAL)
        # The configuration next to the file applies: filler is off, only nominal-style remains.
        assert [d.code for d in await client.diagnostics(uri, 1)] == ["nominal-style"]
        client.client.text_document_did_change(partial_change(uri, 2, (0, 0), (0, 0), "Now "))
        assert [d.range.start.character for d in await client.diagnostics(uri, 2)] == [10]
        actions = await client.client.text_document_code_action_async(code_action(uri, (0, 10), (0, 10)))
        assert actions[0].title == "Replace “in order to” with “to”"
        assert actions[0].edit is not None and actions[0].edit.document_changes is not None
        assert actions[0].edit.document_changes[0].text_document.uri == uri  # the client's own spelling
        # The same document spelled with lower-case escapes, or none, is the same document.
        for spelling in (uri.replace("%C3%B6", "%c3%b6"), uri.replace("%20", " ")):
            again = await client.client.text_document_code_action_async(code_action(spelling, (0, 10), (0, 10)))
            assert [action.title for action in again] == [action.title for action in actions]
        client.client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
        with pytest.raises(JsonRpcException) as closed:
            await client.client.text_document_code_action_async(code_action(uri, (0, 0), (0, 0)))
        assert closed.value.code == types.ErrorCodes.InvalidParams

    run(session)


def test_an_oversized_document_is_refused_once_and_its_edits_are_ignored(tmp_path: Path) -> None:
    async def session(client: Session) -> None:
        await client.initialize(tmp_path.as_uri())
        uri = (tmp_path / "one line.md").as_uri()
        client.open(uri, "word " * (MAX_DOCUMENT_CHARACTERS // 5 + 1))  # one line, over the limit
        for version in range(2, 5):  # keystrokes: not applied, not checked, not reported again
            client.client.text_document_did_change(partial_change(uri, version, (0, 10), (0, 10), "x"))
        await still_serving(client, tmp_path)  # notifications are handled in order: the edits came first
        assert sum("are not checked" in message.message for message in client.messages) == 1
        assert [params for params in client.published if params.uri == uri] == []
        with pytest.raises(JsonRpcException) as refused:
            await client.client.text_document_code_action_async(code_action(uri, (0, 0), (0, 5)))
        assert refused.value.code == types.ErrorCodes.InvalidRequest
        # Shrunk by a whole-content change (select all, paste), it is checked again, edits included.
        client.change(uri, NOMINAL, 5)
        assert sorted(d.code for d in await client.diagnostics(uri, 5)) == ["filler", "nominal-style"]
        client.client.text_document_did_change(partial_change(uri, 6, (0, 6), (0, 18), ""))  # "in order to "
        assert [d.code for d in await client.diagnostics(uri, 6)] == ["filler"]

    run(session)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
def test_a_save_of_a_file_never_opened_reads_nothing(tmp_path: Path) -> None:
    # Reading a FIFO blocks for ever, /dev/zero never ends: the server reads neither.
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)

    async def session(client: Session) -> None:
        await client.initialize(tmp_path.as_uri())
        for uri in (fifo.as_uri(), "file:///dev/zero", (tmp_path / "missing.md").as_uri()):
            save(client, uri)
        await still_serving(client, tmp_path)
        assert {params.uri for params in client.published} == {(tmp_path / "check.md").as_uri()}
        # An open document is checked from the editor's text on save, even where the file is a FIFO.
        client.open(fifo.as_uri(), NOMINAL)
        await client.diagnostics(fifo.as_uri(), 1)
        before = len(client.published)
        save(client, fifo.as_uri())
        await asyncio.wait_for(_published_after(client, before), 20)
        assert sorted(d.code for d in client.published[-1].diagnostics) == ["filler", "nominal-style"]

    run(session)


async def _published_after(client: Session, count: int) -> None:
    while len(client.published) <= count:
        client.arrived.clear()
        await client.arrived.wait()


@pytest.mark.parametrize(
    ("config", "shown"),
    [
        ("a = " + "[" * 3000 + "]" * 3000 + "\n", ".writing-rules.toml"),
        ("language = " + "9" * 5000 + "\n", ".writing-rules.toml"),
        ("nosuchkey = 1\n", ".writing-rules.toml:1: unknown key 'nosuchkey'"),
    ],
    ids=["deep", "5000-digits", "unknown-key"],
)
def test_a_broken_configuration_is_one_clear_message_and_the_server_keeps_serving(
    tmp_path: Path, config: str, shown: str
) -> None:
    broken = tmp_path / "broken"
    (broken / ".git").mkdir(parents=True)
    (broken / ".writing-rules.toml").write_text(config, encoding="utf-8")
    uri = (broken / "page.md").as_uri()

    async def session(client: Session) -> None:
        await client.initialize(tmp_path.as_uri())
        client.open(uri, NOMINAL)
        assert await client.diagnostics(uri, 1) == []  # as `scan`, which refuses to run with it
        message = await client.message(shown)
        assert message.type == types.MessageType.Error
        assert "\n" not in message.message and "Traceback" not in message.message
        with pytest.raises(JsonRpcException) as refused:
            await client.client.text_document_code_action_async(code_action(uri, (0, 8), (0, 8)))
        assert refused.value.code == types.LSPErrorCodes.RequestFailed
        assert shown in refused.value.message and refused.value.data is None
        client.change(uri, NOMINAL + "More.\n", 2)
        assert await client.diagnostics(uri, 2) == []
        assert sum(shown in params.message for params in client.messages) == 1  # not once per keystroke
        await still_serving(client, tmp_path)  # a folder without the broken file

    run(session)
