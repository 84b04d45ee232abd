"""``writing-rules serve-mcp`` end to end: a real subprocess, driven through the SDK's stdio client."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

import writing_rules
from writing_rules.adapters import mcp_tools
from writing_rules.tools import writing_review_tools

try:
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
except ImportError:
    # CI installs the extra: there a missing SDK is a failure, not a skip.
    if os.environ.get("CI", "").lower() == "true":
        raise
    pytest.skip("needs the mcp extra: pip install 'writing-rules[mcp]'", allow_module_level=True)

AUDIENCE = "Administrators new to the agent"
GOAL = "Install the agent and confirm it reports in"
DOCUMENT = "# Setup\n\nThis powerful installer basically sets everything up.\n\nRun it once.\n"
REVIEW_TOOLS = [tool["name"] for tool in writing_review_tools()]
ALL_TOOLS = [*REVIEW_TOOLS, "read_document", "write_document"]


def _run_session(args: list[str], cwd: Path, script: Callable[[ClientSession], Awaitable[Any]]) -> Any:
    # The child imports the same writing_rules as this test, installed or not.
    source_root = str(Path(writing_rules.__file__).resolve().parent.parent)
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "writing_rules", "serve-mcp", *args],
        env={"PYTHONPATH": source_root},
        cwd=str(cwd),
    )

    async def main() -> Any:
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            with anyio.fail_after(60):
                return await script(session)

    return anyio.run(main)


def _envelope(result: Any) -> dict[str, Any]:
    """The envelope, checked to be carried the same way as structured content and as text."""
    assert len(result.content) == 1 and result.content[0].type == "text"
    assert json.loads(result.content[0].text) == result.structured_content
    assert result.is_error is (not result.structured_content["ok"])
    return result.structured_content


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "setup.md").write_text(DOCUMENT, encoding="utf-8")
    return folder


def test_every_tool_answers_through_the_sdk_client(docs: Path, tmp_path: Path) -> None:
    async def script(session: ClientSession) -> dict[str, Any]:
        seen: dict[str, Any] = {"tools": (await session.list_tools()).tools}
        calls = {
            "rules": ("get_writing_rules", {"profile": "public-docs"}),
            "prompt": ("compose_writing_review_prompt", {"profile": "public-docs", "maxFindings": 3}),
            "signals": ("find_writing_signals", {"text": DOCUMENT, "profile": "public-docs"}),
            "evidence": (
                "get_model_comparison_evidence",
                {"language": "en", "profile": "public-docs", "role": "reviewer", "cohortId": "c1"},
            ),
            "read": ("read_document", {"id": "setup.md"}),
            "bad_type": ("find_writing_signals", {"text": 5}),
            "smuggled_context": (
                "compose_writing_review_prompt",
                {"profile": "public-docs", "audience": "Anyone"},
            ),
            "unknown": ("rewrite_everything", {}),
            "bad_edit": (
                "write_document",
                {
                    "id": "setup.md",
                    "operations": [{"operation": "replaceBlock", "oldBlock": "not there", "newBlock": "x"}],
                },
            ),
        }
        for key, (name, arguments) in calls.items():
            seen[key] = await session.call_tool(name, arguments)
        old = "This powerful installer basically sets everything up."
        new = "The installer sets up the agent."
        seen["write"] = await session.call_tool(
            "write_document",
            {
                "id": "setup.md",
                "expectedVersion": _envelope(seen["read"])["data"]["version"],
                "operations": [{"operation": "replaceBlock", "oldBlock": old, "newBlock": new}],
            },
        )
        return seen

    seen = _run_session(["--audience", AUDIENCE, "--goal", GOAL, "--documents", str(docs)], tmp_path, script)

    listed = [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in seen["tools"]]
    assert [tool["name"] for tool in listed] == ALL_TOOLS
    expected = {tool["name"]: tool for tool in mcp_tools(_descriptors(docs))}
    for tool in listed:
        assert tool["inputSchema"] == expected[tool["name"]]["inputSchema"]
        assert tool["annotations"] == expected[tool["name"]]["annotations"]
    assert all(tool["annotations"]["readOnlyHint"] for tool in listed if tool["name"] in REVIEW_TOOLS)
    assert listed[-1]["annotations"]["readOnlyHint"] is False  # write_document

    rules = _envelope(seen["rules"])
    assert rules["ok"] and rules["data"]["rules"]
    prompt = _envelope(seen["prompt"])["data"]["prompt"]
    assert AUDIENCE in prompt and GOAL in prompt  # from the command line, not from the call
    signals = _envelope(seen["signals"])["data"]["signals"]
    assert any(signal["match"] == "basically" for signal in signals)
    assert _envelope(seen["evidence"])["data"]["status"] == "evidence-missing"
    assert _envelope(seen["read"])["data"]["content"] == DOCUMENT

    written = _envelope(seen["write"])
    assert written["ok"] and "+The installer sets up the agent." in written["data"]["diff"]
    assert (docs / "setup.md").read_text(encoding="utf-8") == written["data"]["content"]

    bad_type = _envelope(seen["bad_type"])
    assert seen["bad_type"].is_error and bad_type["error"]["field"] == "/text"
    smuggled = _envelope(seen["smuggled_context"])
    assert seen["smuggled_context"].is_error and "audience" in smuggled["error"]["message"]
    unknown = _envelope(seen["unknown"])
    assert unknown["error"]["code"] == "unknown-tool" and "write_document" in unknown["error"]["message"]
    bad_edit = _envelope(seen["bad_edit"])
    assert seen["bad_edit"].is_error and bad_edit["error"]["reason"] == "not-found"


def test_without_audience_and_goal_the_prompt_tool_reports_missing_context(tmp_path: Path) -> None:
    async def script(session: ClientSession) -> Any:
        names = [tool.name for tool in (await session.list_tools()).tools]
        return names, await session.call_tool("compose_writing_review_prompt", {"profile": "public-docs"})

    names, result = _run_session([], tmp_path, script)
    assert names == REVIEW_TOOLS  # no --documents: no document tools
    assert result.is_error and _envelope(result)["error"]["code"] == "host-context-missing"


def _descriptors(docs: Path) -> list[dict[str, Any]]:
    from writing_rules.documents import DirectoryDocumentStore, create_document_tool_dispatcher

    return writing_review_tools() + create_document_tool_dispatcher(DirectoryDocumentStore(docs)).tools()
