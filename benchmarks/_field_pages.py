"""Which field_eval pages are held out: one reading of ``heldout.txt`` and ``heldout-next.txt``.

Every script and test that reads the whole field corpus leaves these pages out, so nothing of the
package runs on a blind round's pages before they are measured. A list names pages by their path
under ``corpus/<lang>/``; a name that is no page (a typo, a language prefix, ``./``) would hold
nothing out while the page it meant is scanned, so such a list is refused.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["HELD_OUT_LISTS", "FieldDataError", "corpus_pages", "held_out_pages", "page_list"]

# The current round's pages, and the next round's while the current one is held out.
HELD_OUT_LISTS = ("heldout.txt", "heldout-next.txt")


class FieldDataError(ValueError):
    """A list, judgement or annotation file of ``field_eval`` is malformed or names what is not there."""


def corpus_pages(corpus: Path) -> list[str]:
    """Every page under ``corpus/en`` (``.md``, ``.mdx``), named by its path there, as the lists name it."""
    english = corpus / "en"
    pages = (path for path in english.rglob("*") if path.name.endswith((".md", ".mdx")))
    return sorted(path.relative_to(english).as_posix() for path in pages)


def page_list(corpus: Path, name: str) -> list[str]:
    """The pages one list beside ``corpus`` names (none when it is absent); every name must be a page."""
    path = corpus.parent / name
    listed = path.read_text(encoding="utf-8-sig").split() if path.exists() else []
    known = set(corpus_pages(corpus))
    unknown = [page for page in listed if page not in known]
    if unknown:
        raise FieldDataError(
            f"{path}: not pages of corpus/en (name each by its path under corpus/<lang>/, as"
            f" 'maint-guide/05-changelog.md'), so they would hold nothing out: {', '.join(unknown)}"
        )
    return listed


def held_out_pages(corpus: Path) -> set[Path]:
    """The pages of both lists, in both languages: nothing of the package runs on them."""
    names = [page for name in HELD_OUT_LISTS for page in page_list(corpus, name)]
    return {corpus / language / name for language in ("en", "de") for name in names}
