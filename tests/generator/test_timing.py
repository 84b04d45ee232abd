"""The timed backtracking run judges growth in CPU time, so a busy machine cannot fail it.

Each test asserts the verdict (refused or passed), never which detector gave it: a
quadratic pattern is refused by the growth test on a fast machine and by the CPU limit
on a slow one, and both are right. Slow patterns run on inputs short enough to stay
far below the CPU limit (5 s) even on a slow machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import generator._timing
import generator._validate
from generator import SourceProblems, compile_sources
from generator._timing import TimedPattern, timing_problems

ROOT = Path(__file__).resolve().parents[2]

# Each busy process spins for at most this long, even if the test never stops it.
_BUSY_SECONDS = 600
_SPIN = f"import time\nend = time.monotonic() + {_BUSY_SECONDS}\nwhile time.monotonic() < end:\n    pass\n"

# \w+ before a literal that \w also matches: every start scans to the end and back.
QUADRATIC = TimedPattern(0, r"(?i)\w+ful\b", ("A powerful API.",))
LINEAR = TimedPattern(1, r"(?i)\bpower(?:ful)?\b", ("A powerful API.",))
# On 6,000 characters the quadratic pattern costs some 0.2 s a run (tens of thousands of
# linear passes, the floor is 50), about 1.5 s of CPU for all its runs: far below CPU_LIMIT
# here, and refused all the same where a slow machine reaches the limit first. Its cost grows
# 16-fold where the input grows 4-fold; the linear one's stays below the floor or flat.
SHORT = 6_000


def refused(message: str) -> bool:
    """The verdict every detector gives: the pattern backtracks catastrophically."""
    return "backtracks catastrophically" in message


@pytest.fixture
def every_core_busy() -> Iterator[int]:
    """One spinning process per core for the length of the test (bounded in time)."""
    count = os.cpu_count() or 1
    spinners = [subprocess.Popen([sys.executable, "-c", _SPIN]) for _ in range(count)]
    try:
        yield count
    finally:
        for spinner in spinners:
            spinner.kill()
        for spinner in spinners:
            spinner.wait()


def test_a_quadratic_pattern_is_refused_and_a_linear_one_passes() -> None:
    found = timing_problems([QUADRATIC, LINEAR], length=SHORT)
    assert set(found) == {0}
    assert refused(found[0])


@pytest.mark.slow
def test_a_quadratic_pattern_is_refused_with_every_core_busy(every_core_busy: int) -> None:
    found = timing_problems([QUADRATIC, LINEAR], length=SHORT)
    assert set(found) == {0}
    assert refused(found[0])


def test_a_runaway_pattern_is_stopped_by_its_cpu_limit() -> None:
    # Exponential: no input length keeps it cheap, so only the kernel's CPU timer ends it
    # (a shorter limit than the compiler's 5 s, so the test spends half a second).
    found = timing_problems([TimedPattern(0, r"(a+)+b", ("aaa",)), LINEAR], length=SHORT, cpu_limit=0.5)
    assert set(found) == {0}
    assert refused(found[0])
    assert "0.5 s of CPU time" in found[0]


def test_the_shipped_catalogue_passes_the_backtracking_checks() -> None:
    """Every shipped pattern passed (the verdict cache vouches for those it lists; the rest are timed now)."""
    compile_sources(ROOT, timed=True)  # raises SourceProblems on any problem, a slow pattern included


@pytest.mark.slow
def test_shipped_catalogue_passes_the_timed_run_with_every_core_busy(
    every_core_busy: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A quarter of the catalogue timed afresh (no cache) while every core is busy: no false alarm.

    Each pattern is timed on its first example only: what this test asks is whether load
    can make a linear pattern look superlinear, which one input per pattern answers as well
    as four, at a quarter of the suite's longest test (the verdicts of ``python -m generator``
    still come from four; test_the_shipped_catalogue_passes_the_backtracking_checks holds them).
    """
    monkeypatch.setattr(generator._timing, "MAX_EXAMPLES", 1)
    # Every fourth pattern, in catalogue order (51 of 202): the catalogue's growth made this one
    # test a sixth of the suite (51 s), and with every second one still a tenth (33 s of a 5 min
    # suite). Each of these patterns costs more than FLOOR reference passes on most of its 13
    # inputs, and each such input is measured at both lengths under load: some 500 growth
    # measurements, any of which a busy spell could push past GROWTH_LIMIT.
    every = generator._validate.timing_problems
    monkeypatch.setattr(generator._validate, "timing_problems", lambda jobs, length: every(jobs[::4], length))
    try:
        compile_sources(ROOT, timed=True, retime=True)
    except SourceProblems as problems:  # pragma: no cover - the failure message is the point
        pytest.fail(f"a shipped pattern was refused under load:\n{problems}")
