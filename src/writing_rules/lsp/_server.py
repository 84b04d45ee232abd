"""The language server: documents in, diagnostics and code actions out, over stdio.

Every open document is linted on open and on each change, unsaved text
included. Linting runs in a worker thread, one document version at a time
(a newer change cancels a waiting one), so a large document never holds up
the requests that come after its change; a result for a version that is no
longer current is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams, JsonRpcInvalidRequest, JsonRpcServerNotInitialized
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from .. import __version__
from ..lint import LEVELS
from ._features import FIX_ALL_KIND, code_actions, diagnostics
from ._linting import LintedDocument, lint_document
from ._positions import LineIndex, PositionError

__all__ = ["MAX_DOCUMENT_CHARACTERS", "WritingRulesServer", "create_server"]

# Far above any page of prose (the review tools take 250,000 per call; larger
# files are scanned in pieces); a client that sends more gets an error, not a stall.
MAX_DOCUMENT_CHARACTERS = 4_000_000
# A change to a document this long waits this long for the next keystroke before linting.
_DEBOUNCE_FROM = 50_000
_DEBOUNCE_SECONDS = 0.15
_BEFORE_INITIALIZE = {types.INITIALIZE, types.EXIT, types.SHUTDOWN}


class _Rejected:
    """A request that was answered with an error while it was read; nothing more to do."""

    jsonrpc = "2.0"


class _Protocol(LanguageServerProtocol):
    """pygls' protocol, strict where a careless client could leave a request unanswered."""

    def __init__(self, server: Any, converter: Any) -> None:
        super().__init__(server, converter)
        self._initialize_seen = False

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except Exception as error:
            if "id" in data and "method" in data:
                # pygls would log the bad params and never answer; the client would wait forever.
                code = getattr(error, "code", JsonRpcInvalidParams.CODE)
                message = f"Invalid params for {data['method']!r}: {getattr(error, 'message', '') or error}"
                self._send_response(data["id"], error=types.ResponseError(code=code, message=message))
                return _Rejected()
            raise

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _Rejected):
            return
        method = getattr(message, "method", None)
        if method == types.INITIALIZE:
            self._initialize_seen = True
        elif method is not None and not self._initialize_seen and method not in _BEFORE_INITIALIZE:
            if getattr(message, "id", None) is not None:
                error = JsonRpcServerNotInitialized(f"{method!r} before 'initialize'; send 'initialize' first")
                self._send_response(message.id, error=error.to_response_error())
            return  # a notification before initialize is dropped, as the protocol says
        super().handle_message(message)


class WritingRulesServer(LanguageServer):
    """pygls' server plus the lint state of the open documents."""

    def __init__(self) -> None:
        super().__init__("writing-rules", __version__, protocol_cls=_Protocol)
        self.results: dict[str, LintedDocument] = {}
        self.pending: dict[str, asyncio.Task[LintedDocument | None]] = {}
        self.too_large: set[str] = set()
        # One worker: versions of a document are linted in order, and one busy
        # document does not start many scans at once.
        self.linter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="writing-rules-lint")
        self.language = "auto"
        self.min_level: str | None = None
        self.rule_url: str | None = None

    def document_changes(self) -> bool:
        capabilities = self.client_capabilities
        edit = capabilities.workspace.workspace_edit if capabilities and capabilities.workspace else None
        return bool(edit and edit.document_changes)

    def schedule(self, uri: str) -> None:
        """Lint the document's current version soon; a lint waiting for this document is replaced."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None and not waiting.done():
            waiting.cancel()
        self.pending[uri] = asyncio.get_running_loop().create_task(self._lint(uri))

    async def _lint(self, uri: str) -> LintedDocument | None:
        document = self.workspace.get_text_document(uri)
        text, version = document.source, document.version
        if len(text) > MAX_DOCUMENT_CHARACTERS:
            self._refuse_large(uri, len(text))
            return None
        self.too_large.discard(uri)
        if len(text) >= _DEBOUNCE_FROM:
            await asyncio.sleep(_DEBOUNCE_SECONDS)  # cancelled here by the next keystroke
        loop = asyncio.get_running_loop()
        linted = await loop.run_in_executor(
            self.linter, lambda: lint_document(uri, version, text, language=self.language, min_level=self.min_level)
        )
        current = self.workspace.text_documents.get(uri)
        if current is None or current.version != version:
            return None  # closed or changed meanwhile: that version's lint will publish
        self.results[uri] = linted
        if linted.config_error is not None:
            self.window_show_message(
                types.ShowMessageParams(types.MessageType.Error, f"writing-rules: {linted.config_error}")
            )
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics(linted, self.rule_url), version=version)
        )
        return linted

    def _refuse_large(self, uri: str, size: int) -> None:
        self.results.pop(uri, None)
        self.too_large.add(uri)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        self.window_show_message(
            types.ShowMessageParams(
                types.MessageType.Warning,
                f"writing-rules: {uri} has {size:,} characters; documents over "
                f"{MAX_DOCUMENT_CHARACTERS:,} are not checked (use 'writing-rules scan' on the file).",
            )
        )

    async def current(self, uri: str) -> LintedDocument:
        """The lint of the document's current version, waiting for it when it is under way."""
        if uri not in self.workspace.text_documents:
            raise JsonRpcInvalidParams(f"document {uri!r} is not open; send textDocument/didOpen first")
        if uri in self.too_large:
            raise JsonRpcInvalidRequest(
                f"document {uri!r} is larger than {MAX_DOCUMENT_CHARACTERS:,} characters and is not checked"
            )
        document = self.workspace.get_text_document(uri)
        for _ in range(3):
            linted = self.results.get(uri)
            if linted is not None and linted.version == document.version and linted.text == document.source:
                return linted
            task = self.pending.get(uri)
            if task is None or task.done():
                self.schedule(uri)
                task = self.pending[uri]
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(task)
        raise JsonRpcInvalidRequest(f"document {uri!r} keeps changing; ask again")


def create_server() -> WritingRulesServer:
    """A server with every feature registered; ``server.start_io()`` serves it over stdio."""
    server = WritingRulesServer()

    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict):
            language = options.get("language")
            if language in ("en", "de", "auto"):
                server.language = language
            min_level = options.get("minLevel")
            if min_level in LEVELS:
                server.min_level = min_level
            rule_url = options.get("ruleUrl")
            if isinstance(rule_url, str) and rule_url:
                server.rule_url = rule_url

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(params: types.DidOpenTextDocumentParams) -> None:
        server.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(params: types.DidChangeTextDocumentParams) -> None:
        server.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(params: types.DidSaveTextDocumentParams) -> None:
        server.schedule(params.text_document.uri)  # a configuration next to it may have changed

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        waiting = server.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        server.results.pop(uri, None)
        server.too_large.discard(uri)
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND],
            resolve_provider=False,
        ),
    )
    async def code_action(params: types.CodeActionParams) -> list[types.CodeAction]:
        linted = await server.current(params.text_document.uri)
        index: LineIndex = linted.index
        try:
            start = index.offset(params.range.start.line, params.range.start.character)
            end = index.offset(params.range.end.line, params.range.end.character)
        except PositionError as error:
            raise JsonRpcInvalidParams(str(error)) from None
        if end < start:
            raise JsonRpcInvalidParams("the range ends before it starts")
        only = [str(getattr(kind, "value", kind)) for kind in params.context.only] if params.context.only else None
        return code_actions(linted, start, end, only, document_changes=server.document_changes())

    return server
