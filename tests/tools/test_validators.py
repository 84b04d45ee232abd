"""The generated argument validators agree with the published schemas (checked with jsonschema).

The runtime never imports jsonschema: each tool's arguments are checked by a
validator the generator wrote from the tool's schema. Here both judge the same
argument objects, drawn near the schema's edges and at random; they must agree
on every one.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writing_rules import _rules_data as data
from writing_rules.tools import writing_review_tools

EXAMPLES_PER_TOOL = 1500
TOOLS = [descriptor["name"] for descriptor in writing_review_tools()]
SCHEMAS = {descriptor["name"]: descriptor["inputSchema"] for descriptor in writing_review_tools()}
CODES = {"invalid-arguments", "unsupported-language", "invalid-selection", "text-too-long"}

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
random_json = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)

BOUNDARY_NUMBERS = [0, 1, 2, 5, 19, 20, 21, 49, 50, 499, 500, 501, -1, 5.0, 5.5, 1.0, 20.0, 20.5, 21.0, 500.0]
BOUNDARY_NUMBERS += [0.0, -0.0, 1e300, -1e300, 2**63, True, False]
LONG_TEXTS = ["a" * 250_000, "a" * 250_001, "\U0001f600" * 125_001, "\ud800" * 250_000]


def _wrong_case(values: list[str]) -> list[str]:
    variants = []
    for value in values:
        variants += [value.upper(), value.title(), f" {value}", f"{value} ", value + "x"]
    return [variant for variant in variants if variant not in values]


def near(prop: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values of one property: mostly valid, else just outside the schema, sometimes random JSON."""
    valid: list[st.SearchStrategy[Any]] = []
    invalid: list[st.SearchStrategy[Any]] = []
    kind = prop.get("type")
    if "enum" in prop:
        valid.append(st.sampled_from(prop["enum"]))
        invalid.append(st.sampled_from(_wrong_case(prop["enum"])))
    elif kind == "integer":
        low, high = prop["minimum"], prop["maximum"]
        valid += [st.integers(low, high), st.sampled_from([low, high, float(low), float(high)])]
        invalid += [st.sampled_from(BOUNDARY_NUMBERS), st.integers(-5, 600), st.floats(-5, 600)]
    elif kind == "string":
        valid.append(st.text(max_size=20))
        invalid.append(st.sampled_from(LONG_TEXTS))
    elif kind == "array":
        enum = list(prop["items"]["enum"])
        valid.append(st.lists(st.sampled_from(enum), min_size=1, max_size=4, unique=True))
        pool = enum + _wrong_case(enum)[:3] + [1, None, True]
        invalid += [
            st.lists(st.sampled_from(enum), max_size=4),  # empties and duplicates
            st.lists(st.sampled_from(pool), max_size=4),
        ]
    invalid += [st.sampled_from([None, True, False, 0, 5.0, "", "en", [], {}]), random_json]
    # About three draws in four are valid, so whole argument objects are often valid too.
    return st.integers(0, 3).flatmap(lambda roll: st.one_of(invalid if roll == 0 else valid))


def arguments_for(tool: str) -> st.SearchStrategy[Any]:
    schema = SCHEMAS[tool]
    properties = schema["properties"]
    required = schema.get("required", [])
    shaped = st.fixed_dictionaries(
        {name: near(prop) for name, prop in properties.items() if name in required},
        optional={name: near(prop) for name, prop in properties.items() if name not in required},
    )
    # Drop a required key now and then, add keys the schema does not name now and then.
    extra_keys = st.sampled_from(["extra", "Language", "ruleids", "audience", "goal", "", "text", "role", "id"])
    extras = st.dictionaries(extra_keys, random_json, max_size=2)

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        arguments = draw(shaped)
        if required and draw(st.integers(0, 9)) == 0:
            arguments.pop(draw(st.sampled_from(required)), None)
        if draw(st.integers(0, 4)) == 0:
            arguments.update(draw(extras))
        return arguments

    return st.one_of(build(), build(), build(), st.dictionaries(st.text(max_size=8), random_json, max_size=5))


