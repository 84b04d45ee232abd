"""Resolving ``profile`` and ``ruleIds`` into the rules a tool works on.

The requested scope is never widened, narrowed or replaced: a rule outside
the profile, or without signals for the scanner, is an ``invalid-selection``
problem, not a fallback.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._catalog import Catalog, rule_source
from .._describe import show
from .._lazy_rules import rule_data as data
from .._rules_runtime import ArgumentProblem

__all__ = ["explain_signal_selection", "ranked_problem", "rule_id_problem", "select_rules"]


def ranked_problem(kind: str, field: str, message: str) -> ArgumentProblem:
    """A problem found beyond the schema (``kind`` is ``"selection"`` or ``"length"``).

    Its rank and code come from the generated module's ``ERROR_RANKS``, the
    same table the generated validators were written from, so the contract's
    order lives in one place.
    """
    rank, code = data.ERROR_RANKS[kind]
    return (rank, code, field, message)


def select_rules(
    arguments: Mapping[str, Any],
    *,
    signals_only: bool,
    problems: list[ArgumentProblem],
    catalog: Catalog | None = None,
) -> tuple[str, ...]:
    """Rule ids in catalogue order; appends a problem for every id outside the scope."""
    data = rule_source(catalog)
    profile_id = arguments.get("profile")
    profile = data.PROFILES.get(profile_id) if isinstance(profile_id, str) else None
    requested = arguments.get("ruleIds")
    if isinstance(requested, list):
        rules = data.RULES
        for index, rule_id in enumerate(requested):
            if not isinstance(rule_id, str) or rule_id not in rules:
                continue  # the schema validator has reported it
            if profile is not None and rule_id not in profile.rule_ids:
                problems.append(
                    ranked_problem(
                        "selection",
                        f"/ruleIds/{index}",
                        f"Rule {rule_id!r} is not part of profile {profile.id!r}; its rules are: "
                        f"{', '.join(_allowed(profile.rule_ids, signals_only, data))}.",
                    )
                )
        chosen = {rule_id for rule_id in requested if isinstance(rule_id, str)}
        return tuple(rule_id for rule_id in data.RULE_IDS if rule_id in chosen)
    pool = profile.rule_ids if profile is not None else data.RULE_IDS
    selected = tuple(_allowed(pool, signals_only, data))
    if not selected and profile is not None:
        problems.append(
            ranked_problem(
                "selection",
                "/profile",
                f"Profile {profile.id!r} has no rules with static signals; choose another profile.",
            )
        )
    return selected


def _allowed(rule_ids: tuple[str, ...], signals_only: bool, data: Catalog) -> list[str]:
    if not signals_only:
        return list(rule_ids)
    rules = data.RULES
    return [rule_id for rule_id in rule_ids if rules[rule_id].has_signals]


def explain_signal_selection(
    problems: list[ArgumentProblem], requested: object, *, catalog: Catalog | None = None
) -> list[ArgumentProblem]:
    """Say why a known rule was refused by the scanner: it has no static signals."""
    data = rule_source(catalog)
    if not isinstance(requested, list) or not any(problem[1] == "invalid-selection" for problem in problems):
        return problems
    explained = []
    for problem in problems:
        rank, code, field, _ = problem
        index = _index(field) if code == "invalid-selection" else None
        if index is not None and index < len(requested):
            rule_id = requested[index]
            if isinstance(rule_id, str) and rule_id in data.RULES and not data.RULES[rule_id].has_signals:
                with_signals = ", ".join(r for r in data.RULE_IDS if data.RULES[r].has_signals)
                problem = (
                    rank,
                    code,
                    field,
                    f"Rule {rule_id!r} has no static signals, so the scanner cannot look for it; "
                    f"rules with signals: {with_signals}. Use compose_writing_review_prompt to review it.",
                )
        explained.append(problem)
    return explained


def _index(field: str) -> int | None:
    prefix = "/ruleIds/"
    if field.startswith(prefix) and field[len(prefix) :].isdigit():
        return int(field[len(prefix) :])
    return None


def rule_id_problem(requested: list[str], *, signals_only: bool, catalog: Catalog) -> ArgumentProblem | None:
    """The generated validators' check of a list of rule-id strings, against ``catalog``'s rules.

    The validators know the built-in ids only (they are generated with the catalogue);
    a dispatcher with packs checks ``ruleIds`` with this instead, in the same words
    and at the same rank: an empty list, the first unknown id (the scanner's allowed
    ids are the rules with signals) or the first repeated one, whichever comes first.
    """
    rank, code = data.ERROR_RANKS["selection"]
    if not requested:
        return (
            rank,
            code,
            "/ruleIds",
            "Argument ruleIds is empty; name at least one rule id, or omit ruleIds to use the default selection.",
        )
    rules = catalog.RULES
    seen: set[str] = set()
    for index, item in enumerate(requested):
        shown = repr(item) if len(item) <= 40 else show(item)
        rule = rules.get(item)
        if rule is None or (signals_only and not rule.has_signals):
            allowed = ", ".join(_allowed(catalog.RULE_IDS, signals_only, catalog))
            return (rank, code, f"/ruleIds/{index}", f"Unknown rule id {shown} in ruleIds; allowed: {allowed}.")
        if item in seen:
            return (rank, code, f"/ruleIds/{index}", f"Rule id {shown} appears twice in ruleIds; name each rule once.")
        seen.add(item)
    return None
