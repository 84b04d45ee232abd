"""Importing a Vale style as a rule-pack source (``docs/packs.md``, "Importing a Vale style").

``import_vale_style(style_dir, out_dir)`` reads a Vale style (``<Style>/*.yml``
plus optional vocabularies) and writes a pack folder: ``pack.yaml``,
``rules/<Style>.<Rule>.md`` in the built-in rule format, and ``terms.yaml`` for
accepted terms. It runs at authoring time only (PyYAML); nothing here is
imported by the runtime.

The conversion is faithful to how Vale builds its regular expressions
(``existence``: ``raw`` + ``\\b(?:tokens)\\b``, ``(?i)`` in front when
``ignorecase``; ``substitution``: one group per ``swap`` key), then translates
Go RE2 syntax into Python's ``re`` (``translate_re2``). Every example written
into a rule is checked here the way the compiler checks it (on the example's
Markdown prose view), so an imported pack's examples hold. A rule that cannot
be converted is listed with the reason and written nowhere.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ._prose_examples import example_spans, long_sentence_spans
from ._redos import static_problems
from ._sre import constants as C
from ._sre import parser as sre_parse
from ._triggers import index_problems

__all__ = [
    "ConvertedRule",
    "ImportReport",
    "SkippedRule",
    "UntranslatableRegex",
    "ValeImportError",
    "import_vale_style",
    "translate_re2",
]

# Vale's levels map one to one: a team's `error` stays what fails its CI.
_LEVELS = {"error": "error", "warning": "warning", "suggestion": "suggestion"}

_SKIPPED_KINDS = {
    "repetition": "needs a backreference to the previous token (`\\1`), which the rule compiler refuses",
    "consistency": "needs state across the whole document (which of two spellings came first)",
    "spelling": "needs a dictionary; use the pack's terms.yaml for the words the team cares about",
    "metric": "computes a formula over document counts (readability grades), not a pattern",
    "readability": "computes a readability grade over the document, not a pattern",
    "sequence": "needs part-of-speech tags, which the scanner does not compute",
    "script": "runs a Tengo script, and nothing a pack contains may run code",
}

# Vale scopes: where a pattern runs. Ours run on the prose of every block (code is scanned apart).
_WHOLE_PROSE_SCOPES = {"text", "paragraph", "sentence", "list", "summary", "blockquote"}
_EXCLUDABLE = {"heading": "heading", "table": "table", "code": None}

_MARK = re.compile(r"\[\[(.+?)\]\]")


class ValeImportError(Exception):
    """The style folder or the output folder cannot be used (nothing was written)."""


class UntranslatableRegex(ValueError):
    """A Go RE2 construct with no faithful Python ``re`` equivalent; the message says which."""


@dataclass(frozen=True)
class SkippedRule:
    """A Vale rule that was not converted, and why."""

    name: str
    kind: str
    reason: str


@dataclass(frozen=True)
class ConvertedRule:
    """A Vale rule written as ``rules/<name>.md``.

    ``notes`` say where the conversion differs from Vale; ``build_problems`` are
    what the rule compiler would refuse (the rule is written so a person can fix it).
    """

    name: str
    kind: str
    path: str
    signals: int
    notes: tuple[str, ...] = ()
    build_problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class ImportReport:
    """What ``import_vale_style`` converted, skipped and noted."""

    style: str
    pack_id: str
    out_dir: Path
    converted: tuple[ConvertedRule, ...]
    skipped: tuple[SkippedRule, ...]
    terms: int = 0
    notes: tuple[str, ...] = ()

    def render(self) -> str:
        """A plain-text summary, one line per rule, as the command prints it."""
        lines = [
            f"{self.style}: {len(self.converted)} converted, {len(self.skipped)} skipped, "
            f"{self.terms} terms -> {self.out_dir}"
        ]
        for rule in self.converted:
            lines.append(f"  converted {rule.name} ({rule.kind}, {rule.signals} signal(s)) -> {rule.path}")
            lines.extend(f"    note: {note}" for note in rule.notes)
            lines.extend(f"    build problem: {problem}" for problem in rule.build_problems)
        for skipped in self.skipped:
            lines.append(f"  skipped {skipped.name} ({skipped.kind}): {skipped.reason}")
        lines.extend(f"  note: {note}" for note in self.notes)
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Go RE2 -> Python re


_POSIX = {
    "alnum": "0-9A-Za-z",
    "alpha": "A-Za-z",
    "ascii": "\\x00-\\x7f",
    "blank": "\\t ",
    "cntrl": "\\x00-\\x1f\\x7f",
    "digit": "0-9",
    "graph": "!-~",
    "lower": "a-z",
    "print": " -~",
    "punct": "!-/:-@\\[-`{-~",
    "space": "\\t\\n\\v\\f\\r ",
    "upper": "A-Z",
    "word": "0-9A-Za-z_",
    "xdigit": "0-9A-Fa-f",
}
_UNICODE_LETTER = "[^\\W\\d_]"
# Deeper nesting is no style's need, and Python's parser recurses per level.
_MAX_DEPTH = 100
_FLAG_GROUP = re.compile(r"\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])")


def translate_re2(pattern: str, *, embedded: bool = False) -> str:
    """The Python ``re`` pattern that matches what Go RE2 (Vale) matches with ``pattern``.

    Raises ``UntranslatableRegex`` for constructs with no faithful equivalent.
    Differences kept on purpose (docs/packs.md): ``\\b``, ``\\w``, ``\\d`` and
    ``\\s`` are read as Unicode; ``^`` and ``$`` match at block (line) ends,
    since Vale runs a pattern on one block at a time. ``embedded`` is for a piece
    that goes inside a larger pattern: its leading flags are scoped too.
    """
    out: list[str] = []
    closers: list[int] = [0]  # per open group: scoped-flag groups to close with it
    leading = not embedded  # only global flag groups so far: they may stay global
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            piece, i = _escape(pattern, i, in_class=False)
            out.append(piece)
            leading = False
            continue
        if c == "[":
            piece, i = _char_class(pattern, i)
            out.append(piece)
            leading = False
            continue
        if c == "(":
            flag = _FLAG_GROUP.match(pattern, i)
            if flag is not None:
                on, off, end = flag.group(1), flag.group(2) or "", flag.group(3)
                for letter in on + off:
                    if letter == "U":
                        raise UntranslatableRegex("the flag U (ungreedy) has no Python equivalent")
                    if letter not in "ims":
                        raise UntranslatableRegex(f"unknown flag {letter!r}")
                if end == ")":
                    if leading and not off:
                        out.append(f"(?{on})" if on else "")
                    else:
                        # RE2 applies a mid-pattern flag to the rest of the group; Python only
                        # accepts global flags at the start, so scope it explicitly.
                        out.append(f"(?{on}-{off}:" if off else f"(?{on}:")
                        closers[-1] += 1
                    i = flag.end()
                    continue
                out.append(f"(?{on}-{off}:" if off else f"(?{on}:")
                closers.append(0)
                if len(closers) > _MAX_DEPTH:
                    raise UntranslatableRegex(f"groups nested more than {_MAX_DEPTH} deep")
                i = flag.end()
                leading = False
                continue
            if pattern.startswith("(?P<", i):
                out.append("(?P<")
                i += 4
            elif pattern.startswith("(?<", i) and not pattern.startswith(("(?<=", "(?<!"), i):
                out.append("(?P<")  # Go 1.22's (?<name>) is Python's (?P<name>)
                i += 3
            elif pattern.startswith(("(?=", "(?!", "(?<=", "(?<!"), i):
                # Not RE2, but Vale 3 (regexp2) accepts look-arounds and so does Python.
                width = 4 if pattern.startswith("(?<", i) else 3
                out.append(pattern[i : i + width])
                i += width
            elif pattern.startswith("(?", i):
                raise UntranslatableRegex(f"unknown group syntax {pattern[i : i + 4]!r}")
            else:
                out.append("(")
                i += 1
            closers.append(0)
            if len(closers) > _MAX_DEPTH:
                raise UntranslatableRegex(f"groups nested more than {_MAX_DEPTH} deep")
            leading = False
            continue
        if c == ")":
            if len(closers) == 1:
                raise UntranslatableRegex("unbalanced ')'")
            out.append(")" * closers.pop() + ")")
            i += 1
            continue
        if c == "^":
            out.append("(?m:^)")
        elif c == "$":
            out.append("(?m:$)")
        elif c == "{" and not re.match(r"\{\d+(?:,\d*)?\}", pattern[i:]):
            out.append("\\{")  # a literal brace in RE2 (Python reads `{,n}` as a repeat)
        else:
            out.append(c)
        leading = False
        i += 1
    if len(closers) != 1:
        raise UntranslatableRegex("unbalanced '('")
    out.append(")" * closers[0])
    return "".join(out)


def _escape(pattern: str, i: int, *, in_class: bool) -> tuple[str, int]:
    if i + 1 >= len(pattern):
        raise UntranslatableRegex("trailing backslash")
    c = pattern[i + 1]
    if c == "z":
        return ("" if in_class else "\\Z"), i + 2
    if c == "Q":
        end = pattern.find("\\E", i + 2)
        literal = pattern[i + 2 :] if end < 0 else pattern[i + 2 : end]
        return re.escape(literal), (len(pattern) if end < 0 else end + 2)
    if c in "pP":
        m = re.match(r"\\[pP](?:\{\^?([A-Za-z_]+)\}|([A-Za-z]))", pattern[i:])
        if m is None:
            raise UntranslatableRegex("malformed Unicode class")
        name = m.group(1) or m.group(2)
        negated = (c == "P") != m.group(0).startswith(("\\p{^", "\\P{^"))
        if name in ("L", "Letter") and not in_class and not negated:
            return _UNICODE_LETTER, i + len(m.group(0))
        raise UntranslatableRegex(f"Unicode class {m.group(0)!r} has no Python re equivalent")
    if c == "x" and pattern.startswith("{", i + 2):
        end = pattern.find("}", i + 3)
        if end < 0:
            raise UntranslatableRegex("malformed \\x{...}")
        digits = pattern[i + 3 : end]
        if not re.fullmatch(r"[0-9A-Fa-f]{1,6}", digits) or int(digits, 16) > 0x10FFFF:
            raise UntranslatableRegex(f"malformed \\x{{{digits}}}")
        return f"\\U{int(digits, 16):08x}", end + 1
    if c == "C":
        raise UntranslatableRegex("\\C (any byte) has no Python equivalent")
    if c.isdigit() and c != "0":
        raise UntranslatableRegex("backreferences are not RE2 and the rule compiler refuses them")
    return pattern[i : i + 2], i + 2


def _char_class(pattern: str, i: int) -> tuple[str, int]:
    out = ["["]
    j = i + 1
    if pattern.startswith("^", j):
        out.append("^")
        j += 1
    first = True
    while j < len(pattern):
        c = pattern[j]
        if c == "]" and not first:
            out.append("]")
            return "".join(out), j + 1
        first = False
        if c == "[" and pattern.startswith("[:", j):
            end = pattern.find(":]", j + 2)
            if end < 0:
                raise UntranslatableRegex("malformed POSIX class")
            name = pattern[j + 2 : end]
            if name.startswith("^"):
                raise UntranslatableRegex(f"negated POSIX class [:{name}:] inside a class")
            if name not in _POSIX:
                raise UntranslatableRegex(f"unknown POSIX class [:{name}:]")
            out.append(_POSIX[name])
            j = end + 2
            continue
        if c == "\\":
            piece, j = _escape(pattern, j, in_class=True)
            out.append(piece)
            continue
        if c == "[":
            out.append("\\[")  # a literal in RE2; Python warns it may become a nested set
        elif c in "&~|-" and pattern.startswith(c * 2, j) and c != "-":
            out.append("\\" + c)
        elif c == "]":
            out.append("\\]")
        else:
            out.append(c)
        j += 1
    raise UntranslatableRegex("unterminated character class")


def _compile(pattern: str) -> re.Pattern[str]:
    """Compile, turning Python's "this will change meaning" warnings into refusals."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return re.compile(pattern)
        except (re.error, FutureWarning, DeprecationWarning, RecursionError, OverflowError) as exc:
            raise UntranslatableRegex(f"does not compile in Python: {exc}") from None


