"""The document tools as a model meets them: descriptors, envelopes, errors, permissions, limits."""

from __future__ import annotations

import asyncio
import json
import math
import re
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_documents_properties import broken_operation, valid_operation

from writing_rules.documents import (
    DirectoryDocumentStore,
    DocumentToolDispatcher,
    MemoryDocumentStore,
    create_document_tool_dispatcher,
    document_tool_definitions,
)

GUIDE = "# Guide\n\nInstall with pip.\nRun the server.\n"


def call(dispatcher: DocumentToolDispatcher, name: str, **arguments: object) -> dict:
    result = dispatcher.dispatch({"name": name, "arguments": arguments})
    json.dumps(result, allow_nan=False)
    return result


@pytest.fixture
def memory() -> MemoryDocumentStore:
    return MemoryDocumentStore({"guide.md": GUIDE})


@pytest.fixture
def tools(memory: MemoryDocumentStore) -> DocumentToolDispatcher:
    return create_document_tool_dispatcher(memory)


# --- descriptors ---


def test_two_descriptors_with_valid_schemas_and_annotations(tools: DocumentToolDispatcher) -> None:
    descriptors = tools.tools()
    assert [descriptor["name"] for descriptor in descriptors] == ["read_document", "write_document"]
    for descriptor in descriptors:
        assert set(descriptor) == {"name", "description", "inputSchema", "annotations"}
        assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", descriptor["name"])
        schema = descriptor["inputSchema"]
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert descriptor["annotations"]["openWorldHint"] is False
    read, write = descriptors
    assert read["annotations"]["readOnlyHint"] is True
    assert write["annotations"]["readOnlyHint"] is False
    assert write["annotations"]["destructiveHint"] is True
    json.dumps(descriptors, allow_nan=False)


def test_descriptors_are_fresh_copies(tools: DocumentToolDispatcher) -> None:
    first = tools.tools()
    first[1]["inputSchema"]["properties"].clear()
    first[0]["annotations"]["readOnlyHint"] = False
    assert tools.tools()[1]["inputSchema"]["properties"]
    assert tools.tools()[0]["annotations"]["readOnlyHint"] is True


@settings(max_examples=200)
@given(st.lists(valid_operation(), min_size=1, max_size=4))
def test_the_schema_accepts_every_valid_operation_list(operations: list[dict]) -> None:
    schema = create_document_tool_dispatcher(MemoryDocumentStore()).tools()[1]["inputSchema"]
    jsonschema.validate({"id": "a", "operations": operations}, schema, cls=jsonschema.Draft202012Validator)


@settings(max_examples=200)
@given(broken_operation())
def test_the_schema_refuses_what_the_dispatcher_refuses(operation: dict) -> None:
    dispatcher = create_document_tool_dispatcher(MemoryDocumentStore({"a": "a b ab é"}))
    schema = dispatcher.tools()[1]["inputSchema"]
    arguments = {"id": "a", "operations": [operation]}
    result = dispatcher.dispatch({"name": "write_document", "arguments": arguments})
    assert result["error"]["code"] == "invalid-arguments"
    fuzzy_blank = operation.get("fuzzyMatch") is True and not str(operation.get("anchor", "x")).strip()
    if not fuzzy_blank:  # "only white space with fuzzyMatch" is beyond JSON Schema
        assert not jsonschema.Draft202012Validator(schema).is_valid(arguments)


# --- read_document ---


def test_read_document_returns_content_version_and_line_count(tools: DocumentToolDispatcher, memory) -> None:
    result = tools.dispatch({"name": "read_document", "arguments": {"id": "guide.md"}, "id": "call-1"})
    assert result == {
        "ok": True,
        "tool": "read_document",
        "data": {
            "id": "guide.md",
            "content": GUIDE,
            "version": memory.read("guide.md").version,
            "lineCount": 4,
        },
        "id": "call-1",
    }


@pytest.mark.parametrize(
    ("arguments", "code", "field"),
    [
        ({}, "invalid-arguments", "/id"),
        ({"id": 3}, "invalid-arguments", "/id"),
        ({"id": ""}, "invalid-arguments", "/id"),
        ({"id": "\ud800"}, "invalid-arguments", "/id"),
        ({"id": "guide.md", "version": "x"}, "invalid-arguments", "/version"),
        ({"id": "missing.md"}, "document-not-found", None),
    ],
)
def test_read_document_errors(tools: DocumentToolDispatcher, arguments: dict, code: str, field: str | None) -> None:
    result = call(tools, "read_document", **arguments)
    assert result["ok"] is False and result["tool"] == "read_document"
    assert result["error"]["code"] == code
    assert result["error"].get("field") == field
    assert result["error"]["message"]


