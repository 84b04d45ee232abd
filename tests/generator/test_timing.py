"""The timed backtracking run judges growth in CPU time, so a busy machine cannot fail it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator import compile_sources
from generator._timing import TimedPattern, timing_problems

ROOT = Path(__file__).resolve().parents[2]

# Each busy process spins for at most this long, even if the test never stops it.
_BUSY_SECONDS = 600
_SPIN = f"import time\nend = time.monotonic() + {_BUSY_SECONDS}\nwhile time.monotonic() < end:\n    pass\n"


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


def test_shipped_catalogue_passes_the_timed_run_with_every_core_busy(every_core_busy: int) -> None:
    compile_sources(ROOT, timed=True)  # raises SourceProblems on any problem, a slow pattern included


def test_a_quadratic_pattern_fails_with_every_core_busy(every_core_busy: int) -> None:
    # \w+ before a literal that \w also matches: every start scans to the end and back.
    quadratic = TimedPattern(0, r"(?i)\w+ful\b", ("A powerful API.",))
    linear = TimedPattern(1, r"(?i)\bpower(?:ful)?\b", ("A powerful API.",))
    # At a twentieth of the real length the quadratic one stays within the CPU limit, so it is
    # the growth test that catches it, not the limit.
    found = timing_problems([quadratic, linear], length=12_000)
    assert set(found) == {0}
    assert "grows faster than its input" in found[0]


def test_a_runaway_pattern_is_stopped_by_its_cpu_limit() -> None:
    found = timing_problems([TimedPattern(0, r"(a+)+b", ("aaa",))], length=25_000)
    assert "s of CPU time" in found[0]
