"""Tool 4 through the dispatcher: the host's callback, its frozen inputs and the four statuses.

The evidence checks themselves are tested in test_evidence.py; here the wiring is:
what the callback receives, how sync and async callbacks are called, and what
reaches the model when the callback fails.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from writing_rules import _rules_data as data
from writing_rules.tools import ModelComparisonContext, create_writing_tool_dispatcher

TOOL = "get_model_comparison_evidence"
PROFILE = "public-docs"
MODELS = ["model-a", "model-b"]
COHORTS = ["cohort-1", "cohort-2"]
QUERY = {"language": "de", "profile": PROFILE, "role": "reviewer", "cohortId": "cohort-1"}
SECRET = "sk-live-7Hq2SECRETtoken-do-not-echo"
NO_CHOICE = {"bestValue": None, "highestDetection": None, "sources": []}


def evidence(**changes: Any) -> dict[str, Any]:
    selection = {
        "modelId": "model-a",
        "sourceIds": ["run-1"],
        "independentlyJudged": True,
        "reviews": {"planned": 10, "judged": 9, "acceptedComplete": 8},
        "detection": {"detected": 7, "expected": 12},
        "falseEditSuggestions": 2,
        "cost": {"usd": 3.25, "includesFailedAttempts": True, "includesRetries": True},
        "limitations": ["German only."],
    }
    result: dict[str, Any] = {
        "status": "evidence-available",
        "query": dict(QUERY),
        "bestValue": selection,
        "highestDetection": {**selection, "modelId": "model-b"},
        "sources": [{"id": "run-1", "location": "reports/run-1.json", "sha256": "ab" * 32}],
        "explanation": "Both models were reviewed on the held-out cohort.",
        "limitations": ["Small cohort."],
    }
    result.update(changes)
    return result


def dispatcher_with(callback: Callable[..., Any] | None, **context: Any) -> Any:
    return create_writing_tool_dispatcher(
        model_comparison_context={"available_model_ids": MODELS, "cohort_ids": COHORTS, **context},
        get_model_comparison_evidence=callback,
    )


def call(arguments: Mapping[str, Any] | None = None, call_id: str | None = None) -> dict[str, Any]:
    result: dict[str, Any] = {"name": TOOL, "arguments": dict(arguments or QUERY)}
    if call_id is not None:
        result["id"] = call_id
    return result


def run(dispatcher: Any, arguments: Mapping[str, Any] | None = None) -> dict[str, Any]:
    result = dispatcher.dispatch(call(arguments))
    json.dumps(result, allow_nan=False)
    assert result["ok"] is True, result.get("error")
    return result["data"]


def run_async(dispatcher: Any, arguments: Mapping[str, Any] | None = None) -> dict[str, Any]:
    result = asyncio.run(dispatcher.dispatch_async(call(arguments)))
    json.dumps(result, allow_nan=False)
    assert result["ok"] is True, result.get("error")
    return result["data"]


def assert_no_model_chosen(result: dict[str, Any], status: str) -> None:
    assert result["status"] == status
    assert result["query"] == QUERY
    for key, value in NO_CHOICE.items():
        assert result[key] == value
    assert isinstance(result["explanation"], str) and result["explanation"].strip()
    assert isinstance(result["limitations"], list)
    assert all(isinstance(item, str) for item in result["limitations"])


# --- the statuses ----------------------------------------------------------------------------------


def test_without_a_model_comparison_context_evidence_is_missing() -> None:
    dispatcher = create_writing_tool_dispatcher()
    result = run(dispatcher)
    assert_no_model_chosen(result, "evidence-missing")
    assert set(result) == {"status", "query", "bestValue", "highestDetection", "sources", "explanation",
                           "limitations"}  # fmt: skip
    assert run_async(dispatcher) == result


def test_a_context_without_a_callback_is_allowed_and_evidence_is_missing() -> None:
    dispatcher = dispatcher_with(None)
    assert_no_model_chosen(run(dispatcher), "evidence-missing")
    assert_no_model_chosen(run_async(dispatcher), "evidence-missing")


def test_a_callback_without_a_context_is_a_host_error_at_creation() -> None:
    with pytest.raises(ValueError):
        create_writing_tool_dispatcher(get_model_comparison_evidence=lambda query, context: evidence())


@pytest.mark.parametrize("with_callback", [True, False])
@pytest.mark.parametrize("cohort", ["cohort-3", "COHORT-1", "", "cohort-1 "])
def test_a_cohort_the_host_did_not_allow_is_invalid_selection(with_callback: bool, cohort: str) -> None:
    calls: list[object] = []
    callback = (lambda query, context: calls.append(query) or evidence()) if with_callback else None
    dispatcher = dispatcher_with(callback)
    for result in (
        dispatcher.dispatch(call({**QUERY, "cohortId": cohort})),
        asyncio.run(dispatcher.dispatch_async(call({**QUERY, "cohortId": cohort}))),
    ):
        assert result["ok"] is False
        assert result["error"]["code"] == "invalid-selection"
        assert result["error"]["field"] == "/cohortId"
        for allowed in COHORTS:
            assert allowed in result["error"]["message"]
    assert calls == []


def test_an_unknown_role_or_profile_is_invalid_selection_and_the_callback_is_not_called() -> None:
    calls: list[object] = []
    dispatcher = dispatcher_with(lambda query, context: calls.append(query) or evidence())
    for changes in ({"role": "writer"}, {"role": "Reviewer"}, {"profile": "marketing"}):
        result = dispatcher.dispatch(call({**QUERY, **changes}))
        assert result["error"]["code"] == "invalid-selection", changes
    assert calls == []


def test_a_missing_argument_beats_a_cohort_that_is_not_allowed() -> None:
    dispatcher = dispatcher_with(lambda query, context: evidence())
    arguments = {key: value for key, value in QUERY.items() if key != "role"}
    result = dispatcher.dispatch(call({**arguments, "cohortId": "cohort-9"}))
    assert result["error"]["code"] == "invalid-arguments"
    assert result["error"]["field"] == "/role"


def test_valid_evidence_comes_back_as_a_plain_copy() -> None:
    returned = evidence()
    dispatcher = dispatcher_with(lambda query, context: returned)
    result = run(dispatcher)
    assert result == evidence()
    returned["bestValue"]["modelId"] = "model-b"
    returned["limitations"].append("changed later")
    assert result == evidence()
    assert run(dispatcher)["bestValue"]["modelId"] == "model-b"  # the next call sees the new object


def test_evidence_missing_from_the_host_passes_through() -> None:
    returned = evidence(status="evidence-missing", bestValue=None, highestDetection=None)
    result = run(dispatcher_with(lambda query, context: returned))
    assert result["status"] == "evidence-missing"
    assert result["bestValue"] is None and result["highestDetection"] is None


@pytest.mark.parametrize(
    "changes",
    [
        {"bestValue": {"modelId": "model-z"}},
        {"query": {**QUERY, "language": "en"}},
        {"query": {**QUERY, "cohortId": "cohort-2"}},
        {"surprise": True},
        {"status": "evidence-maybe"},
    ],
)
def test_malformed_or_mismatched_evidence_is_invalid_host_evidence(changes: dict[str, Any]) -> None:
    result = run(dispatcher_with(lambda query, context: evidence(**changes)))
    assert_no_model_chosen(result, "invalid-host-evidence")
    assert result["problems"] and all(isinstance(problem, str) for problem in result["problems"])


def test_a_model_id_the_host_does_not_have_is_refused() -> None:
    returned = evidence()
    returned["bestValue"]["modelId"] = "model-c"
    result = run(dispatcher_with(lambda query, context: returned))
    assert result["status"] == "invalid-host-evidence"


@pytest.mark.parametrize("value", [None, "evidence", 42, ["status"], object()])
def test_evidence_that_is_not_a_mapping_is_invalid_host_evidence(value: object) -> None:
    result = run(dispatcher_with(lambda query, context: value))
    assert_no_model_chosen(result, "invalid-host-evidence")


# --- what the callback receives ----------------------------------------------------------------


def test_the_callback_receives_a_frozen_query_and_context() -> None:
    seen: dict[str, Any] = {}

    def callback(query: Any, context: Any) -> dict[str, Any]:
        seen["query"], seen["context"] = query, context
        assert isinstance(query, Mapping) and isinstance(context, Mapping)
        assert dict(query) == QUERY
        assert set(context) == {"availableModelIds", "cohortIds"}
        assert context["availableModelIds"] == tuple(MODELS)
        assert context["cohortIds"] == tuple(COHORTS)
        attempts: list[Callable[[], object]] = [
            lambda: query.__setitem__("cohortId", "cohort-2"),
            lambda: query.__delitem__("role"),
            lambda: query.update({"role": "judge"}),
            lambda: context.__setitem__("cohortIds", ("x",)),
            lambda: context["cohortIds"].append("x"),
            lambda: context["availableModelIds"].__setitem__(0, "x"),
        ]
        for attempt in attempts:
            with pytest.raises((TypeError, AttributeError)):
                attempt()
        return evidence()

    assert run(dispatcher_with(callback))["status"] == "evidence-available"
    assert dict(seen["query"]) == QUERY
    assert run_async(dispatcher_with(callback))["status"] == "evidence-available"


def test_a_mutation_attempt_inside_the_callback_is_a_failed_callback_not_a_changed_query() -> None:
    def callback(query: Any, context: Any) -> dict[str, Any]:
        query["cohortId"] = "cohort-2"  # raises: the query is read-only
        return evidence(query={**QUERY, "cohortId": "cohort-2"})

    result = run(dispatcher_with(callback))
    assert_no_model_chosen(result, "host-evidence-failed")


def test_later_changes_to_the_host_id_lists_change_nothing() -> None:
    models, cohorts = list(MODELS), list(COHORTS)
    seen: list[Any] = []

    def callback(query: Any, context: Any) -> dict[str, Any]:
        seen.append(context)
        return evidence()

    dispatcher = create_writing_tool_dispatcher(
        model_comparison_context=ModelComparisonContext(available_model_ids=models, cohort_ids=cohorts),
        get_model_comparison_evidence=callback,
    )
    models.clear()
    models.append("model-z")
    cohorts[0] = "cohort-9"
    assert run(dispatcher)["status"] == "evidence-available"  # cohort-1 and model-a still known
    assert seen[-1]["availableModelIds"] == tuple(MODELS)
    assert seen[-1]["cohortIds"] == tuple(COHORTS)
    refused = dispatcher.dispatch(call({**QUERY, "cohortId": "cohort-9"}))
    assert refused["error"]["code"] == "invalid-selection"


# --- sync and async callbacks --------------------------------------------------------------------


def test_an_async_callback_is_awaited_by_dispatch_async() -> None:
    async def callback(query: Any, context: Any) -> dict[str, Any]:
        await asyncio.sleep(0)
        assert dict(query) == QUERY
        return evidence()

    assert run_async(dispatcher_with(callback)) == evidence()


def test_a_sync_callback_works_with_dispatch_async() -> None:
    assert run_async(dispatcher_with(lambda query, context: evidence())) == evidence()


def test_an_awaitable_returned_to_sync_dispatch_is_host_evidence_failed() -> None:
    async def callback(query: Any, context: Any) -> dict[str, Any]:
        return evidence()

    result = run(dispatcher_with(callback))
    assert_no_model_chosen(result, "host-evidence-failed")


def test_the_call_id_is_echoed_by_dispatch_async() -> None:
    result = asyncio.run(dispatcher_with(lambda q, c: evidence()).dispatch_async(call(call_id="c-9")))
    assert result["id"] == "c-9" and result["ok"] is True


def test_dispatch_async_runs_the_other_tools_too() -> None:
    dispatcher = dispatcher_with(None)
    for name, arguments in (
        ("get_writing_rules", {}),
        ("find_writing_signals", {"text": "A powerful API."}),
    ):
        request = {"name": name, "arguments": arguments}
        assert asyncio.run(dispatcher.dispatch_async(request)) == dispatcher.dispatch(request)
    bad = {"name": "nope", "arguments": {}}
    assert asyncio.run(dispatcher.dispatch_async(bad))["error"]["code"] == "unknown-tool"


# --- failures never leak ---------------------------------------------------------------------------


class HostError(Exception):
    pass


def _raise(error: BaseException) -> Callable[[Any, Any], Any]:
    def callback(query: Any, context: Any) -> Any:
        raise error

    return callback


def _raise_async(error: BaseException) -> Callable[[Any, Any], Any]:
    async def callback(query: Any, context: Any) -> Any:
        raise error

    return callback


@pytest.mark.parametrize(
    "error",
    [
        HostError(f"database password {SECRET}"),
        RuntimeError(SECRET),
        ValueError({"token": SECRET}),
        KeyError(SECRET),
        OSError(13, SECRET, SECRET),
    ],
)
def test_a_failing_callback_is_host_evidence_failed_and_its_text_is_never_echoed(error: Exception) -> None:
    for result in (
        dispatcher_with(_raise(error)).dispatch(call()),
        asyncio.run(dispatcher_with(_raise(error)).dispatch_async(call())),
        asyncio.run(dispatcher_with(_raise_async(error)).dispatch_async(call())),
    ):
        assert result["ok"] is True
        assert_no_model_chosen(result["data"], "host-evidence-failed")
        dumped = json.dumps(result, allow_nan=False)
        assert SECRET not in dumped
        assert "SECRET" not in dumped


@pytest.mark.parametrize("error", [KeyboardInterrupt(), SystemExit(3), asyncio.CancelledError()])
def test_base_exceptions_that_are_not_exceptions_propagate(error: BaseException) -> None:
    with pytest.raises(type(error)):
        dispatcher_with(_raise(error)).dispatch(call())
    with pytest.raises(type(error)):
        asyncio.run(dispatcher_with(_raise(error)).dispatch_async(call()))
    with pytest.raises(type(error)):
        asyncio.run(dispatcher_with(_raise_async(error)).dispatch_async(call()))


def test_no_other_model_language_profile_role_or_cohort_is_tried() -> None:
    queries: list[dict[str, str]] = []

    def callback(query: Any, context: Any) -> Any:
        queries.append(dict(query))
        raise HostError("down")

    dispatcher = dispatcher_with(callback)
    run(dispatcher)
    run(dispatcher, {**QUERY, "role": "judge"})
    assert queries == [QUERY, {**QUERY, "role": "judge"}]


def test_tool_four_needs_every_argument_and_knows_the_profiles() -> None:
    schema = next(tool for tool in data.tool_descriptors() if tool["name"] == TOOL)["inputSchema"]
    assert sorted(schema["required"]) == sorted(QUERY)
    assert schema["properties"]["role"]["enum"] == ["reviewer", "judge", "editor"]
    assert schema["properties"]["profile"]["enum"] == list(data.PROFILE_IDS)
