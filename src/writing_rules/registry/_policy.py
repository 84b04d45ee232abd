"""The host's policy for an ``IntentRegistry``: which ids and names are allowed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ._errors import RegistryError
from ._fields import name_list

__all__ = ["IntentPolicy"]

_LISTS = ("delegates", "scope_modes", "target_modes", "context_tiers", "actions", "handoff_values")


@dataclass(frozen=True)
class IntentPolicy:
    """Constraints every definition must meet; ``None`` means "not restricted"."""

    id_pattern: re.Pattern[str] | None = None
    delegates: tuple[str, ...] | None = None
    scope_modes: tuple[str, ...] | None = None
    target_modes: tuple[str, ...] | None = None
    context_tiers: tuple[str, ...] | None = None
    actions: tuple[str, ...] | None = None
    handoff_values: tuple[str, ...] | None = None

    @classmethod
    def build(
        cls,
        *,
        id_pattern: str | re.Pattern[str] | None = None,
        delegates: Sequence[str] | None = None,
        scope_modes: Sequence[str] | None = None,
        target_modes: Sequence[str] | None = None,
        context_tiers: Sequence[str] | None = None,
        actions: Sequence[str] | None = None,
        handoff_values: Sequence[str] | None = None,
    ) -> IntentPolicy:
        """Check the host's policy keywords; raise ``RegistryError`` when one is malformed."""
        given = {
            "delegates": delegates,
            "scope_modes": scope_modes,
            "target_modes": target_modes,
            "context_tiers": context_tiers,
            "actions": actions,
            "handoff_values": handoff_values,
        }
        lists: dict[str, tuple[str, ...] | None] = {}
        for keyword in _LISTS:
            value = given[keyword]

            def fail(reason: str, keyword: str = keyword) -> RegistryError:
                return RegistryError(
                    "invalid-definition",
                    f"IntentRegistry policy {keyword!r} {reason}. Pass a list of names, or omit it to allow any name.",
                    field=keyword,
                )

            lists[keyword] = None if value is None else name_list(value, fail)
        return cls(id_pattern=_compile(id_pattern), **lists)


def _compile(id_pattern: object) -> re.Pattern[str] | None:
    if id_pattern is None:
        return None
    if isinstance(id_pattern, re.Pattern):
        if isinstance(id_pattern.pattern, str):
            return id_pattern
        problem = "is a bytes pattern; tool ids are strings"
    elif isinstance(id_pattern, str):
        try:
            return re.compile(id_pattern)
        except re.error as exc:
            problem = f"{id_pattern!r} is not a valid regular expression ({exc})"
    else:
        problem = f"must be a regular expression (str or re.Pattern); got {type(id_pattern).__name__}"
    raise RegistryError(
        "invalid-definition",
        f"IntentRegistry policy 'id_pattern' {problem}. It is matched against the whole id.",
        field="id_pattern",
    )
