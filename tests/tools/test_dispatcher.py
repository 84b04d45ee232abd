"""The review-tool dispatcher: call shape, envelopes, error codes and their order, host options."""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest

from writing_rules import _rules_data as data
from writing_rules.tools import (
    ModelComparisonContext,
    ReviewContext,
    WritingToolDispatcher,
    create_writing_tool_dispatcher,
    writing_review_tools,
)

TOOLS = (
    "get_writing_rules",
    "compose_writing_review_prompt",
    "find_writing_signals",
    "get_model_comparison_evidence",
)
REVIEW = ReviewContext(audience="Developers new to the SDK", goal="Install it and make a first call")
COMPARISON = ModelComparisonContext(available_model_ids=["model-a"], cohort_ids=["cohort-1"])
PROFILE = "public-docs"
SIGNAL_RULE = next(rule_id for rule_id in data.RULE_IDS if data.RULES[rule_id].has_signals)

# Arguments each tool accepts without complaint on a fully configured dispatcher.
VALID_ARGUMENTS: dict[str, dict[str, Any]] = {
    "get_writing_rules": {},
    "compose_writing_review_prompt": {"profile": PROFILE},
    "find_writing_signals": {"text": "A short text."},
    "get_model_comparison_evidence": {
        "language": "en",
        "profile": PROFILE,
        "role": "reviewer",
        "cohortId": "cohort-1",
    },
}


def full_dispatcher() -> WritingToolDispatcher:
    return create_writing_tool_dispatcher(review_context=REVIEW, model_comparison_context=COMPARISON)


def dispatch(dispatcher: WritingToolDispatcher, call: object) -> dict[str, Any]:
    result = dispatcher.dispatch(call)
    assert isinstance(result, dict)
    json.dumps(result, allow_nan=False)
    return result


def error_of(result: dict[str, Any], code: str) -> dict[str, Any]:
    assert result["ok"] is False, result
    assert result["error"]["code"] == code, result["error"]
    return result["error"]


def data_of(result: dict[str, Any]) -> dict[str, Any]:
    assert result["ok"] is True, result.get("error")
    return result["data"]


# --- descriptors -------------------------------------------------------------------------------


def test_descriptors_come_in_the_published_order_with_name_description_and_schema() -> None:
    descriptors = writing_review_tools()
    assert [descriptor["name"] for descriptor in descriptors] == list(TOOLS)
    for descriptor in descriptors:
        assert set(descriptor) == {"name", "description", "inputSchema"}
        assert isinstance(descriptor["description"], str) and descriptor["description"].strip()
        schema = descriptor["inputSchema"]
        assert schema["type"] == "object"
        assert schema["additionalProperties"] is False
        jsonschema.Draft202012Validator.check_schema(schema)
    json.dumps(descriptors, allow_nan=False)


def test_descriptor_schemas_carry_the_contract_ranges_and_defaults() -> None:
    schemas = {descriptor["name"]: descriptor["inputSchema"] for descriptor in writing_review_tools()}
    findings = schemas["compose_writing_review_prompt"]["properties"]["maxFindings"]
    assert (findings["type"], findings["minimum"], findings["maximum"], findings["default"]) == (
        "integer",
        1,
        20,
        5,
    )
    signals = schemas["find_writing_signals"]["properties"]["maxSignals"]
    assert (signals["type"], signals["minimum"], signals["maximum"], signals["default"]) == (
        "integer",
        1,
        500,
        50,
    )
    assert schemas["compose_writing_review_prompt"]["required"] == ["profile"]
    assert schemas["find_writing_signals"]["required"] == ["text"]
    assert sorted(schemas["get_model_comparison_evidence"]["required"]) == sorted(
        ["language", "profile", "role", "cohortId"]
    )
    for name in TOOLS[:3]:
        properties = schemas[name]["properties"]
        assert properties["language"]["enum"] == ["en", "de"]
        assert properties["language"]["default"] == "en"
        assert properties["profile"]["enum"] == list(data.PROFILE_IDS)
        rule_ids = properties["ruleIds"]
        assert rule_ids["minItems"] == 1 and rule_ids["uniqueItems"] is True
    scanner_ids = schemas["find_writing_signals"]["properties"]["ruleIds"]["items"]["enum"]
    assert scanner_ids == [rule_id for rule_id in data.RULE_IDS if data.RULES[rule_id].has_signals]
    assert schemas["get_writing_rules"]["properties"]["ruleIds"]["items"]["enum"] == list(data.RULE_IDS)
    text = schemas["find_writing_signals"]["properties"]["text"]
    assert "UTF-16" in text["description"]


