"""Checking a reviewing model's reply and locating its findings in the document.

Nothing in the reply is trusted: the reply must be the object the composer's
response schema describes, and each finding is checked on its own, so one bad
item costs only itself. A finding is kept only when its quote is found at
exactly one place in the document.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._describe import a_json_type, show_key
from .._lazy_rules import rule_data as data
from ..tools import TextIndex, response_schema
from ._json_safe import json_safe
from ._locate import locate

__all__ = ["ReviewParse", "parse_review_response"]

_ITEM_FIELDS = ("ruleId", "quote", "explanation", "suggestion")
_NON_EMPTY = ("quote", "explanation")


@dataclass(frozen=True)
class ReviewParse:
    """A checked reply: located ``findings`` and ``rejected`` items, both in reply order.

    ``text`` is the reviewed document, kept so ``findings_to_operations`` can
    place each edit.
    """

    findings: tuple[dict[str, Any], ...]
    rejected: tuple[dict[str, Any], ...]
    text: str = field(default="", repr=False)


def parse_review_response(reply: object, *, text: str, rule_ids: Sequence[str], max_findings: int) -> ReviewParse:
    """Check ``reply`` (a JSON string, or the decoded object) and locate its findings in ``text``.

    ``rule_ids`` and ``max_findings`` are what the prompt was composed with.
    Raises ``ValueError`` when the reply is not JSON or not an object holding
    exactly a ``findings`` array; ``TypeError``/``ValueError`` for bad host
    arguments. Every other problem rejects one item, with a reason:
    ``malformed`` (not an object with exactly the four string fields, or an
    empty quote or explanation), ``rule-not-selected``, ``over-max-findings``
    (well-formed, selected items after the first ``max_findings``; they are
    not located), ``not-located`` and ``ambiguous`` (the quote is found at
    more than one place, overlapping ones included; none is guessed).
    """
    selected = _check_host_arguments(text, rule_ids, max_findings)
    items = _findings_array(_decode(reply))
    schema = response_schema(selected, max_findings)["properties"]["findings"]["items"]
    allowed = set(schema["properties"]["ruleId"]["enum"])
    index = TextIndex(text, "en")  # only positions are asked for, which no language changes
    findings: list[dict[str, Any]] = []
    rejected: list[dict[str, Any]] = []
    accepted = 0
    for position, item in enumerate(items):
        problem = _malformed(item)
        if problem is not None:
            rejected.append(_reject(item, "malformed", f"Item {position}: {problem}."))
            continue
        assert isinstance(item, Mapping)
        if item["ruleId"] not in allowed:
            rejected.append(
                _reject(
                    item,
                    "rule-not-selected",
                    f"Item {position}: ruleId {item['ruleId']!r} was not selected for this review; "
                    f"the selected rules are {', '.join(selected)}.",
                )
            )
            continue
        accepted += 1
        if accepted > max_findings:
            rejected.append(
                _reject(
                    item,
                    "over-max-findings",
                    f"Item {position}: the review asked for at most {max_findings} "
                    f"finding{'s' * (max_findings != 1)}; this one is beyond that.",
                )
            )
            continue
        spans = locate(text, item["quote"]).spans
        if not spans:
            rejected.append(
                _reject(
                    item,
                    "not-located",
                    f"Item {position}: the quote was not found in the document, not even with white space ignored.",
                )
            )
        elif len(spans) > 1:
            lines = " and ".join(str(index.line_column(start)[0]) for start, _ in spans)
            rejected.append(
                _reject(
                    item,
                    "ambiguous",
                    f"Item {position}: the quote occurs at more than one place (lines {lines}); "
                    "a longer quote would name one.",
                )
            )
        else:
            findings.append(_located(item, text, index, *spans[0]))
    return ReviewParse(tuple(findings), tuple(rejected), text)


def _check_host_arguments(text: object, rule_ids: object, max_findings: object) -> tuple[str, ...]:
    # A bad host argument is a bug in the host, so it raises instead of rejecting items.
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    if isinstance(rule_ids, (str, bytes)) or not isinstance(rule_ids, Sequence):
        raise TypeError("rule_ids must be a sequence of rule id strings, such as a list")
    selected = tuple(rule_ids)
    if not selected:
        raise ValueError("rule_ids must name at least one rule")
    for rule_id in selected:
        if not isinstance(rule_id, str):
            raise TypeError(f"rule_ids must hold strings, not {type(rule_id).__name__}")
        if rule_id not in data.RULES:
            raise ValueError(f"rule_ids: unknown rule {rule_id!r}; known rules: {', '.join(data.RULE_IDS)}")
    if len(set(selected)) != len(selected):
        raise ValueError("rule_ids must not repeat a rule")
    if not isinstance(max_findings, int) or isinstance(max_findings, bool):
        raise TypeError(f"max_findings must be an int, not {type(max_findings).__name__}")
    if not 1 <= max_findings <= 20:
        raise ValueError(f"max_findings must be from 1 to 20, not {max_findings}")
    return selected


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _decode(reply: object) -> object:
    if isinstance(reply, (bytes, bytearray)):
        try:
            reply = bytes(reply).decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(f"The reply is not JSON: not UTF-8 (byte {error.start})") from None
    if not isinstance(reply, str):
        return reply  # already decoded by the host; checked like any decoded value
    try:
        return json.loads(reply, parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError("The reply is not JSON that can be read: it is nested too deeply") from None
    except ValueError as error:
        hint = ""
        if reply.lstrip().startswith("```"):
            hint = " (it is wrapped in a Markdown code fence; ask for the JSON object alone)"
        raise ValueError(f"The reply is not JSON{hint}: {error}") from None


def _findings_array(value: object) -> list[object]:
    if not isinstance(value, Mapping):
        raise ValueError(f'The reply must be a JSON object with a "findings" array, not {a_json_type(value)}')
    keys = list(value.keys())
    if "findings" not in keys:
        raise ValueError('The reply object has no "findings" array')
    extra = [key for key in keys if key != "findings"]
    if extra:
        names = ", ".join(show_key(key) for key in extra)
        raise ValueError(f'The reply object may hold only "findings"; it also has {names}')
    findings = value["findings"]
    if not isinstance(findings, (list, tuple)):
        raise ValueError(f'The reply\'s "findings" must be an array, not {a_json_type(findings)}')
    return list(findings)


def _malformed(item: object) -> str | None:
    """What keeps ``item`` from being a finding as the schema describes it, or None."""
    if not isinstance(item, Mapping):
        return f"a finding must be an object, not {a_json_type(item)}"
    keys = list(item.keys())
    missing = [name for name in _ITEM_FIELDS if name not in keys]
    if missing:
        return f"missing {', '.join(missing)}"
    extra = [key for key in keys if key not in _ITEM_FIELDS]
    if extra:
        shown = ", ".join(show_key(key) for key in extra)
        return f"unexpected field {shown}; a finding has exactly {', '.join(_ITEM_FIELDS)}"
    for name in _ITEM_FIELDS:
        if not isinstance(item[name], str):
            return f"{name} must be a string, not {a_json_type(item[name])}"
    for name in _NON_EMPTY:
        if not item[name]:
            return f"{name} must not be empty"
    return None


def _reject(item: object, reason: str, message: str) -> dict[str, Any]:
    return {"item": json_safe(item), "reason": reason, "message": message}


def _located(item: Mapping[str, Any], text: str, index: TextIndex, start: int, end: int) -> dict[str, Any]:
    return {
        "ruleId": item["ruleId"],
        "quote": item["quote"],
        "explanation": item["explanation"],
        "suggestion": item["suggestion"],
        "match": text[start:end],
        **index.span_fields(start, end),
    }
