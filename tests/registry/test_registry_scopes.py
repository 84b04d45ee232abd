"""ScopeRegistry: scope field rules, unique names, options and lookups."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from writing_rules.registry import RegisteredScope, RegistryError, ScopeRegistry


def scope(**changes: Any) -> dict[str, Any]:
    definition: dict[str, Any] = {"id": "sdk", "description": "SDK manual", "category": "knowledge"}
    definition.update(changes)
    return definition


def refused(scopes: list[Any], **options: Any) -> RegistryError:
    with pytest.raises(RegistryError) as info:
        ScopeRegistry.create(scopes, **options)
    return info.value


@pytest.mark.parametrize(
    ("field", "bad", "good"),
    [
        ("id", " ", "sdk"),
        ("id", 1, "sdk"),
        ("description", "", "SDK manual"),
        ("category", None, "knowledge"),
        ("aliases", "agent-core", ["agent-core"]),
        ("aliases", ["a", "a"], ["a", "b"]),
        ("goal_ids", ["explain", ""], ["explain"]),
        ("knowledge_topic_ids", ["manual", "manual"], ["manual"]),
        ("tool_ids", [3], ["read-source"]),
        ("aliases", ["sdk"], ["agent-core"]),
    ],
)
def test_each_field_rule_refuses_and_accepts(field: str, bad: object, good: object) -> None:
    error = refused([scope(**{field: bad})])
    assert error.code == "invalid-definition"
    assert error.field == field
    assert repr(field) in str(error)
    assert ScopeRegistry.create([scope(**{field: good})]).ids() == (scope(**{field: good})["id"],)


def test_unknown_fields_are_errors() -> None:
    error = refused([scope(knowledgeTopicIds=["manual"])])
    assert error.code == "invalid-definition"
    assert "knowledge_topic_ids" in str(error)
    assert error.field == "knowledgeTopicIds"
    assert refused(["sdk"]).code == "invalid-definition"


def test_ids_and_aliases_are_unique_across_the_registry() -> None:
    cases = [
        [scope(), scope(description="again")],  # id twice
        [scope(aliases=["core"]), scope(id="cli", aliases=["core"])],  # alias twice
        [scope(), scope(id="cli", aliases=["sdk"])],  # alias equals another id
        [scope(aliases=["cli"]), scope(id="cli")],  # id equals another alias
    ]
    for scopes in cases:
        error = refused(scopes)
        assert error.code == "duplicate-id"
        assert error.scope_id in ("sdk", "cli")
    registry = ScopeRegistry.create([scope(aliases=["core"]), scope(id="cli", aliases=["shell"])])
    assert registry.ids() == ("sdk", "cli")


def test_categories_restrict_the_category() -> None:
    error = refused([scope(category="tools")], categories=["knowledge"])
    assert (error.code, error.field) == ("invalid-definition", "category")
    assert "'tools'" in str(error) and "'knowledge'" in str(error)
    assert ScopeRegistry.create([scope(category="tools")]).require("sdk").category == "tools"


def test_require_goals_demands_a_goal() -> None:
    assert refused([scope()], require_goals=True).field == "goal_ids"
    assert refused([scope(goal_ids=[])], require_goals=True).field == "goal_ids"
    assert ScopeRegistry.create([scope(goal_ids=["explain"])], require_goals=True).ids() == ("sdk",)


def test_require_sources_demands_a_topic_or_a_tool() -> None:
    assert refused([scope()], require_sources=True).code == "invalid-definition"
    for sources in ({"knowledge_topic_ids": ["manual"]}, {"tool_ids": ["read-source"]}):
        assert ScopeRegistry.create([scope(**sources)], require_sources=True).ids() == ("sdk",)


def test_lookups_by_id_and_alias() -> None:
    registry = ScopeRegistry.create(
        [
            scope(aliases=["agent-core"], goal_ids=["explain"], tool_ids=["read-source"]),
            scope(id="cli", knowledge_topic_ids=["commands", "flags"]),
        ]
    )
    assert registry.normalize("agent-core") == "sdk"
    assert registry.normalize("sdk") == "sdk"
    assert registry.normalize("SDK") is None
    assert registry.normalize(None) is None  # type: ignore[arg-type]
    assert registry.require("agent-core") is registry.require("sdk")
    assert isinstance(registry.get("cli"), RegisteredScope)
    assert registry.get("nope") is None
    assert registry.accepts_tool("agent-core", "explain") is True
    assert registry.accepts_tool("sdk", "read-source") is True
    assert registry.accepts_tool("sdk", "write") is False
    assert registry.accepts_tool("cli", "explain") is False
    assert registry.accepts_tool("nope", "explain") is False
    assert registry.topics("cli") == ("commands", "flags")
    assert registry.topics("sdk") == ()
    assert registry.topics("nope") == ()


def test_require_of_an_unknown_scope() -> None:
    registry = ScopeRegistry.create([scope(aliases=["agent-core"])])
    with pytest.raises(RegistryError) as info:
        registry.require("docs")
    assert info.value.code == "unknown-scope"
    assert "'docs'" in str(info.value)
    assert "'sdk'" in str(info.value) and "'agent-core'" in str(info.value)


def test_scopes_are_frozen_copies() -> None:
    given_scope = scope(aliases=["agent-core"], knowledge_topic_ids=["manual"])
    registry = ScopeRegistry.create([given_scope])
    given_scope["knowledge_topic_ids"].append("secret")
    given_scope["aliases"].append("other")
    assert registry.topics("sdk") == ("manual",)
    assert registry.normalize("other") is None
    found = registry.require("sdk")
    assert isinstance(found.aliases, tuple)
    with pytest.raises(AttributeError):
        found.category = "tools"  # type: ignore[misc]
    described = registry.describe()
    assert json.loads(json.dumps(described)) == described
    described[0]["knowledge_topic_ids"].append("x")
    assert registry.topics("sdk") == ("manual",)


names = st.sampled_from(["sdk", "cli", "core", "docs", "api", " ", ""])


@given(
    st.lists(
        st.fixed_dictionaries(
            {"id": names, "description": st.just("d"), "category": st.just("c")},
            optional={"aliases": st.lists(names, max_size=3)},
        ),
        max_size=4,
    )
)
def test_names_resolve_to_exactly_one_scope_or_the_registry_is_refused(
    definitions: list[dict[str, Any]],
) -> None:
    try:
        registry = ScopeRegistry.create(definitions)
    except RegistryError as exc:
        assert exc.code in ("invalid-definition", "duplicate-id")
        return
    seen: dict[str, str] = {}
    for definition in definitions:
        for name in [definition["id"], *definition.get("aliases", [])]:
            assert name not in seen
            seen[name] = definition["id"]
            assert registry.normalize(name) == definition["id"]
