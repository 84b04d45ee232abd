"""Whole files: the engine's scan of any length reports what the tool reports, in whole-file positions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules import _rules_data as data
from writing_rules._text_units import utf16_length
from writing_rules.lint._language import detect_language
from writing_rules.lint._pieces import scan_chosen, split_points
from writing_rules.tools import create_writing_tool_dispatcher

DISPATCH = create_writing_tool_dispatcher().dispatch
_SIGNAL_RULES = [rule_id for rule_id in data.RULE_IDS if data.RULES[rule_id].has_signals]


def scan_whole_text(text: str, language: str = "en", rule_ids: tuple[str, ...] | None = None) -> dict:
    """The engine's scan of all of ``text`` (cut into pieces when long), as the tool's data."""
    signals, note = scan_chosen(text, language, tuple(_SIGNAL_RULES) if rule_ids is None else rule_ids)
    return {"signals": [signal.wire() for signal in signals], "totalSignals": len(signals), "note": note}


def whole(text: str) -> list[dict]:
    envelope = DISPATCH({"name": "find_writing_signals", "arguments": {"text": text, "maxSignals": 500}})
    assert envelope["ok"] and not envelope["data"]["truncated"]
    return envelope["data"]["signals"]


_WORDS = st.sampled_from(["powerful", "seamless", "tool", "not", "😀", "ü", "a", "`x`"])
_SEPARATORS = st.sampled_from([" ", "\n", "\r\n", "\r", "\n\n", "\r\n\r\n", ". "])
_TEXTS = st.lists(st.tuples(_WORDS, _SEPARATORS), max_size=60).map(
    lambda pairs: "".join(word + separator for word, separator in pairs)
)


@settings(max_examples=150, deadline=None)
@given(_TEXTS)
def test_whole_file_scan_equals_the_tool(text: str) -> None:
    scanned = scan_whole_text(text)
    expected = whole(text)
    assert scanned["signals"] == expected
    assert scanned["totalSignals"] == len(expected)
    assert scanned["note"] is None


@settings(max_examples=100, deadline=None)
@given(_TEXTS, st.sets(st.sampled_from(_SIGNAL_RULES), min_size=1), st.sampled_from(("en", "de")))
def test_the_command_lines_scan_of_chosen_rules_equals_the_checked_one(text: str, chosen: set, language: str) -> None:
    # The command line passes its settings' rules (known, with signals, in catalogue order) without a
    # dispatcher: the tool, asked, chooses the same rules and finds the same signals.
    rule_ids = tuple(rule_id for rule_id in data.RULE_IDS if rule_id in chosen)
    arguments = {"language": language, "ruleIds": list(rule_ids), "text": text, "maxSignals": 500}
    envelope = DISPATCH({"name": "find_writing_signals", "arguments": arguments})
    assert envelope["ok"] and envelope["data"]["ruleIds"] == list(rule_ids)
    signals, note = scan_chosen(text, language, rule_ids)
    assert ([signal.wire() for signal in signals], note) == (envelope["data"]["signals"], None)


@settings(max_examples=150, deadline=None)
@given(_TEXTS, st.integers(min_value=2, max_value=40))
def test_pieces_cover_the_text_and_respect_the_limit(text: str, limit: int) -> None:
    starts = split_points(text, limit)
    assert starts[0] == 0 and starts == sorted(set(starts))
    for first, following in zip(starts, [*starts[1:], len(text)], strict=True):
        assert utf16_length(text[first:following]) <= limit
        assert not (text[first - 1 : first] == "\r" and text[first : first + 1] == "\n")  # CRLF kept whole


def test_cuts_prefer_blank_lines_outside_fenced_code() -> None:
    text = "Intro line.\n\n```\ncode\n\nmore code\n```\nafter the fence\n"
    (_, cut) = split_points(text, len(text) - 1)
    assert cut == len("Intro line.\n\n")


def test_a_file_over_the_tool_limit_is_scanned_with_positions_in_the_whole_file() -> None:
    paragraph = "A line of plain words for the reader.\n\n"
    text = paragraph * 8000 + "The powerful 😀 ending.\n"
    assert utf16_length(text) > 250_000
    result = scan_whole_text(text)
    (signal,) = result["signals"]
    assert text[signal["start"] : signal["end"]] == "powerful"
    assert signal["line"] == 16001 and signal["column"] == 5
    assert signal["utf16Start"] == signal["start"]  # the emoji comes after the hit


def test_language_detection_counts_function_words() -> None:
    assert detect_language("Install the package and run it from the command line.") == "en"
    assert detect_language("Installieren Sie das Paket und starten Sie es mit dem Befehl.") == "de"
    assert detect_language("Größe") == "de"
    assert detect_language("") == "en"


def test_a_piece_with_more_signals_than_one_call_returns_is_cut_until_every_signal_is_kept() -> None:
    # 1,300 hits: far over the tool's 500 per call, so the chunker must re-cut, never drop.
    text = "".join(f"Line {number}: a powerful tool.\n\n" for number in range(1300))
    result = scan_whole_text(text, "en", ("word-choice",))
    starts = [signal["start"] for signal in result["signals"]]
    assert len(starts) == text.count("powerful") == result["totalSignals"]
    assert starts == sorted(set(starts))
    assert all(text[s["start"] : s["end"]] == "powerful" for s in result["signals"])
    last = result["signals"][-1]
    assert (last["line"], last["column"]) == (2599, len("Line 1299: a ") + 1)
