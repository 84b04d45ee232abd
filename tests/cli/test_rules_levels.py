"""``writing-rules rules`` shows each rule's level and the signals whose level differs, in text and JSON."""

from __future__ import annotations

import json

import pytest

from writing_rules import _rules_data as data
from writing_rules.cli import main
from writing_rules.lint import DEFAULT_MIN_LEVEL, rule_level, signal_level


@pytest.mark.parametrize("language", ["en", "de"])
def test_json_gives_every_rules_level_and_its_differing_signals(capsys, language: str) -> None:
    assert main(["rules", "--format", "json", "--language", language]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert listing["defaultMinLevel"] == DEFAULT_MIN_LEVEL
    for rule in listing["rules"]:
        assert rule["level"] == rule_level(rule["id"])
        for signal_id, level in rule["signalLevels"].items():
            assert signal_id.endswith(f"-{language}")
            assert level == signal_level(rule["id"], signal_id) != rule["level"]
        # Every signal of the language left out agrees with its rule.
        for signal_id in data.RULES[rule["id"]].signal_levels or {}:
            if signal_id.endswith(f"-{language}") and signal_id not in rule["signalLevels"]:
                assert signal_level(rule["id"], signal_id) == rule["level"]
    by_id = {rule["id"]: rule for rule in listing["rules"]}
    assert by_id["placeholders"]["level"] == "error"
    if language == "en":
        assert by_id["passive-voice"]["level"] == "suggestion"
        assert by_id["passive-voice"]["signalLevels"]["instruction-passive-en"] == "warning"


def test_text_shows_the_level_first_and_the_signals_at_another_level(capsys) -> None:
    assert main(["rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    title = data.RULES["placeholders"].texts["en"].title
    assert any(line.startswith(f"placeholders: {title} (error; scanner signals;") for line in lines)
    start = next(index for index, line in enumerate(lines) if line.startswith("passive-voice: "))
    assert "(suggestion; " in lines[start]
    assert lines[start + 2].startswith("    Signals at another level: ")
    assert "instruction-passive-en warning" in lines[start + 2]
    assert lines[-1].startswith(f"scan reports signals at level {DEFAULT_MIN_LEVEL} and above")
