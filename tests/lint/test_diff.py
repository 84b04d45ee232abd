"""``scan --diff REF``: only signals on lines changed since a git revision."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from .conftest import git, write

PAGE = "# Guide\n\nThis is a powerful tool.\n\nIt is very fast.\n"


def committed(repo: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        write(repo, name, text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "docs")


def test_only_changed_lines_are_reported(repo: Path, scan) -> None:
    committed(repo, {"page.md": PAGE, "other.md": PAGE})
    write(repo, "page.md", PAGE + "\nA very powerful addition.\n")
    outcome = scan(".", "--diff", "HEAD")
    reported = [line.removeprefix("./") for line in outcome.lines()]
    assert [line.split(": ")[:2] for line in reported] == [["page.md:7:3", "filler"], ["page.md:7:8", "word-choice"]]
    assert outcome.code == 1
    assert "2 on unchanged lines" in outcome.err


def test_unchanged_tree_passes_and_new_untracked_file_counts_whole(repo: Path, scan) -> None:
    committed(repo, {"page.md": PAGE})
    assert scan("page.md", "--diff", "HEAD").code == 0
    write(repo, "new.md", PAGE)
    outcome = scan("new.md", "page.md", "--diff", "HEAD")
    assert {line.split(":")[0] for line in outcome.lines()} == {"new.md"}


def test_diff_against_a_branch_with_commits_since(repo: Path, scan) -> None:
    committed(repo, {"page.md": PAGE})
    git(repo, "checkout", "-q", "-b", "feature")
    committed(repo, {"page.md": PAGE.replace("It is very fast.", "It is very fast.\n\nSimply ship it.")})
    outcome = scan("page.md", "--diff", "main")
    assert [line.split(": ")[:2] for line in outcome.lines()] == [["page.md:7:1", "easy-claims"]]


def test_diff_with_baseline_both_filter(repo: Path, scan) -> None:
    committed(repo, {"page.md": PAGE})
    write(repo, "page.md", PAGE.replace("It is very fast.", "It is very fast. Truly powerful."))
    scan("page.md", "--write-baseline", "b.json")
    write(repo, "page.md", PAGE.replace("It is very fast.", "It is very fast. Truly powerful.") + "\nVery new.\n")
    outcome = scan("page.md", "--diff", "HEAD", "--baseline", "b.json")
    assert [line.split(":")[1] for line in outcome.lines()] == ["7"]


def test_deleted_file_is_no_error(repo: Path, scan) -> None:
    committed(repo, {"gone.md": PAGE, "page.md": PAGE})
    (repo / "gone.md").unlink()
    outcome = scan(".", "--diff", "HEAD")
    assert outcome.code == 0, outcome.err


def test_a_named_file_deleted_or_renamed_since_ref_is_no_error(repo: Path, scan) -> None:
    # CI passes the changed files' names; a deletion among them must not fail the run.
    committed(repo, {"gone.md": PAGE, "old.md": PAGE + "\nMore.\n", "page.md": PAGE})
    (repo / "gone.md").unlink()
    git(repo, "mv", "old.md", "new.md")
    outcome = scan("gone.md", "old.md", "page.md", "--diff", "HEAD")
    assert outcome.code == 0, outcome.err
    assert "gone.md: deleted since HEAD; not scanned" in outcome.err
    assert "old.md: deleted since HEAD; not scanned" in outcome.err
    # A name that never existed is still an error.
    assert scan("typo.md", "page.md", "--diff", "HEAD").code == 2


def test_standard_input_is_compared_with_the_file_it_names(repo: Path, scan, monkeypatch) -> None:
    # An editor sends its unsaved buffer: its own lines are the changed ones, not the saved file's.
    import io
    import sys

    committed(repo, {"page.md": PAGE})
    buffer = PAGE + "\nA very new line.\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(buffer.encode("utf-8")), encoding="utf-8"))
    outcome = scan("-", "--stdin-filename", "page.md", "--diff", "HEAD")
    assert [line.split(": ")[:2] for line in outcome.lines()] == [["page.md:7:3", "filler"]]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(buffer.encode("utf-8")), encoding="utf-8"))
    unnamed = scan("-", "--diff", "HEAD")  # which file? unknown: no silent "nothing changed"
    assert unnamed.code == 2 and "--stdin-filename" in unnamed.err


def test_unknown_revision_is_exit_2(repo: Path, scan) -> None:
    committed(repo, {"page.md": PAGE})
    outcome = scan("page.md", "--diff", "no-such-branch")
    assert outcome.code == 2
    assert "--diff no-such-branch: unknown revision" in outcome.err


def test_shallow_clone_lacking_ref_says_how_to_fetch(repo: Path, scan, tmp_path: Path, monkeypatch) -> None:
    committed(repo, {"page.md": PAGE})
    first = git(repo, "rev-parse", "HEAD").strip()
    committed(repo, {"page.md": PAGE + "\nMore.\n"})
    committed(repo, {"page.md": PAGE + "\nMore text.\n"})
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth=1", f"file://{repo}", str(clone)], check=True)
    monkeypatch.chdir(clone)
    outcome = scan("page.md", "--diff", first)
    assert outcome.code == 2
    assert "shallow" in outcome.err and "git fetch" in outcome.err and "fetch-depth: 0" in outcome.err


def test_shallow_clone_hint_for_a_remote_branch_is_a_command_that_works(
    repo: Path, scan, tmp_path: Path, monkeypatch
) -> None:
    committed(repo, {"page.md": PAGE})
    git(repo, "branch", "base")
    committed(repo, {"page.md": PAGE + "\nA very new line.\n"})
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth=1", f"file://{repo}", str(clone)], check=True)
    monkeypatch.chdir(clone)
    outcome = scan("page.md", "--diff", "origin/base")
    assert outcome.code == 2
    assert "'git fetch --no-tags --depth=1 origin base:refs/remotes/origin/base'" in outcome.err
    git(clone, "fetch", "-q", "--no-tags", "--depth=1", "origin", "base:refs/remotes/origin/base")
    fetched = scan("page.md", "--diff", "origin/base")
    assert fetched.code == 1 and [line.split(":")[1] for line in fetched.lines()] == ["7"]


def test_outside_a_git_repository_is_exit_2(tmp_path: Path, scan, monkeypatch) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    write(folder, "page.md", PAGE)
    monkeypatch.chdir(folder)
    outcome = scan("page.md", "--diff", "HEAD")
    assert outcome.code == 2
    assert "needs a git repository" in outcome.err


def test_file_outside_the_repository_is_exit_2(repo: Path, scan, tmp_path: Path) -> None:
    committed(repo, {"page.md": PAGE})
    write(tmp_path, "outside.md", PAGE)
    outcome = scan(str(tmp_path / "outside.md"), "--diff", "HEAD")
    assert outcome.code == 2
    assert "outside the git repository" in outcome.err


# -- issue 25: an untrusted checkout's git configuration ----------------------------------------------


def _hostile(repo: Path, marker: Path) -> None:
    """Every way a repository's own configuration could make ``git diff`` run a program."""
    touch = f"touch {marker}"
    git(repo, "config", "core.fsmonitor", touch)
    git(repo, "config", "diff.evil.textconv", f"sh -c '{touch}; cat \"$1\"' -")
    git(repo, "config", "diff.external", touch)
    git(repo, "config", "filter.evil.clean", f"sh -c '{touch}; cat'")
    git(repo, "config", "filter.evil.smudge", "cat")
    git(repo, "config", "diff.noprefix", "true")
    git(repo, "config", "diff.mnemonicPrefix", "true")
    write(repo, ".gitattributes", "*.md diff=evil filter=evil\n")


