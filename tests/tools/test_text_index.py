"""TextIndex: the positions and the context flags that find_writing_signals gives a span."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from writing_rules._fix_text import NEGATION_WORDS
from writing_rules._text_units import utf16_length
from writing_rules.prose import read_prose
from writing_rules.tools import TextIndex, create_writing_tool_dispatcher
from writing_rules.tools._text_index import ProseContext, positions_in_order

LANGUAGES = ("en", "de")


def ctx(text: str, needle: str, language: str = "en", nth: int = 0) -> dict[str, bool]:
    """Context of the nth occurrence of needle (a whole hit) in text."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return TextIndex(text, language).context(start, start + len(needle))


def naive_line_column(text: str, offset: int) -> tuple[int, int]:
    line, column = 1, 1
    for i in range(offset):
        if text[i] == "\n" or (text[i] == "\r" and text[i + 1 : i + 2] != "\n"):
            line, column = line + 1, 1
        else:
            column += 1
    return line, column


def naive_utf16(text: str, offset: int) -> int:
    return len(text[:offset].encode("utf-16-le", "surrogatepass")) // 2


# --- positions ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "units"),
    [("", 0), ("abc", 3), ("äß€", 3), ("a😀b", 4), ("😀😀", 4), ("\ud800x", 2), ("\udc00\ud83d", 2)],
)
def test_utf16_length_counts_astral_twice_and_lone_surrogates_once(text: str, units: int) -> None:
    assert utf16_length(text) == units


def test_utf16_offsets_shift_after_each_astral_character() -> None:
    text = "a😀b𝄞c\ud800d"
    index = TextIndex(text, "en")
    assert [index.utf16_offset(i) for i in range(len(text) + 1)] == [0, 1, 3, 4, 6, 7, 8, 9]
    assert index.utf16_offset(len(text)) == utf16_length(text)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_lines_end_at_every_newline_style(newline: str) -> None:
    text = f"ab{newline}cde{newline}{newline}f"
    index = TextIndex(text, "en")
    assert index.line_column(text.index("a")) == (1, 1)
    assert index.line_column(text.index("d")) == (2, 2)
    assert index.line_column(text.index("f")) == (4, 1)
    assert index.line_column(len(text)) == (4, 2)


def test_mixed_newlines_and_the_lf_of_a_crlf_stays_on_its_line() -> None:
    text = "a\r\nb\rc\nd\n\re"
    index = TextIndex(text, "en")
    assert index.line_column(1) == (1, 2)  # the \r of \r\n
    assert index.line_column(2) == (1, 3)  # the \n of \r\n: same line, no extra line
    assert [index.line_column(text.index(c))[0] for c in "abcde"] == [1, 2, 3, 4, 6]


def test_other_unicode_line_separators_do_not_end_lines() -> None:
    text = "a\u2028b\x0bc\x0cd\x85e"
    assert TextIndex(text, "en").line_column(len(text)) == (1, 10)


def test_column_counts_code_points_not_utf16_length() -> None:
    text = "x\n😀😀z"
    index = TextIndex(text, "en")
    assert index.line_column(text.index("z")) == (2, 3)
    assert index.utf16_offset(text.index("z")) == 6


def test_end_of_text_and_after_a_final_newline() -> None:
    assert TextIndex("abc", "en").line_column(3) == (1, 4)
    assert TextIndex("abc\n", "en").line_column(4) == (2, 1)
    assert TextIndex("abc\r\n", "en").line_column(5) == (2, 1)


@pytest.mark.parametrize("language", LANGUAGES)
def test_empty_text(language: str) -> None:
    index = TextIndex("", language)
    assert index.line_column(0) == (1, 1)
    assert index.utf16_offset(0) == 0
    assert index.context(0, 0) == {"inCode": False, "inQuote": False, "negated": False}


