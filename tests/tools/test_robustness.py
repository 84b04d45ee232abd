"""Whatever a model or a host sends, dispatch returns a JSON-safe envelope and never raises.

``internal-error`` is a bug by contract, so any example that produces it fails.
"""

from __future__ import annotations

import asyncio
import decimal
import json
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writing_rules.tools import create_writing_tool_dispatcher, writing_review_tools

TOOLS = [descriptor["name"] for descriptor in writing_review_tools()]
ARGUMENT_NAMES = sorted(
    {name for descriptor in writing_review_tools() for name in descriptor["inputSchema"]["properties"]}
)
CODES = {
    "invalid-call",
    "unknown-tool",
    "invalid-arguments",
    "unsupported-language",
    "invalid-selection",
    "text-too-long",
    "host-context-missing",
}
STATUSES = {"evidence-available", "evidence-missing", "host-evidence-failed", "invalid-host-evidence"}


class Hostile(Mapping[Any, Any]):
    """A mapping whose every method raises."""

    def __getitem__(self, key: object) -> Any:
        raise RuntimeError("no")

    def __iter__(self) -> Iterator[Any]:
        raise RuntimeError("no")

    def __len__(self) -> int:
        raise RuntimeError("no")


class BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    __str__ = __repr__


class StrSub(str):
    pass


class IntSub(int):
    pass


class FloatSub(float):
    pass


ODD_OBJECTS = [
    object(),
    Hostile(),
    decimal.Decimal("5"),
    decimal.Decimal("NaN"),
    1 + 2j,
    Ellipsis,
    range(3),
    b"en",
    bytearray(b"word-choice"),
    StrSub("en"),
    StrSub("word-choice"),
    IntSub(5),
    FloatSub(5.0),
    FloatSub("nan"),
    10**400,
    -(10**400),
    float("nan"),
    float("inf"),
    -float("inf"),
    -0.0,
    1e308,
]

texts = st.text(max_size=30) | st.text(
    st.characters(categories=["Cs", "Lu", "Ll", "Nd", "Zs", "Cc", "So", "Mn"]), max_size=30
)
hashables = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | texts
    | st.binary(max_size=6)
    | st.sampled_from(["en", "de", "EN", "public-docs", "word-choice", "reader-goal", "reviewer", "full"])
)
scalars = hashables | st.integers(0, len(ODD_OBJECTS) - 1).map(ODD_OBJECTS.__getitem__)
values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4)
        | st.lists(children, max_size=4).map(tuple)
        | st.sets(hashables, max_size=4)
        | st.frozensets(hashables, max_size=3)
        | st.dictionaries(texts, children, max_size=4)
        | st.dictionaries(hashables, children, max_size=3)
        | st.dictionaries(st.sampled_from(ARGUMENT_NAMES), children, max_size=3).map(MappingProxyType)
    ),
    max_leaves=10,
)
argument_objects = st.dictionaries(
    st.sampled_from(ARGUMENT_NAMES) | texts | hashables, values, max_size=6
) | st.sampled_from([None, {}, "{}", [], Hostile()])
names = st.sampled_from(TOOLS) | texts | scalars


@st.composite
def calls(draw: st.DrawFn) -> Any:
    shape = draw(st.integers(0, 9))
    if shape == 0:
        return draw(values)
    call: dict[Any, Any] = {"name": draw(names)}
    if draw(st.integers(0, 9)):
        call["arguments"] = draw(argument_objects)
    if draw(st.integers(0, 3)) == 0:
        call["id"] = draw(scalars)
    if draw(st.integers(0, 9)) == 0:
        call[draw(hashables)] = draw(values)
    return MappingProxyType(call) if shape == 1 else call


def assert_envelope(result: object) -> None:
    assert isinstance(result, dict)
    json.dumps(result, allow_nan=False)
    assert result["ok"] in (True, False)
    if result["ok"]:
        assert set(result) <= {"ok", "tool", "data", "id"}
        assert result["tool"] in TOOLS
        if result["tool"] == TOOLS[3]:
            assert result["data"]["status"] in STATUSES
    else:
        assert set(result) <= {"ok", "tool", "error", "id"}
        assert result["error"]["code"] in CODES, result["error"]
        assert isinstance(result["error"]["message"], str)
        assert result["tool"] is None or result["tool"] in TOOLS or isinstance(result["tool"], str)


# The host's callback hands back whatever the current example put here.
EVIDENCE: list[Any] = [None]


def callback(query: Any, context: Any) -> Any:
    return EVIDENCE[0]


DISPATCHERS = [
    create_writing_tool_dispatcher(),
    create_writing_tool_dispatcher(
        review_context={"audience": "Developers", "goal": "Ship it"},
        model_comparison_context={"available_model_ids": ["model-a"], "cohort_ids": ["cohort-1"]},
        get_model_comparison_evidence=callback,
    ),
]


def _needs_evidence(call: Any) -> bool:
    return isinstance(call, dict) and call.get("name") == TOOLS[3]