# --- write_document ---


def replace(old: str, new: str, **extra: object) -> dict:
    return {"operation": "replaceBlock", "oldBlock": old, "newBlock": new, **extra}


def test_write_document_changes_the_document_and_reports_it(tools, memory) -> None:
    before = memory.read("guide.md")
    result = call(
        tools,
        "write_document",
        id="guide.md",
        operations=[replace("pip", "pipx")],
        expectedVersion=before.version,
    )
    data = result["data"]
    assert result["ok"] is True
    assert set(data) == {"id", "content", "version", "diff", "warnings", "dryRun"}
    assert data["content"] == GUIDE.replace("pip", "pipx")
    assert memory.read("guide.md").content == data["content"]
    assert data["version"] == memory.read("guide.md").version != before.version
    assert "-Install with pip.\n+Install with pipx.\n" in data["diff"]
    assert (data["warnings"], data["dryRun"]) == ([], False)


def test_a_dry_run_writes_nothing_and_returns_the_current_version(tools, memory) -> None:
    before = memory.read("guide.md")
    data = call(tools, "write_document", id="guide.md", operations=[replace("pip", "uv")], dryRun=True)["data"]
    assert data["content"] == GUIDE.replace("pip", "uv")
    assert (data["version"], data["dryRun"]) == (before.version, True)
    assert "+Install with uv." in data["diff"]
    assert memory.read("guide.md") == before


def test_warnings_are_plain_json(tools) -> None:
    data = call(tools, "write_document", id="guide.md", operations=[{"operation": "deleteBlock", "anchor": "e"}])[
        "data"
    ]
    (warning,) = data["warnings"]
    assert set(warning) == {"index", "message", "lines"} and warning["index"] == 0
    assert type(warning) is dict and warning["lines"] == [1, 4]  # "# Guide", "Run the server."


def test_a_stale_expected_version_is_a_conflict_and_writes_nothing(tools, memory) -> None:
    stale = memory.read("guide.md").version
    memory.write("guide.md", GUIDE + "More.\n")
    result = call(tools, "write_document", id="guide.md", operations=[replace("pip", "x")], expectedVersion=stale)
    assert result["error"]["code"] == "version-conflict"
    assert result["error"]["currentVersion"] == memory.read("guide.md").version
    assert memory.read("guide.md").content == GUIDE + "More.\n"


def test_a_failing_operation_reports_index_reason_candidates_and_writes_nothing(tools, memory) -> None:
    operations = [{"operation": "append", "content": "tail\n"}, replace("Instal with pip", "x")]
    result = call(tools, "write_document", id="guide.md", operations=operations)
    error = result["error"]
    assert (error["code"], error["index"], error["reason"]) == ("operation-failed", 1, "not-found")
    assert error["field"] == "/operations/1"
    assert error["candidates"][0]["line"] == 3
    assert error["candidates"][0]["text"] == "Install with pip."
    assert memory.read("guide.md").content == GUIDE


def test_an_out_of_range_occurrence_is_operation_failed(tools) -> None:
    result = call(tools, "write_document", id="guide.md", operations=[replace("pip", "x", occurrence=2)])
    assert (result["error"]["reason"], result["error"]["candidates"]) == ("occurrence-out-of-range", [])
    assert "occurs 1 time" in result["error"]["message"]


def test_strict_occurrence_is_a_host_option(memory) -> None:
    strict = create_document_tool_dispatcher(memory, strict_occurrence=True)
    result = call(strict, "write_document", id="guide.md", operations=[{"operation": "deleteBlock", "anchor": "e"}])
    assert result["error"]["reason"] == "ambiguous"


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"id": "guide.md"}, "/operations"),
        ({"id": "guide.md", "operations": []}, "/operations"),
        ({"id": "guide.md", "operations": "append x"}, "/operations"),
        (
            {"id": "guide.md", "operations": [replace("a", "b"), replace("a", "b", occurrence=True)]},
            "/operations/1/occurrence",
        ),
        (
            {
                "id": "guide.md",
                "operations": [replace("a", "b"), replace("a", "b"), replace("a", "b", occurrence=0)],
            },
            "/operations/2/occurrence",
        ),
        ({"id": "guide.md", "operations": [replace("a", "b", fuzzy=True)]}, "/operations/0/fuzzy"),
        ({"id": "guide.md", "operations": [replace("a", "b\ud800")]}, "/operations/0/newBlock"),
        ({"id": "guide.md", "operations": [replace("a", "b")], "expectedVersion": 3}, "/expectedVersion"),
        ({"id": "guide.md", "operations": [replace("a", "b")], "dryRun": "yes"}, "/dryRun"),
        ({"id": "guide.md", "operations": [replace("a", "b")], "create": True}, "/create"),
    ],
)
def test_malformed_write_arguments_name_the_field(tools, memory, arguments: dict, field: str) -> None:
    result = call(tools, "write_document", **arguments)
    assert (result["error"]["code"], result["error"]["field"]) == ("invalid-arguments", field)
    assert memory.read("guide.md").content == GUIDE


