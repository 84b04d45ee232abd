"""The seed's two examples (quick start and configured), translated to Python."""

from __future__ import annotations

import json

import pytest

from writing_rules.registry import IntentRegistry, RegistryError, ScopeRegistry


def test_quick_start() -> None:
    tools = IntentRegistry.create(
        [
            {
                "id": "explain",
                "description": "根据资料解释 SDK",
                "delegates": ["read", "reply"],
                "as_intent": True,
            },
        ]
    )
    assert tools.ids() == ("explain",)
    assert tools.allows("explain", "read") is True
    assert tools.allows("explain", "write") is False

    scopes = ScopeRegistry.create([{"id": "sdk", "description": "SDK 说明资料", "category": "knowledge"}])
    assert scopes.require("sdk").knowledge_topic_ids == ()


def test_configured() -> None:
    tools = (
        IntentRegistry(id_pattern=r"^[a-z-]+$", delegates=["read", "reply"])
        .register_all(
            [
                {
                    "id": "explain",
                    "description": "根据资料解释 SDK",
                    "delegates": ["read", "reply"],
                    "as_intent": "用户希望了解 SDK 接口或用法。",
                }
            ]
        )
        .seal()
    )
    scopes = ScopeRegistry.create(
        [
            {
                "id": "sdk",
                "description": "SDK 说明资料",
                "category": "knowledge",
                "aliases": ["agent-core"],
                "goal_ids": ["explain"],
                "knowledge_topic_ids": ["manual"],
                "tool_ids": ["read-source"],
            }
        ],
        categories=["knowledge"],
        require_goals=True,
        require_sources=True,
    )
    described = tools.describe()
    assert json.loads(json.dumps(described)) == described
    assert [entry["id"] for entry in described] == ["explain"]
    assert described[0]["description"] == "根据资料解释 SDK"
    assert described[0]["delegates"] == ["read", "reply"]
    assert "resolve" not in described[0]
    assert tools.with_intent()[0]["description"] == "用户希望了解 SDK 接口或用法。"
    assert scopes.normalize("agent-core") == "sdk"
    assert scopes.accepts_tool("agent-core", "explain") is True
    assert scopes.topics("sdk") == ("manual",)
    # The configured registry is sealed and keeps enforcing its policy.
    with pytest.raises(RegistryError) as info:
        tools.register({"id": "summarise", "description": "Summarise a page"})
    assert info.value.code == "sealed"
