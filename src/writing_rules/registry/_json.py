"""JSON values: checking, deep-freezing, plain copies and JSON equality.

The registry keeps frozen copies (read-only mappings and tuples) of what a host
gives it and hands out fresh plain ``dict``/``list`` copies, so neither side can
change the other's data. Arguments from a model are copied the same way, which
also proves that they are JSON values before any schema keyword looks at them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from writing_rules._describe import json_kind, show
from writing_rules._tool_call import json_pointer

from .._errors import WritingRulesError

__all__ = [
    "MAX_DEPTH",
    "NotJSONError",
    "freeze",
    "json_key",
    "kind",
    "plain_copy",
    "thaw",
]

# Deeper values are refused rather than risking a RecursionError on hostile input.
MAX_DEPTH = 100


class NotJSONError(WritingRulesError):
    """A value is not JSON data; ``pointer`` locates it."""

    def __init__(self, pointer: str, reason: str) -> None:
        super().__init__(f"{pointer or '(top level)'}: {reason}")
        self.pointer = pointer
        self.reason = reason


# A registered value's arrays are frozen into tuples: they are named "array".
kind = json_kind


def _convert(
    value: object,
    pointer: tuple[str | int, ...],
    make_object: Callable[[dict[str, Any]], Any],
    make_array: Callable[[list[Any]], Any],
) -> Any:
    if len(pointer) > MAX_DEPTH:
        raise NotJSONError(json_pointer(*pointer), f"nested more than {MAX_DEPTH} levels deep")
    if value is None or value is True or value is False:
        return value
    if isinstance(value, bool):  # a bool subclass cannot exist, but stay exact
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotJSONError(json_pointer(*pointer), "NaN and infinities are not JSON numbers")
        return float(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, (list, tuple)):
        return make_array(
            [_convert(item, (*pointer, index), make_object, make_array) for index, item in enumerate(value)]
        )
    if isinstance(value, Mapping):
        result: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotJSONError(json_pointer(*pointer), f"object keys must be strings; found {show(key)}")
            result[str.__str__(key)] = _convert(item, (*pointer, key), make_object, make_array)
        return make_object(result)
    raise NotJSONError(json_pointer(*pointer), f"{kind(value)} is not a JSON value")


def freeze(value: object) -> Any:
    """Deep read-only copy: objects become ``MappingProxyType``, arrays tuples."""
    return _convert(value, (), MappingProxyType, tuple)


def plain_copy(value: object) -> Any:
    """Deep plain copy (``dict``/``list``) of a JSON value, checking it is JSON."""
    return _convert(value, (), lambda obj: obj, lambda arr: arr)


def thaw(value: Any) -> Any:
    """Fresh plain ``dict``/``list`` copy of a frozen (already checked) value."""
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return [thaw(item) for item in value]
    return value


def json_key(value: Any) -> Any:
    """A hashable key such that two JSON values are equal iff their keys are.

    JSON equality: ``1`` equals ``1.0`` but not ``true``; arrays compare item by
    item, objects key by key. Python's ``1 == 1.0`` (with equal hashes) gives the
    numeric rule; booleans are tagged apart so they never equal numbers.
    """
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, str):
        return ("string", value)
    if value is None:
        return ("null",)
    if isinstance(value, (list, tuple)):
        return ("array", tuple(json_key(item) for item in value))
    return ("object", frozenset((key, json_key(item)) for key, item in value.items()))
