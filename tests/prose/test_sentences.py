"""Sentences of the prose view and their visible words (what ``long-sentences`` counts)."""

from __future__ import annotations

import re
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules.prose import (
    CODE_PLACEHOLDER,
    Sentence,
    _sentences,
    iter_sentences,
    long_sentences,
    read_prose,
    sentences,
)


def split(source: str, language: str = "en", markup: str = "markdown") -> list[tuple[str, int]]:
    """(prose text, words) of each sentence of ``source`` read as ``markup``."""
    view = read_prose(source, markup)
    return [(view.text[s.start : s.end], s.words) for s in sentences(view.text, language)]


def words(source: str, language: str = "en") -> list[int]:
    return [count for _, count in split(source, language)]


# --- where a sentence ends ----------------------------------------------------------------------


def test_a_sentence_ends_at_a_period_question_or_exclamation_mark_before_a_capital() -> None:
    assert split("It runs. Does it stop? Yes! Then it ends.") == [
        ("It runs.", 2),
        ("Does it stop?", 3),
        ("Yes!", 1),
        ("Then it ends.", 3),
    ]


def test_english_abbreviations_do_not_end_a_sentence() -> None:
    text = "Use a tool, e.g. Vite or i.e. Webpack, as Dr. Smith and Mr. Jones said vs. Mrs. Lee. Next one."
    assert [t for t, _ in split(text)] == [text[: text.index(" Next")], "Next one."]


def test_ref_is_a_word_that_ends_a_sentence() -> None:
    # Vue's docs: "ref" is an API term, not the abbreviation of "reference".
    text = "Some functions also return refs. However, the compiler cannot know it returns a ref. In such cases, use it."
    assert [t for t, _ in split(text)] == [
        "Some functions also return refs.",
        "However, the compiler cannot know it returns a ref.",
        "In such cases, use it.",
    ]


def test_german_abbreviations_and_ordinals_do_not_end_a_sentence() -> None:
    text = "Das gilt z. B. für Listen, bzw. für Tabellen, d. h. ab dem 3. Oktober, vgl. Abs. 120. Danach nicht."
    assert [t for t, _ in split(text, "de")] == [text[: text.index(" Danach")], "Danach nicht."]


def test_an_ordinal_is_german_only() -> None:
    assert len(split("Wir starten am 3. Oktober.", "de")) == 1
    assert len(split("Choose option 3. Then save.", "en")) == 2
    # After a noun the number ends the sentence: an ordinal follows an article or a preposition.
    assert len(split("Der Vorschlag erreichte die Stufe 3. Darüber hinaus fehlt etwas.", "de")) == 2
    # An ordinal leads a word; before a quotation mark or a code span the number ends the sentence.
    assert len(split('Die Zahl der Links steht auf 2. "`..`" verweist auf das Elternverzeichnis.', "de")) == 2
    assert len(split("Der Zähler steht auf 2. `ls -a` zeigt beide Einträge.", "de")) == 2
    assert len(split("Das gilt ab dem 2. **Schritt** der Anleitung.", "de")) == 1


def test_decimals_versions_and_file_names_do_not_end_a_sentence() -> None:
    assert words("Version 1.2.3 costs 4.50 euros in config.yaml now.") == [8]


def test_a_lower_case_word_after_a_period_or_ellipsis_continues_the_sentence() -> None:
    assert words("Apples, pears etc. are fruit... and so on. Next.") == [8, 1]
    assert words("Wait… Then go.") == [1, 2]


def test_a_lower_case_name_after_a_longer_word_starts_a_sentence() -> None:
    assert words("Install it with the package manager. npm installs packages. iOS apps differ.") == [6, 3, 3]
    assert words("powerful tool. powerful tool.") == [2, 2]


def test_closing_quotes_and_brackets_stay_with_their_sentence() -> None:
    assert split('He said "stop." (It stopped.) Then it ran.') == [
        ('He said "stop."', 3),
        ("(It stopped.)", 2),
        ("Then it ran.", 3),
    ]


def test_two_sentences_glued_where_emphasis_was_removed_are_two() -> None:
    assert split("It ends here.Next sentence here.") == [("It ends here.", 3), ("Next sentence here.", 3)]
    assert words("**This is bold.**Next sentence here.") == [3, 3]
    assert words("Open config.yaml and app.vue in v1.2.3 now.") == [7]