@given(
    st.text(
        alphabet=st.one_of(
            st.sampled_from(["\n", "\r", "a", "😀", "\U0010ffff", "\ud800", "\udfff", "\u2028"]),
            st.characters(),
        )
    ),
    st.data(),
)
def test_positions_match_a_naive_reference(text: str, data: st.DataObject) -> None:
    index = TextIndex(text, "en")
    offset = data.draw(st.integers(0, len(text)))
    assert index.line_column(offset) == naive_line_column(text, offset)
    assert index.utf16_offset(offset) == naive_utf16(text, offset)
    assert utf16_length(text) == naive_utf16(text, len(text))


@given(
    st.text(
        alphabet=st.one_of(
            st.sampled_from(["\n", "\r", "a", "ä", "😀", "\U0010ffff", "\ud800", "\udfff", "\u2028"]),
            st.characters(),
        )
    ),
    st.data(),
)
def test_positions_of_many_spans_equal_one_span_at_a_time(text: str, data: st.DataObject) -> None:
    # A scan's spans come sorted by start (counted on from one to the next); any order is allowed.
    spans = data.draw(st.lists(st.tuples(st.integers(0, len(text)), st.integers(0, len(text))).map(sorted)))
    if data.draw(st.booleans()):
        spans.sort()
    expected = []
    for start, end in spans:
        line, column = naive_line_column(text, start)
        expected.append((naive_utf16(text, start), naive_utf16(text, end), line, column))
    assert list(positions_in_order(text, spans)) == expected


@pytest.mark.parametrize("text", ["a\r\nb\rc\nd\r\r\n\n", "\r\n\r\n", "x\ry\r", "😀\r\n😀\nä"])
def test_positions_of_every_offset_in_order_with_every_line_break(text: str) -> None:
    spans = [(offset, offset) for offset in range(len(text) + 1)]
    expected = [(naive_utf16(text, o), naive_utf16(text, o), *naive_line_column(text, o)) for o, _ in spans]
    assert list(positions_in_order(text, spans)) == expected
    # Every other offset: counted on over a CRLF, a CR and an LF at once.
    assert list(positions_in_order(text, spans[::2])) == expected[::2]


def test_positions_of_a_span_outside_the_text_are_refused() -> None:
    with pytest.raises(ValueError, match="outside"):
        list(positions_in_order("abc", [(2, 4)]))


# --- argument checks and immutability -------------------------------------------


@pytest.mark.parametrize("offset", [-1, 4])
def test_offsets_outside_the_text_are_rejected(offset: int) -> None:
    index = TextIndex("abc", "en")
    with pytest.raises(ValueError):
        index.line_column(offset)
    with pytest.raises(ValueError):
        index.utf16_offset(offset)
    with pytest.raises(ValueError):
        index.context(0, offset) if offset > 0 else index.context(offset, 1)


