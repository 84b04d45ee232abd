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


# -- issue 25, finding 1: build, dependency and template files never; .mdx and .html when named -------

EXECUTED = ["CMakeLists.txt", "requirements.txt", "docs/page.mdx", "docs/_templates/x.html"]


@pytest.fixture
def site(checkout: Path) -> Path:
    for name in EXECUTED:
        (checkout / name).parent.mkdir(parents=True, exist_ok=True)
        (checkout / name).write_text("original\n")
    (checkout / "ops.json").write_text(json.dumps([{"operation": "append", "content": "execute_process(x)\n"}]))
    return checkout


@pytest.mark.parametrize("document", EXECUTED)
def test_edit_refuses_build_dependency_template_and_mdx_files(site: Path, capsys, document: str) -> None:
    assert main(["edit", document, "--ops", "ops.json"]) == 2
    err = capsys.readouterr().err
    assert document.rsplit("/", 1)[-1] in err and "Traceback" not in err
    assert (site / document).read_text() == "original\n"


def test_edit_serves_mdx_when_named_but_never_build_files(site: Path, capsys) -> None:
    assert main(["edit", "docs/page.mdx", "--ops", "ops.json", "--include", "*.mdx"]) == 0
    assert (site / "docs" / "page.mdx").read_text() == "original\nexecute_process(x)\n"
    assert main(["edit", "CMakeLists.txt", "--ops", "ops.json", "--include", "CMakeLists.txt"]) == 2
    assert main(["edit", "docs/_templates/x.html", "--ops", "ops.json", "--include", "*.html"]) == 2
    assert (site / "CMakeLists.txt").read_text() == "original\n"
    assert (site / "docs" / "_templates" / "x.html").read_text() == "original\n"