def test_a_sentence_never_runs_across_blocks() -> None:
    source = "# Title words here\n\nA paragraph without end\n\n- item one\n- item two\n\n"
    source += "| a cell | b cell |\n|---|---|\n"
    assert split(source) == [
        ("Title words here", 3),
        ("A paragraph without end", 4),
        ("item one", 2),
        ("item two", 2),
        ("a cell", 2),
        ("b cell", 2),
    ]


# --- what counts as a word ----------------------------------------------------------------------


def test_a_hard_wrapped_paragraph_is_one_sentence() -> None:
    source = "one two three\nfour five six\n> seven\n"
    assert words(source) == [6, 1]
    assert words("one two three\nfour five six seven.\n") == [7]


def test_a_code_span_is_one_word() -> None:
    ((text, count),) = split("Run `npm run build -- --mode production --watch` to build.")
    assert count == 4
    assert CODE_PLACEHOLDER in text


def test_link_text_counts_and_a_url_does_not() -> None:
    assert words("Read [the guide to routing](https://example.com/a/b/c?d=e) first.") == [6]
    assert words("Read <https://example.com/a/b/c> first.") == [2]
    assert words("Read https://example.com/a/b/c first.", "en") == [2]
    # Plain text keeps URLs as text: the counter still gives them no word.
    assert words("Read www.example.com/a first.") == [2]
    assert [count for _, count in split("Read https://example.com/a first.", markup="text")] == [2]


def test_punctuation_alone_is_no_word() -> None:
    assert words("Fast – and safe / simple & small.") == [5]


def test_unicode_letters_and_digits_count() -> None:
    assert words("Größe ändern, Ölfass öffnen: 3 Schritte.", "de") == [6]
    assert words("Привет мир, это тест. Ещё раз.", "en") == [4, 2]


def test_empty_and_blank_texts_have_no_sentences() -> None:
    assert sentences("", "en") == ()
    assert sentences("\n\n \n", "de") == ()
    assert sentences("…", "de") == (Sentence(0, 1, 0, 1),)


def test_characters_leave_urls_out() -> None:
    view = read_prose("See https://example.com/x now.", "text")
    (sentence,) = sentences(view.text, "en")
    assert sentence.words == 2
    assert sentence.characters == len("See  now.")


# --- long sentences -----------------------------------------------------------------------------


def test_long_sentences_counts_words_or_characters() -> None:
    text = " ".join(["word"] * 41) + ". Short one."
    assert long_sentences(text, "en", 40, None) == [(0, text.index(" Short"))]
    assert long_sentences(text, "en", 41, None) == []
    assert long_sentences(text, "en", None, 200) == [(0, text.index(" Short"))]


def test_min_clauses_keeps_only_long_sentences_that_chain_clauses() -> None:
    # Issue 28: over the word limit, one statement is left out and a chain of clauses is kept.
    straight = " ".join(["word"] * 12) + "."
    chained = "If you ask, " + " ".join(["word"] * 6) + " because " + " ".join(["word"] * 4) + "."
    text = f"{straight} {chained}"
    both = long_sentences(text, "en", 10, None)
    assert len(both) == 2
    assert long_sentences(text, "en", 10, None, min_clauses=3) == [both[1]]
    assert long_sentences(text, "en", 10, None, min_clauses=4) == []
    assert long_sentences(text, "en", None, None) == []


def test_a_sentence_that_is_one_quotation_is_left_out() -> None:
    body = " ".join(["word"] * 41)
    assert long_sentences(f'"{body}."', "en", 40, None) == []
    assert long_sentences(f"„{body}.“", "de", 40, None) == []
    assert long_sentences(f'"Quoted" then {body}.', "en", 40, None) != []


# --- properties ---------------------------------------------------------------------------------

_TEXTS = st.lists(
    st.sampled_from([*"ab Zé.!?…\n\"'”„“»«()`[]-:z.B", " e.g. ", " z. B. ", " 3. ", CODE_PLACEHOLDER]),
    max_size=150,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(_TEXTS, st.text(max_size=200)), language=st.sampled_from(["en", "de", "fr"]))
def test_sentences_never_fail_and_stay_inside_their_block(text: str, language: str) -> None:
    found = sentences(text, language)
    previous_end = 0
    for sentence in found:
        assert previous_end <= sentence.start < sentence.end <= len(text)
        piece = text[sentence.start : sentence.end]
        assert "\n" not in piece
        assert piece == piece.strip()
        assert 0 <= sentence.words <= len(piece.split())
        assert 0 <= sentence.characters <= len(piece)
        previous_end = sentence.end
    # Every non-space character of the text is in exactly one sentence.
    covered = "".join(text[s.start : s.end] for s in found)
    assert "".join(covered.split()) == "".join(text.split())


