"""The store contract on every shipped store, and what is particular to each."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import stat
from pathlib import Path

import pytest

from writing_rules.documents import (
    DirectoryDocumentStore,
    Document,
    DocumentExistsError,
    DocumentNotFoundError,
    DocumentStore,
    DocumentStoreError,
    DocumentUnreadableError,
    DocumentWriteError,
    InvalidDocumentArgumentsError,
    VersionConflictError,
)

# --- the contract, on every store ---


def test_every_store_is_a_document_store(store: object) -> None:
    assert isinstance(store, DocumentStore)


def test_create_then_read(store: DocumentStore) -> None:
    assert store.create("notes/a.md", "hello\n") == "notes/a.md"
    document = store.read("notes/a.md")
    assert isinstance(document, Document)
    assert (document.id, document.content) == ("notes/a.md", "hello\n")
    assert isinstance(document.version, str) and document.version
    with pytest.raises(dataclasses.FrozenInstanceError):
        document.content = "x"  # type: ignore[misc]


def test_create_refuses_an_existing_id(store: DocumentStore) -> None:
    store.create("a.md", "one")
    with pytest.raises(DocumentExistsError) as caught:
        store.create("a.md", "two")
    assert caught.value.code == "document-exists"
    assert store.read("a.md").content == "one"


def test_reading_or_writing_a_missing_document_fails(store: DocumentStore) -> None:
    with pytest.raises(DocumentNotFoundError) as caught:
        store.read("missing.md")
    assert caught.value.code == "document-not-found"
    with pytest.raises(DocumentNotFoundError):
        store.write("missing.md", "x")


def test_write_with_the_current_version_replaces_the_content(store: DocumentStore) -> None:
    store.create("a.md", "one")
    before = store.read("a.md")
    version = store.write("a.md", "two", before.version)
    after = store.read("a.md")
    assert (after.content, after.version) == ("two", version)
    assert version != before.version


def test_a_stale_version_is_a_conflict_and_changes_nothing(store: DocumentStore) -> None:
    store.create("a.md", "one")
    stale = store.read("a.md").version
    store.write("a.md", "two", stale)
    current = store.read("a.md")
    with pytest.raises(VersionConflictError) as caught:
        store.write("a.md", "three", stale)
    assert caught.value.code == "version-conflict"
    assert caught.value.current_version == current.version
    assert store.read("a.md") == current


def test_write_without_a_version_still_writes(store: DocumentStore) -> None:
    store.create("a.md", "one")
    store.write("a.md", "two")
    assert store.read("a.md").content == "two"


@pytest.mark.parametrize("bad", ["", "\ud800x", "a\x00b"])
def test_ids_that_are_not_text_are_refused(store: DocumentStore, bad: str) -> None:
    with pytest.raises(InvalidDocumentArgumentsError) as caught:
        store.read(bad)
    assert caught.value.code == "invalid-arguments"


def test_content_that_is_not_unicode_is_refused(store: DocumentStore) -> None:
    store.create("a.md", "one")
    with pytest.raises(InvalidDocumentArgumentsError):
        store.write("a.md", "bad \ud800")
    assert store.read("a.md").content == "one"


def test_unicode_content_round_trips(store: DocumentStore) -> None:
    text = "Grüße 👋\r\nzweite Zeile\u2028 und NUL-frei\n"
    store.create("u.md", text)
    assert store.read("u.md").content == text


# --- DirectoryDocumentStore ---


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "guide.md").write_bytes(b"Guide\n")
    return root


@pytest.mark.parametrize("bad", ["../outside.md", "/etc/passwd", "a/../guide.md", "./guide.md", "a//b.md", "a/"])
def test_directory_refuses_paths_that_leave_or_bend_the_root(folder: Path, bad: str) -> None:
    (folder.parent / "outside.md").write_text("secret")
    store = DirectoryDocumentStore(folder)
    for call in (lambda: store.read(bad), lambda: store.write(bad, "x"), lambda: store.create(bad, "x")):
        with pytest.raises(InvalidDocumentArgumentsError):
            call()
    assert (folder.parent / "outside.md").read_text() == "secret"


def test_directory_refuses_a_symlink_out_for_reads_and_writes(folder: Path) -> None:
    outside = folder.parent / "outside.md"
    outside.write_text("secret")
    (folder / "link.md").symlink_to(outside)
    (folder / "linkdir").symlink_to(folder.parent)
    store = DirectoryDocumentStore(folder)
    for id in ("link.md", "linkdir/outside.md"):
        with pytest.raises(InvalidDocumentArgumentsError):
            store.read(id)
        with pytest.raises(InvalidDocumentArgumentsError):
            store.write(id, "overwritten")
    assert outside.read_text() == "secret"


def test_directory_follows_a_symlink_that_stays_inside(folder: Path) -> None:
    (folder / "alias.md").symlink_to(folder / "guide.md")
    store = DirectoryDocumentStore(folder)
    store.write("alias.md", "New guide\n")
    assert (folder / "guide.md").read_text() == "New guide\n"
    assert (folder / "alias.md").is_symlink()


def test_directory_version_is_the_sha256_of_the_bytes(folder: Path) -> None:
    store = DirectoryDocumentStore(folder)
    assert store.read("guide.md").version == hashlib.sha256(b"Guide\n").hexdigest()


def test_directory_keeps_a_bom_out_of_the_content_and_in_the_file(folder: Path) -> None:
    (folder / "bom.md").write_bytes(b"\xef\xbb\xbfTitel\n")
    store = DirectoryDocumentStore(folder)
    document = store.read("bom.md")
    assert document.content == "Titel\n"
    assert document.version == hashlib.sha256(b"\xef\xbb\xbfTitel\n").hexdigest()
    store.write("bom.md", "Neu\n", document.version)
    assert (folder / "bom.md").read_bytes() == b"\xef\xbb\xbfNeu\n"


def test_directory_keeps_crlf_files_crlf(folder: Path) -> None:
    (folder / "win.txt").write_bytes(b"a\r\nb\r\n")
    store = DirectoryDocumentStore(folder)
    store.write("win.txt", "a\nb\nc\n")
    assert (folder / "win.txt").read_bytes() == b"a\r\nb\r\nc\r\n"


def test_directory_refuses_files_that_are_not_utf8_and_never_writes_them(folder: Path) -> None:
    (folder / "latin1.txt").write_bytes("Größe".encode("latin-1"))
    store = DirectoryDocumentStore(folder)
    with pytest.raises(DocumentUnreadableError) as caught:
        store.read("latin1.txt")
    assert caught.value.code == "document-unreadable"
    assert "UTF-8" in caught.value.message
    with pytest.raises(DocumentUnreadableError):
        store.write("latin1.txt", "x")
    assert (folder / "latin1.txt").read_bytes() == "Größe".encode("latin-1")


def test_directory_refuses_what_is_not_a_regular_file(folder: Path) -> None:
    (folder / "sub.md").mkdir()
    os.mkfifo(folder / "pipe.md")
    store = DirectoryDocumentStore(folder)
    for id in ("sub.md", "pipe.md"):
        with pytest.raises(DocumentUnreadableError):
            store.read(id)
        with pytest.raises(DocumentUnreadableError):
            store.write(id, "x")


def test_directory_writes_leave_no_temporary_files_and_keep_the_mode(folder: Path) -> None:
    os.chmod(folder / "guide.md", 0o640)
    store = DirectoryDocumentStore(folder)
    store.write("guide.md", "changed\n")
    assert sorted(os.listdir(folder)) == ["guide.md"]
    assert stat.S_IMODE(os.stat(folder / "guide.md").st_mode) == 0o640


def test_a_failed_rename_leaves_the_file_as_it_was(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = DirectoryDocumentStore(folder)

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(DocumentWriteError) as caught:
        store.write("guide.md", "changed\n")
    assert isinstance(caught.value, DocumentStoreError)
    assert (folder / "guide.md").read_bytes() == b"Guide\n"
    assert sorted(os.listdir(folder)) == ["guide.md"]


def test_directory_create_makes_folders_inside_the_root(folder: Path) -> None:
    store = DirectoryDocumentStore(folder)
    store.create("new/deep/page.md", "x")
    assert (folder / "new" / "deep" / "page.md").read_text() == "x"


@pytest.mark.parametrize("root", ["/nonexistent/writing-rules-root", 42])
def test_directory_root_must_be_a_folder(root: object) -> None:
    with pytest.raises((ValueError, TypeError)):
        DirectoryDocumentStore(root)  # type: ignore[arg-type]
