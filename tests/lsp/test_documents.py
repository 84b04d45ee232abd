"""The server's own store of open documents: URI spellings, edits, the size limit."""

from __future__ import annotations

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("pygls", reason="the lsp extra (pygls) is a test requirement")

from lsprotocol import types

from writing_rules.lsp._documents import OpenDocuments, document_key
from writing_rules.lsp._linting import path_of

PIECES = st.lists(st.sampled_from(["a", "b", "\n", "\r\n", "🙂", "ö"]), max_size=30).map("".join)


def partial(start: tuple[int, int], end: tuple[int, int], text: str) -> types.TextDocumentContentChangePartial:
    return types.TextDocumentContentChangePartial(
        range=types.Range(types.Position(*start), types.Position(*end)), text=text
    )


def apply_change(text: str, change: types.TextDocumentContentChangePartial) -> str:
    """``text`` after one change alone, through the server's store (one change per notification)."""
    documents = OpenDocuments(max_characters=10_000)
    documents.open("file:///tmp/one.md", 1, text)
    changed = documents.change("file:///tmp/one.md", 2, [change])
    assert changed is not None and changed.text is not None
    return changed.text


def position_of(text: str, offset: int) -> tuple[int, int]:
    """What an editor sends for ``offset``: the line, and the UTF-16 units before it in the line."""
    before = text[:offset].replace("\r\n", "\n").split("\n")
    return len(before) - 1, len(before[-1].encode("utf-16-le")) // 2


@given(PIECES, PIECES, st.data())
def test_a_range_edit_replaces_exactly_that_range(text: str, inserted: str, data: st.DataObject) -> None:
    # Offsets between characters, never inside a CRLF pair (no editor position points there).
    allowed = [at for at in range(len(text) + 1) if not (0 < at < len(text) and text[at - 1 : at + 1] == "\r\n")]
    start, end = sorted(data.draw(st.sampled_from(allowed)) for _ in range(2))
    change = partial(position_of(text, start), position_of(text, end), inserted)
    assert apply_change(text, change) == text[:start] + inserted + text[end:]


@pytest.mark.parametrize(
    "spelling",
    [
        "file:///tmp/my%20docs/K%C3%B6ln/page.md",
        "file:///tmp/my%20docs/K%c3%b6ln/page.md",
        "file:///tmp/my docs/Köln/page.md",
        "FILE:///tmp/my%20docs/K%C3%B6ln/page.md",
    ],
)
def test_every_spelling_of_a_uri_is_the_same_document(spelling: str) -> None:
    assert document_key(spelling) == document_key("file:///tmp/my docs/Köln/page.md")


@given(st.text())
def test_any_uri_has_a_key_and_a_path_or_none(uri: str) -> None:
    # A client's URI is untrusted input: no spelling may crash the lookup.
    assert isinstance(document_key(uri), str)
    path = path_of(uri)
    assert path is None or isinstance(path, str)


@pytest.mark.skipif(os.name == "nt", reason="POSIX paths")
def test_a_file_uri_is_the_local_path_with_its_escapes_decoded() -> None:
    assert path_of("file:///tmp/my%20docs/K%C3%B6ln/page.md") == "/tmp/my docs/Köln/page.md"
    assert path_of("file://localhost/tmp/a%3Ab.md") == "/tmp/a:b.md"
    assert path_of("file:///tmp/%FF.md") == os.fsdecode(b"/tmp/\xff.md")  # not UTF-8: as the OS names it
    assert path_of("file://elsewhere/tmp/page.md") is None  # never the local /tmp/page.md
    assert path_of("untitled:Untitled-1") is None


def test_a_windows_drive_letter_as_vs_code_and_others_spell_it() -> None:
    assert document_key("file:///c%3A/Users/a%20b/x.md") == document_key("file:///C:/Users/a b/x.md")


def test_an_oversized_document_keeps_no_text_until_a_whole_new_text_fits() -> None:
    documents = OpenDocuments(max_characters=10)
    uri = "file:///tmp/x.md"
    refused = documents.open(uri, 1, "x" * 11)
    assert refused.text is None and refused.size == 11
    changed = documents.change(uri, 2, [partial((0, 0), (0, 11), "")])  # no text to apply it to
    assert changed is not None and changed.text is None and changed.version == 2
    changed = documents.change(
        uri, 3, [types.TextDocumentContentChangeWholeDocument(text="short"), partial((0, 5), (0, 5), "!")]
    )
    assert changed is not None and changed.text == "short!"
    changed = documents.change(uri, 4, [partial((0, 0), (0, 0), "longer ")])  # over the limit again
    assert changed is not None and changed.text is None and changed.size == 13
    assert documents.change("file:///tmp/never-opened.md", 1, []) is None


CHANGE = st.tuples(
    st.tuples(st.integers(-1, 6), st.integers(-1, 8)), st.tuples(st.integers(-1, 6), st.integers(-1, 8)), PIECES
)


@given(PIECES, st.lists(CHANGE, max_size=8), st.booleans())
def test_a_batch_of_changes_is_each_change_applied_in_turn(text: str, changes: list, descending: bool) -> None:
    # Positions past a line's end or the last line, CRLF pairs, surrogate pairs: the batch must
    # read each change's positions in the text the changes before it made.
    if descending:  # as editors send a multi-cursor edit: the last place first
        changes = sorted(changes, key=lambda change: max(change[0], change[1]), reverse=True)
    events = [partial(start, end, inserted) for start, end, inserted in changes if min(*start, *end) >= 0]
    expected = text
    for event in events:
        expected = apply_change(expected, event)
    documents = OpenDocuments(max_characters=1_000)
    documents.open("file:///tmp/x.md", 1, text)
    changed = documents.change("file:///tmp/x.md", 2, events)
    assert changed is not None and changed.text == expected


def test_a_multi_cursor_edit_does_not_index_the_document_once_per_cursor(monkeypatch) -> None:
    # One didChange with a change per cursor, the last place first (as VS Code sends a
    # multi-cursor edit): indexing the whole document for each change made 1,000 cursors on a
    # 3.6 MB document block the server for 45 seconds.
    from writing_rules.lsp import _documents

    indexed: list[int] = []

    class CountingIndex(_documents.LineIndex):
        def __init__(self, text: str) -> None:
            indexed.append(len(text))
            super().__init__(text)

    monkeypatch.setattr(_documents, "LineIndex", CountingIndex)
    text = "word word\n" * 1_000
    documents = OpenDocuments(max_characters=100_000)
    documents.open("file:///tmp/x.md", 1, text)
    changes = [partial((line, 4), (line, 5), "-") for line in reversed(range(1_000))]
    changed = documents.change("file:///tmp/x.md", 2, changes)
    assert changed is not None and changed.text == "word-word\n" * 1_000
    assert sum(indexed) <= 2 * len(text)
