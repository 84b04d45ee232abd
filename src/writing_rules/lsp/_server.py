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
import logging
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcServerNotInitialized,
)
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from .. import __version__
from ..lint import LEVELS
from ._documents import OpenDocument, OpenDocuments, document_key
from ._features import FIX_ALL_KIND, code_actions, diagnostics
from ._linting import CONFIG_NAMES, PACK_NAMES, LintedDocument, WorkspaceConfigs, lint_document, one_line, path_of
from ._positions import LineIndex, PositionError

__all__ = ["MAX_DOCUMENT_CHARACTERS", "RequestFailed", "WritingRulesServer", "create_server"]

# Far above any page of prose (the review tools take 250,000 per call; larger
# files are scanned in pieces); a document over it is refused when it is opened:
# its text is not kept and its edits are not applied, until a whole new text fits.
MAX_DOCUMENT_CHARACTERS = 4_000_000
# A change to a document this long waits this long for the next keystroke before linting.
_DEBOUNCE_FROM = 50_000
_DEBOUNCE_SECONDS = 0.15
_BEFORE_INITIALIZE = {types.INITIALIZE, types.EXIT, types.SHUTDOWN}


class RequestFailed(JsonRpcException):
    """LSP's RequestFailed: the request was valid, the server cannot answer it (a broken configuration)."""

    CODE = types.LSPErrorCodes.RequestFailed.value


class _AnsweredRefusals(logging.Filter):
    """pygls logs a traceback for every request its handler refused with an error, though the
    client got the answer: an editor asks for code actions at each cursor move, so a broken
    configuration or pack (shown once as a message) filled the server's log with them. A refusal
    the server meant (a ``JsonRpcException``) is logged as one line naming the request and the error."""

    def filter(self, record: logging.LogRecord) -> bool:
        refusal = record.exc_info[1] if record.exc_info else None
        if isinstance(refusal, JsonRpcException):
            request = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
            record.msg = "request %s answered with %s (%s): %s"
            record.args = (request, type(refusal).__name__, refusal.code, one_line(refusal.message or ""))
            record.exc_info = None
            record.exc_text = None
        return True


_REFUSALS = _AnsweredRefusals()


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

    # The server keeps the open documents itself (see _documents.py): pygls' workspace is not
    # given them, so it neither applies edits to them nor reads a document from disk.
    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> Iterator[Any]:
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Iterator[Any]:
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> Iterator[Any]:
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None


class WritingRulesServer(LanguageServer):
    """pygls' server plus the open documents and their lint state (keyed by ``document_key``)."""

    def __init__(self) -> None:
        super().__init__("writing-rules", __version__, protocol_cls=_Protocol)
        self.documents = OpenDocuments(MAX_DOCUMENT_CHARACTERS)
        self.results: dict[str, LintedDocument] = {}
        self.pending: dict[str, asyncio.Task[LintedDocument | None]] = {}
        # The error each document's last check showed: a message is shown once, not per keystroke.
        self.errors: dict[str, str] = {}
        # One worker: versions of a document are linted in order, and one busy
        # document does not start many scans at once.
        self.linter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="writing-rules-lint")
        self.language = "auto"
        self.min_level: str | None = None
        self.rule_url: str | None = None
        # The configurations (and their packs) read once per folder, renewed when one changes.
        self.configs = WorkspaceConfigs()

    def document_changes(self) -> bool:
        capabilities = self.client_capabilities
        edit = capabilities.workspace.workspace_edit if capabilities and capabilities.workspace else None
        return bool(edit and edit.document_changes)

    def opened(self, uri: str, version: int | None, text: str) -> None:
        self.forget(uri)
        document = self.documents.open(uri, version, text)
        if document.text is None:
            self._refuse_large(document)  # nothing was published for it: publish nothing
        else:
            self.schedule(uri)

    def changed(self, uri: str, version: int | None, changes: list[types.TextDocumentContentChangeEvent]) -> None:
        before = self.documents.get(uri)
        was_refused = before is not None and before.text is None
        document = self.documents.change(uri, version, changes)
        if document is None:
            return  # not open: nothing to change (the protocol has no answer for a notification)
        if document.text is not None:
            self.schedule(uri)
        elif not was_refused:
            self.forget(uri)
            # Its diagnostics were for a text it no longer has.
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=document.uri, diagnostics=[]))
            self._refuse_large(document)

    def closed(self, uri: str) -> None:
        document = self.documents.close(uri)
        self.forget(uri)
        if document is not None and document.text is not None:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=document.uri, diagnostics=[]))

    def forget(self, uri: str) -> None:
        key = document_key(uri)
        waiting = self.pending.pop(key, None)
        if waiting is not None:
            waiting.cancel()
        self.results.pop(key, None)
        self.errors.pop(key, None)

    def configuration_changed(self, paths: list[str]) -> None:
        """Configuration files (or packs) changed on disk: read them again, and lint every open document."""
        if self.configs.renew(paths):
            for document in self.documents.all():
                if document.text is not None:
                    self.schedule(document.uri)

    def schedule(self, uri: str) -> None:
        """Lint the document's current version soon; a lint waiting for this document is replaced."""
        key = document_key(uri)
        waiting = self.pending.pop(key, None)
        if waiting is not None and not waiting.done():
            waiting.cancel()
        self.pending[key] = asyncio.get_running_loop().create_task(self._lint(key, uri))

    def _check(self, uri: str, version: int | None, text: str) -> tuple[LintedDocument, list[types.Diagnostic]]:
        """Lint and build the diagnostics, in the worker thread (both grow with the document)."""
        try:
            linted = lint_document(
                uri, version, text, language=self.language, min_level=self.min_level, configs=self.configs
            )
            return linted, diagnostics(linted, self.rule_url)
        except Exception as error:  # a fault in one document must not stop the server
            from ..packs import PackError

            if isinstance(error, PackError):  # a pack module edited after it loaded: its message says what to do
                message = one_line(str(error))
            else:
                message = one_line(f"could not check {path_of(uri) or uri} ({type(error).__name__}: {error})")
            failed = LintedDocument(uri, version, text, LineIndex(""), "en", (), config_error=message)
            return failed, []

    async def _lint(self, key: str, uri: str) -> LintedDocument | None:
        document = self.documents.get(uri)
        if document is None or document.text is None:
            return None
        text, version, uri = document.text, document.version, document.uri
        if len(text) >= _DEBOUNCE_FROM:
            await asyncio.sleep(_DEBOUNCE_SECONDS)  # cancelled here by the next keystroke
        loop = asyncio.get_running_loop()
        linted, found = await loop.run_in_executor(self.linter, self._check, uri, version, text)
        current = self.documents.get(uri)
        if current is None or current.version != version or current.text is not text:
            return None  # closed or changed meanwhile: that version's lint will publish
        self.results[key] = linted
        error = linted.config_error
        if error is None:
            self.errors.pop(key, None)
        elif self.errors.get(key) != error:
            shown = error in self.errors.values()  # another document in the same folder showed it
            self.errors[key] = error
            if not shown:
                self.window_show_message(types.ShowMessageParams(types.MessageType.Error, f"writing-rules: {error}"))
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=version)
        )
        return linted

    def _refuse_large(self, document: OpenDocument) -> None:
        self.window_show_message(
            types.ShowMessageParams(
                types.MessageType.Warning,
                f"writing-rules: {document.uri} has {document.size:,} characters; documents over "
                f"{MAX_DOCUMENT_CHARACTERS:,} are not checked (use 'writing-rules scan' on the file).",
            )
        )

    async def current(self, uri: str) -> LintedDocument:
        """The lint of the document's current version, waiting for it when it is under way."""
        document = self.documents.get(uri)
        if document is None:
            raise JsonRpcInvalidParams(f"document {uri!r} is not open; send textDocument/didOpen first")
        key = document_key(uri)
        for _ in range(3):
            if document.text is None:
                raise JsonRpcInvalidRequest(
                    f"document {uri!r} is larger than {MAX_DOCUMENT_CHARACTERS:,} characters and is not checked"
                )
            linted = self.results.get(key)
            if linted is not None and linted.version == document.version and linted.text is document.text:
                if linted.config_error is not None:
                    raise RequestFailed(linted.config_error)
                return linted
            task = self.pending.get(key)
            if task is None or task.done():
                self.schedule(uri)
                task = self.pending[key]
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(task)
            refreshed = self.documents.get(uri)
            if refreshed is None:
                raise JsonRpcInvalidParams(f"document {uri!r} was closed meanwhile")
            document = refreshed
        raise JsonRpcInvalidRequest(f"document {uri!r} keeps changing; ask again")


