"""Tool 4's evidence core: what a host's callback may return and what the model sees."""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Iterator, Mapping
from enum import IntEnum
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writing_rules.tools._evidence import (
    EVIDENCE_STATUSES,
    check_evidence,
    evidence_failed,
    evidence_missing,
    freeze_context,
    freeze_query,
)

MODELS = ("model-a", "model-b")
QUERY = freeze_query("de", "public-docs", "reviewer", "public-docs-held-out-v1")
PLAIN_QUERY = {
    "language": "de",
    "profile": "public-docs",
    "role": "reviewer",
    "cohortId": "public-docs-held-out-v1",
}
SHA = "0123456789abcdef" * 4
NO_SELECTION = {"bestValue": None, "highestDetection": None, "sources": []}


def selection(**changes: Any) -> dict[str, Any]:
    """A selection that qualifies for both bestValue and highestDetection."""
    data: dict[str, Any] = {
        "modelId": "model-a",
        "sourceIds": ["run-1"],
        "independentlyJudged": True,
        "reviews": {"planned": 10, "judged": 9, "acceptedComplete": 8},
        "detection": {"detected": 7, "expected": 12},
        "falseEditSuggestions": 2,
        "cost": {"usd": 3.25, "includesFailedAttempts": True, "includesRetries": True},
        "limitations": ["German only."],
    }
    data.update(changes)
    return data


def evidence(**changes: Any) -> dict[str, Any]:
    """Valid evidence with both selections; ``changes`` replace top-level fields."""
    data: dict[str, Any] = {
        "status": "evidence-available",
        "query": dict(PLAIN_QUERY),
        "bestValue": selection(),
        "highestDetection": selection(modelId="model-b", sourceIds=["run-1", "run-2"]),
        "sources": [
            {"id": "run-1", "location": "reports/run-1.json", "sha256": SHA},
            {"id": "run-2", "location": "s3://bucket/run-2.json", "sha256": "f" * 64},
        ],
        "explanation": "Both models were reviewed on the held-out cohort.",
        "limitations": ["Small cohort."],
    }
    data.update(changes)
    return data


def check(value: object) -> dict[str, Any]:
    result = check_evidence(value, query=QUERY, available_model_ids=MODELS)
    json.dumps(result, allow_nan=False)  # every result goes straight back to the model
    return result


def problems_of(value: object) -> list[str]:
    result = check(value)
    assert result["status"] == "invalid-host-evidence", result
    assert result["bestValue"] is None
    assert result["highestDetection"] is None
    assert result["sources"] == []
    assert result["query"] == PLAIN_QUERY
    assert result["problems"]
    return result["problems"]


def assert_problem_at(value: object, path: str) -> list[str]:
    problems = problems_of(value)
    assert any(problem.startswith(f"{path}: ") for problem in problems), problems
    return problems


def assert_accepted(value: object) -> dict[str, Any]:
    result = check(value)
    assert result["status"] in ("evidence-available", "evidence-missing"), result.get("problems")
    assert "problems" not in result
    return result


def with_path(path: tuple[str | int, ...], value: Any, base: dict[str, Any] | None = None) -> dict[str, Any]:
    """Valid evidence with the value at ``path`` replaced (or removed when value is DELETE)."""
    data = evidence() if base is None else base
    target: Any = data
    for part in path[:-1]:
        target = target[part]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


DELETE = object()


# --- the statuses and the plain results -----------------------------------------------------


def test_statuses_are_the_four_of_the_contract_in_order() -> None:
    assert EVIDENCE_STATUSES == (
        "evidence-available",
        "evidence-missing",
        "host-evidence-failed",
        "invalid-host-evidence",
    )


def test_evidence_missing_chooses_no_model_and_echoes_the_request() -> None:
    result = evidence_missing(QUERY, "No comparison is configured.", ["Ask the host."])
    assert result == {
        "status": "evidence-missing",
        "query": PLAIN_QUERY,
        **NO_SELECTION,
        "explanation": "No comparison is configured.",
        "limitations": ["Ask the host."],
    }
    assert type(result["query"]) is dict
    json.dumps(result, allow_nan=False)


def test_evidence_missing_refuses_a_single_string_as_limitations() -> None:
    with pytest.raises(TypeError):
        evidence_missing(QUERY, "No comparison.", "one limitation")  # type: ignore[arg-type]


class _SecretError(Exception):
    pass


