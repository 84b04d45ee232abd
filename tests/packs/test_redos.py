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
]


@pytest.mark.parametrize("pattern", REFUSED)
def test_what_the_build_refuses_the_loader_refuses(pattern: str) -> None:
    assert _redos.static_problems(pattern) == generator_redos.static_problems(pattern) != []


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