def test_diff_runs_nothing_the_checkout_configures(repo: Path, scan, tmp_path: Path) -> None:
    committed(repo, {"page.md": PAGE})
    marker = tmp_path / "PWNED"
    _hostile(repo, marker)
    write(repo, "page.md", PAGE + "\nA very powerful addition.\n")
    outcome = scan("page.md", "--diff", "HEAD")
    assert not marker.exists()
    assert [line.split(": ")[:2] for line in outcome.lines()] == [
        ["page.md:7:3", "filler"],
        ["page.md:7:8", "word-choice"],
    ]
    assert outcome.code == 1


def test_diff_prefix_settings_do_not_hide_changed_lines(repo: Path, scan, monkeypatch, tmp_path: Path) -> None:
    committed(repo, {"page.md": PAGE})
    git(repo, "config", "diff.noprefix", "true")
    user = tmp_path / "gitconfig"
    user.write_text("[diff]\n\tmnemonicPrefix = true\n\tnoprefix = true\n", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(user))
    write(repo, "page.md", PAGE + "\nA very powerful addition.\n")
    outcome = scan("page.md", "--diff", "HEAD")
    assert outcome.code == 1
    assert [line.split(":")[1] for line in outcome.lines()] == ["7", "7"]


def test_a_repository_of_another_user_says_so(repo: Path, scan, monkeypatch) -> None:
    committed(repo, {"page.md": PAGE})
    monkeypatch.setenv("GIT_TEST_ASSUME_DIFFERENT_OWNER", "1")  # git's own switch for this check
    outcome = scan("page.md", "--diff", "HEAD")
    assert outcome.code == 2
    assert "dubious ownership" in outcome.err and "safe.directory" in outcome.err
    assert "not inside one" not in outcome.err