def test_a_whole_number_float_occurrence_is_accepted(tools) -> None:
    result = call(tools, "write_document", id="guide.md", operations=[replace("e", "E", occurrence=2.0)])
    assert result["data"]["content"] == GUIDE.replace("e", "E", 2).replace("E", "e", 1)


def test_the_tools_never_create_a_document(tools, memory) -> None:
    result = call(tools, "write_document", id="new.md", operations=[{"operation": "update", "content": "x"}])
    assert result["error"]["code"] == "document-not-found"
    assert memory.ids() == ("guide.md",)


# --- permissions and limits ---


def test_can_write_is_asked_before_every_write_including_dry_runs(memory) -> None:
    asked: list[str] = []

    def can_write(id: str) -> bool:
        asked.append(id)
        return False

    tools = create_document_tool_dispatcher(memory, can_write=can_write)
    for dry_run in (False, True):
        result = call(tools, "write_document", id="guide.md", operations=[replace("pip", "x")], dryRun=dry_run)
        assert result["error"]["code"] == "write-not-allowed"
    assert call(tools, "read_document", id="guide.md")["ok"] is True
    assert asked == ["guide.md", "guide.md"]
    assert memory.read("guide.md").content == GUIDE


def test_a_failing_or_odd_permission_check_refuses(memory) -> None:
    def broken(id: str) -> bool:
        raise RuntimeError("secret detail")

    for check in (broken, lambda id: "yes"):
        result = call(
            create_document_tool_dispatcher(memory, can_write=check),
            "write_document",
            id="guide.md",
            operations=[replace("pip", "x")],
        )
        assert result["error"]["code"] == "write-not-allowed"
        assert "secret" not in json.dumps(result)
    allowed = create_document_tool_dispatcher(memory, can_write=lambda id: id == "guide.md")
    assert call(allowed, "write_document", id="guide.md", operations=[replace("pip", "x")])["ok"] is True


def test_documents_over_max_bytes_are_too_large(memory) -> None:
    size = len(GUIDE.encode("utf-8"))
    tight = create_document_tool_dispatcher(memory, max_bytes=size)
    assert call(tight, "read_document", id="guide.md")["ok"] is True
    grow = call(tight, "write_document", id="guide.md", operations=[{"operation": "append", "content": "ü"}])
    assert grow["error"]["code"] == "document-too-large"
    assert memory.read("guide.md").content == GUIDE
    tighter = create_document_tool_dispatcher(memory, max_bytes=size - 1)
    assert call(tighter, "read_document", id="guide.md")["error"]["code"] == "document-too-large"
    shrink = call(tighter, "write_document", id="guide.md", operations=[{"operation": "update", "content": ""}])
    assert shrink["error"]["code"] == "document-too-large"


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"can_write": 5}, TypeError),
        ({"strict_occurrence": "yes"}, TypeError),
        ({"max_bytes": 0}, ValueError),
        ({"max_bytes": True}, TypeError),
        ({"max_bytes": 1.5}, TypeError),
    ],
)
def test_host_misconfiguration_raises_at_creation(memory, options: dict, error: type) -> None:
    with pytest.raises(error):
        create_document_tool_dispatcher(memory, **options)


def test_a_store_must_be_a_store() -> None:
    with pytest.raises(TypeError):
        create_document_tool_dispatcher({"guide.md": GUIDE})


# --- envelopes ---


@pytest.mark.parametrize(
    ("raw", "code", "tool"),
    [
        ("read_document", "invalid-call", None),
        ({"arguments": {}}, "invalid-call", None),
        ({"name": "read_document", "arguments": '{"id": "guide.md"}'}, "invalid-call", "read_document"),
        (
            {"name": "read_document", "arguments": {"id": "guide.md"}, "extra": 1},
            "invalid-call",
            "read_document",
        ),
        ({"name": "delete_document", "arguments": {}}, "unknown-tool", None),
    ],
)
def test_malformed_calls(tools, raw: object, code: str, tool: str | None) -> None:
    result = tools.dispatch(raw)
    assert (result["ok"], result["error"]["code"], result["tool"]) == (False, code, tool)


