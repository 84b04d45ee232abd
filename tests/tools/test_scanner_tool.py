"""Tool 3, find_writing_signals: every hit of the selected rules, with positions and context flags."""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writing_rules import _rules_data as data
from writing_rules._rules_runtime import SignalIndex, SignalPattern
from writing_rules.prose import read_prose
from writing_rules.tools import create_writing_tool_dispatcher, writing_review_tools
from writing_rules.tools._scanner import scan_text

TOOL = "find_writing_signals"
SIGNAL_RULES = [rule_id for rule_id in data.RULE_IDS if data.RULES[rule_id].has_signals]
SILENT_RULES = [rule_id for rule_id in data.RULE_IDS if not data.RULES[rule_id].has_signals]
SIGNAL_KEYS = {
    "ruleId", "signalId", "level", "match", "start", "end", "utf16Start", "utf16End", "line", "column", "context",
}  # fmt: skip
# catalog.md: word-choice flags hype such as "powerful" and "leistungsstark".
HYPE = {"en": "powerful", "de": "leistungsstark"}


def scan(text: str, **arguments: Any) -> dict[str, Any]:
    result = create_writing_tool_dispatcher().dispatch({"name": TOOL, "arguments": {"text": text, **arguments}})
    json.dumps(result, allow_nan=False)
    assert result["ok"] is True, result.get("error")
    return result["data"]


def refused(arguments: dict[str, Any], code: str) -> dict[str, Any]:
    result = create_writing_tool_dispatcher().dispatch({"name": TOOL, "arguments": arguments})
    json.dumps(result, allow_nan=False)
    assert result["ok"] is False, result
    assert result["error"]["code"] == code, result["error"]
    return result["error"]


def hype(text: str, language: str = "en") -> list[dict[str, Any]]:
    signals = scan(text, language=language, ruleIds=["word-choice"])["signals"]
    return [signal for signal in signals if signal["match"].lower().startswith(HYPE[language])]


def utf16(text: str, offset: int) -> int:
    return len(text[:offset].encode("utf-16-le", "surrogatepass")) // 2


def line_column(text: str, offset: int) -> tuple[int, int]:
    before = re.split(r"\r\n|\r|\n", text[:offset])
    return len(before), len(before[-1]) + 1


def check_signal(text: str, signal: dict[str, Any]) -> None:
    assert set(signal) == SIGNAL_KEYS
    start, end = signal["start"], signal["end"]
    assert 0 <= start < end <= len(text)
    assert text[start:end] == signal["match"]
    assert signal["utf16Start"] == utf16(text, start)
    assert signal["utf16End"] == utf16(text, end)
    assert (signal["line"], signal["column"]) == line_column(text, start)
    assert set(signal["context"]) == {"inCode", "inQuote", "negated"}
    assert all(type(flag) is bool for flag in signal["context"].values())
    assert signal["level"] == data.RULES[signal["ruleId"]].signal_levels[signal["signalId"]]
    assert signal["level"] in {"error", "warning", "suggestion"}


# --- selection ---------------------------------------------------------------------------------


def test_by_default_every_rule_with_signals_is_scanned() -> None:
    assert SIGNAL_RULES and SILENT_RULES
    assert scan("Nothing to see.")["ruleIds"] == SIGNAL_RULES


@pytest.mark.parametrize("profile", sorted(data.PROFILES))
def test_a_profile_scans_its_rules_with_signals(profile: str) -> None:
    expected = [rule_id for rule_id in data.PROFILES[profile].rule_ids if data.RULES[rule_id].has_signals]
    assert scan("x", profile=profile)["ruleIds"] == expected


def test_rule_ids_are_scanned_in_catalogue_order_whatever_order_they_are_named() -> None:
    assert scan("x", ruleIds=list(reversed(SIGNAL_RULES)))["ruleIds"] == SIGNAL_RULES
    assert scan("x", ruleIds=[SIGNAL_RULES[-1]])["ruleIds"] == [SIGNAL_RULES[-1]]


