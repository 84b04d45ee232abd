"""Provider shapes, checked against hand-written fixtures of the documented formats."""

from __future__ import annotations

import json
from typing import Any

import pytest

from writing_rules.adapters import (
    AdapterError,
    anthropic_tool_result,
    anthropic_tools,
    mcp_call_result,
    mcp_tools,
    openai_strict_arguments,
    openai_tools,
)
from writing_rules.documents import MemoryDocumentStore, create_document_tool_dispatcher
from writing_rules.tools import create_writing_tool_dispatcher, writing_review_tools

DESCRIPTOR = {
    "name": "lookup",
    "description": "Look it up.",
    "inputSchema": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "text": {"type": "string", "minLength": 1, "description": "The text."},
            "mode": {"type": "string", "enum": ["a", "b"], "default": "a"},
        },
        "required": ["text"],
        "additionalProperties": False,
    },
}
OK = {"ok": True, "tool": "lookup", "data": {"n": 1}}
FAILED = {"ok": False, "tool": "lookup", "error": {"code": "invalid-arguments", "message": "m"}}


def test_openai_plain_shape() -> None:
    assert openai_tools([DESCRIPTOR]) == [
        {
            "type": "function",
            "function": {
                "name": "lookup",
                "description": "Look it up.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "text": {"type": "string", "minLength": 1, "description": "The text."},
                        "mode": {"type": "string", "enum": ["a", "b"], "default": "a"},
                    },
                    "required": ["text"],
                    "additionalProperties": False,
                },
            },
        }
    ]


def test_openai_strict_shape() -> None:
    assert openai_tools([DESCRIPTOR], strict=True)[0]["function"] == {
        "name": "lookup",
        "description": "Look it up.",
        "strict": True,
        "parameters": {
            "type": "object",
            "properties": {
                "text": {"type": "string", "description": "The text. Constraints: minLength 1."},
                "mode": {
                    "type": ["string", "null"],
                    "enum": ["a", "b", None],
                    "description": 'Constraints: default "a".',
                },
            },
            "required": ["text", "mode"],
            "additionalProperties": False,
        },
    }


_STRICT_KEYWORDS = {
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
}


def _assert_strict(schema: Any) -> None:
    assert isinstance(schema, dict)
    assert set(schema) - {"description"} <= _STRICT_KEYWORDS, set(schema)
    if "properties" in schema:
        assert schema["required"] == list(schema["properties"])
        assert schema["additionalProperties"] is False
        for sub in schema["properties"].values():
            _assert_strict(sub)
    if "items" in schema:
        _assert_strict(schema["items"])
    for branch in schema.get("anyOf", ()):
        _assert_strict(branch)


def _all_descriptors() -> list[dict[str, Any]]:
    return writing_review_tools() + create_document_tool_dispatcher(MemoryDocumentStore()).tools()


def test_every_shipped_schema_becomes_a_strict_schema() -> None:
    for tool in openai_tools(_all_descriptors(), strict=True):
        _assert_strict(tool["function"]["parameters"])


def test_strict_nulls_become_absent_and_the_dispatcher_accepts_them() -> None:
    descriptor = writing_review_tools()[2]
    arguments = {
        "text": "A powerful API.",
        "language": None,
        "profile": None,
        "ruleIds": None,
        "maxSignals": None,
    }
    cleaned = openai_strict_arguments(arguments, descriptor)
    assert cleaned == {"text": "A powerful API."}
    assert arguments["language"] is None  # the caller's object is not changed
    envelope = create_writing_tool_dispatcher().dispatch({"name": descriptor["name"], "arguments": cleaned})
    assert envelope["ok"] and envelope["data"]["totalSignals"] == 1


def test_strict_nulls_inside_operation_branches_are_removed() -> None:
    write = create_document_tool_dispatcher(MemoryDocumentStore()).tools()[1]
    arguments = {
        "id": "a.md",
        "operations": [
            {
                "operation": "replaceBlock",
                "oldBlock": "x",
                "newBlock": "y",
                "occurrence": None,
                "fuzzyMatch": None,
            },
            {"operation": "append", "content": "z"},
        ],
        "expectedVersion": None,
        "dryRun": True,
    }
    assert openai_strict_arguments(arguments, write) == {
        "id": "a.md",
        "operations": [
            {"operation": "replaceBlock", "oldBlock": "x", "newBlock": "y"},
            {"operation": "append", "content": "z"},
        ],
        "dryRun": True,
    }


def test_strict_arguments_leave_non_objects_for_the_dispatcher() -> None:
    assert openai_strict_arguments("not an object", DESCRIPTOR) == "not an object"
    assert openai_strict_arguments({"text": None}, DESCRIPTOR) == {"text": None}  # required: kept, refused later


def test_anthropic_shapes() -> None:
    assert anthropic_tools([DESCRIPTOR]) == [
        {"name": "lookup", "description": "Look it up.", "input_schema": DESCRIPTOR["inputSchema"]}
    ]
    assert anthropic_tool_result("toolu_01", OK) == {
        "type": "tool_result",
        "tool_use_id": "toolu_01",
        "content": json.dumps(OK),
        "is_error": False,
    }
    assert anthropic_tool_result("toolu_02", FAILED)["is_error"] is True
    with pytest.raises(AdapterError):
        anthropic_tool_result("", OK)


def test_mcp_shapes() -> None:
    (tool,) = mcp_tools([DESCRIPTOR])
    assert tool == {
        "name": "lookup",
        "description": "Look it up.",
        "inputSchema": DESCRIPTOR["inputSchema"],
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    }
    assert mcp_call_result(FAILED) == {
        "content": [{"type": "text", "text": json.dumps(FAILED)}],
        "structuredContent": FAILED,
        "isError": True,
    }
    assert mcp_call_result(OK)["isError"] is False


def test_mcp_keeps_document_tool_annotations() -> None:
    tools = {tool["name"]: tool for tool in mcp_tools(_all_descriptors())}
    assert tools["write_document"]["annotations"]["destructiveHint"] is True
    assert tools["find_writing_signals"]["annotations"]["readOnlyHint"] is True


def test_adapters_copy_and_never_mutate() -> None:
    descriptors = writing_review_tools()
    before = json.dumps(descriptors)
    for tools in (
        openai_tools(descriptors, strict=True),
        anthropic_tools(descriptors),
        mcp_tools(descriptors),
    ):
        json.dumps(tools)
    assert json.dumps(descriptors) == before
    result = mcp_call_result(OK)
    result["structuredContent"]["data"]["n"] = 2
    assert OK["data"]["n"] == 1


@pytest.mark.parametrize(
    "bad",
    [
        [{"name": "has space", "description": "d", "inputSchema": {"type": "object"}}],
        [{"name": "x" * 65, "description": "d", "inputSchema": {"type": "object"}}],
        [{"name": "ok", "inputSchema": {"type": "object"}}],
        [{"name": "ok", "description": "d", "inputSchema": {"type": "string"}}],
        DESCRIPTOR,
    ],
)
def test_bad_descriptors_are_refused_with_a_value_error(bad: Any) -> None:
    for adapter in (openai_tools, anthropic_tools, mcp_tools):
        with pytest.raises(AdapterError):
            adapter(bad)


def test_non_envelopes_and_nan_are_refused() -> None:
    with pytest.raises(AdapterError):
        mcp_call_result({"tool": "x"})
    with pytest.raises(AdapterError):
        anthropic_tool_result("t", {"ok": True, "data": float("nan")})
