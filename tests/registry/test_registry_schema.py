"""The run-time schema checker: supported keywords enforced like JSON Schema
draft 2020-12, everything else refused at registration.

The differential tests compare it with ``jsonschema.Draft202012Validator``
through the public API: a tool whose schema wraps a random subschema, called
with a random JSON value.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError as JsonSchemaError

from writing_rules.registry import IntentRegistry, RegistryError

KEYS = ["a", "b", "c"]
PATTERNS = ["a", "^a", "b$", "^[ab]*$", "c+", "^$", "é", "a.b"]
TYPES = ["null", "boolean", "object", "array", "number", "integer", "string"]

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from([0.0, 1.0, -1.5, 2.5, 3.0])
    | st.text(alphabet="abcé", max_size=3)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=3),
    max_leaves=8,
)
# Scalars and shallow containers mostly, so that keywords meet values of their own type.
instances = st.one_of(
    scalars,
    st.lists(scalars, max_size=3),
    st.dictionaries(st.sampled_from(KEYS), scalars, max_size=3),
    json_values,
)
numbers = st.sampled_from([-2, -1, 0, 1, 2, 3, 0.5, 1.5, 2.0])
counts = st.integers(0, 3)
types = st.sampled_from(TYPES) | st.lists(st.sampled_from(TYPES), min_size=1, max_size=3, unique=True)

LEAF_KEYWORDS: dict[str, st.SearchStrategy[Any]] = {
    "type": types,
    "enum": st.lists(json_values, min_size=1, max_size=3),
    "const": json_values,
    "minimum": numbers,
    "maximum": numbers,
    "exclusiveMinimum": numbers,
    "exclusiveMaximum": numbers,
    "minLength": counts,
    "maxLength": counts,
    "pattern": st.sampled_from(PATTERNS),
    "minItems": counts,
    "maxItems": counts,
    "uniqueItems": st.booleans(),
    "required": st.lists(st.sampled_from(KEYS), unique=True, max_size=2),
    "description": st.text(max_size=5),
    "title": st.text(max_size=5),
    "default": json_values,
    "examples": st.lists(json_values, max_size=2),
    "format": st.sampled_from(["email", "date-time", "uri"]),
    "$comment": st.text(max_size=5),
}


def _few_keywords(strategies: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    # One to three keywords per schema: with many at once almost nothing is valid,
    # and the comparison would learn little about each keyword.
    # "type" is listed more often because most other keywords only act on one type.
    names = sorted(strategies) + ["type"] * 4
    return st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True).flatmap(
        lambda chosen: st.fixed_dictionaries({keyword: strategies[keyword] for keyword in chosen})
    )


def _with_subschemas(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return _few_keywords(
        {
            **LEAF_KEYWORDS,
            "properties": st.dictionaries(st.sampled_from(KEYS), inner, max_size=3),
            "additionalProperties": inner,
            "items": inner,
            "anyOf": st.lists(inner, min_size=1, max_size=3),
            "oneOf": st.lists(inner, min_size=1, max_size=3),
        }
    )


schemas = st.recursive(st.booleans() | _few_keywords(LEAF_KEYWORDS), _with_subschemas, max_leaves=6)


def _twins(value: Any) -> list[Any]:
    """Values JSON tells apart or not, at and next to a boundary: 1, 1.0, true; 'a', 'ab'."""
    if isinstance(value, bool):
        return [value, int(value), float(value)]
    if isinstance(value, (int, float)):
        whole = [int(value)] if float(value).is_integer() else []
        return [value, value - 0.5, value + 0.5, float(value), *whole, value == 1]
    if isinstance(value, str):
        return [value, value + "a", value[:-1], value + "é"]
    return [value]


ARRAY_KEYWORDS = ("items", "minItems", "maxItems", "uniqueItems")
OBJECT_KEYWORDS = ("properties", "required", "additionalProperties")


def _near(schema: Any) -> st.SearchStrategy[Any]:
    """Instances built from the schema's own names and constants, so boundaries are hit."""
    if not isinstance(schema, dict):
        return instances
    specific: list[st.SearchStrategy[Any]] = []
    for keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "const"):
        if keyword in schema:
            specific.append(st.sampled_from(_twins(schema[keyword])))
    for keyword in ("minLength", "maxLength"):
        if keyword in schema:
            size = int(schema[keyword])
            specific.append(st.text(alphabet="abé😀", min_size=max(0, size - 1), max_size=size + 1))
    if "enum" in schema:
        specific.append(st.sampled_from([twin for value in schema["enum"] for twin in _twins(value)]))
    branches = [*schema.get("anyOf", []), *schema.get("oneOf", [])]
    if branches:
        specific.append(st.sampled_from(branches).flatmap(_near))
    if any(keyword in schema for keyword in ARRAY_KEYWORDS):
        element = _near(schema["items"]) if "items" in schema else instances
        specific.append(st.lists(element, max_size=4))
        specific.append(st.lists(st.sampled_from([0, 1, 1.0, True, "a", [1], [True], [1.0]]), max_size=4))
    if any(keyword in schema for keyword in OBJECT_KEYWORDS):
        properties = schema.get("properties", {})
        names = sorted({*KEYS, *properties, *schema.get("required", [])})
        specific.append(
            st.lists(st.sampled_from(names), unique=True, max_size=4).flatmap(
                lambda chosen: st.fixed_dictionaries(
                    {
                        name: _near(properties[name])
                        if name in properties
                        else _near(schema.get("additionalProperties", True))
                        for name in chosen
                    }
                )
            )
        )
    # Values aimed at the schema twice as often as arbitrary ones.
    return st.one_of(*specific, *specific, instances)