def test_evidence_failed_names_the_type_but_never_the_message() -> None:
    result = evidence_failed(QUERY, _SecretError("token=sk-live-123 at db://admin:pw@host"))
    text = json.dumps(result, allow_nan=False)
    assert "sk-live-123" not in text
    assert "admin:pw" not in text
    assert result["status"] == "host-evidence-failed"
    assert "_SecretError" in result["explanation"]
    assert {key: result[key] for key in NO_SELECTION} == NO_SELECTION
    assert result["query"] == PLAIN_QUERY


def test_evidence_failed_survives_an_exception_whose_text_cannot_be_built() -> None:
    class Unprintable(Exception):
        def __str__(self) -> str:
            raise RuntimeError("boom")

    assert evidence_failed(QUERY, Unprintable())["status"] == "host-evidence-failed"


def test_evidence_failed_does_not_name_an_exception_type_that_is_not_an_identifier() -> None:
    odd = type("password=hunter2", (Exception,), {})
    result = evidence_failed(QUERY, odd())
    assert "hunter2" not in json.dumps(result)


# --- freezing the callback's view --------------------------------------------------------------


def test_frozen_query_has_the_four_camelcase_keys_and_refuses_assignment() -> None:
    query = freeze_query("en", "product-copy", "judge", "cohort-1")
    assert dict(query) == {
        "language": "en",
        "profile": "product-copy",
        "role": "judge",
        "cohortId": "cohort-1",
    }
    with pytest.raises(TypeError):
        query["role"] = "editor"  # type: ignore[index]
    with pytest.raises(TypeError):
        del query["role"]  # type: ignore[attr-defined]


def test_frozen_query_refuses_non_strings() -> None:
    with pytest.raises(TypeError):
        freeze_query("en", "public-docs", "judge", 7)  # type: ignore[arg-type]


def test_frozen_query_copies_string_subclasses_to_plain_strings() -> None:
    class Tagged(str):
        pass

    query = freeze_query(Tagged("en"), "public-docs", "judge", "c")
    assert type(query["language"]) is str


def test_frozen_context_holds_tuples_that_ignore_later_changes_of_the_host_lists() -> None:
    models = ["model-a"]
    cohorts = ["cohort-1", "cohort-2"]
    context = freeze_context(models, cohorts)
    models.append("model-z")
    cohorts.clear()
    assert context["availableModelIds"] == ("model-a",)
    assert context["cohortIds"] == ("cohort-1", "cohort-2")
    assert type(context["availableModelIds"]) is tuple
    with pytest.raises(TypeError):
        context["cohortIds"] = ("other",)  # type: ignore[index]
    with pytest.raises(AttributeError):
        context["cohortIds"].append("other")  # type: ignore[attr-defined]


def test_frozen_context_refuses_a_single_string_or_non_string_ids() -> None:
    with pytest.raises(TypeError):
        freeze_context("model-a", ["c"])
    with pytest.raises(TypeError):
        freeze_context(["model-a", 3], ["c"])  # type: ignore[list-item]


# --- valid evidence ---------------------------------------------------------------------------


def test_valid_evidence_comes_back_equal_in_plain_types() -> None:
    host = evidence(query=QUERY)  # a host may echo the read-only query it received
    result = assert_accepted(host)
    assert result == evidence()
    assert list(result) == [
        "status",
        "query",
        "bestValue",
        "highestDetection",
        "sources",
        "explanation",
        "limitations",
    ]
    assert type(result["query"]) is dict


def test_returned_copy_shares_no_container_with_the_host_objects() -> None:
    host = evidence()
    result = assert_accepted(host)
    snapshot = copy.deepcopy(result)

    def containers(value: Any) -> Iterator[int]:
        if isinstance(value, (dict, list)):
            yield id(value)
            for item in value.values() if isinstance(value, dict) else value:
                yield from containers(item)

    assert not set(containers(result)) & set(containers(host))
    host["bestValue"]["reviews"]["judged"] = 0
    host["bestValue"]["sourceIds"].append("run-9")
    host["sources"].clear()
    host["limitations"][0] = "changed"
    host["query"]["role"] = "editor"
    assert result == snapshot


