"""``edit --store`` and ``serve-mcp --documents`` with a database URL instead of a folder."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres_support import PostgresSchemas
from writing_rules.cli import main
from writing_rules.documents import PostgresDocumentStore, SqliteDocumentStore

OPERATIONS = [{"operation": "replaceBlock", "oldBlock": "Simply run", "newBlock": "Run"}]


@pytest.fixture
def ops(tmp_path: Path) -> str:
    path = tmp_path / "ops.json"
    path.write_text(json.dumps(OPERATIONS), encoding="utf-8")
    return str(path)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    schemas = PostgresSchemas()
    dsn = schemas.fresh()
    if not dsn.startswith(("postgresql://", "postgres://")):
        pytest.skip("these tests need the test DSN as a postgresql:// URL")
    try:
        yield dsn
    finally:
        schemas.drop()


def test_edit_changes_a_document_in_an_sqlite_store(tmp_path: Path, ops: str, capsys) -> None:
    database = tmp_path / "docs.sqlite"
    SqliteDocumentStore(database).create("guides/run.md", "Simply run it.\n")
    assert main(["edit", "guides/run.md", "--ops", ops, "--store", f"sqlite://{database}"]) == 0
    assert "+Run it." in capsys.readouterr().out
    store = SqliteDocumentStore(database)
    assert store.read("guides/run.md").content == "Run it.\n"
    assert len(store.history("guides/run.md")) == 2


def test_edit_changes_a_document_in_postgres_by_any_id(postgres_url: str, ops: str, capsys) -> None:
    with PostgresDocumentStore(postgres_url) as store:
        store.create("guides/run.md", "Simply run it.\n")
        uuid_id = store.read("guides/run.md").uuid
    assert main(["edit", str(uuid_id), "--ops", ops, "--store", postgres_url, "--dry-run"]) == 0
    assert "+Run it." in capsys.readouterr().out
    assert main(["edit", "guides/run.md", "--ops", ops, "--store", postgres_url]) == 0
    assert main(["edit", "guides/run.md", "--ops", ops, "--store", postgres_url]) == 2  # the quote is gone now
    assert "was not found" in capsys.readouterr().err
    with PostgresDocumentStore(postgres_url) as store:
        assert [document.content for document in store.history("1")] == ["Run it.\n", "Simply run it.\n"]


def test_a_database_that_cannot_be_used_is_a_usage_error_without_the_password(
    postgres_url: str, ops: str, capsys
) -> None:
    secret = f"Wrong-{uuid.uuid4().hex}"
    user, rest = postgres_url.split("://", 1)[1].split("@", 1)
    wrong = f"postgresql://{user.split(':')[0]}:{secret}@{rest}"
    assert main(["edit", "guides/run.md", "--ops", ops, "--store", wrong]) == 2
    assert main(["serve-mcp", "--documents", wrong]) == 2
    err = capsys.readouterr().err
    assert "password authentication failed" in err and "Cannot connect to the database" in err
    assert secret not in err
    assert "writing-rules edit: error: --store:" in err and "writing-rules serve-mcp: error: --documents:" in err


def test_an_unescaped_at_sign_in_the_password_never_shows_any_of_it(tmp_path, capsys) -> None:
    pytest.importorskip("psycopg")
    ops = tmp_path / "ops.json"
    ops.write_text("[]")
    url = "postgresql://writer:s3cr@tPART2@127.0.0.1:1/docs"
    assert main(["edit", "a.md", "--ops", str(ops), "--store", url]) == 2
    assert main(["serve-mcp", "--documents", url]) == 2
    err = capsys.readouterr().err
    assert "PART2" not in err and "s3cr" not in err and "%40" in err


def test_a_key_value_connection_string_is_not_echoed_as_a_folder(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ops.json").write_text("[]")
    dsn = "host=db.example dbname=docs password=s3crPART2"
    assert main(["edit", "a.md", "--ops", "ops.json", "--store", dsn]) == 2
    assert main(["serve-mcp", "--documents", dsn]) == 2
    err = capsys.readouterr().err
    assert "PART2" not in err and "postgresql://" in err


@pytest.mark.parametrize(
    "url",
    [
        "POSTGRESQL://writer:s3crPART2@db.example/docs",  # libpq reads the scheme in lower case only
        "Postgres://writer:s3crPART2@db.example/docs",
        "postgresql:/writer:s3crPART2@db.example/docs",  # a slash short
        "postgressql://writer:s3crPART2@db.example/docs",  # a typo in the scheme
    ],
)
def test_a_url_that_names_no_database_is_not_echoed_as_a_folder(tmp_path, capsys, monkeypatch, url: str) -> None:
    # Not a database URL the store reads, so it was taken for a folder, and the missing folder's
    # message showed it, password and all.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ops.json").write_text("[]")
    assert main(["edit", "a.md", "--ops", "ops.json", "--store", url]) == 2
    assert main(["serve-mcp", "--documents", url]) == 2
    err = capsys.readouterr().err
    assert "PART2" not in err and "postgresql://" in err, err
