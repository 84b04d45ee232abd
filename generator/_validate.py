"""Checking the sources and turning them into the catalogue the templates render."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import jsonschema

from ._errors import RuleSourceError
from ._fixes import Fix, check_fixes, check_rule_fixes
from ._prose_examples import example_spans, long_sentence_spans
from ._redos import static_problems
from ._sources import LANGUAGES, SUBSECTIONS, RuleFile, SourceTree, parse_examples
from ._timing import INPUT_LENGTH, TimedPattern, timing_problems
from ._triggers import index_problems
from ._verdicts import signal_examples, verdict_key
from ._yaml import Located

__all__ = ["Catalogue", "Profile", "Rule", "RuleText", "Signal", "Verdicts", "build_catalogue"]

_SCHEMAS = Path(__file__).parent / "schemas"
_MARK = re.compile(r"\[\[(.*?)\]\]", re.DOTALL)
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
_PLACEHOLDERS = {
    "intro": {"profile_name", "framing"},
    "audience": {"audience"},
    "goal": {"goal"},
    "response_format": {"max_findings"},
}


@dataclass(frozen=True)
class RuleText:
    title: str
    summary: str
    instruction: str
    applies_when: str
    examples: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Signal:
    """A pattern signal (``pattern``) or a sentence-length signal (``max_words`` / ``max_chars``)."""

    id: str
    language: str
    pattern: str | None
    level: str  # the signal's own ``level``, else its rule's
    fixes: tuple[Fix, ...] = ()
    max_words: int | None = None
    max_chars: int | None = None
    min_clauses: int | None = None  # a sentence over max_words counts only with this many clauses


@dataclass(frozen=True)
class Rule:
    id: str
    level: str
    profiles: tuple[str, ...]
    tags: tuple[str, ...]
    texts: dict[str, RuleText]
    signals: tuple[Signal, ...]
    # Hit contexts in which the rule does not apply: the scanner drops such hits (prose.md).
    excluded_contexts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Profile:
    id: str
    name: dict[str, str]
    framing: dict[str, str]
    rule_ids: tuple[str, ...]


@dataclass(frozen=True)
class Catalogue:
    rules: tuple[Rule, ...]
    profiles: tuple[Profile, ...]
    prompts: dict[str, dict[str, str]]


@dataclass
class Verdicts:
    """What the backtracking checks may take from the cache, and what they found.

    ``trusted``: the keys the cache lists as passed (``_verdicts.py``); a pattern whose key is
    among them skips the timed run (the static check always runs). ``passed`` is filled after a timed run that found no
    problem: ``(label, key)`` of every pattern, the cache file's new content.
    """

    trusted: frozenset[str] = frozenset()
    length: int = INPUT_LENGTH
    passed: list[tuple[str, str]] | None = None
    timed_count: int = 0  # patterns the timed run measured (the others were cached)


@dataclass(frozen=True)
class _Pattern:
    """A pattern signal that passed its first checks, on its way to the timed run and the index check."""

    job: TimedPattern
    rule_file: RuleFile
    path: tuple[Any, ...]
    label: str  # <rule id>/<signal id>, for the cache file's reader
    key: str  # verdict_key: what decides the backtracking checks' verdict
    cached: bool  # the cache lists the key as passed: no static check, no timed run


@cache
def _validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((_SCHEMAS / name).read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _schema_problems(doc: Located, schema: str) -> list[RuleSourceError]:
    problems = []
    for error in _validator(schema).iter_errors(doc.value):
        path = tuple(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = set(error.schema.get("properties", {}))
            for key in error.instance:
                if key not in allowed:
                    problems.append(
                        doc.at_key(
                            (*path, key),
                            f"unknown field {key!r}; allowed here: {', '.join(sorted(allowed))}",
                        )
                    )
            continue
        where = "/".join(str(part) for part in path) or "front matter"
        message = error.message
        if error.validator == "pattern" and isinstance(error.instance, str):
            message = f"{error.instance!r} has the wrong form (expected to match {error.validator_value})"
        problems.append(doc.at(path, f"{where}: {message}"))
    return problems


def build_catalogue(
    tree: SourceTree, problems: list[RuleSourceError], *, timed: bool = True, verdicts: Verdicts | None = None
) -> Catalogue | None:
    """Validate everything, collecting problems; return the catalogue when there are none.

    ``verdicts`` lets patterns the cache lists as passed skip the backtracking checks, and
    receives the verdicts of a timed run (none given: every pattern is checked).
    """
    verdicts = verdicts if verdicts is not None else Verdicts()
    order, profiles_src = _check_catalog(tree.catalog, problems)
    prompts = _check_prompts(tree.prompts, problems)
    rules: dict[str, tuple[Rule, RuleFile]] = {}
    patterns: list[_Pattern] = []
    first_file: dict[str, str] = {}
    for rule_file in tree.rules:
        rule_id = rule_file.front.value.get("id") if isinstance(rule_file.front.value, dict) else None
        if isinstance(rule_id, str):
            if rule_id in first_file:
                problems.append(
                    rule_file.front.at(("id",), f"duplicate rule id {rule_id!r} (also in {first_file[rule_id]})")
                )
                continue
            first_file[rule_id] = rule_file.path
        rule = _check_rule(rule_file, set(profiles_src), patterns, verdicts, problems)
        if rule is not None:
            rules[rule.id] = (rule, rule_file)
    if tree.catalog is not None and order:
        # A file whose front matter did not parse still counts by its name, so
        # one YAML error does not cascade into "no rule file".
        known = set(first_file) | set(tree.rule_names)
        for index, rule_id in enumerate(order):
            if rule_id not in known:
                problems.append(tree.catalog.at(("order", index), f"order names {rule_id!r}, which has no rule file"))
        for rule_id, (_, rule_file) in rules.items():
            if rule_id not in order:
                problems.append(
                    rule_file.front.at(("id",), f"rule {rule_id!r} is missing from 'order' in catalog.yaml")
                )
    _check_pattern_names(rules, order, problems)
    if timed and not problems:
        jobs = [pattern.job for pattern in patterns if not pattern.cached]
        verdicts.timed_count = len(jobs)
        slow = timing_problems(jobs, verdicts.length) if jobs else {}
        for pattern in patterns:
            if not pattern.cached and pattern.job.index in slow:
                problems.append(pattern.rule_file.front.at(pattern.path, slow[pattern.job.index]))
        if not slow:
            verdicts.passed = [(pattern.label, pattern.key) for pattern in patterns]
    # After the timed run (which any earlier problem skips): a pattern can be slow and unindexed.
    for pattern in patterns:
        for message in index_problems(pattern.job.pattern):
            problems.append(pattern.rule_file.front.at(pattern.path, message))
    if problems:  # including those found while reading the files
        return None
    ordered = tuple(rules[rule_id][0] for rule_id in order)
    profiles = tuple(
        Profile(
            id=profile_id,
            name=dict(data["name"]),
            framing=dict(data["framing"]),
            rule_ids=tuple(rule.id for rule in ordered if profile_id in rule.profiles),
        )
        for profile_id, data in profiles_src.items()
    )
    return Catalogue(rules=ordered, profiles=profiles, prompts=prompts)


def _check_pattern_names(
    rules: dict[str, tuple[Rule, RuleFile]], order: list[str], problems: list[RuleSourceError]
) -> None:
    """A pattern's signal id is its name in the generated index: unique within its language."""
    first: dict[tuple[str, str], str] = {}
    ranked = sorted(rules.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))
    for rule_id, (rule, rule_file) in ranked:
        raw = rule_file.front.value.get("signals") or []
        for signal in rule.signals:
            if signal.pattern is None:
                continue
            other = first.setdefault((signal.language, signal.id), rule_id)
            if other != rule_id:
                index = next(i for i, item in enumerate(raw) if item.get("id") == signal.id)
                problems.append(
                    rule_file.front.at(
                        ("signals", index, "id"),
                        f"signal id {signal.id!r} already names a pattern of rule {other!r} in {signal.language!r}; "
                        "the generated index names patterns by signal id: choose another",
                    )
                )