def test_reversed_span_and_non_int_offsets_are_rejected() -> None:
    index = TextIndex("abc", "en")
    with pytest.raises(ValueError):
        index.context(2, 1)
    with pytest.raises(TypeError):
        index.line_column(1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        index.utf16_offset(True)


@pytest.mark.parametrize("language", ["fr", "EN", "", None])
def test_unknown_language_is_rejected(language: object) -> None:
    with pytest.raises(ValueError):
        TextIndex("text", language)  # type: ignore[arg-type]


def test_index_cannot_be_changed_and_context_dicts_are_fresh() -> None:
    index = TextIndex('Say "not x" here', "en")
    with pytest.raises(AttributeError):
        index._text = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        index.anything = 1  # type: ignore[attr-defined]
    first = index.context(9, 10)
    first["inQuote"] = False
    assert index.context(9, 10) == {"inCode": False, "inQuote": True, "negated": True}


def test_positions_never_read_the_prose() -> None:
    # Review and the HTML report ask long texts for positions only: the prose view is read
    # on the first context() call, not before.
    index = TextIndex("Some `code` and prose.\n" * 50, "en")
    index.span_fields(3, 9)
    index.line_column(100)
    assert index._view is None
    index.context(5, 9)
    assert index._view is not None


# --- inCode: fenced blocks ------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("fence", ["```", "~~~", "````", "~~~~~"])
def test_fenced_block_is_code(language: str, fence: str) -> None:
    text = f"Before.\n{fence}python\nHIT here\n{fence}\nAfter.\n"
    index = TextIndex(text, language)
    assert index.context(text.index("HIT"), text.index("HIT") + 3)["inCode"]
    assert index.context(text.index("here"), text.index("here") + 4)["inCode"]
    assert not index.context(text.index("Before"), text.index("Before") + 6)["inCode"]
    assert not index.context(text.index("After"), text.index("After") + 5)["inCode"]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_fences_work_with_every_newline_style(newline: str) -> None:
    text = newline.join(["Prose", "```", "HIT", "```", "Tail"])
    assert ctx(text, "HIT")["inCode"]
    assert not ctx(text, "Tail")["inCode"]


def test_unclosed_fence_runs_to_the_end() -> None:
    text = "Intro\n~~~\ncode\n\nstill code HIT\n\n> even this"
    assert ctx(text, "HIT")["inCode"]
    assert ctx(text, "this")["inCode"]


@pytest.mark.parametrize(
    ("opener", "wrong_closer"),
    [("```", "~~~"), ("~~~", "```"), ("````", "```"), ("```", "``` x")],
)
def test_fence_closes_only_with_same_character_at_least_as_long(opener: str, wrong_closer: str) -> None:
    text = f"{opener}\ncode\n{wrong_closer}\nHIT\n"
    assert ctx(text, "HIT")["inCode"]


def test_longer_closing_fence_closes() -> None:
    assert not ctx("```\ncode\n``````\nHIT\n", "HIT")["inCode"]


def test_indented_fence_in_a_list_item_is_a_fence() -> None:
    text = "1. Step\n\n   ```sh\n   run HIT\n   ```\n\n2. Next step"
    assert ctx(text, "HIT")["inCode"]
    assert not ctx(text, "Next")["inCode"]


def test_backticks_with_backtick_info_are_inline_code_not_a_fence() -> None:
    text = "```a``` HIT\nmore text"
    assert not ctx(text, "HIT")["inCode"]
    assert ctx(text, "a")["inCode"]


# --- inCode: indented blocks -------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("indent", ["    ", "\t", "  \t", "      "])
def test_indented_block_after_blank_line_is_code(language: str, indent: str) -> None:
    text = f"Prose here.\n\n{indent}HIT one\n\n{indent}HIT two\nBack to prose."
    assert ctx(text, "HIT", language)["inCode"]
    assert ctx(text, "HIT", language, nth=1)["inCode"]  # a blank line inside does not end the block
    assert not ctx(text, "Back", language)["inCode"]


def test_indented_block_at_start_of_text_is_code() -> None:
    assert ctx("    HIT\nprose", "HIT")["inCode"]


def test_indented_line_continuing_a_paragraph_is_not_code() -> None:
    assert not ctx("A paragraph\n    HIT continues it", "HIT")["inCode"]


def test_three_spaces_are_not_an_indented_block() -> None:
    assert not ctx("Prose.\n\n   HIT\n", "HIT")["inCode"]


def test_indented_paragraph_in_a_list_is_not_code_but_after_the_list_it_is() -> None:
    text = "- item\n\n    HIT continuation\n\nProse ends the list.\n\n    HIT code\n"
    assert not ctx(text, "HIT")["inCode"]
    assert ctx(text, "HIT", nth=1)["inCode"]
    ordered = "1) item\n\n    HIT continuation\n"
    assert not ctx(ordered, "HIT")["inCode"]


# --- inCode: inline spans -----------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_inline_backtick_span_is_code(language: str) -> None:
    text = "Use `HIT` here but not HIT there."
    assert ctx(text, "HIT", language)["inCode"]
    assert not ctx(text, "HIT", language, nth=1)["inCode"]
    # The closing backticks belong to the code; at the opening ones the prose shows the
    # span as one word (where a sentence that opens with code starts).
    assert ctx(text, "`", language, nth=1)["inCode"]
    assert not ctx(text, "`", language)["inCode"]


def test_a_backslash_escaped_backtick_opens_no_code_span() -> None:
    text = r"Type \`not code\` then HIT and `x`."
    assert not ctx(text, "code")["inCode"]
    assert ctx(text, "HIT")["negated"]  # the escaped span is prose: its "not" negates
    assert ctx(text, "x")["inCode"]


def test_inline_span_closes_only_with_a_run_of_equal_length() -> None:
    text = "See ``a ` HIT`` and `` unmatched HIT ` end"
    assert ctx(text, "HIT")["inCode"]
    assert not ctx(text, "HIT", nth=1)["inCode"]


def test_inline_span_spans_lines_but_not_paragraphs() -> None:
    assert ctx("`start\nHIT`", "HIT")["inCode"]
    assert not ctx("`start\n\nHIT`", "HIT")["inCode"]


def test_inline_span_never_starts_inside_a_fenced_block() -> None:
    text = "```\nlone ` tick\n```\nprose HIT and ` later"
    assert not ctx(text, "HIT")["inCode"]


def test_fence_inside_a_block_quote_is_code() -> None:
    text = "> ```\n> HIT\n> ```\n> prose"
    assert ctx(text, "HIT")["inCode"]
    assert not ctx(text, "prose")["inCode"]


def test_a_hit_is_inside_when_its_start_is() -> None:
    text = "ab `cd` ef"
    index = TextIndex(text, "en")
    assert index.context(4, 10)["inCode"]  # starts inside, runs out
    assert not index.context(1, 5)["inCode"]  # starts before, runs in
    assert not index.context(len(text), len(text))["inCode"]


# --- inQuote ------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("opener", "closer"),
    [("“", "”"), ('"', '"'), ("„", "“"), ("»", "«"), ("«", "»"), ("‚", "‘"), ("„", "”")],
)
def test_quotation_marks_of_both_languages(language: str, opener: str, closer: str) -> None:
    text = f"He wrote {opener}the HIT{closer} and then HIT again."
    assert ctx(text, "HIT", language)["inQuote"]
    assert not ctx(text, "HIT", language, nth=1)["inQuote"]
    assert not ctx(text, "He", language)["inQuote"]


