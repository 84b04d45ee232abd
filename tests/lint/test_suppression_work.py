"""Applying inline directives costs work in proportion to the signals and directives, not their product."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules.lint import Directive, FileSettings, _directives, _lint, lint_text

from ..prose.line_count import lines_run


def test_each_signal_finds_the_directive_that_silences_it_in_a_page_of_many_regions() -> None:
    # Each signal looked through every disable ... enable region of the page: 20,000 pairs, each
    # around a signal of another rule, took 24 s to scan.
    pairs = 500
    page = "<!-- writing-rules-disable hedging -->\nIt is obviously simple.\n<!-- writing-rules-enable -->\n" * pairs
    page += "<!-- writing-rules-disable easy-claims -->\nIt is obviously simple.\n"
    with lines_run(_directives) as count:
        result = lint_text(page, "page.md", FileSettings(), language="en")
    assert [signal.line for signal in result.signals] == [3 * n + 2 for n in range(pairs)]
    assert result.suppressed == 1
    assert count[0] < 200 * pairs, count[0]


def test_many_whole_file_directives_of_another_rule_cost_work_in_proportion() -> None:
    size = 500
    page = "<!-- writing-rules-disable-file hedging -->\n" * size + "It is obviously simple.\n" * size
    with lines_run(_directives) as count:
        result = lint_text(page, "page.md", FileSettings(), language="en")
    assert [signal.line for signal in result.signals] == list(range(size + 1, 2 * size + 1))
    assert count[0] < 200 * size, count[0]


SIZE = 400


@pytest.mark.parametrize(
    "directives",
    [
        # N disables, then M enables of another rule: every enable looked at every open region (and
        # split each rule-less one), N x M regions; 10,000 of each took 64 s to scan.
        "<!-- writing-rules-disable -->\n" * SIZE + "<!-- writing-rules-enable hedging -->\n" * SIZE,
        "<!-- writing-rules-disable easy-claims -->\n" * SIZE + "<!-- writing-rules-enable hedging -->\n" * SIZE,
        # The same enables between the disables.
        "<!-- writing-rules-disable -->\n<!-- writing-rules-enable hedging -->\n" * SIZE,
    ],
    ids=["disables-then-enables", "rule-disables-then-enables", "enables-between-disables"],
)
def test_enables_of_other_rules_cost_work_in_proportion(directives: str) -> None:
    page = directives + "It is obviously simple.\n"
    with lines_run(_directives) as count:
        result = lint_text(page, "page.md", FileSettings(), language="en")
    assert result.signals == ()
    assert result.suppressed == 1
    assert count[0] < 200 * SIZE, count[0]


def _reference_regions(suppressions: _directives.Suppressions, text_length: int) -> list[tuple]:
    """Regions as 0.7.0 built them: (directive, rules, except_rules, start, end), in the order searched."""
    regions: list[tuple] = []
    open_: list[tuple] = []
    for directive in suppressions.directives:
        if directive.kind == "disable":
            rules = frozenset(directive.rule_ids) if directive.rule_ids else None
            open_.append((directive, rules, frozenset(), directive.end, text_length))
        elif directive.kind == "enable":
            enabled = frozenset(directive.rule_ids) if directive.rule_ids else None
            still_open = []
            for region_directive, region_rules, except_rules, start, _ in open_:
                closed = (region_directive, region_rules, except_rules, start, directive.start)
                if enabled is None:
                    regions.append(closed)
                elif region_rules is None:
                    regions.append(closed)
                    still_open.append((region_directive, None, except_rules | enabled, directive.end, text_length))
                elif region_rules & enabled:
                    regions.append(closed)
                    rest = region_rules - enabled
                    if rest:
                        still_open.append((region_directive, rest, except_rules, directive.end, text_length))
                else:
                    still_open.append((region_directive, region_rules, except_rules, start, text_length))
            open_ = still_open
    return regions + open_


def _reference(signals: list, suppressions: _directives.Suppressions, text_length: int) -> tuple[list, dict]:
    """Suppressions as 0.7.0 applied them: every directive and region looked at for each signal."""
    used: dict = {}
    by_line: dict = {}
    whole_file = []
    for directive in suppressions.directives:
        if directive.kind == "disable-next-line":
            by_line.setdefault(directive.next_line or directive.end_line + 1, []).append(directive)
        elif directive.kind == "disable-line":
            by_line.setdefault(directive.line, []).append(directive)
        elif directive.kind == "disable-file":
            whole_file.append(directive)
    regions = _reference_regions(suppressions, text_length)
    kept = []
    for signal in signals:
        silencer = None
        for directive in whole_file + by_line.get(signal.line, []):
            if _directives._covers(directive.rule_ids or None, signal.rule_id):
                silencer = directive
                break
        if silencer is None:
            for region_directive, rules, except_rules, start, end in regions:
                if (
                    start <= signal.start < end
                    and _directives._covers(rules, signal.rule_id)
                    and signal.rule_id not in except_rules
                ):
                    silencer = region_directive
                    break
        if silencer is None:
            kept.append(signal)
        else:
            used.setdefault(silencer, set()).add(signal.rule_id)
    return kept, used


_LINES = st.sampled_from(
    [
        "It is obviously simple.",
        "This might be simple, obviously.",
        "",
        "<!-- writing-rules-disable -->",
        "<!-- writing-rules-disable hedging -->",
        "<!-- writing-rules-disable easy-claims, hedging -->",
        "<!-- writing-rules-enable -->",
        "<!-- writing-rules-enable hedging -->",
        "<!-- writing-rules-enable easy-claims -->",
        "<!-- writing-rules-disable-next-line easy-claims -->",
        "<!-- writing-rules-disable-next-line -->",
        "It is obviously simple. <!-- writing-rules-disable-line hedging -->",
        "It might be obviously simple. <!-- writing-rules-disable-line -->",
        "<!-- writing-rules-disable-file hedging -->",
        "<!-- writing-rules-disable hedging, easy-claims, long-sentences -->",
        "<!-- writing-rules-enable easy-claims, hedging -->",
        "<!-- writing-rules-enable long-sentences -->",
        "<!-- writing-rules-enable hedging -- it might be obviously simple -->",
        "<!-- writing-rules-disable -- it might be obviously simple -->",
        "{/* writing-rules-disable -- <!-- writing-rules-enable hedging --> */}",
        "{/* writing-rules-enable -- <!-- writing-rules-disable hedging --> it might be simple */}",
        "It might be obviously simple. <!-- writing-rules-enable easy-claims --> It might be.",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_LINES, max_size=30), st.sampled_from(["page.md", "page.txt", "page.mdx"]))
def test_the_same_signals_are_silenced_by_the_same_directives_as_before(lines: list[str], path: str) -> None:
    page = "\n".join(lines) + "\n"
    compared = []

    def both(signals: Iterable[Any], suppressions: _directives.Suppressions, text_length: int) -> Any:
        signals = list(signals)
        result = _directives.apply_suppressions(signals, suppressions, text_length)
        assert result == _reference(signals, suppressions, text_length)
        compared.append(len(signals))
        return result

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_lint, "apply_suppressions", both)
        lint_text(page, path, FileSettings(), language="en")
    assert compared or "writing-rules-" not in page


class _Hit(NamedTuple):
    rule_id: str
    line: int
    start: int


_RULE_IDS = ("a", "b", "c")
_DIRECTIVES = st.builds(
    lambda kind, ids, start, length, line: Directive(kind, ids, start, start + length, line, line, 1, line + 1),
    st.sampled_from(["disable", "disable", "enable", "enable", "disable-line", "disable-next-line", "disable-file"]),
    st.lists(st.sampled_from(_RULE_IDS), max_size=3, unique=True).map(tuple),
    st.integers(0, 60),
    st.integers(0, 12),
    st.integers(1, 6),
)
_HITS = st.builds(_Hit, st.sampled_from(_RULE_IDS), st.integers(1, 7), st.integers(0, 75))


@settings(max_examples=1000, deadline=None)
@given(st.lists(_DIRECTIVES, max_size=14), st.lists(_HITS, max_size=25), st.booleans())
def test_any_directives_in_any_order_silence_as_before(directives: list, hits: list, in_order: bool) -> None:
    # Directive spans as a reader gives them (in order, apart) or not: nested comments overlap.
    if in_order:
        position = 0
        placed = []
        for directive in directives:
            length = directive.end - directive.start
            position += directive.start % 7
            placed.append(directive._replace(start=position, end=position + length))
            position += length
        directives = placed
    suppressions = _directives.Suppressions(tuple(directives))
    assert _directives.apply_suppressions(hits, suppressions, 80) == _reference(hits, suppressions, 80)