def _check_catalog(doc: Located | None, problems: list[RuleSourceError]) -> tuple[list[str], dict[str, Any]]:
    if doc is None:
        return [], {}
    found = _schema_problems(doc, "catalog.schema.json")
    problems.extend(found)
    if found:
        return [], {}
    profiles: dict[str, Any] = {}
    for index, profile in enumerate(doc.value["profiles"]):
        if profile["id"] in profiles:
            problems.append(doc.at(("profiles", index, "id"), f"duplicate profile id {profile['id']!r}"))
        profiles[profile["id"]] = profile
    return list(doc.value["order"]), profiles


def _check_prompts(doc: Located | None, problems: list[RuleSourceError]) -> dict[str, dict[str, str]]:
    if doc is None:
        return {}
    found = _schema_problems(doc, "prompts.schema.json")
    problems.extend(found)
    if found:
        return {}
    for language in LANGUAGES:
        for key, text in doc.value[language].items():
            used = set(_PLACEHOLDER.findall(text))
            expected = _PLACEHOLDERS.get(key, set())
            if used != expected:
                problems.append(
                    doc.at(
                        (language, key),
                        f"{language}.{key} uses placeholders {sorted(used) or 'none'}; "
                        f"it must use exactly {sorted(expected) or 'none'}",
                    )
                )
    return {language: {key: text.strip() for key, text in doc.value[language].items()} for language in LANGUAGES}