def test_subclassed_host_values_are_copied_as_plain_json_types() -> None:
    class Count(IntEnum):
        TEN = 10

    class Text(str):
        def __str__(self) -> str:
            return "not what was stored"

    class Number(float):
        pass

    host = evidence(explanation=Text("Reviewed."), limitations=(Text("Tuple."),))
    host["bestValue"]["reviews"]["planned"] = Count.TEN
    host["bestValue"]["cost"]["usd"] = Number(2.5)
    result = assert_accepted(host)
    assert type(result["explanation"]) is str
    assert result["explanation"] == "Reviewed."
    assert result["limitations"] == ["Tuple."]
    assert type(result["bestValue"]["reviews"]["planned"]) is int
    assert type(result["bestValue"]["cost"]["usd"]) is float


def test_unknown_figures_stay_null_and_are_never_filled_with_zero() -> None:
    best = selection(detection={"detected": None, "expected": None}, falseEditSuggestions=None)
    detection = selection(cost=None, detection={"detected": 0, "expected": 4})
    result = assert_accepted(evidence(bestValue=best, highestDetection=detection))
    assert result["bestValue"]["detection"] == {"detected": None, "expected": None}
    assert result["bestValue"]["falseEditSuggestions"] is None
    assert result["highestDetection"]["cost"] is None
    assert result["highestDetection"]["detection"]["detected"] == 0


def test_one_known_detection_figure_may_stand_next_to_an_unknown_one() -> None:
    best = selection(detection={"detected": 50, "expected": None})
    result = assert_accepted(evidence(bestValue=best, highestDetection=None))
    assert result["bestValue"]["detection"] == {"detected": 50, "expected": None}


# --- the evidence object ----------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, [], "evidence", 3, 2.5, True, {1, 2}, b"{}", object()])
def test_evidence_must_be_an_object(value: object) -> None:
    [problem] = problems_of(value)
    assert problem.startswith("evidence: expected an object with the fields status, query")


@pytest.mark.parametrize(
    "field", ["status", "query", "bestValue", "highestDetection", "sources", "explanation", "limitations"]
)
def test_every_field_is_required(field: str) -> None:
    problems = assert_problem_at(with_path((field,), DELETE), "evidence")
    assert any(f"missing field {field}" in problem for problem in problems)


def test_fields_the_contract_does_not_name_are_refused() -> None:
    problems = assert_problem_at(evidence(recommendedModel="model-b"), "evidence")
    assert any("unexpected field 'recommendedModel'" in problem for problem in problems)


def test_keys_must_be_strings() -> None:
    host: dict[Any, Any] = evidence()
    host[("status",)] = "x"
    problems = assert_problem_at(host, "evidence")
    assert any("keys must be strings" in problem for problem in problems)


def test_all_problems_are_collected_not_just_the_first() -> None:
    host = evidence(status="done", explanation=" ", limitations="none")
    host["query"]["role"] = "judge"
    host["bestValue"]["reviews"]["judged"] = -1
    problems = problems_of(host)
    for path in ("status", "explanation", "limitations", "query.role", "bestValue.reviews.judged"):
        assert any(problem.startswith(f"{path}: ") for problem in problems), (path, problems)


def test_a_long_problem_list_is_cut_and_says_how_many_more() -> None:
    problems = problems_of(evidence(limitations=[1] * 500))
    assert len(problems) == 100
    assert problems[-1] == "... and 401 more problems"


# --- status -----------------------------------------------------------------------------------


@pytest.mark.parametrize("status", ["invalid-host-evidence", "host-evidence-failed", "EVIDENCE-AVAILABLE", "", None, 1])
def test_status_must_be_one_of_the_two_host_statuses(status: object) -> None:
    assert_problem_at(evidence(status=status), "status")


def test_evidence_available_needs_at_least_one_selection() -> None:
    problems = assert_problem_at(evidence(bestValue=None, highestDetection=None), "status")
    assert any("at least one selection" in problem for problem in problems)
    assert assert_accepted(evidence(highestDetection=None))["highestDetection"] is None
    assert assert_accepted(evidence(bestValue=None))["bestValue"] is None


@pytest.mark.parametrize("field", ["bestValue", "highestDetection"])
def test_evidence_missing_needs_both_selections_null(field: str) -> None:
    host = evidence(status="evidence-missing", bestValue=None, highestDetection=None)
    host[field] = selection()
    assert_problem_at(host, field)


def test_evidence_missing_may_have_no_sources_or_keep_its_sources() -> None:
    empty = assert_accepted(evidence(status="evidence-missing", **NO_SELECTION))
    assert empty["status"] == "evidence-missing"
    assert empty["sources"] == []
    kept = assert_accepted(evidence(status="evidence-missing", bestValue=None, highestDetection=None))
    assert len(kept["sources"]) == 2


