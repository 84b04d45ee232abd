"""The hook in ``.pre-commit-hooks.yaml``, run through ``pre-commit`` itself on a temporary repository.

pre-commit would install a ``language: python`` hook from the repository with
pip (network). The test keeps the manifest's entry, file filters and options
and only swaps the installation for this interpreter (``language: system``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .conftest import git, write

ROOT = Path(__file__).resolve().parents[2]
PRE_COMMIT = shutil.which("pre-commit") or str(Path(sys.executable).with_name("pre-commit"))


def manifest_hook() -> dict:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = [hook for hook in hooks if hook["id"] == "writing-rules"]
    return hook


def test_manifest_declares_the_writing_rules_hook() -> None:
    hook = manifest_hook()
    assert hook["entry"].split()[:2] == ["writing-rules", "scan"]
    assert set(hook["types_or"]) >= {"markdown", "rst"}
    assert hook["language"] == "python"


@pytest.fixture
def hooked(repo: Path, tmp_path: Path) -> tuple[Path, dict[str, str]]:
    hook = manifest_hook()
    command = hook["entry"].split()
    assert command[0] == "writing-rules"
    local = {
        **hook,
        "language": "system",
        "entry": " ".join([sys.executable, "-m", "writing_rules", *command[1:]]),
    }
    config = {"repos": [{"repo": "local", "hooks": [local]}]}
    write(repo, ".pre-commit-config.yaml", yaml.safe_dump(config))
    environment = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "PYTHONPATH": os.pathsep.join(path for path in sys.path if path),
    }
    return repo, environment


def pre_commit(repo: Path, environment: dict[str, str], *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PRE_COMMIT, "run", "writing-rules", *arguments],
        cwd=repo,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_hook_fails_on_signals_in_staged_docs_and_passes_when_clean(hooked) -> None:
    repo, environment = hooked
    write(repo, "docs/guide.md", "This is a powerful tool.\n")
    write(repo, "docs/notes.mdx", "{/* writing-rules-disable-next-line */}\nA very fast tool.\n\nIt is very fast.\n")
    write(repo, "docs/plain.txt", "Simply run it.\n")
    write(repo, "docs/ref.rst", "Title\n=====\n\nIt is very easy.\n")
    write(repo, "script.py", "# This is a powerful script.\n")
    write(repo, "LICENSE", "A very powerful licence.\n")
    git(repo, "add", "-A")
    failed = pre_commit(repo, environment)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    output = failed.stdout
    assert 'docs/guide.md:1:11: word-choice: "powerful"' in output
    assert "docs/notes.mdx:4:7: filler" in output and "docs/notes.mdx:2:" not in output
    assert "docs/plain.txt:1:1: easy-claims" in output
    assert "docs/ref.rst:4:" in output
    assert "script.py" not in output and "LICENSE" not in output

    for name, text in {
        "docs/guide.md": "Install the package.\n",
        "docs/notes.mdx": "Run the command.\n",
        "docs/plain.txt": "Run it.\n",
        "docs/ref.rst": "Title\n=====\n\nRun it.\n",
    }.items():
        write(repo, name, text)
    git(repo, "add", "-A")
    passed = pre_commit(repo, environment)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout


def test_hook_follows_the_team_configuration(hooked) -> None:
    repo, environment = hooked
    write(repo, ".writing-rules.toml", 'disable = ["word-choice"]\nexclude = ["vendor/**"]\n')
    write(repo, "docs/guide.md", "This is a powerful tool.\n")
    write(repo, "vendor/other.md", "It is very fast.\n")
    git(repo, "add", "-A")
    outcome = pre_commit(repo, environment, "--all-files")
    assert outcome.returncode == 0, outcome.stdout + outcome.stderr
