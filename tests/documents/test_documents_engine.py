"""The pure core: each operation, occurrences, ambiguity, fuzzy matching, line endings, errors."""

from __future__ import annotations

import dataclasses
import unicodedata

import pytest

from writing_rules.documents import DocumentEditError, EditResult, apply_operations, edit


def op(kind: str, **fields: object) -> dict:
    return {"operation": kind, **fields}


def fails(content: str, operations: list[dict], **options: object) -> DocumentEditError:
    with pytest.raises(DocumentEditError) as caught:
        edit(content, operations, **options)
    return caught.value


# --- each operation ---


@pytest.mark.parametrize(
    ("operation", "expected"),
    [
        (op("update", content="new"), "new"),
        (op("append", content="x"), "one two onex"),
        (op("prepend", content="x"), "xone two one"),
        (op("replaceBlock", oldBlock="two", newBlock="2"), "one 2 one"),
        (op("replaceBlock", oldBlock="one", newBlock="1", occurrence=2), "one two 1"),
        (op("insertAfter", anchor="two", content="!"), "one two! one"),
        (op("insertBefore", anchor="one", content="<", occurrence=2), "one two <one"),
        (op("deleteBlock", anchor="one "), "two one"),
        (op("deleteBlock", anchor="one", occurrence=-1), " two "),
        (op("replaceAll", anchor="one", content="1"), "1 two 1"),
        (op("replaceAll", anchor="one", content="1", occurrence=-1, fuzzyMatch=False), "1 two 1"),
    ],
)
def test_each_operation(operation: dict, expected: str) -> None:
    assert apply_operations("one two one", [operation]) == expected


def test_no_line_break_is_added_for_the_caller() -> None:
    assert apply_operations("a", [op("append", content="x")]) == "ax"
    assert apply_operations("a\n", [op("insertAfter", anchor="a", content="b")]) == "ab\n"


def test_operations_run_in_order_each_on_the_previous_result() -> None:
    result = apply_operations(
        "title\n",
        [
            op("append", content="body\n"),
            op("replaceBlock", oldBlock="body", newBlock="text"),
            op("insertBefore", anchor="text", content="more "),
        ],
    )
    assert result == "title\nmore text\n"


def test_a_failing_operation_names_its_index_and_kind() -> None:
    error = fails("abc", [op("append", content="d"), op("replaceBlock", oldBlock="zzz", newBlock="y")])
    assert (error.index, error.code, error.operation) == (1, "not-found", "replaceBlock")
    assert "Operation 1 (replaceBlock)" in error.message


def test_whole_number_float_occurrence_is_an_integer() -> None:
    assert apply_operations("a a a", [op("replaceBlock", oldBlock="a", newBlock="b", occurrence=3.0)]) == "a a b"


# --- occurrences and ambiguity ---


def test_occurrences_count_non_overlapping_matches_left_to_right() -> None:
    assert apply_operations("aaaa", [op("replaceBlock", oldBlock="aa", newBlock="X", occurrence=2)]) == "aaX"
    error = fails("aaaa", [op("replaceBlock", oldBlock="aa", newBlock="X", occurrence=3)])
    assert error.code == "occurrence-out-of-range"
    assert "occurs 2 times" in error.message


def test_an_ambiguous_match_warns_with_the_count_and_lines() -> None:
    result = edit("x\nfoo\ny\nfoo\n", [op("append", content=""), op("replaceBlock", oldBlock="foo", newBlock="bar")])
    assert result.content == "x\nbar\ny\nfoo\n"
    assert len(result.warnings) == 1
    warning = result.warnings[0]
    assert warning["index"] == 1
    assert warning["lines"] == [2, 4]
    assert "2 positions" in warning["message"]


def test_overlapping_positions_are_ambiguous_too() -> None:
    result = edit("aaa", [op("deleteBlock", anchor="aa")])
    assert result.content == "a"
    assert [warning["lines"] for warning in result.warnings] == [[1]]
    assert "2 positions" in result.warnings[0]["message"]


