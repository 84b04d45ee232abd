"""Parity between the languages: a word family a rule flags in one language only is justified in its source."""

from __future__ import annotations

import runpy
from pathlib import Path

PARITY = Path(__file__).resolve().parents[2] / "benchmarks" / "parity.py"


def test_every_one_sided_family_is_justified_and_no_justification_is_stale() -> None:
    parity = runpy.run_path(str(PARITY))
    found = parity["findings"]()
    assert len(found) >= 60  # the check ran over the families, not over an empty list
    assert [item.problem for item in found if item.problem] == []


def test_an_unjustified_asymmetry_is_reported() -> None:
    parity = runpy.run_path(str(PARITY))
    finding = parity["Finding"]("filler", "very / sehr", True, False, None)
    assert finding.problem == "filler: 'very / sehr' is flagged in en only and not justified in its source"
    stale = parity["Finding"]("filler", "very / sehr", True, True, "old reason")
    assert stale.problem is not None and "stale" not in stale.problem and "agree now" in stale.problem
