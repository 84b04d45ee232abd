"""A real client (pygls' LanguageClient) talking to ``writing-rules lsp`` in a subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import pytest

pytest.importorskip("pygls", reason="the lsp extra (pygls) is a test requirement")

from lsprotocol import types
from pygls.lsp.client import LanguageClient

T = TypeVar("T")


class Session:
    """The client, the diagnostics and messages the server sent, and helpers to wait for them."""

    def __init__(self, client: LanguageClient) -> None:
        self.client = client
        self.published: list[types.PublishDiagnosticsParams] = []
        self.messages: list[types.ShowMessageParams] = []
        self.arrived = asyncio.Event()

    async def diagnostics(self, uri: str, version: int, timeout: float = 20) -> list[types.Diagnostic]:
        """The diagnostics the server published for ``uri`` at ``version``."""

        async def found() -> list[types.Diagnostic]:
            while True:
                for params in reversed(self.published):
                    if params.uri == uri and params.version == version:
                        return list(params.diagnostics)
                self.arrived.clear()
                await self.arrived.wait()

        return await asyncio.wait_for(found(), timeout)

    async def message(self, needle: str, timeout: float = 60) -> types.ShowMessageParams:
        async def found() -> types.ShowMessageParams:
            while True:
                for params in self.messages:
                    if needle in params.message:
                        return params
                self.arrived.clear()
                await self.arrived.wait()

        return await asyncio.wait_for(found(), timeout)

    def open(self, uri: str, text: str, version: int = 1, language_id: str = "markdown") -> None:
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, language_id, version, text))
        )

    def change(self, uri: str, text: str, version: int) -> None:
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=version, uri=uri),
                [types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    async def initialize(self, root: str, **options: Any) -> types.InitializeResult:
        capabilities = types.ClientCapabilities(
            workspace=types.WorkspaceClientCapabilities(
                workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=True)
            )
        )
        result = await self.client.initialize_async(
            types.InitializeParams(capabilities=capabilities, root_uri=root, initialization_options=options or None)
        )
        self.client.initialized(types.InitializedParams())
        return result


@asynccontextmanager
async def serving() -> AsyncIterator[Session]:
    client = LanguageClient("writing-rules-tests", "1")
    session = Session(client)

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(params: types.PublishDiagnosticsParams) -> None:
        session.published.append(params)
        session.arrived.set()

    @client.feature(types.WINDOW_SHOW_MESSAGE)
    def show(params: types.ShowMessageParams) -> None:
        session.messages.append(params)
        session.arrived.set()

    await client.start_io(sys.executable, "-m", "writing_rules", "lsp")
    process = client._server  # pygls keeps the subprocess here; stop() waits for it to end
    try:
        yield session
    finally:
        if process is not None and process.returncode is None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.shutdown_async(None), 10)
                client.exit(None)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(process.wait(), 10)
            if process.returncode is None:  # a server that does not exit fails the test, not the suite
                process.kill()
        # pygls' stop() can wait for ever on its reader after a server that failed a test has exited.
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(client.stop(), 10)


def run(test: Callable[[Session], Awaitable[T]]) -> T:
    """Run ``test`` against a fresh server, in a fresh event loop."""

    async def main() -> T:
        async with serving() as session:
            return await test(session)

    return asyncio.run(main())
