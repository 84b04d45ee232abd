"""Tool 1, ``get_writing_rules``: rule knowledge in one language or both."""

from __future__ import annotations

from typing import Any

from .._lazy_rules import rule_data as data

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._rules_runtime import Rule, RuleText

__all__ = ["rule_knowledge"]


def _entry(text: RuleText) -> dict[str, Any]:
    return {
        "title": text.title,
        "summary": text.summary,
        "instruction": text.instruction,
        "appliesWhen": text.applies_when,
        "examples": [{"before": example.before, "after": example.after} for example in text.examples],
    }


def _summary(rule: Rule, language: str) -> dict[str, Any]:
    text = rule.texts[language]
    return {
        "id": rule.id,
        "title": text.title,
        "summary": text.summary,
        "profiles": list(rule.profiles),
        "hasSignals": rule.has_signals,
    }


def rule_knowledge(rule_ids: tuple[str, ...], language: str, detail: str, profile: str | None) -> dict[str, Any]:
    """``data`` of ``get_writing_rules``: rules in catalogue order."""
    rules = []
    for rule_id in rule_ids:
        rule = data.RULES[rule_id]
        entry = _summary(rule, language)
        if detail == "full":
            entry["entries"] = {lang: _entry(rule.texts[lang]) for lang in data.LANGUAGES}
        rules.append(entry)
    return {"language": language, "detail": detail, "profile": profile, "rules": rules}