@pytest.mark.parametrize("tool", TOOLS)
def test_validator_accepts_exactly_what_the_schema_accepts(tool: str) -> None:
    schema = SCHEMAS[tool]
    checker = jsonschema.Draft202012Validator(schema)
    validate = data.VALIDATORS[tool]
    outcomes = {True: 0, False: 0}

    @settings(
        max_examples=EXAMPLES_PER_TOOL,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        database=None,
    )
    @given(arguments=arguments_for(tool))
    def agree(arguments: dict[str, Any]) -> None:
        problems = validate(dict(arguments))
        valid = checker.is_valid(arguments)
        assert (problems == []) is valid, (
            arguments,
            problems,
            [e.message for e in checker.iter_errors(arguments)],
        )
        for rank, code, field, message in problems:
            assert isinstance(rank, int)
            assert code in CODES
            assert field.startswith("/")
            assert isinstance(message, str) and message
        outcomes[valid] += 1

    agree()
    # Both sides of the border were exercised, not just random junk that every checker refuses.
    assert sum(outcomes.values()) >= EXAMPLES_PER_TOOL
    assert outcomes[True] >= EXAMPLES_PER_TOOL // 10, outcomes
    assert outcomes[False] >= EXAMPLES_PER_TOOL // 10, outcomes


@pytest.mark.parametrize("tool", TOOLS)
def test_validator_accepts_the_schema_defaults(tool: str) -> None:
    properties = SCHEMAS[tool]["properties"]
    defaults = {name: prop["default"] for name, prop in properties.items() if "default" in prop}
    assert defaults == dict(data.TOOL_DEFAULTS[tool])
    base = {
        "compose_writing_review_prompt": {"profile": data.PROFILE_IDS[0]},
        "find_writing_signals": {"text": ""},
        "get_model_comparison_evidence": {
            "language": "de",
            "profile": data.PROFILE_IDS[0],
            "role": "judge",
            "cohortId": "",
        },
    }.get(tool, {})
    arguments = {**base, **defaults}
    assert jsonschema.Draft202012Validator(SCHEMAS[tool]).is_valid(arguments)
    assert data.VALIDATORS[tool](arguments) == []


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("compose_writing_review_prompt", {"profile": "public-docs", "maxFindings": True}),
        ("compose_writing_review_prompt", {"profile": "public-docs", "maxFindings": 5.5}),
        ("compose_writing_review_prompt", {"profile": "public-docs", "maxFindings": 21.0}),
        ("find_writing_signals", {"text": "x", "maxSignals": False}),
        ("find_writing_signals", {"text": "x", "maxSignals": 501}),
        ("find_writing_signals", {"text": "x", "ruleIds": []}),
        ("find_writing_signals", {"text": "x", "ruleIds": ["filler", "hedging", "filler", "tone"]}),
        ("get_writing_rules", {"ruleIds": ["filler", "tone", "filler"]}),
        ("get_writing_rules", {"language": "EN"}),
        ("get_writing_rules", {"language": None}),
        ("get_writing_rules", {"detail": "Full"}),
    ],
)
def test_known_border_cases_are_refused_by_both(tool: str, arguments: dict[str, Any]) -> None:
    assert not jsonschema.Draft202012Validator(SCHEMAS[tool]).is_valid(arguments)
    assert data.VALIDATORS[tool](arguments)


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("compose_writing_review_prompt", {"profile": "public-docs", "maxFindings": 20.0}),
        ("compose_writing_review_prompt", {"profile": "public-docs", "maxFindings": 1}),
        ("find_writing_signals", {"text": "x", "maxSignals": 500}),
        # The schema counts code points: 125,001 astral characters pass it (the dispatcher
        # refuses them later, by UTF-16 length).
        ("find_writing_signals", {"text": "\U0001f600" * 125_001}),
    ],
)
def test_known_border_cases_are_accepted_by_both(tool: str, arguments: dict[str, Any]) -> None:
    assert jsonschema.Draft202012Validator(SCHEMAS[tool]).is_valid(arguments)
    assert data.VALIDATORS[tool](arguments) == []


@pytest.mark.parametrize(
    ("rule_ids", "field", "words"),
    [
        (["tone"], "/ruleIds/0", "Unknown rule id 'tone'"),
        (["filler", "tone", "filler"], "/ruleIds/1", "Unknown rule id 'tone'"),
        (["filler", "hedging", "filler", "tone"], "/ruleIds/2", "Rule id 'filler' appears twice"),
        (["filler", "filler"], "/ruleIds/1", "Rule id 'filler' appears twice"),
        (["hedging", "filler", "tone", "x", "filler"], "/ruleIds/2", "Unknown rule id 'tone'"),
    ],
)
@pytest.mark.parametrize("tool", ["get_writing_rules", "find_writing_signals"])
def test_the_first_selection_culprit_is_reported_at_its_index(
    tool: str, rule_ids: list[str], field: str, words: str
) -> None:
    arguments = {"ruleIds": rule_ids, **({"text": "x"} if tool == "find_writing_signals" else {})}
    [(_, code, got_field, message)] = data.VALIDATORS[tool](arguments)
    assert (code, got_field) == ("invalid-selection", field)
    assert message.startswith(words)