def test_german_closing_mark_opens_in_english_text() -> None:
    # “ closes an open „ but otherwise opens an English quotation.
    text = "„Eins“ HIT “zwei HIT” drei HIT"
    assert [ctx(text, "HIT", "de", nth=k)["inQuote"] for k in range(3)] == [False, True, False]


def test_straight_double_quotes_pair_in_order() -> None:
    text = 'Set "a HIT" then HIT then "b HIT" end HIT'
    assert [ctx(text, "HIT", nth=k)["inQuote"] for k in range(4)] == [True, False, True, False]


@pytest.mark.parametrize("text", ["It's 'HIT' now", "Er sagt ‘HIT’ nicht", "Don’t HIT", "the HIT” end"])
def test_single_quotes_apostrophes_and_stray_closers_are_not_quotations(text: str) -> None:
    assert not ctx(text, "HIT")["inQuote"]
    assert not ctx(text, "HIT", "de")["inQuote"]


@pytest.mark.parametrize("opener", ["“", '"', "„", "»", "«", "‚"])
def test_unclosed_mark_ends_with_its_paragraph(opener: str) -> None:
    text = f"Start {opener}open\nsame paragraph HIT\n\nnext paragraph HIT"
    assert ctx(text, "HIT")["inQuote"]
    assert not ctx(text, "HIT", nth=1)["inQuote"]


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_paragraph_ends_at_a_blank_line_with_any_newline_style(newline: str) -> None:
    text = f"Start “open{newline}{newline}next HIT"
    assert not ctx(text, "HIT")["inQuote"]