# ---------------------------------------------------------------------------------------------
# Vale's own expression building (internal/check: makeRegexp and the word templates)


def _vale_existence_regex(rule: dict[str, Any]) -> str:
    tokens = [str(t) for t in rule.get("tokens") or []]
    raw = "".join(str(r) for r in rule.get("raw") or [])
    word = not rule.get("nonword", False) and bool(tokens)
    if tokens:
        template = "(?m)\\b(?:%s)\\b" if word else "(?m)(?:%s)"
        body = template.replace("%s", "|".join(tokens))
    else:
        body = ""  # Vale appends "(?m)(?:)", which matches nothing visible
    regex = body + raw if rule.get("append", False) else raw + body
    if rule.get("ignorecase", False):
        regex = "(?i)" + regex
    return regex


def _exclusion(alternatives: list[str]) -> str:
    """A look-ahead that drops a hit opening with one of ``alternatives`` (Vale's exceptions).

    Vale drops a hit in which ``\\b(?:exceptions)\\b`` is found, case-sensitively
    whatever the rule's ``ignorecase``. A pattern cannot look inside its own hit
    before it ends, so the hit must open with the exception: the same for the
    usual one-word hits.
    """
    inner = "|".join(translate_re2(a, embedded=True) for a in alternatives)
    return f"(?!(?-i:\\b(?:{inner})\\b))"


