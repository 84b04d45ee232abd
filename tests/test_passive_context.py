"""The passive-voice context analysis (benchmarks/passive_context.py): its leave-one-manual-out check.

A candidate whose marked hits all come from one manual must not count as carrying to a manual it
was not chosen on; the features must read the sentence around the passive, not the page.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "passive_context.py"


@pytest.fixture
def analysis(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.setattr(sys, "path", [*sys.path])  # the script puts benchmarks/ first
    spec = importlib.util.spec_from_file_location("passive_context_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _row(analysis: ModuleType, manual: str, marked: bool) -> object:
    return analysis.Row(f"{manual}/page.md", manual, "be-participle-en", "be set", "It can be set.", marked)


def test_a_candidate_held_out_only_where_the_other_manuals_clear_the_bar(analysis: ModuleType) -> None:
    hits = [_row(analysis, manual, True) for manual in ("a", "b", "c", "d") for _ in range(2)]
    hits.append(_row(analysis, "e", False))
    bar = analysis.Bar(precision=0.85, signals=5, manuals=3)
    result = analysis.cross_validate("x", hits, ["a", "b", "c", "d", "e"], bar, lambda row: row.marked)
    assert (result.signals, result.wanted, result.manuals) == (9, 8, 4)
    # Without e the others clear the bar (8 of 8), so e's false hit is held out; without any of a-d
    # the rest are 6 of 7, which clears 0.85 too: every manual is measured once.
    assert (result.folds, result.held_signals, result.held_wanted) == (5, 9, 8)


def test_one_manuals_class_never_carries(analysis: ModuleType) -> None:
    hits = [_row(analysis, "a", True) for _ in range(6)] + [_row(analysis, "b", False)]
    bar = analysis.Bar(precision=0.85, signals=5, manuals=3)
    result = analysis.cross_validate("x", hits, ["a", "b"], bar, lambda row: row.marked)
    assert (result.folds, result.held_signals) == (0, 0)


def test_features_read_the_sentence_around_the_passive(analysis: ModuleType) -> None:
    text = "Open the file.\n\nThe order can be changed at any time by moving the buttons. You see it."
    start = text.index("be changed")
    found = analysis.features(text, start, start + len("be changed"), "be changed", 0.0)
    assert {"modal", "modal can/may", "participle of a reader's step", "by + gerund later"} <= found
    # "Open" opens the previous sentence and "You" the next one: neither is this sentence's.
    assert "imperative opening" not in found
    assert "you in the sentence" not in found
