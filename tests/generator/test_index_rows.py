"""The signal index as compact rows: written by the compiler, expanded by the runtime, nothing lost."""

from __future__ import annotations

import difflib
import importlib.util
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import CompileResult, compile_sources
from generator._index_rows import _texts, index_rows
from generator._render import language_indexes
from writing_rules import _rules_data as data
from writing_rules._index_rows import expand_words

from .sources import WORD_CHOICE, write_tree

ROOT = Path(__file__).resolve().parents[2]

# Letters, the characters the shipped texts hold, and every character the rows reserve.
_CHARS = st.sampled_from("abcdeäß ',.!-/#%’=>&;@:|{}~\"\\")
_TEXTS = st.lists(st.text(_CHARS, max_size=6), min_size=1, max_size=5, unique=True).map(lambda t: tuple(sorted(t)))
_NUMBERS = st.lists(st.integers(-1, 40), min_size=1, max_size=8, unique=True).map(lambda n: tuple(sorted(n)))
_PATTERNS = st.lists(st.integers(0, 40), min_size=1, max_size=8, unique=True).map(lambda n: tuple(sorted(n)))
_CHECK = st.tuples(_TEXTS.map(lambda t: tuple(x for x in t if x)), _NUMBERS, _PATTERNS)
# Patterns are named by signal id in the rows: any slug will do.
NAMES = tuple(f"signal-{i}-{'en' if i % 2 else 'de'}" for i in range(41))
POSITIONS = {name: position for position, name in enumerate(NAMES)}
_ENTRIES = st.lists(st.tuples(_TEXTS, st.lists(_CHECK, min_size=1, max_size=4).map(tuple)), min_size=1, max_size=4)
_WORDS = st.dictionaries(st.text("abcäö", min_size=1, max_size=5), _ENTRIES.map(tuple), max_size=8)


@settings(max_examples=100, deadline=None)
@given(_WORDS)
def test_rows_expand_to_the_table_they_were_written_from(words: dict) -> None:
    words = dict(sorted(words.items()))
    rows, plain = index_rows(words, NAMES)
    assert expand_words(rows, plain, POSITIONS) == words
    # One line a key, and keys the rows cannot hold stay literals.
    assert len(rows.splitlines()) + len(plain) == len(words)


def test_products_are_written_as_their_parts() -> None:
    product = ("chaffen worden", "chaffen wurde", "chlagen worden", "chlagen wurde")
    assert _texts(product) == "ch{aff|lag}en w{orden|urde}"
    words = {"key": ((product, (((), (0,), (14,)),)),)}
    # No befores at offset 0 (the commonest check) is written as nothing.
    # The pattern at position 14 is written by its name, and read back as its position.
    names = (*NAMES[:14], "hype-en")
    assert index_rows(words, names) == ("key=ch{aff|lag}en w{orden|urde}>:hype-en\n", {})
    assert expand_words("key=ch{aff|lag}en w{orden|urde}>@0:hype-en\n", {}, {"hype-en": 14}) == words
    # A set that is no product is listed; befores lose their final space (one without it gets "~");
    # a check without patterns has those of the one before.
    positions = {"easy-en": 1, "just-en": 2, "simply-en": 7}
    assert expand_words("made=>a|an@3..6,9:easy-en,just-en;the@4;game-~@5&s>:simply-en\n", {}, positions) == {
        "made": (
            (("",), ((("a ", "an "), (3, 4, 5, 6, 9), (1, 2)), (("the ",), (4,), (1, 2)), (("game-",), (5,), (1, 2)))),
            (("s",), (((), (0,), (7,)),)),
        )
    }


def test_shipped_index_is_what_the_compiler_builds(shipped: CompileResult) -> None:
    """Expanded from its rows, each language's index equals the compiler's, field by field."""
    built = language_indexes(shipped.catalogue)
    for language, index in built.items():
        shipped = data.SIGNAL_INDEX[language]
        assert dict(shipped.words) == index.words
        assert list(shipped.words) == list(index.words)
        for field in ("key_size", "partial", "anchors", "start", "full", "suffixes"):
            assert getattr(shipped, field) == getattr(index, field), field


def test_equal_parts_of_the_expanded_index_are_shared() -> None:
    """Memory: equal checks and sets are one object, as the compiler's constants were."""
    for language in data.LANGUAGES:
        seen: dict[object, int] = {}
        for entries in data.SIGNAL_INDEX[language].words.values():
            for tails, checks in entries:
                for check in (tails, checks, *checks, *(befores for befores, _, _ in checks)):
                    assert seen.setdefault(check, id(check)) == id(check)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_pattern_edit_changes_a_handful_of_lines(tmp_path: Path, language: str) -> None:
    before = compile_sources(write_tree(tmp_path / "a"), timed=False).text
    old = "leistungsstark" if language == "de" else "seamless"
    assert old in WORD_CHOICE
    edited = WORD_CHOICE.replace(old, old + "e", 1) if language == "de" else WORD_CHOICE.replace(old, "effortless", 1)
    after_root = write_tree(tmp_path / "b", **{"rules-src/rules/word-choice.md": edited})
    after = compile_sources(after_root, timed=False).text
    changed = [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    # The digest line, the pattern's row in the table and the index keys it touches.
    assert 3 <= len(changed) <= 12, changed


def changed_lines(before: str, after: str) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


ADDED_SIGNAL = """\
  - id: buzz-en
    language: en
    pattern: '(?i)\\b(?:synergy|paradigm shift)\\b'
    must_match:
      - A [[paradigm shift]] for teams.
    must_not_match:
      - A shift in the paradigm.
"""


def test_adding_or_removing_a_signal_changes_a_handful_of_lines(tmp_path: Path, shipped: CompileResult) -> None:
    """Patterns are named, not numbered, in the index: one more at the top of the catalogue renumbers nothing.

    (Numbered by position, this addition rewrote 1,618 lines of the shipped module.)
    """
    shutil.copytree(ROOT / "rules-src", tmp_path / "rules-src")
    rule = tmp_path / "rules-src" / "rules" / "word-choice.md"
    text = rule.read_text(encoding="utf-8")
    assert "signals:\n  - id: hype-word-en\n" in text
    rule.write_text(text.replace("signals:\n", "signals:\n" + ADDED_SIGNAL, 1), encoding="utf-8")
    added = compile_sources(tmp_path, timed=False).text
    # The digest (2), the rule's signal ids, the pattern's row, the index keys it adds; removing it
    # again is the same diff the other way.
    assert 4 <= len(changed_lines(shipped.text, added)) <= 20, changed_lines(shipped.text, added)


def test_the_shipped_index_names_its_patterns() -> None:
    """A diff reader sees which pattern a key serves: its signal id, not a position."""
    text = (ROOT / "src" / "writing_rules" / "_rules_data.py").read_text(encoding="utf-8")
    assert ">:hype-word-en" in text or ",hype-word-en" in text


def test_a_key_whose_texts_hold_a_reserved_character_is_written_as_a_literal(tmp_path: Path) -> None:
    edited = WORD_CHOICE.replace("seamless(?:ly)?", "seamless;ly")
    root = write_tree(tmp_path, **{"rules-src/rules/word-choice.md": edited})
    result = compile_sources(root, timed=False)
    output = tmp_path / "out.py"
    output.write_text(result.text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("generated_with_a_literal_key", output)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    built = language_indexes(result.catalogue)["en"]
    assert any(line.startswith("'seaml': ") for line in result.text.splitlines())
    assert dict(module.SIGNAL_INDEX["en"].words) == built.words
    assert module.SIGNAL_TABLES["en"][0].regex.search("a seamless;ly fit")