# ---------------------------------------------------------------------------------------------
# Examples: generated from the pattern, kept only when the compiler's own check agrees


def _samples(regex: str, limit: int) -> list[str]:
    """Texts the pattern may match: for variant k, every alternation takes branch k (capped)."""
    try:
        parsed = sre_parse.parse(regex)
    except Exception:
        return []
    width = max(1, _max_branches(list(parsed)))
    out: list[str] = []
    for k in range(min(width, limit)):
        for fill in (0, 1):
            try:
                text = _sample(list(parsed), k, fill)
            except _NoSample:
                continue
            if text and text not in out:
                out.append(text)
    return out


class _NoSample(Exception):
    pass


def _max_branches(items: list[tuple[Any, Any]]) -> int:
    best = 1
    for op, av in items:
        if op is C.BRANCH:
            best = max(best, len(av[1]), *(_max_branches(list(b)) for b in av[1]))
        elif op is C.SUBPATTERN:
            best = max(best, _max_branches(list(av[-1])))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT):
            best = max(best, _max_branches(list(av[2])))
    return best


_CATEGORY_CHARS = {
    C.CATEGORY_WORD: "a",
    C.CATEGORY_DIGIT: "0",
    C.CATEGORY_SPACE: " ",
    C.CATEGORY_NOT_WORD: " ",
    C.CATEGORY_NOT_DIGIT: "a",
    C.CATEGORY_NOT_SPACE: "a",
}


def _class_char(items: list[tuple[Any, Any]]) -> str:
    negated = bool(items) and items[0][0] is C.NEGATE
    if negated:
        excluded = _class_members(items[1:])
        for candidate in "aex0 ":
            if candidate not in excluded:
                return candidate
        raise _NoSample
    for op, av in items:
        if op is C.LITERAL:
            return chr(av)
        if op is C.RANGE:
            return chr(av[0])
        if op is C.CATEGORY and av in _CATEGORY_CHARS:
            return _CATEGORY_CHARS[av]
    raise _NoSample


def _class_members(items: list[tuple[Any, Any]]) -> str:
    chars = []
    for candidate in "aex0 ":
        for op, av in items:
            if (
                (op is C.LITERAL and chr(av) == candidate)
                or (op is C.RANGE and av[0] <= ord(candidate) <= av[1])
                or (op is C.CATEGORY and _CATEGORY_CHARS.get(av) == candidate)
            ):
                chars.append(candidate)
    return "".join(chars)


def _sample(items: list[tuple[Any, Any]], k: int, fill: int) -> str:
    out: list[str] = []
    for op, av in items:
        if op is C.LITERAL:
            out.append(chr(av))
        elif op is C.NOT_LITERAL:
            out.append("x" if av != ord("x") else "y")
        elif op is C.ANY:
            out.append("x")
        elif op is C.IN:
            out.append(_class_char(list(av)))
        elif op is C.CATEGORY:
            out.append(_CATEGORY_CHARS.get(av, "a"))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT):
            low, high, sub = av
            count = max(low, min(fill, high))
            piece = _sample(list(sub), k, fill)
            if len(piece) * count > _MAX_SAMPLE:
                raise _NoSample
            out.append(piece * count)
        elif op is C.SUBPATTERN:
            out.append(_sample(list(av[-1]), k, fill))
        elif op is C.BRANCH:
            branches = av[1]
            out.append(_sample(list(branches[min(k, len(branches) - 1)]), k, fill))
        elif op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            continue
        else:
            raise _NoSample
    return "".join(out)


_MAX_SAMPLE = 200  # an example longer than this helps no one read the rule
_MATCH_FRAMES = ("[[{}]]", "Then [[{}]] again.", "[[{}]]next", "Look: [[{}]]")
_NEAR_MISSES = ("{}qx", "qx{}", "Qx{}qx")
_NEUTRAL = ("Qqq.", "Read the report.", "Xyzzy")


