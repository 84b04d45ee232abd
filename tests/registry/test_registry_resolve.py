"""Calling a tool: arguments validated, resolve run synchronously, failures coded."""

from __future__ import annotations

import functools
import gc
import pickle
import warnings
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from writing_rules.registry import IntentRegistry, RegistryError

SCHEMA = {
    "type": "object",
    "properties": {
        "question": {"type": "string", "minLength": 1},
        "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5},
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
    },
    "required": ["question"],
    "additionalProperties": False,
}


def registry_with(resolve: Any = None, **fields: Any) -> IntentRegistry:
    definition: dict[str, Any] = {"id": "explain", "description": "Explain", "input_schema": SCHEMA}
    if resolve is not None:
        definition["resolve"] = resolve
    definition.update(fields)
    return IntentRegistry().register(definition)


def call_error(registry: IntentRegistry, arguments: Any, tool_id: str = "explain") -> RegistryError:
    with pytest.raises(RegistryError) as info:
        registry.resolve(tool_id, arguments, "stage-1")
    return info.value


def test_default_resolve_returns_a_copy_of_the_validated_input() -> None:
    arguments = {"question": "How?", "tags": ["a"]}
    result = registry_with().resolve("explain", arguments, "stage-1")
    assert result == arguments
    result["tags"].append("b")
    assert arguments == {"question": "How?", "tags": ["a"]}


def test_resolve_gets_the_input_and_a_read_only_context() -> None:
    seen: list[tuple[Any, Mapping[str, Any]]] = []

    def resolve(value: Any, context: Mapping[str, Any]) -> str:
        seen.append((value, context))
        return f"{value['question']} @ {context['stage_id']}"

    assert registry_with(resolve).resolve("explain", {"question": "Why?"}, "plan") == "Why? @ plan"
    value, context = seen[0]
    assert value == {"question": "Why?"}
    assert dict(context) == {"stage_id": "plan"}
    with pytest.raises(TypeError):
        context["stage_id"] = "other"  # type: ignore[index]


def test_defaults_are_annotations_not_filled_in() -> None:
    assert "limit" not in registry_with().resolve("explain", {"question": "q"}, "s")


@pytest.mark.parametrize(
    ("arguments", "pointer", "words"),
    [
        ({}, "/question", "required"),
        ({"question": ""}, "/question", "at least 1 character"),
        ({"question": "q", "limit": 0}, "/limit", "at least 1"),
        ({"question": "q", "limit": 21}, "/limit", "at most 20"),
        ({"question": "q", "limit": True}, "/limit", "expected integer; got boolean"),
        ({"question": "q", "limit": "5"}, "/limit", "expected integer; got string"),
        ({"question": "q", "tags": ["a", "a"]}, "/tags/1", "unique"),
        ({"question": "q", "tags": ["a", 1]}, "/tags/1", "expected string"),
        ({"question": "q", "extra": 1}, "/extra", "unknown property"),
        ([], "", "expected object"),
        ({"question": "q", "limit": float("nan")}, "/limit", "NaN"),
        ({"question": "q", "tags": {"a", "b"}}, "/tags", "not a JSON value"),
        ({"question": "q", 1: "x"}, "", "keys must be strings"),
    ],
)
def test_invalid_arguments_name_the_json_pointer(arguments: Any, pointer: str, words: str) -> None:
    ran: list[Any] = []
    error = call_error(registry_with(lambda value, context: ran.append(value)), arguments)
    assert error.code == "invalid-arguments"
    assert error.field == pointer
    assert error.tool_id == "explain"
    assert words in str(error)
    if pointer:
        assert repr(pointer) in str(error)
    assert ran == []


def test_a_whole_number_float_is_an_integer() -> None:
    assert registry_with().resolve("explain", {"question": "q", "limit": 5.0}, "s")["limit"] == 5.0
    assert call_error(registry_with(), {"question": "q", "limit": 5.5}).field == "/limit"


