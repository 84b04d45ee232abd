"""Fixtures the generator tests share: the shipped catalogue, compiled once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator import CompileResult, compile_sources

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def shipped() -> CompileResult:
    """The shipped ``rules-src/`` compiled by the current compiler (no timed run; the cache covers it).

    Every test that needs the whole catalogue reads this one result: compiling it is the
    slow part of those tests, and the result is immutable.
    """
    return compile_sources(ROOT, timed=False)