def create_server() -> WritingRulesServer:
    """A server with every feature registered; ``server.start_io()`` serves it over stdio."""
    server = WritingRulesServer()
    rpc_log = logging.getLogger("pygls.protocol.json_rpc")
    if _REFUSALS not in rpc_log.filters:
        rpc_log.addFilter(_REFUSALS)

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
        folders = [path_of(folder.uri) for folder in params.workspace_folders or ()]
        if not folders and params.root_uri:
            folders = [path_of(params.root_uri)]
        elif not folders and params.root_path:
            folders = [params.root_path]
        server.configs.set_folders(folder for folder in folders if folder)

    @server.feature(types.INITIALIZED)
    def initialized(params: types.InitializedParams) -> None:
        # Ask to hear of configuration files and packs changing on disk, where the client can tell.
        capabilities = server.client_capabilities
        watched = capabilities.workspace.did_change_watched_files if capabilities.workspace else None
        if watched is None or not watched.dynamic_registration:
            return  # a save still notices a changed configuration file (see did_save)
        watchers = [types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in (*CONFIG_NAMES, *PACK_NAMES)]
        server.client_register_capability(
            types.RegistrationParams(
                registrations=[
                    types.Registration(
                        id="writing-rules-configuration",
                        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                        register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
                    )
                ]
            )
        )

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched_files_changed(params: types.DidChangeWatchedFilesParams) -> None:
        paths = [path_of(change.uri) for change in params.changes]
        server.configuration_changed([path for path in paths if path])

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def workspace_folders_changed(params: types.DidChangeWorkspaceFoldersParams) -> None:
        removed = {path_of(folder.uri) for folder in params.event.removed}
        current = [root for root in server.configs.folders if root not in removed]
        added = [path_of(folder.uri) for folder in params.event.added]
        server.configs.set_folders([*current, *(folder for folder in added if folder)])

    # Plain functions, run as each notification is read: the documents change in the client's order.
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        server.opened(item.uri, item.version, item.text)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        server.changed(params.text_document.uri, params.text_document.version, list(params.content_changes))

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        # A configuration file saved, or one changed since it was read (a save is the moment a
        # person expects a changed configuration to count): read again, lint every open document.
        path = path_of(params.text_document.uri)
        saved = [path] if path is not None and os.path.basename(path) in (*CONFIG_NAMES, *PACK_NAMES) else []
        server.configuration_changed([*saved, *server.configs.stale()])
        # The editor's text is checked, never the file: a document that is not open is not read
        # at all (it may be a FIFO, or /dev/zero).
        document = server.documents.get(params.text_document.uri)
        if document is not None and document.text is not None:
            server.schedule(document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        server.closed(params.text_document.uri)

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