def test_none_arguments_mean_an_empty_object() -> None:
    registry = IntentRegistry().register({"id": "ping", "description": "Ping"})
    assert registry.resolve("ping", None, "s") == {}
    assert call_error(registry_with(), None).field == "/question"


def test_a_tool_without_a_schema_takes_no_arguments() -> None:
    registry = IntentRegistry().register({"id": "ping", "description": "Ping"})
    assert registry.resolve("ping", {}, "s") == {}
    assert call_error(registry, {"x": 1}, "ping").field == "/x"


def test_unknown_and_inactive_tools_are_refused() -> None:
    registry = registry_with(lambda value, context: "ran", active=False)
    error = call_error(registry, {"question": "q"})
    assert error.code == "unknown-tool"
    assert "inactive" in str(error)
    assert call_error(registry, {"question": "q"}, "missing").code == "unknown-tool"


def test_stage_id_must_be_a_string() -> None:
    with pytest.raises(RegistryError) as info:
        registry_with().resolve("explain", {"question": "q"}, None)  # type: ignore[arg-type]
    assert (info.value.code, info.value.field) == ("invalid-arguments", "stage_id")


def test_an_exception_in_resolve_rejects_the_selection() -> None:
    def resolve(value: Any, context: Any) -> Any:
        raise ValueError("question is off-topic")

    error = call_error(registry_with(resolve), {"question": "q"})
    assert error.code == "resolve-failed"
    assert "question is off-topic" in str(error)
    assert isinstance(error.__cause__, ValueError)


def test_async_resolve_is_refused_at_registration() -> None:
    async def resolve(value: Any, context: Any) -> Any:
        return value

    async def agen(value: Any, context: Any) -> Any:
        yield value

    class AsyncCallable:
        async def __call__(self, value: Any, context: Any) -> Any:
            return value

    for candidate in (resolve, agen, AsyncCallable(), functools.partial(resolve)):
        with pytest.raises(RegistryError) as info:
            registry_with(candidate)
        assert (info.value.code, info.value.field) == ("invalid-definition", "resolve")
        assert "asynchronous" in str(info.value)


def test_an_awaitable_result_is_refused_at_call_time_without_a_warning() -> None:
    async def later(value: Any) -> Any:
        return value

    registry = registry_with(lambda value, context: later(value))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        error = call_error(registry, {"question": "q"})
        gc.collect()
    assert error.code == "resolve-failed"
    assert "asynchronous" in str(error)


def test_a_callable_object_and_extra_defaulted_parameters_are_fine() -> None:
    class Resolver:
        def __call__(self, value: Any, context: Any, extra: int = 1) -> Any:
            return value["question"] * extra

    assert registry_with(Resolver()).resolve("explain", {"question": "q"}, "s") == "q"


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
        max_leaves=10,
    )
)
def test_any_argument_value_is_answered_with_a_result_or_a_registry_error(arguments: Any) -> None:
    registry = registry_with()
    try:
        result = registry.resolve("explain", arguments, "s")
    except RegistryError as exc:
        assert exc.code == "invalid-arguments"
        assert isinstance(exc.field, str)
    else:
        assert isinstance(result, dict) and isinstance(result["question"], str)


def test_deeply_nested_arguments_are_refused_not_crashing() -> None:
    deep: Any = "x"
    for _ in range(5000):
        deep = [deep]
    error = call_error(registry_with(), {"question": "q", "tags": deep})
    assert error.code == "invalid-arguments"
    assert "nested" in str(error)


def test_keyboard_interrupt_in_resolve_is_not_swallowed() -> None:
    def resolve(value: Any, context: Any) -> Any:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        registry_with(resolve).resolve("explain", {"question": "q"}, "s")


def test_a_registry_error_is_picklable_with_its_attributes() -> None:
    error = call_error(registry_with(), {"question": 3})
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.code, copy.field, copy.tool_id, str(copy)) == (
        error.code,
        error.field,
        error.tool_id,
        str(error),
    )