def wrap(schema: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"v": schema}, "required": ["v"]}


def register(schema: dict[str, Any]) -> IntentRegistry:
    return IntentRegistry().register({"id": "t", "description": "d", "input_schema": schema})


def resolve_pointer(document: Any, pointer: str) -> Any:
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        document = document[int(token)] if isinstance(document, list) else document[token]
    return document


def _agree(schema: Any, instance: Any) -> None:
    wrapper = wrap(schema)
    Draft202012Validator.check_schema(wrapper)  # the generator makes only real schemas
    registry = register(wrapper)
    expected = Draft202012Validator(wrapper).is_valid({"v": instance})
    try:
        result = registry.resolve("t", {"v": instance}, "s")
    except RegistryError as exc:
        assert exc.code == "invalid-arguments"
        assert not expected, f"refused a valid instance: {exc}"
        # The pointer names the bad value, or the missing property in an object that exists.
        assert exc.field is not None and (exc.field == "" or exc.field.startswith("/"))
        try:
            resolve_pointer({"v": instance}, exc.field)
        except (KeyError, IndexError):
            parent = exc.field.rsplit("/", 1)[0]
            assert isinstance(resolve_pointer({"v": instance}, parent), dict)
            assert "required" in str(exc)
    else:
        assert expected, f"accepted an invalid instance: {json.dumps(instance)}"
        assert result == {"v": instance}


_leaf_schemas = st.booleans() | st.sampled_from(sorted(LEAF_KEYWORDS)).flatmap(
    lambda keyword: st.fixed_dictionaries({keyword: LEAF_KEYWORDS[keyword]})
)
ONE_KEYWORD: dict[str, st.SearchStrategy[Any]] = {
    **LEAF_KEYWORDS,
    "properties": st.dictionaries(st.sampled_from(KEYS), _leaf_schemas, max_size=3),
    "additionalProperties": _leaf_schemas,
    "items": _leaf_schemas,
    "anyOf": st.lists(_leaf_schemas, min_size=1, max_size=3),
    "oneOf": st.lists(_leaf_schemas, min_size=1, max_size=3),
}
# One keyword (its subschemas one keyword deep), sometimes with a type next to it.
single_keyword_schemas = st.sampled_from(sorted(ONE_KEYWORD)).flatmap(
    lambda keyword: st.fixed_dictionaries(
        {keyword: ONE_KEYWORD[keyword]}, optional={} if keyword == "type" else {"type": types}
    )
)


