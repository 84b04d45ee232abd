"""Tool 1, get_writing_rules: rule knowledge, in catalogue order, for exactly the requested scope."""

from __future__ import annotations

import json
from typing import Any

import pytest

from writing_rules import _rules_data as data
from writing_rules.tools import create_writing_tool_dispatcher

TOOL = "get_writing_rules"
LANGUAGES = ("en", "de")

# The catalogue table of catalog.md: rule ids are stable public API, in this order,
# with the profiles each belongs to and whether the static scanner covers it.
CATALOGUE: tuple[tuple[str, bool, tuple[str, ...]], ...] = (
    ("reader-goal", False, ("public-docs", "technical-reference", "product-copy")),
    ("word-choice", True, ("public-docs", "product-copy", "agent-report")),
    ("easy-claims", True, ("public-docs", "technical-reference")),
    ("hedging", True, ("public-docs", "product-copy", "agent-report")),
    ("filler", True, ("public-docs", "product-copy")),
    ("passive-voice", True, ("public-docs", "technical-reference")),
    ("long-sentences", True, ("public-docs", "technical-reference", "agent-report")),
    ("nominal-style", True, ("technical-reference",)),
    ("vague-quantities", True, ("public-docs", "technical-reference", "product-copy", "agent-report")),
    ("unsupported-claims", True, ("product-copy", "agent-report")),
    ("ai-tells", True, ("agent-report",)),
    ("placeholders", True, ("public-docs", "technical-reference", "product-copy", "agent-report")),
    ("consistent-address", False, ("public-docs", "technical-reference")),
    ("evidence", False, ("agent-report",)),
)


