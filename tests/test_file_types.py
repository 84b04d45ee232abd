"""One table of file types: the prose readers, `scan`'s default globs and the document store's files."""

from __future__ import annotations

import fnmatch

import pytest

from writing_rules.cli._scan import DEFAULT_GLOBS
from writing_rules.documents import DOCUMENTATION_FILES
from writing_rules.lint import MARKUPS as SETTING_MARKUPS
from writing_rules.lint import FileSettings, lint_text
from writing_rules.prose import FILE_TYPES, MARKUPS, markup_for_path


def test_every_file_type_has_a_reader() -> None:
    assert {kind.markup for kind in FILE_TYPES.values()} <= set(MARKUPS)
    assert ("auto", *MARKUPS) == SETTING_MARKUPS


@pytest.mark.parametrize("extension", sorted(FILE_TYPES))
def test_scan_and_the_document_store_choose_files_by_the_table(extension: str) -> None:
    name = f"guide{extension}"
    kind = FILE_TYPES[extension]
    assert markup_for_path(name) == markup_for_path(name.upper()) == kind.markup
    assert any(fnmatch.fnmatch(name, glob) for glob in DEFAULT_GLOBS) is kind.scanned
    assert any(fnmatch.fnmatch(name, glob) for glob in DOCUMENTATION_FILES) is kind.served


def test_the_documented_defaults() -> None:
    assert DEFAULT_GLOBS == ("*.md", "*.markdown", "*.mdx", "*.rst", "*.txt")
    assert DOCUMENTATION_FILES == ("*.md", "*.markdown", "*.rst", "*.adoc", "*.txt")


def test_asciidoc_is_read_as_plain_text() -> None:
    # No AsciiDoc reader: its markup is prose to the scanner, never misread as Markdown.
    text = "= Guide\n\nThis is a _very_ powerful tool.\n"
    as_text = lint_text(text, "guide.txt", FileSettings(language="en"))
    as_adoc = lint_text(text, "guide.adoc", FileSettings(language="en"))
    assert as_adoc.markup == "text" and as_adoc.signals == as_text.signals
