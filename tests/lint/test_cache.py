"""The result cache, driven through ``writing-rules scan``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import writing_rules._rules_data as rules_data
from writing_rules.lint import _pieces

from .conftest import write

PAGE = "# Guide\n\nThis is a powerful tool.\n\nIt is very fast. <!-- writing-rules-disable-line filler -->\n"


def entries(folder: Path | None = None) -> list[Path]:
    return sorted((folder or user_cache()).glob("v1/*/*.json"))


def user_cache() -> Path:
    """The default cache folder (tests/conftest.py points it into a temporary folder)."""
    return Path(os.environ["WRITING_RULES_CACHE_DIR"])


def no_scanning(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("scanned although the cache holds the result")

    monkeypatch.setattr(_pieces, "scan_chosen", refuse)


@pytest.mark.parametrize("format_", ["text", "json", "sarif", "github"])
def test_cached_results_are_byte_identical(repo: Path, scan, format_: str) -> None:
    write(repo, "docs/a.md", PAGE)
    write(repo, "docs/b.md", "Ein sehr leistungsstarkes Werkzeug.\n")
    fresh = scan("docs", "--format", format_, "--no-cache")
    assert not user_cache().exists()
    first = scan("docs", "--format", format_)
    second = scan("docs", "--format", format_)
    assert fresh == first == second
    assert len(entries()) == 2


def test_second_run_reads_the_cache_and_the_folder_ignores_itself(repo: Path, scan, monkeypatch) -> None:
    write(repo, "page.md", PAGE)
    first = scan("page.md")
    assert (user_cache() / ".gitignore").read_text().splitlines()[-1] == "*"
    no_scanning(monkeypatch)
    assert scan("page.md") == first
    from .conftest import git

    assert git(repo, "status", "--porcelain", "--untracked-files=all").split() == ["??", "page.md"]


@pytest.mark.parametrize(
    "change",
    ["content", "config", "rule data", "version"],
)
def test_key_covers_content_config_rule_data_and_version(repo: Path, scan, monkeypatch, change: str) -> None:
    write(repo, "page.md", PAGE)
    scan("page.md")
    if change == "content":
        write(repo, "page.md", PAGE + "\nMore.\n")
    elif change == "config":
        write(repo, ".writing-rules.toml", 'accept = ["nothing"]\n')
    elif change == "rule data":
        monkeypatch.setattr(rules_data, "SOURCE_DIGEST", "0" * 64)
    else:
        import writing_rules

        monkeypatch.setattr(writing_rules, "__version__", "99.0")
    no_scanning(monkeypatch)
    with pytest.raises(AssertionError, match="scanned although"):
        scan("page.md")


def test_corrupt_and_partial_entries_are_ignored_and_rewritten(repo: Path, scan) -> None:
    write(repo, "a.md", PAGE)
    write(repo, "b.md", PAGE.replace("powerful", "robust"))
    first = scan("a.md", "b.md")
    one, two = entries()
    one.write_bytes(one.read_bytes()[:20])  # partial
    entry = json.loads(two.read_text())
    entry["key"] = "another key"  # an entry for something else
    two.write_text(json.dumps(entry))
    assert scan("a.md", "b.md") == first
    for path in entries():
        assert json.loads(path.read_text())["key"] != "another key"


def test_an_entry_damaged_into_other_valid_json_is_not_trusted(repo: Path, scan) -> None:
    # A flipped byte inside a string still parses: the entry's digest of its value catches it.
    write(repo, "a.md", PAGE)
    first = scan("a.md")
    (entry,) = entries()
    damaged = entry.read_bytes().replace(b'"powerful"', b'"pOwerful"')
    assert damaged != entry.read_bytes()
    entry.write_bytes(damaged)
    json.loads(damaged)  # still valid JSON
    assert scan("a.md") == first
    assert b'"pOwerful"' not in entry.read_bytes()  # rewritten


def test_unwritable_cache_folder_warns_and_scans(repo: Path, scan) -> None:
    write(repo, "page.md", PAGE)
    write(repo, "blocker", "a file, not a folder")
    outcome = scan("page.md", "--cache-dir", "blocker/cache")
    assert outcome.code == 1
    assert outcome.rules() == ["word-choice"]
    assert outcome.err.count("warning: cannot write the cache in blocker/cache") == 1


def test_cache_dir_option(repo: Path, scan) -> None:
    write(repo, "page.md", PAGE)
    scan("page.md", "--cache-dir", "elsewhere")
    assert len(entries(repo / "elsewhere")) == 1
    assert not user_cache().exists()


def test_two_processes_sharing_the_cache(repo: Path) -> None:
    for index in range(40):
        write(repo, f"docs/page{index:02}.md", PAGE.replace("Guide", f"Guide {index}") * 5)
    command = [sys.executable, "-m", "writing_rules", "scan", "docs", "--format", "json"]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    expected = subprocess.run([*command, "--no-cache"], capture_output=True, text=True, env=environment).stdout
    runs = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
        for _ in range(2)
    ]
    outputs = [run.communicate()[0] for run in runs]
    assert outputs == [expected, expected]
    after = subprocess.run(command, capture_output=True, text=True, env=environment)
    assert after.stdout == expected and "warning" not in after.stderr
    assert len(entries()) == 40
    assert not list(user_cache().glob("v1/*/.tmp-*"))


# -- issue 25: a cache a checkout can plant, shapes, folder hygiene ---------------------------------


def _forge(folder: Path, change) -> None:
    """Rewrite every entry's value with ``change``, its digest made to match (as a forger would)."""
    from writing_rules.lint._cache import _digest, _serialise

    for path in entries(folder):
        entry = json.loads(path.read_text(encoding="utf-8"))
        change(entry["value"])
        entry["digest"] = _digest(_serialise(entry["value"]))
        path.write_text(json.dumps(entry), encoding="utf-8")


