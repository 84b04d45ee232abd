"""The MCP tool table, without the SDK: what ``tools/list`` and ``tools/call`` answer."""

from __future__ import annotations

import json
from pathlib import Path

from writing_rules.adapters import mcp_tools
from writing_rules.documents import DirectoryDocumentStore, create_document_tool_dispatcher
from writing_rules.mcp import McpToolRouter
from writing_rules.tools import create_writing_tool_dispatcher, writing_review_tools


def _router(tmp_path: Path | None = None) -> McpToolRouter:
    review = create_writing_tool_dispatcher(review_context={"audience": "Admins", "goal": "Install it"})
    if tmp_path is None:
        return McpToolRouter(review)
    return McpToolRouter(review, create_document_tool_dispatcher(DirectoryDocumentStore(tmp_path)))


def test_lists_review_tools_and_adds_document_tools_only_with_a_folder(tmp_path: Path) -> None:
    assert _router().tools() == mcp_tools(writing_review_tools())
    names = [tool["name"] for tool in _router(tmp_path).tools()]
    assert names == [tool["name"] for tool in writing_review_tools()] + ["read_document", "write_document"]


def test_a_call_result_carries_the_envelope_as_structured_content_and_text(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("A powerful tool.\n", encoding="utf-8")
    router = _router(tmp_path)
    for name, arguments in [
        ("find_writing_signals", {"text": "A powerful tool."}),
        ("read_document", {"id": "a.md"}),
        ("find_writing_signals", None),  # MCP allows no arguments; the tool says text is missing
    ]:
        result = router.call(name, arguments)
        assert json.loads(result["content"][0]["text"]) == result["structuredContent"]
        assert result["isError"] is (not result["structuredContent"]["ok"])
    assert router.call("find_writing_signals", None)["structuredContent"]["error"]["code"] == "invalid-arguments"


def test_unknown_tool_names_every_served_tool(tmp_path: Path) -> None:
    result = _router(tmp_path).call("delete_everything", {})
    assert result["isError"]
    error = result["structuredContent"]["error"]
    assert error["code"] == "unknown-tool"
    assert "read_document" in error["message"] and "find_writing_signals" in error["message"]
    assert "read_document" not in _router().call("delete_everything", {})["structuredContent"]["error"]["message"]
