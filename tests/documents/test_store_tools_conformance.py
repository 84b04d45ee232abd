"""The document tools on every store: what a model sees does not depend on where documents live."""

from __future__ import annotations

from typing import Any

from writing_rules.documents import create_document_tool_dispatcher

GUIDE = "# Setup\n\nSimply run the installer.\n"


def _call(tools: Any, name: str, **arguments: Any) -> dict[str, Any]:
    result: dict[str, Any] = tools.dispatch({"name": name, "arguments": arguments})
    return result


def _replace(old: str, new: str) -> list[dict[str, Any]]:
    return [{"operation": "replaceBlock", "oldBlock": old, "newBlock": new}]


def test_read_then_write_with_the_version_read(store: Any) -> None:
    store.create("guide.md", GUIDE)
    tools = create_document_tool_dispatcher(store)
    read = _call(tools, "read_document", id="guide.md")
    assert read["ok"] and read["data"]["content"] == GUIDE and read["data"]["lineCount"] == 3
    written = _call(
        tools,
        "write_document",
        id="guide.md",
        operations=_replace("Simply run", "Run"),
        expectedVersion=read["data"]["version"],
    )
    assert written["ok"], written
    assert written["data"]["content"] == "# Setup\n\nRun the installer.\n"
    assert "+Run the installer." in written["data"]["diff"]
    assert written["data"]["version"] == store.read("guide.md").version != read["data"]["version"]


def test_a_stale_version_is_a_conflict_with_the_current_version(store: Any) -> None:
    store.create("guide.md", GUIDE)
    tools = create_document_tool_dispatcher(store)
    stale = store.read("guide.md").version
    store.write("guide.md", GUIDE + "More.\n")
    current = store.read("guide.md")
    refused = _call(
        tools, "write_document", id="guide.md", operations=_replace("Simply", "Just"), expectedVersion=stale
    )
    assert refused["error"]["code"] == "version-conflict"
    assert refused["error"]["currentVersion"] == current.version
    assert store.read("guide.md") == current


def test_a_dry_run_and_a_failed_operation_write_nothing(store: Any) -> None:
    store.create("guide.md", GUIDE)
    tools = create_document_tool_dispatcher(store)
    before = store.read("guide.md")
    dry = _call(tools, "write_document", id="guide.md", operations=_replace("Simply run", "Run"), dryRun=True)
    assert dry["ok"] and dry["data"]["dryRun"] is True and dry["data"]["version"] == before.version
    failed = _call(
        tools,
        "write_document",
        id="guide.md",
        operations=[*_replace("Simply run", "Run"), *_replace("not in the text", "x")],
    )
    assert failed["error"]["code"] == "operation-failed" and failed["error"]["index"] == 1
    assert store.read("guide.md") == before


def test_missing_documents_and_bad_ids_are_structured_errors(store: Any) -> None:
    tools = create_document_tool_dispatcher(store)
    assert _call(tools, "read_document", id="missing.md")["error"]["code"] == "document-not-found"
    written = _call(tools, "write_document", id="missing.md", operations=[{"operation": "append", "content": "x"}])
    assert written["error"]["code"] == "document-not-found"
    assert _call(tools, "read_document", id="a\x00b")["error"]["code"] == "invalid-arguments"