def test_every_profile_of_the_catalogue_is_offered() -> None:
    assert set(data.PROFILE_IDS) == {"public-docs", "technical-reference", "product-copy", "agent-report"}


def test_mutating_returned_descriptors_affects_neither_the_next_call_nor_a_dispatcher() -> None:
    pristine = copy.deepcopy(writing_review_tools())
    mangled = writing_review_tools()
    for descriptor in mangled:
        descriptor["name"] = "hijacked"
        descriptor["inputSchema"]["properties"].clear()
        descriptor["inputSchema"]["additionalProperties"] = True
    assert writing_review_tools() == pristine
    dispatcher = full_dispatcher()
    assert dispatcher.tools() == pristine
    for name, arguments in VALID_ARGUMENTS.items():
        assert dispatch(dispatcher, {"name": name, "arguments": arguments})["ok"] is True
    assert error_of(dispatch(dispatcher, {"name": "get_writing_rules", "arguments": {"x": 1}}), "invalid-arguments")


# --- call shape ------------------------------------------------------------------------------


@pytest.mark.parametrize("call", [None, 1, "get_writing_rules", [], ["get_writing_rules", {}], 2.5, True])
def test_a_call_that_is_not_a_mapping_is_invalid(call: object) -> None:
    result = dispatch(full_dispatcher(), call)
    error_of(result, "invalid-call")
    assert result["tool"] is None
    assert "id" not in result


@pytest.mark.parametrize(
    "call",
    [
        {},
        {"arguments": {}},
        {"name": None, "arguments": {}},
        {"name": 3, "arguments": {}},
        {"name": ["get_writing_rules"], "arguments": {}},
        {"name": "get_writing_rules", "arguments": []},
        {"name": "get_writing_rules", "arguments": 0},
        {"name": "get_writing_rules", "arguments": ["language", "en"]},
        {"name": "get_writing_rules", "arguments": {}, "extra": 1},
        {"name": "get_writing_rules", "arguments": {}, "audience": "everyone"},
        {"name": "get_writing_rules", "arguments": {}, "id": None},
        {"name": "get_writing_rules", "arguments": {}, "id": True},
        {"name": "get_writing_rules", "arguments": {}, "id": 1.5},
        {"name": "get_writing_rules", "arguments": {}, "id": ["a"]},
    ],
)
def test_malformed_calls_are_invalid_call(call: object) -> None:
    error_of(dispatch(full_dispatcher(), call), "invalid-call")


@pytest.mark.parametrize("encoded", ['{"language": "en"}', "{}", b"{}"])
def test_arguments_still_encoded_as_json_text_are_refused_and_the_message_says_so(encoded: object) -> None:
    error = error_of(dispatch(full_dispatcher(), {"name": "get_writing_rules", "arguments": encoded}), "invalid-call")
    message = error["message"].lower()
    assert "string" in message and "decode" in message


@pytest.mark.parametrize("call", [{"name": "get_writing_rules"}, {"name": "get_writing_rules", "arguments": None}])
def test_missing_or_null_arguments_mean_an_empty_object(call: dict[str, Any]) -> None:
    dispatcher = full_dispatcher()
    assert data_of(dispatch(dispatcher, call)) == data_of(
        dispatch(dispatcher, {"name": "get_writing_rules", "arguments": {}})
    )


@pytest.mark.parametrize("name", ["get_writing_rule", "GET_WRITING_RULES", "", "apply_edits", " get_writing_rules"])
def test_an_unknown_tool_name_is_unknown_tool_and_lists_the_tools(name: str) -> None:
    error = error_of(dispatch(full_dispatcher(), {"name": name, "arguments": {}}), "unknown-tool")
    for tool in TOOLS:
        assert tool in error["message"]


