"""A rule's pattern is a frozen value that compiles once, at its first use."""

from __future__ import annotations

import re

import pytest

from writing_rules._rules_runtime import SignalPattern


def test_a_pattern_is_a_value_equal_by_its_fields() -> None:
    one = SignalPattern("filler", "very-en", "en", r"\bvery\b")
    assert one == SignalPattern("filler", "very-en", "en", r"\bvery\b")
    assert one != SignalPattern("filler", "very-en", "de", r"\bvery\b")
    assert len({one, SignalPattern("filler", "very-en", "en", r"\bvery\b")}) == 1
    assert repr(one) == r"SignalPattern(rule_id='filler', signal_id='very-en', language='en', source='\\bvery\\b')"
    with pytest.raises(AttributeError):
        one.source = "changed"


def test_a_pattern_compiles_at_its_first_use_and_keeps_the_result() -> None:
    broken = SignalPattern("filler", "broken-en", "en", "(unclosed")  # nothing parsed yet
    with pytest.raises(re.error):
        _ = broken.regex
    pattern = SignalPattern("filler", "very-en", "en", r"(?i)\bvery\b")
    assert pattern.regex is pattern.regex
    assert [m.span() for m in pattern.regex.finditer("Very good, very.")] == [(0, 4), (11, 15)]
    compiled = re.compile("x")
    assert SignalPattern("filler", "x-en", "en", compiled).regex is compiled
