"""Safe fixes at run time: the ``fix`` field of ``find_writing_signals`` and applying fixes."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules._rules_data import RULE_IDS
from writing_rules.tools import create_writing_tool_dispatcher
from writing_rules.tools._fixes import Fix, apply_fixes
from writing_rules.tools._scanner import scan_text

FRAGMENTS = {
    "en": [
        "in order to",
        "In order to",
        "IN ORDER TO",
        "very",
        "Very",
        "really",
        "extremely",
        "not",
        "the",
        "make use of",
        "makes a decision",
        "made an attempt to",
        "take into account",
        "taken into account",
        "reached an agreement",
        "with",
        "due to the fact that",
        "has the ability to",
        "fast",
        "good",
        "restart",
        "the service",
        "much",
        '"',
        "`",
        ".",
        ",",
        "\n",
        "\r\n",
        "\n\n",
        "é",
        "🙂",
        "it",
        "We",
    ],
    "de": [
        "zur Verfügung stellen",
        "zur Verfügung gestellt",
        "Zur Verfügung zu stellen",
        "sehr",
        "Sehr",
        "wirklich",
        "nicht",
        "so",
        "wohl",
        "zum Einsatz kommt",
        "in Erwägung gezogen",
        "trifft eine Entscheidung",
        "in Kenntnis gesetzt",
        "unter Beweis stellen",
        "schnell",
        "gut",
        "der Dienst",
        "Daten",
        "„",
        "“",
        "`",
        ".",
        ",",
        "\n",
        "\r\n",
        "ä",
        "wird",
        "Wir",
    ],
}


def texts(language: str) -> st.SearchStrategy[str]:
    pieces = st.one_of(st.sampled_from(FRAGMENTS[language]), st.text(alphabet="abcäß .,\n", max_size=4))
    return st.lists(pieces, max_size=30).map(" ".join)


def fixes_of(text: str, language: str) -> list[tuple[Fix, dict[str, Any]]]:
    found = []
    for signal in scan_text(text, language, RULE_IDS, len(text) + 1)["signals"]:
        fix = signal.get("fix")
        if fix is not None:
            start = signal["start"]
            assert text[start : start + len(fix["match"])] == fix["match"]
            found.append((Fix(start, start + len(fix["match"]), fix["replacement"]), signal))
    return found


def check_one_round(text: str, language: str) -> str:
    found = fixes_of(text, language)
    fixed, applied = apply_fixes(text, [fix for fix, _ in found])
    kept: list[tuple[Fix, dict[str, Any]]] = []
    previous = 0
    for fix, signal in sorted(found, key=lambda item: (item[0].start, item[0].end)):
        if fix.start >= previous:
            kept.append((fix, signal))
            previous = fix.end
    assert applied == len(kept)
    # Text outside the fixed spans is copied unchanged, in order.
    position = 0
    previous = 0
    spans = []
    for fix, signal in kept:
        between = text[previous : fix.start]
        assert fixed[position : position + len(between)] == between
        position += len(between)
        assert fixed[position : position + len(fix.replacement)] == fix.replacement
        spans.append((position, position + len(fix.replacement), signal))
        position += len(fix.replacement)
        previous = fix.end
    assert fixed[position:] == text[previous:]
    # No replacement holds a hit of the signal it was meant to remove.
    after = scan_text(fixed, language, RULE_IDS, len(fixed) + 1)["signals"]
    for start, end, signal in spans:
        for hit in after:
            inside = start <= hit["start"] and hit["end"] <= end
            assert not (inside and hit["signalId"] == signal["signalId"]), (fixed, hit)
    return fixed


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["en", "de"]).flatmap(lambda language: st.tuples(st.just(language), texts(language))))
def test_fixes_change_only_their_spans_and_remove_their_signal(case: tuple[str, str]) -> None:
    language, text = case
    # Overlapping fixes are applied one per round ("zur Verfügung stellen zur Verfügung
    # stellen": the second phrase's signal starts inside the first's fix), so a text may need a
    # round per phrase; every fix removes a word or more, and one that made a new fix without
    # end would still run past this bound.
    for _ in range(len(text.split()) + 2):
        fixed = check_one_round(text, language)
        if fixed == text:
            break
        text = fixed
    else:
        raise AssertionError(f"fixing did not settle: {text!r}")
    assert fixes_of(text, language) == []


def test_repeated_phrases_whose_fixes_overlap_settle_one_per_round() -> None:
    text = " ".join(["zur Verfügung stellen"] * 6)  # found by the property test above
    rounds = 0
    while (fixed := check_one_round(text, "de")) != text:
        text, rounds = fixed, rounds + 1
        assert rounds <= 6
    assert text == " ".join(["bereitstellen"] * 6)


def test_the_tool_reports_a_fix_beside_the_signal() -> None:
    dispatcher = create_writing_tool_dispatcher()
    text = 'Restart the service in order to apply the settings. `in order to` and "in order to".'
    envelope = dispatcher.dispatch({"name": "find_writing_signals", "arguments": {"text": text, "language": "en"}})
    signals = [signal for signal in envelope["data"]["signals"] if signal["match"] == "in order to"]
    assert [signal.get("fix") for signal in signals] == [{"replacement": "to", "match": "in order to"}, None, None]


def test_a_fix_may_reach_past_the_signal_and_keeps_capitals() -> None:
    text = "Zur Verfügung gestellt werden drei Endpunkte. Die Datei wird zur Verfügung gestellt."
    found = fixes_of(text, "de")
    assert [(fix.replacement, text[fix.start : fix.end]) for fix, _ in found] == [
        ("Bereitgestellt", "Zur Verfügung gestellt"),
        ("bereitgestellt", "zur Verfügung gestellt"),
    ]
    assert apply_fixes(text, [fix for fix, _ in found])[0] == (
        "Bereitgestellt werden drei Endpunkte. Die Datei wird bereitgestellt."
    )


def test_no_fix_where_the_meaning_would_change() -> None:
    text = "It is not very fast. The very first run. Thank you very much. Das ist nicht sehr gut. Sehr wohl."
    assert fixes_of(text, "en") == []
    assert fixes_of(text, "de") == []


def test_overlapping_fixes_apply_the_first() -> None:
    # Sorted by start: (1, 3) wins over (2, 4), which overlaps it; (4, 6) is applied too.
    assert apply_fixes("abcdef", [Fix(2, 4, "X"), Fix(1, 3, "Y"), Fix(4, 6, "")]) == ("aYd", 2)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(("en", "de")), st.data())
def test_a_rules_joined_fixes_match_exactly_where_one_of_its_fixes_matches(language: str, data: st.DataObject) -> None:
    import re

    from writing_rules._rules_data import SIGNAL_FIXES
    from writing_rules.tools._fixes import may_fix

    text = " ".join(data.draw(st.lists(st.sampled_from(FRAGMENTS[language]), max_size=12)))
    for rule_id in sorted({rule for rule, _ in SIGNAL_FIXES}):
        pairs = [pair for (rule, _), declared in SIGNAL_FIXES.items() if rule == rule_id for pair in declared]
        fixes = [re.compile(match) for match, _ in pairs]
        for start in range(len(text) + 1):
            assert may_fix(text, start, rule_id) == any(fix.match(text, start) for fix in fixes), (rule_id, start)


def test_no_fix_under_a_negating_scope() -> None:
    # Issue 28: deletions inside a negation changed the meaning on real pages (Python PEPs).
    en = (
        "It will not be very efficient. None of these options are very attractive. "
        "Do it without totally restricting the input. We never really need it."
    )
    de = "Das ist keine sehr gute Idee. Das geht ohne wirklich großen Aufwand. Das ist nicht äußerst wichtig."
    assert fixes_of(en, "en") == []
    assert fixes_of(de, "de") == []
    # The signal is still reported, without a fix.
    signals = scan_text(en, "en", RULE_IDS, 100)["signals"]
    assert any(signal["match"] == "very" for signal in signals)
    assert all("fix" not in signal for signal in signals)
    # Outside the negation's clause the fix is offered again.
    assert [fix.replacement for fix, _ in fixes_of("It is not slow. It is very fast.", "en")] == [""]


def test_one_signal_per_rule_where_its_hits_overlap() -> None:
    signals = scan_text("This pattern should be avoided in new code.", "en", RULE_IDS, 100)["signals"]
    assert [(s["ruleId"], s["match"]) for s in signals] == [("passive-voice", "should be avoided")]
    # "sehr einfach" (easy-step-de) and "ist sehr einfach" (easy-predicate-de) overlap: one signal,
    # the longer span of the same level.
    signals = scan_text("Die Einrichtung ist sehr einfach.", "de", RULE_IDS, 100)["signals"]
    assert [(s["ruleId"], s["match"]) for s in signals if s["ruleId"] == "easy-claims"] == [
        ("easy-claims", "ist sehr einfach")
    ]
