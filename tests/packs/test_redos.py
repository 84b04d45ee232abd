"""The loader's copy of the build's static backtracking check says what the build's says."""

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
]


@pytest.mark.parametrize("pattern", REFUSED)
def test_what_the_build_refuses_the_loader_refuses(pattern: str) -> None:
    assert _redos.static_problems(pattern) == generator_redos.static_problems(pattern) != []


def test_every_built_in_pattern_is_judged_alike() -> None:
    patterns = {pattern.source for table in SIGNAL_TABLES.values() for pattern in table}
    assert patterns
    for source in sorted(patterns):
        assert _redos.static_problems(source) == generator_redos.static_problems(source), source


def test_the_copy_is_the_builds_check_word_for_word() -> None:
    # Below the module docstring and imports the two are one text: a change to the build's
    # check that is not copied here fails this test.
    import inspect

    def body(module: object) -> str:
        text = inspect.getsource(module)  # type: ignore[arg-type]
        return text[text.index('__all__ = ["static_problems"]') :]

    assert body(_redos) == body(generator_redos)
