"""Checking the safe fixes a signal pattern declares.

A fix is a regex (``match``) tried at the start of each hit of its signal; when
it matches there and reaches at least to the hit's end, the text it matched is
replaced by ``replacement`` (a ``re`` template: ``\\1``, ``\\g<name>``), written
in the capitalisation of the matched text. ``delete: true`` declares an empty
replacement. ``apply_case`` and ``fix_at`` are the runtime's own
(``src/writing_rules/_fix_text.py``, loaded by file path), so a fix is checked
as the tool applies it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ._errors import RuleSourceError
from ._redos import static_problems
from ._runtime import load_runtime
from ._yaml import Located

__all__ = ["Fix", "apply_case", "check_fixes", "check_rule_fixes", "fix_at"]


@dataclass(frozen=True)
class Fix:
    match: str
    replacement: str
    delete: bool
    # (before, after) pairs, kept for the overlap check across the rule
    examples: tuple[tuple[str, str], ...]


_FIX_TEXT = load_runtime("_fix_text.py")
apply_case: Callable[[str, str], str] = _FIX_TEXT.apply_case
fix_at: Callable[[re.Pattern[str], str, str, int, int], tuple[int, str] | None] = _FIX_TEXT.fix_at
negated: Callable[[str, int, int, str], bool] = _FIX_TEXT.negated
_MARKED = re.compile(r"\[\[(.*?)\]\]", re.DOTALL)


def _apply(signal: re.Pattern[str], regex: re.Pattern[str], template: str, text: str) -> tuple[str, int]:
    """``text`` with the fix applied at every hit of ``signal`` it covers; and how many it fixed."""
    pieces: list[str] = []
    previous = 0
    count = 0
    for hit in signal.finditer(text):
        if hit.start() < previous or hit.end() == hit.start():
            continue
        done = fix_at(regex, template, text, hit.start(), hit.end())
        if done is None:
            continue
        pieces.append(text[previous : hit.start()])
        pieces.append(done[1])
        previous = done[0]
        count += 1
    pieces.append(text[previous:])
    return "".join(pieces), count


def check_fixes(
    doc: Located, path: tuple[Any, ...], signal: re.Pattern[str], item: dict[str, Any], problems: list[RuleSourceError]
) -> tuple[Fix, ...]:
    """The checked fixes of one signal; every problem found is appended to ``problems``."""
    fixes: list[Fix] = []
    for number, raw in enumerate(item.get("fixes") or ()):
        where = (*path, "fixes", number)
        start = len(problems)
        try:
            regex = re.compile(raw["match"])
        except re.error as exc:
            problems.append(doc.at((*where, "match"), f"fix match does not compile: {exc.msg} at position {exc.pos}"))
            continue
        for message in static_problems(raw["match"]):
            problems.append(doc.at((*where, "match"), message))
        if regex.match("") is not None:
            problems.append(doc.at((*where, "match"), "fix match matches the empty string"))
        delete = raw.get("delete", False)
        template = raw.get("replacement", "")
        if delete and template:
            problems.append(doc.at((*where, "replacement"), "a deletion ('delete: true') has no replacement"))
        elif not delete and not template.strip():
            problems.append(
                doc.at_key(
                    where,
                    "the replacement is empty; declare 'delete: true' if the fix deletes the matched text",
                )
            )
        if len(problems) > start:
            continue
        examples = []
        for index, example in enumerate(raw["examples"]):
            at = (*where, "examples", index)
            before, after = example["before"], example["after"]
            try:
                fixed, count = _apply(signal, regex, template, before)
            except (re.error, IndexError) as exc:
                problems.append(doc.at((*where, "replacement"), f"replacement template fails: {exc}"))
                break
            if count == 0:
                problems.append(doc.at((*at, "before"), "the fix applies to no hit of its signal in this example"))
            elif fixed != after:
                problems.append(doc.at((*at, "after"), f"applying the fix gives {fixed!r}, not the 'after' text"))
            hit = signal.search(after)
            if hit is not None:
                problems.append(
                    doc.at((*at, "after"), f"the fixed text still triggers signal {item['id']!r} at {hit.group(0)!r}")
                )
            examples.append((before, after))
        if len(problems) == start:
            fixes.append(Fix(raw["match"], template, bool(delete), tuple(examples)))
    if fixes:
        check_negated_example(doc, path, item, problems)
    return tuple(fixes)


def check_negated_example(
    doc: Located, path: tuple[Any, ...], item: dict[str, Any], problems: list[RuleSourceError]
) -> None:
    """A signal with fixes shows, in a ``must_match`` example, a hit under a negation: it is
    reported but gets no fix ("not very useful" is not "not useful"; the scanner offers no
    fix where ``_fix_text.negated`` says so)."""
    for text in item.get("must_match") or ():
        plain = _MARKED.sub(r"\1", text)
        shift = 0
        for mark in _MARKED.finditer(text):
            start = mark.start() - shift
            shift += 4
            if negated(plain, start, start + len(mark.group(1)), item["language"]):
                return
    problems.append(
        doc.at_key(
            (*path, "fixes"),
            "a signal with fixes needs a must_match example whose hit stands under a negation "
            "('not', 'never', 'without', 'kein', 'nicht', 'ohne' before it in its clause); such a hit gets no fix",
        )
    )


def check_rule_fixes(
    doc: Located,
    signals: list[tuple[tuple[Any, ...], re.Pattern[str], str, tuple[Fix, ...], list[str]]],
    declared: dict[str, tuple[Any, ...]],
    problems: list[RuleSourceError],
    languages: tuple[str, ...] = ("en", "de"),
) -> None:
    """Across one rule: no two fixes apply to overlapping text; fixes come in both languages.

    ``signals`` holds (source path, compiled pattern, language, checked fixes,
    example texts) per signal; ``declared`` the source path of the first
    signal with fixes per language, checked or not. Every example of the rule
    (the patterns' ``must_match`` and every fix's ``before``) is scanned with
    every signal of the rule.
    """
    if declared and set(declared) != set(languages):
        # A rule's languages are en and de (a pack's: those it declares); a fix in one needs one in each.
        first = next(iter(declared.values()))
        for missing in sorted(set(languages) - set(declared)):
            problems.append(doc.at_key((*first, "fixes"), f"a rule with fixes needs fixes in {missing!r} as well"))
    fixed_languages = {language for _, _, language, fixes, _ in signals if fixes}
    compiled = {
        (path, number): (re.compile(fix.match), fix.replacement)
        for path, _, _, fixes, _ in signals
        for number, fix in enumerate(fixes)
    }
    for language in sorted(fixed_languages):
        texts = sorted(
            {text for _, _, lang, _, examples in signals if lang == language for text in examples}
            | {
                before
                for _, _, lang, fixes, _ in signals
                if lang == language
                for fix in fixes
                for before, _ in fix.examples
            }
        )
        for text in texts:
            spans: list[tuple[int, int, tuple[Any, ...], int]] = []
            for path, signal, lang, fixes, _ in signals:
                if lang != language:
                    continue
                for hit in signal.finditer(text):
                    for number, _ in enumerate(fixes):
                        regex, template = compiled[(path, number)]
                        done = fix_at(regex, template, text, hit.start(), hit.end())
                        if done is not None:
                            spans.append((hit.start(), done[0], path, number))
            spans.sort()
            for (start, end, path, number), (other_start, _, other_path, other_number) in itertools.pairwise(spans):
                if other_start < end and (path, number) != (other_path, other_number):
                    problems.append(
                        doc.at(
                            (*path, "fixes", number, "match"),
                            f"this fix overlaps fix {other_number + 1} of signal at {'/'.join(map(str, other_path))} "
                            f"on {text[start:end]!r} in {text!r}; fixes of one rule must not overlap",
                        )
                    )