@settings(max_examples=1500, deadline=None)
@given(schema=single_keyword_schemas, data=st.data())
def test_each_keyword_agrees_with_jsonschema(schema: dict[str, Any], data: st.DataObject) -> None:
    _agree(schema, data.draw(_near(schema), label="instance"))


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=schemas, data=st.data())
def test_nested_schemas_agree_with_jsonschema(schema: Any, data: st.DataObject) -> None:
    _agree(schema, data.draw(_near(schema), label="instance"))


@settings(max_examples=300, deadline=None)
@given(
    schema=st.dictionaries(
        st.sampled_from([*LEAF_KEYWORDS, "properties", "items", "anyOf", "oneOf", "additionalProperties"]),
        json_values,
        max_size=4,
    )
)
def test_whatever_registers_is_a_valid_2020_12_schema(schema: dict[str, Any]) -> None:
    wrapper = {**schema, "type": "object"}
    try:
        register(wrapper)
    except RegistryError as exc:
        assert exc.code == "invalid-definition"
        assert exc.field == "input_schema"
    else:
        Draft202012Validator.check_schema(wrapper)


# Real 2020-12 keywords the checker does not enforce, and a typo.
UNSUPPORTED = [
    "multipleOf", "patternProperties", "propertyNames", "prefixItems", "contains", "minContains",
    "maxContains", "dependentRequired", "dependentSchemas", "allOf", "not", "if", "then", "else",
    "$ref", "$defs", "$anchor", "$dynamicRef", "unevaluatedProperties", "unevaluatedItems",
    "minProperties", "maxProperties", "contentEncoding", "readOnly", "deprecated", "definitions",
    "maxlength",
]  # fmt: skip


@pytest.mark.parametrize("keyword", UNSUPPORTED)
def test_unsupported_keywords_are_refused_where_ever_they_are(keyword: str) -> None:
    for schema, pointer in [
        ({"type": "object", keyword: 1}, "(root)"),
        (
            {"type": "object", "properties": {"x": {"type": "array", "items": {keyword: 1}}}},
            "/properties/x/items",
        ),
        ({"type": "object", "anyOf": [{}, {keyword: {}}]}, "/anyOf/1"),
    ]:
        with pytest.raises(RegistryError) as info:
            register(schema)
        assert info.value.code == "invalid-definition"
        assert info.value.field == "input_schema"
        assert repr(keyword) in str(info.value)
        assert pointer in str(info.value)


@pytest.mark.parametrize(
    ("keyword", "bad"),
    [
        ("type", "float"),
        ("type", []),
        ("type", ["string", "string"]),
        ("minimum", True),
        ("maximum", "1"),
        ("minLength", -1),
        ("maxLength", 1.5),
        ("minItems", False),
        ("pattern", "("),
        ("pattern", 3),
        ("required", "a"),
        ("required", ["a", "a"]),
        ("enum", "a"),
        ("properties", ["a"]),
        ("properties", {"a": 3}),
        ("items", [{}]),
        ("additionalProperties", "no"),
        ("anyOf", []),
        ("oneOf", {}),
        ("uniqueItems", "yes"),
        ("description", 5),
        ("examples", "x"),
        ("$id", "a#b"),
    ],
)
def test_misused_keywords_are_refused(keyword: str, bad: Any) -> None:
    with pytest.raises(RegistryError) as info:
        register({"type": "object", "properties": {"x": {keyword: bad}}})
    assert info.value.field == "input_schema"
    assert "/properties/x" in str(info.value)
    with pytest.raises(JsonSchemaError):  # jsonschema agrees these are not 2020-12 schemas
        Draft202012Validator.check_schema({"properties": {"x": {keyword: bad}}})


def test_an_empty_enum_is_refused_because_nothing_could_match() -> None:
    # Valid 2020-12, but a tool no call can satisfy is a definition mistake.
    with pytest.raises(RegistryError) as info:
        register({"type": "object", "properties": {"x": {"enum": []}}})
    assert "non-empty" in str(info.value)
    assert register({"type": "object", "properties": {"x": {"enum": [None]}}}).ids() == ("t",)


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "array"},
        {"properties": {}},
        {"type": ["object", "null"]},
        True,
        "object",
        [{"type": "object"}],
    ],
)
def test_the_input_schema_must_be_an_object_schema(bad: Any) -> None:
    with pytest.raises(RegistryError) as info:
        register(bad)
    assert info.value.field == "input_schema"
    assert "object schema" in str(info.value)