def test_nested_quotations_and_inner_unclosed_mark_closed_by_outer() -> None:
    text = "„Er sagte ‚HIT‘ und HIT“ dann HIT"
    assert [ctx(text, "HIT", "de", nth=k)["inQuote"] for k in range(3)] == [True, True, False]
    inch = 'A “5" HIT” board HIT'
    assert [ctx(inch, "HIT", nth=k)["inQuote"] for k in range(2)] == [True, False]


def test_quotation_marks_in_code_are_ignored() -> None:
    assert not ctx('Type `"` then HIT and `"` done', "HIT")["inQuote"]
    assert not ctx('```\nprint("x\n```\nHIT', "HIT")["inQuote"]
    assert not ctx('    say "x\n\nHIT', "HIT")["inQuote"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_block_quote_is_prose_not_a_quotation(language: str) -> None:
    # In documentation a block quote is mostly a note: its words are the author's own.
    text = "Prose HIT.\n> Quoted HIT.\n  > Indented quote HIT\nlazy HIT\n"
    assert [ctx(text, "HIT", language, nth=k)["inQuote"] for k in range(4)] == [False] * 4
    assert ctx('> He said "the HIT" twice', "HIT", language)["inQuote"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_quoting_a_paragraph_as_a_block_quote_changes_no_flag(language: str) -> None:
    paragraph = 'Do not\nuse "HIT" here; HIT `HIT` there.'
    quoted = "> " + paragraph.replace("\n", "\n> ")
    assert [ctx(quoted, "HIT", language, nth=k) for k in range(3)] == [
        ctx(paragraph, "HIT", language, nth=k) for k in range(3)
    ]


def test_quote_mark_starting_the_hit_counts_as_inside() -> None:
    text = "say “x” now"
    index = TextIndex(text, "en")
    assert index.context(4, 7)["inQuote"]
    assert index.context(6, 7)["inQuote"]
    assert not index.context(7, 8)["inQuote"]


# --- negated ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "This is not HIT.",
        "There is no HIT.",
        "Never HIT again.",
        "None of it is HIT.",
        "Nothing here is HIT.",
        "Works without HIT.",
        "It doesn't HIT.",
        "It isn't really HIT.",
        "You can't HIT.",
        "You can’t HIT.",
        "NOT HIT",
        "this, not that, and HIT",
    ],
)
def test_english_negation_before_the_hit(text: str) -> None:
    assert ctx(text, "HIT")["negated"]


@pytest.mark.parametrize(
    "text",
    [
        "HIT is not fine.",  # English: only before the hit
        "A note on HIT.",
        "I know the HIT.",
        "Nobody HIT.",
        "Nonetheless HIT.",
        "Not so. HIT",
        "Not so! HIT",
        "Not so? HIT",
        "Not so; HIT",
        "Not so: HIT",
        "Not so\n\nHIT",  # a new paragraph
        "Not so\r\n\r\nHIT",
        "- Not so\n- HIT",  # a new list item
        "# Not so\nHIT",  # a heading ends its block
        "Das ist nicht HIT.",  # German words do not count in English text
        "HIT",
    ],
)
def test_english_non_negation(text: str) -> None:
    assert not ctx(text, "HIT")["negated"]


