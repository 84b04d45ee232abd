"""``scan --fix`` on a hostile checkout (issue 25, findings 2, 3 and 19).

A scanned checkout may hold symbolic links that lead out of it, and file names
with newlines and patch text; a long file may need more fixes than the edit
engine takes in one call.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writing_rules._patch_names import quote_patch_name
from writing_rules.cli import _fix, main

EN = "In order to start, the tool is very fast.\nWe made use of the cache. It is powerful.\n"
EN_FIXED = "To start, the tool is fast.\nWe used the cache. It is powerful.\n"


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``docs/`` to scan, and ``victim/`` beside it that no fix may touch."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "victim").mkdir()
    (tmp_path / "victim" / "notes.md").write_text(EN, encoding="utf-8")
    return tmp_path


# -- finding 2: --fix never writes outside the scanned tree ---------------------------------------------


@pytest.mark.parametrize("argument", ["docs", "docs/notes.md"])
def test_a_link_that_leaves_the_scanned_folder_is_refused(checkout: Path, capsys, argument: str) -> None:
    (checkout / "docs" / "notes.md").symlink_to("../victim/notes.md")
    (checkout / "docs" / "page.md").write_text(EN, encoding="utf-8")
    assert main(["scan", "--fix", "--language", "en", argument]) == 2
    assert (checkout / "victim" / "notes.md").read_text(encoding="utf-8") == EN
    assert os.readlink(checkout / "docs" / "notes.md") == "../victim/notes.md"
    err = capsys.readouterr().err
    assert "outside" in err and "docs" in err and "Traceback" not in err
    if argument == "docs":  # the other files are still fixed
        assert (checkout / "docs" / "page.md").read_text(encoding="utf-8") == EN_FIXED


def test_an_absolute_link_out_and_a_linked_folder_out_are_refused(checkout: Path, capsys) -> None:
    (checkout / "docs" / "abs.md").symlink_to(checkout / "victim" / "notes.md")
    (checkout / "docs" / "sub").mkdir()
    (checkout / "docs" / "sub" / "up").symlink_to("../../victim")
    (checkout / "docs" / "sub" / "up.md").symlink_to("up/notes.md")
    assert main(["scan", "--fix", "--language", "en", "docs"]) == 2
    assert (checkout / "victim" / "notes.md").read_text(encoding="utf-8") == EN
    err = capsys.readouterr().err
    assert "abs.md" in err and "up.md" in err


def test_a_link_that_stays_inside_is_followed(checkout: Path) -> None:
    (checkout / "docs" / "sub").mkdir()
    (checkout / "docs" / "sub" / "real.md").write_text(EN, encoding="utf-8")
    (checkout / "docs" / "alias.md").symlink_to("sub/real.md")
    # A file named on the command line is scanned in its folder, docs/; sub/real.md is inside it.
    assert main(["scan", "--fix", "--language", "en", "docs/alias.md"]) == 1  # "powerful" remains
    assert (checkout / "docs" / "sub" / "real.md").read_text(encoding="utf-8") == EN_FIXED
    assert (checkout / "docs" / "alias.md").is_symlink()


def test_a_file_swapped_for_a_link_out_during_the_run_is_left_alone(checkout: Path, capsys, monkeypatch) -> None:
    (checkout / "docs" / "a.md").write_text(EN, encoding="utf-8")
    (checkout / "docs" / "b.md").write_text(EN, encoding="utf-8")  # the same bytes as the victim
    real_splice = _fix._spliced
    swapped: list[bool] = []

    def edit_then_swap(text, places):  # while a.md is fixed, someone replaces b.md with a link out
        if not swapped:
            (checkout / "docs" / "b.md").unlink()
            (checkout / "docs" / "b.md").symlink_to("../victim/notes.md")
            swapped.append(True)
        return real_splice(text, places)

    monkeypatch.setattr(_fix, "_spliced", edit_then_swap)
    assert main(["scan", "--fix", "--language", "en", "docs"]) == 2
    assert (checkout / "victim" / "notes.md").read_text(encoding="utf-8") == EN
    assert (checkout / "docs" / "a.md").read_text(encoding="utf-8") == EN_FIXED
    assert "outside" in capsys.readouterr().err


def test_a_swap_between_read_and_write_is_refused_by_the_store(checkout: Path, capsys, monkeypatch) -> None:
    (checkout / "docs" / "b.md").write_text(EN, encoding="utf-8")
    real_splice = _fix._spliced

    def edit_then_swap(text, places):
        if (checkout / "docs" / "b.md").is_file() and not (checkout / "docs" / "b.md").is_symlink():
            (checkout / "docs" / "b.md").unlink()
            (checkout / "docs" / "b.md").symlink_to("../victim/notes.md")
        return real_splice(text, places)

    monkeypatch.setattr(_fix, "_spliced", edit_then_swap)
    assert main(["scan", "--fix", "--language", "en", "docs"]) == 2
    assert (checkout / "victim" / "notes.md").read_text(encoding="utf-8") == EN
    assert "Traceback" not in capsys.readouterr().err


def test_each_path_is_fixed_in_the_outermost_folder_it_was_scanned_in(checkout: Path) -> None:
    (checkout / "docs" / "sub").mkdir()
    root = _fix.scan_roots(["docs/sub", "docs/", "victim/notes.md", "README.md"])
    assert root(os.path.join("docs/", "sub", "a.md")) == "docs/"
    assert root(os.path.join("docs/sub", "a.md")) == "docs/"  # also found under docs/sub: the outer one
    assert _fix.scan_roots(["docs/sub"])("docs/sub/a.md") == "docs/sub"
    assert root("victim/notes.md") == "victim"
    assert root("README.md") == os.curdir


# -- finding 3: the dry-run patch quotes file names as git does ------------------------------------------


@pytest.mark.parametrize(
    ("name", "quoted"),
    [
        ("docs/page.md", "a/docs/page.md"),
        ("docs/a b.md", "a/docs/a b.md\t"),
        ("docs/n\nl.md", '"a/docs/n\\nl.md"'),
        ('q"t\\.md', '"a/q\\"t\\\\.md"'),
        ("s p\tx.md", '"a/s p\\tx.md"\t'),
        ("\x01\x07\x7f.md", '"a/\\001\\a\\177.md"'),
        ("Ü.md", '"a/\\303\\234.md"'),
    ],
)
def test_names_are_quoted_exactly_as_git_quotes_them(name: str, quoted: str) -> None:
    assert quote_patch_name("a/", name) == quoted


# Folders and a file whose names, printed unquoted one after the other, read as a patch of build.sh
# (twice, since the +++ line repeats the path) and of v.md: git apply added "touch PWN" to build.sh.
HOSTILE = ["x\n--- a", "build.sh\n+++ b", "build.sh\n@@ -1 +1,2 @@\n x\n+touch PWN\n--- a", "v.md\n+++ b", "v.md"]


def test_a_dry_run_patch_of_a_hostile_name_touches_only_that_file(checkout: Path, capsys) -> None:
    subprocess.run(["git", "init", "-q"], check=True)
    (checkout / "build.sh").write_text("x\n", encoding="utf-8")
    (checkout / "v.md").write_text(EN, encoding="utf-8")
    page = checkout.joinpath("docs", *HOSTILE)
    page.parent.mkdir(parents=True)
    page.write_text(EN, encoding="utf-8")
    main(["scan", "--fix", "--dry-run", "--language", "en", "docs"])
    patch = capsys.readouterr().out.encode()
    check = subprocess.run(["git", "apply", "--check", "-"], input=patch, capture_output=True)
    assert check.returncode == 0, check.stderr
    touched = subprocess.run(["git", "apply", "--numstat", "-z", "-"], input=patch, capture_output=True)
    assert touched.stdout.split(b"\0")[:-1] == [b"2\t2\t" + "/".join(["docs", *HOSTILE]).encode()]
    subprocess.run(["git", "apply", "-"], input=patch, check=True)
    assert page.read_text(encoding="utf-8") == EN_FIXED
    assert (checkout / "build.sh").read_text(encoding="utf-8") == "x\n"
    assert (checkout / "v.md").read_text(encoding="utf-8") == EN


_NAMES = st.text(
    st.characters(blacklist_characters="/\0", blacklist_categories=("Cs",)), min_size=1, max_size=12
).filter(lambda name: name not in (".", "..") and not name.startswith(".") and name.strip() == name)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(stem=_NAMES)
def test_git_apply_reads_back_every_quoted_name(tmp_path: Path, stem: str) -> None:
    name = f"docs/{stem}.md"
    patch = _fix._diff(EN, EN_FIXED, name)
    touched = subprocess.run(
        ["git", "apply", "--numstat", "-z", "-"], input=patch.encode(), capture_output=True, cwd=tmp_path
    )
    assert touched.returncode == 0, touched.stderr
    assert touched.stdout.split(b"\0")[:-1] == [b"2\t2\t" + os.fsencode(name)]


# -- finding 19: more fixes than the edit engine takes in one call ----------------------------------------


def test_a_file_with_more_than_a_hundred_fixes_is_fixed_whole(checkout: Path, capsys) -> None:
    page = checkout / "docs" / "long.md"
    page.write_text("It is very fast.\n" * 250, encoding="utf-8")
    assert main(["scan", "--fix", "--language", "en", str(page)]) == 0
    assert page.read_text(encoding="utf-8") == "It is fast.\n" * 250
    assert "fixed 250; 0 signals remain" in capsys.readouterr().err
