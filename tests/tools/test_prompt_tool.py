"""Tool 2, compose_writing_review_prompt: the review prompt and the schema of the reply."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from writing_rules import _rules_data as data
from writing_rules.tools import ReviewContext, create_writing_tool_dispatcher

TOOL = "compose_writing_review_prompt"
LANGUAGES = ("en", "de")
AUDIENCE = "Backend developers who have never used the SDK"
GOAL = "Install the SDK and send a first authenticated request"
PROFILES = sorted(data.PROFILES)


def compose(arguments: dict[str, Any], review: Any = None) -> dict[str, Any]:
    dispatcher = create_writing_tool_dispatcher(review_context=review or ReviewContext(audience=AUDIENCE, goal=GOAL))
    result = dispatcher.dispatch({"name": TOOL, "arguments": arguments})
    json.dumps(result, allow_nan=False)
    assert result["ok"] is True, result.get("error")
    return result["data"]


def refused(arguments: dict[str, Any], code: str) -> dict[str, Any]:
    dispatcher = create_writing_tool_dispatcher(review_context={"audience": AUDIENCE, "goal": GOAL})
    result = dispatcher.dispatch({"name": TOOL, "arguments": arguments})
    assert result["ok"] is False, result
    assert result["error"]["code"] == code, result["error"]
    return result["error"]


def test_without_a_review_context_the_prompt_tool_is_host_context_missing() -> None:
    dispatcher = create_writing_tool_dispatcher()
    result = dispatcher.dispatch({"name": TOOL, "arguments": {"profile": PROFILES[0]}})
    assert result["ok"] is False and result["tool"] == TOOL
    assert result["error"]["code"] == "host-context-missing"
    # The other tools still work without it.
    assert dispatcher.dispatch({"name": "get_writing_rules", "arguments": {}})["ok"] is True


def test_the_profile_is_required() -> None:
    error = refused({}, "invalid-arguments")
    assert error["field"] == "/profile"


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_data_fields_and_defaults(profile: str, language: str) -> None:
    result = compose({"profile": profile, "language": language})
    assert set(result) == {"profile", "language", "ruleIds", "maxFindings", "prompt", "responseSchema"}
    assert result["profile"] == profile
    assert result["language"] == language
    assert result["ruleIds"] == list(data.PROFILES[profile].rule_ids)
    assert result["maxFindings"] == 5


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_prompt_holds_context_rules_guard_and_limit(profile: str, language: str) -> None:
    result = compose({"profile": profile, "language": language, "maxFindings": 17})
    prompt = result["prompt"]
    assert AUDIENCE in prompt
    assert GOAL in prompt
    for rule_id in data.PROFILES[profile].rule_ids:
        text = data.RULES[rule_id].texts[language]
        assert rule_id in prompt
        assert text.instruction in prompt, rule_id
        assert text.applies_when in prompt, rule_id
        for example in text.examples:
            assert example.before in prompt and example.after in prompt, rule_id
    assert data.PROMPT_FRAGMENTS[language]["untrusted_document"] in prompt
    assert "17" in prompt
    assert data.PROFILES[profile].framing[language] in prompt


def test_the_untrusted_document_guard_says_so_in_each_language() -> None:
    english = compose({"profile": PROFILES[0], "language": "en"})["prompt"].lower()
    german = compose({"profile": PROFILES[0], "language": "de"})["prompt"].lower()
    assert "untrusted" in english and "instruction" in english
    assert "vertrauenswürdig" in german and "anweisung" in german


@pytest.mark.parametrize("profile", PROFILES)
def test_the_prompt_is_in_the_requested_language(profile: str) -> None:
    english = compose({"profile": profile, "language": "en"})["prompt"]
    german = compose({"profile": profile, "language": "de"})["prompt"]
    assert english != german
    for rule_id in data.PROFILES[profile].rule_ids:
        en_text, de_text = data.RULES[rule_id].texts["en"], data.RULES[rule_id].texts["de"]
        assert en_text.instruction not in german, rule_id
        assert de_text.instruction not in english, rule_id
    assert data.PROMPT_FRAGMENTS["en"]["untrusted_document"] not in german
    assert data.PROMPT_FRAGMENTS["de"]["untrusted_document"] not in english


@pytest.mark.parametrize("profile", PROFILES)
def test_rules_that_are_not_selected_stay_out_of_the_prompt(profile: str) -> None:
    members = data.PROFILES[profile].rule_ids
    chosen = members[-1]
    result = compose({"profile": profile, "ruleIds": [chosen]})
    assert result["ruleIds"] == [chosen]
    prompt = result["prompt"]
    chosen_texts = data.RULES[chosen].texts["en"]
    for rule_id in data.RULE_IDS:
        if rule_id == chosen:
            continue
        instruction = data.RULES[rule_id].texts["en"].instruction
        if instruction not in chosen_texts.instruction:
            assert instruction not in prompt, rule_id
    # No catalogue dump: summaries of other profiles' framing are absent.
    for other in PROFILES:
        framing = data.PROFILES[other].framing["en"]
        if other != profile and framing != data.PROFILES[profile].framing["en"]:
            assert framing not in prompt


@pytest.mark.parametrize("max_findings", [1, 2, 5, 19, 20])
def test_the_response_schema_asks_for_at_most_max_findings_of_the_selected_rules(max_findings: int) -> None:
    profile = PROFILES[0]
    result = compose({"profile": profile, "maxFindings": max_findings})
    assert result["maxFindings"] == max_findings
    assert str(max_findings) in result["prompt"]
    schema = result["responseSchema"]
    jsonschema.Draft202012Validator.check_schema(schema)
    findings = schema["properties"]["findings"]
    assert findings["maxItems"] == max_findings
    item = findings["items"]
    assert item["properties"]["ruleId"]["enum"] == result["ruleIds"]
    assert set(item["required"]) >= {"ruleId", "quote", "explanation", "suggestion"}

    validator = jsonschema.Draft202012Validator(schema)
    finding = {
        "ruleId": result["ruleIds"][0],
        "quote": "A powerful API.",
        "explanation": "Hype word.",
        "suggestion": "An API that retries failed calls.",
    }
    assert validator.is_valid({"findings": []})
    assert validator.is_valid({"findings": [finding] * max_findings})
    assert not validator.is_valid({"findings": [finding] * (max_findings + 1)})
    assert not validator.is_valid({"findings": [{**finding, "ruleId": "not-selected"}]})
    assert not validator.is_valid({"findings": [{key: finding[key] for key in ("ruleId", "quote")}]})
    assert not validator.is_valid({})


@pytest.mark.parametrize("profile", PROFILES)
def test_the_response_schema_enum_is_exactly_the_selected_ids(profile: str) -> None:
    members = list(data.PROFILES[profile].rule_ids)
    chosen = list(reversed(members[::2]))
    result = compose({"profile": profile, "ruleIds": chosen})
    expected = [rule_id for rule_id in data.RULE_IDS if rule_id in chosen]
    assert result["ruleIds"] == expected
    enum = result["responseSchema"]["properties"]["findings"]["items"]["properties"]["ruleId"]["enum"]
    assert enum == expected


def test_the_same_input_gives_the_same_bytes() -> None:
    arguments = {"profile": PROFILES[0], "language": "de", "maxFindings": 3}
    first = compose(arguments)
    second = compose(arguments)
    other = compose(dict(reversed(list(arguments.items()))), review={"audience": AUDIENCE, "goal": GOAL})
    assert first["prompt"].encode("utf-8") == second["prompt"].encode("utf-8")
    assert first["prompt"].encode("utf-8") == other["prompt"].encode("utf-8")
    assert json.dumps(first, sort_keys=True) == json.dumps(other, sort_keys=True)
    dispatcher = create_writing_tool_dispatcher(review_context={"audience": AUDIENCE, "goal": GOAL})
    call = {"name": TOOL, "arguments": arguments}
    assert dispatcher.dispatch(call) == dispatcher.dispatch(call)


def test_a_different_context_gives_a_different_prompt() -> None:
    arguments = {"profile": PROFILES[0]}
    assert compose(arguments)["prompt"] != compose(arguments, review={"audience": "Sales", "goal": GOAL})["prompt"]


@pytest.mark.parametrize(
    ("audience", "goal"),
    [
        ("Readers of {goal}", "Ship {audience} by {max_findings}"),
        ("{profile_name} {framing}", "Use {{goal}} and {0} and {}"),
        ("People who write %s and %(goal)s", "Finish $goal and ${audience}"),
    ],
)
def test_host_text_with_placeholders_is_not_expanded(audience: str, goal: str) -> None:
    prompt = compose({"profile": PROFILES[0], "maxFindings": 4}, review={"audience": audience, "goal": goal})["prompt"]
    assert audience in prompt
    assert goal in prompt


def test_a_max_findings_float_is_used_as_an_integer_in_the_prompt() -> None:
    as_float = compose({"profile": PROFILES[0], "maxFindings": 12.0})
    as_int = compose({"profile": PROFILES[0], "maxFindings": 12})
    assert as_float == as_int
    assert "12.0" not in as_float["prompt"]


@pytest.mark.parametrize("profile", PROFILES)
def test_a_rule_outside_the_profile_is_refused_with_the_profile_rules(profile: str) -> None:
    members = data.PROFILES[profile].rule_ids
    foreign = [rule_id for rule_id in data.RULE_IDS if rule_id not in members]
    assert foreign
    error = refused({"profile": profile, "ruleIds": [foreign[0]]}, "invalid-selection")
    assert error["field"] == "/ruleIds/0"
    for rule_id in members:
        assert rule_id in error["message"]


def test_empty_and_duplicate_rule_ids_are_refused() -> None:
    profile = PROFILES[0]
    member = data.PROFILES[profile].rule_ids[0]
    refused({"profile": profile, "ruleIds": []}, "invalid-selection")
    refused({"profile": profile, "ruleIds": [member, member]}, "invalid-selection")


@pytest.mark.parametrize("value", [0, 21, -5, 5.5, True, "5", None])
def test_max_findings_outside_one_to_twenty_is_refused(value: object) -> None:
    error = refused({"profile": PROFILES[0], "maxFindings": value}, "invalid-arguments")
    assert error["field"] == "/maxFindings"
