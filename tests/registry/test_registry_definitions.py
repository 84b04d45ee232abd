"""Every field rule of an intent definition, each with a failing and a passing case."""

from __future__ import annotations

from typing import Any

import pytest

from writing_rules.registry import IntentRegistry, RegisteredIntent, RegistryError


def base(**changes: Any) -> dict[str, Any]:
    definition: dict[str, Any] = {"id": "explain", "description": "Explain the SDK from its manual"}
    definition.update(changes)
    return definition


def refused(definition: object, registry: IntentRegistry | None = None) -> RegistryError:
    registry = registry or IntentRegistry()
    with pytest.raises(RegistryError) as info:
        registry.register(definition)  # type: ignore[arg-type]
    assert registry.ids() == ()
    return info.value


POLICY = {
    "delegates": ["read", "reply"],
    "scope_modes": ["single", "multi"],
    "target_modes": ["none", "document"],
    "context_tiers": ["small", "large"],
    "actions": ["answer", "search", "cite"],
    "handoff_values": ["prepared"],
}

# (field, a value the policy refuses or the rule forbids, a value that passes)
FIELD_CASES = [
    ("id", "   ", "explain"),
    ("id", 7, "explain"),
    ("id", None, "explain"),
    ("description", "", "Explain things"),
    ("description", ["Explain"], "Explain things"),
    ("active", "yes", False),
    ("active", 1, True),
    ("as_intent", "  ", "The user wants to know how the SDK works."),
    ("as_intent", 1, True),
    ("scope_policy", "everything", "single"),
    ("scope_policy", "", "multi"),
    ("target_policy", "page", "document"),
    ("context_tier", "huge", "small"),
    ("plan_intent", "delete", "answer"),
    ("prepared_handoff", "ready", "prepared"),
    ("auxiliary_actions", ["search", "search"], ["search", "cite"]),
    ("auxiliary_actions", ["delete"], ["cite"]),
    ("auxiliary_actions", "search", ["search"]),
    ("delegates", ["read", "write"], ["read"]),
    ("delegates", ["read", "read"], ["read", "reply"]),
    ("delegates", "read", ["reply"]),
    ("delegates", [""], []),
    ("resolve", "not callable", lambda value, context: value),
    ("resolve", lambda value: value, lambda value, context: value),
    ("input_schema", {"type": "array"}, {"type": "object"}),
    ("input_schema", {"properties": {}}, {"type": "object", "properties": {}}),
    ("input_schema", [], {"type": "object", "required": []}),
]


@pytest.mark.parametrize(("field", "bad", "good"), FIELD_CASES)
def test_each_field_rule_refuses_and_accepts(field: str, bad: object, good: object) -> None:
    error = refused(base(**{field: bad}), IntentRegistry(**POLICY))
    assert error.code == "invalid-definition"
    assert error.field == field
    assert repr(field) in str(error)
    registry = IntentRegistry(**POLICY).register(base(**{field: good}))
    assert len(registry.ids()) == 1


@pytest.mark.parametrize(
    ("field", "policy_list", "bad"),
    [
        ("scope_policy", "scope_modes", "everything"),
        ("target_policy", "target_modes", "page"),
        ("context_tier", "context_tiers", "huge"),
        ("plan_intent", "actions", "delete"),
        ("prepared_handoff", "handoff_values", "ready"),
        ("auxiliary_actions", "actions", ["delete"]),
        ("delegates", "delegates", ["write"]),
    ],
)
def test_policy_message_names_tool_field_value_and_allowed(field: str, policy_list: str, bad: object) -> None:
    error = refused(base(**{field: bad}), IntentRegistry(**POLICY))
    message = str(error)
    assert "'explain'" in message
    assert field in message
    shown = bad[0] if isinstance(bad, list) else bad
    assert repr(shown) in message
    for allowed in POLICY[policy_list]:
        assert repr(allowed) in message
    assert error.tool_id == "explain"


@pytest.mark.parametrize("field", ["scope_policy", "target_policy", "context_tier", "plan_intent"])
def test_names_are_free_when_the_policy_list_is_unset(field: str) -> None:
    tool = IntentRegistry().register(base(**{field: "anything-goes"})).require("explain")
    assert getattr(tool, field) == "anything-goes"


def test_an_empty_policy_list_allows_no_name() -> None:
    assert refused(base(delegates=["read"]), IntentRegistry(delegates=[])).field == "delegates"
    assert IntentRegistry(delegates=[]).register(base(delegates=[])).allows("explain", "read") is False


def test_id_pattern_matches_the_whole_id() -> None:
    registry = IntentRegistry(id_pattern=r"[a-z]+")
    error = refused(base(id="explain2"), registry)
    assert error.code == "invalid-definition"
    assert error.field == "id"
    assert "[a-z]+" in str(error) and "explain2" in str(error)
    assert registry.register(base(id="explain")).ids() == ("explain",)


