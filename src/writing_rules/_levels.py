"""Rule levels (error, warning, suggestion) and the ``min-level`` filter."""

from __future__ import annotations

from ._lazy_rules import rule_data as data

__all__ = ["LEVELS", "level_at_least", "rule_level"]

LEVELS = ("error", "warning", "suggestion")  # most to least severe
_RANK = {level: rank for rank, level in enumerate(LEVELS)}
# Rule data written before rule levels named the lowest one "info".
_OLD_NAMES = {"info": "suggestion"}


def rule_level(rule_id: str) -> str:
    """The level of a rule: ``error``, ``warning`` or ``suggestion``."""
    rule = data.RULES[rule_id]
    level = str(getattr(rule, "level", None) or getattr(rule, "severity", "warning"))
    return _OLD_NAMES.get(level, level)


def level_at_least(level: str, minimum: str | None) -> bool:
    """Whether ``level`` is as severe as ``minimum`` or more (always, without a minimum)."""
    return minimum is None or _RANK.get(level, len(LEVELS)) <= _RANK[minimum]
