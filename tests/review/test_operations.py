"""findings_to_operations: located findings become replaceBlock edits that hit exactly their place."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules.documents import apply_operations
from writing_rules.review import findings_to_operations, parse_review_response
from writing_rules.tools import TextIndex


def located(text: str, start: int, end: int, suggestion: str, rule: str = "filler") -> dict[str, Any]:
    index = TextIndex(text, "en")
    line, column = index.line_column(start)
    return {
        "ruleId": rule,
        "quote": text[start:end],
        "explanation": "why",
        "suggestion": suggestion,
        "match": text[start:end],
        "start": start,
        "end": end,
        "utf16Start": index.utf16_offset(start),
        "utf16End": index.utf16_offset(end),
        "line": line,
        "column": column,
    }


def replaced(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, suggestion in sorted(edits, reverse=True):
        text = text[:start] + suggestion + text[end:]
    return text


def test_a_parsed_reply_becomes_edits_that_apply() -> None:
    text = "We really need to utilize the tool.\n"
    reply = {
        "findings": [
            {"ruleId": "filler", "quote": "really ", "explanation": "filler", "suggestion": ""},
            {"ruleId": "filler", "quote": "utilize", "explanation": "plain words", "suggestion": "use"},
        ]
    }
    result = parse_review_response(json.dumps(reply), text=text, rule_ids=["filler"], max_findings=5)
    operations = findings_to_operations(result)
    assert operations == [{"operation": "replaceBlock", "oldBlock": "utilize", "newBlock": "use"}]
    assert apply_operations(text, operations, strict_occurrence=True) == "We really need to use the tool.\n"


def test_repeated_text_names_the_occurrence_of_the_located_place() -> None:
    text = "use it. Basically, use it."
    finding = located(text, 19, 25, "apply it")
    (operation,) = findings_to_operations([finding], text=text)
    assert operation == {
        "operation": "replaceBlock",
        "oldBlock": "use it",
        "newBlock": "apply it",
        "occurrence": 2,
    }
    assert apply_operations(text, [operation], strict_occurrence=True) == "use it. Basically, apply it."


def test_a_place_no_occurrence_number_reaches_is_widened_with_document_text() -> None:
    text = "xaaa"
    finding = located(text, 2, 4, "B")  # "aa" at 2: non-overlapping matches start at 1 only
    (operation,) = findings_to_operations([finding], text=text)
    assert operation["oldBlock"].endswith("aa") and operation["newBlock"].endswith("B")
    assert apply_operations(text, [operation], strict_occurrence=True) == "xaB"


def test_widening_never_starts_inside_a_crlf() -> None:
    text = "a\r\naa\r\naaa"
    finding = located(text, 8, 10, "B")
    operations = findings_to_operations([finding], text=text)
    assert apply_operations(text, operations, strict_occurrence=True) == "a\r\naa\r\naB"


def test_later_overlapping_findings_are_skipped_and_touching_ones_kept() -> None:
    text = "one two three four"
    findings = [
        located(text, 4, 13, "2 3"),  # "two three"
        located(text, 8, 18, "x"),  # "three four" overlaps: skipped
        located(text, 0, 4, "1 "),  # "one " touches: kept
        located(text, 13, 18, " 4"),  # " four" touches: kept
    ]
    operations = findings_to_operations(findings, text=text)
    assert len(operations) == 3
    assert apply_operations(text, operations, strict_occurrence=True) == "1 2 3 4"


def test_no_operation_without_a_change() -> None:
    text = "keep this text"
    findings = [located(text, 0, 4, ""), located(text, 5, 9, "this")]
    assert findings_to_operations(findings, text=text) == []


def test_findings_must_belong_to_the_text() -> None:
    text = "some text"
    with pytest.raises(TypeError):
        findings_to_operations([located(text, 0, 4, "x")])
    with pytest.raises(ValueError, match="match is not the text"):
        findings_to_operations([located(text, 0, 4, "x")], text="other text")
    with pytest.raises(ValueError, match="not inside"):
        findings_to_operations([{**located(text, 0, 4, "x"), "end": 99}], text=text)


documents = st.lists(st.sampled_from(["a", "b", "ab", " ", "\r\n", "\n", "é", "😀"]), max_size=30).map("".join)
suggestions = st.text(alphabet="abxy 😀", max_size=4)


@settings(max_examples=400, deadline=None)
@given(text=documents, data=st.data())
def test_round_trip_changes_exactly_the_located_spans(text: str, data: Any) -> None:
    if not text:
        return
    findings = []
    for _ in range(data.draw(st.integers(0, 5))):
        start = data.draw(st.integers(0, len(text) - 1))
        end = data.draw(st.integers(start + 1, len(text)))
        findings.append(located(text, start, end, data.draw(suggestions)))
    expected_edits: list[tuple[int, int, str]] = []
    for finding in findings:
        start, end, suggestion = finding["start"], finding["end"], finding["suggestion"]
        if not suggestion or suggestion == finding["match"]:
            continue
        if any(start < other_end and other_start < end for other_start, other_end, _ in expected_edits):
            continue
        expected_edits.append((start, end, suggestion))
    operations = findings_to_operations(findings, text=text)
    assert len(operations) == len(expected_edits)
    if not operations:
        return  # apply_operations refuses an empty list; there is nothing to change
    # strict: an operation that matched at more than one place without naming its occurrence would fail
    assert apply_operations(text, operations, strict_occurrence=True) == replaced(text, expected_edits)
    for operation in operations:
        assert operation["operation"] == "replaceBlock"
        assert operation["oldBlock"] in text
