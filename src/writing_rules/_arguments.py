"""What the generated argument validators report, and the helpers they use.

The validators in ``_rules_data`` are generated from the tool schemas; they
return every problem with a rank so the dispatcher can report the one the
contract puts first (see ``review-tools.md``, "Error codes").
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MISSING", "ArgumentProblem", "is_integer", "pointer", "show"]

MISSING = object()


@dataclass(frozen=True)
class ArgumentProblem:
    """One violated rule: ``rank`` orders problems, ``field`` is a JSON Pointer."""

    rank: int
    code: str
    field: str
    message: str


def is_integer(value: object) -> bool:
    """JSON Schema's integer: an int or a whole-number float, never a boolean."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and value.is_integer()


def pointer(key: object) -> str:
    """The JSON Pointer of a top-level argument."""
    text = key if isinstance(key, str) else str(key)
    return "/" + text.replace("~", "~0").replace("/", "~1")


def show(value: object) -> str:
    """A short description of a value for a message: the value itself when small."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        text = str(value) if abs(value) < 10**30 else "a very large integer"
        return text
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return "a non-finite number"
        return repr(value)
    if isinstance(value, str):
        if len(value) > 40:
            return f"a string of {len(value)} characters"
        # Lone surrogates would make the message unencodable; escape just those.
        return repr(value).encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, list):
        return f"an array of {len(value)} item(s)"
    if isinstance(value, dict):
        return "an object"
    return f"a non-JSON value ({type(value).__name__})"