def _check_rule(
    rule_file: RuleFile,
    profiles: set[str],
    patterns: list[_Pattern],
    verdicts: Verdicts,
    problems: list[RuleSourceError],
    *,
    languages: tuple[str, ...] = LANGUAGES,
    schema: str = "rule.schema.json",
) -> Rule | None:
    """One rule file checked; ``languages`` are those its texts and signals must cover (a pack's own)."""
    doc = rule_file.front
    start = len(problems)
    schema_found = _schema_problems(doc, schema)
    problems.extend(schema_found)
    front = doc.value if isinstance(doc.value, dict) else {}
    stem = Path(rule_file.path).stem
    if isinstance(front.get("id"), str) and front["id"] != stem:
        problems.append(doc.at(("id",), f"id {front['id']!r} must equal the file name {stem!r}"))
    if profiles:
        for index, profile in enumerate(front.get("profiles") or []):
            if isinstance(profile, str) and profile not in profiles:
                problems.append(
                    doc.at(
                        ("profiles", index),
                        f"unknown profile {profile!r}; known profiles: {', '.join(sorted(profiles))}",
                    )
                )
    texts = _check_body(rule_file, problems, languages)
    signals: list[Signal] = []
    if not schema_found:
        signals = _check_signals(rule_file, patterns, verdicts, problems, languages)
    if len(problems) > start or texts is None:
        return None
    full_texts = {
        language: RuleText(
            title=front["title"][language],
            summary=front["summary"][language],
            instruction=texts[language][0],
            applies_when=texts[language][1],
            examples=texts[language][2],
        )
        for language in languages
    }
    excluded = tuple(front.get("excluded_contexts") or ())
    _check_contexts(rule_file, excluded, full_texts, problems, languages)
    if len(problems) > start:
        return None
    return Rule(
        excluded_contexts=excluded,
        id=front["id"],
        level=front["level"],
        profiles=tuple(front["profiles"]),
        tags=tuple((front.get("metadata") or {}).get("tags", ())),
        texts=full_texts,
        signals=tuple(signals),
    )


# What each language's "Applies when" must say for a context the rule excludes, so
# that the model (which reads that text) and the scanner (which drops the hits)
# follow one rule.
_CONTEXT_WORDS = {
    "en": {
        "negated": re.compile(r"negat", re.IGNORECASE),
        "quotation": re.compile(r"quot", re.IGNORECASE),
        "heading": re.compile(r"heading", re.IGNORECASE),
        "code": re.compile(r"\bcode\b", re.IGNORECASE),
        "table": re.compile(r"\btables?\b", re.IGNORECASE),
    },
    "de": {
        "negated": re.compile(r"vernein|negation|negiert", re.IGNORECASE),
        "quotation": re.compile(r"zitat|zitiert|anführungszeichen", re.IGNORECASE),
        "heading": re.compile(r"überschrift", re.IGNORECASE),
        "code": re.compile(r"\bcode", re.IGNORECASE),
        "table": re.compile(r"tabelle", re.IGNORECASE),
    },
}