@settings(max_examples=200, deadline=None)
@given(
    source=st.lists(
        st.sampled_from([*"ab Zé.!?\n*_`[]()#>-|", "https://x.y/z ", "e.g. ", "\n\n", "```\n"]),
        max_size=150,
    ).map("".join),
    language=st.sampled_from(["en", "de"]),
)
def test_long_sentence_spans_map_to_their_sentence_in_the_source(source: str, language: str) -> None:
    view = read_prose(source, "markdown")
    for start, end in long_sentences(view.text, language, 3, None):
        source_start, source_end = view.source_span(start, end)
        assert 0 <= source_start < source_end <= len(source)
        # The source span holds the sentence's first and last visible characters.
        sentence = view.text[start:end]
        assert source[source_start:source_end].startswith(sentence[0]) or sentence[0] == CODE_PLACEHOLDER
        assert source[source_start:source_end].endswith(sentence[-1]) or sentence[-1] == CODE_PLACEHOLDER


# Words and sentence ends of every kind: periods that end a sentence whatever follows and
# those that may not (abbreviations, "etc. and", ordinals, glued sentences), closing marks,
# and white space other than plain spaces (what cutting a text at its sure ends relies on).
_PROSE = st.lists(
    st.sampled_from(
        [
            *' \n\t\xa0\u2003!?…"„“”)-',
            " word",
            " words.",
            " Words.",
            " approx.",
            " PROX.",
            " einschl.",
            " Abs.",
            " etc. and",
            " e.g.",
            " z. B.",
            " am 3. Oktober",
            " done.) ",
            " done.”",
            " done.Next",
            " — ",
            " -> ",
            " https://x.y/z.",
            " ACME Inc.",
            " Foo INC.",
            " & Co.",
            " The",
            " I",
            " KG",
            CODE_PLACEHOLDER,
        ]
    ),
    max_size=250,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(
    text=st.one_of(_TEXTS, _PROSE, st.text(max_size=200)),
    language=st.sampled_from(["en", "de", "fr"]),
    max_words=st.one_of(st.none(), st.integers(0, 40)),
    max_chars=st.one_of(st.none(), st.integers(0, 60)),
)
def test_asking_for_long_sentences_only_finds_exactly_the_long_ones(
    text: str, language: str, max_words: int | None, max_chars: int | None
) -> None:
    # The shortcut that skips measuring short sentences must not change which are long.
    limits = (max_words, max_chars)
    every = [sentence for sentence in iter_sentences(text, language) if sentence.longer_than(*limits)]
    assert list(iter_sentences(text, language, longer_than=limits)) == every
    every = [sentence for sentence in iter_sentences(text, language) if sentence.longer_than(max_words, None)]
    assert list(iter_sentences(text, language, longer_than=(max_words, None))) == every


# Plain spaces only, so that the shortcut reads every stretch itself: sentence marks inside a
# stretch ("!", "?", an ellipsis, a period that ends no sentence) and at its end, with and
# without closing marks.
_PLAIN_SPACED = st.lists(
    st.sampled_from(
        [
            *"!?….)”\n",
            " word",
            " Word",
            " words.",
            " Words.",
            " word! Word",
            " word? Word",
            " word… Word",
            " word… and",
            " etc. and",
            " e.g.",
            " z. B.",
            " am 3. Oktober",
            " done.) ",
            " done.Next",
            " -> ",
            " ACME Inc.",
            " Foo INC.",
            " & Co.",
            " The",
            " We",
            " KG",
        ]
    ),
    max_size=80,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=_PLAIN_SPACED, language=st.sampled_from(["en", "de"]), max_words=st.integers(0, 12))
def test_a_stretch_of_plain_spaces_has_the_long_sentences_a_full_reading_finds(
    text: str, language: str, max_words: int
) -> None:
    every = [sentence for sentence in iter_sentences(text, language) if sentence.longer_than(max_words, None)]
    assert list(iter_sentences(text, language, longer_than=(max_words, None))) == every


@settings(max_examples=300, deadline=None)
@given(
    text=st.lists(st.one_of(_TEXTS, _PROSE), max_size=8).map("\n".join),
    language=st.sampled_from(["en", "de", "fr"]),
    max_words=st.integers(0, 40),
    window=st.integers(1, 64),
)
def test_a_text_read_a_window_of_blocks_at_a_time_has_the_same_long_sentences(
    text: str, language: str, max_words: int, window: int
) -> None:
    # A long page is cut into windows of whole blocks (so no copy of the whole page is
    # held); any window size finds what reading the text in one piece finds.
    every = [sentence for sentence in iter_sentences(text, language) if sentence.longer_than(max_words, None)]
    with patch.object(_sentences, "_WINDOW", window):
        assert list(iter_sentences(text, language, longer_than=(max_words, None))) == every


def test_every_white_space_character_separates_the_words_of_a_long_sentence() -> None:
    # Finding the sentences that may be long counts white space in C: not plain spaces alone.
    for space in (char for char in map(chr, range(0x110000)) if char.isspace() and char != "\n"):
        text = "Short one here. " + space.join(["word"] * 31) + "."
        (sentence,) = iter_sentences(text, "de", longer_than=(30, None))
        assert (sentence.start, sentence.words) == (text.index("word"), 31)


_URL = re.compile(r"[<(\[\"'“„«»]*(?:[A-Za-z][A-Za-z0-9+.-]*://|www\.|mailto:)")


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(_TEXTS, _PROSE, st.text(max_size=200)), language=st.sampled_from(["en", "de"]))
def test_words_are_the_tokens_with_a_letter_digit_or_code_span_that_are_no_url(text: str, language: str) -> None:
    # A reference for the counting done in C: token by token.
    for sentence in sentences(text, language):
        tokens = text[sentence.start : sentence.end].split()
        assert sentence.words == sum(
            1
            for token in tokens
            if not _URL.match(token) and any(char.isalnum() or char == CODE_PLACEHOLDER for char in token)
        )
        urls = sum(len(token) for token in tokens if _URL.match(token))
        assert sentence.characters == sentence.end - sentence.start - urls