@pytest.mark.parametrize(
    "text",
    [
        "Das ist nicht HIT.",
        "Das ist kein HIT.",
        "Das ist keine HIT.",
        "Wir haben keinen HIT.",
        "Mit keinem HIT.",
        "Von keiner HIT.",
        "Keines HIT.",
        "Das ist nie HIT.",
        "Niemals HIT.",
        "Das ist keineswegs HIT.",
        "Keinesfalls HIT.",
        "Mit keinerlei HIT.",
        "Ohne HIT.",
        "Das HIT nicht.",  # verb-final: after the hit
        "Wir HIT den Text keinesfalls, ohne Grund.",
        "Das HIT, wenn man es nie testet",
    ],
)
def test_german_negation_before_or_after_the_hit(text: str) -> None:
    assert ctx(text, "HIT", "de")["negated"]


@pytest.mark.parametrize(
    "text",
    [
        "Nicht so. HIT ist gut.",
        "HIT ist gut. Nicht so.",
        "HIT ist gut; nicht so",
        "HIT ist gut: nicht so",
        "HIT ist gut!\nNicht so",
        "HIT ist gut\n\nnicht so",
        "Die Ohnmacht und HIT.",
        "Eine Niere HIT.",
        "Keinohrhasen HIT.",  # a word that only starts like a negation
        "Das ist not HIT.",  # English words do not count in German text
    ],
)
def test_german_non_negation(text: str) -> None:
    assert not ctx(text, "HIT", "de")["negated"]


@pytest.mark.parametrize(
    ("text", "hit", "language"),
    [
        ("It is not good.", "not", "en"),
        ("It doesn't work.", "doesn't", "en"),
        ("It isn't", "isn", "en"),
        ("Es ist nicht gut.", "nicht gut", "de"),
        ("Das keine.", "keine", "de"),
    ],
)
def test_the_hits_own_words_never_negate_it(text: str, hit: str, language: str) -> None:
    assert not ctx(text, hit, language)["negated"]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_a_soft_line_break_never_ends_a_clause(newline: str) -> None:
    assert ctx(f"This is not{newline}a HIT.", "HIT")["negated"]
    assert ctx(f"> This is not{newline}> a HIT.", "HIT")["negated"]
    assert ctx(f"HIT ist gut{newline}und nicht neu", "HIT", "de")["negated"]


def test_negation_is_independent_of_quotes() -> None:
    assert ctx("„Das ist nicht HIT“", "HIT", "de") == {"inCode": False, "inQuote": True, "negated": True}


def test_code_is_a_text_of_its_own_for_negation() -> None:
    # The scanner reads a document's code apart from its prose: a "not" in the sentence
    # around a code span does not reach into it, a "not" in the code does.
    assert ctx("Do not use `HIT`.", "HIT") == {"inCode": True, "inQuote": False, "negated": False}
    assert ctx("```\nif not HIT:\n```", "HIT") == {"inCode": True, "inQuote": False, "negated": True}
    assert ctx("Use `not x` and HIT.", "HIT")["negated"] is False


# --- random text -------------------------------------------------------------------

_TOKENS = st.sampled_from(
    [
        "`", "``", "```", "~~~", "    ", "\t", "> ", "- ", "1. ", '"', "“", "”", "„", "»", "«", "‚", "‘",
        "’", "'", "\n", "\r", "\r\n", "\n\n", " ", ".", ":", "not", "n't", "nicht", "kein", "word", "ß",
        "😀", "\ud800", "\udfff",
    ]
)  # fmt: skip


@settings(max_examples=300)
@given(st.lists(st.one_of(_TOKENS, st.text(max_size=3)), max_size=40), st.sampled_from(LANGUAGES), st.data())
def test_context_never_raises_on_random_text(tokens: list[str], language: str, data: st.DataObject) -> None:
    text = "".join(tokens)
    index = TextIndex(text, language)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    result = index.context(start, end)
    assert set(result) == {"inCode", "inQuote", "negated"}
    assert all(type(value) is bool for value in result.values())


