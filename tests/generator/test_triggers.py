"""The trigger analysis: what the scanner's index is built from."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from generator._triggers import _key_chars, pattern_trigger
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


def test_a_word_ending_followed_by_a_near_word_is_looked_back_for_from_that_word() -> None:
    trigger = pattern_trigger(r"\b[A-ZÄÖÜ][a-zäöüß]{1,30}ung\b[^.!?\n]{0,40}? (?:zu )?(?:erledigen|erledigt)\b")
    assert not trigger.suffixes
    assert trigger.look_back_endings == ("ung",)
    # The first word is at most 34 characters, the gap 40, then the space: the verb starts
    # at most 75 characters after the match's start.
    assert set(trigger.look_backs) == {
        ("zu erledigen\x00", 75),
        ("zu erledigt\x00", 75),
        ("erledigen\x00", 75),
        ("erledigt\x00", 75),
    }


def test_a_word_ending_followed_by_a_far_or_short_word_is_found_by_its_ending() -> None:
    # Too far for the scanner's window, or a later word too short to look up: by the ending.
    for pattern in (r"\b[A-Z][a-z]{1,30}ung\b[^.]* tun\b", r"\b[A-Z][a-z]{1,30}ung\b[^.]{0,300} erledigen\b"):
        trigger = pattern_trigger(pattern)
        assert trigger.suffixes == ("ung",) and not trigger.look_backs, pattern


def test_a_common_first_word_with_a_rarer_word_later_is_looked_back_for_from_that_word() -> None:
    # Looked up by "ist" the pattern would be tried at every "ist"; by "immer" and "stets"
    # (after a \b) the scanner looks back for the first words from each of them.
    trigger = pattern_trigger(r"\b(?:ist|sind)\b[^.!?\n]{0,40}?\b(?:immer|stets) aktuell\b")
    assert not trigger.literals
    assert trigger.look_back_endings == ("ist", "sind")
    # The first word is at most 4 characters, the gap 40.
    assert set(trigger.look_backs) == {("immer aktuell\x00", 44), ("stets aktuell\x00", 44)}


def test_a_literal_a_look_ahead_needs_is_looked_back_for_too() -> None:
    trigger = pattern_trigger(r"\b(?:du|Sie)\b(?=[^.!?\n]{0,120}? werden (?:muss|sollte)\b)[^.!?\n]{0,80}? werden\b")
    assert not trigger.literals
    assert trigger.look_back_endings == ("du", "sie")
    # The first word (3), the gap (120), the space: the literal starts at most 124 characters in.
    assert set(trigger.look_backs) == {("werden muss\x00", 124), ("werden sollte\x00", 124)}


def test_a_first_word_stays_the_key_unless_it_is_common_and_a_rarer_literal_follows() -> None:
    for pattern in (
        r"\bgarantiert\b[^.!?\n]{0,40}?\bimmer aktuell\b",  # the first word is no common one
        r"\bist\b[^.!?\n]{0,40}?\bnie\b",  # the later word is shorter than a key
        r"\bist\b[^.!?\n]{0,40}?\b(?:immer|die)\b",  # one later word is common
        r"\bist\b[^.!?\n]{0,300}?\bimmer aktuell\b",  # too far for the scanner's window
        r"\bist\b[^.!?\n]{0,40}?immer\b",  # "immer" may end a word ("schlimmer")
        r"\bist[a-z]*[^.!?\n]{0,40}?\bimmer aktuell\b",  # the first word may go on
    ):
        trigger = pattern_trigger(pattern)
        assert trigger.literals and not trigger.look_backs, pattern


def test_a_branch_of_a_group_between_word_boundaries_is_looked_back_for_on_its_own() -> None:
    # \b(?:a…|b…)\b: the branch that opens with "ist" is found through "immer", the other
    # keeps its literal.
    trigger = pattern_trigger(r"(?i)\b(?:garantiert sofort|(?:ist|sind)\b[^.!?\n]{0,40}?\b(?:immer|stets) aktuell)\b")
    assert trigger.literals == ("garantiert sofort\x00",)
    assert trigger.look_back_endings == ("ist", "sind")
    assert set(trigger.look_backs) == {("immer aktuell\x00", 44), ("stets aktuell\x00", 44)}