def test_standard_input_against_many_repeated_lines(repo: Path, scan, monkeypatch) -> None:
    # difflib was quadratic here (issue 25, finding 11); every changed line must still be counted.
    import io
    import sys

    committed(repo, {"page.md": "x\n\ny\n\n" * 300})
    buffer = "y\n\nx\n\n" * 300 + "It is very fast.\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(buffer.encode("utf-8")), encoding="utf-8"))
    outcome = scan("-", "--stdin-filename", "page.md", "--diff", "HEAD")
    assert [line.split(": ")[:2] for line in outcome.lines()] == [["page.md:1201:7", "filler"]]


def test_only_the_changed_files_are_scanned(repo: Path, scan) -> None:
    # A one-file change in a large tree costs that file and git, not the whole tree's scan.
    committed(repo, {f"docs/page{number}.md": PAGE for number in range(5)})
    write(repo, "docs/page3.md", PAGE + "\nA very powerful addition.\n")
    write(repo, "docs/new.md", "Simply run it.\n")
    outcome = scan("docs", "--diff", "HEAD")
    per_file = [line.split(":")[0] for line in outcome.err.splitlines() if "signal" in line and "(language" in line]
    assert sorted(per_file) == ["docs/new.md", "docs/page3.md"]
    assert "4 files unchanged since HEAD; not scanned" in outcome.err
    reported = {line.split(":")[0] for line in outcome.lines()}
    assert reported == {"docs/new.md", "docs/page3.md"}
    # Without --diff every file is scanned and reported.
    assert len({line.split(":")[0] for line in scan("docs").lines()}) == 6


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_file_changing_between_the_diff_and_the_scan_gives_no_signal_on_an_unselected_line(
    repo: Path, scan, monkeypatch, jobs: str
) -> None:
    # The changed lines are those of the text that was scanned, not of an earlier read: an editor
    # saving (or a formatter rewriting) the file between the two must not shift them.
    from writing_rules.cli._linting import LintRun

    committed(repo, {"page.md": PAGE})
    write(repo, "page.md", PAGE.replace("It is very fast.", "It is fast."))  # line 5 changed, no signal
    decide = LintRun.changed_only

    def then_edited(self: LintRun, paths: list[str]) -> list[str]:
        kept = decide(self, paths)  # the file is read once here: line 5 is the changed one
        write(repo, "page.md", "Intro.\n\n" + PAGE.replace("It is very fast.", "It is fast."))
        return kept

    monkeypatch.setattr(LintRun, "changed_only", then_edited)
    outcome = scan("page.md", "--diff", "HEAD", "--jobs", jobs)
    # The scanned text's changed lines are 1-2 (added) and 7: "This is a powerful tool." (line 5 of
    # that text, unchanged since HEAD) is not reported, as a scan without the race would not.
    assert outcome.lines() == [], outcome.out
    assert outcome.code == 0, outcome.err
    monkeypatch.setattr(LintRun, "changed_only", decide)
    assert scan("page.md", "--diff", "HEAD").lines() == []  # the same without the race
