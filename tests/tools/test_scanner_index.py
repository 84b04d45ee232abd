"""The indexed scanner finds exactly what a plain ``finditer`` of every pattern finds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writing_rules import _rules_data as data
from writing_rules.tools._scanner import _pattern_spans, plain_spans

EVAL = Path(__file__).resolve().parents[2] / "benchmarks" / "signal_eval"


def reference(text: str, language: str) -> list[tuple[int, list[tuple[int, int]]]]:
    table = data.SIGNAL_TABLES[language]
    return [(index, plain_spans(pattern.regex, text)) for index, pattern in enumerate(table)]


def indexed(text: str, language: str) -> list[tuple[int, list[tuple[int, int]]]]:
    return list(_pattern_spans(text, language, list(range(len(data.SIGNAL_TABLES[language])))))


def sentences(language: str) -> list[str]:
    labelled = yaml.safe_load((EVAL / f"{language}.yaml").read_text(encoding="utf-8"))
    found = [text for rule in labelled.values() for kind in ("positive", "negative") for text in rule[kind]]
    assert len(found) > 400, "the evaluation set is missing"
    return found


def examples(language: str) -> list[str]:
    import re

    texts = []
    for rule in Path(__file__).resolve().parents[2].joinpath("rules-src", "rules").glob("*.md"):
        front = yaml.safe_load(rule.read_text(encoding="utf-8").split("---")[1])
        for signal in front.get("signals", []):
            if signal["language"] == language:
                texts += [re.sub(r"\[\[(.*?)\]\]", r"\1", t) for t in signal["must_match"] + signal["must_not_match"]]
    assert texts
    return texts


@pytest.mark.parametrize("language", ["en", "de"])
def test_same_spans_on_the_labelled_set_and_the_rule_examples(language: str) -> None:
    for text in sentences(language) + examples(language):
        assert indexed(text, language) == reference(text, language), text


@pytest.mark.parametrize("language", ["en", "de"])
def test_same_spans_on_one_long_document(language: str) -> None:
    text = "\n\n".join(sentences(language) + examples(language))
    text = text + " " + text.upper() + "\n" + text.title()
    assert indexed(text, language) == reference(text, language)


def _vocabulary() -> list[str]:
    words: set[str] = set()
    for language in ("en", "de"):
        for key, entries in data.SIGNAL_INDEX[language].words.items():
            for tails, checks in entries:
                words.update(key + tail for tail in tails)
                for befores, _, _ in checks:
                    words.update(befores)
    return sorted(words)


VOCABULARY = _vocabulary()
PIECES = st.one_of(
    st.sampled_from(VOCABULARY),
    st.sampled_from(VOCABULARY).map(str.upper),
    st.sampled_from(VOCABULARY).map(str.title),
    st.sampled_from(
        [
            " ",
            "  ",
            "\n",
            "\r\n",
            ". ",
            "! ",
            "? ",
            ", ",
            "-",
            "'",
            "’",
            "[",
            "]",
            "<",
            ">",
            "`",
            "ſ",
            "İ",
            "ı",
            "ß",
            "ẞ",
            "ä",
            "Ä",
            "K",
            # Letters outside Latin-1 split a word for the key pass, not for the patterns.
            "Ω",
            "ж",
            "ŉ",
            "\t",
            "100 %",
            "x" * 260,
            "a" * 3,
            "1",
        ]
    ),
    st.text(max_size=6),
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, max_size=40), st.sampled_from(["en", "de"]))
def test_same_spans_on_random_text(pieces: list[str], language: str) -> None:
    text = "".join(pieces)
    assert indexed(text, language) == reference(text, language)


def test_patterns_keyed_by_the_following_word_find_the_same_spans() -> None:
    """German participle-first passives start one word before the auxiliary their look-ahead names."""
    sentences = [
        "Die Datei muss vorher gelöscht werden.",
        "Ob der Bericht rechtzeitig erstellt wurde, ist unklar.",
        "Alle Einträge, die geändert worden sind, erscheinen oben.",
        "Das Paket wird morgen zugestellt.",
        "Sie werden stündlich übertragen und nachts archiviert wird nichts.",
    ]
    padding = "Ein Satz ohne Befund steht hier. " * 600  # pushes later sentences past a scan window
    text = padding.join(sentences) + " " + padding + " ".join(sentences)
    assert indexed(text, "de") == reference(text, "de")
    table = data.SIGNAL_TABLES["de"]
    assert any(spans for index, spans in reference(text, "de") if "participle" in table[index].signal_id)


def test_patterns_keyed_by_a_word_ending_find_the_same_spans() -> None:
    """German patterns that start with any word of an ending: tried at such words ("die
    günstigste"), or at those a later word looks back to (a noun in -ung before its verb)."""
    sentences = [
        "Die Prüfung der Daten erfolgt nachts.",
        "Eine Bewertung wird vorgenommen.",
        "Die Installation der Aktualisierungen erfolgte ohne Fehler.",
        "RECHNUNGEN werden geprüft, die Zahlung erfolgt später.",
        "Wir führen die Überprüfung morgen durch.",
        "Wir bieten die günstigste Lösung am Markt.",
    ]
    padding = "Ein Satz ohne Befund steht hier. " * 600
    text = padding.join(sentences) + " " + padding + " ".join(sentences)
    assert indexed(text, "de") == reference(text, "de")
    index = data.SIGNAL_INDEX["de"]
    by_ending = {i for _, patterns in index.suffixes for i in patterns}
    looked_back = {i for i, _, _ in index.look_backs}
    assert by_ending and looked_back, "no pattern is found by a word ending any more: this test checks nothing"
    found = {i for i, spans in reference(text, "de") if spans}
    assert by_ending & found and looked_back & found


# The helpers behind anchors and endings, on inputs no shipped pattern produces yet.


@given(st.sets(st.text(alphabet="abß. \t", min_size=1, max_size=4), min_size=1, max_size=8), st.text("abß. \t"))
def test_a_factored_alternation_matches_exactly_its_words(words: set[str], probe: str) -> None:
    import re

    from writing_rules.tools._scanner import _alternation

    finder = re.compile(f"(?:{_alternation(sorted(words))})")
    for word in words:
        assert finder.fullmatch(word), (word, finder.pattern)
    assert (finder.fullmatch(probe) is not None) == (probe in words)


@pytest.mark.parametrize(
    ("text", "strings", "offset", "expected"),
    [
        ("aaaa", ("aa",), 0, [0, 1, 2]),  # one text overlapping itself
        ("abab", ("ab", "ba"), 2, [2, 3, 4]),  # two texts overlapping each other
        ("x. y.\tz", (". ", ".\t"), 2, [3, 6]),  # the sentence starts of the long-sentence rule
        ("end.", (". ",), 2, []),
    ],
)
def test_anchor_positions_find_every_occurrence(
    text: str, strings: tuple[str, ...], offset: int, expected: list[int]
) -> None:
    from writing_rules.tools._scanner import _anchor_positions

    assert sorted(_anchor_positions(text, strings, offset)) == expected


@pytest.mark.parametrize("language", ["en", "de"])
def test_dotless_i_long_s_and_dotted_capital_i_keep_the_index(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Turkish name once sent the whole text down the slow path (every pattern whole, 20x slower)."""
    from writing_rules.tools import _scanner

    text = "\n\n".join(sentences(language)[:300])
    text = text.replace("i", "ı", 40).replace("s", "ſ", 40)
    text += " Frau Yılmaz, İstanbul, DİE BESTE LÖSUNG, THE BEST ſOLUTION."
    expected = reference(text, language)

    # Only the patterns the index itself runs whole (those opening with capitals) may be.
    table, index = data.SIGNAL_TABLES[language], data.SIGNAL_INDEX[language]
    whole_by_design = {table[i].regex.pattern for i in index.full}

    def whole_text(regex: re.Pattern[str], text: str) -> list[tuple[int, int]]:
        if regex.pattern not in whole_by_design:
            raise AssertionError("the scanner ran a pattern over the whole text")
        return plain_spans(regex, text)

    monkeypatch.setattr(_scanner, "plain_spans", whole_text)
    assert indexed(text, language) == expected


def test_patterns_found_by_looking_back_from_a_later_word_find_the_same_spans() -> None:
    # ung-verb-de's first word ends in "ung"; the index finds the verb after it and looks
    # back for such words, at every distance up to the pattern's reach and past it.
    assert any(reach for _, reach, _ in data.SIGNAL_INDEX["de"].look_backs)
    nouns = ["Durchführung", "Prüfungen", "Ordnung", "ung", "Xung", "Zählungs", "Überprüfung"]
    verbs = ["durchgeführt", "zu durchführen", "vornehmen", "vorzunehmen", "erfolgt", "erfolgten", "erfolgreich"]
    gaps = ["", " der Daten", " " + "x" * 20, " " + "wort " * 9, ", dann", ".", "\n"]
    text = " ".join(f"{noun}{gap} {verb}." for noun in nouns for gap in gaps for verb in verbs)
    for variant in (text, text.upper(), "`" + text):
        assert indexed(variant, "de") == reference(variant, "de")


@pytest.mark.parametrize(
    ("language", "firsts", "laters"),
    [
        # reader-modal-passive-de: "Sie", "Ihre", "du" … looked back for from "werden muss" and the like
        (
            "de",
            ["Sie", "Ihre", "du", "Ihnen", "deinem", "sie", "Sieb", "Ihr"],
            ["gelöscht werden muss", "werden sollten"],
        ),
        # claim-verb-de (one branch of its group): "ist", "sind" … looked back for from "immer aktuell"
        (
            "de",
            ["ist", "Sind", "hält", "bleibt", "Frist", "istanbul"],
            ["immer aktuell", "stets synchron", "jederzeit auf dem neuesten Stand", "immer wieder"],
        ),
        # easy-step-en, first-person-always-en, known-answer-en
        (
            "en",
            ["It's", "it’s", "is", "are", "we", "our", "I", "i", "Wes"],
            ["a breeze", "always", "attempt to explain"],
        ),
    ],
)
def test_patterns_that_open_with_a_common_word_find_the_same_spans(
    language: str, firsts: list[str], laters: list[str]
) -> None:
    # The index finds the rarer word after the common first one and looks back for that
    # word, at every distance up to the pattern's reach and past it.
    gaps = ["", " the data", " die Daten", " " + "x" * 20, " " + "wort " * 9, " " + "word " * 30, ", then", ".", "\n"]
    text = " ".join(f"{first}{gap} {later}." for first in firsts for gap in gaps for later in laters)
    for variant in (text, text.upper(), "`" + text):
        assert indexed(variant, language) == reference(variant, language)
