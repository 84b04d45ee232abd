"""``writing-rules scan``: output formats, exit codes, file handling."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from writing_rules import _rules_data as data
from writing_rules.cli import main

TITLE = data.RULES["word-choice"].texts["en"].title
ENGLISH = "# Setup\n\nThis is a powerful tool for the team.\n"
GERMAN = "# Einrichtung\n\nDas ist ein leistungsstarkes Werkzeug für die Arbeit mit dem Team.\n"
CLEAN = "Install the package and run the first command.\n"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_text_format_is_one_compiler_style_line_per_signal(folder: Path, capsys) -> None:
    (folder / "guide.md").write_text(ENGLISH, encoding="utf-8")
    assert main(["scan", "guide.md"]) == 1
    out, err = capsys.readouterr()
    assert out == f'guide.md:3:11: word-choice: "powerful" {TITLE}\n'
    assert "guide.md: 1 signal (language en, detected)" in err


PASSIVE = "# Setup\n\nThe file is created by the installer.\n"


def test_default_level_hides_suggestions_and_min_level_brings_them_back(folder: Path, capsys) -> None:
    (folder / "guide.md").write_text(PASSIVE, encoding="utf-8")
    assert data.RULES["passive-voice"].signal_levels["be-participle-en"] == "suggestion"
    assert main(["scan", "guide.md", "--format", "json"]) == 0  # a suggestion alone does not fail CI
    (entry,) = json.loads(capsys.readouterr().out)
    assert entry["signals"] == [] and entry["totalSignals"] == 0
    assert main(["scan", "guide.md", "--format", "json", "--min-level", "suggestion"]) == 1
    (entry,) = json.loads(capsys.readouterr().out)
    assert [(s["ruleId"], s["level"], s["match"]) for s in entry["signals"]] == [
        ("passive-voice", "suggestion", "is created")
    ]
    (folder / "mixed.md").write_text(ENGLISH + "\nThe release date is TBD.\n", encoding="utf-8")
    assert main(["scan", "mixed.md", "--format", "json", "--min-level", "error"]) == 1
    (entry,) = json.loads(capsys.readouterr().out)
    assert {signal["level"] for signal in entry["signals"]} == {"error"}


def test_sarif_levels_are_error_warning_and_note(folder: Path, capsys) -> None:
    (folder / "guide.md").write_text(ENGLISH + PASSIVE, encoding="utf-8")
    assert main(["scan", "guide.md", "--format", "sarif", "--min-level", "suggestion"]) == 1
    run = json.loads(capsys.readouterr().out)["runs"][0]
    levels = {result["ruleId"]: result["level"] for result in run["results"]}
    assert levels == {"word-choice": "warning", "passive-voice": "note"}
    defaults = {rule["id"]: rule["defaultConfiguration"]["level"] for rule in run["tool"]["driver"]["rules"]}
    assert defaults["word-choice"] == "warning" and defaults["passive-voice"] == "note"
    assert defaults["placeholders"] == "error"


def test_clean_file_exits_0_and_no_fail_turns_signals_into_0(folder: Path, capsys) -> None:
    (folder / "clean.md").write_text(CLEAN, encoding="utf-8")
    (folder / "guide.md").write_text(ENGLISH, encoding="utf-8")
    assert main(["scan", "clean.md"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["scan", "guide.md", "--no-fail"]) == 0
    assert "powerful" in capsys.readouterr().out


def test_json_holds_tool_data_path_and_language_per_file(folder: Path, capsys) -> None:
    (folder / "a.md").write_text(ENGLISH, encoding="utf-8")
    (folder / "b.md").write_text(GERMAN, encoding="utf-8")
    # (German hype words are suggestions since issue 28: the German file shows them at that level.)
    assert main(["scan", "b.md", "a.md", "--format", "json", "--min-level", "suggestion"]) == 1
    files = json.loads(capsys.readouterr().out)
    assert [entry["path"] for entry in files] == ["a.md", "b.md"]  # sorted by path
    assert [entry["language"] for entry in files] == ["en", "de"]
    signal = files[0]["signals"][0]
    assert ENGLISH[signal["start"] : signal["end"]] == signal["match"] == "powerful"
    assert files[1]["signals"][0]["match"] == "leistungsstarkes"
    assert set(files[0]) >= {"ruleIds", "signals", "totalSignals", "truncated", "path", "language"}


def test_explicit_language_overrides_detection(folder: Path, capsys) -> None:
    (folder / "b.md").write_text(GERMAN, encoding="utf-8")
    assert main(["scan", "b.md", "--language", "en", "--format", "json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert entry["language"] == "en"
    assert entry["signals"] == []


def test_sarif_has_rules_with_help_and_results_with_regions(folder: Path, capsys) -> None:
    (folder / "docs").mkdir()
    (folder / "docs" / "guide.md").write_text(ENGLISH, encoding="utf-8")
    assert main(["scan", "docs", "--format", "sarif"]) == 1
    log = json.loads(capsys.readouterr().out)
    assert log["version"] == "2.1.0" and "sarif" in log["$schema"]
    run = log["runs"][0]
    rule = run["tool"]["driver"]["rules"][0]
    assert rule["id"] == "word-choice"
    assert rule["shortDescription"]["text"] == TITLE
    assert rule["help"]["text"] and rule["defaultConfiguration"]["level"] in {"error", "warning", "note"}
    (result,) = run["results"]
    assert result["ruleId"] == "word-choice" and result["level"] in {"error", "warning", "note"}
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "docs/guide.md"
    assert location["region"] == {
        "startLine": 3,
        "startColumn": 11,
        "endLine": 3,
        "endColumn": 19,
        "charOffset": ENGLISH.index("powerful"),
        "charLength": 8,
    }


def test_unreadable_and_missing_files_are_named_and_the_rest_is_scanned(folder: Path, capsys) -> None:
    (folder / "good.md").write_text(ENGLISH, encoding="utf-8")
    (folder / "latin1.md").write_bytes("Größe".encode("latin-1"))
    assert main(["scan", "good.md", "latin1.md", "gone.md"]) == 2  # input errors win over signals
    out, err = capsys.readouterr()
    assert "good.md:3:11" in out
    assert "latin1.md: not UTF-8" in err
    assert "gone.md: no such file or directory" in err


def test_directories_are_walked_for_the_default_globs_and_glob_changes_them(folder: Path, capsys) -> None:
    (folder / "docs" / "sub").mkdir(parents=True)
    (folder / ".git").mkdir()
    for name in ("docs/a.md", "docs/sub/b.rst", "docs/c.txt", "docs/d.markdown", "docs/e.py", ".git/f.md"):
        (folder / name).write_text(ENGLISH, encoding="utf-8")
    assert main(["scan", ".", "--format", "json"]) == 1
    paths = [Path(entry["path"]).as_posix() for entry in json.loads(capsys.readouterr().out)]
    assert paths == ["docs/a.md", "docs/c.txt", "docs/d.markdown", "docs/sub/b.rst"]
    assert main(["scan", "docs", "--glob", "*.py", "--format", "json"]) == 1
    paths = [Path(entry["path"]).as_posix() for entry in json.loads(capsys.readouterr().out)]
    assert paths == ["docs/e.py"]


def test_stdin_is_scanned_with_dash(folder: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(ENGLISH.encode("utf-8")), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main(["scan", "-"]) == 1
    assert capsys.readouterr().out.startswith("<stdin>:3:11: word-choice:")


def test_max_signals_caps_each_file(folder: Path, capsys) -> None:
    (folder / "many.md").write_text("powerful " * 30, encoding="utf-8")
    # Only word-choice: 270 characters without a full stop would also be a long sentence.
    assert main(["scan", "many.md", "--format", "json", "--max-signals", "4", "--rule", "word-choice"]) == 1
    (entry,) = json.loads(capsys.readouterr().out)
    assert len(entry["signals"]) == 4 and entry["totalSignals"] == 30 and entry["truncated"] is True


def test_more_signals_than_one_tool_call_returns_are_all_kept(folder: Path, capsys) -> None:
    (folder / "many.md").write_text("powerful tool.\n" * 1200, encoding="utf-8")
    assert main(["scan", "many.md", "--format", "json"]) == 1
    (entry,) = json.loads(capsys.readouterr().out)
    assert entry["totalSignals"] == 1200 and not entry["truncated"]
    assert [signal["line"] for signal in entry["signals"]] == list(range(1, 1201))


def test_jobs_give_the_same_output_as_one_process(folder: Path, capsys) -> None:
    for number in range(6):
        (folder / f"doc{number}.md").write_text(ENGLISH * (number + 1), encoding="utf-8")
    assert main(["scan", ".", "--format", "json"]) == 1
    single = capsys.readouterr().out
    assert main(["scan", ".", "--format", "json", "--jobs", "3"]) == 1
    assert capsys.readouterr().out == single


def test_output_option_writes_the_report_to_a_file(folder: Path, capsys) -> None:
    (folder / "guide.md").write_text(ENGLISH, encoding="utf-8")
    assert main(["scan", "guide.md", "--format", "sarif", "--output", "out.sarif"]) == 1
    assert capsys.readouterr().out == ""
    assert json.loads((folder / "out.sarif").read_text(encoding="utf-8"))["version"] == "2.1.0"


@pytest.mark.parametrize(
    ("arguments", "needle"),
    [
        (["--rule", "no-such-rule"], "no-such-rule"),
        (["--profile", "no-such-profile"], "no-such-profile"),
        (["--max-signals", "0"], "1 or more"),
        (["--min-level", "info"], "--min-level"),
    ],
)
def test_usage_errors_exit_2_with_a_message(folder: Path, capsys, arguments: list[str], needle: str) -> None:
    (folder / "guide.md").write_text(ENGLISH, encoding="utf-8")
    assert main(["scan", "guide.md", *arguments]) == 2
    out, err = capsys.readouterr()
    assert out == "" and needle in err


def test_a_review_only_rule_is_refused_for_scanning(folder: Path, capsys) -> None:
    review_only = next(rule.id for rule in data.RULES.values() if not rule.has_signals)
    (folder / "guide.md").write_text(ENGLISH, encoding="utf-8")
    assert main(["scan", "guide.md", "--rule", review_only]) == 2
    assert review_only in capsys.readouterr().err


def test_python_dash_m_runs_the_scan(folder: Path) -> None:
    (folder / "guide.md").write_text(ENGLISH, encoding="utf-8")
    source = Path(__file__).resolve().parents[2] / "src"
    environment = {**os.environ, "PYTHONPATH": str(source)}
    completed = subprocess.run(
        [sys.executable, "-m", "writing_rules", "scan", "guide.md"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=environment,
        cwd=folder,
        timeout=60,
    )
    assert completed.returncode == 1, completed.stderr
    assert completed.stdout == f'guide.md:3:11: word-choice: "powerful" {TITLE}\n'


@pytest.mark.parametrize(("name", "language"), [("getting-started.md", "en"), ("erste-schritte.md", "de")])
def test_the_shipped_examples_have_signals_in_their_language(capsys, name: str, language: str) -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / name
    assert main(["scan", str(example), "--format", "json"]) == 1
    (entry,) = json.loads(capsys.readouterr().out)
    assert entry["language"] == language and entry["signals"]
