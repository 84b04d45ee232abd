"""The README's first two commands are the ones a new user runs: keep them true."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```console\n(.*?)```", text, re.DOTALL)
    assert block is not None, "the README opens with a console block"
    return block.group(1).splitlines()


def test_the_readme_opens_with_an_install_and_scan_command_and_a_test_command() -> None:
    install_and_scan, install_and_test = _readme_commands()
    assert install_and_scan.startswith("pip install . && writing-rules scan ")
    example = install_and_scan.split()[-1]
    assert (ROOT / example).is_file(), example
    assert install_and_test.startswith("pip install -e '.[test]' && python -m pytest")


def test_ci_runs_the_readmes_test_command_last() -> None:
    _, install_and_test = _readme_commands()
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line.strip() for line in script.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert commands[-1] == install_and_test


def test_the_readmes_example_output_is_what_the_first_command_prints() -> None:
    # A new user compares the README's lines with their terminal: they must be the same.
    import subprocess
    import sys

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = re.search(r"The scan prints.*?```text\n(.*?)```", text, re.DOTALL)
    assert shown is not None, "the README shows the example scan's output"
    example = _readme_commands()[0].split()[-1]
    done = subprocess.run(
        [sys.executable, "-m", "writing_rules", "scan", "--no-fail", example],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    printed = (done.stdout + done.stderr).splitlines()
    assert sorted(shown.group(1).splitlines()) == sorted(printed)