def _must_match(regex: re.Pattern[str], sample: str) -> str | None:
    for frame in _MATCH_FRAMES:
        example = frame.format(sample)
        marked = [(m.start() - 4 * i, m.end() - 4 * (i + 1)) for i, m in enumerate(_MARK.finditer(example))]
        text = _MARK.sub(r"\1", example)
        if "[[" in sample or "]]" in sample:
            return None
        spans, empty = example_spans(regex, text)
        if spans == marked and not empty:
            return example
    return None


def _must_not_match(regex: re.Pattern[str], samples: list[str]) -> list[str]:
    found: list[str] = []
    candidates = [frame.format(s) for s in samples[:3] for frame in _NEAR_MISSES] + list(_NEUTRAL)
    for text in candidates:
        if "[[" in text or text in found:
            continue
        spans, _ = example_spans(regex, text)
        if not spans:
            found.append(text)
        if len(found) == 2:
            break
    return found


# ---------------------------------------------------------------------------------------------
# Conversion of one rule


@dataclass
class _Signal:
    id: str
    pattern: str
    must_match: list[str]
    must_not_match: list[str]
    message: str | None = None
    max_words: int | None = None
    max_chars: int | None = None


@dataclass
class _Rule:
    name: str
    kind: str
    level: str
    signals: list[_Signal]
    message: str
    description: str
    link: str | None
    excluded: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    before_after: list[tuple[str, str]] = field(default_factory=list)


class _Skip(Exception):
    pass


def _scope(rule: dict[str, Any], notes: list[str]) -> list[str]:
    """Our excluded contexts for Vale's ``scope``; raises _Skip where a scope cannot be honoured."""
    raw = rule.get("scope", "text")
    scopes = [raw] if isinstance(raw, str) else list(raw) if isinstance(raw, list) else None
    if scopes is None or not all(isinstance(s, str) for s in scopes):
        raise _Skip(f"scope {raw!r} is neither a name nor a list of names")
    excluded: list[str] = []
    positive: list[str] = []
    for scope in scopes:
        if scope.startswith("~"):
            base = scope[1:].split(".")[0]
            if base in _EXCLUDABLE:
                context = _EXCLUDABLE[base]
                if context and context not in excluded:
                    excluded.append(context)
            else:
                notes.append(f"scope {scope!r} has no equivalent context; the rule also runs there")
        else:
            positive.append(scope)
    for scope in positive:
        base = scope.split(".")[0]
        if base == "raw":
            raise _Skip("scope 'raw' matches the markup itself; the scanner reads prose only")
        if base not in _WHOLE_PROSE_SCOPES:
            raise _Skip(f"scope {scope!r}: the scanner cannot restrict a pattern to {base} text")
        if base != "text":
            notes.append(f"scope {scope!r} is read as all prose (headings, lists and tables included)")
    return excluded


def _level(rule: dict[str, Any]) -> str:
    level = rule.get("level", "warning")
    if not isinstance(level, str) or level not in _LEVELS:
        raise _Skip(f"level {level!r} is not error, warning or suggestion")
    return _LEVELS[level]


def _text(value: Any, what: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, (str, int, float)):
        raise _Skip(f"{what} is not text")
    return " ".join(str(value).split())


def _pattern_signal(signal_id: str, go_regex: str, exclusions: list[str]) -> _Signal:
    try:
        python = translate_re2(go_regex)
        if exclusions:
            python = _with_exclusion(python, _exclusion(exclusions))
    except UntranslatableRegex as exc:
        raise _Skip(f"regular expression: {exc}") from None
    try:
        regex = _compile(python)
    except UntranslatableRegex as exc:
        raise _Skip(f"regular expression {exc}") from None
    if regex.search("") is not None:
        raise _Skip("the pattern matches the empty string")
    backtracking = static_problems(python)
    if backtracking:
        # The build refuses it, and trying it on examples here could take forever.
        raise _Skip(f"the pattern can backtrack catastrophically: {backtracking[0]}")
    samples = _samples(python, limit=2000)
    must_match: list[str] = []
    for sample in samples:
        example = _must_match(regex, sample)
        if example is not None and example not in must_match:
            must_match.append(example)
    if not must_match:
        raise _Skip("no example text could be generated that the pattern matches")
    must_not = _must_not_match(regex, [_MARK.sub(r"\1", e) for e in must_match])
    if not must_not:
        raise _Skip("no example text could be generated that the pattern does not match")
    return _Signal(id=signal_id, pattern=python, must_match=_spread(must_match), must_not_match=must_not)


# Every alternative's example is checked here; the rule file keeps an even spread of them.
# The build runs each example, repeated to 250,000 characters, through the timed check:
# 700 examples (write-good.Cliches) cost minutes there and prove no more than 24.
MAX_GENERATED_EXAMPLES = 24


def _spread(examples: list[str]) -> list[str]:
    if len(examples) <= MAX_GENERATED_EXAMPLES:
        return examples
    last = len(examples) - 1
    picks = sorted({round(i * last / (MAX_GENERATED_EXAMPLES - 1)) for i in range(MAX_GENERATED_EXAMPLES)})
    return [examples[i] for i in picks]


def _with_exclusion(python: str, exclusion: str) -> str:
    """Put the exclusion after the leading global flags (Python wants those first)."""
    m = re.match(r"(?:\(\?[ims]+\))*", python)
    head = m.group(0) if m else ""
    return head + exclusion + python[len(head) :]


def _strings(value: Any, what: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(v, (str, int, float)) for v in value):
        raise _Skip(f"{what} is not a list of texts")
    return [str(v) for v in value]


