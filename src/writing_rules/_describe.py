"""Describing a value inside an error message, the same way everywhere.

Messages are read by a model or a developer who sent the value: they name its
JSON type and, when it is short, show it. Quoted texts are cut, so a message
never repeats a whole document back.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["a_json_type", "json_kind", "json_type_name", "quote", "show", "show_key"]

_SHOWN_CHARS = 40  # the longest string ``show`` repeats in full


def json_type_name(value: object) -> str:
    """Name a Python value by its JSON type: ``"string"``, ``"array"``, ``"null"``, ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return "non-finite number"
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return f"non-JSON value ({type(value).__name__})"


def json_kind(value: object) -> str:
    """``json_type_name``, with a tuple named ``"array"`` (frozen JSON arrays are tuples)."""
    return "array" if isinstance(value, tuple) else json_type_name(value)


def a_json_type(value: object) -> str:
    """The JSON type with its article, for a sentence: ``"an array"``, ``"a string"``, ``"null"``."""
    name = json_kind(value)
    return name if name == "null" else ("an " if name[0] in "aeiou" else "a ") + name


def quote(text: str, limit: int = 60) -> str:
    """``text`` quoted (``repr``), cut after ``limit`` characters with a trailing ``…``."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "…"


def show_key(key: object) -> str:
    """An object key as a message names it: quoted when a string, else its type."""
    return quote(key, 80) if isinstance(key, str) else json_type_name(key)


def show(value: object) -> str:
    """A short description of a value for a message: the value itself when small.

    The one way a message shows a value: the generated validators of the review and
    document tools and the registry's checks all call it.
    """
    kind = type(value)
    if kind is str:
        # repr escapes what cannot be printed, lone surrogates included.
        text: str = value  # type: ignore[assignment]
        return repr(text) if len(text) <= _SHOWN_CHARS else f"a string of {len(text)} characters"
    if kind is int:
        return str(value) if -(10**30) < value < 10**30 else "a very large integer"  # type: ignore[operator]
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if abs(value) < 10**30 else "a very large integer"
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return "a non-finite number"
        return repr(value)
    if isinstance(value, str):
        return repr(str(value)) if len(value) <= _SHOWN_CHARS else f"a string of {len(value)} characters"
    if isinstance(value, (list, tuple)):  # a frozen array (the registry keeps its values so) is a tuple
        return f"an array of {len(value)} item(s)"
    if isinstance(value, Mapping):
        return "an object"
    return f"a non-JSON value ({type(value).__name__})"