@pytest.mark.parametrize("bad", [{1, 2}, float("nan"), object()])
def test_a_schema_must_be_json_data(bad: Any) -> None:
    with pytest.raises(RegistryError) as info:
        register({"type": "object", "properties": {"x": {"enum": [bad]}}})
    assert info.value.field == "input_schema"
    assert "/properties/x/enum/0" in str(info.value)


def test_tuples_in_a_schema_are_arrays() -> None:
    registry = register({"type": "object", "required": ("a",), "properties": {"a": {"enum": ("x", "y")}}})
    assert registry.resolve("t", {"a": "x"}, "s") == {"a": "x"}
    assert registry.describe()[0]["input_schema"]["required"] == ["a"]


@pytest.mark.parametrize(
    ("schema", "good", "bad"),
    [
        ({"type": "integer"}, 5.0, True),
        ({"type": "number"}, 1, False),
        ({"enum": [1]}, 1.0, True),
        ({"const": [1, {"a": False}]}, [1.0, {"a": False}], [True, {"a": 0}]),
        ({"uniqueItems": True}, [1, True, "1", [1], [True]], [[1], [1.0]]),
        ({"pattern": "b"}, "abc", "ac"),
        ({"minLength": 2, "maxLength": 2}, "😀é", "😀"),
        ({"exclusiveMinimum": 1}, 1.5, 1),
        ({"exclusiveMaximum": 1}, 0, 1.0),
        ({"oneOf": [{"type": "integer"}, {"minimum": 2}]}, 1, 3),
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, None, 0),
        ({"items": False}, [], [0]),
        ({"additionalProperties": {"type": "string"}}, {"z": "s"}, {"z": 1}),
    ],
)
def test_json_semantics(schema: dict[str, Any], good: Any, bad: Any) -> None:
    registry = register(wrap(schema))
    assert registry.resolve("t", {"v": good}, "s") == {"v": good}
    with pytest.raises(RegistryError) as info:
        registry.resolve("t", {"v": bad}, "s")
    assert info.value.code == "invalid-arguments"
    assert info.value.field is not None and info.value.field.startswith("/v")
    validator = Draft202012Validator(wrap(schema))
    assert validator.is_valid({"v": good}) and not validator.is_valid({"v": bad})


def test_a_review_tool_shaped_schema_registers_and_validates() -> None:
    # The shape writing_rules.tools.writing_tool_definitions will hand over.
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "description": "Arguments of compose_writing_review_prompt.",
        "properties": {
            "profile": {
                "type": "string",
                "enum": ["public-docs", "technical-reference", "product-copy", "agent-report"],
                "description": "The rule profile.",
            },
            "language": {"type": "string", "enum": ["en", "de"], "default": "en"},
            "maxFindings": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5},
            "ruleIds": {
                "type": "array",
                "items": {"type": "string", "minLength": 1, "maxLength": 64},
                "minItems": 1,
                "maxItems": 50,
                "uniqueItems": True,
            },
            "text": {"type": "string", "maxLength": 250000},
        },
        "required": ["profile"],
        "additionalProperties": False,
    }
    Draft202012Validator.check_schema(schema)
    envelope = {"ok": True, "tool": "compose_writing_review_prompt", "data": {}}
    registry = IntentRegistry(id_pattern=r"[a-zA-Z0-9_-]{1,64}").register(
        {
            "id": "compose_writing_review_prompt",
            "description": "Compose a review prompt.",
            "input_schema": schema,
            "resolve": lambda value, context: envelope,
        }
    )
    assert registry.describe()[0]["input_schema"] == schema
    assert registry.resolve("compose_writing_review_prompt", {"profile": "public-docs"}, "s") is envelope
    arguments = {"profile": "public-docs", "language": "de", "maxFindings": 5.0, "ruleIds": ["word-choice"]}
    assert registry.resolve("compose_writing_review_prompt", arguments, "s") is envelope
    with pytest.raises(RegistryError) as info:
        registry.resolve("compose_writing_review_prompt", {"profile": "public-docs", "language": "EN"}, "s")
    assert info.value.field == "/language"
    assert "'en', 'de'" in str(info.value)