# --- the exact query --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("language", "en"),
        ("profile", "product-copy"),
        ("role", "judge"),
        ("cohortId", "public-docs-held-out-v2"),
        ("cohortId", "public-docs-held-out-v1 "),
        ("language", "DE"),
    ],
)
def test_query_must_equal_the_request_exactly(key: str, value: str) -> None:
    host = evidence()
    host["query"][key] = value
    problems = assert_problem_at(host, f"query.{key}")
    assert any("must equal the request exactly" in problem for problem in problems)


def test_query_may_not_be_a_superset_of_the_request() -> None:
    host = evidence(query={**PLAIN_QUERY, "modelId": "model-b"})
    assert_problem_at(host, "query")


def test_query_may_not_lack_a_key() -> None:
    host = evidence(query={key: value for key, value in PLAIN_QUERY.items() if key != "role"})
    assert any("missing field role" in problem for problem in assert_problem_at(host, "query"))


@pytest.mark.parametrize("value", [None, ["de"], 1])
def test_query_values_must_be_strings(value: object) -> None:
    host = evidence()
    host["query"]["language"] = value
    assert_problem_at(host, "query.language")


@pytest.mark.parametrize("value", [None, [], "de/public-docs", tuple(PLAIN_QUERY.items())])
def test_query_must_be_an_object(value: object) -> None:
    assert_problem_at(evidence(query=value), "query")


# --- sources ----------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, {}, "run-1", {"run-1"}])
def test_sources_must_be_an_array(value: object) -> None:
    assert_problem_at(
        evidence(status="evidence-missing", bestValue=None, highestDetection=None, sources=value), "sources"
    )


def test_sources_may_be_a_tuple_and_come_back_as_a_list() -> None:
    host = evidence()
    host["sources"] = tuple(host["sources"])
    assert type(assert_accepted(host)["sources"]) is list


@pytest.mark.parametrize("value", ["run-1", None, ["run-1"]])
def test_each_source_must_be_an_object(value: object) -> None:
    host = evidence()
    host["sources"][1] = value
    assert_problem_at(host, "sources[1]")


def test_a_source_has_exactly_id_location_and_sha256() -> None:
    host = evidence()
    host["sources"][0]["size"] = 10
    assert_problem_at(host, "sources[0]")
    host = evidence()
    del host["sources"][0]["sha256"]
    assert_problem_at(host, "sources[0]")


@pytest.mark.parametrize("value", ["", "   ", None, 1])
def test_source_id_must_be_a_non_blank_string(value: object) -> None:
    assert_problem_at(with_path(("sources", 0, "id"), value), "sources[0].id")


def test_source_ids_must_be_unique() -> None:
    host = evidence()
    host["sources"][1]["id"] = "run-1"
    assert_problem_at(host, "sources[1].id")


@pytest.mark.parametrize("value", ["", "\n", None, ["reports/run-1.json"]])
def test_source_location_must_be_a_non_blank_string(value: object) -> None:
    assert_problem_at(with_path(("sources", 0, "location"), value), "sources[0].location")


@pytest.mark.parametrize(
    "value",
    [SHA.upper(), SHA[:-1], SHA + "0", "g" * 64, SHA[:-1] + "\n", " " + SHA[1:], "", None, 0],
)
def test_source_sha256_must_be_64_lowercase_hex_characters(value: object) -> None:
    assert_problem_at(with_path(("sources", 0, "sha256"), value), "sources[0].sha256")


# --- explanation and limitations ---------------------------------------------------------------


@pytest.mark.parametrize("value", ["", " \t\n", None, ["Reviewed."]])
def test_explanation_must_be_a_non_blank_string(value: object) -> None:
    assert_problem_at(evidence(explanation=value), "explanation")


@pytest.mark.parametrize(
    ("value", "path"),
    [("Small cohort.", "limitations"), (None, "limitations"), (["ok", 3], "limitations[1]")],
)
def test_limitations_must_be_a_list_of_strings(value: object, path: str) -> None:
    assert_problem_at(evidence(limitations=value), path)
    assert assert_accepted(evidence(limitations=[]))["limitations"] == []


