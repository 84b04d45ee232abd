"""write_document checks its operations once and edits with what it parsed."""

from __future__ import annotations

import pytest

from writing_rules.documents import MemoryDocumentStore, _operations, create_document_tool_dispatcher


def test_write_document_parses_its_operations_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    parse_one = _operations._parse_one

    def counted(index: int, raw: object) -> object:
        calls.append(index)
        return parse_one(index, raw)

    monkeypatch.setattr(_operations, "_parse_one", counted)
    dispatcher = create_document_tool_dispatcher(MemoryDocumentStore({"a.md": "Old text.\n"}))
    operation = {"operation": "replaceBlock", "oldBlock": "Old text.", "newBlock": "New text."}
    envelope = dispatcher.dispatch({"name": "write_document", "arguments": {"id": "a.md", "operations": [operation]}})
    assert envelope["ok"] and envelope["data"]["content"] == "New text.\n"
    assert calls == [0]