def _convert(name: str, rule: dict[str, Any], accepted: list[str], language: str = "en") -> _Rule:
    kind = rule.get("extends")
    if not isinstance(kind, str):
        raise _Skip("no 'extends' kind")
    if kind == "capitalization":
        raise _Skip(_capitalization_reason(rule))
    if kind == "conditional":
        raise _Skip(
            "needs state across the document (whether 'second' occurs anywhere before 'first'), "
            "which one pattern cannot see"
        )
    if kind in _SKIPPED_KINDS:
        raise _Skip(_SKIPPED_KINDS[kind])
    if kind not in ("existence", "substitution", "occurrence"):
        raise _Skip(f"unknown kind {kind!r}")
    notes: list[str] = []
    level = _level(rule)
    excluded = _scope(rule, notes)
    message = _text(rule.get("message"), "message")
    description = _text(rule.get("description"), "description")
    link = _text(rule.get("link"), "link") or None
    ignorecase = bool(rule.get("ignorecase", False))
    exceptions = _strings(rule.get("exceptions"), "exceptions")
    if rule.get("vocab", True) is not False:
        exceptions += accepted  # Vale adds the accepted vocabulary unless the rule says `vocab: false`
    for key in ("limit",):
        if key in rule:
            notes.append(f"'{key}' is not kept: the scanner reports every hit")
    if "action" in rule:
        notes.append("Vale's 'action' is not converted into a safe fix; add 'fixes' by hand where certain")
    signals: list[_Signal] = []
    before_after: list[tuple[str, str]] = []
    if kind == "existence":
        rule = {**rule, "tokens": _strings(rule.get("tokens"), "tokens"), "raw": _strings(rule.get("raw"), "raw")}
        if not rule["tokens"] and not rule["raw"]:
            raise _Skip("neither 'tokens' nor 'raw'")
        signal = _pattern_signal("existence", _vale_existence_regex(rule), exceptions)
        signal.message = message
        signals.append(signal)
        sample = _MARK.search(signal.must_match[0])
        if sample:
            before_after.append(
                (_MARK.sub(r"\1", signal.must_match[0]), f'The sentence reworded without "{sample.group(1).strip()}".')
            )
    elif kind == "substitution":
        swap = rule.get("swap")
        if not isinstance(swap, dict) or not swap:
            raise _Skip("no 'swap' map")
        for index, (raw_key, raw_expected) in enumerate(swap.items(), start=1):
            if not isinstance(raw_key, (str, int, float)) or not isinstance(raw_expected, (str, int, float)):
                notes.append(f"swap entry {index} is not a text -> text pair; skipped")
                continue
            key, expected = str(raw_key), str(raw_expected)
            if key.count("(") != key.count("(?") + key.count("\\("):
                # Vale pairs capture groups with replacements and drops such keys itself.
                notes.append(f"swap key {key!r} has a capture group; Vale ignores it, and so does this import")
                continue
            group = "(?m)\\b(?:%s)\\b" if not rule.get("nonword", False) else "(?m)(?:%s)"
            go = ("(?i)" if ignorecase else "") + group.replace("%s", key)
            # Vale reports no hit that already is the replacement: matched case-sensitively as
            # `^(?:replacement)$`, or compared as plain text when it is a phrase (has a space).
            try:
                replacement = (
                    re.escape(expected).replace("\\ ", " ")
                    if " " in expected
                    else translate_re2(expected, embedded=True)
                )
            except UntranslatableRegex as exc:
                notes.append(f"swap {key!r}: replacement {expected!r}: {exc}; skipped")
                continue
            same = "(?!(?-i:(?:" + replacement + "))(?!\\w))"
            try:
                signal = _pattern_signal(f"swap-{index}", go, exceptions)
            except _Skip as exc:
                notes.append(f"swap {key!r} -> {expected!r} skipped: {exc}")
                continue
            signal.pattern = _with_exclusion(signal.pattern, same)
            regex = _compile(signal.pattern)
            signal.must_match = [e for e in signal.must_match if _check_marked(regex, e)]
            if not example_spans(regex, expected)[0]:
                # The replacement itself is the most useful near-miss.
                signal.must_not_match = [expected, *[e for e in signal.must_not_match if e != expected]][:3]
            if not signal.must_match:
                notes.append(f"swap {key!r} -> {expected!r} skipped: no example survives the replacement check")
                continue
            shown = " or ".join(expected.split("|"))
            signal.message = message.replace("%s", shown, 1) if "%s" in message else message
            signals.append(signal)
            first = _MARK.search(signal.must_match[0])
            if first and len(before_after) < 3:
                text = _MARK.sub(r"\1", signal.must_match[0])
                before_after.append((text, text.replace(first.group(1), expected.split("|")[0], 1)))
        if not signals:
            raise _Skip("no swap entry could be converted")
    else:
        signals.append(_occurrence(rule, notes, language))
        before_after.append((signals[0].must_match[0].strip("[]"), "The same text in shorter sentences."))
    return _Rule(
        name=name,
        kind=kind,
        level=level,
        signals=signals,
        message=message,
        description=description,
        link=link,
        excluded=excluded,
        notes=notes,
        before_after=before_after,
    )


def _check_marked(regex: re.Pattern[str], example: str) -> bool:
    marked = [(m.start() - 4 * i, m.end() - 4 * (i + 1)) for i, m in enumerate(_MARK.finditer(example))]
    spans, empty = example_spans(regex, _MARK.sub(r"\1", example))
    return spans == marked and not empty


_WORD_TOKENS = {r"[^\s]+", r"\S+", r"\w+", r"\b(\w+)\b", r"\b\w+\b", r"[\w']+", r"\b[\w']+\b"}


