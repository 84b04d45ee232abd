"""parse_review_response: the reply is checked, each finding located or rejected with a reason."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules import _rules_data as data
from writing_rules.review import ReviewParse, parse_review_response
from writing_rules.tools import create_writing_tool_dispatcher

RULES = ("filler", "passive-voice")
DOC = "We really need to utilize this.\nThe file was written by the tool. 😀 Really great!\n"


def finding(quote: str, rule: str = "filler", **extra: Any) -> dict[str, Any]:
    return {"ruleId": rule, "quote": quote, "explanation": "why", "suggestion": "better", **extra}


def parse(items: list[Any], text: str = DOC, max_findings: int = 5, rules=RULES) -> ReviewParse:
    return parse_review_response(
        json.dumps({"findings": items}), text=text, rule_ids=list(rules), max_findings=max_findings
    )


def reasons(result: ReviewParse) -> list[str]:
    return [item["reason"] for item in result.rejected]


def test_exact_quote_is_located_with_signal_offsets() -> None:
    result = parse([finding("was written", "passive-voice")])
    assert result.rejected == ()
    (located,) = result.findings
    start = DOC.index("was written")
    assert located == {
        "ruleId": "passive-voice",
        "quote": "was written",
        "explanation": "why",
        "suggestion": "better",
        "match": "was written",
        "start": start,
        "end": start + len("was written"),
        "utf16Start": start,
        "utf16End": start + len("was written"),
        "line": 2,
        "column": 10,
    }


def test_offsets_after_an_astral_character_count_utf16_units_twice() -> None:
    (located,) = parse([finding("Really great")]).findings
    assert DOC[located["start"] : located["end"]] == "Really great"
    assert located["utf16Start"] == located["start"] + 1
    assert located["utf16End"] == located["end"] + 1
    assert (located["line"], located["column"]) == (2, DOC.split("\n")[1].index("Really") + 1)


def test_whitespace_tolerant_match_reports_the_documents_own_text() -> None:
    text = "Please  utilize\n\tthe\u00a0tool now."
    (located,) = parse([finding(" utilize the tool\n")], text=text).findings
    assert located["match"] == "utilize\n\tthe\u00a0tool"
    assert text[located["start"] : located["end"]] == located["match"]
    assert located["quote"] == " utilize the tool\n"


def test_nfc_normalised_comparison_maps_back_to_decomposed_document_text() -> None:
    text = "Das Ergebnis ist sche\u0301n und gut."
    quote = unicodedata.normalize("NFC", "sche\u0301n und")
    (located,) = parse([finding(quote)], text=text).findings
    assert located["match"] == "sche\u0301n und"
    assert text[located["start"] : located["end"]] == located["match"]


def test_whitespace_must_still_be_whitespace() -> None:
    result = parse([finding("reallyneed")])
    assert reasons(result) == ["not-located"]


def test_quote_at_two_places_is_ambiguous_and_not_guessed() -> None:
    result = parse([finding("the")], text="the cat and the dog")
    assert result.findings == ()
    assert reasons(result) == ["ambiguous"]
    assert "a longer quote" in result.rejected[0]["message"]


def test_overlapping_places_are_ambiguous_too() -> None:
    assert reasons(parse([finding("aa")], text="xaaax")) == ["ambiguous"]


def test_tolerant_match_at_two_places_is_ambiguous() -> None:
    assert reasons(parse([finding("a  b")], text="a b, a\nb")) == ["ambiguous"]


def test_unknown_quote_is_not_located() -> None:
    result = parse([finding("nowhere in the text")])
    assert reasons(result) == ["not-located"]
    assert result.rejected[0]["item"] == finding("nowhere in the text")


def test_rule_outside_the_selection_is_rejected_naming_the_selection() -> None:
    result = parse([finding("really", rule="long-sentences")])
    assert reasons(result) == ["rule-not-selected"]
    assert "filler, passive-voice" in result.rejected[0]["message"]


@pytest.mark.parametrize(
    "item",
    [
        "really",
        ["really"],
        None,
        {"ruleId": "filler", "quote": "really", "explanation": "why"},
        {**finding("really"), "severity": "high"},
        finding("really", suggestion=None),
        finding("really", explanation=3),
        {**finding("really"), "ruleId": ["filler"]},
        finding(""),
        finding("really", explanation=""),
    ],
)
def test_malformed_items_are_rejected_one_by_one(item: Any) -> None:
    result = parse([item, finding("utilize")])
    assert reasons(result) == ["malformed"]
    assert result.rejected[0]["item"] == item
    assert [located["match"] for located in result.findings] == ["utilize"]


def test_empty_suggestion_is_a_valid_finding() -> None:
    (located,) = parse([finding("really", suggestion="")]).findings
    assert located["suggestion"] == ""


def test_items_beyond_max_findings_are_rejected_and_only_valid_items_count() -> None:
    items = [finding("really"), "junk", finding("x", rule="long-sentences"), finding("utilize")]
    items += [finding("was written", "passive-voice"), finding("nowhere")]
    result = parse(items, max_findings=2)
    assert [located["match"] for located in result.findings] == ["really", "utilize"]
    assert reasons(result) == ["malformed", "rule-not-selected", "over-max-findings", "over-max-findings"]
    assert "at most 2 findings" in result.rejected[-1]["message"]


def test_an_unlocatable_item_still_uses_its_place_within_max_findings() -> None:
    result = parse([finding("nowhere"), finding("really")], max_findings=1)
    assert reasons(result) == ["not-located", "over-max-findings"]


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        ("", "not JSON"),
        ("{findings: []}", "not JSON"),
        ('```json\n{"findings": []}\n```', "code fence"),
        ('{"findings": [NaN]}', "not JSON"),
        ("[]", "JSON object"),
        ("null", "JSON object"),
        ('"findings"', "JSON object"),
        ("{}", 'no "findings"'),
        ('{"findings": [], "notes": "x"}', "'notes'"),
        ('{"findings": {}}', "must be an array"),
        ('{"findings": null}', "must be an array"),
        (b"\xff", "not UTF-8"),
        ("[" * 100_000, "not JSON"),
    ],
)
def test_a_reply_that_is_not_the_expected_object_raises_value_error(reply: Any, words: str) -> None:
    with pytest.raises(ValueError, match="(?i)" + re.escape(words)):
        parse_review_response(reply, text=DOC, rule_ids=RULES, max_findings=5)


def test_decoded_objects_and_utf8_bytes_are_accepted() -> None:
    reply = {"findings": [finding("really")]}
    from_object = parse_review_response(reply, text=DOC, rule_ids=RULES, max_findings=5)
    from_bytes = parse_review_response(json.dumps(reply).encode(), text=DOC, rule_ids=RULES, max_findings=5)
    assert from_object == from_bytes
    assert len(from_object.findings) == 1


def test_rejected_items_are_json_safe_copies() -> None:
    odd = {"ruleId": "filler", "quote": {1, 2}, "explanation": float("nan"), "suggestion": ("a", object())}
    reply = {"findings": [odd, {"nested": [[[[]]]], 7: "int key"}]}
    result = parse_review_response(reply, text=DOC, rule_ids=RULES, max_findings=5)
    assert reasons(result) == ["malformed", "malformed"]
    json.dumps([dict(item) for item in result.rejected], allow_nan=False)
    assert result.rejected[0]["item"]["quote"] == "<not JSON: set>"
    assert result.rejected[0]["item"]["suggestion"][0] == "a"
    assert result.rejected[1]["item"] == {"nested": [[[[]]]]}
    odd["ruleId"] = "changed"
    assert result.rejected[0]["item"]["ruleId"] == "filler"


def test_result_is_frozen() -> None:
    result = parse([finding("really")])
    with pytest.raises(AttributeError):
        result.findings = ()  # type: ignore[misc]
    assert isinstance(result.findings, tuple) and isinstance(result.rejected, tuple)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"text": b"bytes"}, TypeError),
        ({"text": None}, TypeError),
        ({"rule_ids": "filler"}, TypeError),
        ({"rule_ids": []}, ValueError),
        ({"rule_ids": ["filler", "filler"]}, ValueError),
        ({"rule_ids": ["no-such-rule"]}, ValueError),
        ({"rule_ids": [1]}, TypeError),
        ({"max_findings": 0}, ValueError),
        ({"max_findings": 21}, ValueError),
        ({"max_findings": True}, TypeError),
        ({"max_findings": 5.0}, TypeError),
    ],
)
def test_bad_host_arguments_raise(kwargs: dict[str, Any], error: type[Exception]) -> None:
    arguments: dict[str, Any] = {"text": DOC, "rule_ids": RULES, "max_findings": 5, **kwargs}
    with pytest.raises(error):
        parse_review_response('{"findings": []}', **arguments)


def test_checks_against_the_composers_schema_for_the_same_selection() -> None:
    dispatcher = create_writing_tool_dispatcher(review_context={"audience": "devs", "goal": "install"})
    composed = dispatcher.dispatch(
        {
            "name": "compose_writing_review_prompt",
            "arguments": {"profile": "public-docs", "maxFindings": 3},
        }
    )["data"]
    rule_ids = composed["ruleIds"]
    schema_rules = composed["responseSchema"]["properties"]["findings"]["items"]["properties"]["ruleId"]
    outside = next(rule_id for rule_id in data.RULE_IDS if rule_id not in rule_ids)
    items = [finding("really", rule=rule_ids[0]), finding("utilize", rule=outside)]
    result = parse(items, max_findings=composed["maxFindings"], rules=rule_ids)
    assert set(schema_rules["enum"]) == set(rule_ids)
    assert [located["ruleId"] for located in result.findings] == [rule_ids[0]]
    assert reasons(result) == ["rule-not-selected"]


# -- untrusted replies --------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
near_items = st.fixed_dictionaries(
    {
        "ruleId": st.sampled_from([*RULES, "long-sentences", ""]) | json_values,
        "quote": st.sampled_from(["really", "utilize", "the", " really  need ", "\ud800"]) | st.text(),
        "explanation": st.text(max_size=5) | json_values,
        "suggestion": st.text(max_size=5) | json_values,
    },
    optional={"extra": json_values},
)
replies = (
    json_values
    | st.builds(lambda items: {"findings": items}, st.lists(near_items | json_values, max_size=8))
    | st.builds(
        lambda items, extra: {"findings": items, **extra},
        st.lists(near_items),
        st.dictionaries(st.text(), json_values),
    )
)


@settings(max_examples=300, deadline=None)
@given(
    reply=replies,
    as_text=st.booleans(),
    text=st.sampled_from([DOC, "", "the the", "é\u0301 \r\n x"]) | st.text(),
    max_findings=st.integers(1, 20),
)
def test_junk_replies_raise_value_error_or_reject_item_by_item(
    reply: Any, as_text: bool, text: str, max_findings: int
) -> None:
    sent = json.dumps(reply) if as_text else reply
    expected_items = reply["findings"] if isinstance(reply, dict) and list(reply) == ["findings"] else None
    if isinstance(reply, dict) and "findings" in reply and not isinstance(reply["findings"], list):
        expected_items = None
    try:
        result = parse_review_response(sent, text=text, rule_ids=RULES, max_findings=max_findings)
    except ValueError:
        assert expected_items is None
        return
    assert expected_items is not None
    assert len(result.findings) + len(result.rejected) == len(expected_items)
    assert len(result.findings) <= max_findings
    json.dumps([*result.findings, *result.rejected], allow_nan=False)
    for located in result.findings:
        assert text[located["start"] : located["end"]] == located["match"]
        assert located["ruleId"] in RULES
    for rejected in result.rejected:
        assert rejected["reason"] in {
            "malformed",
            "rule-not-selected",
            "not-located",
            "ambiguous",
            "over-max-findings",
        }
        assert set(rejected) == {"item", "reason", "message"}


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="ab \n\té\u0301😀", max_size=40), data=st.data())
def test_a_slice_of_the_text_is_found_there_or_called_ambiguous(text: str, data: Any) -> None:
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    quote = text[start:end]
    result = parse([finding(quote)], text=text)
    places = [i for i in range(len(text)) if quote and text.startswith(quote, i)]
    if not quote:
        assert reasons(result) == ["malformed"]
    elif len(places) == 1:
        (located,) = result.findings
        assert (located["start"], located["end"]) == (start, end)
    else:
        assert reasons(result) == ["ambiguous"]
