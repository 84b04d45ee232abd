"""``writing-rules scan`` reports long sentences as a reader sees them: wrapped lines joined, no URL or code."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from writing_rules.cli import main

SENTENCE = (
    "When you enable synchronisation for a workspace that already contains more than ten thousand files, "
    "the client first builds a local index of every file, then compares that index with the copy on the "
    "server, and only after both steps have finished does it start to upload the changes."
)
URL = "https://example.com/" + "/".join(["very-long-segment"] * 40)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def long_sentences(name: str, capsys: pytest.CaptureFixture[str], *options: str) -> list[dict[str, object]]:
    main(["scan", name, "--format", "json", "--rule", "long-sentences", *options])
    (entry,) = json.loads(capsys.readouterr().out)
    return list(entry["signals"])


def test_a_hard_wrapped_long_sentence_is_a_warning_at_its_source_lines(folder: Path, capsys) -> None:
    source = "# Sync\n\n" + textwrap.fill(SENTENCE, 72) + "\n"
    (folder / "guide.md").write_text(source, encoding="utf-8")
    assert main(["scan", "guide.md", "--rule", "long-sentences"]) == 1
    out, _ = capsys.readouterr()
    assert out.startswith("guide.md:3:1: long-sentences: ")
    (signal,) = long_sentences("guide.md", capsys)
    assert signal["level"] == "warning"
    assert signal["match"] == source[source.index("When") : source.index("changes.") + len("changes.")]


def test_urls_and_code_do_not_make_a_sentence_long(folder: Path, capsys) -> None:
    source = (
        f"Read [the upgrade notes]({URL}) and <{URL}> first.\n\n"
        f"Run `{' '.join(['--option'] * 60)}` to build.\n\n"
        f"```\n{SENTENCE}\n```\n\n"
        f"[notes]: {URL}\n"
    )
    (folder / "guide.md").write_text(source, encoding="utf-8")
    assert long_sentences("guide.md", capsys, "--min-level", "suggestion") == []
    assert long_sentences("guide.md", capsys, "--min-level", "suggestion", "--include-code") == []


def test_a_plain_text_file_keeps_its_urls_but_they_count_no_word(folder: Path, capsys) -> None:
    words = " ".join(["word"] * 40)
    (folder / "notes.txt").write_text(f"See {URL} and {words}.\n", encoding="utf-8")
    assert long_sentences("notes.txt", capsys) == []
    (folder / "more.txt").write_text(f"See {URL} and {words} more words now.\n", encoding="utf-8")
    (signal,) = long_sentences("more.txt", capsys)
    assert str(signal["match"]).startswith("See https://")


def test_german_pages_use_the_german_threshold(folder: Path, capsys) -> None:
    # 46 words: over the German warning's load (41 words, or 40 with several chained clauses,
    # or fewer when the structure is hard).
    satz = "Wenn Sie die Synchronisierung aktivieren, " + " ".join(["erstellt der Client einen Index"] * 8) + " jetzt."
    (folder / "anleitung.md").write_text(textwrap.fill(satz, 60) + "\n", encoding="utf-8")
    (signal,) = long_sentences("anleitung.md", capsys, "--language", "de")
    assert signal["level"] == "warning"
    assert signal["match"] == textwrap.fill(satz, 60)
