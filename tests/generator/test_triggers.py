"""The trigger analysis: what the scanner's index is built from."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from generator._triggers import _key_chars
from writing_rules import _rules_data as data


def _class(body: str) -> re.Pattern[str]:
    return re.compile(f"[{body}]")


def test_key_characters_are_the_latin1_word_characters() -> None:
    key_class = _class(_key_chars(set()))
    for code in range(0x3000):
        char = chr(code)
        expected = code < 256 and re.match(r"\w", char) is not None
        assert (key_class.fullmatch(char) is not None) == expected, repr(char)


@given(st.sets(st.characters(min_codepoint=256, max_codepoint=0x2FFF, exclude_categories=("Cs",)), max_size=5))
def test_key_characters_hold_every_character_of_a_key(extra: set[str]) -> None:
    key_class = _class(_key_chars(extra))
    assert all(key_class.fullmatch(char) for char in extra)


def test_the_shipped_index_reads_keys_with_its_class() -> None:
    # Every key's characters are in its language's class, or the key pass would miss the key.
    for index in data.SIGNAL_INDEX.values():
        key_class = _class(index.key_chars)
        assert all(key_class.fullmatch(char) for key in index.words for char in key)