def test_the_call_id_is_echoed_on_failure_too(tools) -> None:
    result = tools.dispatch({"name": "nope", "arguments": {}, "id": 7})
    assert result["id"] == 7


def test_dispatch_async(tools) -> None:
    result = asyncio.run(tools.dispatch_async({"name": "read_document", "arguments": {"id": "guide.md"}}))
    assert result["data"]["content"] == GUIDE


def test_registry_definitions_resolve_to_envelopes(tools) -> None:
    definitions = document_tool_definitions(tools)
    assert [definition["id"] for definition in definitions] == ["read_document", "write_document"]
    for definition in definitions:
        assert set(definition) == {"id", "description", "input_schema", "resolve"}
    result = definitions[0]["resolve"]({"id": "guide.md"}, {"stage_id": "s"})
    assert result["ok"] is True and result["data"]["content"] == GUIDE
    with pytest.raises(TypeError):
        document_tool_definitions(object())  # type: ignore[arg-type]


# --- through a directory ---


def test_directory_errors_and_line_endings_through_the_tools(tmp_path: Path) -> None:
    (tmp_path / "win.txt").write_bytes(b"\xef\xbb\xbfone\r\ntwo\r\n")
    (tmp_path / "latin1.txt").write_bytes(b"Gr\xf6\xdfe")
    tools = create_document_tool_dispatcher(DirectoryDocumentStore(tmp_path))
    result = call(
        tools,
        "write_document",
        id="win.txt",
        operations=[{"operation": "insertAfter", "anchor": "one\r\n", "content": "1.5\n"}],
    )
    assert result["ok"] is True
    assert (tmp_path / "win.txt").read_bytes() == b"\xef\xbb\xbfone\r\n1.5\r\ntwo\r\n"
    assert call(tools, "read_document", id="latin1.txt")["error"]["code"] == "document-unreadable"
    escape = call(tools, "read_document", id="../etc/passwd")["error"]
    assert (escape["code"], escape["field"]) == ("invalid-arguments", "/id")


# --- never raises, never internal-error ---

_JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=10,
)
_ARGUMENTS = st.fixed_dictionaries(
    {},
    optional={
        "id": st.sampled_from(["guide.md", "missing", "", "../x"]) | _JUNK,
        "operations": st.lists(valid_operation() | broken_operation() | _JUNK, max_size=3) | _JUNK,
        "expectedVersion": _JUNK,
        "dryRun": st.booleans() | _JUNK,
    },
)
_CALLS = st.one_of(
    _JUNK,
    st.fixed_dictionaries(
        {
            "name": st.sampled_from(["read_document", "write_document"]) | st.text(max_size=5),
            "arguments": _ARGUMENTS | _JUNK,
        },
        optional={"id": _JUNK},
    ),
)


@settings(max_examples=400)
@given(_CALLS)
def test_dispatch_always_returns_an_envelope(raw: object) -> None:
    tools = create_document_tool_dispatcher(MemoryDocumentStore({"guide.md": GUIDE}), max_bytes=10_000)
    result = tools.dispatch(raw)
    text = json.dumps(result, allow_nan=False)
    assert isinstance(result["ok"], bool)
    if result["ok"]:
        assert set(result["data"]) and not math.isnan(len(text))
    else:
        assert result["error"]["code"] != "internal-error", result
        assert result["error"]["message"]


def test_document_tools_register_in_the_intent_registry() -> None:
    from writing_rules.registry import IntentRegistry, RegistryError

    store = MemoryDocumentStore()
    store.create("guide.md", "Simply run it.\n")
    dispatcher = create_document_tool_dispatcher(store)
    registry = IntentRegistry.create(document_tool_definitions(dispatcher))
    assert registry.ids() == ("read_document", "write_document")
    envelope = registry.resolve("read_document", {"id": "guide.md"}, "stage-1")
    assert envelope["ok"] is True and envelope["data"]["content"] == "Simply run it.\n"
    edited = registry.resolve(
        "write_document",
        {"id": "guide.md", "operations": [{"operation": "replaceBlock", "oldBlock": "Simply run", "newBlock": "Run"}]},
        "stage-2",
    )
    assert edited["ok"] is True and store.read("guide.md").content == "Run it.\n"
    with pytest.raises(RegistryError):
        registry.resolve("read_document", {"id": "guide.md", "path": "/etc/passwd"}, "stage-3")