def _check_contexts(
    rule_file: RuleFile,
    excluded: tuple[str, ...],
    texts: dict[str, RuleText],
    problems: list[RuleSourceError],
    languages: tuple[str, ...] = LANGUAGES,
) -> None:
    for index, context in enumerate(excluded):
        for language in languages:
            if not _CONTEXT_WORDS[language][context].search(texts[language].applies_when):
                problems.append(
                    rule_file.front.at(
                        ("excluded_contexts", index),
                        f"excluded context {context!r} is not named in '## {language}' '### Applies when'; "
                        "say there that the rule does not apply to it, so the model and the scanner agree",
                    )
                )


def _check_body(
    rule_file: RuleFile, problems: list[RuleSourceError], languages: tuple[str, ...] = LANGUAGES
) -> dict[str, tuple[str, str, tuple[tuple[str, str], ...]]] | None:
    rel = rule_file.path
    by_language = {section.language: section for section in rule_file.sections}
    anchor_line = rule_file.sections[0].line if rule_file.sections else rule_file.body_line
    ok = True
    needs = "every rule needs en and de" if languages == LANGUAGES else f"the pack declares {', '.join(languages)}"
    for language in languages:
        if language not in by_language:
            name = {"en": "English", "de": "German"}[language]
            problems.append(RuleSourceError(rel, anchor_line, 1, f"missing {name} section '## {language}'; {needs}"))
            ok = False
    texts: dict[str, tuple[str, str, tuple[tuple[str, str], ...]]] = {}
    reference = by_language.get("en")
    for language in languages:
        section = by_language.get(language)
        if section is None:
            continue
        names = [name for name, _, _ in section.subsections]
        if names != list(SUBSECTIONS):
            ok = False
            _report_subsections(rel, section, reference, problems)
            continue
        raw = {name: (line, text) for name, line, text in section.subsections}
        content = {name: (line, text.strip()) for name, (line, text) in raw.items()}
        for name, (line, text) in content.items():
            if not text:
                problems.append(RuleSourceError(rel, line, 1, f"sub-section '### {name}' in '## {language}' is empty"))
                ok = False
        line, text = raw["Examples"]
        found: list[RuleSourceError] = []
        examples = parse_examples(text, line + 1, rel, found) if text.strip() else []
        problems.extend(found)
        if found:
            ok = False
        if text.strip() and not examples and not found:
            problems.append(
                RuleSourceError(rel, line, 1, f"'### Examples' in '## {language}' has no Before:/After: pair")
            )
            ok = False
        texts[language] = (
            content["Instruction"][1],
            content["Applies when"][1],
            tuple((example.before, example.after) for example in examples),
        )
    return texts if ok else None


def _report_subsections(rel: str, section: Any, reference: Any, problems: list[RuleSourceError]) -> None:
    names = [name for name, _, _ in section.subsections]
    expected = list(SUBSECTIONS)
    for index, (name, line, _) in enumerate(section.subsections):
        if name not in expected:
            problems.append(
                RuleSourceError(
                    rel,
                    line,
                    1,
                    f"unknown sub-section '### {name}' in '## {section.language}'; "
                    f"use {', '.join(repr('### ' + n) for n in expected)} in this order, in both languages",
                )
            )
            return
        if index >= len(expected) or expected[index] != name:
            problems.append(
                RuleSourceError(
                    rel,
                    line,
                    1,
                    f"sub-section '### {name}' is out of order in '## {section.language}'; "
                    f"expected {', '.join(repr('### ' + n) for n in expected)}",
                )
            )
            return
    missing = [name for name in expected if name not in names]
    other = "en" if section.language == "de" else "de"
    problems.append(
        RuleSourceError(
            rel,
            section.line,
            1,
            f"'## {section.language}' lacks sub-section(s) {', '.join(repr('### ' + n) for n in missing)} "
            f"that '## {other}' has; both languages need the same sub-sections",
        )
    )