@pytest.mark.parametrize(
    ("value", "path"),
    [("Small cohort.", "bestValue.limitations"), ([None], "bestValue.limitations[0]")],
)
def test_selection_limitations_must_be_a_list_of_strings(value: object, path: str) -> None:
    assert_problem_at(with_path(("bestValue", "limitations"), value), path)
    assert assert_accepted(with_path(("bestValue", "limitations"), []))


# --- selections -------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["model-a", [], 3])
def test_selection_must_be_an_object_or_null(value: object) -> None:
    assert_problem_at(evidence(bestValue=value), "bestValue")


def test_selection_has_exactly_the_contract_fields() -> None:
    assert_problem_at(with_path(("bestValue", "score"), 0.9), "bestValue")
    assert_problem_at(with_path(("highestDetection", "cost"), DELETE), "highestDetection")


@pytest.mark.parametrize("value", ["model-c", "MODEL-A", "", None, ["model-a"]])
def test_model_id_must_be_one_of_the_host_model_ids(value: object) -> None:
    assert_problem_at(with_path(("highestDetection", "modelId"), value), "highestDetection.modelId")
    accepted = assert_accepted(with_path(("highestDetection", "modelId"), "model-a"))
    assert accepted["highestDetection"]["modelId"] == "model-a"


@pytest.mark.parametrize(
    ("value", "path"),
    [
        ([], "bestValue.sourceIds"),
        (["run-3"], "bestValue.sourceIds[0]"),
        (["run-1", "run-1"], "bestValue.sourceIds[1]"),
        ("run-1", "bestValue.sourceIds"),
        ([1], "bestValue.sourceIds[0]"),
        (None, "bestValue.sourceIds"),
    ],
)
def test_source_ids_name_at_least_one_listed_source_each_once(value: object, path: str) -> None:
    assert_problem_at(with_path(("bestValue", "sourceIds"), value), path)
    assert assert_accepted(with_path(("bestValue", "sourceIds"), ("run-2", "run-1")))


@pytest.mark.parametrize("value", [1, 0, "true", None])
def test_independently_judged_must_be_a_real_boolean(value: object) -> None:
    assert_problem_at(with_path(("bestValue", "independentlyJudged"), value), "bestValue.independentlyJudged")


@pytest.mark.parametrize("field", ["planned", "judged", "acceptedComplete"])
@pytest.mark.parametrize("value", [-1, True, 2.0, 2.5, "3", None, 2**53, 10**20])
def test_review_counts_must_be_integers_from_zero(field: str, value: object) -> None:
    assert_problem_at(with_path(("bestValue", "reviews", field), value), f"bestValue.reviews.{field}")


def test_a_count_too_large_to_print_is_still_reported() -> None:
    [problem] = problems_of(with_path(("bestValue", "reviews", "planned"), 10**5000))
    assert problem.startswith("bestValue.reviews.planned: is an integer too large to show")


def test_review_counts_may_be_equal_and_zero_where_no_selection_needs_more() -> None:
    reviews = {"planned": 0, "judged": 0, "acceptedComplete": 0}
    result = assert_accepted(with_path(("highestDetection", "reviews"), reviews))
    assert result["highestDetection"]["reviews"] == reviews
    equal = {"planned": 4, "judged": 4, "acceptedComplete": 4}
    assert assert_accepted(with_path(("bestValue", "reviews"), equal))


def test_judged_reviews_cannot_exceed_planned_ones() -> None:
    reviews = {"planned": 3, "judged": 4, "acceptedComplete": 1}
    assert_problem_at(with_path(("bestValue", "reviews"), reviews), "bestValue.reviews.judged")


def test_accepted_complete_reviews_cannot_exceed_judged_ones() -> None:
    reviews = {"planned": 5, "judged": 2, "acceptedComplete": 3}
    assert_problem_at(with_path(("bestValue", "reviews"), reviews), "bestValue.reviews.acceptedComplete")


def test_reviews_have_exactly_three_counts() -> None:
    assert_problem_at(with_path(("bestValue", "reviews", "rejected"), 1), "bestValue.reviews")
    assert_problem_at(with_path(("bestValue", "reviews", "planned"), DELETE), "bestValue.reviews")
    assert_problem_at(with_path(("bestValue", "reviews"), None), "bestValue.reviews")


@pytest.mark.parametrize("field", ["detected", "expected"])
@pytest.mark.parametrize("value", [-1, False, 1.0, "2"])
def test_detection_counts_are_integers_from_zero_or_null(field: str, value: object) -> None:
    assert_problem_at(with_path(("bestValue", "detection", field), value), f"bestValue.detection.{field}")


