"""A JSON-safe copy of whatever a reply item holds, for the ``rejected`` list.

A host may hand over an already decoded reply built from any Python values,
so rejected items are copied into plain JSON types: ``json.dumps(...,
allow_nan=False)`` always succeeds on the copy, and the copy shares nothing
with the caller's objects.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["json_safe"]

_MAX_DEPTH = 50  # deeper than any real finding; stops cycles and recursion limits


def json_safe(value: object, depth: int = 0) -> Any:
    """A copy of ``value`` in JSON types; anything else becomes a ``"<not JSON: type>"`` marker."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)  # an int subclass (IntEnum) becomes a plain int
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else _marker(value)
    if depth >= _MAX_DEPTH:
        return "<not JSON: nested too deeply>"
    if isinstance(value, Mapping):
        copy: dict[str, Any] = {}
        for key, item in list(value.items()):
            if isinstance(key, str):
                copy[key] = json_safe(item, depth + 1)
        return copy
    if isinstance(value, (list, tuple)):
        return [json_safe(item, depth + 1) for item in value]
    return _marker(value)


def _marker(value: object) -> str:
    # Only the type's name: the value's own repr could be large or run host code.
    return f"<not JSON: {type(value).__name__}>"
