"""``writing-rules scan --format html``: one report, a section per file, positions of the whole file."""

from __future__ import annotations

from pathlib import Path

import pytest

from writing_rules import _rules_data as data
from writing_rules.cli import main

from .html_page import read_page

ENGLISH = "# Setup\r\n\r\nThis is a powerful <b>tool</b> for the team.\r\n"
GERMAN = "# Einrichtung\n\nDas ist ein leistungsstarkes Werkzeug für die Arbeit mit dem Team.\n"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_one_report_with_a_section_per_file_and_unreadable_files_named(folder: Path, capsys) -> None:
    (folder / "a.md").write_bytes(ENGLISH.encode())
    (folder / "b.md").write_bytes(GERMAN.encode())
    (folder / "c.md").write_bytes(b"\xff\xfe")
    # (German hype words are suggestions since issue 28: the German file shows them at that level.)
    assert main(["scan", ".", "--format", "html", "--output", "report.html", "--min-level", "suggestion"]) == 2
    assert capsys.readouterr().out == ""
    report = (folder / "report.html").read_text(encoding="utf-8")
    page = read_page(report)
    # Each file as a reader sees it: a heading and a paragraph, no "#" and no tags.
    assert page.documents == [
        "\nSetup\nThis is a powerful tool for the team.\n",
        "\nEinrichtung\nDas ist ein leistungsstarkes Werkzeug für die Arbeit mit dem Team.\n",
    ]
    assert len(page.attributes) >= 2
    sources = [ENGLISH, GERMAN]
    for number, attrs in page.attributes.items():
        # Offsets are the file's; the mark holds the same words, shown.
        source = sources[page.document_of[number]]
        start, end = int(attrs["data-start"]), int(attrs["data-end"])
        assert source[start:end] == "".join(page.pieces[number])
    assert "./c.md" in report and "not UTF-8" in report
    assert "&lt;b&gt;" not in report
    # Two languages detected: rule texts fall back to English.
    assert data.RULES["word-choice"].texts["en"].title in report


def test_jobs_give_the_same_report(folder: Path, capsys) -> None:
    for number in range(4):
        (folder / f"doc{number}.md").write_text(ENGLISH * (number + 1), encoding="utf-8")
    assert main(["scan", ".", "--format", "html"]) == 1
    single = capsys.readouterr().out
    assert main(["scan", ".", "--format", "html", "--jobs", "3"]) == 1
    assert capsys.readouterr().out == single
    assert len(read_page(single).documents) == 4


def test_language_option_sets_the_rule_texts(folder: Path, capsys) -> None:
    (folder / "b.md").write_text(GERMAN, encoding="utf-8")
    assert main(["scan", "b.md", "--format", "html", "--language", "de", "--no-fail", "--min-level", "suggestion"]) == 0
    out = capsys.readouterr().out
    assert '<html lang="de">' in out
    assert data.RULES["word-choice"].texts["de"].title in out
