"""Two ``serve-mcp`` processes on one PostgreSQL database, a client each, editing the same document.

This is the setting the PostgreSQL store is for: two agent hosts, one body of documents.
Neither server may overwrite what the other wrote.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest

import writing_rules
from tests.postgres_support import PostgresSchemas, in_ci

try:
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
except ImportError:
    if in_ci():
        raise
    pytest.skip("needs the mcp extra: pip install 'writing-rules[mcp]'", allow_module_level=True)

APPENDS = 8  # per client, at the same time, without expectedVersion


@pytest.fixture
def database() -> Iterator[str]:
    schemas = PostgresSchemas()
    dsn = schemas.fresh()
    if not dsn.startswith(("postgresql://", "postgres://")):
        pytest.skip("the two-server test needs the test DSN as a postgresql:// URL")
    from writing_rules.documents import PostgresDocumentStore

    with PostgresDocumentStore(dsn) as store:
        store.create("shared/guide.md", "# Guide\n\nStep one.\n")
    try:
        yield dsn
    finally:
        schemas.drop()


def _payload(result: Any) -> dict[str, Any]:
    envelope = json.loads(result.content[0].text)
    assert envelope == result.structured_content
    return envelope


def test_two_servers_on_one_database_never_overwrite_each_other(database: str, tmp_path: Path) -> None:
    source_root = str(Path(writing_rules.__file__).resolve().parent.parent)
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "writing_rules", "serve-mcp", "--documents", database],
        env={"PYTHONPATH": source_root, "PATH": os.environ.get("PATH", "")},
        cwd=str(tmp_path),
    )

    async def call(session: ClientSession, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return _payload(await session.call_tool(name, arguments))

    async def append_until_stored(session: ClientSession, line: str, conflicts: list[str]) -> None:
        operations = [{"operation": "append", "content": line}]
        while True:
            result = await call(session, "write_document", {"id": "shared/guide.md", "operations": operations})
            if result["ok"]:
                return
            assert result["error"]["code"] == "version-conflict", result
            conflicts.append(line)

    async def main() -> dict[str, Any]:
        async with AsyncExitStack() as stack:
            sessions = []
            for _ in range(2):
                read, write = await stack.enter_async_context(stdio_client(server))
                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                sessions.append(session)
            first, second = sessions
            seen: dict[str, Any] = {}
            with anyio.fail_after(120):
                # Both read the same version; the first writes; the second's stale write is refused.
                a = await call(first, "read_document", {"id": "shared/guide.md"})
                b = await call(second, "read_document", {"id": "shared/guide.md"})
                assert a["data"]["version"] == b["data"]["version"]
                seen["first"] = await call(
                    first,
                    "write_document",
                    {
                        "id": "shared/guide.md",
                        "operations": [{"operation": "append", "content": "Step two (host A).\n"}],
                        "expectedVersion": a["data"]["version"],
                    },
                )
                seen["stale"] = await call(
                    second,
                    "write_document",
                    {
                        "id": "shared/guide.md",
                        "operations": [
                            {"operation": "replaceBlock", "oldBlock": "Step one.", "newBlock": "Step 1 (host B)."}
                        ],
                        "expectedVersion": b["data"]["version"],
                    },
                )
                # The second host reads again and redoes its edit on the new text.
                again = await call(second, "read_document", {"id": "shared/guide.md"})
                seen["redone"] = await call(
                    second,
                    "write_document",
                    {
                        "id": "shared/guide.md",
                        "operations": [
                            {"operation": "replaceBlock", "oldBlock": "Step one.", "newBlock": "Step 1 (host B)."}
                        ],
                        "expectedVersion": again["data"]["version"],
                    },
                )
                # Then both append at the same time, without naming a version.
                conflicts: list[str] = []
                async with anyio.create_task_group() as group:
                    for host, session in (("A", first), ("B", second)):

                        async def appends(host: str = host, session: ClientSession = session) -> None:
                            for index in range(APPENDS):
                                await append_until_stored(session, f"{host}{index}\n", conflicts)

                        group.start_soon(appends)
                seen["conflicts"] = conflicts
                seen["final"] = await call(first, "read_document", {"id": "shared/guide.md"})
            return seen

    seen = anyio.run(main)
    assert seen["first"]["ok"] is True
    assert seen["stale"]["ok"] is False and seen["stale"]["error"]["code"] == "version-conflict"
    assert seen["redone"]["ok"] is True
    final = seen["final"]["data"]["content"]
    assert final.startswith("# Guide\n\nStep 1 (host B).\nStep two (host A).\n")
    lines = final.splitlines()[4:]
    for host in "AB":
        assert [line for line in lines if line.startswith(host)] == [f"{host}{index}" for index in range(APPENDS)]
    assert len(lines) == 2 * APPENDS

    from writing_rules.documents import PostgresDocumentStore

    with PostgresDocumentStore(database) as store:
        history = store.history("shared/guide.md")
    # One version per stored edit: created, A, B, and every append; nothing overwritten, nothing doubled.
    assert len(history) == 3 + 2 * APPENDS
    assert history[0].content == final
