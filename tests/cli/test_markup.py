"""``scan --markup`` and ``--include-code``: documents read as a reader sees them."""

from __future__ import annotations

from pathlib import Path

import pytest

from writing_rules.cli import main

DOCUMENT = (
    "# Guide\n\nThis is a powerful tool.\n\n```\nA powerful snippet.\n```\n\n"
    "Call `powerful()` or see [docs](https://example.com/powerful).\n\n<!-- powerful comment -->\n"
)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line]


def test_markdown_code_and_markup_hits_are_left_out(folder: Path, capsys) -> None:
    (folder / "guide.md").write_text(DOCUMENT, encoding="utf-8")
    assert main(["scan", "--rule", "word-choice", "guide.md"]) == 1
    (line,) = lines(capsys.readouterr().out)
    assert line.startswith("guide.md:3:11: word-choice:")


def test_include_code_brings_code_hits_back_marked(folder: Path, capsys) -> None:
    (folder / "guide.md").write_text(DOCUMENT, encoding="utf-8")
    assert main(["scan", "--rule", "word-choice", "--include-code", "guide.md"]) == 1
    found = lines(capsys.readouterr().out)
    assert [line.split(":")[1:3] for line in found] == [["3", "11"], ["6", "3"], ["9", "7"]]
    assert [line.endswith("(in code)") for line in found] == [False, True, True]


def test_markup_is_chosen_by_extension_and_overridden(folder: Path, capsys) -> None:
    (folder / "guide.txt").write_text(DOCUMENT, encoding="utf-8")
    # Plain text: everything is prose, the fence and the URL included.
    assert main(["scan", "--rule", "word-choice", "guide.txt"]) == 1
    assert len(lines(capsys.readouterr().out)) == 5
    assert main(["scan", "--rule", "word-choice", "--markup", "markdown", "guide.txt"]) == 1
    assert len(lines(capsys.readouterr().out)) == 1


def test_html_and_rst_files(folder: Path, capsys) -> None:
    (folder / "page.html").write_text(
        '<p>A <a href="https://x.io/powerful">powerful</a> tool.</p><pre>powerful</pre>', encoding="utf-8"
    )
    (folder / "page.rst").write_text("A powerful tool.\n\n.. powerful comment\n\n``powerful``\n", encoding="utf-8")
    assert main(["scan", "--rule", "word-choice", "page.html", "page.rst"]) == 1
    found = lines(capsys.readouterr().out)
    assert [line.split(":")[:3] for line in found] == [["page.html", "1", "38"], ["page.rst", "1", "3"]]


def test_a_document_the_reader_cannot_read_is_scanned_as_text_with_a_note(
    folder: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    from writing_rules.prose import _reader

    def broken(*args: object, **kwargs: object) -> None:
        raise IndexError("a reader bug")

    monkeypatch.setattr(_reader, "read_markdown", broken)
    (folder / "guide.md").write_text(DOCUMENT, encoding="utf-8")
    assert main(["scan", "--rule", "word-choice", "guide.md"]) == 1
    out, err = capsys.readouterr()
    assert len(lines(out)) == 5
    assert "guide.md: read as plain text: the markdown reader failed (IndexError)" in err


def test_unknown_markup_is_a_usage_error(folder: Path, capsys) -> None:
    (folder / "guide.md").write_text(DOCUMENT, encoding="utf-8")
    assert main(["scan", "--markup", "asciidoc", "guide.md"]) == 2
    assert "--markup" in capsys.readouterr().err
