"""Tool 1, ``get_writing_rules``: rule knowledge in one language or both."""

from __future__ import annotations

from typing import Any

from .._catalog import Catalog, rule_source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._rules_runtime import Rule, RuleText

__all__ = ["rule_knowledge", "rule_text"]


def _entry(text: RuleText) -> dict[str, Any]:
    return {
        "title": text.title,
        "summary": text.summary,
        "instruction": text.instruction,
        "appliesWhen": text.applies_when,
        "examples": [{"before": example.before, "after": example.after} for example in text.examples],
    }


def rule_text(rule: Rule, language: str) -> RuleText:
    """The rule's texts in ``language``; a pack's rule that has none there, in its first language."""
    text = rule.texts.get(language)
    return text if text is not None else next(iter(rule.texts.values()))


def _summary(rule: Rule, language: str) -> dict[str, Any]:
    text = rule_text(rule, language)
    return {
        "id": rule.id,
        "title": text.title,
        "summary": text.summary,
        "profiles": list(rule.profiles),
        "hasSignals": rule.has_signals,
    }


def rule_knowledge(
    rule_ids: tuple[str, ...], language: str, detail: str, profile: str | None, *, catalog: Catalog | None = None
) -> dict[str, Any]:
    """``data`` of ``get_writing_rules``: rules in catalogue order (``catalog``: None for the built-in one).

    A pack's rule has texts in the pack's languages only: its summary comes in the
    first of them when it has none in ``language``, and ``entries`` holds those it has.
    """
    data = rule_source(catalog)
    rules = []
    for rule_id in rule_ids:
        rule = data.RULES[rule_id]
        entry = _summary(rule, language)
        if detail == "full":
            entry["entries"] = {lang: _entry(rule.texts[lang]) for lang in data.LANGUAGES if lang in rule.texts}
        rules.append(entry)
    return {"language": language, "detail": detail, "profile": profile, "rules": rules}
