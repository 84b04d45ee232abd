"""Static check for regular expressions that can backtrack catastrophically.

Python's ``re`` is a backtracking engine: a pattern such as ``(a+)+b`` takes
exponential time on ``aaaa…c``. The scanner runs every pattern over texts of
up to 250,000 characters supplied by a model, so such patterns are refused. The
check works on the parse tree and refuses:

- nested quantifiers: a quantifier with a maximum above 1 inside another;
- overlapping alternatives under a quantifier (``(a|ab)*``), where two
  alternatives can start with the same character;
- adjacent quantifiers over overlapping characters (``\\s*\\s+``, ``\\w+\\w*``);
- backreferences, atomic groups and possessive quantifiers (the last two do
  not exist on Python 3.10, which the package supports).

One check for both sides: the compiler loads this file by path
(``generator/_redos.py``, as it loads ``_fix_text.py``) and refuses such a pattern
at build time; the pack loader runs it on a pack module's patterns and fixes when
it first compiles them, since a module is data a checkout can write by hand (its
checksums made to match) and never went through ``pack build``. What this static
check misses, the build's timed run (``generator/_timing.py``) catches.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

# Python's own regular-expression parser (``re._parser`` from 3.11, ``sre_parse`` before), untyped.
_NEW = sys.version_info >= (3, 11)
C: Any = importlib.import_module("re._constants" if _NEW else "sre_constants")
sre_parse: Any = importlib.import_module("re._parser" if _NEW else "sre_parse")

__all__ = ["static_problems"]

# Characters the overlap test probes: ASCII, Latin-1, Latin Extended, general
# punctuation and typographic quotes cover what the patterns are about; each
# pattern's own characters are added, so an overlap of other scripts ("[丁丂]|丁丂")
# is seen too.
_PROBE = tuple(chr(c) for c in (*range(0x0, 0x250), *range(0x2000, 0x2070), 0x3000, 0xFEFF))

CharTest = Callable[[str], bool]


class _Check(NamedTuple):
    ignorecase: bool
    probe: tuple[str, ...]  # the characters overlaps are looked for among


def static_problems(pattern: str) -> list[str]:
    """Return a message per construct that can backtrack catastrophically."""
    try:
        parsed = sre_parse.parse(pattern)
    except Exception:  # compile errors are reported by the caller
        return []
    ignorecase = bool(parsed.state.flags & C.SRE_FLAG_IGNORECASE)
    known = set(_PROBE)
    probe = _PROBE + tuple(sorted({c for c in pattern if c not in known}))
    problems: list[str] = []
    _walk(list(parsed), _Check(ignorecase, probe), inside_repeat=False, problems=problems)
    return sorted(set(problems))


def _is_repeat(op: Any) -> bool:
    return op in (C.MAX_REPEAT, C.MIN_REPEAT)


def _walk(items: list[tuple[Any, Any]], check: _Check, inside_repeat: bool, problems: list[str]) -> None:
    _check_adjacent(items, check, problems)
    for op, av in items:
        name = str(op)
        if name in ("ATOMIC_GROUP", "POSSESSIVE_REPEAT"):
            problems.append("atomic groups and possessive quantifiers are not available on Python 3.10")
            continue
        if op in (C.GROUPREF, C.GROUPREF_EXISTS):
            problems.append("backreferences can backtrack exponentially; rewrite without them")
            if op == C.GROUPREF_EXISTS:
                for branch in av[1:]:
                    if branch is not None:
                        _walk(list(branch), check, inside_repeat, problems)
            continue
        if _is_repeat(op):
            _, high, body = av
            repeats = high > 1
            if repeats and inside_repeat:
                problems.append(
                    "nested quantifiers (a repeated group that contains another repetition) "
                    "can backtrack catastrophically"
                )
            if repeats:
                _check_alternation(list(body), check, problems)
            _walk(list(body), check, inside_repeat or repeats, problems)
        elif op == C.SUBPATTERN:
            _walk(list(av[-1]), check, inside_repeat, problems)
        elif op == C.BRANCH:
            for branch in av[1]:
                _walk(list(branch), check, inside_repeat, problems)
        elif op in (C.ASSERT, C.ASSERT_NOT):
            _walk(list(av[1]), check, inside_repeat, problems)


def _check_alternation(items: list[tuple[Any, Any]], check: _Check, problems: list[str]) -> None:
    """Alternatives under a quantifier must start with disjoint characters.

    ``re`` factors common prefixes (``a|ab`` becomes ``a(?:|b)``), so every
    branch in the repeated body counts, and an empty alternative overlaps all.
    """
    for op, av in items:
        if op == C.SUBPATTERN:
            _check_alternation(list(av[-1]), check, problems)
        elif op == C.BRANCH:
            firsts = [_first_chars(list(branch), check) for branch in av[1]]
            for i, left in enumerate(firsts):
                for right in firsts[i + 1 :]:
                    if left is None or right is None or left & right:
                        problems.append(
                            "alternatives under a quantifier can start with the same character "
                            "(overlapping alternation backtracks catastrophically)"
                        )
                        return
            for branch in av[1]:
                _check_alternation(list(branch), check, problems)


def _check_adjacent(items: list[tuple[Any, Any]], check: _Check, problems: list[str]) -> None:
    """Two variable-length repeats in a row must not share characters."""
    previous: frozenset[str] | None = None
    for op, av in items:
        if _is_repeat(op) and av[1] > 1 and av[1] != av[0]:
            chars = _chars_of(list(av[2]), check)
            if previous is not None and (chars is None or chars & previous):
                problems.append(
                    "adjacent quantifiers over overlapping characters (such as \\s*\\s+) backtrack quadratically"
                )
            previous = chars if chars is not None else frozenset(check.probe)
        elif _is_repeat(op) and av[0] == 0:
            continue  # an optional item keeps the previous repeat adjacent to the next
        else:
            previous = None


def _chars_of(items: list[tuple[Any, Any]], check: _Check) -> frozenset[str] | None:
    """All probe characters a sequence can consume, or None when unknown."""
    chars: set[str] = set()
    for op, av in items:
        test = _char_test(op, av, check.ignorecase)
        if test is not None:
            chars.update(c for c in check.probe if test(c))
        elif op == C.SUBPATTERN:
            inner = _chars_of(list(av[-1]), check)
            if inner is None:
                return None
            chars |= inner
        elif op == C.BRANCH:
            for branch in av[1]:
                inner = _chars_of(list(branch), check)
                if inner is None:
                    return None
                chars |= inner
        elif _is_repeat(op):
            inner = _chars_of(list(av[2]), check)
            if inner is None:
                return None
            chars |= inner
        elif op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            continue
        else:
            return None
    return frozenset(chars)


def _first_chars(items: list[tuple[Any, Any]], check: _Check) -> frozenset[str] | None:
    """Probe characters a sequence can start with; None when it can match empty or is unknown."""
    chars: set[str] = set()
    for op, av in items:
        test = _char_test(op, av, check.ignorecase)
        if test is not None:
            chars.update(c for c in check.probe if test(c))
            return frozenset(chars)
        if op == C.SUBPATTERN:
            inner = _first_chars(list(av[-1]), check)
            if inner is None:
                return None
            return frozenset(chars | inner)
        if op == C.BRANCH:
            for branch in av[1]:
                inner = _first_chars(list(branch), check)
                if inner is None:
                    return None
                chars |= inner
            return frozenset(chars)
        if _is_repeat(op):
            inner = _first_chars(list(av[2]), check)
            if inner is None:
                return None
            chars |= inner
            if av[0] >= 1:
                return frozenset(chars)
            continue  # optional: the next item can start the match too
        if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            continue
        return None
    return None  # the sequence can match the empty string


def _char_test(op: Any, av: Any, ignorecase: bool) -> CharTest | None:
    if op == C.LITERAL:
        return _literal_test(chr(av), ignorecase)
    if op == C.NOT_LITERAL:
        test = _literal_test(chr(av), ignorecase)
        return lambda c: not test(c)
    if op == C.ANY:
        return lambda c: c != "\n"
    if op == C.IN:
        return _set_test(av, ignorecase)
    return None


def _literal_test(char: str, ignorecase: bool) -> CharTest:
    if ignorecase:
        folded = char.casefold()
        return lambda c: c.casefold() == folded
    return lambda c: c == char


_CATEGORIES: dict[str, CharTest] = {
    "CATEGORY_DIGIT": lambda c: c.isdecimal(),
    "CATEGORY_NOT_DIGIT": lambda c: not c.isdecimal(),
    "CATEGORY_SPACE": lambda c: c.isspace(),
    "CATEGORY_NOT_SPACE": lambda c: not c.isspace(),
    "CATEGORY_WORD": lambda c: c.isalnum() or c == "_",
    "CATEGORY_NOT_WORD": lambda c: not (c.isalnum() or c == "_"),
    "CATEGORY_LINEBREAK": lambda c: c == "\n",
    "CATEGORY_NOT_LINEBREAK": lambda c: c != "\n",
}


def _set_test(items: Iterable[tuple[Any, Any]], ignorecase: bool) -> CharTest:
    tests: list[CharTest] = []
    negate = False
    for op, av in items:
        if op == C.NEGATE:
            negate = True
        elif op == C.LITERAL:
            tests.append(_literal_test(chr(av), ignorecase))
        elif op == C.RANGE:
            low, high = av
            tests.append(_range_test(low, high, ignorecase))
        elif op == C.CATEGORY:
            tests.append(_CATEGORIES.get(str(av), lambda c: True))
        else:  # unknown set member: assume it can match anything (conservative)
            tests.append(lambda c: True)

    def test(c: str) -> bool:
        hit = any(t(c) for t in tests)
        return not hit if negate else hit

    return test


def _range_test(low: int, high: int, ignorecase: bool) -> CharTest:
    if not ignorecase:
        return lambda c: low <= ord(c) <= high
    return lambda c: any(low <= ord(v) <= high for v in {c, c.lower(), c.upper()} if len(v) == 1)