def test_table_cells_are_marked_in_the_view() -> None:
    view = read_prose("Text | with a pipe.\n\n| a cell | b |\n|---|---|\n| c | d |\n", "markdown")
    cells = [view.text[start:end] for start, end in view.table_spans]
    assert cells == ["a cell", "b", "c", "d"]
    assert view.in_table(view.text.index("a cell")) and not view.in_table(0)


@pytest.mark.parametrize(
    "text",
    [
        "a. " * 80_000,
        "z. B. 3. " * 30_000,
        "-" * 250_000,
        "x" + "Ab." * 80_000,
        ".*" * 120_000,
        "a" + " " * 250_000 + ".",
        "https://" + "a.B" * 80_000,
        " " * 250_000 + "a",
        "word " * 50_000,
        "Wort. " * 40_000,
        "done.) " * 35_000,
    ],
)
def test_hostile_texts_are_split_and_keep_every_character(text: str) -> None:
    found = sentences(text, "de")
    assert "".join(text[s.start : s.end] for s in found).replace(" ", "") == text.replace(" ", "")
    long = [sentence for sentence in found if sentence.words > 30]
    assert list(iter_sentences(text, "de", longer_than=(30, None))) == long


# --- one letter before a period (issue 28) --------------------------------------------------------


def test_a_one_letter_word_before_a_period_ends_the_sentence() -> None:
    # "class C. This …" on real trees: the letter is a name, not an initial.
    assert [t for t, _ in split("Define a class C. This class holds the state.")] == [
        "Define a class C.",
        "This class holds the state.",
    ]
    assert len(split("Read the value of x. Then print it.")) == 2
    assert len(split("Nimm die Variable x. Dann gib sie aus.", "de")) == 2


def test_an_acronym_spelt_like_an_abbreviation_ends_the_sentence() -> None:
    # Debian Handbook (round 5): "CA" (certificate authority) is no "ca." (circa); an acronym
    # in capitals before a period and a capital ends its sentence.
    text = "Clients trust certificates coming from the local CA. This CA is the first certificate to create."
    assert [t for t, _ in split(text)] == [
        "Clients trust certificates coming from the local CA.",
        "This CA is the first certificate to create.",
    ]
    assert len(split("Das Zertifikat kommt von der lokalen CA. Diese CA wird zuerst erstellt.", "de")) == 2
    assert len(split("Ask the admins at ST. Then read the NO. Next steps follow.")) == 3


