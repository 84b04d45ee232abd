"""``rules``, ``prompt``, ``tools`` and ``edit``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from writing_rules import _rules_data as data
from writing_rules.cli import main
from writing_rules.tools import writing_review_tools


def test_rules_lists_every_rule_in_catalogue_order(capsys) -> None:
    assert main(["rules", "--format", "json"]) == 0
    listed = [rule["id"] for rule in json.loads(capsys.readouterr().out)["rules"]]
    assert listed == list(data.RULE_IDS)


def test_rules_full_detail_in_german_shows_instructions(capsys) -> None:
    assert main(["rules", "--language", "de", "--detail", "full"]) == 0
    out = capsys.readouterr().out
    for rule in data.RULES.values():
        assert rule.texts["de"].title in out and rule.texts["de"].instruction in out


def test_prompt_carries_audience_goal_and_is_stable(capsys) -> None:
    profile = data.PROFILE_IDS[0]
    command = ["prompt", "--profile", profile, "--audience", "New admins", "--goal", "Install it"]
    assert main(command) == 0
    first = capsys.readouterr().out
    assert "New admins" in first and "Install it" in first
    assert main(command) == 0
    assert capsys.readouterr().out == first


def test_prompt_refuses_blank_audience_and_unknown_profile(capsys) -> None:
    assert main(["prompt", "--profile", data.PROFILE_IDS[0], "--audience", " ", "--goal", "x"]) == 2
    assert "--audience" in capsys.readouterr().err
    assert main(["prompt", "--profile", "nope", "--audience", "a", "--goal", "g"]) == 2
    assert "nope" in capsys.readouterr().err


def test_tools_prints_the_descriptors_and_documents_adds_two(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["tools"]) == 0
    assert json.loads(capsys.readouterr().out) == writing_review_tools()
    assert main(["tools", "--documents"]) == 0
    names = [tool["name"] for tool in json.loads(capsys.readouterr().out)]
    assert names[-2:] == ["read_document", "write_document"]


@pytest.fixture
def document(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    path = tmp_path / "docs" / "guide.md"
    path.write_bytes(b"# Guide\r\n\r\nA powerful tool.\r\n")
    return path


def _ops(folder: Path, operations: object) -> str:
    (folder / "ops.json").write_text(json.dumps(operations), encoding="utf-8")
    return "ops.json"


def test_edit_dry_run_prints_the_diff_and_writes_nothing(document: Path, capsys) -> None:
    ops = _ops(document.parents[1], [{"operation": "replaceBlock", "oldBlock": "powerful", "newBlock": "retrying"}])
    before = document.read_bytes()
    assert main(["edit", "docs/guide.md", "--ops", ops, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "-A powerful tool." in out and "+A retrying tool." in out
    assert document.read_bytes() == before


def test_edit_writes_and_keeps_crlf(document: Path, capsys) -> None:
    ops = _ops(document.parents[1], [{"operation": "replaceBlock", "oldBlock": "powerful", "newBlock": "retrying"}])
    assert main(["edit", "docs/guide.md", "--ops", ops]) == 0
    assert document.read_bytes() == b"# Guide\r\n\r\nA retrying tool.\r\n"


def test_edit_failure_names_the_reason_and_changes_nothing(document: Path, capsys) -> None:
    ops = _ops(document.parents[1], [{"operation": "replaceBlock", "oldBlock": "A powerfull tool", "newBlock": "x"}])
    before = document.read_bytes()
    assert main(["edit", "docs/guide.md", "--ops", ops]) == 2
    err = capsys.readouterr().err
    assert "docs/guide.md" in err and "closest" in err
    assert document.read_bytes() == before


def test_edit_refuses_a_file_outside_the_folder_and_bad_json(document: Path, capsys) -> None:
    folder = document.parents[1]
    ops = _ops(folder, [{"operation": "append", "content": "x"}])
    assert main(["edit", "../elsewhere.md", "--ops", ops]) == 2
    (folder / "bad.json").write_text("[{", encoding="utf-8")
    assert main(["edit", "docs/guide.md", "--ops", "bad.json"]) == 2
    assert "not a JSON list" in capsys.readouterr().err


def test_help_exits_0_and_describes_the_exit_status(capsys) -> None:
    assert main(["scan", "--help"]) == 0
    assert "Exit status" in capsys.readouterr().out
    assert main([]) == 2


@pytest.mark.parametrize(
    ("shape", "key"), [("openai", "function"), ("anthropic", "input_schema"), ("mcp", "annotations")]
)
def test_tools_in_provider_shapes(capsys, shape: str, key: str) -> None:
    assert main(["tools", "--format", shape]) == 0
    tools = json.loads(capsys.readouterr().out)
    assert len(tools) == 4 and all(key in tool for tool in tools)
