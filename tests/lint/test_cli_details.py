"""Details that decide whether the linter works in CI: stdin names, annotations, exit codes, --jobs."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

import writing_rules._rules_data as rules_data
from writing_rules.lint import signal_level

from .conftest import write

PAGE = "# Guide\n\nThis is a powerful tool.\n\nIt is very fast.\n"


def feed(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))


def test_stdin_filename_chooses_configuration_markup_and_name(repo: Path, scan, monkeypatch) -> None:
    write(repo, "docs/.writing-rules.toml", 'disable = ["word-choice"]\n')
    feed(monkeypatch, "Intro.\n\n.. writing-rules-disable-next-line\nA very fast tool.\n\nA very powerful tool.\n")
    outcome = scan("-", "--stdin-filename", "docs/guide.rst")
    assert outcome.lines() == ['docs/guide.rst:6:3: filler: "very" Cut intensifiers and filler']
    assert "docs/guide.rst: 1 signal" in outcome.err


def test_stdin_filename_needs_stdin(repo: Path, scan) -> None:
    write(repo, "page.md", PAGE)
    outcome = scan("page.md", "--stdin-filename", "x.md")
    assert outcome.code == 2 and "give - as a PATH" in outcome.err


def test_github_annotations(repo: Path, scan) -> None:
    write(repo, "docs/page.md", PAGE)
    outcome = scan("docs", "--format", "github")
    command = {"error": "error", "warning": "warning", "suggestion": "notice"}[
        signal_level("word-choice", "hype-word-en")
    ]
    first = outcome.lines()[0]
    assert first.startswith(f"::{command} file=docs/page.md,line=3,endLine=3,col=11,endColumn=19,title=word-choice%3A ")
    title = rules_data.RULES["word-choice"].texts["en"].title
    assert first.endswith(f'title=word-choice%3A {title}::"powerful": {title} | This is a powerful tool.')
    assert outcome.code == 1


def test_exit_1_only_when_a_reported_signal_remains(repo: Path, scan) -> None:
    write(repo, "page.md", "<!-- writing-rules-disable-file -->\n" + PAGE)
    assert scan("page.md").code == 0
    write(repo, "page.md", PAGE)
    write(repo, ".writing-rules.toml", 'disable = ["word-choice", "filler"]\n')
    assert scan("page.md").code == 0
    write(repo, ".writing-rules.toml", 'disable = ["word-choice"]\n')
    assert scan("page.md").code == 1
    assert scan("page.md", "--no-fail").code == 0


def test_nothing_scanned_is_modified(repo: Path, scan) -> None:
    write(repo, "page.md", PAGE)
    before = (repo / "page.md").stat()
    scan("page.md", "--write-baseline", "b.json")
    scan("page.md", "--baseline", "b.json", "--report-unused-suppressions")
    after = (repo / "page.md").stat()
    assert (before.st_mtime_ns, before.st_size) == (after.st_mtime_ns, after.st_size)
    assert (repo / "page.md").read_text() == PAGE


def test_jobs_give_the_same_output(repo: Path, scan) -> None:
    for index in range(12):
        write(repo, f"docs/p{index}.md", PAGE * (index + 1))
    write(repo, "docs/.writing-rules.toml", '[[overrides]]\npaths = ["p1*.md"]\ndisable = ["filler"]\n')
    one = scan("docs", "--jobs", "1", "--no-cache", "--format", "json")
    two = scan("docs", "--jobs", "2", "--no-cache", "--format", "json")
    assert one == two


def test_jobs_share_one_large_file_with_the_same_output(repo: Path, scan) -> None:
    paragraphs = [
        f"Paragraph {index}: a {'powerful' if index % 7 == 0 else 'plain'} tool 😀 for the reader.\r\n"
        if index % 3 == 0
        else f"Paragraph {index}: it is {'very' if index % 5 == 0 else 'always'} fast.\n\n"
        for index in range(9000)
    ]
    text = "".join(paragraphs)
    assert len(text) > 4 * 64_000
    write(repo, "big.md", text)
    write(repo, "small.md", PAGE)
    one = scan(".", "--jobs", "1", "--no-cache", "--format", "json")
    two = scan(".", "--jobs", "2", "--no-cache", "--format", "json")
    assert one == two
    (big, _) = one.json()
    source = (repo / "big.md").read_bytes().decode("utf-8")
    assert len(big["signals"]) == source.count("powerful") + source.count("very")
    for signal in big["signals"]:
        start = signal["start"]
        assert source[start : signal["end"]] == signal["match"]
        before = source[:start].replace("\r\n", "\n")
        assert signal["line"] == before.count("\n") + 1
        assert signal["column"] == len(before) - (before.rfind("\n") + 1) + 1
        assert signal["utf16Start"] == start + source[:start].count("😀")
