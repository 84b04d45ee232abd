"""A careless or hostile client gets protocol errors, and the server goes on serving."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from writing_rules.lsp._linting import lint_document

from .conftest import Session, run


def code_action(uri: str, start: tuple[int, int], end: tuple[int, int]) -> types.CodeActionParams:
    return types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri),
        range=types.Range(types.Position(*start), types.Position(*end)),
        context=types.CodeActionContext(diagnostics=[]),
    )


async def raw_request(client: Session, method: str, params: object) -> JsonRpcException:
    """Send a request as raw JSON and return the error it is answered with."""
    protocol = client.client.protocol
    answer: asyncio.Future[object] = asyncio.get_running_loop().create_future()
    protocol._request_futures["raw-1"] = answer  # pygls matches the response to it by id
    protocol._send_data({"jsonrpc": "2.0", "id": "raw-1", "method": method, "params": params})
    with pytest.raises(JsonRpcException) as refused:
        await asyncio.wait_for(answer, 30)
    return refused.value


async def still_serving(client: Session, root: Path, name: str = "check.md") -> None:
    """The server still lints and answers after the fault."""
    uri = (root / name).as_uri()
    client.open(uri, "Do it in order to win.\n")
    assert [d.code for d in await client.diagnostics(uri, 1)] == ["nominal-style"]
    actions = await client.client.text_document_code_action_async(code_action(uri, (0, 8), (0, 8)))
    assert actions[0].title == "Replace “in order to” with “to”"


def test_requests_before_initialize_are_refused(tmp_path: Path) -> None:
    async def session(client: Session) -> None:
        with pytest.raises(JsonRpcException) as refused:
            await client.client.text_document_code_action_async(code_action("file:///x.md", (0, 0), (0, 0)))
        assert refused.value.code == types.ErrorCodes.ServerNotInitialized
        await client.initialize(tmp_path.as_uri())
        await still_serving(client, tmp_path)

    run(session)


def test_unknown_methods_and_invalid_positions(tmp_path: Path) -> None:
    async def session(client: Session) -> None:
        await client.initialize(tmp_path.as_uri())
        with pytest.raises(JsonRpcException) as unknown:
            await client.client.protocol.send_request_async("writingRules/noSuchMethod", {"x": 1})
        assert unknown.value.code == types.ErrorCodes.MethodNotFound
        client.client.protocol.notify("writingRules/noSuchNotification", {})  # ignored, as the protocol says

        uri = (tmp_path / "page.md").as_uri()
        client.open(uri, "One line.\n")
        await client.diagnostics(uri, 1)
        with pytest.raises(JsonRpcException) as beyond:
            await client.client.text_document_code_action_async(code_action(uri, (99, 0), (99, 5)))
        assert beyond.value.code == types.ErrorCodes.InvalidParams
        assert "outside the document" in beyond.value.message
        # Params that do not fit the request's shape at all (sent raw: the client would refuse them).
        error = await raw_request(
            client,
            types.TEXT_DOCUMENT_CODE_ACTION,
            {
                "textDocument": {"uri": uri},
                "range": {"start": {"line": -1, "character": 0}, "end": {"line": 0, "character": "x"}},
                "context": {"diagnostics": []},
            },
        )
        assert error.code == types.ErrorCodes.InvalidParams
        with pytest.raises(JsonRpcException) as not_open:
            await client.client.text_document_code_action_async(
                code_action((tmp_path / "closed.md").as_uri(), (0, 0), (0, 0))
            )
        assert not_open.value.code == types.ErrorCodes.InvalidParams
        await still_serving(client, tmp_path)

    run(session)


def test_a_20_mb_document_is_refused_and_the_server_keeps_serving(tmp_path: Path) -> None:
    async def session(client: Session) -> None:
        await client.initialize(tmp_path.as_uri())
        uri = (tmp_path / "huge.md").as_uri()
        client.open(uri, "Do it in order to win. " * (20 * 2**20 // 23))
        warning = await client.message("are not checked")
        assert warning.type == types.MessageType.Warning
        with pytest.raises(JsonRpcException) as refused:
            await client.client.text_document_code_action_async(code_action(uri, (0, 0), (0, 5)))
        assert refused.value.code == types.ErrorCodes.InvalidRequest
        await still_serving(client, tmp_path)

    run(session)


def test_a_big_document_does_not_hold_up_later_requests(tmp_path: Path) -> None:
    """While a 250,000-character change is linted, a request about another document is answered."""

    async def session(client: Session) -> None:
        await client.initialize(tmp_path.as_uri())
        small = (tmp_path / "small.md").as_uri()
        client.open(small, "Do it in order to win.\n")
        await client.diagnostics(small, 1)
        big = (tmp_path / "big.md").as_uri()
        paragraph = "The service is very fast, and in order to restart it we made use of the cache.\n\n"
        text = paragraph * (250_000 // len(paragraph))
        client.open(big, text)
        await client.diagnostics(big, 1)
        # The change: the answer to the request sent right after it must not wait for its lint.
        client.change(big, text + "One more line.\n", 2)
        began = time.perf_counter()
        actions = await client.client.text_document_code_action_async(code_action(small, (0, 8), (0, 8)))
        answered = time.perf_counter() - began
        found = await client.diagnostics(big, 2)
        linted = time.perf_counter() - began
        assert actions and len(found) == len(lint_document(big, 2, text + "One more line.\n").signals) > 0
        # Ordering, not wall time: the request was answered before the big lint was published.
        assert answered < linted

    run(session)


def test_results_for_an_old_version_are_never_published(tmp_path: Path) -> None:
    async def session(client: Session) -> None:
        await client.initialize(tmp_path.as_uri())
        uri = (tmp_path / "page.md").as_uri()
        base = "The service is very fast.\n\n" * 4000
        client.open(uri, base)
        for version in range(2, 7):
            client.change(uri, base + "In order to win." * version, version)
        found = await client.diagnostics(uri, 6)
        assert sum(d.code == "nominal-style" for d in found) == 6
        await asyncio.sleep(0.5)
        assert {params.version for params in client.published if params.uri == uri} <= {1, 6}

    run(session)