@given(st.text(alphabet=st.sampled_from("abcXYZ äöü,-\n\r\t😀")), st.sampled_from(LANGUAGES), st.data())
def test_plain_prose_is_never_code_quote_or_negated(text: str, language: str, data: st.DataObject) -> None:
    # Leading whitespace could make an indented code block, and so could five columns of it
    # after a list marker ("- \t\tX" is a list item holding code, as CommonMark reads it);
    # prose lines start flush, with one space after each marker.
    text = re.sub(r"(^|[\r\n])[ \t]+", r"\1", text)
    text = re.sub(r"(^|[\r\n])((?:-[ \t]+)+)", lambda found: found[1] + re.sub(r"[ \t]+", " ", found[2]), text)
    index = TextIndex(text, language)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    assert index.context(start, end) == {"inCode": False, "inQuote": False, "negated": False}


# The negation words in their plain form (``_fix_text.NEGATION_WORDS``, which the compiler's fix check
# uses); the scanner searches with a faster form that must find exactly the same words.
_NEGATION_WORDS = ["not", "NOT", "never", "none", "nothing", "without", "n't", "don't", "can\u2019t"]
_NEGATION_WORDS += ["nicht", "kein", "keine", "keines", "keineswegs", "keinesfalls", "keinerlei"]
_NEGATION_WORDS += ["nie", "niemals", "ohne"]
_NEGATION_PIECES = st.sampled_from([*"nNoOtTwWkKeEiIhHcCsSmMrRlLaAvV", *"'\u2019 ._-1ßéİıſ\u212a\n", *_NEGATION_WORDS])


@settings(max_examples=300)
@given(st.lists(_NEGATION_PIECES, max_size=30).map("".join), st.sampled_from(LANGUAGES))
def test_the_negation_search_finds_what_the_plain_pattern_finds(text: str, language: str) -> None:
    from writing_rules.tools._text_index import _NEGATION

    expected = [m.span() for m in NEGATION_WORDS[language].finditer(text)]
    assert [m.span() for m in _NEGATION[language].finditer(text)] == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_negation_search_opens_with_every_letter_that_folds_to_a_first_letter(language: str) -> None:
    from writing_rules.tools._text_index import _NEGATION

    words = ["not", "never", "without", "none"] if language == "en" else ["nicht", "kein", "ohne", "nie"]
    firsts = "".join(sorted({word[0] for word in words}))
    folding = [chr(code) for code in range(0x110000) if re.fullmatch(f"(?i)[{firsts}]", chr(code))]
    assert len(folding) >= 2 * len(firsts)
    for letter in folding:
        for word in words:
            text = f"a {letter}{word[1:]} b"
            expected = [m.span() for m in NEGATION_WORDS[language].finditer(text)]
            assert [m.span() for m in _NEGATION[language].finditer(text)] == expected, (letter, word)


# --- the flags find_writing_signals gives -----------------------------------------------

DISPATCH = create_writing_tool_dispatcher().dispatch

# Markdown pieces, quotation marks, and words (negation words, words the shipped rules flag in
# either language), so that random texts put signals in code, quotes, lists and negated clauses.
_MARKDOWN = st.sampled_from(
    [
        "`", "``", "```", "~~~", "\\`", "    ", "\t", "> ", "- ", "1. ", "# ", "| a | b |\n|---|---|\n",
        "[", "](http://x.example/very)", "<code>", "</code>", "<!-- very -->", "&amp;", "**", "_",
        '"', "“", "”", "„", "»", "«", "‚", "‘", "’", "'", "\n", "\r", "\r\n", "\n\n", ".", ";", ",",
        "ß", "😀",
    ]
)  # fmt: skip
_WORDS = st.sampled_from(
    [
        "not", "n't", "never", "nicht", "kein", "ohne", "simply", "very", "powerful", "just", "easy",
        "utilize", "einfach", "sehr", "leistungsstarke", "eigentlich", "Durchführung der Nutzung erfolgt",
        "word", "Wort",
    ]
).map(lambda word: f" {word} ")  # fmt: skip
_MARKDOWN_TEXTS = st.lists(st.one_of(_MARKDOWN, _WORDS, _WORDS, st.text(max_size=2)), max_size=40).map("".join)


