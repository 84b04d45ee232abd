"""What the two database stores (SQLite, PostgreSQL) share beyond the contract: three id kinds, history, revert."""

from __future__ import annotations

import pytest
from documents_stores import DATABASE_KINDS, StoreFactory

from writing_rules.documents import (
    DocumentNotFoundError,
    DocumentStoreError,
    InvalidDocumentArgumentsError,
    SqliteDocumentStore,
    VersionConflictError,
    VersionNotFoundError,
)


@pytest.fixture
def database(database_store):  # type: ignore[no-untyped-def]
    database_store.create("guides/setup.md", "v1")
    return database_store


def test_finds_a_document_by_path_numeric_id_or_uuid(database) -> None:  # type: ignore[no-untyped-def]
    by_path = database.read("guides/setup.md")
    assert by_path.path == "guides/setup.md"
    assert isinstance(by_path.numeric_id, int) and by_path.uuid
    for id in (str(by_path.numeric_id), by_path.uuid, by_path.uuid.upper()):
        document = database.read(id)
        assert (document.content, document.version, document.path) == ("v1", by_path.version, "guides/setup.md")
        assert document.id == id
    for id in (str(by_path.numeric_id), by_path.uuid.upper()):
        database.write(id, f"by {id}")
        assert database.read("guides/setup.md").content == f"by {id}"


@pytest.mark.parametrize(
    "id",
    ["99999", "9" * 40, "0f8fad5b-d9cb-469f-a165-70867728950e", "0F8FAD5B-D9CB-469F-A165-70867728950E"],
)
def test_ids_of_each_shape_that_name_nothing_are_not_found(database, id: str) -> None:  # type: ignore[no-untyped-def]
    before = database.history("guides/setup.md")
    for call in (lambda: database.read(id), lambda: database.write(id, "x"), lambda: database.history(id)):
        with pytest.raises(DocumentNotFoundError):
            call()
    assert database.history("guides/setup.md") == before


@pytest.mark.parametrize("path", ["123", "0f8fad5b-d9cb-469f-a165-70867728950e"])
def test_create_refuses_paths_shaped_like_ids(database_store, path: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidDocumentArgumentsError) as caught:
        database_store.create(path, "x")
    assert "numeric id or a UUID" in caught.value.message
    with pytest.raises(DocumentNotFoundError):
        database_store.read(path)


def test_keeps_every_version_newest_first(database) -> None:  # type: ignore[no-untyped-def]
    database.write("guides/setup.md", "v2")
    database.write("guides/setup.md", "v3")
    history = database.history("guides/setup.md")
    assert [document.content for document in history] == ["v3", "v2", "v1"]
    assert history[0].version == database.read("guides/setup.md").version
    assert len({document.version for document in history}) == 3


def test_an_unchanged_write_adds_no_version(database) -> None:  # type: ignore[no-untyped-def]
    version = database.read("guides/setup.md").version
    assert database.write("guides/setup.md", "v1", version) == version
    assert len(database.history("guides/setup.md")) == 1


def test_revert_writes_an_old_version_back_as_a_new_one(database) -> None:  # type: ignore[no-untyped-def]
    first = database.read("guides/setup.md").version
    current = database.write("guides/setup.md", "v2")
    new = database.revert("guides/setup.md", first, current)
    assert database.read("guides/setup.md").content == "v1"
    assert new not in (first, current)
    assert [document.content for document in database.history("guides/setup.md")] == ["v1", "v2", "v1"]


@pytest.mark.parametrize("version", ["99", "0", "-1", "", "x", "1" * 30, "١"])
def test_revert_to_a_version_that_never_was_changes_nothing(database, version: str) -> None:  # type: ignore[no-untyped-def]
    database.write("guides/setup.md", "v2")
    with pytest.raises(VersionNotFoundError) as caught:
        database.revert("guides/setup.md", version, None)
    assert caught.value.code == "version-not-found"
    assert [document.content for document in database.history("guides/setup.md")] == ["v2", "v1"]


def test_both_stores_word_revision_errors_alike(database) -> None:  # type: ignore[no-untyped-def]
    # One revision logic for both databases: the same messages, long values cut the same way.
    long_version = "9" * 100
    with pytest.raises(VersionConflictError) as conflict:
        database.write("guides/setup.md", "v2", long_version)
    assert str(conflict.value) == (
        f"Document 'guides/setup.md' changed: expected version {long_version[:40]!r}, current is '1'. "
        "Read it again and redo the edit."
    )
    with pytest.raises(VersionNotFoundError) as missing:
        database.revert("guides/setup.md", long_version, None)
    assert str(missing.value) == (
        f"Document 'guides/setup.md' has no version {long_version[:40]!r}; history() lists its versions."
    )


def test_revert_checks_the_expected_version(database) -> None:  # type: ignore[no-untyped-def]
    first = database.read("guides/setup.md").version
    database.write("guides/setup.md", "v2")
    with pytest.raises(VersionConflictError):
        database.revert("guides/setup.md", first, first)
    assert database.read("guides/setup.md").content == "v2"


@pytest.mark.parametrize("kind", DATABASE_KINDS)
def test_documents_persist_across_store_objects(store_factory: StoreFactory, kind: str) -> None:
    store_factory.open(kind).create("a", "kept")
    assert store_factory.open(kind).read("a").content == "kept"


def test_sqlite_refuses_an_in_memory_database() -> None:
    with pytest.raises(ValueError):
        SqliteDocumentStore(":memory:")


def test_any_id_and_content_round_trip_or_are_refused_cleanly(database_store) -> None:  # type: ignore[no-untyped-def]
    """Untrusted ids and text: a document comes back as written, or a DocumentStoreError changes nothing."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    created: dict[str, str] = {}
    ids = st.one_of(
        st.text(max_size=30),
        st.from_regex(r"[0-9]{1,25}", fullmatch=True),
        st.uuids().map(str),
        st.text(alphabet="/.\\ -_aé\x00\t", max_size=12),
    )

    @settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(id=ids, content=st.text(max_size=300))
    def check(id: str, content: str) -> None:
        try:
            database_store.create(id, content)
        except DocumentStoreError as error:
            assert error.code in ("invalid-arguments", "document-exists"), error
            if error.code == "document-exists":
                assert database_store.read(id).content == created[id]
            else:  # refused: the id finds nothing, or (a numeric id or UUID) a document made before
                try:
                    found = database_store.read(id)
                except DocumentStoreError:
                    pass
                else:
                    assert found.path in created and found.content == created[found.path]
            return
        assert id not in created
        created[id] = content
        document = database_store.read(id)
        assert (document.content, document.path, document.version) == (content, id, "1")
        assert database_store.read(str(document.numeric_id)).content == content
        assert database_store.read(str(document.uuid).upper()).path == id

    check()