def rules(arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    result = create_writing_tool_dispatcher().dispatch({"name": TOOL, "arguments": arguments or {}})
    json.dumps(result, allow_nan=False)
    assert result["ok"] is True, result.get("error")
    return result["data"]


def refused(arguments: dict[str, Any], code: str) -> dict[str, Any]:
    result = create_writing_tool_dispatcher().dispatch({"name": TOOL, "arguments": arguments})
    json.dumps(result, allow_nan=False)
    assert result["ok"] is False, result
    assert result["error"]["code"] == code, result["error"]
    return result["error"]


def ids(result: dict[str, Any]) -> list[str]:
    return [rule["id"] for rule in result["rules"]]


def outside(profile: str) -> list[str]:
    return [rule_id for rule_id in data.RULE_IDS if rule_id not in data.PROFILES[profile].rule_ids]


def scanner_rule_ids() -> set[str]:
    tables = (*data.SIGNAL_TABLES.values(), *data.LENGTH_SIGNALS.values())
    return {signal.rule_id for table in tables for signal in table}


# --- the catalogue -----------------------------------------------------------------------------


def test_the_catalogue_holds_the_published_rules_in_order() -> None:
    published = [rule_id for rule_id, _, _ in CATALOGUE]
    assert [rule_id for rule_id in data.RULE_IDS if rule_id in published] == published


def test_the_catalogue_profiles_and_signals_match_the_published_table() -> None:
    for rule_id, has_signals, profiles in CATALOGUE:
        rule = data.RULES[rule_id]
        assert rule.has_signals is has_signals, rule_id
        assert set(profiles) <= set(rule.profiles), rule_id
        for profile in profiles:
            assert rule_id in data.PROFILES[profile].rule_ids


def test_profiles_list_their_rules_in_catalogue_order() -> None:
    for profile in data.PROFILES.values():
        assert list(profile.rule_ids) == [rule_id for rule_id in data.RULE_IDS if rule_id in profile.rule_ids]
        for language in LANGUAGES:
            assert profile.names[language].strip() and profile.framing[language].strip()


def test_every_rule_with_signals_has_signals_in_both_languages_and_no_other_rule_has() -> None:
    for language in LANGUAGES:
        tables = (data.SIGNAL_TABLES[language], data.LENGTH_SIGNALS[language])
        covered = {signal.rule_id for table in tables for signal in table}
        assert covered == {rule_id for rule_id in data.RULE_IDS if data.RULES[rule_id].has_signals}


# --- summaries -----------------------------------------------------------------------------------


def test_default_is_every_rule_in_english_summaries() -> None:
    result = rules()
    assert result["language"] == "en"
    assert result["detail"] == "summary"
    assert result["profile"] is None
    assert ids(result) == list(data.RULE_IDS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_summary_entries_have_the_contract_fields_in_the_requested_language(language: str) -> None:
    result = rules({"language": language})
    assert result["language"] == language
    signal_rules = scanner_rule_ids()
    for entry in result["rules"]:
        assert set(entry) == {"id", "title", "summary", "profiles", "hasSignals"}
        rule = data.RULES[entry["id"]]
        assert entry["title"] == rule.texts[language].title
        assert entry["summary"] == rule.texts[language].summary
        assert entry["title"].strip() and entry["summary"].strip()
        assert entry["profiles"] == list(rule.profiles)
        assert all(entry["id"] in data.PROFILES[profile].rule_ids for profile in entry["profiles"])
        assert entry["hasSignals"] is (entry["id"] in signal_rules)


def test_english_and_german_titles_differ() -> None:
    english = {entry["id"]: entry["title"] for entry in rules({"language": "en"})["rules"]}
    german = {entry["id"]: entry["title"] for entry in rules({"language": "de"})["rules"]}
    assert english.keys() == german.keys()
    assert all(english[rule_id] != german[rule_id] for rule_id in english)


@pytest.mark.parametrize("profile", sorted(data.PROFILES))
def test_a_profile_selects_exactly_its_rules(profile: str) -> None:
    result = rules({"profile": profile})
    assert result["profile"] == profile
    assert ids(result) == list(data.PROFILES[profile].rule_ids)
    assert all(profile in entry["profiles"] for entry in result["rules"])


def test_results_follow_catalogue_order_whatever_order_rule_ids_names() -> None:
    every = list(data.RULE_IDS)
    assert ids(rules({"ruleIds": list(reversed(every))})) == every
    shuffled = every[1::2] + every[::2]
    assert ids(rules({"ruleIds": shuffled})) == every
    picked = [every[-1], every[0]]
    assert ids(rules({"ruleIds": picked})) == [every[0], every[-1]]


@pytest.mark.parametrize("profile", sorted(data.PROFILES))
def test_rule_ids_inside_the_profile_are_returned_as_asked(profile: str) -> None:
    members = list(data.PROFILES[profile].rule_ids)
    subset = members[::-2]
    result = rules({"profile": profile, "ruleIds": subset})
    assert ids(result) == [rule_id for rule_id in members if rule_id in subset]


# --- full detail -----------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_full_detail_has_both_languages_of_each_entry(language: str) -> None:
    result = rules({"detail": "full", "language": language})
    assert result["detail"] == "full"
    assert ids(result) == list(data.RULE_IDS)
    for entry in result["rules"]:
        assert set(entry) == {"id", "title", "summary", "profiles", "hasSignals", "entries"}
        assert set(entry["entries"]) == {"en", "de"}
        assert entry["title"] == entry["entries"][language]["title"]
        assert entry["summary"] == entry["entries"][language]["summary"]
        for lang, text in entry["entries"].items():
            assert set(text) == {"title", "summary", "instruction", "appliesWhen", "examples"}
            for field in ("title", "summary", "instruction", "appliesWhen"):
                assert isinstance(text[field], str) and text[field].strip(), (entry["id"], lang, field)
            assert text["examples"], (entry["id"], lang)
            for example in text["examples"]:
                assert set(example) == {"before", "after"}
                assert example["before"].strip() and example["after"].strip()
                assert example["before"] != example["after"]
            source = data.RULES[entry["id"]].texts[lang]
            assert text["instruction"] == source.instruction
            assert text["appliesWhen"] == source.applies_when
        assert entry["entries"]["en"]["instruction"] != entry["entries"]["de"]["instruction"]


def test_summary_detail_carries_no_entries() -> None:
    assert all("entries" not in entry for entry in rules({"detail": "summary"})["rules"])


def test_a_returned_result_can_be_changed_without_affecting_the_next() -> None:
    first = rules({"detail": "full"})
    first["rules"][0]["entries"]["en"]["examples"].clear()
    first["rules"][0]["profiles"].append("hijacked")
    second = rules({"detail": "full"})
    assert second["rules"][0]["entries"]["en"]["examples"]
    assert "hijacked" not in second["rules"][0]["profiles"]


# --- refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize("detail", ["Full", "SUMMARY", "all", "", None, 1, True])
def test_an_unknown_detail_is_invalid_arguments(detail: object) -> None:
    error = refused({"detail": detail}, "invalid-arguments")
    assert error["field"] == "/detail"


@pytest.mark.parametrize("rule_id", ["no-such-rule", "Word-Choice", "word_choice", ""])
def test_an_unknown_rule_id_is_invalid_selection(rule_id: str) -> None:
    error = refused({"ruleIds": [data.RULE_IDS[0], rule_id]}, "invalid-selection")
    assert error["field"] == "/ruleIds/1"


@pytest.mark.parametrize("item", [1, None, True, ["word-choice"]])
def test_a_rule_id_that_is_not_a_string_is_invalid_arguments(item: object) -> None:
    error = refused({"ruleIds": [item]}, "invalid-arguments")
    assert error["field"] == "/ruleIds/0"


def test_an_empty_rule_ids_array_is_invalid_selection() -> None:
    error = refused({"ruleIds": []}, "invalid-selection")
    assert error["field"] == "/ruleIds"


def test_a_duplicate_rule_id_is_invalid_selection() -> None:
    first, second = data.RULE_IDS[0], data.RULE_IDS[1]
    error = refused({"ruleIds": [first, second, first]}, "invalid-selection")
    assert first in error["message"]


@pytest.mark.parametrize("profile", sorted(data.PROFILES))
def test_a_rule_outside_the_profile_is_refused_and_the_message_lists_the_profile_rules(profile: str) -> None:
    foreign = outside(profile)
    assert foreign, f"every rule belongs to {profile}"
    member = data.PROFILES[profile].rule_ids[0]
    error = refused({"profile": profile, "ruleIds": [member, foreign[0]]}, "invalid-selection")
    assert error["field"] == "/ruleIds/1"
    assert foreign[0] in error["message"] and profile in error["message"]
    for rule_id in data.PROFILES[profile].rule_ids:
        assert rule_id in error["message"]


def test_the_scope_is_never_widened_narrowed_or_replaced() -> None:
    # A bad id next to good ones is an error, not a result without it.
    good = list(data.RULE_IDS[:2])
    refused({"ruleIds": [*good, "no-such-rule"]}, "invalid-selection")
    refused({"ruleIds": good, "profile": "no-such-profile"}, "invalid-selection")
