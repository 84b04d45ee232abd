"""action.yml: its shell steps, with the inputs filled in as GitHub does, scan a sample folder.

The `uses:` steps (setup-python, upload-sarif) are GitHub's; the test runs every `run:`
script with bash as a composite action does (`bash --noprofile --norc -eo pipefail`), with
the step's `env:` expressions evaluated from the inputs, `github.action_path` and the
earlier steps' outputs. The install step really installs this checkout into a fresh venv.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
PAGE = "# Guide\n\nThis is a powerful tool.\n\nIt is very fast.\n"


def _evaluate(value: str, context: dict[str, str]) -> str:
    def one(found: re.Match[str]) -> str:
        name = found.group(1)
        assert name in context, f"action.yml uses {name!r}, which the test does not know"
        return context[name]

    return _EXPRESSION.sub(one, value)


def _inputs(**given: str) -> dict[str, str]:
    inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    unknown = set(given) - set(inputs)
    assert not unknown, unknown
    return {**inputs, **given}


class Run:
    def __init__(self, status: int, outputs: dict[str, dict[str, str]], stdout: str, stderr: str) -> None:
        self.status, self.outputs, self.stdout, self.stderr = status, outputs, stdout, stderr


def run_action(workspace: Path, venv: Path, skip_install: bool = True, **given: str) -> Run:
    """Every `run:` step in order, as the runner would; stops at the first failing step."""
    inputs = _inputs(**given)
    context = {f"inputs.{name}": value for name, value in inputs.items()}
    context["github.action_path"] = str(ROOT)
    outputs: dict[str, dict[str, str]] = {}
    stdout = stderr = ""
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("VIRTUAL_ENV", "PYTHON"))}
    environment["PATH"] = f"{venv / 'bin'}{os.pathsep}{environment['PATH']}"
    for step in ACTION["runs"]["steps"]:
        if "run" not in step:
            continue
        if skip_install and "pip install" in step["run"]:
            continue
        step_id = step.get("id", "")
        for name, value in outputs.get(step_id, {}).items():
            context[f"steps.{step_id}.outputs.{name}"] = value
        for other, values in outputs.items():
            for name, value in values.items():
                context[f"steps.{other}.outputs.{name}"] = value
        output_file = workspace.parent / f"output-{step_id or 'step'}"
        output_file.write_text("", encoding="utf-8")
        env = {name: _evaluate(str(value), context) for name, value in step.get("env", {}).items()}
        assert "${{" not in step["run"], "inputs must reach the script as environment variables"
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=workspace,
            env={**environment, **env, "GITHUB_OUTPUT": str(output_file)},
            capture_output=True,
            text=True,
        )
        stdout += done.stdout
        stderr += done.stderr
        if step_id:
            outputs[step_id] = dict(
                line.split("=", 1) for line in output_file.read_text(encoding="utf-8").splitlines() if "=" in line
            )
        if done.returncode != 0:
            return Run(done.returncode, outputs, stdout, stderr)
    return Run(0, outputs, stdout, stderr)


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with this checkout installed by the action's own install step."""
    folder = tmp_path_factory.mktemp("action") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    (install,) = [step for step in ACTION["runs"]["steps"] if "pip install" in step.get("run", "")]
    env = {name: _evaluate(str(value), {"github.action_path": str(ROOT)}) for name, value in install["env"].items()}
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("VIRTUAL_ENV", "PYTHON"))}
    environment["PATH"] = f"{folder / 'bin'}{os.pathsep}{environment['PATH']}"
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", install["run"]],
        env={**environment, **env},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (folder / "bin" / "writing-rules").exists()
    return folder


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "workspace"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "guide.md").write_text(PAGE, encoding="utf-8")
    (folder / "README.md").write_text("Install it and run it.\n", encoding="utf-8")
    return folder


def git(folder: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", *args],
        cwd=folder,
        check=True,
        capture_output=True,
    )


def test_the_action_is_composite_and_uses_the_documented_steps() -> None:
    assert ACTION["runs"]["using"] == "composite"
    uses = [step["uses"].split("@")[0] for step in ACTION["runs"]["steps"] if "uses" in step]
    assert uses == ["actions/setup-python", "github/codeql-action/upload-sarif"]
    (upload,) = [step for step in ACTION["runs"]["steps"] if "upload-sarif" in step.get("uses", "")]
    assert upload["with"]["sarif_file"] == "${{ inputs.sarif-file }}"
    assert {"paths", "diff-base", "min-level", "format"} <= set(ACTION["inputs"])


def test_annotations_fail_the_step_with_the_scans_status(workspace: Path, venv: Path) -> None:
    run = run_action(workspace, venv, paths="docs README.md")
    assert run.status == 1 and run.outputs["scan"]["exit-code"] == "1"
    lines = run.stdout.splitlines()
    assert len(lines) == 2 and all(line.startswith("::warning file=docs/guide.md,") for line in lines)
    # --quiet: the summary, no per-file lines.
    assert run.stderr.strip() == "writing-rules: 2 signals in 2 files"


def test_sarif_is_written_for_the_upload_and_fail_on_signals_false_passes(workspace: Path, venv: Path) -> None:
    import json

    run = run_action(workspace, venv, paths="docs", format="sarif", **{"fail-on-signals": "false"})
    assert run.status == 0 and run.outputs["scan"]["exit-code"] == "0"
    log = json.loads((workspace / "writing-rules.sarif").read_text(encoding="utf-8"))
    assert log["version"] == "2.1.0" and len(log["runs"][0]["results"]) == 2


def test_min_level_and_diff_base_narrow_the_report(workspace: Path, venv: Path) -> None:
    git(workspace, "init", "-q")
    git(workspace, "add", ".")
    git(workspace, "commit", "-q", "-m", "start")
    page = workspace / "docs" / "guide.md"
    page.write_text(PAGE + "\nThe release date is TBD.\n\nA powerful new step.\n", encoding="utf-8")
    run = run_action(workspace, venv, paths="docs", **{"diff-base": "HEAD"})
    assert [line.split(",")[1] for line in run.stdout.splitlines()] == ["line=7", "line=9"]
    run = run_action(workspace, venv, paths="docs", **{"diff-base": "HEAD", "min-level": "error"})
    assert [line.split("::")[1].split()[0] for line in run.stdout.splitlines()] == ["error"]
    assert "TBD" in run.stdout and run.status == 1


def test_an_input_cannot_run_shell_code(workspace: Path, venv: Path) -> None:
    run = run_action(workspace, venv, paths="docs $(touch PWNED) `touch PWNED2`", args="; touch PWNED3")
    assert not any((workspace / name).exists() for name in ("PWNED", "PWNED2", "PWNED3"))
    assert run.status == 2  # the odd words are taken as paths and options, and refused


def test_an_unknown_format_is_refused(workspace: Path, venv: Path) -> None:
    run = run_action(workspace, venv, format="xml")
    assert run.status == 2 and "format must be sarif or github" in run.stdout


def test_a_multi_line_paths_input_scans_every_line(workspace: Path, venv: Path) -> None:
    # `paths: |` in a workflow gives one path a line; every one of them is scanned.
    run = run_action(workspace, venv, paths="README.md\ndocs\n")
    assert run.status == 1
    assert run.stderr.strip() == "writing-rules: 2 signals in 2 files"


def test_a_bad_format_is_not_echoed_into_a_workflow_command(workspace: Path, venv: Path) -> None:
    run = run_action(workspace, venv, format="x\n::error::INJECTED")
    assert run.status == 2 and "INJECTED" not in run.stdout
