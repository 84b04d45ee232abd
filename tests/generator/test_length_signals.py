"""Sentence-length signals (``max_words`` / ``max_chars``): validated; examples run through the runtime's counter."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator import SourceProblems, compile_sources, generate

from .sources import WORD_CHOICE, line_of, write_tree

RULE = "rules-src/rules/word-choice.md"
LONG_EN = "Every " + " ".join(["word"] * 11) + "."
# Lower-case: a run of capitalised words is one name to the sentence measure.
LONG_DE = " ".join(["wort"] * 12) + "."

LENGTH_RULE = WORD_CHOICE.replace(
    "signals:\n",
    f"""signals:
  - id: long-en
    language: en
    max_words: 10
    must_match:
      - '[[{LONG_EN}]] Short one.'
      - |-
        Read this first.
        [[{LONG_EN[:30]}
        {LONG_EN[30:]}]]
    must_not_match:
      - 'Read [the text](https://example.com/{"a/" * 60}) now.'
      - 'Run `{"x " * 40}` to build it now.'
  - id: long-de
    language: de
    level: suggestion
    max_words: 10
    max_chars: 400
    must_match:
      - '[[Das gilt z. B. hier, {LONG_DE}]]'
    must_not_match:
      - 'Kurz. Auch kurz.'
""",
)


def problems_of(root: Path) -> list[str]:
    with pytest.raises(SourceProblems) as caught:
        compile_sources(root, timed=False)
    return [str(problem) for problem in caught.value.problems]


def test_a_length_signal_compiles_into_the_length_table(tmp_path: Path) -> None:
    root = write_tree(tmp_path, **{RULE: LENGTH_RULE})
    output = tmp_path / "out.py"
    assert generate(root, output, timed=False).changed is True
    module = output.read_text(encoding="utf-8")
    assert "LengthSignal('word-choice', 'long-en', 'en', 10, None)," in module
    assert "LengthSignal('word-choice', 'long-de', 'de', 10, 400)," in module
    assert "'long-de': 'suggestion'" in module
    # Not in the pattern table: it has no pattern.
    table = module[module.index("SIGNAL_TABLES") : module.index("LENGTH_SIGNALS")]
    assert "long-en" not in table


def test_a_must_match_example_without_a_long_sentence_is_refused(tmp_path: Path) -> None:
    text = LENGTH_RULE.replace(f"'[[{LONG_EN}]] Short one.'", "'Short one. Another one.'")
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert found == [
        f"{RULE}:{line_of(text, 'Short one. Another one.')}:9: no sentence of this must_match example "
        "is longer than 10 words: 'Short one. Another one.'"
    ]


def test_a_must_not_match_example_with_a_long_sentence_is_refused(tmp_path: Path) -> None:
    text = LENGTH_RULE.replace("'Kurz. Auch kurz.'", f"'Kurz. {LONG_DE}'")
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert found == [
        f"{RULE}:{line_of(text, 'Kurz. wort')}:9: this must_not_match example has a sentence longer than "
        f"10 words or 400 characters: {LONG_DE!r}"
    ]


def test_the_marked_span_must_be_the_long_sentence(tmp_path: Path) -> None:
    text = LENGTH_RULE.replace(f"'[[{LONG_EN}]] Short one.'", f"'[[{LONG_EN} Short one.]]'")
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert found == [
        f"{RULE}:{line_of(text, 'Short one.]]')}:9: the long sentences are {LONG_EN!r}; "
        f"the example marks {LONG_EN + ' Short one.'!r}"
    ]


def test_a_signal_needs_a_pattern_or_a_length(tmp_path: Path) -> None:
    text = LENGTH_RULE.replace("    max_words: 10\n    must_match:\n      - '[[", "    must_match:\n      - '[[", 1)
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert found == [
        f"{RULE}:{line_of(text, 'id: long-en')}:5: signal has neither 'pattern' nor a sentence length "
        "('max_words', 'max_chars'); give it a pattern, or the number of words (or characters) above which "
        "a sentence is flagged"
    ]


def test_a_pattern_and_a_length_exclude_each_other(tmp_path: Path) -> None:
    text = WORD_CHOICE.replace("    language: en\n", "    language: en\n    max_words: 40\n")
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert found == [
        f"{RULE}:{line_of(text, 'max_words: 40')}:5: 'max_words' belongs to a sentence-length signal, which has "
        "no 'pattern'; make this two signals, one with the pattern and one with the length"
    ]


def test_a_length_signal_has_no_fixes(tmp_path: Path) -> None:
    fixes = "    fixes:\n      - match: 'x'\n        replacement: 'y'\n"
    fixes += "        examples:\n          - {before: a, after: b}\n"
    text = LENGTH_RULE.replace("    max_chars: 400\n", "    max_chars: 400\n" + fixes)
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert found == [
        f"{RULE}:{line_of(text, 'fixes:')}:5: a sentence-length signal cannot have fixes: "
        "splitting a sentence is no safe fix"
    ]


@pytest.mark.parametrize("value", ["0", "ten", "1.5"])
def test_a_length_must_be_a_positive_whole_number(tmp_path: Path, value: str) -> None:
    before = "max_words: 10\n    must_match:\n      - '[["
    text = LENGTH_RULE.replace(before, before.replace("10", value), 1)
    (problem,) = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert problem.startswith(f"{RULE}:{line_of(text, f'max_words: {value}')}:16: signals/0/max_words: ")


def test_table_is_an_excluded_context_the_rule_text_must_name(tmp_path: Path) -> None:
    text = LENGTH_RULE.replace("profiles: [public-docs]\n", "profiles: [public-docs]\nexcluded_contexts: [table]\n")
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert sorted(problem.split(": ", 1)[1] for problem in found) == [
        f"excluded context 'table' is not named in '## {language}' '### Applies when'; say there that the rule "
        "does not apply to it, so the model and the scanner agree"
        for language in ("de", "en")
    ]
    text = text.replace("Product copy.", "Product copy, not tables.").replace(
        "Produkttexte.", "Produkttexte, keine Tabellen."
    )
    result = compile_sources(write_tree(tmp_path, **{RULE: text}), timed=False)
    assert result.catalogue.rules[1].excluded_contexts == ("table",)


def test_min_clauses_narrows_the_word_limit_and_reaches_the_length_table(tmp_path: Path) -> None:
    # Issue 28: a length signal that counts a long sentence only when it chains several clauses.
    chained = "If you ask, " + " ".join(["word"] * 6) + " because " + " ".join(["word"] * 4) + "."
    text = LENGTH_RULE.replace(
        "  - id: long-de\n",
        f"""  - id: chained-en
    language: en
    max_words: 10
    min_clauses: 3
    must_match:
      - '[[{chained}]] Short one.'
    must_not_match:
      - '{LONG_EN}'
  - id: long-de
""",
    )
    output = tmp_path / "out.py"
    assert generate(write_tree(tmp_path, **{RULE: text}), output, timed=False).changed is True
    assert "LengthSignal('word-choice', 'chained-en', 'en', 10, None, min_clauses=3)," in output.read_text("utf-8")


def test_min_clauses_needs_a_word_limit(tmp_path: Path) -> None:
    text = LENGTH_RULE.replace("    max_chars: 400\n", "    max_chars: 400\n    min_clauses: 3\n").replace(
        "    max_words: 10\n    max_chars", "    max_chars"
    )
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert found == [
        f"{RULE}:{line_of(text, 'min_clauses: 3')}:5: 'min_clauses' narrows a 'max_words' limit; "
        "give the signal a 'max_words' too"
    ]