@settings(
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(call=calls(), which=st.integers(0, 1), data=st.data())
def test_dispatch_never_raises_and_always_returns_a_json_envelope(call: Any, which: int, data: st.DataObject) -> None:
    # What the host's callback returns is drawn only when the call can reach it.
    EVIDENCE[0] = data.draw(values) if which and _needs_evidence(call) else None
    assert_envelope(DISPATCHERS[which].dispatch(call))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(call=calls(), data=st.data())
def test_dispatch_async_never_raises_and_always_returns_a_json_envelope(call: Any, data: st.DataObject) -> None:
    EVIDENCE[0] = data.draw(values) if _needs_evidence(call) else None
    assert_envelope(asyncio.run(DISPATCHERS[1].dispatch_async(call)))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tool=st.sampled_from(TOOLS),
    arguments=st.dictionaries(st.sampled_from(ARGUMENT_NAMES), values, max_size=5),
    data=st.data(),
)
def test_well_formed_calls_with_junk_arguments_never_fail_internally(
    tool: str, arguments: dict[str, Any], data: st.DataObject
) -> None:
    EVIDENCE[0] = data.draw(values) if tool == TOOLS[3] else None
    for dispatcher in DISPATCHERS:
        assert_envelope(dispatcher.dispatch({"name": tool, "arguments": arguments, "id": "c"}))


def test_values_whose_repr_raises_are_answered_not_crashed() -> None:
    odd = BadRepr()
    for dispatcher in DISPATCHERS:
        assert_envelope(dispatcher.dispatch(odd))
        assert_envelope(dispatcher.dispatch({"name": odd, "arguments": {}}))
        assert_envelope(dispatcher.dispatch({"name": TOOLS[0], "arguments": {"x": 1}, odd: 1}))
        for tool in TOOLS:
            for name in ARGUMENT_NAMES:
                assert_envelope(dispatcher.dispatch({"name": tool, "arguments": {name: odd}}))
                assert_envelope(dispatcher.dispatch({"name": tool, "arguments": {name: [odd]}}))
            assert_envelope(dispatcher.dispatch({"name": tool, "arguments": {odd: 1}, "id": odd}))
    EVIDENCE[0] = odd
    call = {
        "name": TOOLS[3],
        "arguments": {"language": "en", "profile": "public-docs", "role": "judge", "cohortId": "cohort-1"},
    }
    assert DISPATCHERS[1].dispatch(call)["data"]["status"] == "invalid-host-evidence"


def _deep(levels: int, leaf: Any) -> Any:
    value = leaf
    for _ in range(levels):
        value = [value]
    return value


def test_deeply_nested_values_are_answered_not_crashed() -> None:
    deep = _deep(50_000, "word-choice")
    deep_map: Any = "x"
    for _ in range(50_000):
        deep_map = {"a": deep_map}
    for dispatcher in DISPATCHERS:
        for tool in TOOLS:
            for arguments in ({"ruleIds": deep}, {"ruleIds": [deep]}, {"text": deep_map}, {"language": deep}):
                assert_envelope(dispatcher.dispatch({"name": tool, "arguments": arguments}))
        assert_envelope(dispatcher.dispatch(deep))
        assert_envelope(dispatcher.dispatch({"name": deep, "arguments": deep_map}))
    for evidence in (deep, deep_map, {"status": "evidence-available", "query": deep_map, "sources": deep}):
        EVIDENCE[0] = evidence
        call = {
            "name": TOOLS[3],
            "arguments": {
                "language": "en",
                "profile": "public-docs",
                "role": "judge",
                "cohortId": "cohort-1",
            },
        }
        result = DISPATCHERS[1].dispatch(call)
        assert_envelope(result)
        assert result["data"]["status"] == "invalid-host-evidence"


def test_self_referencing_values_are_answered_not_crashed() -> None:
    loop: list[Any] = []
    loop.append(loop)
    cycle: dict[str, Any] = {}
    cycle["query"] = cycle
    for dispatcher in DISPATCHERS:
        for tool in TOOLS:
            assert_envelope(dispatcher.dispatch({"name": tool, "arguments": {"ruleIds": loop, "text": loop}}))
    for evidence in (loop, cycle, {**cycle, "status": "evidence-available"}):
        EVIDENCE[0] = evidence
        call = {
            "name": TOOLS[3],
            "arguments": {
                "language": "en",
                "profile": "public-docs",
                "role": "judge",
                "cohortId": "cohort-1",
            },
        }
        assert_envelope(DISPATCHERS[1].dispatch(call))


EVIDENCE_KEYS = ["status", "query", "bestValue", "highestDetection", "sources", "explanation", "limitations"]
SELECTION_KEYS = [
    "modelId", "sourceIds", "independentlyJudged", "reviews", "detection", "falseEditSuggestions", "cost",
    "limitations",
]  # fmt: skip
selections = st.none() | st.dictionaries(st.sampled_from(SELECTION_KEYS), values, max_size=8) | values
host_evidence = (
    st.dictionaries(
        st.sampled_from(EVIDENCE_KEYS),
        st.sampled_from(["evidence-available", "evidence-missing"]) | selections | values,
        max_size=7,
    )
    | values
)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evidence=host_evidence, language=st.sampled_from(["en", "de"]))
def test_junk_from_the_host_callback_is_refused_as_evidence_never_a_crash(evidence: Any, language: str) -> None:
    EVIDENCE[0] = evidence
    call = {
        "name": TOOLS[3],
        "arguments": {
            "language": language,
            "profile": "public-docs",
            "role": "editor",
            "cohortId": "cohort-1",
        },
    }
    for result in (DISPATCHERS[1].dispatch(call), asyncio.run(DISPATCHERS[1].dispatch_async(call))):
        assert_envelope(result)
        assert result["ok"] is True
        assert result["data"]["status"] == "invalid-host-evidence"
