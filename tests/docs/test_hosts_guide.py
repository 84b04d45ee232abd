"""Every Python block of docs/hosts.md runs, with a fake model in place of each ``YOUR MODEL CALL``.

Blocks of one section share a namespace and run in order; after each block the
section's fake replaces ``call_model`` / ``call_review_model``, as a host's own
function would. Provider SDKs are made unimportable, so a block that reaches
for one fails here.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "hosts.md"
_BLOCK = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)


def _sections() -> dict[str, list[tuple[str, str]]]:
    """``{heading: [(language, code), ...]}`` for every fenced block under a ``## `` heading."""
    sections: dict[str, list[tuple[str, str]]] = {}
    for part in re.split(r"^## ", GUIDE.read_text(encoding="utf-8"), flags=re.MULTILINE)[1:]:
        heading, _, body = part.partition("\n")
        sections[heading.strip()] = [(match[1], match[2]) for match in _BLOCK.finditer(body)]
    return sections


def _assistant_turns(messages: list[dict[str, Any]]) -> int:
    return sum(1 for message in messages if message.get("role") == "assistant")


def _openai_call(call_id: str, name: str, arguments: dict[str, Any] | str) -> dict[str, Any]:
    encoded = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": encoded}}


def fake_openai(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
    if _assistant_turns(messages):
        return {"role": "assistant", "content": "Two leads: 'powerful' and 'seamless'."}
    calls = [
        _openai_call("call_1", "find_writing_signals", {"text": "Relay is a powerful, seamless way."}),
        _openai_call("call_2", "get_writing_rules", {"profile": "no-such-profile"}),  # a bad call
        _openai_call("call_3", "find_writing_signals", "{not json"),
    ]
    return {"role": "assistant", "content": None, "tool_calls": calls}


def fake_openai_strict(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
    if _assistant_turns(messages):
        return {"role": "assistant", "content": "'basically' and 'just' add nothing."}
    scan = next(tool for tool in tools if tool["function"]["name"] == "find_writing_signals")["function"]
    assert scan["strict"] is True
    # Strict mode: the model sends every property, null for those it leaves out.
    arguments = dict.fromkeys(scan["parameters"]["properties"])
    arguments["text"] = "We basically just restart the server."
    return {"role": "assistant", "content": None, "tool_calls": [_openai_call("c1", scan["name"], arguments)]}


def fake_anthropic(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
    turn = _assistant_turns(messages)
    if turn == 0:
        content = [
            {"type": "text", "text": "Reading the document."},
            {"type": "tool_use", "id": "tu_1", "name": "read_document", "input": {"id": "install.md"}},
            {"type": "tool_use", "id": "tu_2", "name": "find_writing_signals", "input": {}},  # bad call
        ]
        return {"role": "assistant", "content": content, "stop_reason": "tool_use"}
    if turn == 1:
        operation = {
            "operation": "replaceBlock",
            "oldBlock": "Simply run the powerful installer.",
            "newBlock": "Run the installer.",
        }
        edit = {"id": "install.md", "operations": [operation]}
        content = [{"type": "tool_use", "id": "tu_3", "name": "write_document", "input": edit}]
        return {"role": "assistant", "content": content, "stop_reason": "tool_use"}
    return {"role": "assistant", "content": [{"type": "text", "text": "Fixed."}], "stop_reason": "end_turn"}


def fake_review_model(prompt: str, document: str, response_schema: dict[str, Any]) -> dict[str, Any]:
    assert "Developers new to Relay" in prompt and response_schema["required"] == ["findings"]
    return {
        "findings": [
            {
                "ruleId": "word-choice",
                "quote": "a powerful, seamless way",
                "explanation": "Hype words the reader cannot check.",
                "suggestion": "a way",
            },
            {
                "ruleId": "word-choice",
                "quote": "a text the document does not contain",
                "explanation": "Made up.",
                "suggestion": "x",
            },
        ]
    }


FAKES: dict[str, dict[str, Callable[..., Any]]] = {
    "OpenAI (Chat Completions)": {"call_model": fake_openai},
    "OpenAI strict mode": {"call_model": fake_openai_strict},
    "Anthropic (Messages API)": {"call_model": fake_anthropic},
    "MCP": {},
    "From a review to edits": {"call_review_model": fake_review_model},
}


@pytest.fixture(autouse=True)
def _no_provider_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("openai", "anthropic"):
        monkeypatch.setitem(sys.modules, name, None)  # importing it now raises ImportError


def _run(heading: str, capsys: pytest.CaptureFixture[str]) -> tuple[dict[str, Any], str]:
    blocks = [code for language, code in _sections()[heading] if language == "python"]
    assert blocks, f"section {heading!r} has no Python example"
    namespace: dict[str, Any] = {"__name__": "hosts_guide"}
    for number, code in enumerate(blocks):
        exec(compile(code, f"{GUIDE.name}: {heading}, block {number + 1}", "exec"), namespace)
        namespace.update(FAKES[heading])
    return namespace, capsys.readouterr().out


def test_every_section_with_python_has_a_fake_and_json_blocks_parse() -> None:
    sections = _sections()
    with_python = {heading for heading, blocks in sections.items() if any(lang == "python" for lang, _ in blocks)}
    assert with_python == set(FAKES)
    for blocks in sections.values():
        for language, code in blocks:
            if language == "json":
                json.loads(code)


def test_openai_example_runs_tools_and_returns_errors_as_tool_results(capsys) -> None:
    namespace, out = _run("OpenAI (Chat Completions)", capsys)
    results = [json.loads(m["content"]) for m in namespace["messages"] if m["role"] == "tool"]
    assert [result["ok"] for result in results] == [True, False, False]
    assert any(signal["match"] == "powerful" for signal in results[0]["data"]["signals"])
    assert results[1]["error"]["code"] == "invalid-selection"
    assert results[2]["error"]["code"] == "invalid-call"  # arguments that are not JSON
    assert out.strip() == "Two leads: 'powerful' and 'seamless'."


def test_openai_strict_example_turns_nulls_back_into_absent_fields(capsys) -> None:
    namespace, _ = _run("OpenAI strict mode", capsys)
    (result,) = [json.loads(m["content"]) for m in namespace["messages"] if m["role"] == "tool"]
    assert result["ok"], result
    assert {"basically", "just"} <= {signal["match"] for signal in result["data"]["signals"]}


def test_anthropic_example_reads_reports_the_bad_call_and_edits(capsys) -> None:
    namespace, out = _run("Anthropic (Messages API)", capsys)
    results = [
        block
        for message in namespace["messages"]
        if message["role"] == "user"
        for block in message["content"]
        if isinstance(message["content"], list)
    ]
    assert [result["is_error"] for result in results] == [False, True, False]
    assert out == "# Install\n\nRun the installer.\n\n"


def test_mcp_example_gives_an_error_result_with_the_envelope(capsys) -> None:
    namespace, out = _run("MCP", capsys)
    assert namespace["result"]["isError"] is True
    assert [tool["annotations"]["readOnlyHint"] for tool in namespace["list_tools"]()] == [True] * 4
    assert out.startswith("True Argument text must be a string")


def test_review_example_applies_located_findings_and_rejects_the_rest(capsys) -> None:
    namespace, out = _run("From a review to edits", capsys)
    assert "rejected: not-located" in out
    assert "+Relay is a way to connect your services." in out
    assert namespace["store"].read("guide.md").content.endswith("Relay is a way to connect your services.\n")
