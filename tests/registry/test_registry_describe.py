"""describe(), with_intent() and the registry's immutable copies."""

from __future__ import annotations

import json
from typing import Any

from writing_rules.registry import IntentRegistry


def definitions() -> list[dict[str, Any]]:
    return [
        {
            "id": "explain",
            "description": "Explain the SDK",
            "as_intent": "The user wants to know how the SDK works.",
            "delegates": ["read", "reply"],
            "input_schema": {
                "type": "object",
                "properties": {"topic": {"type": "string", "enum": ["api", "cli"]}},
                "additionalProperties": False,
            },
            "resolve": lambda value, context: value,
            "plan_intent": "answer",
        },
        {"id": "search", "description": "Search the manual", "as_intent": True},
        {"id": "draft", "description": "Draft a reply"},
        {"id": "retired", "description": "Old tool", "as_intent": True, "active": False},
    ]


def test_describe_lists_every_tool_as_json_without_callables() -> None:
    described = IntentRegistry.create(definitions()).describe()
    assert [entry["id"] for entry in described] == ["explain", "search", "draft", "retired"]
    assert json.loads(json.dumps(described)) == described
    first = described[0]
    assert "resolve" not in first
    assert first["input_schema"]["properties"]["topic"]["enum"] == ["api", "cli"]
    assert first["delegates"] == ["read", "reply"]
    assert first["plan_intent"] == "answer"
    assert described[3]["active"] is False


def test_with_intent_lists_active_advertised_tools_with_their_intent_text() -> None:
    advertised = IntentRegistry.create(definitions()).with_intent()
    assert [entry["id"] for entry in advertised] == ["explain", "search"]
    assert advertised[0]["description"] == "The user wants to know how the SDK works."
    assert advertised[1]["description"] == "Search the manual"
    assert json.loads(json.dumps(advertised)) == advertised


def test_as_intent_false_is_not_advertised() -> None:
    registry = IntentRegistry.create([{"id": "a", "description": "d", "as_intent": False}])
    assert registry.with_intent() == []


def test_changing_what_was_given_changes_nothing() -> None:
    given = definitions()
    registry = IntentRegistry.create(given)
    before = registry.describe()
    given[0]["description"] = "changed"
    given[0]["delegates"].append("write")
    given[0]["input_schema"]["properties"]["topic"]["enum"].append("gui")
    given[0]["input_schema"]["additionalProperties"] = True
    assert registry.describe() == before
    assert not registry.allows("explain", "write")
    result = registry.resolve("explain", {"topic": "api"}, "s")
    assert result == {"topic": "api"}
    assert registry.require("explain").input_schema["properties"]["topic"]["enum"] == ("api", "cli")


def test_changing_what_was_handed_out_changes_nothing() -> None:
    registry = IntentRegistry.create(definitions())
    before = registry.describe()
    handed = registry.describe()
    handed[0]["input_schema"]["properties"]["topic"]["enum"].append("gui")
    handed[0]["delegates"].clear()
    registry.with_intent()[0]["input_schema"]["additionalProperties"] = True
    assert registry.describe() == before
    assert registry.describe() is not registry.describe()