def _occurrence(rule: dict[str, Any], notes: list[str], language: str) -> _Signal:
    token = str(rule.get("token", ""))
    scope = rule.get("scope", "text")
    if "min" in rule:
        raise _Skip("'min' (too few occurrences) has no sentence-length equivalent")
    maximum = rule.get("max")
    if not isinstance(maximum, int) or isinstance(maximum, bool) or maximum < 1:
        raise _Skip("occurrence without a positive 'max'")
    if scope != "sentence":
        raise _Skip(f"occurrence counts in scope {scope!r}; only sentence lengths map (max_words, max_chars)")
    if maximum > (1000 if token in _WORD_TOKENS else 100_000):
        raise _Skip(f"'max' {maximum} is beyond what a sentence-length signal accepts")
    if token in _WORD_TOKENS:
        signal = _Signal(id="sentence-length", pattern="", must_match=[], must_not_match=[], max_words=maximum)
        words = " ".join(f"word{i}" for i in range(maximum + 1))
        signal.must_match = [f"[[{words.capitalize()}.]]"]
        signal.must_not_match = [" ".join(["Short", "clear", "text"][: min(maximum, 3)]) + "."]
    elif token == ".":
        signal = _Signal(id="sentence-length", pattern="", must_match=[], must_not_match=[], max_chars=maximum)
        signal.must_match = ["[[" + ("Long " * (maximum // 5 + 1)).strip() + ".]]"]
        signal.must_not_match = ["Short."]
    else:
        raise _Skip(f"occurrence of token {token!r}: only counts of words or characters map to a sentence length")
    for example, wanted in ((signal.must_match[0], True), (signal.must_not_match[0], False)):
        # Checked with the scanner's own sentence counter, as the build checks it.
        text = _MARK.sub(r"\1", example)
        if bool(long_sentence_spans(text, language, signal.max_words, signal.max_chars)) != wanted:
            raise _Skip("no sentence-length example could be generated")
    notes.append("counted the way the scanner counts sentence words (docs/authoring.md), not with Vale's token")
    signal.message = _text(rule.get("message"), "message")
    return signal


def _capitalization_reason(rule: dict[str, Any]) -> str:
    scope = rule.get("scope", "heading")
    if scope in ("heading", "heading.h1", "heading.h2", "heading.h3") or str(scope).startswith("heading"):
        return (
            f"checks the case of each {scope} as a whole (match {rule.get('match')!r}); the scanner cannot "
            "restrict a pattern to headings, and title or sentence case needs a word-by-word check"
        )
    return f"match {rule.get('match')!r} needs a word-by-word case check that one pattern cannot make"


# ---------------------------------------------------------------------------------------------
# Examples from the style's own test documents (fixtures/ with features/rules.feature)


@dataclass
class _Block:
    """A blank-line-separated block of a fixture, and where Vale's alerts start in it, per rule."""

    text: str
    enabled: frozenset[str]
    passing: bool  # from a document Vale finds nothing in: the best near-misses
    alerts: dict[str, set[int]] = field(default_factory=dict)


def _fixture_blocks(base: Path, style: str) -> list[_Block]:
    feature = base / "features" / "rules.feature"
    if not feature.is_file():
        return []
    expected: dict[tuple[str, str], list[tuple[int, int, str]]] = {}
    case = ""
    inside = False
    for raw in feature.read_text(encoding="utf-8", errors="replace").splitlines():
        line = raw.strip()
        tested = re.match(r'When I test "([^"/\\]+)"', line)
        if tested:
            case = tested.group(1)
        elif line == '"""':
            inside = not inside
        elif inside and case:
            parts = line.split(":", 4)
            if len(parts) == 5 and parts[1].isdigit() and parts[2].isdigit():
                expected.setdefault((case, parts[0]), []).append((int(parts[1]), int(parts[2]), parts[3]))
    blocks: list[_Block] = []
    for case in sorted({c for c, _ in expected}):
        folder = base / "fixtures" / case
        ini = folder / ".vale.ini"
        if not ini.is_file():
            continue
        settings = ini.read_text(encoding="utf-8", errors="replace")
        styles = {
            s.strip() for m in re.finditer(r"(?m)^BasedOnStyles\s*=\s*(.+)$", settings) for s in m.group(1).split(",")
        }
        named = frozenset(m.group(1) for m in re.finditer(r"(?mi)^([\w.-]+)\s*=\s*YES\s*$", settings))
        for path in sorted(folder.glob("*.md")):
            try:
                lines = _read_regular(path).decode("utf-8", errors="replace").split("\n")
            except OSError:
                continue  # not a document (a FIFO, a device): no examples from it
            enabled = frozenset({f"{style}.*"} if style in styles else set()) | frozenset(
                n for n in named if n.startswith(style + ".")
            )
            alerts = expected.get((case, path.name), [])
            start = 0
            while start < len(lines):
                if not lines[start].strip():
                    start += 1
                    continue
                end = start
                while end < len(lines) and lines[end].strip():
                    end += 1
                block = _Block("\n".join(lines[start:end]), enabled, passing=not alerts)
                for number, column, rule in alerts:
                    if start < number <= end:
                        offset = sum(len(x) + 1 for x in lines[start : number - 1]) + column - 1
                        block.alerts.setdefault(rule, set()).add(offset)
                blocks.append(block)
                start = end
    return blocks


def _add_fixture_examples(style: str, rule: _Rule, blocks: list[_Block]) -> None:
    """Vale's own test paragraphs as examples, where the converted pattern agrees with Vale's alerts."""
    full = f"{style}.{rule.name}"
    relevant = [b for b in blocks if full in b.enabled or f"{style}.*" in b.enabled]
    relevant.sort(key=lambda b: not b.passing)  # stable: documents without alerts first
    for signal in rule.signals:
        if signal.max_words is not None or signal.max_chars is not None:
            continue
        regex = _compile(signal.pattern)
        found: list[str] = []
        clean: list[str] = []
        for block in relevant:
            if "[[" in block.text or "]]" in block.text:
                continue
            spans, empty = example_spans(regex, block.text)
            wanted = block.alerts.get(full, set())
            if spans and not empty and {s for s, _ in spans} <= wanted and len(found) < 5:
                marked = block.text
                for start, end in reversed(spans):
                    marked = marked[:start] + "[[" + marked[start:end] + "]]" + marked[end:]
                found.append(marked)
            elif not spans and not wanted and len(block.text.split()) >= 4 and len(clean) < 2:
                clean.append(block.text)
        signal.must_match = [*found, *(e for e in signal.must_match if e not in found)]
        single = [e for e in found if "\n" not in e]
        if single and rule.kind == "existence" and rule.before_after:
            hit = _MARK.search(single[0])
            assert hit is not None
            rule.before_after[0] = (
                _MARK.sub(r"\1", single[0]),
                f'The sentence reworded without "{hit.group(1).strip()}".',
            )
        signal.must_not_match = [*clean, *(e for e in signal.must_not_match if e not in clean)]


# ---------------------------------------------------------------------------------------------
# Vocabularies


def _vocabularies(style_dir: Path) -> tuple[list[str], list[str], list[str]]:
    """accept (with vocab.txt) and reject entries, and the files they came from."""
    accept: list[str] = []
    reject: list[str] = []
    files: list[str] = []
    places = [style_dir]
    for sub in ("Vocab", "vocabularies", "config/vocabularies"):
        base = style_dir / sub
        if base.is_dir():
            places.extend(sorted(p for p in base.iterdir() if p.is_dir()))
    for place in places:
        for name, target in (("accept.txt", accept), ("vocab.txt", accept), ("reject.txt", reject)):
            path = place / name
            if path.is_file():
                files.append(str(path.relative_to(style_dir)))
                for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                    entry = line.strip()
                    if entry and not entry.startswith("#") and entry not in target:
                        target.append(entry)
    return accept, reject, files


_PLAIN = re.compile(r"[\w][\w .'’&+-]*[\w.+]|\w")


def _terms_yaml(accepted: list[str], language: str) -> tuple[list[dict[str, Any]], list[str]]:
    """terms.yaml entries for accepted terms written plainly; the notes for the others."""
    entries: list[dict[str, Any]] = []
    notes: list[str] = []
    for term in accepted:
        if _PLAIN.fullmatch(term) and term.lower() != term:
            entries.append(
                {
                    "use": term,
                    "avoid": [],
                    "language": language,
                    "case": "sensitive",
                    "why": "Accepted term of the Vale vocabulary; flagged when written in another case (Vale.Terms).",
                }
            )
        elif not _PLAIN.fullmatch(term):
            notes.append(f"accepted entry {term!r} is a pattern: kept as an exception of every rule, not as a term")
    return entries, notes


# ---------------------------------------------------------------------------------------------
# Writing the pack


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug or "vale-style"


def _dump(value: Any) -> str:
    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=100000, default_flow_style=False)


_APPLIES = {
    "en": "Prose of the document (code is scanned on its own).",
    "de": "Fließtext des Dokuments (Code wird getrennt geprüft).",
}
_NOT_IN = {
    "en": {"heading": "headings", "table": "tables"},
    "de": {"heading": "Überschriften", "table": "Tabellen"},
}


def _rule_markdown(style: str, rule: _Rule, language: str) -> str:
    front: dict[str, Any] = {
        "id": f"{style}.{rule.name}",
        "level": rule.level,
        "profiles": [],
        "title": {language: f"{style}.{rule.name}"},
        "summary": {language: (rule.message.replace("%s", "…") or rule.description or f"Vale rule {rule.name}")},
    }
    if rule.excluded:
        front["excluded_contexts"] = list(rule.excluded)
    signals = []
    for s in rule.signals:
        item: dict[str, Any] = {"id": s.id, "language": language}
        if s.max_words is not None:
            item["max_words"] = s.max_words
        elif s.max_chars is not None:
            item["max_chars"] = s.max_chars
        else:
            item["pattern"] = s.pattern
        if s.message:
            item["message"] = s.message
        item["must_match"] = s.must_match
        item["must_not_match"] = s.must_not_match
        signals.append(item)
    front["signals"] = signals
    metadata: dict[str, Any] = {"tags": ["vale", rule.kind]}
    if rule.link:
        metadata["references"] = [rule.link]
    front["metadata"] = metadata
    instruction = rule.description.replace("%s", "…") or rule.message.replace("%s", "…") or rule.name
    applies = _APPLIES[language]
    if rule.excluded:
        names = ", ".join(_NOT_IN[language][c] for c in rule.excluded)
        applies += f" Not in {names}." if language == "en" else f" Nicht in {names}."
    vale_line = (
        f"Imported from the Vale rule `{style}.{rule.name}` ({rule.kind})."
        if language == "en"
        else f"Aus der Vale-Regel `{style}.{rule.name}` ({rule.kind}) übernommen."
    )
    examples = "\n\n".join(f"Before: {b}\nAfter: {a}" for b, a in rule.before_after[:3])
    return (
        f"---\n{_dump(front)}---\n\n## {language}\n\n### Instruction\n\n{instruction}\n\n"
        f"### Applies when\n\n{applies} {vale_line}\n\n### Examples\n\n{examples}\n"
    )


# Far above any Vale rule or fixture document (write-good's largest rule is 20 kB).
_MAX_STYLE_FILE = 16 * 1024 * 1024


def _read_regular(path: Path) -> bytes:
    """The bytes of a style's file; ``OSError`` unless it is a regular file of a sane size.

    A downloaded style may hold a FIFO (a plain read waits for a writer for ever) or a
    link to a device (read without end): opened without blocking, checked on the open
    descriptor, and read up to the limit.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if status.st_size > _MAX_STYLE_FILE:
            raise OSError(errno.EFBIG, f"larger than {_MAX_STYLE_FILE:,} bytes")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(_MAX_STYLE_FILE + 1)
    finally:
        os.close(fd)
    if len(data) > _MAX_STYLE_FILE:
        raise OSError(errno.EFBIG, f"larger than {_MAX_STYLE_FILE:,} bytes")
    return data


def _read_rule(path: Path) -> dict[str, Any]:
    try:
        raw = _read_regular(path)
    except OSError as exc:
        raise _Skip(exc.strerror or str(exc)) from None
    try:
        data = yaml.safe_load(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise _Skip("the file is not UTF-8") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"{path.name}:{mark.line + 1}:{mark.column + 1}" if mark is not None else path.name
        raise _Skip(f"YAML syntax error at {where}: {exc.problem}") from None
    except yaml.YAMLError as exc:
        raise _Skip(f"YAML error: {exc}") from None
    except RecursionError:
        raise _Skip("the YAML is nested too deeply") from None
    if not isinstance(data, dict):
        raise _Skip("the file is not a YAML mapping")
    return data


def _version(style_dir: Path) -> str:
    changelog = style_dir / "CHANGELOG.md"
    if changelog.is_file():
        m = re.search(r"^#+\s*\[?v?(\d+\.\d+\.\d+)", changelog.read_text(encoding="utf-8", errors="replace"), re.M)
        if m:
            return m.group(1)
    return "0.1.0"


def _style_folder(style_dir: Path) -> Path:
    """The folder of ``<Rule>.yml`` files: the style itself, or its one ``<Style>/`` child (a package)."""
    if any(style_dir.glob("*.yml")):
        return style_dir
    children = [p for p in sorted(style_dir.iterdir()) if p.is_dir() and any(p.glob("*.yml"))]
    if len(children) == 1:
        return children[0]
    if not children:
        raise ValeImportError(f"{style_dir}: no Vale rules (*.yml) here or in a style folder below it")
    names = ", ".join(p.name for p in children)
    raise ValeImportError(f"{style_dir}: several styles ({names}); name one of them")


def import_vale_style(
    style_dir: str | os.PathLike[str], out_dir: str | os.PathLike[str], *, language: str = "en"
) -> ImportReport:
    """Convert the Vale style in ``style_dir`` into a pack source folder ``out_dir``.

    ``style_dir`` is the style's folder (``write-good/``, holding ``*.yml``) or a
    package folder with one style folder inside. ``out_dir`` must not exist or be
    empty: the pack is written to a temporary folder beside it and moved into
    place, so a failed import leaves nothing half-written. Raises
    ``ValeImportError`` for unusable folders; a rule that cannot be converted is
    reported in ``ImportReport.skipped``, never raised.
    """
    if language not in ("en", "de"):
        raise ValeImportError(f"language {language!r}: use 'en' or 'de'")
    root = Path(style_dir)
    if not root.is_dir():
        raise ValeImportError(f"{root}: not a folder")
    folder = _style_folder(root)
    style = folder.name
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", style):
        raise ValeImportError(f"{folder}: style name {style!r} is not a Vale style name")
    out = Path(out_dir)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ValeImportError(f"{out}: exists and is not an empty folder; choose a new one")

    accepted, rejected, vocab_files = _vocabularies(root)
    base = root if root != folder else folder.parent
    blocks = _fixture_blocks(base, style)
    converted: list[ConvertedRule] = []
    skipped: list[SkippedRule] = []
    written: dict[str, str] = {}
    for path in sorted(folder.glob("*.yml")) + sorted(folder.glob("*.yaml")):
        name = path.stem
        kind = "?"
        try:
            if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", name):
                raise _Skip("the file name is not a Vale rule name")
            if f"rules/{style}.{name}.md" in written:
                raise _Skip(f"a rule {name!r} was already read from {name}.yml")
            data = _read_rule(path)
            kind = str(data.get("extends", "?"))
            try:
                rule = _convert(name, data, accepted, language)
                _add_fixture_examples(style, rule, blocks)
            except RecursionError:
                raise _Skip("the rule is nested too deeply to read") from None
        except _Skip as exc:
            skipped.append(SkippedRule(f"{style}.{name}", kind, str(exc)))
            continue
        rel = f"rules/{style}.{name}.md"
        written[rel] = _rule_markdown(style, rule, language)
        converted.append(
            ConvertedRule(
                name=f"{style}.{name}",
                kind=rule.kind,
                path=rel,
                signals=len(rule.signals),
                notes=tuple(rule.notes),
                build_problems=tuple(_build_problems(rule)),
            )
        )
    notes: list[str] = []
    if rejected:
        avoid = {"extends": "existence", "message": "Avoid using '%s'.", "level": "error", "tokens": rejected}
        try:
            rule = _convert("Avoid", avoid, [])
        except _Skip as exc:
            skipped.append(SkippedRule("Vale.Avoid", "existence", f"reject.txt: {exc}"))
        else:
            rel = "rules/Vale.Avoid.md"
            written[rel] = _rule_markdown("Vale", rule, language)
            converted.append(
                ConvertedRule(
                    "Vale.Avoid", "existence", rel, len(rule.signals), tuple(rule.notes), tuple(_build_problems(rule))
                )
            )
    terms, term_notes = _terms_yaml(accepted, language)
    notes.extend(term_notes)
    if vocab_files:
        notes.append(f"vocabularies read: {', '.join(vocab_files)}")
    if terms:
        written["terms.yaml"] = _dump({"terms": terms})

    pack = {
        "id": _slug(style),
        "version": _version(root),
        "title": {language: f"{style} (imported from Vale)"},
        "languages": [language],
        "vale": {"style": style},
    }
    written["pack.yaml"] = _dump(pack)
    _write_atomically(out, written)
    return ImportReport(
        style=style,
        pack_id=_slug(style),
        out_dir=out,
        converted=tuple(converted),
        skipped=tuple(skipped),
        terms=len(terms),
        notes=tuple(notes),
    )


def _build_problems(rule: _Rule) -> list[str]:
    problems: list[str] = []
    for signal in rule.signals:
        if signal.pattern:
            for message in (*static_problems(signal.pattern), *index_problems(signal.pattern)):
                problems.append(f"signal {signal.id}: {message}")
    return problems


def _write_atomically(out: Path, files: dict[str, str]) -> None:
    parent = out.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=parent))
    try:
        for rel, text in sorted(files.items()):
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="\n")
        if out.exists():
            out.rmdir()  # empty, checked above
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