def test_naming_the_occurrence_or_all_removes_the_warning() -> None:
    assert edit("foo foo", [op("replaceBlock", oldBlock="foo", newBlock="x", occurrence=1)]).warnings == ()
    assert edit("foo foo", [op("deleteBlock", anchor="foo", occurrence=-1)]).warnings == ()
    assert edit("foo foo", [op("replaceAll", anchor="foo", content="x")]).warnings == ()


def test_a_unique_match_has_no_warning() -> None:
    assert edit("foo bar", [op("replaceBlock", oldBlock="foo", newBlock="x")]).warnings == ()


def test_strict_occurrence_makes_ambiguity_an_error() -> None:
    error = fails("foo\nfoo", [op("insertAfter", anchor="foo", content="!")], strict_occurrence=True)
    assert (error.code, error.index) == ("ambiguous", 0)
    assert "lines 1, 2" in error.message
    assert (
        apply_operations(
            "foo\nfoo", [op("insertAfter", anchor="foo", content="!", occurrence=2)], strict_occurrence=True
        )
        == "foo\nfoo!"
    )


@pytest.mark.parametrize(
    "operation",
    [
        op("deleteBlock", anchor="zz", occurrence=-1),
        op("replaceAll", anchor="zz", content="y"),
        op("insertAfter", anchor="zz", content="y"),
        op("deleteBlock", anchor="zz", occurrence=-1, fuzzyMatch=True),
    ],
)
def test_an_anchor_that_matches_nothing_is_an_error_for_every_operation(operation: dict) -> None:
    assert fails("abc", [operation]).code == "not-found"


# --- malformed operations ---


@pytest.mark.parametrize(
    ("operations", "index", "field"),
    [
        ([], None, ""),
        ("replaceBlock", None, ""),
        ({"operation": "append", "content": "x"}, None, ""),
        ([op("append", content="x"), 3], 1, "/1"),
        ([op("explode")], 0, "/0/operation"),
        ([{"content": "x"}], 0, "/0/operation"),
        ([op("append", content="x", anchor="y")], 0, "/0/anchor"),
        ([op("append")], 0, "/0/content"),
        ([op("append", content=None)], 0, "/0/content"),
        ([op("replaceBlock", oldBlock="", newBlock="x")], 0, "/0/oldBlock"),
        ([op("deleteBlock", anchor="")], 0, "/0/anchor"),
        ([op("replaceBlock", oldBlock="a", newBlock="b", occurrence=0)], 0, "/0/occurrence"),
        ([op("replaceBlock", oldBlock="a", newBlock="b", occurrence=-1)], 0, "/0/occurrence"),
        ([op("replaceBlock", oldBlock="a", newBlock="b", occurrence=True)], 0, "/0/occurrence"),
        ([op("replaceBlock", oldBlock="a", newBlock="b", occurrence=1.5)], 0, "/0/occurrence"),
        ([op("replaceBlock", oldBlock="a", newBlock="b", occurrence="1")], 0, "/0/occurrence"),
        ([op("deleteBlock", anchor="a", occurrence=-2)], 0, "/0/occurrence"),
        ([op("replaceAll", anchor="a", content="b", occurrence=1)], 0, "/0/occurrence"),
        ([op("replaceAll", anchor="a", content="b", fuzzyMatch=True)], 0, "/0/fuzzyMatch"),
        ([op("insertAfter", anchor="a", content="b", fuzzyMatch="yes")], 0, "/0/fuzzyMatch"),
        ([op("insertAfter", anchor=" \n\t", content="b", fuzzyMatch=True)], 0, "/0/anchor"),
        ([op("update", content="x", occurrence=1)], 0, "/0/occurrence"),
    ],
)
def test_malformed_operations_are_refused_with_a_pointer(operations: object, index: int | None, field: str) -> None:
    error = fails("a b", operations)  # type: ignore[arg-type]
    assert (error.code, error.index, error.field) == ("invalid-operation", index, field)