def test_only_the_selected_rules_produce_signals() -> None:
    text = f"A {HYPE['en']} tool. " * 3
    others = [rule_id for rule_id in SIGNAL_RULES if rule_id != "word-choice"]
    assert all(signal["ruleId"] == "word-choice" for signal in scan(text, ruleIds=["word-choice"])["signals"])
    assert all(signal["ruleId"] != "word-choice" for signal in scan(text, ruleIds=others)["signals"])


@pytest.mark.parametrize("silent", SILENT_RULES)
def test_a_rule_without_signals_is_refused_and_the_message_says_why(silent: str) -> None:
    error = refused({"text": "x", "ruleIds": [SIGNAL_RULES[0], silent]}, "invalid-selection")
    assert error["field"] == "/ruleIds/1"
    assert silent in error["message"]
    assert "signal" in error["message"]


def test_the_scanner_schema_offers_only_rules_with_signals() -> None:
    schema = next(d for d in writing_review_tools() if d["name"] == TOOL)["inputSchema"]
    assert schema["properties"]["ruleIds"]["items"]["enum"] == SIGNAL_RULES


@pytest.mark.parametrize("profile", sorted(data.PROFILES))
def test_a_signal_rule_outside_the_profile_is_refused(profile: str) -> None:
    members = data.PROFILES[profile].rule_ids
    foreign = [rule_id for rule_id in SIGNAL_RULES if rule_id not in members]
    assert foreign
    error = refused({"text": "x", "profile": profile, "ruleIds": [foreign[0]]}, "invalid-selection")
    assert foreign[0] in error["message"]
    for rule_id in members:
        if data.RULES[rule_id].has_signals:
            assert rule_id in error["message"]


def test_empty_and_duplicate_rule_ids_are_refused() -> None:
    refused({"text": "x", "ruleIds": []}, "invalid-selection")
    refused({"text": "x", "ruleIds": [SIGNAL_RULES[0], SIGNAL_RULES[0]]}, "invalid-selection")


@pytest.mark.parametrize("text", [None, 5, ["a"], {"a": 1}, True, b"bytes"])
def test_text_must_be_a_string(text: object) -> None:
    assert refused({"text": text}, "invalid-arguments")["field"] == "/text"


# --- the UTF-16 limit ------------------------------------------------------------------------


def test_astral_text_over_the_utf16_limit_is_refused_though_its_code_points_pass_the_schema() -> None:
    text = "\U0001f600" * 125_001
    assert len(text) == 125_001
    assert len(text.encode("utf-16-le")) // 2 == 250_002
    schema = next(d for d in writing_review_tools() if d["name"] == TOOL)["inputSchema"]
    assert jsonschema.Draft202012Validator(schema).is_valid({"text": text})
    error = refused({"text": text}, "text-too-long")
    assert error["field"] == "/text"
    assert "250,000" in error["message"] or "250000" in error["message"]


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("a" * 250_000, True),
        ("a" * 250_001, False),
        ("\U0001f600" * 125_000, True),
        ("\U0001f600" * 124_999 + "ab", True),
        ("\U0001f600" * 124_999 + "abc", False),
        ("\ud800" * 250_000, True),  # a lone surrogate counts one unit
        ("\udfff" * 250_001, False),
        ("a" * 10**6, False),
    ],
)
def test_the_limit_is_250000_utf16_code_units(text: str, ok: bool) -> None:
    result = create_writing_tool_dispatcher().dispatch({"name": TOOL, "arguments": {"text": text}})
    if ok:
        assert result["ok"] is True, result.get("error")
    else:
        assert result["error"]["code"] == "text-too-long"


# --- signals ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_hype_word_is_a_signal_with_exact_offsets(language: str) -> None:
    word = HYPE[language]
    text = f"Intro line.\nThis is a {word} tool."
    data_ = scan(text, language=language)
    assert data_["language"] == language
    found = [s for s in data_["signals"] if s["ruleId"] == "word-choice"]
    assert len(found) == 1
    signal = found[0]
    check_signal(text, signal)
    assert signal["match"] == word
    assert signal["start"] == text.index(word)
    assert (signal["line"], signal["column"]) == (2, len("This is a ") + 1)
    assert signal["context"] == {"inCode": False, "inQuote": False, "negated": False}
    assert isinstance(signal["signalId"], str) and signal["signalId"]
    signal_ids = {p.signal_id for p in data.SIGNAL_TABLES[language] if p.rule_id == "word-choice"}
    assert signal["signalId"] in signal_ids


