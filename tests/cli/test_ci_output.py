"""Reviewer-sized CI output: ``--quiet``, ``--write-baseline`` and one-line ``--format github`` annotations."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules import _rules_data as data
from writing_rules.cli import main
from writing_rules.cli._formats import EXCERPT_LIMIT, sentence_excerpt

TITLE = data.RULES["word-choice"].texts["en"].title
PAGE = "# Guide\n\nThis is a powerful tool.\n\nIt is very fast.\n"
# About 90 words in one sentence, with the hype word in the middle and line breaks inside.
LONG = (
    "When the team that maintains the deployment scripts for the service decides after a long review\n"
    "of every option that the current approach no longer fits the needs of the people who run it every day,\n"
    "they choose a powerful replacement that handles the configuration, the secrets, the rollbacks\n"
    "and the monitoring in one place, and they write a guide for everyone who has to learn it\n"
    "before the next release goes out to the customers who depend on it for their own work and plans.\n"
)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    for name in ("a.md", "b.md", "c.md"):
        (tmp_path / "docs" / name).write_text(PAGE, encoding="utf-8")
    return tmp_path


def test_quiet_prints_no_per_file_lines_only_the_signals_and_a_summary(folder: Path, capsys) -> None:
    assert main(["scan", "docs", "--no-cache"]) == 1
    loud_out, loud_err = capsys.readouterr()
    assert "docs/a.md: 2 signals" in loud_err
    assert main(["scan", "--quiet", "docs", "--no-cache"]) == 1
    out, err = capsys.readouterr()
    assert out == loud_out and out.count("\n") == 6
    assert err == "writing-rules: 6 signals in 3 files\n"
    assert loud_err.splitlines()[-1] == "writing-rules: 6 signals in 3 files"


def test_quiet_still_names_a_file_that_could_not_be_read(folder: Path, capsys) -> None:
    (folder / "docs" / "bad.md").write_bytes(b"\xff\xfe not utf-8 \xff")
    assert main(["scan", "-q", "docs", "--no-cache"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and err[0].startswith("writing-rules: docs/bad.md: ")
    assert err[1] == "writing-rules: 6 signals in 3 files; 1 file not scanned"


def test_write_baseline_prints_only_the_summary(folder: Path, capsys) -> None:
    assert main(["scan", "docs", "--write-baseline", "baseline.json", "--no-cache"]) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == ["wrote 6 signals to baseline baseline.json", "writing-rules: 6 signals in 3 files"]
    assert (folder / "baseline.json").read_text(encoding="utf-8").count("word-choice") == 3


def test_github_annotation_is_one_line_with_match_title_and_sentence(folder: Path, capsys) -> None:
    (folder / "docs" / "long.md").write_text("# Guide\n\n" + LONG + "\nDone: 100% ready.\n", encoding="utf-8")
    assert main(["scan", "docs/long.md", "--format", "github", "--no-cache", "--rule", "word-choice"]) == 1
    out = capsys.readouterr().out
    (line,) = out.splitlines()
    assert "\\n" not in line and "\r" not in line
    properties, message = line.split("::")[1:]
    assert properties.endswith(f"title=word-choice%3A {TITLE}")
    shown, _, excerpt = message.partition(" | ")
    assert shown == f'"powerful": {TITLE}'
    assert "they choose a powerful replacement" in excerpt
    assert len(excerpt) <= EXCERPT_LIMIT and excerpt.startswith("…") and excerpt.endswith("…")


def test_github_annotation_escapes_percent_and_shortens_a_long_match(folder: Path, capsys) -> None:
    text = "# Guide\n\n" + LONG.replace("powerful", "100% powerful")
    (folder / "docs" / "long.md").write_text(text, encoding="utf-8")
    assert main(["scan", "docs/long.md", "--format", "github", "--no-cache", "--min-level", "suggestion"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert all(line.startswith("::") for line in lines)
    assert any("100%25 powerful" in line for line in lines)
    assert not any("100% " in line for line in lines)
    # long-sentences reports the whole sentence: the annotation shows its start, shortened.
    (long_sentence,) = [line for line in lines if "title=long-sentences" in line]
    message = long_sentence.split("::")[2]
    assert message.startswith('"When the team that maintains') and '…"' in message and len(message) < 200


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.sampled_from("ab .!?\n\r\t%é"), max_size=600),
    st.integers(0, 600),
    st.integers(0, 40),
)
def test_the_excerpt_is_one_line_within_the_limit_and_keeps_a_short_match(text: str, at: int, width: int) -> None:
    start = min(at, len(text))
    end = min(start + width, len(text))
    excerpt = sentence_excerpt(text, start, end)
    assert len(excerpt) <= EXCERPT_LIMIT
    assert "\n" not in excerpt and "\r" not in excerpt
    match = " ".join(text[start:end].split())
    assert match in excerpt
