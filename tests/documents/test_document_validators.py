"""The document tools' generated argument validators agree with their published schemas.

Mirrors ``tests/tools/test_validators.py``: the runtime never imports jsonschema;
``read_document`` and ``write_document`` are checked by validators the generator
wrote from their schemas. Here both judge the same argument objects, drawn near
the schemas' edges (every operation kind, each field just inside and just
outside its schema) and at random; they must agree on every one.
"""

from __future__ import annotations

import re
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writing_rules import _rules_data as data
from writing_rules.documents import (
    MAX_OPERATIONS,
    DocumentEditError,
    MemoryDocumentStore,
    create_document_tool_dispatcher,
    edit,
)

EXAMPLES_PER_TOOL = 1500
DESCRIPTORS = create_document_tool_dispatcher(MemoryDocumentStore()).tools()
TOOLS = [descriptor["name"] for descriptor in DESCRIPTORS]
SCHEMAS = {descriptor["name"]: descriptor["inputSchema"] for descriptor in DESCRIPTORS}
OPERATION_SCHEMAS = SCHEMAS["write_document"]["properties"]["operations"]["items"]["oneOf"]
KINDS = [schema["properties"]["operation"]["const"] for schema in OPERATION_SCHEMAS]

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
JUNK = [None, True, False, 0, 1, -1, 5.0, 1.5, "", "x", " ", [], {}]
NUMBERS = [1, 2, 1.0, 2.0, 1e300, 0, -0.0, -1, -1.0, -2, 0.5, 1.5, 2**63, True, False, "1"]


def _mostly(valid: st.SearchStrategy[Any], invalid: st.SearchStrategy[Any], odds: int = 4) -> st.SearchStrategy[Any]:
    """One draw in ``odds`` invalid, so whole argument objects (several fields, several operations) are
    often valid too."""
    return st.integers(1, odds).flatmap(lambda roll: invalid if roll == 1 else valid)