def test_the_language_selects_the_pattern_table() -> None:
    assert hype(f"Eine {HYPE['de']} Lösung.", "de")
    assert not [s for s in scan(f"Eine {HYPE['de']} Lösung.", language="en")["signals"] if s["ruleId"] == "word-choice"]


def test_utf16_offsets_count_astral_characters_before_the_hit_twice() -> None:
    text = "\U0001f600\U0001f680 é \U00010348 powerful"
    (signal,) = hype(text)
    check_signal(text, signal)
    assert signal["start"] == text.index("powerful")
    assert signal["utf16Start"] == signal["start"] + 3
    assert signal["utf16End"] == signal["utf16Start"] + len("powerful")
    assert signal["column"] == signal["start"] + 1


def test_an_astral_character_inside_no_hit_changes_nothing_after_a_lone_surrogate() -> None:
    text = "\ud800 powerful"
    (signal,) = hype(text)
    check_signal(text, signal)
    assert signal["utf16Start"] == 2


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("a\nb\npowerful", 3, 1),
        ("a\r\nb\r\n  powerful", 3, 3),
        ("a\rb\r powerful", 3, 2),
        ("a\r\n\r\n\n\rpowerful", 5, 1),
        ("\U0001f600\U0001f600 powerful", 1, 4),
    ],
)
def test_lines_and_columns_are_one_based_with_every_line_ending(text: str, line: int, column: int) -> None:
    (signal,) = hype(text)
    check_signal(text, signal)
    assert (signal["line"], signal["column"]) == (line, column)


@pytest.mark.parametrize(
    ("text", "flag"),
    [
        ("```\nA powerful API.\n```\n", "inCode"),
        ("~~~\nA powerful API.\n", "inCode"),  # an unclosed fence runs to the end
        ("Call `powerful` here.", "inCode"),
        ("    A powerful API.\n", "inCode"),
        ("They said “a powerful API”.", "inQuote"),
        ('They said "a powerful API".', "inQuote"),
        ("> They said “a powerful API”.", "inQuote"),
        ("It is not powerful.", "negated"),
        ("It is never powerful.", "negated"),
        ("It isn't powerful.", "negated"),
    ],
)
def test_context_flags_annotate_and_never_filter(text: str, flag: str) -> None:
    (signal,) = hype(text)
    check_signal(text, signal)
    assert signal["context"][flag] is True


def test_a_clause_end_stops_negation() -> None:
    (signal,) = hype("It is not slow. It is powerful.")
    assert signal["context"]["negated"] is False


def test_german_negation_before_and_after_the_hit() -> None:
    (before,) = hype("Das Werkzeug ist nicht leistungsstark.", "de")
    assert before["context"]["negated"] is True
    (after,) = hype("Wir finden das Werkzeug leistungsstark nicht.", "de")
    assert after["context"]["negated"] is True
    (plain,) = hype("Das Werkzeug ist leistungsstark.", "de")
    assert plain["context"]["negated"] is False


def test_hits_are_not_dropped_in_code_quotes_or_negations() -> None:
    plain = "A powerful API.\n"
    text = plain + "```\n" + plain + "```\n" + "> " + plain + "It is not powerful.\n"
    signals = hype(text)
    assert len(signals) == 4
    assert [s["context"]["inCode"] for s in signals] == [False, True, False, False]
    # A block quote is prose (in docs mostly a note), not a quotation.
    assert [s["context"]["inQuote"] for s in signals] == [False, False, False, False]
    assert [s["context"]["negated"] for s in signals] == [False, False, False, True]


def test_no_text_no_signals() -> None:
    result = scan("")
    assert result["signals"] == [] and result["totalSignals"] == 0 and result["truncated"] is False