def test_a_malformed_later_operation_stops_earlier_ones_from_counting() -> None:
    # The whole list is checked first: a good first operation cannot mask a bad second one.
    error = fails("abc", [op("replaceBlock", oldBlock="zzz", newBlock="y"), op("append")])
    assert (error.code, error.index) == ("invalid-operation", 1)


def test_host_mistakes_are_type_errors() -> None:
    with pytest.raises(TypeError):
        edit(b"bytes", [op("append", content="x")])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        edit("a", [op("append", content="x")], strict_occurrence=1)  # type: ignore[arg-type]


def test_results_are_frozen() -> None:
    result = edit("a", [op("append", content="b")])
    assert isinstance(result, EditResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.content = "x"  # type: ignore[misc]


# --- not found: candidates ---


def test_not_found_offers_the_closest_passages_with_line_numbers() -> None:
    document = "# Setup\n\nInstall the package with pip.\nThen run the server.\n\nUnrelated closing words.\n"
    error = fails(document, [op("replaceBlock", oldBlock="Install the pakage with pipx.", newBlock="x")])
    assert error.code == "not-found"
    best = error.candidates[0]
    assert best["line"] == 3
    assert best["text"] == "Install the package with pip."
    assert 0.8 < best["similarity"] < 1
    similarities = [candidate["similarity"] for candidate in error.candidates]
    assert similarities == sorted(similarities, reverse=True)
    assert "line 3" in error.message


def test_candidates_for_a_multi_line_quote_span_as_many_lines() -> None:
    document = "".join(f"filler line number {index}\n" for index in range(200))
    document += "def main():\n    run(fast=True)\n    report()\n"
    error = fails(document, [op("deleteBlock", anchor="def main():\n    run(fast=False)\n    report()")])
    assert error.candidates[0]["line"] == 201
    assert error.candidates[0]["text"] == "def main():\n    run(fast=True)\n    report()"


def test_candidates_inside_a_long_line_are_the_passage_not_the_line() -> None:
    line = "Lorem ipsum dolor sit amet, " * 20 + "the quick brown fox jumps over the lazy dog, " + "sed do " * 30
    error = fails("intro\n" + line + "\n", [op("replaceBlock", oldBlock="the quick brown fax jumps", newBlock="x")])
    best = error.candidates[0]
    assert best["line"] == 2
    assert "quick brown fox jumps" in best["text"]
    assert len(best["text"]) < 60


def test_nothing_similar_gives_no_candidates() -> None:
    error = fails("aaaa bbbb\n", [op("replaceBlock", oldBlock="zyxwvut 12345", newBlock="x")])
    assert error.candidates == ()


def test_not_found_says_when_a_fuzzy_match_exists() -> None:
    error = fails("a\n    indented text   \nb", [op("replaceBlock", oldBlock="indented text\n", newBlock="x")])
    assert "fuzzyMatch" in error.message
    assert "line 2" in error.message


# --- fuzzy matching ---


def test_fuzzy_ignores_white_space_at_line_ends_and_covers_it() -> None:
    document = "  foo bar  \n  baz\nend\n"
    result = apply_operations(document, [op("replaceBlock", oldBlock="bar  \n baz", newBlock="X", fuzzyMatch=True)])
    assert result == "  foo X\nend\n"


def test_fuzzy_match_from_a_line_start_takes_the_indentation() -> None:
    document = "start\n    item one\n    item two\n"
    result = apply_operations(document, [op("deleteBlock", anchor="item one\n", fuzzyMatch=True)])
    assert result == "start\n    item two\n"


def test_fuzzy_match_not_ending_in_a_break_keeps_the_break() -> None:
    document = "a\n\titem\t \nb\n"
    assert (
        apply_operations(document, [op("replaceBlock", oldBlock="item", newBlock="X", fuzzyMatch=True)]) == "a\nX\nb\n"
    )


def test_fuzzy_treats_unicode_white_space_as_white_space() -> None:
    document = "\u3000title\u00a0\u2003\nrest"
    assert apply_operations(document, [op("insertAfter", anchor="title", content="!", fuzzyMatch=True)]) == (
        "\u3000title\u00a0\u2003!\nrest"
    )


def test_fuzzy_is_crlf_agnostic_both_ways() -> None:
    crlf = "one\r\ntwo\r\nthree\r\n"
    assert apply_operations(crlf, [op("deleteBlock", anchor="two\n", fuzzyMatch=True)]) == "one\r\nthree\r\n"
    lf = "one\ntwo\nthree\n"
    assert apply_operations(lf, [op("deleteBlock", anchor="one\r\ntwo\r\n", fuzzyMatch=True)]) == "three\n"


def test_fuzzy_in_a_document_with_mixed_line_breaks() -> None:
    document = "a\r\n  b  \nc\rd"
    assert apply_operations(document, [op("deleteBlock", anchor="b\n", fuzzyMatch=True)]) == "a\r\nc\rd"
    assert apply_operations(document, [op("replaceBlock", oldBlock="c\nd", newBlock="X", fuzzyMatch=True)]) == (
        "a\r\n  b  \nX"
    )


def test_fuzzy_compares_nfc_and_edits_the_original_characters() -> None:
    decomposed = unicodedata.normalize("NFD", "Größe und Maße\n")
    result = apply_operations(decomposed, [op("replaceBlock", oldBlock="Größe", newBlock="Size", fuzzyMatch=True)])
    assert result == "Size" + unicodedata.normalize("NFD", " und Maße\n")
    composed_doc = "café au lait"
    anchor = unicodedata.normalize("NFD", "café")
    assert apply_operations(composed_doc, [op("deleteBlock", anchor=anchor, fuzzyMatch=True)]) == " au lait"


def test_fuzzy_inside_a_composed_character_widens_to_the_whole_character() -> None:
    document = "xe\u0301y"  # é decomposed; NFC makes it one character
    result = apply_operations(document, [op("replaceBlock", oldBlock="\u00e9y", newBlock="Z", fuzzyMatch=True)])
    assert result == "xZ"


def test_exact_matching_is_exact() -> None:
    for anchor in ("foo \n", "foo\r\n", unicodedata.normalize("NFD", "é")):
        assert fails("foo\né\n", [op("deleteBlock", anchor=anchor)]).code == "not-found"


def test_fuzzy_delete_all_with_touching_matches_never_overlaps() -> None:
    document = "\nx  \nx\nx\n"
    result = apply_operations(document, [op("deleteBlock", anchor="\nx", occurrence=-1, fuzzyMatch=True)])
    assert result == "\n"


# --- line endings ---


@pytest.mark.parametrize(
    ("operation", "expected"),
    [
        (op("update", content="x\ny\n"), "x\r\ny\r\n"),
        (op("append", content="c\n"), "a\r\nb\r\nc\r\n"),
        (op("insertAfter", anchor="a\r\n", content="1\n2\r\n"), "a\r\n1\r\n2\r\nb\r\n"),
        (op("replaceBlock", oldBlock="b", newBlock="b\nc"), "a\r\nb\r\nc\r\n"),
        (op("replaceAll", anchor="a", content="x\ny"), "x\r\ny\r\nb\r\n"),
    ],
)
def test_a_crlf_document_stays_crlf(operation: dict, expected: str) -> None:
    assert apply_operations("a\r\nb\r\n", [operation]) == expected


def test_a_mixed_or_lf_document_takes_text_as_given() -> None:
    assert apply_operations("a\r\nb\n", [op("append", content="c\n")]) == "a\r\nb\nc\n"
    assert apply_operations("a\nb\n", [op("append", content="c\r\n")]) == "a\nb\nc\r\n"


def test_exact_anchor_with_lf_in_a_crlf_document_explains_why() -> None:
    error = fails("one\r\ntwo\r\n", [op("replaceBlock", oldBlock="one\ntwo", newBlock="x")])
    assert error.code == "not-found"
    assert "fuzzyMatch" in error.message
