"""The cap of find_writing_signals: the first hits come out as if every hit were located, flagged and sorted."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.prose.markdown_strategies import markdown_document
from writing_rules import _rules_data as data
from writing_rules.prose import MARKUPS, read_prose
from writing_rules.tools._scanner import view_hits

_RULE_IDS = tuple(rule_id for rule_id in data.RULE_IDS if data.RULES[rule_id].has_signals)
# Prose the rules find much in (and their excluded contexts: negation, headings, tables, code).
_DENSE = st.lists(
    st.sampled_from(
        [
            "Simply run it. ",
            "It is not simply easy. ",
            "Es ist nicht einfach. ",
            "Das ist einfach sehr leistungsstark. ",
            "It was very quickly done by the team, which is extremely powerful. ",
            '"Simply" ',
            "`simply` ",
            "\n\n# Simply easy\n\n",
            "\n\n| simply | easy |\n|---|---|\n| very | powerful |\n\n",
            "\n\n```\nsimply easy\n```\n\n",
            "&amp; ",
            "\n",
            "\r\n",
        ]
    ),
    max_size=30,
).map("".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_DENSE | markdown_document(), st.sampled_from(MARKUPS), st.sampled_from(("en", "de")), st.integers(1, 12))
def test_the_first_hits_under_a_cap_are_the_first_of_all(source: str, markup: str, language: str, limit: int) -> None:
    view = read_prose(source, markup)
    every, total = view_hits(view, language, _RULE_IDS)
    assert total == len(every)
    assert every == sorted(every, key=lambda hit: hit[:3])
    assert view_hits(view, language, _RULE_IDS, limit) == (every[:limit], total)
