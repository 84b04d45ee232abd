"""The passive-voice context analysis (benchmarks/passive_context.py, English and German).

A candidate whose marked hits all come from one manual must not count as carrying to a manual it
was not chosen on; the features of either language must read the sentence (and, in German, the
clause) around the passive, not the page.
"""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.benchmark_script import load_benchmark_script


@pytest.fixture
def analysis(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    return load_benchmark_script(monkeypatch, "passive_context.py")


def _row(analysis: ModuleType, manual: str, marked: bool, features: frozenset[str] = frozenset()) -> object:
    return analysis.Row(f"{manual}/page.md", manual, "be-participle-en", "be set", "It can be set.", marked, features)


def _held(found: dict[str, bool]) -> set[str]:
    return {name for name, holds in found.items() if holds}


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


def test_each_fold_chooses_on_the_other_manuals_and_scores_the_left_out_one(analysis: ModuleType) -> None:
    # "wide" is 2 of 2 on each of a, b, c and 0 of 3 on d; "narrow" is 2 of 2 on a, b, c only.
    wide = [_row(analysis, manual, True) for manual in "abc" for _ in range(2)]
    wide += [_row(analysis, "d", False) for _ in range(3)]
    narrow = [_row(analysis, manual, True) for manual in "abc" for _ in range(2)]
    bar = analysis.Bar(precision=0.6, signals=4, manuals=3)
    folds = analysis.choose_per_fold([("narrow", narrow), ("wide", wide)], "abcd", bar, lambda row: row.marked)
    by_manual = {fold.manual: fold for fold in folds}
    # Without a, b or c only two manuals have a marked hit: nothing clears the bar.
    assert [by_manual[manual].chosen for manual in "abc"] == [None, None, None]
    # Without d both select 6 of 6; the tie goes to the first, and d's three unmarked are not held against it.
    assert by_manual["d"].chosen == "narrow"
    assert (by_manual["d"].others_wanted, by_manual["d"].held_signals) == (6, 0)
    folds = analysis.choose_per_fold([("wide", wide)], "d", bar, lambda row: row.marked)
    assert (folds[0].chosen, folds[0].held_wanted, folds[0].held_signals) == ("wide", 0, 3)


def test_a_removal_bar_of_two_to_one_is_exact(analysis: ModuleType) -> None:
    # --precision 2/3: six unmarked warnings against three marked ones is a removal's bar, five is not.
    bar = analysis.Bar(precision=analysis.fraction("2/3"), signals=5, manuals=3)
    unmarked = [_row(analysis, manual, False) for manual in "abcabc"]
    marked = [_row(analysis, "a", True) for _ in range(3)]
    assert bar.cleared(unmarked + marked, lambda row: not row.marked)
    assert not bar.cleared(unmarked[:5] + marked, lambda row: not row.marked)
    with pytest.raises(ValueError):
        analysis.fraction("1/0")


def test_equal_selections_count_once_under_the_shortest_name(analysis: ModuleType) -> None:
    both = frozenset({"modal", "reader"})
    pool = [_row(analysis, "a", True, both) for _ in range(3)] + [_row(analysis, "a", False) for _ in range(3)]
    found = analysis.candidates(pool)
    assert found[frozenset({0, 1, 2})] == ("modal",)
    assert found[frozenset({3, 4, 5})] == ("not modal",)


def test_list_reads_features_and_their_negation(analysis: ModuleType) -> None:
    conjunction = analysis.parse_literals("modal_kann, not negated")
    assert conjunction == [("modal_kann", True), ("negated", False)]
    assert analysis.holds(_row(analysis, "a", True, frozenset({"modal_kann"})), conjunction)
    assert not analysis.holds(_row(analysis, "a", True, frozenset({"modal_kann", "negated"})), conjunction)


def test_english_features_read_the_sentence_around_the_passive(analysis: ModuleType) -> None:
    text = "Open the file.\n\nThe order can be changed at any time by moving the buttons. You see it."
    start = text.index("be changed")
    found = _held(analysis.en_features(text, start, start + len("be changed"), "be changed", "be-participle-en", 0.0))
    assert {"modal", "modal can/may", "participle of a reader's step", "by + gerund later"} <= found
    # "Open" opens the previous sentence and "You" the next one: neither is this sentence's.
    assert "imperative opening" not in found
    assert "you in the sentence" not in found


def test_german_features_read_the_clause_and_the_sentence(analysis: ModuleType) -> None:
    text = "Öffnen Sie das Menü.\n\nDie Farbe kann jederzeit geändert werden, wenn Sie möchten. Das ist alles."
    match = "kann jederzeit geändert werden"
    start = text.index(match)
    found = _held(analysis.de_features(text, start, start + len(match), match, "modal-passive-de", 0.5))
    assert {"modal", "modal_kann", "reader_verb", "address_sentence", "page_addresses_readers"} <= found
    # "Sie" stands in the wenn clause, not in the passive's; "Öffnen Sie" is the previous sentence.
    assert "address_clause" not in found
    assert "imperative" not in found
    assert "program_verb" not in found
    assert analysis.de_sentence(text, start, start + len(match)) == (
        "Die Farbe kann jederzeit geändert werden, wenn Sie möchten."
    )
