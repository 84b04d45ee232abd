"""``edit`` serves documentation files only, like the document tools; options widen it on purpose."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from writing_rules.cli import main

ATTACK = [{"operation": "append", "content": '[core]\n\tfsmonitor = "touch PWNED; false"\n'}]


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text("[core]\n")
    (tmp_path / "build.py").write_text("x = 1\n")
    (tmp_path / "ops.json").write_text(json.dumps(ATTACK))
    return tmp_path


@pytest.mark.parametrize(("document", "policy"), [(".git/config", "'.'"), ("build.py", "*.md")])
def test_edit_refuses_files_outside_the_policy(checkout: Path, capsys, document: str, policy: str) -> None:
    before = (checkout / document).read_bytes()
    assert main(["edit", document, "--ops", "ops.json"]) == 2
    err = capsys.readouterr().err
    assert policy in err and "Traceback" not in err
    assert (checkout / document).read_bytes() == before


def test_edit_options_widen_the_policy_on_purpose(checkout: Path, capsys) -> None:
    (checkout / "ops.json").write_text(json.dumps([{"operation": "append", "content": "y = 2\n"}]))
    assert main(["edit", "build.py", "--ops", "ops.json", "--include", "*.py"]) == 0
    assert (checkout / "build.py").read_text() == "x = 1\ny = 2\n"
    assert main(["edit", ".git/config", "--ops", "ops.json", "--include", "config"]) == 2
    assert main(["edit", ".git/config", "--ops", "ops.json", "--include", "config", "--allow-hidden"]) == 0
    assert (checkout / ".git" / "config").read_text() == "[core]\ny = 2\n"


def test_a_bad_include_pattern_is_a_usage_error(checkout: Path, capsys) -> None:
    assert main(["edit", "build.py", "--ops", "ops.json", "--include", "a/*.py"]) == 2
    assert "--include" in capsys.readouterr().err