@pytest.mark.parametrize("tool", TOOLS)
def test_success_envelope_has_exactly_ok_tool_data(tool: str) -> None:
    result = dispatch(full_dispatcher(), {"name": tool, "arguments": VALID_ARGUMENTS[tool]})
    assert set(result) == {"ok", "tool", "data"}
    assert result["ok"] is True and result["tool"] == tool
    assert isinstance(result["data"], dict)


@pytest.mark.parametrize("tool", TOOLS)
def test_failure_envelope_has_exactly_ok_tool_error(tool: str) -> None:
    result = dispatch(full_dispatcher(), {"name": tool, "arguments": {**VALID_ARGUMENTS[tool], "bogus": 1}})
    assert set(result) == {"ok", "tool", "error"}
    assert result["ok"] is False and result["tool"] == tool
    assert {"code", "message"} <= set(result["error"]) <= {"code", "message", "field"}
    assert result["error"]["field"] == "/bogus"
    assert isinstance(result["error"]["message"], str) and "bogus" in result["error"]["message"]


def test_each_dispatch_returns_a_new_dict() -> None:
    dispatcher = full_dispatcher()
    call = {"name": "get_writing_rules", "arguments": {}}
    first = dispatch(dispatcher, call)
    pristine = copy.deepcopy(first)
    first["data"]["rules"].clear()
    first["data"]["language"] = "xx"
    assert dispatch(dispatcher, call) == pristine


# --- id echo ---------------------------------------------------------------------------------


@pytest.mark.parametrize("call_id", ["call-1", "", 0, 7, -3, 2**70])
@pytest.mark.parametrize("tool", TOOLS)
def test_the_call_id_is_echoed_on_success(tool: str, call_id: str | int) -> None:
    result = dispatch(full_dispatcher(), {"name": tool, "arguments": VALID_ARGUMENTS[tool], "id": call_id})
    assert result["ok"] is True
    assert result["id"] == call_id and type(result["id"]) is type(call_id)


@pytest.mark.parametrize(
    ("call", "code"),
    [
        ({"name": "get_writing_rules", "arguments": "{}", "id": "c1"}, "invalid-call"),
        ({"name": 5, "arguments": {}, "id": "c1"}, "invalid-call"),
        ({"name": "nope", "arguments": {}, "id": "c1"}, "unknown-tool"),
        ({"name": "get_writing_rules", "arguments": {"language": "fr"}, "id": "c1"}, "unsupported-language"),
        ({"name": "find_writing_signals", "arguments": {}, "id": "c1"}, "invalid-arguments"),
    ],
)
def test_the_call_id_is_echoed_on_failure(call: dict[str, Any], code: str) -> None:
    result = dispatch(full_dispatcher(), call)
    error_of(result, code)
    assert result["id"] == "c1"


def test_no_id_key_when_the_call_has_no_id() -> None:
    dispatcher = full_dispatcher()
    assert "id" not in dispatch(dispatcher, {"name": "get_writing_rules", "arguments": {}})
    assert "id" not in dispatch(dispatcher, {"name": "get_writing_rules", "arguments": {"x": 1}})


# --- arguments -------------------------------------------------------------------------------


HOST_SETTINGS = (
    "audience",
    "goal",
    "reviewContext",
    "review_context",
    "availableModelIds",
    "cohortIds",
    "modelComparisonContext",
    "callback",
    "getModelComparisonEvidence",
    "endpoint",
    "url",
    "code",
    "register",
    "tools",
)


@pytest.mark.parametrize("field", HOST_SETTINGS)
@pytest.mark.parametrize("tool", TOOLS)
def test_a_tool_call_cannot_set_host_settings(tool: str, field: str) -> None:
    arguments = {**VALID_ARGUMENTS[tool], field: "https://attacker.example/" if field != "goal" else "x"}
    error = error_of(dispatch(full_dispatcher(), {"name": tool, "arguments": arguments}), "invalid-arguments")
    assert error["field"] == f"/{field}"


