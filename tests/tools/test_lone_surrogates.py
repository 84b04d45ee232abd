"""Lone surrogates anywhere in what a tool is given never reach the wire (issue 30).

A lone surrogate cannot be written as UTF-8. The contract: every string the
four tools return has each one replaced by U+FFFD, so every envelope encodes as
UTF-8; offsets still count the text as sent (a lone surrogate is one code point
and one UTF-16 unit), and only the returned text is cleaned.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules.tools import create_writing_tool_dispatcher

SURROGATE = re.compile("[\ud800-\udfff]")
PROFILES = ["public-docs", "technical-reference", "product-copy", "agent-report"]

# Trigger-dense paragraphs (hits that span several words, fixes, quotes, code, Markdown), so
# that a surrogate put at a random place often falls inside a match or a fix.
PARAGRAPHS = {
    "en": [
        "We fix every bug within minutes. A powerful tool, very simple to use.\n",
        "In order to start, simply utilize the API. It is really easy.\n\n> Note: just run it.\n",
        'The file was deleted by the job. "A very powerful" claim, due to the fact that it is.\n',
        "```\nvery powerful code\n```\n\n- Basically, seamless and robust. Use `really simple` here.\n",
        "# A powerful heading\n\nThis is not very good, but it is arguably the best. TODO: TBD.\n",
    ],
    "de": [
        "Wir stellen die Daten zur Verfügung. Ein sehr leistungsstarkes Werkzeug.\n",
        "Die Durchführung der Prüfung erfolgt durch das Team. Das ist wirklich einfach.\n\n",
        "„Ein sehr starkes Zitat“ und nicht sehr gut. Es wurde zur Verfügung gestellt.\n",
    ],
}
LONE = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)


@st.composite
def texts_with_lone_surrogates(draw: st.DrawFn, language: str) -> str:
    """Paragraphs of ``language`` with lone surrogates at random places (and runs of them)."""
    return draw(
        with_lone_surrogates("".join(draw(st.lists(st.sampled_from(PARAGRAPHS[language]), min_size=1, max_size=4))))
    )


@st.composite
def with_lone_surrogates(draw: st.DrawFn, text: str) -> str:
    """``text`` with lone surrogates (one to three in a row) put in at one to six random places."""
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.text(LONE, min_size=1, max_size=3)) + text[at:]
    return text


def clean(text: str) -> str:
    return SURROGATE.sub("\ufffd", text)


def strings(value: object) -> Iterator[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item)


def assert_encodes(envelope: dict[str, Any]) -> None:
    json.dumps(envelope, ensure_ascii=False, allow_nan=False).encode("utf-8")
    assert not any(SURROGATE.search(string) for string in strings(envelope))


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


REVIEW = create_writing_tool_dispatcher(review_context={"audience": "Developers", "goal": "Clear docs"})


@settings(max_examples=200)
@given(st.sampled_from(["en", "de"]).flatmap(lambda lang: st.tuples(st.just(lang), texts_with_lone_surrogates(lang))))
def test_signals_carry_cleaned_text_at_the_offsets_of_the_text_as_sent(case: tuple[str, str]) -> None:
    language, text = case
    envelope = REVIEW.dispatch(
        {"name": "find_writing_signals", "arguments": {"text": text, "language": language, "maxSignals": 500}}
    )
    assert envelope["ok"], envelope
    assert_encodes(envelope)
    for signal in envelope["data"]["signals"]:
        start, end = signal["start"], signal["end"]
        assert signal["match"] == clean(text[start:end])
        assert (signal["utf16Start"], signal["utf16End"]) == (utf16(text[:start]), utf16(text[:end]))
        before = text[:start].replace("\r\n", "\n").replace("\r", "\n")
        assert signal["line"] == before.count("\n") + 1
        assert signal["column"] == start - max(text.rfind("\n", 0, start), text.rfind("\r", 0, start))
        fix = signal.get("fix")
        if fix is not None:
            assert fix["match"] == clean(text[start : start + len(fix["match"])])


def test_the_issue_example_returns_the_match_cleaned_and_the_offsets_as_sent() -> None:
    text = "We fix every \udfff bug within minutes. A powerful tool."
    envelope = REVIEW.dispatch({"name": "find_writing_signals", "arguments": {"text": text, "language": "en"}})
    assert_encodes(envelope)
    (signal,) = [s for s in envelope["data"]["signals"] if s["signalId"] == "every-within-minutes-en"]
    assert signal["match"] == "every \ufffd bug within minutes"
    assert (signal["start"], signal["end"], signal["utf16Start"], signal["utf16End"]) == (7, 33, 7, 33)
    assert text[signal["start"] : signal["end"]] == "every \udfff bug within minutes"  # the caller's text is unchanged


def test_a_signal_with_a_team_policy_is_cleaned_too() -> None:
    dispatcher = create_writing_tool_dispatcher(config={"disable": ["word-choice"]})
    text = "We fix every \ud800 bug within minutes. A powerful tool."
    envelope = dispatcher.dispatch({"name": "find_writing_signals", "arguments": {"text": text}})
    assert_encodes(envelope)
    assert [s["match"] for s in envelope["data"]["signals"]] == ["every \ufffd bug within minutes"]


# Arguments a model may send to any tool: known keys with good or bad values, unknown keys.
_values = st.one_of(
    st.text(LONE, min_size=1, max_size=3),
    st.sampled_from(["en", "de", "summary", "full", "reviewer", "cohort-1", *PROFILES]).flatmap(
        lambda good: st.builds(lambda at, bad: good[:at] + bad + good[at:], st.integers(0, len(good)), LONE)
    ),
    st.lists(st.sampled_from(["word-choice", "filler", "hedging"]) | st.text(LONE, max_size=2), max_size=3),
    st.integers(-3, 30),
    st.none(),
)
_keys = st.sampled_from(
    ["text", "language", "profile", "ruleIds", "detail", "maxFindings", "maxSignals", "role", "cohortId"]
) | st.text(LONE, min_size=1, max_size=2)
_TOOLS = ["get_writing_rules", "compose_writing_review_prompt", "find_writing_signals", "get_model_comparison_evidence"]


@settings(max_examples=200)
@given(
    name=st.sampled_from(_TOOLS) | st.text(LONE, min_size=1, max_size=2),
    arguments=st.dictionaries(_keys, _values, max_size=4),
    call_id=st.none() | st.text(LONE, min_size=1, max_size=3),
)
def test_every_tool_answers_arguments_holding_lone_surrogates_with_an_encodable_envelope(
    name: str, arguments: dict[str, Any], call_id: str | None
) -> None:
    call: dict[str, Any] = {"name": name, "arguments": arguments}
    if call_id is not None:
        call["id"] = call_id
    for dispatcher in (REVIEW, EVIDENCE_HOST):
        envelope = dispatcher.dispatch(call)
        assert_encodes(envelope)
        assert envelope.get("error", {}).get("code") != "internal-error"


@settings(max_examples=40)
@given(audience=with_lone_surrogates("Developers who call the API"), goal=with_lone_surrogates("Clear docs"))
def test_the_prompt_carries_the_hosts_context_cleaned(audience: str, goal: str) -> None:
    dispatcher = create_writing_tool_dispatcher(review_context={"audience": audience, "goal": goal})
    envelope = dispatcher.dispatch(
        {"name": "compose_writing_review_prompt", "arguments": {"profile": "public-docs", "language": "en"}}
    )
    assert envelope["ok"], envelope
    assert_encodes(envelope)
    prompt = envelope["data"]["prompt"]
    assert clean(audience.strip()) in prompt
    assert clean(goal.strip()) in prompt


# --- tool 4: the host's ids and evidence may hold lone surrogates -------------------------------------

MODELS = ["model-\ud800", "model-b"]
COHORTS = ["cohort-1", "cohort-\udfff"]
SHA = "ab" * 32


def host_evidence(query: dict[str, Any], odd: str) -> dict[str, Any]:
    selection = {
        "modelId": MODELS[0],
        "sourceIds": [f"run-{odd}"],
        "independentlyJudged": True,
        "reviews": {"planned": 3, "judged": 2, "acceptedComplete": 1},
        "detection": {"detected": 1, "expected": 2},
        "falseEditSuggestions": 0,
        "cost": {"usd": 1.5, "includesFailedAttempts": True, "includesRetries": True},
        "limitations": [f"Only {odd} pages."],
    }
    return {
        "status": "evidence-available",
        "query": dict(query),
        "bestValue": selection,
        "highestDetection": selection,
        "sources": [{"id": f"run-{odd}", "location": f"reports/{odd}.json", "sha256": SHA}],
        "explanation": f"Reviewed {odd}.",
        "limitations": [odd],
    }


_odd = st.text(LONE, min_size=1, max_size=3).map(lambda lone: f"a{lone}b")
_outcomes = st.sampled_from(["valid", "wrong-model", "extra-field", "raises", "odd-exception"])


def evidence_host(outcome: str, odd: str) -> Any:
    def callback(query: Any, context: Any) -> Any:
        assert "model-\ud800" in context["availableModelIds"]
        evidence = host_evidence(dict(query), odd)
        if outcome == "wrong-model":
            evidence["bestValue"]["modelId"] = odd
        elif outcome == "extra-field":
            evidence[odd] = odd
        elif outcome == "raises":
            raise ValueError(odd)
        elif outcome == "odd-exception":
            raise type(odd, (Exception,), {})(odd)
        return evidence

    return create_writing_tool_dispatcher(
        model_comparison_context={"available_model_ids": MODELS, "cohort_ids": COHORTS},
        get_model_comparison_evidence=callback,
    )


EVIDENCE_HOST = evidence_host("valid", "a\udc80b")


@settings(max_examples=40)
@given(outcome=_outcomes, odd=_odd, cohort=st.sampled_from(COHORTS), asynchronous=st.booleans())
def test_evidence_holding_lone_surrogates_comes_back_cleaned(
    outcome: str, odd: str, cohort: str, asynchronous: bool
) -> None:
    dispatcher = evidence_host(outcome, odd)
    arguments = {"language": "en", "profile": "public-docs", "role": "reviewer", "cohortId": cohort}
    call = {"name": "get_model_comparison_evidence", "arguments": arguments}
    envelope = asyncio.run(dispatcher.dispatch_async(call)) if asynchronous else dispatcher.dispatch(call)
    assert envelope["ok"], envelope
    assert_encodes(envelope)
    data = envelope["data"]
    assert data["query"]["cohortId"] == clean(cohort)
    if outcome == "valid":
        assert data["status"] == "evidence-available"
        assert data["bestValue"]["modelId"] == clean(MODELS[0])
        assert data["sources"][0]["location"] == f"reports/{clean(odd)}.json"
        assert data["limitations"] == [clean(odd)]
    else:
        assert data["status"] in ("invalid-host-evidence", "host-evidence-failed")


def test_results_made_from_the_rule_data_alone_encode_as_they_are() -> None:
    # These are returned without a walk (nothing in them came from the call): the data holds no surrogate.
    for language in ("en", "de"):
        for name, arguments in (
            ("get_writing_rules", {"detail": "full"}),
            ("compose_writing_review_prompt", {"profile": "public-docs", "maxFindings": 20}),
            ("find_writing_signals", {"text": "A powerful tool, in order to win. Ein sehr starkes Werkzeug."}),
        ):
            envelope = REVIEW.dispatch({"name": name, "arguments": {**arguments, "language": language}})
            assert envelope["ok"], envelope
            assert_encodes(envelope)


def test_cleaning_copies_only_what_it_changes_and_never_the_callers_value() -> None:
    from writing_rules._tool_call import clean_json

    clean_value = {"a": ["x", 1, None, {"b": "ü"}], "c": 2.5}
    assert clean_json(clean_value) is clean_value
    odd = {"first": "kept", "a\ud800": ["x", "\udc00y"], "last": {"t": ("\udfff",)}}
    cleaned = clean_json(odd)
    assert cleaned == {"first": "kept", "a\ufffd": ["x", "\ufffdy"], "last": {"t": ["\ufffd"]}}
    assert list(cleaned) == ["first", "a\ufffd", "last"]  # the order of the keys is kept
    assert odd == {"first": "kept", "a\ud800": ["x", "\udc00y"], "last": {"t": ("\udfff",)}}