# --- order, distinctness, truncation -------------------------------------------------------------


def synthetic(
    monkeypatch: pytest.MonkeyPatch, patterns: list[tuple[str, str, str]], levels: dict[str, str] | None = None
) -> None:
    """Replace the English signal table: (rule id, signal id, regex); levels default to suggestion."""
    table = tuple(SignalPattern(rule, signal, "en", re.compile(regex)) for rule, signal, regex in patterns)
    rules = dict(data.RULES)
    for rule_id in {rule for rule, _, _ in patterns}:
        signal_levels = {
            signal: (levels or {}).get(signal, "suggestion") for rule, signal, _ in patterns if rule == rule_id
        }
        rules[rule_id] = rules[rule_id]._replace(signal_levels=signal_levels)
    monkeypatch.setattr(data, "RULES", rules)
    monkeypatch.setattr(data, "SIGNAL_TABLES", {**data.SIGNAL_TABLES, "en": table})
    # No trigger index for the synthetic patterns: the scanner runs each over the whole text.
    index = SignalIndex(
        words={}, key_size=5, key_chars="a-z", partial=(), anchors=(), start=(), full=tuple(range(len(table)))
    )
    monkeypatch.setattr(data, "SIGNAL_INDEX", {**data.SIGNAL_INDEX, "en": index})


