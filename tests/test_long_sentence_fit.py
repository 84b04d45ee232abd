"""The long-sentence fit (benchmarks/long_sentence_fit.py) compares candidates with the shipped warning.

"Shipped" must be what ``rules-src/rules/long-sentences.md`` says: the rule's length signals at
the warning level, a load limit (``max_words``) and lower ones with chained clauses
(``min_clauses``). A copy of those figures in the script went stale silently when the rule moved.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
import yaml

from tests.benchmark_script import load_benchmark_script

ROOT = Path(__file__).resolve().parents[1]
RULE_SOURCE = ROOT / "rules-src" / "rules" / "long-sentences.md"


@pytest.fixture
def fit(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    return load_benchmark_script(monkeypatch, "long_sentence_fit.py")


def _source_warning(language: str) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The warning as the rule source states it (front matter read here, not by the package)."""
    front = yaml.safe_load(RULE_SOURCE.read_text(encoding="utf-8").split("---\n")[1])
    warnings = [
        signal
        for signal in front["signals"]
        if signal["language"] == language and signal.get("level", front["level"]) == "warning"
    ]
    (plain,) = [signal["max_words"] for signal in warnings if "min_clauses" not in signal]
    chained = [(signal["max_words"], signal["min_clauses"]) for signal in warnings if "min_clauses" in signal]
    return plain, tuple(sorted(chained, reverse=True))


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_shipped_warning_is_the_rule_sources(fit: ModuleType, language: str) -> None:
    assert fit.shipped(language) == _source_warning(language)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_candidate_table_has_a_row_for_the_shipped_warning(fit: ModuleType, language: str) -> None:
    # The table tags the row whose rule is the shipped one; a warning outside the candidates has none.
    names = [name for name, _ in fit.candidates(language)]
    assert fit.describe(fit.shipped(language)) in names


def _catalog(*signals: tuple[str, str, int | None, int | None, int | None]) -> Any:
    """A catalogue with the rule's length signals ``(signal id, level, max_words, max_chars, min_clauses)``."""
    lengths = tuple(
        SimpleNamespace(rule_id="long-sentences", signal_id=name, max_words=words, max_chars=chars, min_clauses=clauses)
        for name, _, words, chars, clauses in signals
    )
    levels = {name: level for name, level, *_ in signals}
    return SimpleNamespace(
        RULES={"long-sentences": SimpleNamespace(signal_levels=levels)}, LENGTH_SIGNALS={"en": lengths}
    )


@pytest.mark.parametrize(
    "signals",
    [
        # two plain load limits at the warning level
        (("a", "warning", 44, None, None), ("b", "warning", 40, None, None)),
        # only limits with chained clauses
        (("b", "warning", 40, None, 3), ("c", "warning", 38, None, 4)),
        # a character limit the fit does not measure
        (("a", "warning", 44, 300, None),),
        # no warning at all (only a suggestion)
        (("a", "suggestion", 34, None, None),),
    ],
)
def test_a_warning_of_another_shape_is_refused(
    fit: ModuleType, monkeypatch: pytest.MonkeyPatch, signals: tuple[tuple[str, str, int, int, int], ...]
) -> None:
    monkeypatch.setattr(fit, "catalog_for", lambda packs: _catalog(*signals))
    with pytest.raises(fit.ShapeError, match="long-sentences \\(en\\) warns through"):
        fit.shipped("en")


def test_suggestions_are_not_the_warning(fit: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = _catalog(
        ("a", "warning", 44, None, None), ("b", "warning", 40, None, 3), ("c", "suggestion", 34, None, None)
    )
    monkeypatch.setattr(fit, "catalog_for", lambda packs: catalog)
    assert fit.shipped("en") == (44, ((40, 3),))


def test_several_limits_with_chained_clauses_are_one_warning(fit: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = _catalog(("a", "warning", 41, None, None), ("c", "warning", 35, None, 5), ("b", "warning", 40, None, 4))
    monkeypatch.setattr(fit, "catalog_for", lambda packs: catalog)
    limits = fit.shipped("en")
    assert limits == (41, ((40, 4), (35, 5)))
    assert fit.describe(limits) == "load > 41 or (load > 40 and clauses >= 4) or (load > 35 and clauses >= 5)"
    row = SimpleNamespace(load=36, clauses=5)
    assert fit.flags(limits, row) and not fit.flags(limits, SimpleNamespace(load=36, clauses=4))


def test_leave_one_manual_out_picks_on_the_other_manuals(fit: ModuleType) -> None:
    # Two manuals: on "a" only a load limit over 44 is precise; "b" alone would allow 40.
    counts = {(44, ()): {"a": (10, 9), "b": (2, 2)}, (40, ()): {"a": (20, 10), "b": (6, 6)}}
    assert fit.pick(counts, {"a"}, 0.85) == (44, ())
    assert fit.pick(counts, {"b"}, 0.85) == (40, ())
    assert fit.pick(counts, {"a", "b"}, 0.85) == (44, ())


def test_cv_base_names_the_limits_an_added_limit_joins(fit: ModuleType) -> None:
    base = fit._parse_limits("41,40:4")
    assert base == (41, ((40, 4),))
    family = list(fit._added_to(base))
    assert family[0] == base
    assert (41, ((40, 4), (35, 5))) in family
    assert all(limits[0] == 41 and (40, 4) in limits[1] for limits in family)
