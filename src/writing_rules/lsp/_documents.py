"""The open documents, as the editor sent them; the server never reads a document from disk.

pygls' own workspace is not used for text documents: it keys them by the
unescaped URI (so a lookup by the client's escaped URI missed), reads a URI it
does not hold from disk (a FIFO hung the server), and applies each incremental
edit at a cost that grows with the line in Python code (seconds per keystroke
on a one-line document of megabytes), before any size check could refuse it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import unquote

from lsprotocol import types

from ._positions import LineIndex

__all__ = ["OpenDocument", "OpenDocuments", "document_key"]

_DRIVE = re.compile(r"^///([A-Za-z]):")


def document_key(uri: str) -> str:
    """One key per document however the client spells its URI: escapes decoded, the scheme and a
    Windows drive letter in lower case (``file:///c%3A/a%20b.md`` is ``file:///C:/a b.md``)."""
    scheme, colon, rest = uri.partition(":")
    if not colon:
        return unquote(uri, errors="surrogateescape")
    scheme = scheme.lower()
    rest = unquote(rest, errors="surrogateescape")
    if scheme == "file":
        rest = _DRIVE.sub(lambda found: f"///{found.group(1).lower()}:", rest)
    return f"{scheme}:{rest}"


@dataclass
class OpenDocument:
    """One open document. ``text`` is None while it is over the size limit: refused, not kept."""

    uri: str  # as the client spelled it when it opened the document: diagnostics and edits use it
    version: int | None
    text: str | None
    size: int  # characters of the last text received (of the refused text, while refused)


def _offset(index: LineIndex, position: types.Position) -> int:
    """A position in the current text; one past the last line means the end (as pygls read it)."""
    if position.line >= index.line_count:
        return len(index.text)
    return index.offset(position.line, position.character)


class _Batch:
    """The text while one notification's changes are applied: ``base[:cut]`` and then ``tail``
    (pieces, last first), so a change before every earlier one costs no copy of the text.

    Editors send a multi-cursor edit as one change per cursor, the last place first: each
    change's positions then lie in the text before the first place changed, where the text,
    its lines and their UTF-16 units are still those of ``base``, so one line index serves
    them all. A change anywhere else indexes the text as it now is (linear, as before).
    """

    def __init__(self, text: str) -> None:
        self._start(text)

    def _start(self, text: str) -> None:
        self.base = text
        self.cut = len(text)  # base[:cut] is the text up to the first place changed
        self.tail: list[str] = []
        self.tail_size = 0
        self.index: LineIndex | None = None

    @property
    def size(self) -> int:
        return self.cut + self.tail_size

    def text(self) -> str:
        if not self.tail:  # nothing changed yet: cut is still the end of base
            return self.base
        return self.base[: self.cut] + "".join(reversed(self.tail))

    def _offsets(self, change: types.TextDocumentContentChangePartial) -> tuple[int, int] | None:
        if self.index is None:
            self.index = LineIndex(self.base)
        start, end = sorted((_offset(self.index, change.range.start), _offset(self.index, change.range.end)))
        # Strictly before the first place changed: a line break there may have changed (a CR
        # followed by an inserted LF), so a position at the cut is read in the new text.
        if self.tail and end >= self.cut:
            return None
        return start, end

    def apply(self, change: types.TextDocumentContentChangePartial) -> None:
        found = self._offsets(change)
        if found is None:  # not before every earlier change: index the text as it now is
            self._start(self.text())
            found = self._offsets(change)
            assert found is not None
        start, end = found
        kept = self.base[end : self.cut]
        self.tail += (kept, change.text)
        self.tail_size += len(kept) + len(change.text)
        self.cut = start


class OpenDocuments:
    """The documents the client opened, each refused while over ``max_characters``."""

    def __init__(self, max_characters: int) -> None:
        self.max_characters = max_characters
        self._documents: dict[str, OpenDocument] = {}

    def get(self, uri: str) -> OpenDocument | None:
        return self._documents.get(document_key(uri))

    def open(self, uri: str, version: int | None, text: str) -> OpenDocument:
        refused = len(text) > self.max_characters
        document = OpenDocument(uri, version, None if refused else text, len(text))
        self._documents[document_key(uri)] = document
        return document

    def close(self, uri: str) -> OpenDocument | None:
        return self._documents.pop(document_key(uri), None)

    def all(self) -> list[OpenDocument]:
        """Every open document, in the order they were opened."""
        return list(self._documents.values())

    def change(
        self, uri: str, version: int | None, changes: Sequence[types.TextDocumentContentChangeEvent]
    ) -> OpenDocument | None:
        """Apply ``changes`` in order; None for a document that is not open.

        A refused document ignores range edits (there is no text to apply them to) until a
        whole-content change brings it under the limit; a change that takes a document over
        the limit refuses it.
        """
        document = self._documents.get(document_key(uri))
        if document is None:
            return None
        document.version = version
        batch = None if document.text is None else _Batch(document.text)
        for change in changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                if batch is None:
                    continue  # refused: only a whole new text can bring it back
                batch.apply(change)
            else:
                batch = _Batch(change.text)
            document.size = batch.size
            if document.size > self.max_characters:
                batch = None
        document.text = None if batch is None else batch.text()
        return document