def test_an_unexpected_field_with_json_pointer_escaping() -> None:
    error = error_of(
        dispatch(full_dispatcher(), {"name": "get_writing_rules", "arguments": {"a/b~c": 1}}),
        "invalid-arguments",
    )
    assert error["field"] == "/a~1b~0c"


INTEGER_ARGUMENTS = (
    ("compose_writing_review_prompt", "maxFindings", 1, 20),
    ("find_writing_signals", "maxSignals", 1, 500),
)


@pytest.mark.parametrize(("tool", "field", "low", "high"), INTEGER_ARGUMENTS)
def test_integer_arguments_accept_their_range_and_refuse_outside_it(tool: str, field: str, low: int, high: int) -> None:
    dispatcher = full_dispatcher()
    for value in (low, high, (low + high) // 2):
        result = dispatch(dispatcher, {"name": tool, "arguments": {**VALID_ARGUMENTS[tool], field: value}})
        assert result["ok"] is True, (value, result)
    for value in (low - 1, high + 1, -1, 10**40, -(10**40)):
        result = dispatch(dispatcher, {"name": tool, "arguments": {**VALID_ARGUMENTS[tool], field: value}})
        error = error_of(result, "invalid-arguments")
        assert error["field"] == f"/{field}"
        assert field in error["message"] and str(low) in error["message"] and str(high) in error["message"]


@pytest.mark.parametrize(("tool", "field", "low", "high"), INTEGER_ARGUMENTS)
@pytest.mark.parametrize("value", [True, False])
def test_a_json_boolean_is_never_an_integer(tool: str, field: str, low: int, high: int, value: bool) -> None:
    result = dispatch(full_dispatcher(), {"name": tool, "arguments": {**VALID_ARGUMENTS[tool], field: value}})
    assert error_of(result, "invalid-arguments")["field"] == f"/{field}"


@pytest.mark.parametrize(("tool", "field", "low", "high"), INTEGER_ARGUMENTS)
@pytest.mark.parametrize("value", [5.5, 0.5, float("nan"), float("inf"), float("-inf"), "5", None, [5], {"v": 5}])
def test_non_integers_are_invalid_arguments(tool: str, field: str, low: int, high: int, value: object) -> None:
    result = dispatch(full_dispatcher(), {"name": tool, "arguments": {**VALID_ARGUMENTS[tool], field: value}})
    assert error_of(result, "invalid-arguments")["field"] == f"/{field}"


def test_a_whole_number_float_is_accepted_and_used_as_an_integer() -> None:
    dispatcher = full_dispatcher()
    prompt = data_of(
        dispatch(
            dispatcher,
            {"name": "compose_writing_review_prompt", "arguments": {"profile": PROFILE, "maxFindings": 7.0}},
        )
    )
    as_int = data_of(
        dispatch(
            dispatcher,
            {"name": "compose_writing_review_prompt", "arguments": {"profile": PROFILE, "maxFindings": 7}},
        )
    )
    assert prompt["maxFindings"] == 7 and type(prompt["maxFindings"]) is int
    assert prompt["responseSchema"]["properties"]["findings"]["maxItems"] == 7
    assert type(prompt["responseSchema"]["properties"]["findings"]["maxItems"]) is int
    assert prompt["prompt"] == as_int["prompt"]
    assert "7.0" not in json.dumps(prompt)


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("language", ["EN", "De", None, 1, 0, True, "fr", "en-US", " en", "", ["en"], {"en": 1}])
def test_any_language_but_exactly_en_or_de_is_unsupported(tool: str, language: object) -> None:
    arguments = {**VALID_ARGUMENTS[tool], "language": language}
    error = error_of(dispatch(full_dispatcher(), {"name": tool, "arguments": arguments}), "unsupported-language")
    assert error["field"] == "/language"
    assert "en" in error["message"] and "de" in error["message"]


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("language", ["en", "de"])
def test_en_and_de_are_supported_by_every_tool(tool: str, language: str) -> None:
    arguments = {**VALID_ARGUMENTS[tool], "language": language}
    assert dispatch(full_dispatcher(), {"name": tool, "arguments": arguments})["ok"] is True


@pytest.mark.parametrize(
    ("tool", "field"),
    [
        ("compose_writing_review_prompt", "profile"),
        ("find_writing_signals", "text"),
        ("get_model_comparison_evidence", "language"),
        ("get_model_comparison_evidence", "profile"),
        ("get_model_comparison_evidence", "role"),
        ("get_model_comparison_evidence", "cohortId"),
    ],
)
def test_a_missing_required_argument_is_named(tool: str, field: str) -> None:
    arguments = {key: value for key, value in VALID_ARGUMENTS[tool].items() if key != field}
    error = error_of(dispatch(full_dispatcher(), {"name": tool, "arguments": arguments}), "invalid-arguments")
    assert error["field"] == f"/{field}"
    assert field in error["message"]


@pytest.mark.parametrize("tool", TOOLS[:3])
def test_an_unknown_profile_is_invalid_selection_and_lists_the_profiles(tool: str) -> None:
    arguments = {**VALID_ARGUMENTS[tool], "profile": "marketing"}
    error = error_of(dispatch(full_dispatcher(), {"name": tool, "arguments": arguments}), "invalid-selection")
    assert error["field"] == "/profile"
    for profile in data.PROFILE_IDS:
        assert profile in error["message"]


@pytest.mark.parametrize("tool", TOOLS[:3])
@pytest.mark.parametrize("value", [5, None, True, ["public-docs"]])
def test_a_mistyped_profile_is_invalid_arguments(tool: str, value: object) -> None:
    arguments = {**VALID_ARGUMENTS[tool], "profile": value}
    error = error_of(dispatch(full_dispatcher(), {"name": tool, "arguments": arguments}), "invalid-arguments")
    assert error["field"] == "/profile"


@pytest.mark.parametrize("tool", TOOLS[:3])
@pytest.mark.parametrize("value", ["word-choice", None, 3, {"0": "word-choice"}])
def test_rule_ids_must_be_an_array(tool: str, value: object) -> None:
    arguments = {**VALID_ARGUMENTS[tool], "ruleIds": value}
    error = error_of(dispatch(full_dispatcher(), {"name": tool, "arguments": arguments}), "invalid-arguments")
    assert error["field"] == "/ruleIds"


# --- error precedence ------------------------------------------------------------------------

# One way to break a call per level of the contract's order; the earlier level must win.
ORDER = (
    "invalid-call",
    "unknown-tool",
    "host-context-missing",
    "unexpected-field",
    "unsupported-language",
    "bad-argument",
    "invalid-selection",
    "text-too-long",
)
CODE_OF = {
    "invalid-call": "invalid-call",
    "unknown-tool": "unknown-tool",
    "host-context-missing": "host-context-missing",
    "unexpected-field": "invalid-arguments",
    "unsupported-language": "unsupported-language",
    "bad-argument": "invalid-arguments",
    "invalid-selection": "invalid-selection",
    "text-too-long": "text-too-long",
}


def test_the_generated_error_ranks_are_the_argument_levels_of_the_contract_order() -> None:
    # The validators and the dispatcher's own checks both rank from this one table.
    ranked = [code for _, code in sorted(data.ERROR_RANKS.values())]
    assert ranked == [CODE_OF[fault] for fault in ORDER[3:]]
    assert min(rank for rank, _ in data.ERROR_RANKS.values()) == 3  # after the call-level codes


def _break(fault: str, call: dict[str, Any], tool: str) -> None:
    arguments = call["arguments"]
    if fault == "invalid-call":
        call["extra"] = True
    elif fault == "unknown-tool":
        call["name"] = tool + "s"
    elif fault == "unexpected-field":
        arguments["audience"] = "everyone"
    elif fault == "unsupported-language":
        arguments["language"] = "EN"
    elif fault == "bad-argument":
        arguments["maxSignals" if tool == "find_writing_signals" else "maxFindings"] = True
    elif fault == "invalid-selection":
        arguments["ruleIds"] = []
    elif fault == "text-too-long":
        arguments["text"] = "\U0001f600" * 125_001  # 250,002 UTF-16 units, 125,001 code points


def _combinations(tool: str) -> list[tuple[str, ...]]:
    possible = [
        fault
        for fault in ORDER
        if not (fault == "host-context-missing" and tool != "compose_writing_review_prompt")
        and not (fault == "text-too-long" and tool != "find_writing_signals")
    ]
    return [
        combination for size in range(2, len(possible) + 1) for combination in itertools.combinations(possible, size)
    ]


@pytest.mark.parametrize("tool", ["compose_writing_review_prompt", "find_writing_signals"])
def test_when_several_things_are_wrong_the_first_in_the_contract_order_is_reported(tool: str) -> None:
    with_context = full_dispatcher()
    without_context = create_writing_tool_dispatcher(model_comparison_context=COMPARISON)
    combinations = _combinations(tool)
    assert len(combinations) >= 57  # every pair, triple, ... of at least six faults
    for faults in combinations:
        call: dict[str, Any] = {"name": tool, "arguments": dict(VALID_ARGUMENTS[tool])}
        for fault in faults:
            _break(fault, call, tool)
        dispatcher = without_context if "host-context-missing" in faults else with_context
        result = dispatch(dispatcher, call)
        expected = min(faults, key=ORDER.index)
        assert result["ok"] is False, faults
        assert result["error"]["code"] == CODE_OF[expected], (faults, result["error"])


@pytest.mark.parametrize(
    ("arguments", "code", "field"),
    [
        # unexpected field beats a mistyped argument that comes first in the mapping
        ({"maxSignals": 0, "zzz": 1, "text": "x"}, "invalid-arguments", "/zzz"),
        # a missing required argument beats an unknown rule id
        ({"ruleIds": ["no-such-rule"]}, "invalid-arguments", "/text"),
        # a mistyped text beats an unknown profile
        ({"text": 5, "profile": "nope"}, "invalid-arguments", "/text"),
        # an unknown profile beats text-too-long (code points)
        ({"text": "a" * 250_001, "profile": "nope"}, "invalid-selection", "/profile"),
        # a duplicate rule id beats text-too-long (UTF-16 units)
        ({"text": "\U0001f600" * 125_001, "ruleIds": [SIGNAL_RULE, SIGNAL_RULE]}, "invalid-selection", None),
    ],
)
def test_precedence_inside_one_tool_does_not_depend_on_argument_order(
    arguments: dict[str, Any], code: str, field: str | None
) -> None:
    for ordered in (arguments, dict(reversed(list(arguments.items())))):
        error = error_of(dispatch(full_dispatcher(), {"name": "find_writing_signals", "arguments": ordered}), code)
        if field is not None:
            assert error["field"] == field


def test_host_context_missing_beats_everything_in_the_arguments() -> None:
    dispatcher = create_writing_tool_dispatcher()
    result = dispatch(
        dispatcher,
        {
            "name": "compose_writing_review_prompt",
            "arguments": {"goal": "x", "language": 3, "maxFindings": 0},
        },
    )
    error = error_of(result, "host-context-missing")
    assert "audience" in error["message"] or "review context" in error["message"]


# --- host options ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "review_context",
    [
        {"audience": "", "goal": "g"},
        {"audience": "a", "goal": "   "},
        {"audience": "\n\t", "goal": "g"},
        {"audience": "a"},
        {"goal": "g"},
        {"audience": "a", "goal": "g", "extra": "x"},
    ],
)
def test_a_blank_or_incomplete_review_context_raises_at_creation(review_context: dict[str, Any]) -> None:
    with pytest.raises((ValueError, TypeError)):
        create_writing_tool_dispatcher(review_context=review_context)


