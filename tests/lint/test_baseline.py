"""Baselines, driven through ``writing-rules scan`` on temporary repositories."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from writing_rules.lint._baseline import BASELINE_VERSION

from .conftest import write

PAGE = "# Guide\n\nThis is a powerful tool.\n\nIt is very fast.\n"


def test_write_baseline_then_nothing_new_means_exit_0(repo: Path, scan) -> None:
    write(repo, "docs/page.md", PAGE)
    written = scan("docs", "--write-baseline", "baseline.json")
    assert written.code == 0
    assert "wrote 2 signals to baseline baseline.json" in written.err
    document = json.loads((repo / "baseline.json").read_text())
    assert document["writing-rules-baseline"] == BASELINE_VERSION
    assert {(entry["rule"], entry["path"], entry["count"]) for entry in document["entries"]} == {
        ("word-choice", "docs/page.md", 1),
        ("filler", "docs/page.md", 1),
    }
    outcome = scan("docs", "--baseline", "baseline.json")
    assert outcome.code == 0 and outcome.out == ""
    assert "2 in baseline" in outcome.err


def test_edits_elsewhere_do_not_revive_baselined_signals(repo: Path, scan) -> None:
    write(repo, "page.md", PAGE)
    scan("page.md", "--write-baseline", "baseline.json")
    write(
        repo, "page.md", "# Guide\n\nA new intro paragraph.\n\n" + PAGE.split("\n\n", 1)[1].replace("\n\n", "\n\n\n\n")
    )
    assert scan("page.md", "--baseline", "baseline.json").code == 0


def test_a_new_copy_of_a_baselined_sentence_is_new(repo: Path, scan) -> None:
    write(repo, "page.md", PAGE)
    scan("page.md", "--write-baseline", "baseline.json")
    write(repo, "page.md", PAGE + "\nIt is very fast.\n")
    outcome = scan("page.md", "--baseline", "baseline.json")
    assert outcome.code == 1
    assert outcome.lines() == ['page.md:7:7: filler: "very" Cut intensifiers and filler']


def test_a_changed_sentence_is_new_and_paths_are_relative_to_the_baseline(repo: Path, scan, monkeypatch) -> None:
    write(repo, "docs/page.md", PAGE)
    scan("docs/page.md", "--write-baseline", ".writing-rules-baseline.json")
    write(repo, "docs/page.md", PAGE.replace("very fast", "very quick"))
    monkeypatch.chdir(repo / "docs")
    outcome = scan("page.md", "--baseline", "../.writing-rules-baseline.json")
    assert outcome.rules() == ["filler"]


def test_baseline_and_directives_and_config_combine(repo: Path, scan) -> None:
    write(repo, "page.md", PAGE)
    scan("page.md", "--write-baseline", "b.json")
    write(repo, ".writing-rules.toml", 'disable = ["filler"]\n')
    write(repo, "page.md", PAGE + "\nAnother powerful idea.\n")
    assert scan("page.md", "--baseline", "b.json").rules() == ["word-choice"]


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("{not json", "corrupt JSON"),
        ('{"writing-rules-baseline": 99, "entries": []}', "format version 99"),
        ('{"entries": []}', "not a writing-rules baseline"),
        ('{"writing-rules-baseline": 1, "entries": [{"rule": "x"}]}', "entry 0 is malformed"),
    ],
)
def test_corrupt_or_foreign_baseline_is_exit_2(repo: Path, scan, content: str, fragment: str) -> None:
    write(repo, "page.md", PAGE)
    write(repo, "b.json", content)
    outcome = scan("page.md", "--baseline", "b.json")
    assert outcome.code == 2
    assert fragment in outcome.err
    assert "--write-baseline b.json" in outcome.err
    assert "Traceback" not in outcome.err


def test_missing_baseline_and_both_options(repo: Path, scan) -> None:
    write(repo, "page.md", PAGE)
    missing = scan("page.md", "--baseline", "none.json")
    assert missing.code == 2 and "cannot read baseline none.json" in missing.err
    both = scan("page.md", "--baseline", "a.json", "--write-baseline", "b.json")
    assert both.code == 2 and "not both" in both.err


@pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform.startswith("win"), reason="POSIX links")
def test_write_baseline_never_follows_a_link_at_its_temporary_name(repo: Path, scan) -> None:
    # Issue 25: the temporary name was FILE.<pid>.tmp; links planted at every likely pid caught it.
    write(repo, "page.md", PAGE)
    victim = repo.parent / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    for pid in {os.getpid(), *range(1, 400)}:
        os.symlink(victim, repo / f"baseline.json.{pid}.tmp")
    outcome = scan("page.md", "--write-baseline", "baseline.json")
    assert outcome.code == 0
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert json.loads((repo / "baseline.json").read_text(encoding="utf-8"))["entries"]
    assert not list(repo.glob(".baseline.json.*.tmp"))
