"""``scan`` and ``edit`` on hostile files and options (issue 11, findings 2 and 6).

Each bad input is exit 2 with a one-line message naming it; nothing hangs,
nothing reads without bound, and no traceback reaches the user.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

import writing_rules
from writing_rules.cli import main

SOURCE_ROOT = str(Path(writing_rules.__file__).resolve().parent.parent)


def _cli(
    arguments: list[str], cwd: Path, *, cpu_seconds: int = 120, timeout: float = 120
) -> subprocess.CompletedProcess:
    def limit() -> None:
        # A generous CPU ceiling, not a timing: the quadratic cut took 4 minutes here.
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))

    return subprocess.run(
        [sys.executable, "-m", "writing_rules", *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": SOURCE_ROOT},
        preexec_fn=limit,
        timeout=timeout,
    )


def _one_line_error(run: subprocess.CompletedProcess) -> str:
    assert run.returncode == 2, (run.returncode, run.stderr[-2000:])
    assert "Traceback" not in run.stderr
    return run.stderr


def test_a_long_line_without_breaks_is_scanned_in_linear_time(tmp_path: Path) -> None:
    (tmp_path / "long.txt").write_text("word " * 50_000 + "powerful.")  # 250,009 characters, no break
    run = _cli(["scan", "--no-fail", "--language", "en", "long.txt"], tmp_path, cpu_seconds=60)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "long.txt:1:250001: " in run.stdout


def test_a_fifo_in_a_scanned_folder_is_reported_not_read(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("A powerful tool.\n")
    os.mkfifo(tmp_path / "docs" / "pipe.md")
    run = _cli(["scan", "docs"], tmp_path, timeout=60)
    err = _one_line_error(run)
    assert "pipe.md: not a regular file" in err
    assert "docs/a.md:1:3:" in run.stdout


def test_a_symlink_to_a_device_is_reported_not_read(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "zero.md").symlink_to("/dev/zero")
    for target in ("docs", "docs/zero.md"):
        run = _cli(["scan", target], tmp_path, timeout=60)
        assert "zero.md: not a regular file" in _one_line_error(run)


def test_a_file_over_max_file_size_is_reported(tmp_path: Path) -> None:
    (tmp_path / "big.md").write_text("A powerful tool.\n" * 100)
    (tmp_path / "small.md").write_text("A powerful tool.\n")
    run = _cli(["scan", "--max-file-size", "1K", "big.md", "small.md"], tmp_path)
    err = _one_line_error(run)
    assert "big.md: larger than --max-file-size" in err
    assert "small.md:1:3:" in run.stdout


@pytest.mark.parametrize(
    ("arguments", "needle"),
    [
        (["scan", "--jobs", "99999999999", "x.md"], "--jobs"),
        (["scan", "--max-signals", "99999999999999999999999", "x.md"], "--max-signals"),
        (["scan", "--max-file-size", "lots", "x.md"], "--max-file-size"),
        (["scan", "--max-file-size", "0", "x.md"], "--max-file-size"),
        (["scan", "--max-file-size", "9" * 40, "x.md"], "--max-file-size"),
    ],
)
def test_bad_option_values_are_one_line_usage_errors(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch, arguments: list[str], needle: str
) -> None:
    (tmp_path / "x.md").write_text("text\n")
    monkeypatch.chdir(tmp_path)  # (restored after the test: a worker's later tests keep their folder)
    assert main(arguments) == 2
    err = capsys.readouterr().err
    # argparse's usage lines, then the one line that says what is wrong.
    assert needle in err.strip().splitlines()[-1] and "Traceback" not in err


def test_deeply_nested_ops_json_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "doc.md").write_text("text\n")
    (tmp_path / "ops.json").write_text("[" * 200_000 + "]" * 200_000)
    err = _one_line_error(_cli(["edit", "doc.md", "--ops", "ops.json"], tmp_path))
    assert "--ops" in err and err.count("\n") == 1
    assert (tmp_path / "doc.md").read_text() == "text\n"


def test_json_output_is_written_file_by_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("a.md", "b.md", "c.md"):
        (tmp_path / name).write_text("A powerful tool.\n" * 50)

    class Recorder:
        def __init__(self) -> None:
            self.writes: list[str] = []

        def write(self, text: str) -> int:
            self.writes.append(text)
            return len(text)

        def isatty(self) -> bool:
            return False

    out, err = Recorder(), Recorder()
    from writing_rules.cli._commands import run

    assert run(["scan", "--format", "json", "--no-fail", "."], None, out, err) == 0  # type: ignore[arg-type]
    report = "".join(out.writes)
    files = json.loads(report)
    assert [file["path"] for file in files] == ["./a.md", "./b.md", "./c.md"]
    assert report == json.dumps(files, ensure_ascii=False, indent=2) + "\n"
    assert len(out.writes) > 3 and max(map(len, out.writes)) < len(report) // 3
