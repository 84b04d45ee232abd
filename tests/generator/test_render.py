"""How the compiler writes values into the module: literals that read back as the values."""

from __future__ import annotations

import ast

from hypothesis import given
from hypothesis import strategies as st

from generator._render import _pattern, _py

_SCALARS = st.one_of(st.text(), st.integers(), st.booleans(), st.none())
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.lists(inner, max_size=6).map(tuple),
        st.dictionaries(st.text(max_size=12), inner, max_size=6),
    ),
    max_leaves=30,
)


@given(_VALUES, st.integers(0, 16))
def test_a_literal_reads_back_as_its_value(value: object, indent: int) -> None:
    assert ast.literal_eval(_py(value, indent)) == value


@given(st.text())
def test_a_pattern_literal_reads_back_as_the_pattern(text: str) -> None:
    assert ast.literal_eval(_pattern(text)) == text


def test_patterns_are_raw_strings_and_long_values_one_item_a_line() -> None:
    assert _pattern(r"(?i)\bseamless(?:ly)?\b") == r"r'(?i)\bseamless(?:ly)?\b'"
    assert _pattern("it's\\") == repr("it's\\")  # a raw string cannot end in one backslash
    nested = {"properties": {"text": {"type": "string", "description": "x" * 80}}, "ids": ["a"] * 40}
    assert _py(nested) == (
        "{\n"
        "    'properties': {\n"
        "        'text': {\n"
        "            'type': 'string',\n"
        f"            'description': '{'x' * 80}',\n"
        "        },\n"
        "    },\n"
        f"    'ids': {['a'] * 40!r},\n"
        "}"
    )