def test_two_rules_on_one_span_are_two_signals_in_catalogue_order(monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = SIGNAL_RULES[0], SIGNAL_RULES[-1]
    # Table order deliberately opposite to catalogue order.
    synthetic(monkeypatch, [(second, "s-zz", r"\bzzqx\b"), (first, "f-zz", r"\bzzqx\b")])
    signals = scan("a zzqx b", ruleIds=[second, first])["signals"]
    assert [(s["ruleId"], s["start"], s["end"]) for s in signals] == [(first, 2, 6), (second, 2, 6)]


def test_two_patterns_of_one_rule_on_one_span_are_one_signal(monkeypatch: pytest.MonkeyPatch) -> None:
    rule = SIGNAL_RULES[0]
    synthetic(monkeypatch, [(rule, "p1", r"zzqx"), (rule, "p2", r"\bzzqx\b"), (rule, "p3", r"zzq")])
    result = scan("zzqx", ruleIds=[rule])
    spans = [(s["start"], s["end"]) for s in result["signals"]]
    # (0, 3) overlaps (0, 4): one signal per rule per overlapping span, the longest (issue 28).
    assert spans == [(0, 4)]
    assert result["totalSignals"] == 1


def test_overlapping_hits_of_one_rule_keep_the_highest_level_then_the_longest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rule, other = SIGNAL_RULES[0], SIGNAL_RULES[1]
    synthetic(
        monkeypatch,
        [(rule, "broad", r"should be \w+"), (rule, "precise", r"be avoided"), (other, "o", r"avoided")],
        levels={"precise": "warning"},
    )
    signals = scan("it should be avoided", ruleIds=[rule, other])["signals"]
    # The warning's own span wins over a longer suggestion: a scan at --min-level warning,
    # which never runs the broad pattern, reports the same.
    assert [(s["ruleId"], s["signalId"], s["match"], s["level"]) for s in signals] == [
        (rule, "precise", "be avoided", "warning"),
        (other, "o", "avoided", "suggestion"),
    ]
    narrowed = scan_text("it should be avoided", "en", (rule, other), 10, min_level="warning")["signals"]
    assert [(s["signalId"], s["match"]) for s in narrowed] == [("precise", "be avoided")]


def test_signals_come_in_document_order_by_start_then_end(monkeypatch: pytest.MonkeyPatch) -> None:
    rule_a, rule_b = SIGNAL_RULES[0], SIGNAL_RULES[1]
    synthetic(monkeypatch, [(rule_b, "long", r"alpha beta"), (rule_a, "short", r"beta|alpha")])
    signals = scan("beta alpha beta", ruleIds=[rule_a, rule_b])["signals"]
    assert [(s["start"], s["end"], s["ruleId"]) for s in signals] == [
        (0, 4, rule_a),
        (5, 10, rule_a),
        (5, 15, rule_b),
        (11, 15, rule_a),
    ]


@pytest.mark.parametrize(
    ("count", "max_signals", "returned"),
    [(60, None, 50), (60, 500, 60), (60, 1, 1), (50, 50, 50), (51, 50, 50), (3, 5.0, 3), (700, 500, 500)],
)
def test_max_signals_caps_the_list_and_total_counts_all(count: int, max_signals: Any, returned: int) -> None:
    text = "A powerful tool. " * count
    arguments: dict[str, Any] = {"ruleIds": ["word-choice"]}
    if max_signals is not None:
        arguments["maxSignals"] = max_signals
    result = scan(text, **arguments)
    assert len(result["signals"]) == returned
    assert result["totalSignals"] == count
    assert result["truncated"] is (count > returned)
    full = scan(text, ruleIds=["word-choice"], maxSignals=500)["signals"]
    assert result["signals"] == full[:returned]


@pytest.mark.parametrize("value", [0, 501, -1, 2.5, True, "10", None])
def test_max_signals_outside_one_to_500_is_refused(value: object) -> None:
    assert refused({"text": "x", "maxSignals": value}, "invalid-arguments")["field"] == "/maxSignals"


PIECES = [
    "powerful",
    "seamless",
    "leistungsstark",
    " ",
    "\n",
    "\r\n",
    "\r",
    "`",
    "```\n",
    '"',
    "“",
    "”",
    "> ",
    "not ",
    "nicht ",
    ". ",
    "\U0001f600",
    "\ud800",
    "é",
    "TODO",
    "very",
    "sehr",
    "simply",
    "word",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pieces=st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=40),
    language=st.sampled_from(["en", "de"]),
    max_signals=st.integers(1, 30),
)
def test_every_signal_is_exact_ordered_distinct_and_complete(
    pieces: list[str], language: str, max_signals: int
) -> None:
    text = "".join(pieces)
    result = scan(text, language=language, maxSignals=max_signals)
    assert result["ruleIds"] == SIGNAL_RULES
    order = {rule_id: index for index, rule_id in enumerate(data.RULE_IDS)}
    got = [(s["start"], s["end"], order[s["ruleId"]], s["ruleId"]) for s in result["signals"]]
    assert got == sorted(set(got))
    assert len(got) == min(max_signals, result["totalSignals"])
    assert result["truncated"] is (result["totalSignals"] > max_signals)
    for signal in result["signals"]:
        check_signal(text, signal)
    # Complete: where the prose view is the text itself (one paragraph, no Markdown in it, no
    # negation that a rule's context drops), every hit of every pattern is a signal.
    if read_prose(text).text.rstrip("\n") != text or re.search(r"[\r\n]|\bnot\b|\bnicht\b", text):
        return
    expected = sorted(
        {
            (match.start(), match.end(), order[pattern.rule_id], pattern.rule_id)
            for pattern in data.SIGNAL_TABLES[language]
            for match in pattern.regex.finditer(text)
            if match.end() > match.start()
        }
    )
    assert result["totalSignals"] == len(expected)
    assert got == expected[:max_signals]


def test_every_level_is_reported_so_a_model_sees_suggestions_too() -> None:
    text = "This powerful tool is configured by the installer. The date is TBD."
    levels = {(signal["ruleId"], signal["level"]) for signal in scan(text, language="en")["signals"]}
    assert {("word-choice", "warning"), ("passive-voice", "suggestion"), ("placeholders", "error")} <= levels


def test_a_higher_level_pattern_names_a_span_it_shares_with_a_broad_one(monkeypatch: pytest.MonkeyPatch) -> None:
    rule = SIGNAL_RULES[0]
    synthetic(monkeypatch, [(rule, "broad", r"zzqx"), (rule, "precise", r"\bzzqx\b")], {"precise": "warning"})
    (signal,) = scan("zzqx", ruleIds=[rule])["signals"]
    assert (signal["signalId"], signal["level"]) == ("precise", "warning")
