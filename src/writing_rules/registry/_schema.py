"""A small JSON Schema (draft 2020-12) checker for tool arguments.

It interprets only the keywords listed in ``ASSERTIONS`` and ``ANNOTATIONS``;
``check_schema`` refuses a schema using anything else, so no keyword is ever
silently ignored. Semantics follow JSON, not Python: a boolean is never a
number, ``5.0`` is an integer, ``1`` equals ``1.0`` but not ``true``, string
lengths count code points and ``pattern`` is searched with Python's ``re``.

Schemas here are frozen (see ``_json.freeze``); instances are plain copies
made by ``_json.plain_copy``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from writing_rules._describe import show
from writing_rules._tool_call import json_pointer

from .._errors import WritingRulesError
from ._json import json_key, kind

__all__ = [
    "ANNOTATIONS",
    "ASSERTIONS",
    "ArgumentError",
    "SchemaError",
    "check_schema",
    "validate",
]

ASSERTIONS = frozenset(
    {
        "type", "properties", "required", "additionalProperties", "enum", "const",
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "minLength", "maxLength", "pattern", "items", "minItems", "maxItems",
        "uniqueItems", "anyOf", "oneOf",
    }
)  # fmt: skip
ANNOTATIONS = frozenset({"description", "default", "title", "examples", "format", "$schema", "$id", "$comment"})
_TYPES = ("null", "boolean", "object", "array", "number", "integer", "string")
_STRING_ANNOTATIONS = ("description", "title", "format", "$schema", "$id", "$comment")
_NUMBERS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
_COUNTS = ("minLength", "maxLength", "minItems", "maxItems")


class SchemaError(WritingRulesError):
    """A schema uses an unknown keyword or a keyword wrongly; ``pointer`` locates it."""

    def __init__(self, pointer: str, reason: str) -> None:
        super().__init__(f"at {pointer or '(schema root)'}: {reason}")
        self.pointer = pointer
        self.reason = reason


class ArgumentError(WritingRulesError):
    """An instance does not satisfy a schema; ``pointer`` locates the bad value."""

    def __init__(self, pointer: str, reason: str) -> None:
        super().__init__(f"{pointer or '(the arguments object)'}: {reason}")
        self.pointer = pointer
        self.reason = reason


# --- registration time: is this a schema we can enforce completely? ---------


def _is_count(value: object) -> bool:
    # JSON Schema's nonNegativeInteger: 5.0 counts as the integer 5.
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value >= 0
    return isinstance(value, float) and value.is_integer() and value >= 0


def _unique_strings(value: object) -> bool:
    return isinstance(value, tuple) and all(isinstance(item, str) for item in value) and len(set(value)) == len(value)


def check_schema(schema: Any, path: tuple[str | int, ...] = ()) -> None:
    """Raise ``SchemaError`` unless ``schema`` (frozen) uses only enforceable keywords correctly."""
    here = json_pointer(*path)
    if isinstance(schema, bool):
        return
    if not isinstance(schema, Mapping):
        raise SchemaError(here, f"a schema must be an object or a boolean; got {kind(schema)}")
    unknown = sorted(key for key in schema if key not in ASSERTIONS and key not in ANNOTATIONS)
    if unknown:
        raise SchemaError(
            here,
            f"unsupported keyword(s) {', '.join(map(repr, unknown))}; the registry enforces only "
            f"{', '.join(sorted(ASSERTIONS))} and accepts the annotations {', '.join(sorted(ANNOTATIONS))}",
        )

    def bad(keyword: str, rule: str) -> SchemaError:
        return SchemaError(json_pointer(*path, keyword), f"'{keyword}' must be {rule}; got {show(schema[keyword])}")

    for keyword in _STRING_ANNOTATIONS:
        if keyword in schema and not isinstance(schema[keyword], str):
            raise bad(keyword, "a string")
    if "$id" in schema and re.fullmatch(r"[^#]*#?", schema["$id"]) is None:
        # Draft 2020-12 moved fragment identifiers to $anchor, which is not supported.
        raise bad("$id", "a URI reference without a non-empty fragment")
    if "examples" in schema and not isinstance(schema["examples"], tuple):
        raise bad("examples", "an array")
    if "type" in schema:
        declared = schema["type"]
        names = declared if isinstance(declared, tuple) else (declared,)
        if not names or not _unique_strings(names) or any(name not in _TYPES for name in names):
            raise bad("type", f"one of {', '.join(_TYPES)} or a non-empty array of unique ones")
    for keyword in _NUMBERS:
        value = schema.get(keyword)
        if keyword in schema and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise bad(keyword, "a number")
    for keyword in _COUNTS:
        if keyword in schema and not _is_count(schema[keyword]):
            raise bad(keyword, "a non-negative integer")
    if "uniqueItems" in schema and not isinstance(schema["uniqueItems"], bool):
        raise bad("uniqueItems", "true or false")
    if "pattern" in schema:
        pattern = schema["pattern"]
        if not isinstance(pattern, str):
            raise bad("pattern", "a string holding a regular expression")
        try:
            re.compile(pattern)
        except re.error as exc:
            raise bad("pattern", f"a regular expression Python's re module accepts ({exc})") from None
    if "required" in schema and not _unique_strings(schema["required"]):
        raise bad("required", "an array of unique property names")
    if "enum" in schema and not (isinstance(schema["enum"], tuple) and schema["enum"]):
        raise bad("enum", "a non-empty array of allowed values")
    if "properties" in schema:
        properties = schema["properties"]
        if not isinstance(properties, Mapping):
            raise bad("properties", "an object mapping property names to schemas")
        for name, subschema in properties.items():
            check_schema(subschema, (*path, "properties", name))
    for keyword in ("additionalProperties", "items"):
        if keyword in schema:
            if isinstance(schema[keyword], tuple):
                # Draft-04 style tuple validation would be prefixItems in 2020-12.
                raise bad(keyword, "a single schema (arrays of schemas are not supported)")
            check_schema(schema[keyword], (*path, keyword))
    for keyword in ("anyOf", "oneOf"):
        if keyword in schema:
            options = schema[keyword]
            if not isinstance(options, tuple) or not options:
                raise bad(keyword, "a non-empty array of schemas")
            for index, subschema in enumerate(options):
                check_schema(subschema, (*path, keyword, index))


# --- call time: does this instance satisfy the schema? ----------------------


def _has_type(value: Any, name: str) -> bool:
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    if isinstance(value, bool):
        return False
    if name == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    return isinstance(value, (int, float))  # "number"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _count(value: Any) -> int:
    return int(value)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def validate(schema: Any, instance: Any, path: tuple[str | int, ...] = ()) -> None:
    """Raise ``ArgumentError`` at the first place ``instance`` breaks ``schema``."""
    here = json_pointer(*path)
    if schema is True:
        return
    if schema is False:
        raise ArgumentError(here, "no value is allowed here")

    if "type" in schema:
        declared = schema["type"]
        names = declared if isinstance(declared, tuple) else (declared,)
        if not any(_has_type(instance, name) for name in names):
            raise ArgumentError(here, f"expected {' or '.join(names)}; got {kind(instance)}")
    if "const" in schema and json_key(instance) != json_key(schema["const"]):
        raise ArgumentError(here, f"must be {show(schema['const'])}; got {show(instance)}")
    if "enum" in schema:
        key = json_key(instance)
        if not any(key == json_key(option) for option in schema["enum"]):
            allowed = ", ".join(show(option) for option in schema["enum"][:20])
            raise ArgumentError(here, f"must be one of {allowed}; got {show(instance)}")

    if _is_number(instance):
        _check_number(schema, instance, here)
    elif isinstance(instance, str):
        _check_string(schema, instance, here)
    elif isinstance(instance, list):
        _check_array(schema, instance, path)
    elif isinstance(instance, dict):
        _check_object(schema, instance, path)

    if "anyOf" in schema:
        reasons = _failures(schema["anyOf"], instance, path)
        if len(reasons) == len(schema["anyOf"]):
            raise ArgumentError(here, "matches none of the allowed forms: " + "; ".join(reasons))
    if "oneOf" in schema:
        reasons = _failures(schema["oneOf"], instance, path)
        matched = len(schema["oneOf"]) - len(reasons)
        if matched == 0:
            raise ArgumentError(here, "matches none of the allowed forms: " + "; ".join(reasons))
        if matched > 1:
            raise ArgumentError(here, f"matches {matched} of the allowed forms; it must match exactly one")


def _failures(options: tuple[Any, ...], instance: Any, path: tuple[str | int, ...]) -> list[str]:
    reasons = []
    for index, option in enumerate(options):
        try:
            validate(option, instance, path)
        except ArgumentError as exc:
            reasons.append(f"({index + 1}) {exc}")
    return reasons


def _check_number(schema: Mapping[str, Any], value: int | float, here: str) -> None:
    if "minimum" in schema and value < schema["minimum"]:
        raise ArgumentError(here, f"must be at least {show(schema['minimum'])}; got {show(value)}")
    if "maximum" in schema and value > schema["maximum"]:
        raise ArgumentError(here, f"must be at most {show(schema['maximum'])}; got {show(value)}")
    if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
        raise ArgumentError(here, f"must be greater than {show(schema['exclusiveMinimum'])}; got {show(value)}")
    if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
        raise ArgumentError(here, f"must be less than {show(schema['exclusiveMaximum'])}; got {show(value)}")


def _check_string(schema: Mapping[str, Any], value: str, here: str) -> None:
    # len() counts code points, which is what JSON Schema's length keywords count.
    if "minLength" in schema and len(value) < _count(schema["minLength"]):
        limit = _count(schema["minLength"])
        raise ArgumentError(here, f"must be at least {_plural(limit, 'character')} long; got {len(value)}")
    if "maxLength" in schema and len(value) > _count(schema["maxLength"]):
        limit = _count(schema["maxLength"])
        raise ArgumentError(here, f"must be at most {_plural(limit, 'character')} long; got {len(value)}")
    if "pattern" in schema and re.search(schema["pattern"], value) is None:
        raise ArgumentError(here, f"must match the regular expression {schema['pattern']!r}")


def _check_array(schema: Mapping[str, Any], value: list[Any], path: tuple[str | int, ...]) -> None:
    here = json_pointer(*path)
    if "minItems" in schema and len(value) < _count(schema["minItems"]):
        limit = _count(schema["minItems"])
        raise ArgumentError(here, f"must have at least {_plural(limit, 'item')}; got {len(value)}")
    if "maxItems" in schema and len(value) > _count(schema["maxItems"]):
        limit = _count(schema["maxItems"])
        raise ArgumentError(here, f"must have at most {_plural(limit, 'item')}; got {len(value)}")
    if schema.get("uniqueItems") is True:
        seen: dict[Any, int] = {}
        for index, item in enumerate(value):
            first = seen.setdefault(json_key(item), index)
            if first != index:
                raise ArgumentError(
                    json_pointer(*path, index), f"repeats item {first} ({show(item)}); items must be unique"
                )
    if "items" in schema:
        for index, item in enumerate(value):
            validate(schema["items"], item, (*path, index))


def _check_object(schema: Mapping[str, Any], value: dict[str, Any], path: tuple[str | int, ...]) -> None:
    for name in schema.get("required", ()):
        if name not in value:
            raise ArgumentError(json_pointer(*path, name), "required property is missing")
    properties: Mapping[str, Any] = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    for name, item in value.items():
        if name in properties:
            validate(properties[name], item, (*path, name))
        elif extra is False:
            known = ", ".join(map(repr, list(properties)[:20]))
            allowed = f"the allowed properties are {known}" if known else "this object takes no properties"
            raise ArgumentError(json_pointer(*path, name), f"unknown property; {allowed}")
        else:
            validate(extra, item, (*path, name))
