"""The loader's static backtracking check is the build's: the same refusals from one file."""

from __future__ import annotations

import pytest

from writing_rules._rules_data import SIGNAL_TABLES
from writing_rules.packs import _redos

generator_redos = pytest.importorskip("generator._redos", reason="the rule compiler (a checkout's generator/)")

REFUSED = [
    "(a+)+b",
    "(?:a|ab)*c",
    r"\s*\s+x",
    r"(\w+)\1",
    "(?i)(?:[a-z]+ ?)+$",
    "((a|b)*)*",
    "(?:x|x)+y",
    "(?:[丁丂]|丁丂)+$",  # characters outside the probed Latin range: 16 s on 56 of them
    # Case-insensitive overlaps as ``re`` folds them: a scoped flag, and letters whose
    # ``str.casefold`` differs from re's simple case mapping (İ and ı both match "i").
    "(?i:(?:Éa|éa)+)x",
    "(?:(?i:É)a|éa)+x",
    "(?i)(?:İa|ia)+x",
    "(?i)(?:ıa|Ia)+x",
    "(?i)(?:[À-Þ]a|[é]a)+x",
    "(?:[\\u4e01\\u4e02]|\\u4e01\\u4e02)+$",  # characters outside the probe, written as escapes
    "(?s)(?:.|\\n)+$",  # under DOTALL "." matches a line break too
    "(?s).*\\n*x",
    # Adjacent variable repeats seen through a group, a branch, a repeat that can match
    # nothing, or a lookaround (quadratic: 2,400 spaces took 10 s and more).
    "(\\s*)\\s+x",
    "\\s*(\\s+)x",
    "\\s*(?:\\s+|y)x",
    "\\s*a*\\s*x",
    "\\s*(?=\\s)\\s+x",
    # A repeated body that can match nothing, or end where the next round starts:
    # each round can take the same characters in two ways (24 s on 20 characters).
    "(?:a?a?)+x",
    "(?:a?){24}a{24}",
    "(?:a|ba?)+x",
    "(?:a|ba{0,2}){2,}x",
    # A scoped (?u:…) inside a global (?a): Unicode inside the group, ASCII outside (re
    # accepts it; the check had asked re for both flags at once and raised ValueError).
    "(?a)(?u:\\w+)\\w*",
    # An optional end inside an optional group: "bab" is one round or "ba" and "b", 2^k ways
    # for k copies (18 copies and a "!": 23 ms; each two more copies, four times as long).
    "(?:b(?:ab?)?)+$",
]

NOT_REFUSED = [
    "(?:Éa|éa)+x",  # no flag: É and é are different letters
    "(?:(?-i:É)a|(?-i:é)a)+x",
    "(?i)(?:ßa|sa)+x",  # re does not fold ß to s (casefold makes it "ss")
    "(?:[A-Z]\\.?)+",  # an optional dot cannot start the next round
    "(?:\\w(?:-\\w)?)+",  # nor can an optional end that starts with a hyphen
    "\\s*,\\w+\\s*",
    "(a*)b\\s*",
    "(?a)(?u:é+)\\w*",  # under (?a) \w takes no é
    "(?:b(?:a(?:cb)?)?)+$",  # its optional ends start with "a" or "c", a round with "b"
]


@pytest.mark.parametrize("pattern", REFUSED)
def test_what_the_build_refuses_the_loader_refuses(pattern: str) -> None:
    assert _redos.static_problems(pattern) == generator_redos.static_problems(pattern) != []


@pytest.mark.parametrize("pattern", NOT_REFUSED)
def test_patterns_without_ambiguity_pass(pattern: str) -> None:
    assert _redos.static_problems(pattern) == []


def test_every_built_in_pattern_is_judged_alike() -> None:
    patterns = {pattern.source for table in SIGNAL_TABLES.values() for pattern in table}
    assert patterns
    for source in sorted(patterns):
        assert _redos.static_problems(source) == generator_redos.static_problems(source), source


def test_the_build_runs_the_loaders_check_itself() -> None:
    # One check, one home: the compiler loads the runtime's file (a change to either side's
    # check is a change to both), so the build and the loader can never judge a pattern apart.
    from pathlib import Path

    assert Path(generator_redos.static_problems.__code__.co_filename) == Path(_redos.__file__)


# Two bounded repeats over the same characters, as docs/authoring.md describes them ("When a
# pattern is refused"): they cost at most the product of their bounds at each place, so the
# static check leaves them to the timed run unless they stand in one sequence with nothing
# between them but items taken at most once and possibly not at all. A change to these
# verdicts is a change to the check, which re-keys every cached verdict: update the docs too.
BOUNDED_REFUSED = [
    "a{0,3}a{0,3}x",
    "a{1,3}a{2,5}x",
    "a{0,3}?a{0,3}x",  # lazy or greedy alike
    "a{0,3}b?a{0,3}x",
    "a{0,3}b??a{0,3}x",
    "a{0,3}b{0,1}a{0,3}x",
    "a{0,3}b{0}a{0,3}x",
    "a{0,3}b?c?a{0,3}x",
    "a{0,3}(?:bc)?a{0,3}x",  # an optional group is such an item too
    "(?:a{0,3})a{0,3}x",  # re's parser inlines a (?:…) without flags into the sequence
    "(?:x|a{0,3}a{0,3})y",  # a sequence inside an alternative is checked the same way
]

BOUNDED_NOT_REFUSED = [
    "a{0,3}ba{0,3}x",  # a character between them
    "a{0,3}b{2}a{0,3}x",  # a fixed count between them
    "a{0,3}c*a{0,3}x",  # another repeat between them: each is compared with c* only
    "a{0,3}c{0,2}a{0,3}x",
    "(a{0,3})a{0,3}x",  # a capturing group
    "a{0,3}(?i:a{0,3})x",  # a group with flags
    "(?:a{0,3}|b)a{0,3}x",  # an alternative
    "a{0,3}(?=a)a{0,3}x",  # a lookaround
    "a{0,3}\\ba{0,3}x",  # an anchor
    "a{3}a{0,3}x",  # a fixed count is no variable repeat
]


@pytest.mark.parametrize("pattern", BOUNDED_REFUSED)
def test_overlapping_bounded_repeats_in_one_sequence_are_refused(pattern: str) -> None:
    assert _redos.static_problems(pattern) == [_redos._ADJACENT]


@pytest.mark.parametrize("pattern", BOUNDED_NOT_REFUSED)
def test_overlapping_bounded_repeats_apart_are_left_to_the_timed_run(pattern: str) -> None:
    assert _redos.static_problems(pattern) == []