def _signals(text: str, language: str) -> list[dict[str, Any]]:
    envelope = DISPATCH({"name": "find_writing_signals", "arguments": {"text": text, "language": language}})
    assert envelope["ok"], envelope
    signals: list[dict[str, Any]] = envelope["data"]["signals"]
    return signals


@settings(max_examples=400, deadline=None)
@given(_MARKDOWN_TEXTS, st.sampled_from(LANGUAGES))
def test_context_equals_the_flags_of_every_signal_on_the_same_span(text: str, language: str) -> None:
    index = TextIndex(text, language)
    for signal in _signals(text, language):
        assert index.context(signal["start"], signal["end"]) == signal["context"], signal


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Do not\nuse the very `simply` thing; it is „nicht wirklich“ schön.", "de"),
        ("> It is not\n> very good.\n\n```\nnot very\n```\n\n    simply indented", "en"),
        ("`code` " + "and the client builds an index of every file in the workspace, " * 6 + "once.", "en"),
        ('She said "it is just very\neasy" and left.', "en"),
    ],
)
def test_context_equals_the_flags_of_the_tool_on_pages(text: str, language: str) -> None:
    signals = _signals(text, language)
    assert signals
    index = TextIndex(text, language)
    assert [index.context(s["start"], s["end"]) for s in signals] == [s["context"] for s in signals]


def test_a_long_sentence_opening_with_code_is_prose() -> None:
    text = "`code` " + "and the client builds an index of every file in the workspace, " * 6 + "once."
    (signal,) = [s for s in _signals(text, "en") if s["ruleId"] == "long-sentences"]
    assert signal["start"] == 0
    assert TextIndex(text, "en").context(signal["start"], signal["end"])["inCode"] is False


def _flags(bits: int) -> dict[str, bool]:
    return {"inCode": bool(bits & 1), "inQuote": bool(bits & 2), "negated": bool(bits & 4)}


@settings(max_examples=300, deadline=None)
@given(_MARKDOWN_TEXTS, st.sampled_from(LANGUAGES), st.booleans(), st.data())
def test_context_of_any_span_of_the_prose_or_code_is_the_scanners_flags_there(
    text: str, language: str, in_code: bool, data: st.DataObject
) -> None:
    # Every span of the scanned texts that a hit could cover (one block, no block end in it),
    # mapped back to the source, gets the flags the scanner's ProseContext gives it there.
    view = read_prose(text)
    scanned, text_map = (view.code_text, view.code_map) if in_code else (view.text, view.prose_map)
    starts = [offset for offset, char in enumerate(scanned) if char != "\n"]
    assume(starts)
    start = data.draw(st.sampled_from(starts))
    block_end = scanned.find("\n", start)
    end = data.draw(st.integers(start, len(scanned) if block_end < 0 else block_end))
    source_start, source_end = text_map.source_span(start, end)
    expected = ProseContext(scanned, language).flags(start, end) | (1 if in_code else 0)
    assert TextIndex(text, language).context(source_start, source_end) == _flags(expected)


@settings(max_examples=200, deadline=None)
@given(_MARKDOWN_TEXTS, st.data())
def test_spans_are_found_in_a_view_as_a_segment_by_segment_walk_finds_them(text: str, data: st.DataObject) -> None:
    from writing_rules.tools._text_index import _text_span, _text_span_scan

    view = read_prose(text)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    for scanned, text_map in ((view.text, view.prose_map), (view.code_text, view.code_map)):
        assert text_map.keeps_order()
        found = _text_span(text_map, len(scanned), start, end)
        assert found == _text_span_scan(text_map, len(scanned), start, end)
        first, last, at = found
        assert 0 <= first <= last <= len(scanned)
        assert at == (text_map.source_start(first) if first < len(scanned) else -1)
