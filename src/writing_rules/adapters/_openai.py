"""OpenAI function tools (Chat Completions shape), with an optional strict-mode schema."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ._common import AdapterError, checked_descriptors

__all__ = ["openai_strict_arguments", "openai_tools"]

# Conservative: strict mode is documented for this subset; anything else is removed
# from the schema and stated in the description (the dispatcher still enforces it).
_KEPT = frozenset(
    {
        "type",
        "enum",
        "const",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "anyOf",
        "description",
    }
)
_DROPPED_SILENTLY = frozenset({"$schema", "title"})


def _constraint_note(dropped: Mapping[str, Any]) -> str:
    parts = [f"{key} {json.dumps(value, ensure_ascii=False)}" for key, value in dropped.items()]
    return f"Constraints: {', '.join(parts)}."


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` that also accepts null: how strict mode expresses an optional field."""
    if "anyOf" in schema:
        schema["anyOf"] = [*schema["anyOf"], {"type": "null"}]
        return schema
    kind = schema.get("type")
    if isinstance(kind, str):
        schema["type"] = [kind, "null"]
    elif isinstance(kind, list) and "null" not in kind:
        schema["type"] = [*kind, "null"]
    elif kind is None:
        return {"anyOf": [schema, {"type": "null"}]}
    if "enum" in schema and None not in schema["enum"]:
        schema["enum"] = [*schema["enum"], None]
    return schema


def _strict(schema: Mapping[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    dropped: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("oneOf", "anyOf"):  # strict mode has no oneOf; our branches differ by const
            result["anyOf"] = [_strict(branch) for branch in value]
        elif key == "items" and isinstance(value, Mapping):
            result["items"] = _strict(value)
        elif key == "properties":
            required = set(schema.get("required", ()))
            properties = {}
            for name, sub in value.items():
                converted = _strict(sub)
                properties[name] = converted if name in required else _nullable(converted)
            result["properties"] = properties
        elif key in _KEPT:
            result[key] = value
        elif key not in _DROPPED_SILENTLY:
            dropped[key] = value
    if "properties" in result:
        result["required"] = list(result["properties"])
        result["additionalProperties"] = False
    if dropped:
        note = _constraint_note(dropped)
        result["description"] = f"{result['description']} {note}" if result.get("description") else note
    return result


def openai_tools(descriptors: Iterable[Mapping[str, Any]], strict: bool = False) -> list[dict[str, Any]]:
    """``[{"type": "function", "function": {name, description, parameters[, strict]}}]``.

    With ``strict=True`` the schema follows strict mode: every property required,
    optional ones nullable, ``additionalProperties: false`` on every object, and
    unsupported keywords removed with their constraint stated in the description.
    Send the model's arguments through ``openai_strict_arguments`` before dispatch.
    """
    tools = []
    for descriptor in checked_descriptors(descriptors):
        schema = descriptor["inputSchema"]
        if strict:
            schema = _strict(schema)
        else:
            schema.pop("$schema", None)
        function: dict[str, Any] = {
            "name": descriptor["name"],
            "description": descriptor["description"],
            "parameters": schema,
        }
        if strict:
            function["strict"] = True
        tools.append({"type": "function", "function": function})
    return tools


def _branch(value: Mapping[str, Any], branches: list[Any]) -> Mapping[str, Any] | None:
    """The ``anyOf``/``oneOf`` branch whose ``const`` fields and keys fit ``value``."""
    branch: Mapping[str, Any]
    for branch in branches:
        properties = branch.get("properties") if isinstance(branch, Mapping) else None
        if not isinstance(properties, Mapping):
            continue
        fits = all(key in properties for key, item in value.items() if item is not None) and all(
            value.get(name) == sub["const"]
            for name, sub in properties.items()
            if isinstance(sub, Mapping) and "const" in sub
        )
        if fits:
            return branch
    return None


def _allows_null(schema: Mapping[str, Any]) -> bool:
    kind = schema.get("type")
    return kind == "null" or (isinstance(kind, list) and "null" in kind)


def _absent_nulls(value: Any, schema: Any) -> Any:
    if not isinstance(schema, Mapping):
        return value
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        return [_absent_nulls(item, schema["items"]) for item in value]
    if not isinstance(value, Mapping):
        return value
    branches = schema.get("oneOf") or schema.get("anyOf")
    if isinstance(branches, list):
        chosen = _branch(value, branches)
        return _absent_nulls(value, chosen) if chosen is not None else dict(value)
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return dict(value)
    required = set(schema.get("required", ()))
    result = {}
    for key, item in value.items():
        sub = properties.get(key)
        if item is None and key not in required and isinstance(sub, Mapping) and not _allows_null(sub):
            continue  # strict mode's stand-in for "not given"
        result[key] = _absent_nulls(item, sub)
    return result


def openai_strict_arguments(arguments: Any, descriptor: Mapping[str, Any]) -> Any:
    """``arguments`` with the nulls of absent optional fields removed, judged by the original schema.

    Anything that is not an object is returned unchanged, for the dispatcher to refuse.
    """
    if not isinstance(descriptor, Mapping) or not isinstance(descriptor.get("inputSchema"), Mapping):
        raise AdapterError("descriptor must be the original tool descriptor, with its 'inputSchema'")
    return _absent_nulls(arguments, descriptor["inputSchema"])
