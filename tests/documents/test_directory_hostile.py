"""The directory store against a hostile model and hostile files (issue 11, findings 1, 4, 5 and 7).

A model may call the document tools with any id; files in the served folder
may be symbolic links, hard links, FIFOs, or left over from a killed writer.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writing_rules.documents import (
    DOCUMENTATION_FILES,
    DirectoryDocumentStore,
    DocumentNotFoundError,
    DocumentWriteError,
    InvalidDocumentArgumentsError,
    create_document_tool_dispatcher,
)

GIT_CONFIG = "[core]\n\trepositoryformatversion = 0\n"
ATTACK = '[core]\n\tfsmonitor = "touch PWNED; false"\n'


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A git checkout as the served folder: docs, dot-folders, secrets and code side by side."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "config").write_text(GIT_CONFIG)
    (root / ".github" / "workflows").mkdir(parents=True)
    (root / ".github" / "workflows" / "ci.md").write_text("# not served\n")
    (root / ".env").write_text("TOKEN=secret\n")
    (root / "setup.py").write_text("print('hi')\n")
    (root / "docs").mkdir()
    (root / "docs" / "guide.md").write_text("# Guide\n")
    return root


def _write(dispatcher: object, id: str, content: str = ATTACK) -> dict:
    operations = [{"operation": "append", "content": content}]
    return dispatcher.dispatch({"name": "write_document", "arguments": {"id": id, "operations": operations}})  # type: ignore[attr-defined]


# -- finding 1: the document root serves documentation files only ------------------------------------


def test_the_git_config_attack_is_refused_and_changes_nothing(checkout: Path) -> None:
    dispatcher = create_document_tool_dispatcher(DirectoryDocumentStore(checkout))
    result = _write(dispatcher, ".git/config")
    assert result["ok"] is False
    assert result["error"]["code"] == "invalid-arguments"
    assert "'.'" in result["error"]["message"]  # names the policy: no component starting with '.'
    assert (checkout / ".git" / "config").read_text() == GIT_CONFIG


@pytest.mark.parametrize("id", [".git/config", ".env", ".github/workflows/ci.md", "docs/.hidden.md", "setup.py"])
def test_reads_and_writes_outside_the_policy_are_refused_alike(checkout: Path, id: str) -> None:
    (checkout / "docs" / ".hidden.md").write_text("hidden\n")
    before = (checkout / id).read_bytes()
    dispatcher = create_document_tool_dispatcher(DirectoryDocumentStore(checkout))
    read = dispatcher.dispatch({"name": "read_document", "arguments": {"id": id}})
    written = _write(dispatcher, id)
    for result in (read, written):
        assert result["error"]["code"] == "invalid-arguments"
        assert "documentation files" in result["error"]["message"] or "'.'" in result["error"]["message"]
        assert "secret" not in str(result)
    assert (checkout / id).read_bytes() == before


def test_every_documentation_file_kind_is_served(checkout: Path) -> None:
    store = DirectoryDocumentStore(checkout)
    for pattern in DOCUMENTATION_FILES:
        name = "page" + pattern.lstrip("*")
        (checkout / "docs" / name).write_text("text\n")
        assert store.read(f"docs/{name}").content == "text\n"
        store.write(f"docs/{name}", "new\n")
    (checkout / "docs" / "UPPER.MD").write_text("x")
    assert store.read("docs/UPPER.MD").content == "x"


def test_create_follows_the_same_policy(checkout: Path) -> None:
    store = DirectoryDocumentStore(checkout)
    for id in (".git/hooks/pre-commit.md", "run.sh", ".profile.md"):
        with pytest.raises(InvalidDocumentArgumentsError):
            store.create(id, "x")
    assert not (checkout / ".git" / "hooks").exists()


def test_a_symlink_from_a_served_name_to_a_hidden_or_other_file_is_refused(checkout: Path) -> None:
    (checkout / "docs" / "env.md").symlink_to(checkout / ".env")
    (checkout / "docs" / "code.md").symlink_to(checkout / "setup.py")
    (checkout / "gitdir").symlink_to(checkout / ".git")
    store = DirectoryDocumentStore(checkout)
    for id in ("docs/env.md", "docs/code.md"):
        with pytest.raises(InvalidDocumentArgumentsError):
            store.read(id)
    with pytest.raises(InvalidDocumentArgumentsError):
        store.read("gitdir/config")


def test_the_host_can_widen_the_policy_on_purpose(checkout: Path) -> None:
    store = DirectoryDocumentStore(checkout, include=("*",), allow_hidden=True)
    assert store.read(".env").content == "TOKEN=secret\n"
    assert store.read("setup.py").content == "print('hi')\n"
    narrow = DirectoryDocumentStore(checkout, include=("*.md",))
    with pytest.raises(InvalidDocumentArgumentsError, match=r"\*\.md"):
        narrow.read("notes.txt")


@pytest.mark.parametrize(
    ("options", "error"),
    [({"include": "*.md"}, TypeError), ({"include": ()}, ValueError), ({"allow_hidden": 1}, TypeError)],
)
def test_policy_options_are_checked_when_the_store_is_made(tmp_path: Path, options: dict, error: type) -> None:
    with pytest.raises(error):
        DirectoryDocumentStore(tmp_path, **options)


# -- finding 4: long ids are cut short before any path work ---------------------------------------------


def test_a_long_id_is_refused_before_any_path_work_with_a_short_message(
    checkout: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = DirectoryDocumentStore(checkout)
    dispatcher = create_document_tool_dispatcher(store)

    def no_path_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the file system was asked about an id over the length cap")

    # realpath on a 640 KB id took 19.8 s; the cap comes before anything touches the file system.
    for name in ("stat", "open", "readlink", "lstat"):
        monkeypatch.setattr(os, name, no_path_work)
    monkeypatch.setattr(os.path, "realpath", no_path_work)
    id = "a/" * 320_000 + "x.md"
    result = dispatcher.dispatch({"name": "read_document", "arguments": {"id": id}})
    assert result["error"]["code"] == "invalid-arguments"
    assert "1024" in result["error"]["message"]
    assert len(str(result)) < 600
    with pytest.raises(InvalidDocumentArgumentsError, match="1024"):
        store.read(id)


def test_ids_in_messages_are_capped(checkout: Path) -> None:
    store = DirectoryDocumentStore(checkout)
    id = "docs/" + ("n" * 200 + "/") * 4 + "x.md"
    with pytest.raises(DocumentNotFoundError) as caught:
        store.read(id)
    assert len(caught.value.message) < 300


# -- finding 5: no swap between check and use leaks a file outside the root --------------------------


def test_a_symlink_swap_race_never_leaks_an_outside_file(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    outside = tmp_path / "outside.md"
    outside.write_text("OUTSIDE SECRET")
    store = DirectoryDocumentStore(root)
    dispatcher = create_document_tool_dispatcher(store)
    target = root / "doc.md"
    target.write_text("inside")
    stop = threading.Event()

    def swap() -> None:
        plain, link = root / "doc.plain", root / "doc.link"
        while not stop.is_set():
            plain.write_text("inside")
            os.replace(plain, target)
            link.unlink(missing_ok=True)
            link.symlink_to(outside)
            os.replace(link, target)

    swapper = threading.Thread(target=swap)
    swapper.start()
    codes: set[str] = set()
    try:
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            result = dispatcher.dispatch({"name": "read_document", "arguments": {"id": "doc.md"}})
            assert "OUTSIDE" not in str(result)
            if result["ok"]:
                assert result["data"]["content"] == "inside"
            else:
                codes.add(result["error"]["code"])
    finally:
        stop.set()
        swapper.join()
    assert codes <= {"invalid-arguments", "document-not-found"}
    assert outside.read_text() == "OUTSIDE SECRET"


# -- finding 7: names, colons, hard links, temporary files ------------------------------------------


def test_a_file_name_at_the_file_system_limit_can_be_written(tmp_path: Path) -> None:
    name = "n" * 252 + ".md"  # 255 bytes, NAME_MAX on Linux
    (tmp_path / name).write_text("old\n")
    store = DirectoryDocumentStore(tmp_path)
    store.write(name, "new\n")
    assert (tmp_path / name).read_text() == "new\n"
    assert sorted(os.listdir(tmp_path)) == [name]


def test_a_name_too_long_for_the_file_system_is_invalid_not_a_crash(tmp_path: Path) -> None:
    store = DirectoryDocumentStore(tmp_path)
    with pytest.raises(InvalidDocumentArgumentsError):
        store.read("n" * 300 + ".md")


def test_a_colon_in_an_id_is_a_plain_name_on_posix(tmp_path: Path) -> None:
    (tmp_path / "a:b.md").write_text("colon\n")
    store = DirectoryDocumentStore(tmp_path)
    assert store.read("a:b.md").content == "colon\n"
    store.write("a:b.md", "changed\n")
    assert (tmp_path / "a:b.md").read_text() == "changed\n"


def test_a_write_to_a_hard_linked_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("shared\n")
    os.link(tmp_path / "a.md", tmp_path / "b.md")
    store = DirectoryDocumentStore(tmp_path)
    assert store.read("a.md").content == "shared\n"
    with pytest.raises(DocumentWriteError, match="hard link"):
        store.write("a.md", "changed\n")
    assert (tmp_path / "b.md").read_text() == "shared\n"
    assert os.stat(tmp_path / "a.md").st_nlink == 2


def test_stale_temporary_files_are_never_served_and_are_cleaned_up(tmp_path: Path) -> None:
    (tmp_path / "doc.md").write_text("doc\n")
    store = DirectoryDocumentStore(tmp_path, include=("*",), allow_hidden=True)
    old = time.time() - 3600
    stale = [".doc.md.0123456789ab.tmp", ".wr-0123456789abcdef.tmp"]
    for name in stale:
        (tmp_path / name).write_text("half-written")
        os.utime(tmp_path / name, (old, old))
        with pytest.raises(InvalidDocumentArgumentsError, match="temporary"):
            store.read(name)
    store.write("doc.md", "new\n")
    assert sorted(os.listdir(tmp_path)) == ["doc.md"]


def test_a_fresh_temporary_file_of_a_live_writer_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "doc.md").write_text("doc\n")
    (tmp_path / ".wr-0123456789abcdef.tmp").write_text("being written")
    DirectoryDocumentStore(tmp_path).write("doc.md", "new\n")
    assert (tmp_path / ".wr-0123456789abcdef.tmp").exists()


# -- any id a model can send ------------------------------------------------------------------------

_PARTS = st.sampled_from(["a", "b.md", ".git", "config", "..", ".", "", "in", "out", "loop", "x:y.md", "\\", "c.txt"])
_IDS = st.lists(_PARTS, min_size=1, max_size=6).map("/".join) | st.text(max_size=30)


@pytest.fixture(scope="module")
def maze(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A root with documents, hidden files, and links that stay inside, leave it, or loop."""
    base = tmp_path_factory.mktemp("maze")
    (base / "secret.md").write_text("OUTSIDE")
    root = base / "root"
    (root / "a").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("HIDDEN")
    (root / "a" / "b.md").write_text("inside b")
    (root / "b.md").write_text("inside top")
    (root / "x:y.md").write_text("inside colon")
    (root / "c.txt").write_text("inside text")
    (root / "in").symlink_to(root / "a")
    (root / "out").symlink_to(base)
    (root / "loop").symlink_to("loop")
    (root / "a" / "up").symlink_to("..")
    return root


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(id=_IDS)
def test_no_id_reads_outside_the_policy_or_fails_internally(maze: Path, id: str) -> None:
    dispatcher = create_document_tool_dispatcher(DirectoryDocumentStore(maze))
    result = dispatcher.dispatch({"name": "read_document", "arguments": {"id": id}})
    if result["ok"]:
        assert result["data"]["content"] in {"inside b", "inside top", "inside colon", "inside text"}
    else:
        assert result["error"]["code"] in {"invalid-arguments", "document-not-found", "document-unreadable"}
    assert "OUTSIDE" not in str(result) and "HIDDEN" not in str(result)