def _check_signals(
    rule_file: RuleFile,
    patterns: list[_Pattern],
    verdicts: Verdicts,
    problems: list[RuleSourceError],
    languages: tuple[str, ...] = LANGUAGES,
) -> list[Signal]:
    doc = rule_file.front
    front = doc.value
    raw = front.get("signals") or []
    signals: list[Signal] = []
    seen: set[str] = set()
    for index, item in enumerate(raw):
        path = ("signals", index)
        if item["id"] in seen:
            problems.append(doc.at((*path, "id"), f"duplicate signal id {item['id']!r} in this rule"))
        seen.add(item["id"])
        level = item.get("level", front["level"])
        if "pattern" not in item:
            limits = _check_length_signal(doc, path, item, problems)
            if limits is not None:
                max_words, max_chars = limits
                signals.append(
                    Signal(
                        id=item["id"],
                        language=item["language"],
                        pattern=None,
                        level=level,
                        max_words=max_words,
                        max_chars=max_chars,
                        min_clauses=item.get("min_clauses"),
                    )
                )
            continue
        pattern = item["pattern"]
        for key in _LENGTH_KEYS:
            if key in item:
                problems.append(
                    doc.at_key(
                        (*path, key),
                        f"{key!r} belongs to a sentence-length signal, which has no 'pattern'; "
                        "make this two signals, one with the pattern and one with the length",
                    )
                )
        try:
            regex = re.compile(pattern)
        except re.error as exc:
            problems.append(_pattern_error(doc, (*path, "pattern"), exc))
            continue
        examples = signal_examples(item["must_match"], item["must_not_match"])
        key = verdict_key(pattern, examples, verdicts.length)
        cached = key in verdicts.trusted
        # The static check runs whatever the cache says (a millisecond a pattern): a pack's cache
        # sits beside its sources, where a checkout can forge a line, and a refused pattern is
        # never run below. A cached verdict skips the timed run only.
        found = static_problems(pattern)
        for message in found:
            problems.append(doc.at((*path, "pattern"), message))
        if found:
            continue  # never run on the examples (or a fix's): a hostile example would hang the build
        if regex.search("") is not None:
            problems.append(doc.at((*path, "pattern"), "pattern matches the empty string"))
            continue
        _check_examples(doc, path, _pattern_check(regex), item, problems)
        fixes = check_fixes(doc, path, regex, item, problems)
        signals.append(Signal(id=item["id"], language=item["language"], pattern=pattern, level=level, fixes=fixes))
        if not found:
            patterns.append(
                _Pattern(
                    job=TimedPattern(len(patterns), pattern, examples),
                    rule_file=rule_file,
                    path=(*path, "pattern"),
                    label=f"{front['id']}/{item['id']}",
                    key=key,
                    cached=cached,
                )
            )
    if raw:
        used = {item["language"] for item in raw}
        for language in languages:
            if language not in used:
                problems.append(
                    doc.at_key(("signals",), f"a rule with signals needs at least one {language!r} pattern")
                )
    declared: dict[str, tuple[Any, ...]] = {}
    for index, item in enumerate(raw):
        if item.get("fixes") and "pattern" in item:
            declared.setdefault(item["language"], ("signals", index))
    if declared:
        by_id = {item["id"]: (index, item) for index, item in enumerate(raw)}
        check_rule_fixes(
            doc,
            [
                (
                    ("signals", by_id[signal.id][0]),
                    re.compile(signal.pattern),
                    signal.language,
                    signal.fixes,
                    [_MARK.sub(r"\1", text) for text in by_id[signal.id][1]["must_match"]],
                )
                for signal in signals
                if signal.pattern is not None
            ],
            declared,
            problems,
            languages,
        )
    return signals


_LENGTH_KEYS = ("max_words", "max_chars", "min_clauses")


