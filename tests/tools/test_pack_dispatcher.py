"""A dispatcher with a team's pack: its rules work in every tool as built-in rules do (issue 27).

``create_writing_tool_dispatcher(config={"packs": [...]})`` loads the packs when it
is created; then ``find_writing_signals`` scans, fixes and levels the pack's rules,
``get_writing_rules`` lists them, ``compose_writing_review_prompt`` gives their
texts, and ``ruleIds``, ``disable`` and ``min-level`` take their ids, with the
error codes and wording of the built-in rules.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from writing_rules import _rules_data as data
from writing_rules.packs import PackError, catalog_for, load_pack
from writing_rules.tools import SignalPolicyError, create_writing_tool_dispatcher, rule_selection_problem

ACME = Path(__file__).resolve().parents[2] / "examples" / "packs" / "acme"
TEXT = "Please Log in first, click on Save, open ACMECloud, etc. It is very simple."
REVIEW = {"audience": "Operators", "goal": "Restore the service"}


def _dispatch(config: object, name: str, **arguments: Any) -> dict[str, Any]:
    dispatcher = create_writing_tool_dispatcher(config=config, review_context=REVIEW)
    result: dict[str, Any] = dispatcher.dispatch({"name": name, "arguments": arguments})
    return result


def _signals(config: object, **arguments: Any) -> list[tuple[str, str, str, str | None]]:
    result = _dispatch(config, "find_writing_signals", **{"text": TEXT, **arguments})
    assert result["ok"], result
    return [
        (s["ruleId"], s["level"], s["match"], s["fix"]["replacement"] if "fix" in s else None)
        for s in result["data"]["signals"]
    ]


def test_a_packs_rules_are_found_fixed_and_levelled() -> None:
    found = _signals({"packs": [str(ACME)], "min-level": "suggestion"})
    assert ("acme/terms", "warning", "Log in", "Sign in") in found  # fixed in the text's capitals
    assert ("acme/terms", "suggestion", "click on", "select") in found  # the term's own level
    assert ("acme/terms", "error", "ACMECloud", "ACME Cloud") in found
    assert ("acme/no-etc", "suggestion", "etc.", None) in found
    assert any(rule_id == "filler" for rule_id, *_ in found)  # the built-in rules still run
    # Without the pack, the same text has only the built-in signals.
    assert [s for s in found if "/" not in s[0]] == _signals({"min-level": "suggestion"})


def test_config_min_level_and_disable_take_pack_rules() -> None:
    default = _signals({"packs": [str(ACME)]})  # the command line's default view: warning and up
    assert {level for _, level, *_ in default} <= {"warning", "error"}
    assert ("acme/terms", "warning", "Log in", "Sign in") in default
    assert not any(match == "click on" for _, _, match, _ in default)
    disabled = _signals({"packs": [str(ACME)], "disable": ["acme/terms"], "min-level": "suggestion"})
    assert not any(rule_id == "acme/terms" for rule_id, *_ in disabled)
    assert any(rule_id == "acme/no-etc" for rule_id, *_ in disabled)
    only = _signals({"packs": [str(ACME)], "rules": ["acme/no-etc"], "min-level": "suggestion"})
    assert {rule_id for rule_id, *_ in only} == {"acme/no-etc"}


def test_ruleids_name_pack_rules() -> None:
    config = {"packs": [str(ACME)], "min-level": "suggestion"}
    found = _signals(config, ruleIds=["acme/terms"])
    assert found and {rule_id for rule_id, *_ in found} == {"acme/terms"}
    found = _signals(config, ruleIds=["acme/no-etc", "filler"], profile="public-docs")
    assert {rule_id for rule_id, *_ in found} == {"filler", "acme/no-etc"}


@pytest.mark.parametrize(
    ("arguments", "field", "message"),
    [
        ({"ruleIds": ["acme/none"]}, "/ruleIds/0", "Unknown rule id 'acme/none' in ruleIds; allowed: word-choice,"),
        ({"ruleIds": ["acme/terms", "acme/terms"]}, "/ruleIds/1", "Rule id 'acme/terms' appears twice in ruleIds"),
        ({"ruleIds": []}, "/ruleIds", "Argument ruleIds is empty"),
        ({"ruleIds": ["acme/terms"], "profile": "public-docs"}, "/ruleIds/0", "is not part of profile 'public-docs'"),
        ({"ruleIds": ["evidence"]}, "/ruleIds/0", "Rule 'evidence' has no static signals"),
        ({"ruleIds": [3]}, "/ruleIds/0", "Item 0 of ruleIds must be a rule id string"),
        ({"ruleIds": ["acme/terms"], "maxSignals": 0}, "/maxSignals", "maxSignals must be an integer"),
        ({"ruleIds": ["nope"], "profile": "nope"}, "/profile", "Unknown profile 'nope'"),
    ],
)
def test_a_bad_selection_is_refused_in_the_built_in_words(arguments: dict[str, Any], field: str, message: str) -> None:
    result = _dispatch({"packs": [str(ACME)]}, "find_writing_signals", text="x", **arguments)
    assert not result["ok"]
    assert result["error"]["field"] == field and message in result["error"]["message"], result
    assert result["error"]["code"] in ("invalid-selection", "invalid-arguments")
    if "Unknown rule id" in message:
        assert result["error"]["message"].endswith("placeholders, acme/no-etc, acme/terms.")


def test_without_packs_the_errors_are_the_validators_own() -> None:
    # The same calls to a dispatcher without packs: the generated validators answer, as before.
    result = _dispatch(None, "find_writing_signals", text="x", ruleIds=["acme/terms"])
    assert result["error"]["message"].startswith("Unknown rule id 'acme/terms' in ruleIds; allowed: word-choice,")
    assert result["error"]["message"].endswith("ai-tells, placeholders.")


def test_the_rules_tool_lists_pack_rules_with_their_texts() -> None:
    result = _dispatch({"packs": [str(ACME)]}, "get_writing_rules")
    ids = [rule["id"] for rule in result["data"]["rules"]]
    assert ids == [*data.RULE_IDS, "acme/no-etc", "acme/terms"]
    full = _dispatch({"packs": [str(ACME)]}, "get_writing_rules", ruleIds=["acme/no-etc"], detail="full", language="de")
    [rule] = full["data"]["rules"]
    assert rule["title"] == "Keine Aufzählung mit „usw.“ beenden" and rule["profiles"] == ["public-docs"]
    assert set(rule["entries"]) == {"en", "de"}
    in_profile = _dispatch({"packs": [str(ACME)]}, "get_writing_rules", profile="public-docs")
    assert "acme/no-etc" in [rule["id"] for rule in in_profile["data"]["rules"]]


def test_the_review_prompt_gives_pack_rules_texts() -> None:
    result = _dispatch({"packs": [str(ACME)]}, "compose_writing_review_prompt", profile="public-docs")
    assert result["ok"], result
    assert "acme/no-etc" in result["data"]["ruleIds"]
    prompt = result["data"]["prompt"]
    assert "(ruleId: acme/no-etc)" in prompt and "Name every item, or say which kind of items" in prompt
    schema = result["data"]["responseSchema"]
    assert "acme/no-etc" in schema["properties"]["findings"]["items"]["properties"]["ruleId"]["enum"]


def test_the_descriptors_of_a_dispatcher_with_packs_list_their_ids() -> None:
    tools = {tool["name"]: tool for tool in create_writing_tool_dispatcher(config={"packs": [str(ACME)]}).tools()}
    signals = tools["find_writing_signals"]["inputSchema"]["properties"]["ruleIds"]["items"]["enum"]
    assert signals[-2:] == ["acme/no-etc", "acme/terms"] and "evidence" not in signals
    rules = tools["get_writing_rules"]["inputSchema"]["properties"]["ruleIds"]["items"]["enum"]
    assert rules == [*data.RULE_IDS, "acme/no-etc", "acme/terms"]
    plain = create_writing_tool_dispatcher().tools()
    assert "acme/terms" not in str(plain)


def test_packs_come_as_folders_paths_loaded_packs_or_settings() -> None:
    pack = load_pack(ACME)
    expected = _signals({"packs": [str(ACME)], "min-level": "suggestion"})
    assert _signals({"packs": [ACME], "min-level": "suggestion"}) == expected
    assert _signals({"packs": [pack], "min-level": "suggestion"}) == expected
    settings = SimpleNamespace(disable=(), min_level="suggestion", accept=(), packs=(pack,))
    assert _signals(settings) == expected
    assert _signals(SimpleNamespace(settings=settings)) == expected


def test_a_bad_pack_fails_at_creation() -> None:
    with pytest.raises(PackError, match="no such pack folder"):
        create_writing_tool_dispatcher(config={"packs": ["./no/such/pack"]})
    with pytest.raises(ValueError, match="no such pack folder"):  # a PackError is a ValueError
        create_writing_tool_dispatcher(config={"packs": ["./no/such/pack"]})
    with pytest.raises(SignalPolicyError, match="'packs' must be a list"):
        create_writing_tool_dispatcher(config={"packs": str(ACME)})
    with pytest.raises(SignalPolicyError, match="name a pack folder"):
        create_writing_tool_dispatcher(config={"packs": [3]})
    with pytest.raises(SignalPolicyError, match="unknown rule 'acme/none'"):
        create_writing_tool_dispatcher(config={"packs": [str(ACME)], "disable": ["acme/none"]})
    with pytest.raises(SignalPolicyError, match="unknown rule 'acme/terms'"):
        create_writing_tool_dispatcher(config={"disable": ["acme/terms"]})  # no pack: no such rule


def test_rule_selection_problem_takes_a_catalog() -> None:
    catalog = catalog_for([load_pack(ACME)])
    assert rule_selection_problem(None, ["acme/terms"], catalog=catalog) is None
    assert "Unknown rule id 'acme/terms'" in str(rule_selection_problem(None, ["acme/terms"]))
    assert "not part of profile" in str(rule_selection_problem("public-docs", ["acme/terms"], catalog=catalog))


def test_a_pack_line_edited_by_hand_is_an_error_envelope_naming_the_pack(tmp_path: Path) -> None:
    # The section's checksum made to match: the dispatcher loads the pack; the bad fix is read at a hit.
    import shutil

    from tests.packs.test_loader import set_line

    folder = tmp_path / "acme"
    shutil.copytree(ACME, folder, ignore=shutil.ignore_patterns("__pycache__"))
    set_line(folder, "fixes", "acme/terms", "sign-in-en", '[["(?i)(log in", "sign in"]]')
    dispatcher = create_writing_tool_dispatcher(config={"packs": [str(folder)]})
    call = {"name": "find_writing_signals", "arguments": {"text": TEXT}, "id": 7}
    for result in (dispatcher.dispatch(call), asyncio.run(dispatcher.dispatch_async(call))):
        # The host's configuration is broken, not the call: the documented code for a dispatcher
        # without the host context a tool needs, never internal-error (a bug by contract).
        assert result["ok"] is False and result["tool"] == "find_writing_signals" and result["id"] == 7
        assert result["error"]["code"] == "host-context-missing", result
        assert result["error"]["pack"] == str(folder)
        message = result["error"]["message"]
        assert message.startswith(f"pack {folder}: _pack_data.py was changed after it was built")
        assert f"run `writing-rules pack build {folder}`" in message
        assert "not a problem with the call" in message  # the model is told not to retry with other arguments
        json.dumps(result, allow_nan=False)
    # The tools that read no pack section still answer.
    assert dispatcher.dispatch({"name": "get_writing_rules", "arguments": {"ruleIds": ["acme/terms"]}})["ok"]


def test_a_broken_pack_whose_folder_name_is_not_utf8_gives_an_envelope_that_encodes_as_utf8(tmp_path: Path) -> None:
    # The pack's folder as the host gave it, a name of bytes that are no UTF-8 (os.fsdecode's
    # surrogates): the envelope's ``pack`` is cleaned like its message, or it could not be sent.
    import os
    import shutil

    from tests.packs.test_loader import set_line

    folder = os.fsdecode(os.fsencode(str(tmp_path)) + b"/acme\xff")
    try:
        shutil.copytree(ACME, folder, ignore=shutil.ignore_patterns("__pycache__"))
    except (OSError, UnicodeEncodeError):
        pytest.skip("the file system takes no such name")
    set_line(Path(folder), "fixes", "acme/terms", "sign-in-en", '[["(?i)(log in", "sign in"]]')
    dispatcher = create_writing_tool_dispatcher(config={"packs": [folder]})
    call = {"name": "find_writing_signals", "arguments": {"text": TEXT}}
    for result in (dispatcher.dispatch(call), asyncio.run(dispatcher.dispatch_async(call))):
        assert result["error"]["code"] == "host-context-missing", result
        assert result["error"]["pack"].endswith("acme\ufffd")
        json.dumps(result, ensure_ascii=False, allow_nan=False).encode("utf-8")