def _no_signals(value: dict) -> None:
    value["data"]["signals"] = []
    value["data"]["totalSignals"] = 0


def test_a_cache_committed_in_the_checkout_is_not_read(repo: Path, scan) -> None:
    write(repo, "page.md", PAGE)
    scan("page.md", "--cache-dir", ".writing-rules-cache")  # what a repository could commit
    _forge(repo / ".writing-rules-cache", _no_signals)
    outcome = scan("page.md")
    assert outcome.code == 1
    assert outcome.rules() == ["word-choice"]
    assert len(entries()) == 1  # the scan used (and filled) the user cache instead


def test_the_default_cache_is_outside_the_checkout(repo: Path, scan) -> None:
    write(repo, "page.md", PAGE)
    scan("page.md")
    assert len(entries()) == 1
    assert sorted(path.name for path in repo.iterdir()) == [".git", "page.md"]


def test_entries_are_bound_to_the_file_path(repo: Path, scan) -> None:
    write(repo, "a.md", PAGE)
    write(repo, "b.md", PAGE)
    scan("a.md", "b.md")
    assert len(entries()) == 2  # same content, same settings: still one entry per file


def _drop(name: str):
    def change(value: dict) -> None:
        del value["data"][name]

    return change


def _signal(name: str, replacement: object):
    def change(value: dict) -> None:
        value["data"]["signals"][0][name] = replacement

    return change


@pytest.mark.parametrize(
    "change",
    [
        _drop("signals"),
        _drop("ruleIds"),
        lambda value: value.pop("language"),
        lambda value: value.__setitem__("data", []),
        _signal("ruleId", "no-such-rule"),
        _signal("start", 10**6),
        _signal("end", 10**6),
        _signal("start", -5),
        _signal("line", "3"),
        _signal("level", "fatal"),
        _signal("context", None),
        lambda value: value["data"]["signals"][0].pop("match"),
        lambda value: value["data"]["signals"].append("not a signal"),
    ],
)
def test_an_entry_of_the_wrong_shape_is_a_miss(repo: Path, scan, change) -> None:
    write(repo, "page.md", PAGE)
    cache = repo.parent / "cache"
    first = scan("page.md", "--format", "sarif", "--cache-dir", str(cache))
    _forge(cache, change)
    assert scan("page.md", "--format", "sarif", "--cache-dir", str(cache)) == first
    assert scan("page.md", "--format", "sarif", "--cache-dir", str(cache)) == first  # and rewritten whole