def test_detected_cannot_exceed_expected_when_both_are_known() -> None:
    detection = {"detected": 13, "expected": 12}
    assert_problem_at(with_path(("bestValue", "detection"), detection), "bestValue.detection.detected")
    assert assert_accepted(with_path(("bestValue", "detection"), {"detected": 12, "expected": 12}))


def test_detection_is_an_object_with_exactly_two_counts() -> None:
    assert_problem_at(with_path(("bestValue", "detection"), None), "bestValue.detection")
    assert_problem_at(with_path(("bestValue", "detection", "missed"), 1), "bestValue.detection")


@pytest.mark.parametrize("value", [-1, True, 1.0, "0"])
def test_false_edit_suggestions_is_an_integer_from_zero_or_null(value: object) -> None:
    assert_problem_at(with_path(("bestValue", "falseEditSuggestions"), value), "bestValue.falseEditSuggestions")
    assert assert_accepted(with_path(("bestValue", "falseEditSuggestions"), 0))


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, -0.01, -1, True, "3.25", None, 2**60])
def test_cost_usd_is_a_finite_number_from_zero(value: object) -> None:
    assert_problem_at(with_path(("bestValue", "cost", "usd"), value), "bestValue.cost.usd")


def test_cost_usd_may_be_zero_or_an_integer() -> None:
    assert assert_accepted(with_path(("bestValue", "cost", "usd"), 0))["bestValue"]["cost"]["usd"] == 0
    assert assert_accepted(with_path(("bestValue", "cost", "usd"), 0.0))


@pytest.mark.parametrize("field", ["includesFailedAttempts", "includesRetries"])
@pytest.mark.parametrize("value", [1, "true", None])
def test_cost_flags_must_be_real_booleans(field: str, value: object) -> None:
    assert_problem_at(with_path(("highestDetection", "cost", field), value), f"highestDetection.cost.{field}")


def test_cost_is_null_or_an_object_with_exactly_three_fields() -> None:
    assert_problem_at(with_path(("highestDetection", "cost"), 3.25), "highestDetection.cost")
    assert_problem_at(with_path(("highestDetection", "cost", "currency"), "USD"), "highestDetection.cost")
    assert assert_accepted(with_path(("highestDetection", "cost"), None))


def test_a_cost_may_leave_out_failed_attempts_where_no_best_value_rests_on_it() -> None:
    cost = {"usd": 1.0, "includesFailedAttempts": False, "includesRetries": False}
    result = assert_accepted(with_path(("highestDetection", "cost"), cost))
    assert result["highestDetection"]["cost"] == cost


# --- what a best-value selection needs --------------------------------------------------------


def test_best_value_needs_independently_judged_reviews() -> None:
    host = with_path(("bestValue", "independentlyJudged"), False)
    assert_problem_at(host, "bestValue.independentlyJudged")
    assert assert_accepted(with_path(("bestValue", "independentlyJudged"), True))


def test_best_value_needs_an_accepted_complete_review() -> None:
    reviews = {"planned": 3, "judged": 3, "acceptedComplete": 0}
    assert_problem_at(with_path(("bestValue", "reviews"), reviews), "bestValue.reviews.acceptedComplete")
    assert assert_accepted(with_path(("bestValue", "reviews"), {**reviews, "acceptedComplete": 1}))


def test_best_value_needs_a_known_cost() -> None:
    assert_problem_at(with_path(("bestValue", "cost"), None), "bestValue.cost")


@pytest.mark.parametrize("field", ["includesFailedAttempts", "includesRetries"])
def test_best_value_cost_must_include_failed_and_retried_attempts(field: str) -> None:
    assert_problem_at(with_path(("bestValue", "cost", field), False), f"bestValue.cost.{field}")


# --- what a highest-detection selection needs -------------------------------------------------


def test_highest_detection_needs_independently_judged_problems() -> None:
    host = with_path(("highestDetection", "independentlyJudged"), False)
    assert_problem_at(host, "highestDetection.independentlyJudged")


@pytest.mark.parametrize("field", ["detected", "expected"])
def test_highest_detection_needs_known_detection_counts(field: str) -> None:
    host = with_path(("highestDetection", "detection", field), None)
    assert_problem_at(host, f"highestDetection.detection.{field}")