@pytest.mark.parametrize("audience", [None, 5, b"bytes", ["a"]])
def test_a_non_string_audience_raises_at_creation(audience: object) -> None:
    with pytest.raises((ValueError, TypeError)):
        create_writing_tool_dispatcher(review_context={"audience": audience, "goal": "g"})
    with pytest.raises((ValueError, TypeError)):
        ReviewContext(audience=audience, goal="g")  # type: ignore[arg-type]


@pytest.mark.parametrize("value", ["a context", 5, ["audience", "goal"]])
def test_a_review_context_of_the_wrong_kind_raises(value: object) -> None:
    with pytest.raises(TypeError):
        create_writing_tool_dispatcher(review_context=value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("models", "cohorts"),
    [
        ([], ["c"]),
        (["m"], []),
        (["m", "m"], ["c"]),
        (["m"], ["c", "c"]),
        ([1], ["c"]),
        (["m"], [None]),
        ("model-a", ["c"]),
        (["m"], "cohort"),
        (None, ["c"]),
        (["m"], [b"c"]),
        (["m", ""], ["c"]),
    ],
)
def test_bad_model_comparison_ids_raise_at_creation(models: object, cohorts: object) -> None:
    with pytest.raises((ValueError, TypeError)):
        create_writing_tool_dispatcher(model_comparison_context={"available_model_ids": models, "cohort_ids": cohorts})
    with pytest.raises((ValueError, TypeError)):
        ModelComparisonContext(available_model_ids=models, cohort_ids=cohorts)  # type: ignore[arg-type]


