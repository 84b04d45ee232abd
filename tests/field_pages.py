"""The field corpus pages the corpus-wide tests read: a fixed sample of each source.

Each source (``corpus/<lang>/<manual>``) gives its first ``PAGES_PER_SOURCE`` pages in sorted
order, the held-out pages left out (``benchmarks/_field_pages.py``): every manual, language and
markup the corpus holds is read, and the tests do not grow with each field round.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from benchmarks._field_pages import held_out_pages

__all__ = ["CORPUS", "PAGES_PER_SOURCE", "sample_by_source", "sampled_pages"]

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "field_eval" / "corpus"
PAGES_PER_SOURCE = 8


def sample_by_source(pages: Iterable[Path], corpus: Path = CORPUS, per_source: int = PAGES_PER_SOURCE) -> list[Path]:
    """The first ``per_source`` pages of each source (language/source folder), in sorted order."""
    by_source: dict[tuple[str, ...], list[Path]] = {}
    for page in sorted(pages):
        by_source.setdefault(page.relative_to(corpus).parts[:2], []).append(page)
    return sorted(page for chosen in by_source.values() for page in chosen[:per_source])


def sampled_pages(folder: Path, suffixes: tuple[str, ...] = (".md", ".mdx"), corpus: Path = CORPUS) -> list[Path]:
    """The sample of the pages under ``folder`` (the corpus or one language of it), held-out pages left out."""
    held_out = held_out_pages(corpus)
    return sample_by_source(
        (
            path
            for path in folder.rglob("*")
            if path.suffix in suffixes and path.name != "README.md" and path not in held_out
        ),
        corpus,
    )