def test_highest_detection_needs_a_known_count_of_false_edit_suggestions() -> None:
    host = with_path(("highestDetection", "falseEditSuggestions"), None)
    assert_problem_at(host, "highestDetection.falseEditSuggestions")
    assert assert_accepted(with_path(("highestDetection", "falseEditSuggestions"), 0))


# --- hostile host objects ---------------------------------------------------------------------


class _Exploding(Mapping[str, Any]):
    """A mapping whose methods fail the way a broken host object might."""

    def __init__(self, data: dict[str, Any], fail: str) -> None:
        self._data = data
        self._fail = fail

    def __getitem__(self, key: str) -> Any:
        if self._fail == "getitem":
            raise KeyError("secret-key-material")
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        if self._fail == "iter":
            raise RuntimeError("secret-key-material")
        if self._fail == "endless":
            while True:
                yield "status"
        return iter(self._data)

    def __len__(self) -> int:
        raise RuntimeError("secret-key-material")


@pytest.mark.parametrize("fail", ["getitem", "iter", "endless"])
def test_a_mapping_whose_methods_fail_is_a_problem_not_a_crash(fail: str) -> None:
    problems = problems_of(_Exploding(evidence(), fail))
    assert "secret-key-material" not in json.dumps(problems)


def test_a_failing_nested_mapping_is_reported_at_its_path() -> None:
    host = evidence()
    host["bestValue"]["cost"] = _Exploding(host["bestValue"]["cost"], "iter")
    assert_problem_at(host, "bestValue.cost")


def test_a_read_only_mapping_proxy_from_the_host_is_read_normally() -> None:
    from types import MappingProxyType

    host = evidence()
    host["bestValue"] = MappingProxyType(host["bestValue"])
    assert assert_accepted(MappingProxyType(host))["bestValue"] == selection()


def test_hostile_equality_hashing_and_class_forgery_are_not_trusted() -> None:
    class Liar(str):
        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return hash("model-a")

    class Forged:
        @property  # type: ignore[misc]
        def __class__(self) -> type:
            return str

    class Raising:
        @property  # type: ignore[misc]
        def __class__(self) -> type:
            raise RuntimeError("no")

    assert_problem_at(with_path(("bestValue", "modelId"), Liar("model-x")), "bestValue.modelId")
    assert_problem_at(evidence(explanation=Forged()), "explanation")
    assert_problem_at(evidence(explanation=Raising()), "explanation")
    assert_problem_at(Raising(), "evidence")


def test_a_list_that_never_ends_is_cut_off() -> None:
    class Endless(list):  # type: ignore[type-arg]
        def __iter__(self) -> Iterator[str]:
            while True:
                yield "again"

    problems = assert_problem_at(evidence(limitations=Endless()), "limitations")
    assert any("more than 10000 items" in problem for problem in problems)


def test_cycles_and_deep_nesting_are_problems_not_crashes() -> None:
    host = evidence()
    host["query"] = {**PLAIN_QUERY, "language": host}
    host["bestValue"]["limitations"] = host["bestValue"]["limitations"]
    host["bestValue"]["limitations"].append(host["bestValue"]["limitations"])
    deep: list[Any] = []
    for _ in range(200_000):
        deep = [deep]
    host["limitations"] = deep
    problems = problems_of(host)
    assert any(problem.startswith("query.language: ") for problem in problems)
    assert any(problem.startswith("bestValue.limitations[1]: ") for problem in problems)
    assert any(problem.startswith("limitations[0]: ") for problem in problems)


def test_an_interrupt_raised_by_a_host_object_propagates() -> None:
    class Interrupting(Mapping[str, Any]):
        def __getitem__(self, key: str) -> Any:
            raise KeyError(key)

        def __iter__(self) -> Iterator[str]:
            raise KeyboardInterrupt

        def __len__(self) -> int:
            return 0

    with pytest.raises(KeyboardInterrupt):
        check(Interrupting())


# --- properties over untrusted input ----------------------------------------------------------

_leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(st.characters(exclude_categories=()))  # lone surrogates included
    | st.binary(max_size=4)
    | st.sampled_from(["evidence-available", "evidence-missing", "model-a", "run-1", SHA, *PLAIN_QUERY.values()])
)
_keys = st.sampled_from(
    ["status", "query", "bestValue", "sources", "id", "modelId", "reviews", "usd", *PLAIN_QUERY]
) | st.text(max_size=5)
_junk = st.recursive(
    _leaves,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(_keys | st.integers() | st.none(), inner, max_size=5)
        | st.frozensets(st.integers(), max_size=3)
    ),
    max_leaves=30,
)
_paths = st.sampled_from(
    [
        ("status",),
        ("query",),
        ("query", "cohortId"),
        ("bestValue",),
        ("bestValue", "modelId"),
        ("bestValue", "sourceIds"),
        ("bestValue", "independentlyJudged"),
        ("bestValue", "reviews"),
        ("bestValue", "reviews", "acceptedComplete"),
        ("bestValue", "detection", "expected"),
        ("bestValue", "falseEditSuggestions"),
        ("bestValue", "cost"),
        ("bestValue", "cost", "usd"),
        ("highestDetection",),
        ("highestDetection", "detection"),
        ("sources",),
        ("sources", 0),
        ("sources", 1, "sha256"),
        ("explanation",),
        ("limitations",),
        ("extra",),
    ]
)


def _assert_sound(result: dict[str, Any]) -> None:
    json.dumps(result, allow_nan=False)
    assert result["status"] in EVIDENCE_STATUSES
    assert result["status"] != "host-evidence-failed"
    if result["status"] == "invalid-host-evidence":
        assert result["bestValue"] is None
        assert result["highestDetection"] is None
        assert result["problems"]
        assert all(isinstance(problem, str) for problem in result["problems"])
    else:
        assert "problems" not in result
        assert result["query"] == PLAIN_QUERY
        # A valid copy validates again to itself: nothing was dropped or invented.
        assert check(copy.deepcopy(result)) == result


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(_junk)
def test_arbitrary_junk_never_raises_and_gives_json_with_a_valid_status(value: object) -> None:
    _assert_sound(check_evidence(value, query=QUERY, available_model_ids=MODELS))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(_paths, _junk)
def test_junk_anywhere_inside_valid_evidence_never_raises(path: tuple[str | int, ...], value: object) -> None:
    _assert_sound(check_evidence(with_path(path, value), query=QUERY, available_model_ids=MODELS))


_counts = st.integers(min_value=0, max_value=1000)


@st.composite
def _valid_evidence(draw: st.DrawFn) -> dict[str, Any]:
    source_ids = draw(st.lists(st.text(min_size=1).filter(str.strip), min_size=1, max_size=4, unique=True))
    sources = [
        {"id": sid, "location": draw(st.text(min_size=1).filter(str.strip)), "sha256": SHA} for sid in source_ids
    ]

    def one(kind: str) -> dict[str, Any]:
        # Build the counts upwards so acceptedComplete <= judged <= planned always holds.
        accepted = draw(st.integers(1 if kind == "best" else 0, 1000))
        judged = accepted + draw(_counts)
        planned = judged + draw(_counts)
        expected = draw(_counts)
        nullable = st.none() if kind == "detection" else st.none() | _counts
        return {
            "modelId": draw(st.sampled_from(MODELS)),
            "sourceIds": draw(st.lists(st.sampled_from(source_ids), min_size=1, unique=True)),
            "independentlyJudged": True,
            "reviews": {"planned": planned, "judged": judged, "acceptedComplete": accepted},
            "detection": {
                "detected": draw(st.integers(0, expected)) if kind == "detection" else draw(st.none() | _counts),
                "expected": expected if kind == "detection" else None,
            },
            "falseEditSuggestions": draw(_counts) if kind == "detection" else draw(nullable),
            "cost": {
                "usd": draw(st.floats(min_value=0, max_value=1e6) | _counts),
                "includesFailedAttempts": True,
                "includesRetries": True,
            }
            if kind == "best"
            else None,
            "limitations": draw(st.lists(st.text(), max_size=2)),
        }

    best = draw(st.none() | st.just("best"))
    detection = draw(st.none() | st.just("detection"))
    available = best is not None or detection is not None
    return evidence(
        status="evidence-available" if available else "evidence-missing",
        bestValue=one("best") if best else None,
        highestDetection=one("detection") if detection else None,
        sources=sources,
        explanation=draw(st.text(min_size=1).filter(str.strip)),
        limitations=draw(st.lists(st.text(), max_size=3)),
    )


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(_valid_evidence())
def test_valid_evidence_is_accepted_unchanged(host: dict[str, Any]) -> None:
    snapshot = copy.deepcopy(host)
    result = check(host)
    assert result == snapshot
    assert host == snapshot  # the host's objects are read, never changed