def _check_length_signal(
    doc: Located, path: tuple[Any, ...], item: dict[str, Any], problems: list[RuleSourceError]
) -> tuple[int | None, int | None] | None:
    """A sentence-length signal: its limits, with its examples checked by the runtime's own counter."""
    start = len(problems)
    if not any(key in item for key in _LENGTH_KEYS):
        problems.append(
            doc.at(
                path,
                "signal has neither 'pattern' nor a sentence length ('max_words', 'max_chars'); "
                "give it a pattern, or the number of words (or characters) above which a sentence is flagged",
            )
        )
    if "fixes" in item:
        problems.append(
            doc.at_key(
                (*path, "fixes"), "a sentence-length signal cannot have fixes: splitting a sentence is no safe fix"
            )
        )
    if "min_clauses" in item and "max_words" not in item:
        problems.append(
            doc.at_key(
                (*path, "min_clauses"),
                "'min_clauses' narrows a 'max_words' limit; give the signal a 'max_words' too",
            )
        )
    if len(problems) > start:
        return None
    language = item["language"]
    max_words, max_chars = item.get("max_words"), item.get("max_chars")
    min_clauses = item.get("min_clauses")
    limit = " or ".join(
        f"{value} {name}" for value, name in ((max_words, "words"), (max_chars, "characters")) if value is not None
    )
    if min_clauses is not None:
        limit = f"{limit} with {min_clauses} clauses or more"
    check = _ExampleCheck(
        find=lambda text: (long_sentence_spans(text, language, max_words, max_chars, min_clauses), False),
        missing=f"no sentence of this must_match example is longer than {limit}: {{text!r}}",
        mismatch="the long sentences are {got}; the example marks {want}",
        unwanted=f"this must_not_match example has a sentence longer than {limit}: {{piece!r}}",
    )
    _check_examples(doc, path, check, item, problems)
    return None if len(problems) > start else (max_words, max_chars)


def _pattern_error(doc: Located, path: tuple[Any, ...], exc: re.error) -> RuleSourceError:
    error = doc.at(path, f"pattern does not compile: {exc.msg} at position {exc.pos}")
    style = doc.scalar_styles.get(path)
    if exc.pos is not None and style in (None, "'", '"') and "\n" not in (exc.pattern or ""):
        # Point at the offending character on a one-line scalar.
        col = error.col + (1 if style else 0) + exc.pos
        return RuleSourceError(error.path, error.line, col, error.message)
    return error


class _ExampleCheck(NamedTuple):
    """How a signal finds its spans in an example, and what to say when an example disagrees.

    ``find`` returns the spans and whether any is empty; the messages are format
    strings with ``{text}`` (the example), ``{got}``/``{want}`` (quoted spans) and
    ``{piece}`` (the unwanted hit).
    """

    find: Callable[[str], tuple[list[tuple[int, int]], bool]]
    missing: str
    mismatch: str
    unwanted: str


def _pattern_check(regex: re.Pattern[str]) -> _ExampleCheck:
    return _ExampleCheck(
        find=lambda text: example_spans(regex, text),
        missing="pattern does not match this must_match example: {text!r}",
        mismatch="pattern matches {got}; the example marks {want}",
        unwanted="pattern matches {piece!r} in this must_not_match example",
    )


def _check_examples(
    doc: Located,
    path: tuple[Any, ...],
    check: _ExampleCheck,
    item: dict[str, Any],
    problems: list[RuleSourceError],
) -> None:
    """Each must_match example is found (exactly its marked spans, if any); no must_not_match one is."""
    for number, example in enumerate(item["must_match"]):
        marked = [(m.start() - 4 * i, m.end() - 4 * (i + 1)) for i, m in enumerate(_MARK.finditer(example))]
        text = _MARK.sub(r"\1", example)
        spans, empty = check.find(text)
        where = (*path, "must_match", number)
        if not spans:
            problems.append(doc.at(where, check.missing.format(text=text)))
        elif empty:
            problems.append(doc.at(where, "pattern produces an empty match on this example"))
        elif marked and spans != marked:
            got = ", ".join(repr(text[s:e]) for s, e in spans)
            want = ", ".join(repr(text[s:e]) for s, e in marked)
            problems.append(doc.at(where, check.mismatch.format(got=got, want=want)))
    for number, example in enumerate(item["must_not_match"]):
        where = (*path, "must_not_match", number)
        if "[[" in example:
            problems.append(doc.at(where, "must_not_match examples cannot mark a span with [[ ]]"))
            continue
        hits, _ = check.find(example)
        if hits:
            start, end = hits[0]
            problems.append(doc.at(where, check.unwanted.format(piece=example[start:end])))
