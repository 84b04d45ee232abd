"""A temporary git repository and a way to run the real ``writing-rules`` command in it."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from writing_rules.cli import main


@dataclass(frozen=True)
class Outcome:
    code: int
    out: str
    err: str

    def lines(self) -> list[str]:
        return self.out.splitlines()

    def json(self) -> Any:
        return json.loads(self.out)

    def rules(self) -> list[str]:
        """Rule ids of the text report's lines, in order."""
        return [line.split(": ")[1] for line in self.lines()]


def git(folder: Path, *arguments: str) -> str:
    result = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *arguments],
        cwd=folder,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty git repository as the working folder."""
    folder = tmp_path / "repo"
    folder.mkdir()
    git(folder, "init", "-q", "-b", "main")
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def scan(capsys: pytest.CaptureFixture[str]) -> Callable[..., Outcome]:
    """Run ``writing-rules scan ARGS`` in-process and capture what it prints."""

    def run(*arguments: str) -> Outcome:
        capsys.readouterr()
        code = main(["scan", *arguments])
        captured = capsys.readouterr()
        return Outcome(code, captured.out, captured.err)

    return run


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
