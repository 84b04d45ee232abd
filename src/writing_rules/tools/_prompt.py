"""Tool 2, ``compose_writing_review_prompt``: the review prompt and its response schema.

The prompt is assembled from the compiled fragments and rule texts only, so
the same arguments and host context always give the same bytes.
"""

from __future__ import annotations

import re
from typing import Any

from .._catalog import Catalog, rule_source
from ._context import ReviewContext
from ._knowledge import rule_text

__all__ = ["compose_prompt", "response_schema"]


_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def _fill(fragment: str, **values: str) -> str:
    # One pass over the fragment: host text that contains "{goal}" is never expanded.
    return _PLACEHOLDER.sub(lambda match: values.get(match.group(1), match.group(0)), fragment)


def compose_prompt(
    profile_id: str,
    language: str,
    rule_ids: tuple[str, ...],
    max_findings: int,
    context: ReviewContext,
    *,
    catalog: Catalog | None = None,
) -> str:
    """The review prompt in ``language`` for the selected rules (``catalog``: None for the built-in one).

    A pack's rule without texts in ``language`` is given in the first language it has.
    """
    data = rule_source(catalog)
    fragments = data.PROMPT_FRAGMENTS[language]
    profile = data.PROFILES[profile_id]
    blocks = [
        _fill(fragments["intro"], profile_name=profile.names[language], framing=profile.framing[language]),
        "\n".join(
            (
                _fill(fragments["audience"], audience=" ".join(context.audience.split())),
                _fill(fragments["goal"], goal=" ".join(context.goal.split())),
            )
        ),
        fragments["rules_heading"],
    ]
    for number, rule_id in enumerate(rule_ids, start=1):
        text = rule_text(data.RULES[rule_id], language)
        lines = [
            f"{number}. {text.title} (ruleId: {rule_id})",
            text.instruction,
            f"{fragments['applies_when']}: {text.applies_when}",
        ]
        for example in text.examples:
            lines.append(f"- {fragments['before']}: {example.before}\n  {fragments['after']}: {example.after}")
        blocks.append("\n".join(lines))
    blocks.append(fragments["untrusted_document"])
    blocks.append(_fill(fragments["response_format"], max_findings=str(max_findings)))
    return "\n\n".join(blocks) + "\n"


def response_schema(rule_ids: tuple[str, ...], max_findings: int) -> dict[str, Any]:
    """JSON Schema of the reply the host should ask the reviewing model for."""
    return {
        "type": "object",
        "properties": {
            "findings": {
                "type": "array",
                "maxItems": max_findings,
                "items": {
                    "type": "object",
                    "properties": {
                        "ruleId": {"type": "string", "enum": list(rule_ids)},
                        "quote": {"type": "string", "minLength": 1},
                        "explanation": {"type": "string", "minLength": 1},
                        "suggestion": {"type": "string"},
                    },
                    "required": ["ruleId", "quote", "explanation", "suggestion"],
                    "additionalProperties": False,
                },
            }
        },
        "required": ["findings"],
        "additionalProperties": False,
    }
