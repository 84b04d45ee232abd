"""Language detection counts function words per distinct token; the answer is the per-word count's."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from writing_rules.lint._language import _ENGLISH, _GERMAN, detect_language

_WORD = re.compile(r"[^\W\d_]+")


def _reference(text: str, default: str = "en") -> str:
    """The definition: every run of letters, lowercased, counted where it occurs."""
    english = sum(word.lower() in _ENGLISH for word in _WORD.findall(text))
    german = sum(word.lower() in _GERMAN for word in _WORD.findall(text))
    if english != german:
        return "en" if english > german else "de"
    if any(character in "äöüßÄÖÜ" for character in text):
        return "de"
    return default


# Function words of both languages in odd cases and glued to digits, dashes and marks; letters
# whose lowercase is special (dotted capital I, Kelvin sign, long s, capital sharp s); every kind
# of white space str.split knows, and none it does not (a no-break space is white space there).
_PIECES = st.sampled_from(
    [
        "the", "The", "THE", "is", "and", "der", "Die", "und", "ÜBER", "über", "für", "FÜR", "dass",
        "a", "A", "es", "İt", "\u212aann", "ſind", "DIEẞ", "Größe", "the1", "_the", "der-", "x", "ä",
        " ", "  ", "\n", "\t", "\u00a0", "\u2028", "\u3000", "\x1c", "\x85", ".", ",", "’", "-", "1",
        "\u0307", "\ufeff", "naïve", "Σ",
    ]
)  # fmt: skip


@given(st.lists(_PIECES, max_size=60).map("".join), st.sampled_from(("en", "de")))
def test_detection_counts_as_the_per_word_definition(text: str, default: str) -> None:
    assert detect_language(text, default) == _reference(text, default)


def test_a_long_text_decides_by_its_counts() -> None:
    english = "Install the package and run it from the command line. " * 400
    german = "Installieren Sie das Paket und starten Sie es mit dem Befehl. " * 401
    assert detect_language(english + german) == "de"
    assert detect_language(english * 2 + german) == "en"
