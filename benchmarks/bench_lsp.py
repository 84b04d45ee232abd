"""Language server: time per change, from didChange to the published diagnostics.

Drives ``writing-rules lsp`` with pygls' client (a real LSP session over
stdio) and compares each figure with the bare scan of the same text in this
process (``lint_text``, what the server runs for a change): the ratio is
the server's own cost, which does not depend on how fast the machine is. Also
measures how long a request about another document waits while a
250,000-character change is being checked, and how the time to diagnostics of
a one-line document grows from 1x to 4x its length.

    python benchmarks/bench_lsp.py            # needs the lsp extra (pygls)
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _timing import best
from lsprotocol import types
from pygls.lsp.client import LanguageClient

from writing_rules.lint import FileSettings, lint_text

PARAGRAPH = (
    "The service is very fast, and in order to restart it we made use of the cache. "
    "Der Dienst stellt die Daten zur Verfügung, wenn der Cache voll ist.\n\n"
)
PAGE = PARAGRAPH * 25  # about 3,700 characters: one page of a guide
BIG = PARAGRAPH * (250_000 // len(PARAGRAPH))
ROUNDS = 7
ONE_LINE = 250_000  # characters of the one-line document at 1x


async def session(root: Path) -> dict[str, float]:
    client = LanguageClient("bench", "1")
    published: dict[tuple[str, int], float] = {}
    arrived = asyncio.Event()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(params: types.PublishDiagnosticsParams) -> None:
        published[(params.uri, params.version or 0)] = time.perf_counter()
        arrived.set()

    async def published_at(uri: str, version: int) -> float:
        while (uri, version) not in published:
            arrived.clear()
            await arrived.wait()
        return published[(uri, version)]

    await client.start_io(sys.executable, "-m", "writing_rules", "lsp")
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    figures: dict[str, float] = {}
    for name, text in (("page", PAGE), ("250k", BIG)):
        uri = (root / f"{name}.md").as_uri()
        client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "markdown", 1, text)))
        await published_at(uri, 1)
        times = []
        for version in range(2, 2 + ROUNDS):
            changed = text + f"Line {version}.\n"
            began = time.perf_counter()
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    types.VersionedTextDocumentIdentifier(version=version, uri=uri),
                    [types.TextDocumentContentChangeWholeDocument(text=changed)],
                )
            )
            times.append(await published_at(uri, version) - began)
        figures[name] = min(times)
        figures[name + "-median"] = statistics.median(times)
    # A request about the page, sent right after a change of the 250k document.
    page, big = (root / "page.md").as_uri(), (root / "250k.md").as_uri()
    waits = []
    for version in range(100, 100 + ROUNDS):
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=version, uri=big),
                [types.TextDocumentContentChangeWholeDocument(text=BIG + f"Line {version}.\n")],
            )
        )
        began = time.perf_counter()
        await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(page),
                range=types.Range(types.Position(0, 35), types.Position(0, 35)),
                context=types.CodeActionContext(diagnostics=[]),
            )
        )
        waits.append(time.perf_counter() - began)
        await published_at(big, version)
    figures["request-during-250k"] = statistics.median(waits)
    # Issue 25, finding 12: a one-line document, opened at 1x, 2x and 4x (linear: about 2 and 4).
    for factor in (1, 2, 4):
        uri = (root / f"one-line-{factor}.md").as_uri()
        text = ("A powerful word " * (ONE_LINE * factor // 16 + 1))[: ONE_LINE * factor]
        began = time.perf_counter()
        client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "markdown", 1, text)))
        figures[f"one-line-{factor}"] = await published_at(uri, 1) - began
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return figures


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(session(Path(folder)))
    settings = FileSettings()
    bare = {
        "page": best(lambda: lint_text(PAGE, "page.md", settings), ROUNDS),
        "250k": best(lambda: lint_text(BIG, "250k.md", settings), 3),
    }
    for name, size in (("page", len(PAGE)), ("250k", len(BIG))):
        print(
            f"change of a {size:,}-character document: {figures[name] * 1000:,.1f} ms to diagnostics "
            f"(median {figures[name + '-median'] * 1000:,.1f} ms); bare scan {bare[name] * 1000:,.1f} ms; "
            f"ratio {figures[name] / bare[name]:.2f}x"
        )
    wait = figures["request-during-250k"]
    print(
        f"code action on the page sent right after a 250k change: answered in {wait * 1000:,.1f} ms "
        f"(median), {wait / figures['250k']:.2f}x of the 250k change's time to diagnostics"
    )
    one = [figures[f"one-line-{factor}"] for factor in (1, 2, 4)]
    print(
        f"one-line document of {ONE_LINE:,}/{2 * ONE_LINE:,}/{4 * ONE_LINE:,} characters, open to diagnostics: "
        + "/".join(f"{seconds:.2f}" for seconds in one)
        + f" s; 2x/1x {one[1] / one[0]:.2f}, 4x/1x {one[2] / one[0]:.2f}"
    )


if __name__ == "__main__":
    main()
