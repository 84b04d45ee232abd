"""What the generated argument validators report, and the helpers they use.

The validators in ``_rules_data`` are generated from the tool schemas; each
returns the first problem in the contract's order (see ``review-tools.md``,
"Error codes"), with a rank so the dispatcher can weigh it against the checks
that go beyond the schema.
"""

from __future__ import annotations

from ._lazy_rules import rule_data
from ._tool_call import pointer_segment

__all__ = ["MISSING", "ArgumentProblem", "is_integer", "pointer", "ranked_problem", "show"]

MISSING = object()

# One violated rule: ``(rank, code, field, message)``. ``rank`` orders problems
# (the contract's error order), ``field`` is a JSON Pointer. A plain tuple, read
# by unpacking: a rejected call builds one on the hot path, and a tuple subclass
# (named fields) cost a third of a rejection's time.
ArgumentProblem = tuple[int, str, str, str]


def ranked_problem(kind: str, field: str, message: str) -> ArgumentProblem:
    """A problem found beyond the schema (``kind`` is ``"selection"`` or ``"length"``).

    Its rank and code come from the generated module's ``ERROR_RANKS``, the
    same table the generated validators were written from, so the contract's
    order lives in one place.
    """
    rank, code = rule_data.ERROR_RANKS[kind]
    return (rank, code, field, message)


def is_integer(value: object) -> bool:
    """JSON Schema's integer: an int or a whole-number float, never a boolean."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and value.is_integer()


# The JSON Pointer of a top-level argument (any key, shown as text).
pointer = pointer_segment


def show(value: object) -> str:
    """A short description of a value for a message: the value itself when small."""
    kind = type(value)
    if kind is str:
        # repr escapes what cannot be printed, lone surrogates included.
        return repr(value) if len(value) <= 40 else f"a string of {len(value)} characters"  # type: ignore[arg-type]
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
        return repr(str(value)) if len(value) <= 40 else f"a string of {len(value)} characters"
    if isinstance(value, list):
        return f"an array of {len(value)} item(s)"
    if isinstance(value, dict):
        return "an object"
    return f"a non-JSON value ({type(value).__name__})"
