"""The compiler checks every safe fix a signal declares, and emits the fixes into the module."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator import SourceProblems, compile_sources
from generator._fixes import apply_case as compiler_apply_case
from writing_rules.tools._fixes import apply_case as runtime_apply_case

from .sources import WORD_CHOICE, line_of, write_tree

RULE = "rules-src/rules/word-choice.md"

EN_FIX = """\
    fixes:
      - match: '(?i)seamlessly\\b'
        replacement: 'smoothly'
        examples:
          - before: It runs seamlessly on Linux.
            after: It runs smoothly on Linux.
"""
DE_FIX = """\
    fixes:
      - match: '(?i)leistungsstarke\\b'
        replacement: 'schnelle'
        examples:
          - before: Eine leistungsstarke Lösung.
            after: Eine schnelle Lösung.
"""


# A hit under a negation, which gets no fix: every signal with fixes shows one.
EN_NEGATED = "      - It is not a [[powerful]] API.\n"
DE_NEGATED = "      - Das ist keine [[leistungsstarke]] Lösung.\n"


def rule_with(en_fix: str = EN_FIX, de_fix: str = DE_FIX, *, negated: bool = True) -> str:
    text = WORD_CHOICE.replace("      - The power supply.\n", "      - The power supply.\n" + en_fix, 1)
    text = text.replace("      - Die Leistung steigt.\n", "      - Die Leistung steigt.\n" + de_fix, 1)
    if negated:
        text = text.replace("      - A [[powerful]] API.\n", "      - A [[powerful]] API.\n" + EN_NEGATED, 1)
        text = text.replace(
            "      - Eine [[leistungsstarke]] Lösung.\n", "      - Eine [[leistungsstarke]] Lösung.\n" + DE_NEGATED, 1
        )
    return text


def problems_of(root: Path) -> list[str]:
    with pytest.raises(SourceProblems) as caught:
        compile_sources(root, timed=False)
    return [str(problem) for problem in caught.value.problems]


def test_valid_fixes_are_emitted_into_the_module(tmp_path: Path) -> None:
    result = compile_sources(write_tree(tmp_path, **{RULE: rule_with()}), timed=False)
    namespace: dict[str, object] = {}
    exec(compile(result.text, "_rules_data.py", "exec"), namespace)
    assert namespace["SIGNAL_FIXES"] == {
        ("word-choice", "hype-en"): (("(?i)seamlessly\\b", "smoothly"),),
        ("word-choice", "hype-de"): (("(?i)leistungsstarke\\b", "schnelle"),),
    }


def test_fixed_example_must_not_trigger_the_signal_again(tmp_path: Path) -> None:
    fix = EN_FIX.replace("'smoothly'", "'powerful'").replace("runs smoothly", "runs powerful")
    text = rule_with(en_fix=fix)
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert found == [
        f"{RULE}:{line_of(text, 'after: It runs powerful')}:20: "
        "the fixed text still triggers signal 'hype-en' at 'powerful'"
    ]


def test_after_text_must_be_what_the_fix_gives(tmp_path: Path) -> None:
    text = rule_with(en_fix=EN_FIX.replace("It runs smoothly on Linux.", "It runs well on Linux."))
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert len(found) == 1
    assert "applying the fix gives 'It runs smoothly on Linux.', not the 'after' text" in found[0]


def test_fix_must_apply_to_its_example(tmp_path: Path) -> None:
    fix = EN_FIX.replace("It runs seamlessly on Linux.", "A powerful tool.").replace(
        "It runs smoothly on Linux.", "A powerful tool."
    )
    found = problems_of(write_tree(tmp_path, **{RULE: rule_with(en_fix=fix)}))
    assert any("the fix applies to no hit of its signal in this example" in problem for problem in found)


def test_empty_replacement_needs_a_declared_deletion(tmp_path: Path) -> None:
    text = rule_with(en_fix=EN_FIX.replace("'smoothly'", "''"))
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert found == [
        f"{RULE}:{line_of(text, '- match:')}:9: "
        "the replacement is empty; declare 'delete: true' if the fix deletes the matched text"
    ]


def test_a_declared_deletion_removes_the_match(tmp_path: Path) -> None:
    fix = EN_FIX.replace("seamlessly\\b'", "seamlessly ?'").replace("replacement: 'smoothly'", "delete: true")
    fix = fix.replace("It runs smoothly on Linux.", "It runs on Linux.")
    compile_sources(write_tree(tmp_path, **{RULE: rule_with(en_fix=fix)}), timed=False)


def test_a_deletion_has_no_replacement(tmp_path: Path) -> None:
    fix = EN_FIX.replace("replacement: 'smoothly'", "replacement: 'smoothly'\n        delete: true")
    found = problems_of(write_tree(tmp_path, **{RULE: rule_with(en_fix=fix)}))
    assert any("a deletion ('delete: true') has no replacement" in problem for problem in found)


def test_fixes_of_one_rule_must_not_overlap(tmp_path: Path) -> None:
    fix = EN_FIX + (
        "      - match: '(?i)seamlessly on'\n"
        "        replacement: 'smoothly with'\n"
        "        examples:\n"
        "          - before: It runs seamlessly on Linux.\n"
        "            after: It runs smoothly with Linux.\n"
    )
    found = problems_of(write_tree(tmp_path, **{RULE: rule_with(en_fix=fix)}))
    assert any("fixes of one rule must not overlap" in problem and "'seamlessly'" in problem for problem in found)


def test_fixes_come_in_both_languages(tmp_path: Path) -> None:
    text = rule_with(de_fix="")
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    assert found == [f"{RULE}:{line_of(text, 'fixes:')}:5: a rule with fixes needs fixes in 'de' as well"]


def test_a_fix_needs_an_example(tmp_path: Path) -> None:
    fix = EN_FIX[: EN_FIX.index("        examples:")] + "        examples: []\n"
    found = problems_of(write_tree(tmp_path, **{RULE: rule_with(en_fix=fix)}))
    assert any("examples" in problem and "should be non-empty" in problem for problem in found)


def test_match_that_does_not_compile(tmp_path: Path) -> None:
    found = problems_of(write_tree(tmp_path, **{RULE: rule_with(en_fix=EN_FIX.replace("seamlessly", "(seam"))}))
    assert any("fix match does not compile" in problem for problem in found)


def test_template_with_an_unknown_group(tmp_path: Path) -> None:
    found = problems_of(write_tree(tmp_path, **{RULE: rule_with(en_fix=EN_FIX.replace("'smoothly'", "'\\2'"))}))
    assert any("replacement template fails" in problem for problem in found)


def test_template_uses_groups_and_keeps_capitalisation(tmp_path: Path) -> None:
    fix = (
        "    fixes:\n"
        "      - match: '(?i)seamless(ly)?\\b'\n"
        "        replacement: 'smooth\\1'\n"
        "        examples:\n"
        "          - before: Seamlessly fast. SEAMLESS start.\n"
        "            after: Smoothly fast. SMOOTH start.\n"
    )
    compile_sources(write_tree(tmp_path, **{RULE: rule_with(en_fix=fix)}), timed=False)


@pytest.mark.parametrize(
    ("replacement", "matched", "expected"),
    [
        ("to", "in order to", "to"),
        ("to", "In order to", "To"),
        ("to", "IN ORDER TO", "TO"),
        ("", "Very ", ""),
        ("bereitgestellt", "Zur Verfügung gestellt", "Bereitgestellt"),
        ("Datei", "die datei", "Datei"),
        ("use", "A", "Use"),
        ("'s ok", "It", "'S ok"),
    ],
)
def test_compiler_and_runtime_keep_case_alike(replacement: str, matched: str, expected: str) -> None:
    assert compiler_apply_case(replacement, matched) == expected
    assert runtime_apply_case(replacement, matched) == expected


def test_the_shipped_fixes_have_examples_in_both_languages() -> None:
    from writing_rules._rules_data import SIGNAL_FIXES, SIGNAL_TABLES

    languages = {pattern.signal_id: language for language, table in SIGNAL_TABLES.items() for pattern in table}
    rules: dict[str, set[str]] = {}
    for (rule_id, signal_id), fixes in SIGNAL_FIXES.items():
        assert fixes
        for match, _ in fixes:
            re.compile(match)
        rules.setdefault(rule_id, set()).add(languages[signal_id])
    assert rules and all(found == {"en", "de"} for found in rules.values())


def test_a_signal_with_fixes_needs_a_negated_example(tmp_path: Path) -> None:
    # Issue 28: "not a very useful thing" -> "not a useful thing" changed the meaning. The
    # scanner offers no fix under a negation, and each fixed signal's examples show such a hit.
    text = rule_with(negated=False)
    found = problems_of(write_tree(tmp_path, **{RULE: text}))
    message = "a signal with fixes needs a must_match example whose hit stands under a negation"
    assert [problem.split(": ", 1)[1].startswith(message) for problem in found] == [True, True]
    assert [problem.split(":")[1] for problem in found] == [
        str(line_of(text, "    fixes:")),
        str(line_of(text, "    fixes:", 2)),
    ]