def test_unknown_fields_are_refused_with_a_snake_case_hint() -> None:
    error = refused(base(inputSchema={"type": "object"}))
    assert error.code == "invalid-definition"
    assert "'inputSchema'" in str(error)
    assert error.field == "inputSchema"
    assert error.tool_id == "explain"
    assert "input_schema" in str(error)
    assert refused(base(colour="blue")).code == "invalid-definition"
    assert refused(base(**{"1": 1})).code == "invalid-definition"


def test_a_definition_must_be_a_mapping() -> None:
    assert refused(["explain", "Explain"]).code == "invalid-definition"


def test_optional_fields_set_to_none_count_as_omitted() -> None:
    tool = IntentRegistry().register(base(active=None, as_intent=None, delegates=None)).require("explain")
    assert (tool.active, tool.as_intent, tool.delegates) == (True, False, ())


def test_defaults_of_a_minimal_definition() -> None:
    tool = IntentRegistry().register(base()).require("explain")
    assert tool.active is True
    assert tool.as_intent is False
    assert tool.delegates == ()
    assert tool.auxiliary_actions == ()
    assert tool.resolve is None
    assert tool.input_schema["type"] == "object"


def test_ids_are_unique() -> None:
    registry = IntentRegistry().register(base())
    with pytest.raises(RegistryError) as info:
        registry.register(base(description="Another explain"))
    assert info.value.code == "duplicate-id"
    assert info.value.tool_id == "explain"
    assert registry.require("explain").description == "Explain the SDK from its manual"
    assert registry.register(base(id="summarise")).ids() == ("explain", "summarise")


def test_register_all_is_atomic() -> None:
    registry = IntentRegistry(delegates=["read"])
    batch = [base(id="a"), base(id="b"), base(id="c", delegates=["write"])]
    with pytest.raises(RegistryError) as info:
        registry.register_all(batch)
    assert info.value.tool_id == "c"
    assert registry.ids() == ()
    with pytest.raises(RegistryError) as info:
        registry.register_all([base(id="a"), base(id="a")])
    assert info.value.code == "duplicate-id"
    assert registry.ids() == ()
    assert registry.register_all([base(id="a"), base(id="b")]).ids() == ("a", "b")


def test_register_all_names_the_position_of_a_definition_without_an_id() -> None:
    with pytest.raises(RegistryError) as info:
        IntentRegistry().register_all([base(id="a"), {"description": "no id"}])
    assert "#1" in str(info.value)
    assert info.value.field == "id"


def test_register_all_refuses_a_single_definition() -> None:
    with pytest.raises(RegistryError) as info:
        IntentRegistry().register_all(base())  # type: ignore[arg-type]
    assert "register()" in str(info.value)


def test_register_returns_the_registry_for_chaining() -> None:
    registry = IntentRegistry()
    assert registry.register(base()) is registry
    assert registry.register_all([base(id="other")]) is registry
    assert registry.seal() is registry


def test_seal_refuses_every_later_registration() -> None:
    registry = IntentRegistry().register(base()).seal()
    assert registry.sealed is True
    for attempt in (
        lambda: registry.register(base(id="b")),
        lambda: registry.register_all([base(id="b")]),
        lambda: registry.register_all([]),
    ):
        with pytest.raises(RegistryError) as info:
            attempt()
        assert info.value.code == "sealed"
    assert registry.ids() == ("explain",)
    assert IntentRegistry().sealed is False


def test_create_registers_and_leaves_the_registry_open() -> None:
    registry = IntentRegistry.create([base()], delegates=["read"])
    assert registry.ids() == ("explain",)
    assert registry.sealed is False
    with pytest.raises(RegistryError):
        IntentRegistry.create([base(delegates=["write"])], delegates=["read"])


def test_lookups() -> None:
    registry = IntentRegistry().register_all(
        [base(id="b", delegates=["read"]), base(id="a", active=False), base(id="c")]
    )
    assert registry.ids() == ("b", "a", "c")
    tool = registry.get("b")
    assert isinstance(tool, RegisteredIntent)
    assert tool.delegates == ("read",)
    assert registry.get("missing") is None
    assert registry.get(3) is None  # type: ignore[arg-type]
    assert [tool.id for tool in registry.active()] == ["b", "c"]
    assert registry.allows("b", "read") and not registry.allows("c", "read")
    assert registry.allows("missing", "read") is False
    with pytest.raises(RegistryError) as info:
        registry.require("missing")
    assert info.value.code == "unknown-tool"
    assert "'b', 'a', 'c'" in str(info.value)


def test_registered_tools_are_frozen() -> None:
    tool = IntentRegistry().register(base(delegates=["read"])).require("explain")
    with pytest.raises(AttributeError):
        tool.description = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        tool.input_schema["type"] = "array"  # type: ignore[index]
    assert isinstance(tool.delegates, tuple)
