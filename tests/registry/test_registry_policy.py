"""A host's misconfigured policy or options fail at construction, clearly."""

from __future__ import annotations

import re

import pytest

from writing_rules.registry import IntentPolicy, IntentRegistry, RegistryError, ScopeRegistry

LISTS = ["delegates", "scope_modes", "target_modes", "context_tiers", "actions", "handoff_values"]


@pytest.mark.parametrize("keyword", LISTS)
@pytest.mark.parametrize(
    "bad",
    [
        "read",  # a string is not a list of names (it would become r, e, a, d)
        ["read", 3],
        ["read", "read"],
        ["read", " "],
        {"read": True},
    ],
)
def test_policy_lists_must_be_unique_names(keyword: str, bad: object) -> None:
    with pytest.raises(RegistryError) as info:
        IntentRegistry(**{keyword: bad})  # type: ignore[arg-type]
    assert info.value.code == "invalid-definition"
    assert info.value.field == keyword
    assert keyword in str(info.value)


@pytest.mark.parametrize("keyword", LISTS)
def test_policy_lists_accept_lists_and_tuples(keyword: str) -> None:
    registry = IntentRegistry(**{keyword: ("a", "b")})
    assert getattr(registry.policy, keyword) == ("a", "b")
    assert getattr(IntentRegistry(**{keyword: ["a"]}).policy, keyword) == ("a",)


@pytest.mark.parametrize("bad", ["[unclosed", "(?P<x", 42, re.compile(rb"bytes")])
def test_a_bad_id_pattern_fails_at_construction(bad: object) -> None:
    with pytest.raises(RegistryError) as info:
        IntentRegistry(id_pattern=bad)  # type: ignore[arg-type]
    assert info.value.field == "id_pattern"


def test_id_pattern_accepts_a_string_or_a_compiled_pattern() -> None:
    assert IntentRegistry(id_pattern=r"[a-z]+").policy.id_pattern == re.compile(r"[a-z]+")
    compiled = re.compile(r"[a-z]+", re.IGNORECASE)
    registry = IntentRegistry(id_pattern=compiled).register({"id": "Explain", "description": "d"})
    assert registry.ids() == ("Explain",)


def test_unknown_policy_keywords_are_a_type_error() -> None:
    with pytest.raises(TypeError):
        IntentRegistry(idPattern="x")  # type: ignore[call-arg]


def test_the_policy_is_frozen_and_unaffected_by_the_hosts_list() -> None:
    delegates = ["read"]
    registry = IntentRegistry(delegates=delegates)
    delegates.append("write")
    assert registry.policy.delegates == ("read",)
    with pytest.raises(RegistryError):
        registry.register({"id": "x", "description": "d", "delegates": ["write"]})
    assert isinstance(registry.policy, IntentPolicy)
    with pytest.raises(AttributeError):
        registry.policy.delegates = ()  # type: ignore[misc]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"categories": "knowledge"}, "categories"),
        ({"categories": ["a", "a"]}, "categories"),
        ({"require_goals": "yes"}, "require_goals"),
        ({"require_sources": 1}, "require_sources"),
    ],
)
def test_scope_options_are_checked(options: dict[str, object], field: str) -> None:
    with pytest.raises(RegistryError) as info:
        ScopeRegistry.create([], **options)  # type: ignore[arg-type]
    assert info.value.field == field
    assert info.value.code == "invalid-definition"
