"""Every validation failure names the file and line a rule author must fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator import SourceProblems, compile_sources, generate

from .sources import PLAIN_RULE, WORD_CHOICE, line_of, write_tree

RULE = "rules-src/rules/word-choice.md"
PLAIN = "rules-src/rules/plain-rule.md"


def problems_of(root: Path) -> list[str]:
    with pytest.raises(SourceProblems) as caught:
        compile_sources(root, timed=False)
    return [str(problem) for problem in caught.value.problems]


def test_the_valid_tree_compiles(tmp_path: Path) -> None:
    result = compile_sources(write_tree(tmp_path), timed=False)
    assert [rule.id for rule in result.catalogue.rules] == ["plain-rule", "word-choice"]


def test_missing_german_section(tmp_path: Path) -> None:
    text = PLAIN_RULE[: PLAIN_RULE.index("## de")]
    found = problems_of(write_tree(tmp_path, **{PLAIN: text}))
    assert found == [f"{PLAIN}:{line_of(text, '## en')}:1: missing German section '## de'; every rule needs en and de"]


def test_sub_sections_differ_between_languages(tmp_path: Path) -> None:
    de_part = PLAIN_RULE.index("## de")
    text = PLAIN_RULE[:de_part] + PLAIN_RULE[de_part:].replace("### Applies when\n\nImmer.\n\n", "")
    found = problems_of(write_tree(tmp_path, **{PLAIN: text}))
    assert len(found) == 1
    assert found[0].startswith(
        f"{PLAIN}:{line_of(text, '### Examples', 2)}:1: sub-section '### Examples' is out of order"
    )


def test_unknown_sub_section(tmp_path: Path) -> None:
    text = PLAIN_RULE.replace("### Applies when\n\nImmer.", "### Wann sie gilt\n\nImmer.")
    found = problems_of(write_tree(tmp_path, **{PLAIN: text}))
    assert len(found) == 1
    assert found[0].startswith(f"{PLAIN}:{line_of(text, '### Wann sie gilt')}:1: unknown sub-section")


def test_duplicate_id(tmp_path: Path) -> None:
    # Files are read in path order: the copy comes first, so the original is the duplicate.
    copy = "rules-src/rules/word-choice-copy.md"
    found = problems_of(write_tree(tmp_path, **{copy: WORD_CHOICE}))
    line = line_of(WORD_CHOICE, "id: word-choice")
    assert found == [
        f"{copy}:{line}:5: id 'word-choice' must equal the file name 'word-choice-copy'",
        f"{RULE}:{line}:5: duplicate rule id 'word-choice' (also in {copy})",
    ]


def test_a_pattern_signal_id_is_unique_within_its_language(tmp_path: Path) -> None:
    # The generated index names patterns by signal id: two rules cannot both have 'hype-en'.
    other = WORD_CHOICE.replace("id: word-choice", "id: plain-rule").replace("hype-de", "other-de")
    other = other.replace("title: {en: Use precise words", "title: {en: Open with the goal")
    found = problems_of(write_tree(tmp_path, **{"rules-src/rules/plain-rule.md": other}))
    assert found == [
        f"{RULE}:{line_of(WORD_CHOICE, 'id: hype-en')}:9: signal id 'hype-en' already names a pattern of rule "
        "'plain-rule' in 'en'; the generated index names patterns by signal id: choose another"
    ]


def test_id_must_equal_the_file_name(tmp_path: Path) -> None:
    text = PLAIN_RULE.replace("id: plain-rule", "id: other-rule")
    found = problems_of(write_tree(tmp_path, **{PLAIN: text}))
    id_line = line_of(text, "id: other-rule")
    assert f"{PLAIN}:{id_line}:5: id 'other-rule' must equal the file name 'plain-rule'" in found


def test_unknown_profile(tmp_path: Path) -> None:
    text = WORD_CHOICE.replace("profiles: [public-docs]", "profiles: [public-docs, marketing]")
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    line = line_of(text, "profiles:")
    col = text.splitlines()[line - 1].index("marketing") + 1
    assert found == [f"{RULE}:{line}:{col}: unknown profile 'marketing'; known profiles: public-docs"]


def test_pattern_that_does_not_compile(tmp_path: Path) -> None:
    text = WORD_CHOICE.replace("'(?i)\\b(?:powerful|seamless(?:ly)?)\\b'", "'(?i)\\b(?:powerful|seamless'")
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    line = line_of(text, "seamless'")
    assert len(found) == 1
    assert found[0].startswith(f"{RULE}:{line}:")
    assert "pattern does not compile: missing ), unterminated subpattern" in found[0]


def test_must_match_example_that_does_not_match(tmp_path: Path) -> None:
    text = WORD_CHOICE.replace("- A [[powerful]] API.", "- A strong API.")
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert found == [
        f"{RULE}:{line_of(text, '- A strong API.')}:9: pattern does not match this must_match example: 'A strong API.'"
    ]


def test_must_not_match_example_that_matches(tmp_path: Path) -> None:
    text = WORD_CHOICE.replace("- The power supply.", "- A seamless upgrade.")
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert found == [
        f"{RULE}:{line_of(text, '- A seamless upgrade.')}:9: pattern matches 'seamless' in this must_not_match example"
    ]


def test_marked_span_must_equal_the_match(tmp_path: Path) -> None:
    text = WORD_CHOICE.replace("- A [[powerful]] API.", "- A [[powerful API]].")
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert found == [
        f"{RULE}:{line_of(text, '- A [[powerful API]].')}:9: pattern matches 'powerful'; "
        "the example marks 'powerful API'"
    ]


@pytest.mark.parametrize(
    ("pattern", "example", "why"),
    [
        # Catastrophic backtracking, refused statically.
        ("'(?:\\w+\\s?)+x'", "ab x c", "nested quantifiers"),
        ("'(?:a|ab)*c'", "ab x c", "alternatives under a quantifier"),
        # Overlapping alternatives of a script outside the probed Latin range.
        ("'(?:[丁丂]|丁丂)+x'", "ab x c", "alternatives under a quantifier"),
        ("'\\s*\\s+x'", "ab x c", "adjacent quantifiers over overlapping characters"),
        # Patterns the scanner cannot index: each would make every scan several times
        # slower, silently. A first word of any letters gives no word, anchor or ending.
        ("'(?i)\\b[a-z]+ly powerful\\b'", "A truly powerful API.", "cannot tell where this pattern can start"),
        # A class of capitals is cheap to run over the whole text only when re can skip to
        # it: not ignoring case, and not behind a look-behind.
        ("'(?i)[A-Z][a-z]+ly powerful\\b'", "Truly powerful API.", "cannot tell where this pattern can start"),
        ("'(?<!\\w)[A-Z][a-z]+ly powerful\\b'", "Truly powerful API.", "cannot tell where this pattern can start"),
        # Anchored on every comma of the text.
        ("'(?i)(?:,|;) powerful\\b'", "A fast, powerful API.", "would try this pattern after every ','"),
    ],
)
def test_pattern_is_refused_with_its_reason(tmp_path: Path, pattern: str, example: str, why: str) -> None:
    text = WORD_CHOICE.replace("'(?i)\\b(?:powerful|seamless(?:ly)?)\\b'", pattern)
    text = text.replace("- A [[powerful]] API.", f"- {example}")
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    line = line_of(text, pattern)
    assert any(problem.startswith(f"{RULE}:{line}:14: ") and why in problem for problem in found), found


def test_a_pattern_that_opens_with_capital_letters_is_accepted(tmp_path: Path) -> None:
    # re skips to the capitals in C, so running it over the whole text is cheap (the
    # scanner does: a long German compound has no word or ending worth indexing).
    pattern = "'[A-Z](?<![\\w-].)[a-z]+ly powerful\\b'"
    text = WORD_CHOICE.replace("'(?i)\\b(?:powerful|seamless(?:ly)?)\\b'", pattern)
    text = text.replace("- A [[powerful]] API.", "- '[[Truly powerful]] API.'")
    result = compile_sources(write_tree(tmp_path, **{RULE: text}), timed=False)
    assert [rule.id for rule in result.catalogue.rules] == ["plain-rule", "word-choice"]


def test_slow_pattern_is_refused_by_the_timed_run(tmp_path: Path) -> None:
    # Quadratic but invisible to the static check: \w+ then a literal that \w also matches.
    pattern = "'(?i)\\w+ful\\b'"
    text = WORD_CHOICE.replace("'(?i)\\b(?:powerful|seamless(?:ly)?)\\b'", pattern)
    root = write_tree(tmp_path, **{RULE: text})
    with pytest.raises(SourceProblems) as caught:
        compile_sources(root, timed=True, input_length=6_000)  # short: far below the CPU limit
    # \w+ at the start also leaves the scanner nothing to index it by: two problems.
    found = [str(problem) for problem in caught.value.problems if "backtracks" in str(problem)]
    assert len(found) == 1
    # Either detector may refuse it (growth, or the CPU limit on a slow machine): the place is the same.
    assert found[0].startswith(f"{RULE}:{line_of(text, pattern)}:14: pattern")


def test_yaml_syntax_error(tmp_path: Path) -> None:
    text = WORD_CHOICE.replace("level: warning", "level: [warning")
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert len(found) == 1
    assert found[0].startswith(f"{RULE}:{line_of(text, 'profiles:')}:")
    assert "YAML syntax error" in found[0]


def test_schema_errors_point_at_the_field(tmp_path: Path) -> None:
    text = WORD_CHOICE.replace("level: warning", "level: loud\nowner: docs-team")
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert (
        f"{RULE}:{line_of(text, 'owner:')}:1: unknown field 'owner'; allowed here: excluded_contexts, id, "
        "level, metadata, profiles, signals, summary, title" in found
    )
    assert any(p.startswith(f"{RULE}:{line_of(text, 'level: loud')}:8: level:") for p in found)


def test_a_signal_may_state_its_own_level_and_severity_is_gone(tmp_path: Path) -> None:
    text = WORD_CHOICE.replace("  - id: hype-de\n", "  - id: hype-de\n    level: suggestion\n")
    root = write_tree(tmp_path, **{RULE: text})
    output = tmp_path / "out.py"
    assert generate(root, output, timed=False).changed is True
    assert "'hype-de': 'suggestion'" in output.read_text(encoding="utf-8")
    old = WORD_CHOICE.replace("level: warning", "severity: info")
    found = problems_of(write_tree(tmp_path, **{RULE: old}))
    assert any("'level' is a required property" in problem for problem in found)
    bad = WORD_CHOICE.replace("  - id: hype-de\n", "  - id: hype-de\n    level: info\n")
    found = problems_of(write_tree(tmp_path, **{RULE: bad}))
    assert any(problem.startswith(f"{RULE}:{line_of(bad, 'level: info')}:") for problem in found)


def test_a_rule_with_signals_needs_both_languages(tmp_path: Path) -> None:
    start = WORD_CHOICE.index("  - id: hype-de")
    end = WORD_CHOICE.index("---", start)
    text = WORD_CHOICE[:start] + WORD_CHOICE[end:]
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert found == [f"{RULE}:{line_of(text, 'signals:')}:1: a rule with signals needs at least one 'de' pattern"]


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    broken_rule = WORD_CHOICE.replace("- The power supply.", "- A seamless upgrade.")
    broken_plain = PLAIN_RULE[: PLAIN_RULE.index("## de")]
    found = problems_of(write_tree(tmp_path, **{RULE: broken_rule, PLAIN: broken_plain}))
    assert len(found) == 2
    assert found == sorted(found)


def test_invalid_sources_leave_the_previous_module_untouched(tmp_path: Path) -> None:
    root = write_tree(tmp_path)
    output = tmp_path / "out.py"
    assert generate(root, output, timed=False).changed is True
    before = output.read_bytes()
    write_tree(root, **{RULE: WORD_CHOICE.replace("level: warning", "level: [warning")})
    with pytest.raises(SourceProblems):
        generate(root, output, timed=False)
    assert output.read_bytes() == before


def test_a_pattern_keyed_by_its_words_passes_the_index_check(tmp_path: Path) -> None:
    text = WORD_CHOICE.replace("'(?i)\\b(?:powerful|seamless(?:ly)?)\\b'", "'(?i)(?<=, )powerful\\b'")
    text = text.replace("- A [[powerful]] API.", "- A fast, [[powerful]] API.")
    compile_sources(write_tree(tmp_path, **{RULE: text}), timed=False)  # raises on any problem


def test_excluded_contexts_are_emitted_when_the_rule_text_names_them(tmp_path: Path) -> None:
    text = PLAIN_RULE.replace("profiles: [public-docs]\n", "profiles: [public-docs]\nexcluded_contexts: [negated]\n")
    text = text.replace("Always.", "Always, except negated statements.").replace("Immer.", "Immer, außer Verneinungen.")
    result = compile_sources(write_tree(tmp_path, **{PLAIN: text}), timed=False)
    (rule, _) = result.catalogue.rules
    assert rule.excluded_contexts == ("negated",)


def test_an_excluded_context_the_rule_text_does_not_name_is_refused(tmp_path: Path) -> None:
    text = PLAIN_RULE.replace("profiles: [public-docs]\n", "profiles: [public-docs]\nexcluded_contexts: [heading]\n")
    found = problems_of(write_tree(tmp_path, **{PLAIN: text}))
    line = line_of(text, "excluded_contexts")
    assert [problem.split(": ", 1)[0] for problem in found] == [f"{PLAIN}:{line}:21", f"{PLAIN}:{line}:21"]
    assert sorted(problem.split(": ", 1)[1] for problem in found) == [
        f"excluded context 'heading' is not named in '## {language}' '### Applies when'; say there that the rule "
        "does not apply to it, so the model and the scanner agree"
        for language in ("de", "en")
    ]


def test_an_unknown_context_is_a_schema_error(tmp_path: Path) -> None:
    text = PLAIN_RULE.replace("profiles: [public-docs]\n", "profiles: [public-docs]\nexcluded_contexts: [tables]\n")
    (problem,) = problems_of(write_tree(tmp_path, **{PLAIN: text}))
    assert problem.startswith(f"{PLAIN}:{line_of(text, 'excluded_contexts')}:")
    assert "tables" in problem