def test_a_non_callable_callback_raises_at_creation() -> None:
    with pytest.raises(TypeError):
        create_writing_tool_dispatcher(
            model_comparison_context=COMPARISON, get_model_comparison_evidence="https://evidence.example"
        )


def test_host_options_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        create_writing_tool_dispatcher(REVIEW)  # type: ignore[misc]


def test_the_contexts_are_frozen() -> None:
    with pytest.raises(AttributeError):
        REVIEW.audience = "someone else"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        COMPARISON.cohort_ids = ("other",)  # type: ignore[misc]
    assert isinstance(COMPARISON.cohort_ids, tuple)
    assert isinstance(COMPARISON.available_model_ids, tuple)


def test_later_changes_to_the_host_objects_change_nothing() -> None:
    review = {"audience": "Site reliability engineers", "goal": "Rotate the keys"}
    models = ["model-a"]
    cohorts = ["cohort-1"]
    comparison = {"available_model_ids": models, "cohort_ids": cohorts}
    dispatcher = create_writing_tool_dispatcher(review_context=review, model_comparison_context=comparison)
    prompt_call = {"name": "compose_writing_review_prompt", "arguments": {"profile": PROFILE}}
    before = data_of(dispatch(dispatcher, prompt_call))["prompt"]

    review["audience"] = "Marketing"
    review["goal"] = "Sell more"
    cohorts.append("cohort-2")
    cohorts.remove("cohort-1")
    comparison["cohort_ids"] = ["cohort-3"]

    after = data_of(dispatch(dispatcher, prompt_call))["prompt"]
    assert after == before
    assert "Marketing" not in after and "Site reliability engineers" in after

    def evidence_call(cohort: str) -> dict[str, Any]:
        arguments = {**VALID_ARGUMENTS["get_model_comparison_evidence"], "cohortId": cohort}
        return dispatch(dispatcher, {"name": "get_model_comparison_evidence", "arguments": arguments})

    assert data_of(evidence_call("cohort-1"))["status"] == "evidence-missing"
    for cohort in ("cohort-2", "cohort-3"):
        error = error_of(evidence_call(cohort), "invalid-selection")
        assert "cohort-1" in error["message"]


def test_the_dispatcher_cannot_be_reconfigured_by_attribute_assignment() -> None:
    dispatcher = create_writing_tool_dispatcher()
    attempts: list[Callable[[], object]] = [
        lambda: setattr(dispatcher, "_review", REVIEW),
        lambda: setattr(dispatcher, "review_context", REVIEW),
    ]
    for attempt in attempts:
        with pytest.raises(AttributeError):
            attempt()
    error_of(
        dispatch(dispatcher, {"name": "compose_writing_review_prompt", "arguments": {"profile": PROFILE}}),
        "host-context-missing",
    )


def test_a_review_context_mapping_and_dataclass_are_equivalent() -> None:
    call = {"name": "compose_writing_review_prompt", "arguments": {"profile": PROFILE}}
    from_mapping = create_writing_tool_dispatcher(review_context={"audience": REVIEW.audience, "goal": REVIEW.goal})
    from_dataclass = create_writing_tool_dispatcher(review_context=REVIEW)
    assert dispatch(from_mapping, call) == dispatch(from_dataclass, call)
