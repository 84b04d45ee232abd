"""What reading directives finds: a ``Directive``, or a ``DirectiveProblem`` for a comment that is not a valid one.

Loaded by ``read_directives`` only when a text holds a directive-like comment.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Directive", "DirectiveProblem"]


class Directive(NamedTuple):
    """One directive: its kind, the rule ids it names (empty: all rules) and where it is."""

    kind: str
    rule_ids: tuple[str, ...]
    start: int
    end: int
    line: int
    end_line: int
    column: int
    # The line a ``disable-next-line`` covers: the next one with text. reStructuredText needs a
    # blank line after a comment, and a blank line after an HTML comment is common style.
    next_line: int = 0


class DirectiveProblem(NamedTuple):
    """A comment that looks like a directive but is not a valid one."""

    line: int
    column: int
    message: str
