"""Envelopes from both dispatchers against hostile calls (issue 11, finding 7).

Every envelope encodes as UTF-8 JSON, echoes nothing long, and a call built
from non-JSON objects is ``invalid-call`` from both dispatchers alike.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from writing_rules.adapters import mcp_call_result
from writing_rules.documents import MemoryDocumentStore, create_document_tool_dispatcher
from writing_rules.tools import create_writing_tool_dispatcher

REVIEW = create_writing_tool_dispatcher()
DOCUMENTS = create_document_tool_dispatcher(MemoryDocumentStore({"a.md": "A powerful tool.\n"}))
DISPATCHERS = {"review": REVIEW, "documents": DOCUMENTS}


class HostileMapping(Mapping[str, Any]):
    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("boom")

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("boom")

    def __len__(self) -> int:
        raise RuntimeError("boom")


class HostileStr(str):
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("boom")

    __hash__ = str.__hash__


def _encodes(envelope: dict[str, Any]) -> str:
    text = json.dumps(envelope, ensure_ascii=False, allow_nan=False)
    text.encode("utf-8")
    mcp = mcp_call_result(envelope)
    mcp["content"][0]["text"].encode("utf-8")
    json.dumps(mcp["structuredContent"], ensure_ascii=False).encode("utf-8")
    return text


@pytest.mark.parametrize("kind", DISPATCHERS)
@pytest.mark.parametrize(
    "call",
    [
        HostileMapping(),
        {"name": HostileStr("read_document"), "arguments": {}},
        {"name": "read_document", "arguments": HostileMapping()},
        {"name": "write_document", "arguments": {"id": "a.md", "operations": [HostileMapping()]}},
        {"name": "find_writing_signals", "arguments": {"text": HostileStr("x")}},
    ],
    ids=["call", "name", "arguments", "operation", "text"],
)
def test_hostile_objects_are_an_invalid_call_from_both_dispatchers(kind: str, call: object) -> None:
    envelope = DISPATCHERS[kind].dispatch(call)
    _encodes(envelope)
    # A str subclass that only breaks == may still be read as text; nothing is ever internal-error.
    if not envelope["ok"]:
        assert envelope["error"]["code"] in ("invalid-call", "unknown-tool", "invalid-arguments")


@pytest.mark.parametrize("kind", DISPATCHERS)
def test_the_same_hostile_call_gets_the_same_code_from_both(kind: str) -> None:
    assert DISPATCHERS[kind].dispatch(HostileMapping())["error"]["code"] == "invalid-call"
    call = {"name": HostileStr("read_document"), "arguments": {}}
    assert DISPATCHERS[kind].dispatch(call)["error"]["code"] == "invalid-call"


@pytest.mark.parametrize("kind", DISPATCHERS)
@pytest.mark.parametrize(
    "call",
    [
        {"name": "read_document", "arguments": {"k" * 10_000_000: 1}},
        {"name": "find_writing_signals", "arguments": {"k" * 10_000_000: 1}},
        {"name": "read_document", "arguments": {"id": "a.md"}, "id": "i" * 10_000_000},
        {"name": "t" * 10_000_000, "arguments": {}},
        {"name": "write_document", "arguments": {"id": "a" * 10_000_000, "operations": []}},
        {
            "name": "write_document",
            "arguments": {
                "id": "a.md",
                "expectedVersion": "v" * 10_000_000,
                "operations": [{"operation": "append", "content": "x"}],
            },
        },
        {"name": "write_document", "arguments": {"id": "a.md", "operations": [{"operation": "o" * 10_000_000}]}},
        {
            "name": "write_document",
            "arguments": {"id": "a.md", "operations": [{"operation": "append", "content": "x", "k" * 10_000_000: 1}]},
        },
        {"name": "find_writing_signals", "arguments": {"text": "x", "profile": "p" * 10_000_000}},
        {"name": "find_writing_signals", "arguments": {"text": "x", "ruleIds": ["r" * 10_000_000]}},
        {"name": "find_writing_signals", "arguments": {"text": "x", "language": "l" * 10_000_000}},
    ],
)
def test_every_echoed_value_is_capped(kind: str, call: dict[str, Any]) -> None:
    envelope = DISPATCHERS[kind].dispatch(call)
    assert envelope["ok"] is False
    assert len(_encodes(envelope)) < 2_000


@pytest.mark.parametrize("kind", DISPATCHERS)
@pytest.mark.parametrize(
    "call",
    [
        {"name": "read_document", "arguments": {}, "id": "call-\ud800"},
        {"name": "read_document", "arguments": {"\ud800\udc00": 1}},
        {"name": "find_writing_signals", "arguments": {"\udfff": 1}},
        {"name": "find_writing_signals", "arguments": {"text": "A powerful \ud800 tool."}, "id": "\udc00"},
        {"name": "get_writing_rules", "arguments": {"profile": "\ud800"}},
        {"name": "write_document", "arguments": {"id": "a.md", "operations": [{"operation": "\ud800"}]}},
    ],
)
def test_lone_surrogates_never_make_an_envelope_unencodable(kind: str, call: dict[str, Any]) -> None:
    text = _encodes(DISPATCHERS[kind].dispatch(call))
    assert "\ud800" not in text and "\udc00" not in text and "\udfff" not in text


def test_mcp_call_result_replaces_lone_surrogates_in_a_host_made_envelope() -> None:
    envelope = {"ok": True, "tool": "x", "data": {"text": "a\ud800b", "\udc00": ["\udfff"]}}
    result = mcp_call_result(envelope)
    assert result["structuredContent"] == {"ok": True, "tool": "x", "data": {"text": "a\ufffdb", "\ufffd": ["\ufffd"]}}
    assert json.loads(result["content"][0]["text"]) == result["structuredContent"]
    assert envelope["data"]["text"] == "a\ud800b"  # the host's envelope is not changed
