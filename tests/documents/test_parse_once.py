"""write_document checks its operations once and edits with what it parsed."""

from __future__ import annotations

import pytest

from writing_rules import _rules_data
from writing_rules.documents import MemoryDocumentStore, create_document_tool_dispatcher


def test_write_document_parses_its_operations_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    parse = _rules_data.parse_document_operations

    def counted(operations: object, parsed: list) -> object:
        calls.append(len(operations))  # type: ignore[arg-type]
        return parse(operations, parsed)

    # The generated validator and the pure core both check a list with this one function.
    monkeypatch.setattr(_rules_data, "parse_document_operations", counted)
    dispatcher = create_document_tool_dispatcher(MemoryDocumentStore({"a.md": "Old text.\n"}))
    operation = {"operation": "replaceBlock", "oldBlock": "Old text.", "newBlock": "New text."}
    envelope = dispatcher.dispatch({"name": "write_document", "arguments": {"id": "a.md", "operations": [operation]}})
    assert envelope["ok"] and envelope["data"]["content"] == "New text.\n"
    assert calls == [1]