def test_user_cache_dir_by_platform(tmp_path: Path) -> None:
    from writing_rules.lint import user_cache_dir

    home = str(tmp_path)
    assert user_cache_dir({"HOME": home}, "linux") == os.path.join(home, ".cache", "writing-rules")
    assert user_cache_dir({"HOME": home, "XDG_CACHE_HOME": "/x/cache"}, "linux") == os.path.join(
        "/x/cache", "writing-rules"
    )
    assert user_cache_dir({"HOME": home, "XDG_CACHE_HOME": "relative"}, "linux") == os.path.join(
        home, ".cache", "writing-rules"
    )
    assert user_cache_dir({"HOME": home}, "darwin") == os.path.join(home, "Library", "Caches", "writing-rules")
    assert user_cache_dir({"LOCALAPPDATA": "C:/Users/a/AppData/Local"}, "win32") == os.path.join(
        "C:/Users/a/AppData/Local", "writing-rules", "Cache"
    )
    assert user_cache_dir({"HOME": home, "WRITING_RULES_CACHE_DIR": "/chosen"}, "linux") == "/chosen"


def test_the_environment_variable_moves_the_cache_and_the_option_wins(repo: Path, scan, monkeypatch) -> None:
    write(repo, "page.md", PAGE)
    monkeypatch.setenv("WRITING_RULES_CACHE_DIR", str(repo.parent / "env-cache"))
    scan("page.md")
    assert len(entries(repo.parent / "env-cache")) == 1
    scan("page.md", "--cache-dir", str(repo.parent / "option-cache"))
    assert len(entries(repo.parent / "option-cache")) == 1


@pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform.startswith("win"), reason="POSIX links")
@pytest.mark.parametrize("marker", [".gitignore", "CACHEDIR.TAG"])
def test_dangling_links_in_the_cache_folder_write_nothing_elsewhere(repo: Path, scan, marker: str) -> None:
    write(repo, "page.md", PAGE)
    cache = repo / "cache"
    cache.mkdir()
    target = repo.parent / f"outside-{marker}"
    os.symlink(target, cache / marker)
    outcome = scan("page.md", "--cache-dir", str(cache))
    assert outcome.rules() == ["word-choice"]
    assert not target.exists()


@pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform.startswith("win"), reason="POSIX links")
def test_a_cache_folder_that_is_a_link_is_refused(repo: Path, scan) -> None:
    write(repo, "page.md", PAGE)
    outside = repo.parent / "outside"
    outside.mkdir()
    os.symlink(outside, repo / "cache")
    outcome = scan("page.md", "--cache-dir", "cache")
    assert outcome.code == 1 and outcome.rules() == ["word-choice"]
    assert list(outside.iterdir()) == []
    assert "warning: the cache folder cache is a symbolic link" in outcome.err


@pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform.startswith("win"), reason="POSIX links")
def test_a_link_inside_the_cache_layout_is_refused(repo: Path, scan) -> None:
    write(repo, "page.md", PAGE)
    outside = repo.parent / "outside"
    outside.mkdir()
    (repo / "cache").mkdir()
    os.symlink(outside, repo / "cache" / "v1")
    outcome = scan("page.md", "--cache-dir", "cache")
    assert outcome.rules() == ["word-choice"]
    assert list(outside.iterdir()) == []
    assert "symbolic link" in outcome.err


def test_without_a_home_folder_there_is_no_cache_rather_than_one_in_the_checkout(repo: Path, scan, monkeypatch) -> None:
    from writing_rules.lint import user_cache_dir

    assert user_cache_dir({"HOME": "relative/home"}, "linux") == ""
    assert user_cache_dir({}, "win32") == ""
    monkeypatch.delenv("WRITING_RULES_CACHE_DIR")
    monkeypatch.setenv("HOME", "relative")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    write(repo, "page.md", PAGE)
    outcome = scan("page.md")
    assert outcome.rules() == ["word-choice"] and "warning" not in outcome.err
    assert sorted(path.name for path in repo.iterdir()) == [".git", "page.md"]


@pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform.startswith("win"), reason="POSIX links")
def test_a_cache_dir_reached_through_a_committed_link_is_refused(repo: Path, scan) -> None:
    write(repo, "page.md", PAGE)
    outside = repo.parent / "outside"
    outside.mkdir()
    os.symlink(outside, repo / ".cache")  # committed by the repository; CI passes --cache-dir .cache/wr
    outcome = scan("page.md", "--cache-dir", ".cache/wr")
    assert outcome.rules() == ["word-choice"]
    assert list(outside.iterdir()) == []
    assert "passes through the symbolic link .cache" in outcome.err