def test_an_abbreviation_in_capitals_before_a_number_or_a_word_in_capitals_does_not_end_a_sentence() -> None:
    # Only a capital opening a lower-case word ("CA. This") marks an acronym's sentence end: an
    # abbreviation in capitals before a number ("NO. 5", "FIG. 3", "NR. 5", "CA. 30") or in a line
    # written in capitals ("DR. SMITH", "ST. LOUIS", "GGF. AUCH") is still an abbreviation.
    assert len(split("SEE FIG. 3 FOR DETAILS. NEXT.")) == 2
    assert len(split("CALL NO. 5 NOW.")) == 1
    assert len(split("DR. SMITH IS HERE. VISIT ST. LOUIS TODAY.")) == 2
    assert len(split("HINWEIS: NR. 5 BEACHTEN. SIEHE ABS. 3 UND ART. 5.", "de")) == 2
    assert len(split("Das dauert CA. 30 Minuten und GILT GGF. AUCH HIER.", "de")) == 1


def test_abbreviations_written_with_a_capital_still_do_not_end_a_sentence() -> None:
    assert len(split("See No. 5 and Fig. 3 as Dr. Smith said. Next.")) == 2
    assert len(split("Ca. 30 Minuten dauert es. Danach nicht.", "de")) == 2


def test_initials_and_one_letter_abbreviations_still_do_not_end_a_sentence() -> None:
    text = "The books of J. R. R. Tolkien and of George R. Martin are long. Next."
    assert [t for t, _ in split(text)][-1] == "Next."
    assert len(split(text)) == 2
    assert len(split("Das gilt z. B. für Listen, d. h. Tabellen, u. a. Arrays. Danach nicht.", "de")) == 2
    assert len(split("Geschrieben von J. Müller und K. Schmidt. Danach nicht.", "de")) == 2


def test_a_company_s_legal_form_ends_a_sentence_only_before_a_word_that_opens_sentences() -> None:
    # "Inc.", "Ltd.", "Corp.", "Co.", "LLC.", "plc." follow a company's name in any case; before
    # a capitalised word they end the sentence when that word opens sentences ("The", "We",
    # "Their"), and not before another word ("ACME INC. Products", a name, a word in capitals).
    def texts(text: str, language: str = "en") -> list[str]:
        return [part for part, _ in split(text, language)]

    assert texts("ACME INC. Products are shipped.") == ["ACME INC. Products are shipped."]
    assert texts("ACME Inc. Products are shipped.") == ["ACME Inc. Products are shipped."]
    assert texts("We bought it from ACME Inc. The price was low.") == [
        "We bought it from ACME Inc.",
        "The price was low.",
    ]
    assert len(split("We bought it from ACME INC. The price was low.")) == 2
    assert len(split("It is made by Example Ltd. We sell it at Acme Corp. Their staff is kind.")) == 3
    assert len(split("Apple Inc. CEO Tim Cook spoke. Call Foo LLC. It answers.")) == 3
    assert len(split("The Smith & Co. Store opened in 2020 and Foo Inc. 2024 reports were out.")) == 1
    assert len(split("It came from inc. The end.")) == 2
    # German writes every noun with a capital: there "Co." ends a sentence before any capitalised
    # word and continues before a legal form in capitals ("GmbH & Co. KG").
    assert texts("Die Müller GmbH & Co. KG liefert das Paket.", "de") == ["Die Müller GmbH & Co. KG liefert das Paket."]
    assert len(split("Wir kaufen bei Müller & Co. Die Preise sind gut.", "de")) == 2
    assert len(split("Wir kaufen bei Müller & Co. Preise nennt sie nicht.", "de")) == 2


def test_a_legal_form_ends_a_sentence_before_a_one_letter_opener() -> None:
    # "I" and "A" open sentences as often as "The" and "We" do; a one-letter word is capitalised
    # by its capital alone, so "ACME Inc. I liked it." is two sentences, as "ACME Inc. We …" is.
    assert len(split("We bought it from ACME Inc. I liked it a lot.")) == 2
    assert len(split("We bought it from ACME Inc. A new version is out.")) == 2
    assert len(split("We bought it from ACME Inc. I'm glad we did.")) == 2
    # A word in capitals still continues the sentence ("Inc. AI products", "Co. KG").
    assert len(split("We bought it from ACME Inc. AI products are shipped.")) == 1
