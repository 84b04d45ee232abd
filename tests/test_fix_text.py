"""Applying one fix: the replacement is the template expanded against the fix's match."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from writing_rules._fix_text import apply_case, fix_at

_PATTERN = re.compile(r"(?i)(very) (\w+)")
# Plain words (taken as written) and group references (expanded).
_TEMPLATE = st.lists(st.sampled_from(["truly", " ", "Ü", "\\1", "\\2", "\\g<0>", "\\g<2>", "\\\\", "x"])).map("".join)


@given(_TEMPLATE, st.sampled_from(["very good", "VERY GOOD", "Very good", "very"]))
def test_the_replacement_is_the_expanded_template_in_the_matched_case(template: str, text: str) -> None:
    found = _PATTERN.match(text)
    done = fix_at(_PATTERN, template, text, 0, 4)
    if found is None:
        assert done is None
    else:
        assert done == (found.end(), apply_case(found.expand(template), found.group(0)))
