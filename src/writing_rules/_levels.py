"""Rule levels (error, warning, suggestion) and the ``min-level`` filter.

A rule has a level, and one of its signals may carry its own (``signal_levels``
in the rule data). Rule data written before levels had only ``severity``,
whose lowest value was ``info``; it reads as ``suggestion``.
"""

from __future__ import annotations

from ._catalog import Catalog, rule_source

__all__ = [
    "DEFAULT_MIN_LEVEL",
    "LEVELS",
    "highest_level",
    "level_at_least",
    "rule_level",
    "signal_level",
    "signal_levels",
]

LEVELS = ("error", "warning", "suggestion")  # most to least severe
# What the command line shows when neither the configuration nor --min-level says:
# suggestions are leads for a reviewing model, not findings for CI. The review tool
# reports every level.
DEFAULT_MIN_LEVEL = "warning"
_RANK = {level: rank for rank, level in enumerate(LEVELS)}
_OLD_NAMES = {"info": "suggestion"}


def _name(level: object) -> str:
    text = str(level)
    return _OLD_NAMES.get(text, text)


def rule_level(rule_id: str, *, catalog: Catalog | None = None) -> str:
    """The level of a rule: ``error``, ``warning`` or ``suggestion`` (``catalog``: None for the built-in one)."""
    rule = rule_source(catalog).RULES[rule_id]
    return _name(getattr(rule, "level", None) or getattr(rule, "severity", "warning"))


def signal_level(rule_id: str, signal_id: str | None = None, *, catalog: Catalog | None = None) -> str:
    """The level of one signal: its own when the rule data gives one, else its rule's."""
    levels = getattr(rule_source(catalog).RULES[rule_id], "signal_levels", None)
    if signal_id is not None and levels and signal_id in levels:
        return _name(levels[signal_id])
    return rule_level(rule_id, catalog=catalog)


def signal_levels(rule_id: str, *, catalog: Catalog | None = None) -> tuple[dict[str, str], str]:
    """``signal_level`` for every signal of the rule at once: the levels its signals give
    themselves, and the rule's level, which the others have (a pack's vocabulary is one rule
    with thousands of signals, each asked once per scan's table)."""
    levels = getattr(rule_source(catalog).RULES[rule_id], "signal_levels", None) or {}
    names = {level: _name(level) for level in dict.fromkeys(levels.values())}
    return {signal_id: names[level] for signal_id, level in levels.items()}, rule_level(rule_id, catalog=catalog)


def highest_level(rule_id: str, *, catalog: Catalog | None = None) -> str:
    """The most severe level any signal of the rule can have (kept per catalogue with packs:
    a pack's vocabulary is one rule with thousands of signals)."""
    if catalog is not None and catalog.packs:
        return catalog.kept(("highest level", rule_id), lambda: _highest_level(rule_id, catalog))
    return _highest_level(rule_id, catalog)


def _highest_level(rule_id: str, catalog: Catalog | None) -> str:
    levels = getattr(rule_source(catalog).RULES[rule_id], "signal_levels", None) or {}
    # Each distinct level once, in order (a pack's vocabulary rule has 2,000 signals of one or two levels).
    candidates = [rule_level(rule_id, catalog=catalog), *map(_name, dict.fromkeys(levels.values()))]
    return min(candidates, key=lambda level: _RANK.get(level, len(LEVELS)))


def level_at_least(level: str, minimum: str | None) -> bool:
    """Whether ``level`` is as severe as ``minimum`` or more (always, without a minimum)."""
    return minimum is None or _RANK.get(level, len(LEVELS)) <= _RANK[minimum]
