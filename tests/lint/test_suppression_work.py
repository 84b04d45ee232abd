"""Applying inline directives costs work in proportion to the signals and directives, not their product."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules.lint import FileSettings, _directives, _lint, lint_text

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
    regions = _directives._regions(suppressions, text_length)
    kept = []
    for signal in signals:
        silencer = None
        for directive in whole_file + by_line.get(signal.line, []):
            if _directives._covers(directive.rule_ids or None, signal.rule_id):
                silencer = directive
                break
        if silencer is None:
            for region in regions:
                if (
                    region.start <= signal.start < region.end
                    and _directives._covers(region.rules, signal.rule_id)
                    and signal.rule_id not in region.except_rules
                ):
                    silencer = region.directive
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
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=30))
def test_the_same_signals_are_silenced_by_the_same_directives_as_before(lines: list[str]) -> None:
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
        lint_text(page, "page.md", FileSettings(), language="en")
    assert compared or "writing-rules-" not in page
