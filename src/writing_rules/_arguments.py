"""What the generated argument validators report, and the helpers they use.

The validators in ``_rules_data`` are generated from the tool schemas; each
returns the first problem in the contract's order (see ``docs/review-tools.md``,
"Error codes"), with a rank so the dispatcher can weigh it against the checks
that go beyond the schema.
"""

from __future__ import annotations

from ._describe import show
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
