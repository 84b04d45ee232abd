"""The result cache, driven through ``writing-rules scan``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import writing_rules._rules_data as rules_data
from writing_rules.cli import _scan

from .conftest import write

PAGE = "# Guide\n\nThis is a powerful tool.\n\nIt is very fast. <!-- writing-rules-disable-line filler -->\n"


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("v1/*/*.json"))


def no_scanning(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> None:
        raise AssertionError("scanned although the cache holds the result")

    monkeypatch.setattr(_scan, "_scan_text", refuse)


@pytest.mark.parametrize("format_", ["text", "json", "sarif", "github"])
def test_cached_results_are_byte_identical(repo: Path, scan, format_: str) -> None:
    write(repo, "docs/a.md", PAGE)
    write(repo, "docs/b.md", "Ein sehr leistungsstarkes Werkzeug.\n")
    fresh = scan("docs", "--format", format_, "--no-cache")
    assert not (repo / ".writing-rules-cache").exists()
    first = scan("docs", "--format", format_)
    second = scan("docs", "--format", format_)
    assert fresh == first == second
    assert len(entries(repo / ".writing-rules-cache")) == 2


def test_second_run_reads_the_cache_and_the_folder_ignores_itself(repo: Path, scan, monkeypatch) -> None:
    write(repo, "page.md", PAGE)
    first = scan("page.md")
    assert (repo / ".writing-rules-cache" / ".gitignore").read_text().splitlines()[-1] == "*"
    no_scanning(monkeypatch)
    assert scan("page.md") == first
    from .conftest import git

    assert git(repo, "status", "--porcelain", "--untracked-files=all").split() == ["??", "page.md"]


@pytest.mark.parametrize(
    "change",
    ["content", "config", "rule data", "version"],
)
def test_key_covers_content_config_rule_data_and_version(repo: Path, scan, monkeypatch, change: str) -> None:
    write(repo, "page.md", PAGE)
    scan("page.md")
    if change == "content":
        write(repo, "page.md", PAGE + "\nMore.\n")
    elif change == "config":
        write(repo, ".writing-rules.toml", 'accept = ["nothing"]\n')
    elif change == "rule data":
        monkeypatch.setattr(rules_data, "SOURCE_DIGEST", "0" * 64)
    else:
        monkeypatch.setattr(_scan, "__version__", "99.0")
    no_scanning(monkeypatch)
    with pytest.raises(AssertionError, match="scanned although"):
        scan("page.md")


def test_corrupt_and_partial_entries_are_ignored_and_rewritten(repo: Path, scan) -> None:
    write(repo, "a.md", PAGE)
    write(repo, "b.md", PAGE.replace("powerful", "robust"))
    first = scan("a.md", "b.md")
    one, two = entries(repo / ".writing-rules-cache")
    one.write_bytes(one.read_bytes()[:20])  # partial
    entry = json.loads(two.read_text())
    entry["key"] = "another key"  # an entry for something else
    two.write_text(json.dumps(entry))
    assert scan("a.md", "b.md") == first
    for path in entries(repo / ".writing-rules-cache"):
        assert json.loads(path.read_text())["key"] != "another key"


def test_an_entry_damaged_into_other_valid_json_is_not_trusted(repo: Path, scan) -> None:
    # A flipped byte inside a string still parses: the entry's digest of its value catches it.
    write(repo, "a.md", PAGE)
    first = scan("a.md")
    (entry,) = entries(repo / ".writing-rules-cache")
    damaged = entry.read_bytes().replace(b'"powerful"', b'"pOwerful"')
    assert damaged != entry.read_bytes()
    entry.write_bytes(damaged)
    json.loads(damaged)  # still valid JSON
    assert scan("a.md") == first
    assert b'"pOwerful"' not in entry.read_bytes()  # rewritten


def test_unwritable_cache_folder_warns_and_scans(repo: Path, scan) -> None:
    write(repo, "page.md", PAGE)
    write(repo, "blocker", "a file, not a folder")
    outcome = scan("page.md", "--cache-dir", "blocker/cache")
    assert outcome.code == 1
    assert outcome.rules() == ["word-choice"]
    assert outcome.err.count("warning: cannot write the cache in blocker/cache") == 1


def test_cache_dir_option(repo: Path, scan) -> None:
    write(repo, "page.md", PAGE)
    scan("page.md", "--cache-dir", "elsewhere")
    assert len(entries(repo / "elsewhere")) == 1
    assert not (repo / ".writing-rules-cache").exists()


def test_two_processes_sharing_the_cache(repo: Path) -> None:
    for index in range(40):
        write(repo, f"docs/page{index:02}.md", PAGE.replace("Guide", f"Guide {index}") * 5)
    command = [sys.executable, "-m", "writing_rules", "scan", "docs", "--format", "json"]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    expected = subprocess.run([*command, "--no-cache"], capture_output=True, text=True, env=environment).stdout
    runs = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
        for _ in range(2)
    ]
    outputs = [run.communicate()[0] for run in runs]
    assert outputs == [expected, expected]
    after = subprocess.run(command, capture_output=True, text=True, env=environment)
    assert after.stdout == expected and "warning" not in after.stderr
    assert len(entries(repo / ".writing-rules-cache")) == 40
    assert not list((repo / ".writing-rules-cache").glob("v1/*/.tmp-*"))
