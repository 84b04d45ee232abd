"""Rule pages are written where only the user running the server can write or read.

The folder for the pages had a predictable name in the shared temporary folder
(``/tmp/writing-rules-<digest>/``): on a machine with several users, another one
could create it first, as a symlink or a folder of theirs, and plant the pages an
editor opens or read the ones written.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

pytest.importorskip("pygls")

from writing_rules._catalog import builtin_catalog
from writing_rules.lsp._rule_pages import rule_page_uri

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX owners and modes")


@pytest.fixture
def shared_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in for /tmp: world-writable and sticky, no XDG runtime folder."""
    shared = tmp_path / "tmp"
    shared.mkdir()
    shared.chmod(0o1777)
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    return shared


def _page(uri: str) -> Path:
    return Path(unquote(urlparse(uri).path))


def _assert_private(page: Path, below: Path) -> None:
    """The page exists, and every folder from ``below`` down to it is ours, no symlink, and the
    first of them is closed to others."""
    assert page.is_file()
    assert page.read_text(encoding="utf-8").startswith("# ")
    folders = [parent for parent in page.parents if below in parent.parents]
    assert folders, page
    for folder in folders:
        info = folder.lstat()
        assert stat.S_ISDIR(info.st_mode) and not folder.is_symlink(), folder
        assert info.st_uid == os.getuid(), folder
    top = folders[-1]
    assert stat.S_IMODE(top.lstat().st_mode) & 0o077 == 0, oct(top.lstat().st_mode)


def _digest_names() -> list[str]:
    digest = builtin_catalog().digest
    return [f"writing-rules-{digest[:12]}", f"writing-rules-{os.getuid()}", "writing-rules"]


def test_the_pages_folder_is_private(shared_tmp: Path) -> None:
    page = _page(rule_page_uri("hedging", "en"))
    _assert_private(page, shared_tmp)


@pytest.mark.parametrize("name", _digest_names())
def test_a_symlink_planted_at_the_folder_name_is_not_followed(shared_tmp: Path, tmp_path: Path, name: str) -> None:
    elsewhere = tmp_path / "attacker"
    elsewhere.mkdir()
    (shared_tmp / name).symlink_to(elsewhere)
    page = _page(rule_page_uri("hedging", "en"))
    assert list(elsewhere.iterdir()) == []
    _assert_private(page, shared_tmp)
    assert elsewhere not in page.resolve().parents


@pytest.mark.parametrize("name", _digest_names())
def test_a_folder_open_to_others_is_not_used(shared_tmp: Path, name: str) -> None:
    # What another user creates first: a folder anyone (or they) can write to, a page planted.
    planted = shared_tmp / name
    (planted / "en").mkdir(parents=True)
    (planted / "en" / "hedging.md").write_text("[Click here](https://attacker.example/)\n", encoding="utf-8")
    for folder in (planted, planted / "en"):
        folder.chmod(0o777)
    page = _page(rule_page_uri("hedging", "en"))
    assert planted not in page.parents
    assert "attacker" not in page.read_text(encoding="utf-8")
    _assert_private(page, shared_tmp)


def test_a_folder_of_another_user_is_not_used(shared_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _page(rule_page_uri("hedging", "en"))
    mine = [parent for parent in first.parents if shared_tmp in parent.parents][-1]
    # The same folder, as another user sees it: theirs, however closed.
    real = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: real + 1)
    second = _page(rule_page_uri("hedging", "en"))
    assert mine not in second.parents
    assert second.is_file()


def test_the_xdg_runtime_folder_is_used_when_private(
    shared_tmp: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = tmp_path / "run-user"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    page = _page(rule_page_uri("hedging", "en"))
    assert runtime in page.parents
    _assert_private(page, runtime)
    assert list(shared_tmp.iterdir()) == []


def test_an_xdg_runtime_folder_open_to_others_is_not_used(
    shared_tmp: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = tmp_path / "run-shared"
    runtime.mkdir()
    runtime.chmod(0o777)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    page = _page(rule_page_uri("hedging", "en"))
    assert runtime not in page.parents
    _assert_private(page, shared_tmp)


def test_the_folder_is_searched_once_for_many_links(shared_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every diagnostic links a page: the folder's checks (a mkdir among them) run for the first
    link only, and a link to a page already written makes no folder."""
    made: list[str] = []
    real_mkdir = os.mkdir

    def counting_mkdir(path: str | os.PathLike[str], mode: int = 0o777) -> None:
        made.append(os.fspath(path))
        real_mkdir(path, mode)

    monkeypatch.setattr(os, "mkdir", counting_mkdir)
    first = rule_page_uri("hedging", "en")
    assert made, "the first link makes the folder"
    made.clear()
    for _ in range(50):
        assert rule_page_uri("hedging", "en") == first
    assert made == []


def test_a_removed_folder_is_made_again(shared_tmp: Path) -> None:
    page = _page(rule_page_uri("hedging", "en"))
    top = shared_tmp / f"writing-rules-{os.getuid()}"
    assert top in page.parents
    shutil.rmtree(top)
    again = _page(rule_page_uri("hedging", "en"))
    assert again == page
    _assert_private(again, shared_tmp)


def test_a_folder_replaced_after_the_search_is_not_used(shared_tmp: Path, tmp_path: Path) -> None:
    """The folder found is re-checked on every link: a symlink planted after a clean-up is not followed."""
    page = _page(rule_page_uri("hedging", "en"))
    top = shared_tmp / f"writing-rules-{os.getuid()}"
    shutil.rmtree(top)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    top.symlink_to(elsewhere)
    page = _page(rule_page_uri("hedging", "en"))
    assert top not in page.parents
    assert list(elsewhere.iterdir()) == []
    _assert_private(page, shared_tmp)


def test_a_fallback_folder_is_removed_at_exit_and_the_users_folder_is_kept(
    shared_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fresh folder made when the per-user one cannot be trusted is this process's own and
    goes when it exits; a folder it found (the per-user one, in another temporary folder) stays."""
    from writing_rules.lsp import _rule_pages

    kept = _page(rule_page_uri("hedging", "en"))
    assert kept.is_file()

    other = shared_tmp / "other"
    other.mkdir()
    other.chmod(0o1777)
    (other / f"writing-rules-{os.getuid()}").mkdir(mode=0o755)  # open to others: not trusted
    monkeypatch.setattr(tempfile, "tempdir", str(other))
    page = _page(rule_page_uri("hedging", "en"))
    own = next(folder for folder in page.parents if folder.parent == other)
    assert own.name != f"writing-rules-{os.getuid()}"

    _rule_pages._remove_fallbacks()
    assert not own.exists()
    assert (other / f"writing-rules-{os.getuid()}").is_dir()  # not made by this process: kept
    assert kept.is_file()


def test_a_fallback_folder_is_removed_when_the_server_process_exits(shared_tmp: Path) -> None:
    """End to end: a process that linked a page through a fallback folder leaves nothing behind."""
    (shared_tmp / f"writing-rules-{os.getuid()}").mkdir(mode=0o755)
    program = (
        "import tempfile, sys\n"
        f"tempfile.tempdir = {str(shared_tmp)!r}\n"
        "from writing_rules.lsp._rule_pages import rule_page_uri\n"
        "print(rule_page_uri('hedging', 'en'))\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "XDG_RUNTIME_DIR"}
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=env, check=True)
    page = _page(done.stdout.strip())
    assert shared_tmp in page.parents
    assert not page.exists()
    assert sorted(path.name for path in shared_tmp.iterdir()) == [f"writing-rules-{os.getuid()}"]