def near(prop: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values of one property: mostly valid, else just outside its schema, sometimes random JSON."""
    invalid: list[st.SearchStrategy[Any]] = [st.sampled_from(JUNK), random_json]
    if "const" in prop:
        valid: st.SearchStrategy[Any] = st.just(prop["const"])
        invalid.append(st.sampled_from(NUMBERS))
    elif "anyOf" in prop or prop.get("type") == "integer":
        valid = st.integers(1, 5) | st.sampled_from([1.0, 3.0, 1e300] + ([-1, -1.0] if "anyOf" in prop else []))
        invalid.append(st.sampled_from(NUMBERS))
    elif prop.get("type") == "boolean":
        valid = st.booleans()
    elif prop.get("type") == "string":
        valid = st.text(min_size=prop.get("minLength", 0), max_size=12)
        invalid.append(st.sampled_from(["", " "]))
    else:  # pragma: no cover - a new keyword needs a strategy here
        raise AssertionError(prop)
    return _mostly(valid, st.one_of(invalid), odds=20)


def operation() -> st.SearchStrategy[Any]:
    """One operation of any kind near its schema: a field dropped, a field added, a kind misnamed."""

    def of(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
        properties = schema["properties"]
        required = schema["required"]
        shaped = st.fixed_dictionaries(
            {name: near(properties[name]) for name in required},
            optional={name: near(prop) for name, prop in properties.items() if name not in required},
        )

        @st.composite
        def build(draw: st.DrawFn) -> dict[str, Any]:
            item = draw(shaped)
            if draw(st.integers(0, 19)) == 0:
                item.pop(draw(st.sampled_from(required)), None)
            if draw(st.integers(0, 19)) == 0:
                extra = ["fuzzy", "content", "anchor", "oldBlock", "occurrence", "fuzzyMatch", "Operation", 3]
                item[draw(st.sampled_from(extra))] = draw(random_json)
            if draw(st.integers(0, 29)) == 0:
                item["operation"] = draw(st.sampled_from([*KINDS, "replace", "ReplaceBlock", None, 1]))
            return item

        return build()

    return _mostly(st.one_of([of(schema) for schema in OPERATION_SCHEMAS]), random_json, odds=40)


operation_lists = _mostly(
    st.lists(operation(), min_size=1, max_size=3),
    st.sampled_from([[], "append x", {"operation": "append", "content": "x"}, None])
    | operation().map(lambda item: [item] * (MAX_OPERATIONS + 1))
    | random_json,
    odds=8,
)
ARGUMENT_STRATEGIES = {
    "id": lambda: near(SCHEMAS["write_document"]["properties"]["id"]),
    "operations": lambda: operation_lists,
    "expectedVersion": lambda: near(SCHEMAS["write_document"]["properties"]["expectedVersion"]),
    "dryRun": lambda: near(SCHEMAS["write_document"]["properties"]["dryRun"]),
}


def arguments_for(tool: str) -> st.SearchStrategy[Any]:
    schema = SCHEMAS[tool]
    required = schema["required"]
    shaped = st.fixed_dictionaries(
        {name: ARGUMENT_STRATEGIES[name]() for name in schema["properties"] if name in required},
        optional={name: ARGUMENT_STRATEGIES[name]() for name in schema["properties"] if name not in required},
    )
    extra_keys = st.sampled_from(["extra", "ID", "version", "create", "", "operation", "dry_run", "a/b~c"])

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        arguments = draw(shaped)
        if draw(st.integers(0, 9)) == 0:
            arguments.pop(draw(st.sampled_from(required)), None)
        if draw(st.integers(0, 9)) == 0:
            arguments.update(draw(st.dictionaries(extra_keys, random_json, max_size=2)))
        return arguments

    return st.one_of(build(), build(), build(), st.dictionaries(st.text(max_size=8), random_json, max_size=3))


@pytest.mark.parametrize("tool", TOOLS)
def test_validator_accepts_exactly_what_the_schema_accepts(tool: str) -> None:
    checker = jsonschema.Draft202012Validator(SCHEMAS[tool])
    validate = data.DOCUMENT_VALIDATORS[tool]
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
        assert (problems == []) is valid, (arguments, problems, [e.message for e in checker.iter_errors(arguments)])
        for rank, code, field, message in problems:
            assert (rank, code) in (data.ERROR_RANKS["unexpected"], data.ERROR_RANKS["argument"])
            assert field.startswith("/")
            assert isinstance(message, str) and message
        outcomes[valid] += 1

    agree()
    # Both sides of the border were exercised, not just random junk that every checker refuses.
    assert sum(outcomes.values()) >= EXAMPLES_PER_TOOL
    assert outcomes[True] >= EXAMPLES_PER_TOOL // 10, outcomes
    assert outcomes[False] >= EXAMPLES_PER_TOOL // 10, outcomes


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(operations=operation_lists)
def test_the_pure_core_refuses_exactly_the_lists_the_schema_refuses(operations: Any) -> None:
    """``edit`` checks its operations with the same generated code: no second copy of the rules."""
    schema = SCHEMAS["write_document"]["properties"]["operations"]
    valid = jsonschema.Draft202012Validator(schema).is_valid(operations)
    try:
        edit("", operations)
    except DocumentEditError as error:
        beyond_schema = "only white space" in error.message or error.code != "invalid-operation"
        assert not valid or beyond_schema, (operations, error.message)
    else:
        assert valid


def test_the_schemas_and_the_package_constants_agree() -> None:
    operations = SCHEMAS["write_document"]["properties"]["operations"]
    assert operations["maxItems"] == MAX_OPERATIONS == data.DOCUMENT_MAX_OPERATIONS
    assert tuple(TOOLS) == data.DOCUMENT_TOOL_NAMES
    for schema in OPERATION_SCHEMAS:
        kind = schema["properties"]["operation"]["const"]
        required, optional = data.DOCUMENT_OPERATION_FIELDS[kind]
        assert schema["required"] == ["operation", *required]
        assert list(schema["properties"]) == ["operation", *required, *optional]


@pytest.mark.parametrize(
    ("review_call", "document_call", "shape"),
    [
        (
            ("find_writing_signals", {"text": "", "x": 1}),
            ("read_document", {"id": "a.md", "x": 1}),
            r"Unexpected argument 'x': \w+ accepts only [\w, ]+\. Host settings \(.+\) cannot be set by a tool call\.",
        ),
        (
            ("compose_writing_review_prompt", {}),
            ("write_document", {"operations": []}),
            r"Missing required argument \w+: \w+ needs .+\.",
        ),
        (
            (
                "get_model_comparison_evidence",
                {"language": "en", "profile": "public-docs", "role": "judge", "cohortId": 3},
            ),
            (
                "write_document",
                {"id": "a.md", "operations": [{"operation": "append", "content": ""}], "expectedVersion": 3},
            ),
            r"Argument \w+ must be .+; got 3\.",
        ),
    ],
)
def test_a_document_tool_words_a_problem_as_a_review_tool_does(
    review_call: tuple[str, dict[str, Any]], document_call: tuple[str, dict[str, Any]], shape: str
) -> None:
    """The same kind of mistake gets the same rank, code and sentence in both tool sets."""
    [(review_rank, review_code, _, review_message)] = data.VALIDATORS[review_call[0]](review_call[1])
    [(rank, code, _, message)] = data.DOCUMENT_VALIDATORS[document_call[0]](document_call[1])
    assert (rank, code) == (review_rank, review_code)
    assert re.fullmatch(shape, review_message), review_message
    assert re.fullmatch(shape, message), message


@pytest.mark.parametrize(
    ("arguments", "field", "words"),
    [
        ({"id": "a.md", "operations": [{"operation": "append", "content": 3}]}, "/operations/0/content", "got 3."),
        (
            {"id": "a.md", "operations": [{"operation": "append", "content": "x", "a/b": 1}]},
            "/operations/0/a~1b",
            "'a/b'",
        ),
        (
            {"id": "a.md", "operations": [{"operation": "deleteBlock", "anchor": "x", "occurrence": -2}]},
            "/operations/0/occurrence",
            "-2",
        ),
        ({"id": "a.md", "operations": "append x"}, "/operations", "got 'append x'."),
        ({"id": "", "operations": []}, "/id", "got ''."),
        (
            {"id": "a.md", "operations": [{"operation": "append", "content": ""}], "dryRun": "yes"},
            "/dryRun",
            "got 'yes'.",
        ),
    ],
)
def test_messages_show_the_value_and_point_at_it(arguments: dict[str, Any], field: str, words: str) -> None:
    [(_, code, got_field, message)] = data.validate_write_document(arguments)
    assert (code, got_field) == ("invalid-arguments", field)
    assert words in message