@pytest.mark.parametrize(
    "name",
    [
        "a.md\n+++ setup.py\n.md",
        "a.md\r--- x.md",
        'quote".md',
        "back\\slash.md",
        "sep\u2028line.md",
        "tab\tname.md",
    ],
)
def test_a_diff_names_a_hostile_file_name_only_as_git_quotes_it(tmp_path: Path, name: str) -> None:
    # A checkout's file name with a line break made the diff's header lines read as a patch of
    # another file (the "+++ setup.py" line above; a folder's name can add "b/"), for a host or
    # a person that applies it.
    # Such a name is written as git writes it (C-quoted), as `scan --fix --dry-run` does.
    from writing_rules._patch_names import quote_patch_name

    (tmp_path / name).write_text("hello world\n", encoding="utf-8")
    tools = create_document_tool_dispatcher(DirectoryDocumentStore(tmp_path))
    result = tools.dispatch(
        {
            "name": "write_document",
            "arguments": {
                "id": name,
                "operations": [{"operation": "replaceBlock", "oldBlock": "hello", "newBlock": "bye"}],
                "dryRun": True,
            },
        }
    )
    assert result["ok"], result
    diff = result["data"]["diff"]
    old, new, *rest = diff.split("\n")
    assert (old, new) == ("--- " + quote_patch_name("a/", name), "+++ " + quote_patch_name("b/", name))
    assert rest == ["@@ -1 +1 @@", "-hello world", "+bye world", ""]
    assert len(diff.splitlines()) == 5


def test_a_plain_file_name_is_written_as_before(tmp_path: Path) -> None:
    (tmp_path / "my guide.md").write_text("hello world\n", encoding="utf-8")
    tools = create_document_tool_dispatcher(DirectoryDocumentStore(tmp_path))
    operations = [{"operation": "replaceBlock", "oldBlock": "hello", "newBlock": "bye"}]
    result = tools.dispatch(
        {"name": "write_document", "arguments": {"id": "my guide.md", "operations": operations, "dryRun": True}}
    )
    assert result["data"]["diff"].startswith("--- a/my guide.md\n+++ b/my guide.md\n@@ -1 +1 @@\n")
