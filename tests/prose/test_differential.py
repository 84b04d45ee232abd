"""Differential test: the prose view's words equal the words of markdown-it-py's rendering.

Code and URLs are left out on both sides (``markdown_reference``). The
documents are real pages (``corpus/``, CC BY 4.0) and generated ones.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from writing_rules.prose import read_prose

from .markdown_reference import reference_words, words
from .markdown_strategies import markdown_document

CORPUS = Path(__file__).parent / "corpus"
PAGES = sorted(CORPUS.rglob("*.md"))
GENERATED = 1000


def test_the_corpus_is_there() -> None:
    assert len([page for page in PAGES if page.name != "README.md"]) == 10


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(CORPUS)))
def test_real_pages_read_as_markdown_it_py_renders_them(page: Path) -> None:
    source = page.read_text(encoding="utf-8")
    expected = reference_words(source)
    assert len(expected) > 100
    assert words(read_prose(source).text) == expected


@settings(max_examples=GENERATED, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(markdown_document())
def test_generated_documents_read_as_markdown_it_py_renders_them(document: str) -> None:
    assert words(read_prose(document).text) == reference_words(document)
