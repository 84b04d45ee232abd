"""Configuration files, driven through ``writing-rules scan`` on temporary repositories."""

from __future__ import annotations

from pathlib import Path

import pytest

from writing_rules._levels import highest_level
from writing_rules.lint import ConfigError, ConfigResolver, FileSettings, load_config, signal_level

from .conftest import write

# One sentence per rule: word-choice (powerful), filler (very), easy-claims (simple).
PAGE = "This is a powerful tool.\n\nIt is very fast.\n\nSetup is simple.\n"


def test_without_configuration_every_rule_reports(repo: Path, scan) -> None:
    write(repo, "docs/page.md", PAGE)
    outcome = scan("docs")
    assert outcome.code == 1
    assert outcome.rules() == ["word-choice", "filler", "easy-claims"]


def test_nearest_configuration_wins_per_file(repo: Path, scan) -> None:
    write(repo, ".writing-rules.toml", 'disable = ["filler"]\n')
    write(repo, "docs/api/.writing-rules.toml", 'disable = ["word-choice"]\n')
    write(repo, "docs/page.md", PAGE)
    write(repo, "docs/api/ref.md", PAGE)
    outcome = scan("docs")
    by_file: dict[str, list[str]] = {}
    for line in outcome.lines():
        by_file.setdefault(line.split(":")[0], []).append(line.split(": ")[1])
    assert by_file == {
        "docs/api/ref.md": ["filler", "easy-claims"],  # the nearest file replaces, it does not merge
        "docs/page.md": ["word-choice", "easy-claims"],
    }


def test_configuration_is_found_from_the_file_not_the_working_folder(repo: Path, scan, monkeypatch) -> None:
    write(repo, "docs/.writing-rules.toml", 'disable = ["filler", "easy-claims"]\n')
    write(repo, "docs/page.md", PAGE)
    (repo / "elsewhere").mkdir()
    monkeypatch.chdir(repo / "elsewhere")
    assert scan("../docs/page.md").rules() == ["word-choice"]


def test_pyproject_table_counts_and_a_pyproject_without_it_does_not(repo: Path, scan) -> None:
    write(repo, "pyproject.toml", '[project]\nname = "x"\n\n[tool.writing-rules]\ndisable = ["word-choice"]\n')
    write(repo, "docs/pyproject.toml", '[project]\nname = "docs"\n')
    write(repo, "docs/page.md", PAGE)
    assert scan("docs/page.md").rules() == ["filler", "easy-claims"]
    # A .writing-rules.toml in the same folder comes first.
    write(repo, ".writing-rules.toml", 'disable = ["filler"]\n')
    assert scan("docs/page.md").rules() == ["word-choice", "easy-claims"]


def test_search_stops_at_the_repository_root(repo: Path, scan) -> None:
    write(repo.parent, ".writing-rules.toml", 'disable = ["word-choice", "filler", "easy-claims"]\n')
    write(repo, "page.md", PAGE)
    assert scan("page.md").rules() == ["word-choice", "filler", "easy-claims"]


def test_config_and_no_config_options(repo: Path, scan) -> None:
    write(repo, ".writing-rules.toml", 'disable = ["filler"]\n')
    write(repo, "team.toml", 'rules = ["filler"]\n')
    write(repo, "page.md", PAGE)
    assert scan("page.md", "--config", "team.toml").rules() == ["filler"]
    assert scan("page.md", "--no-config").rules() == ["word-choice", "filler", "easy-claims"]
    both = scan("page.md", "--no-config", "--config", "team.toml")
    assert both.code == 2 and "not both" in both.err


def test_command_line_overrides_the_file(repo: Path, scan) -> None:
    write(repo, ".writing-rules.toml", 'rules = ["filler"]\nlanguage = "de"\n')
    write(repo, "page.md", PAGE)
    assert scan("page.md").rules() == []  # German rules find nothing in English
    assert scan("page.md", "--language", "en").rules() == ["filler"]
    assert scan("page.md", "--language", "en", "--rule", "word-choice").rules() == ["word-choice"]


def test_rules_profile_and_disable_combine(repo: Path, scan) -> None:
    write(repo, ".writing-rules.toml", 'profile = "public-docs"\ndisable = ["filler"]\n')
    write(repo, "page.md", PAGE)
    assert scan("page.md").rules() == ["word-choice", "easy-claims"]
    write(repo, ".writing-rules.toml", 'profile = "technical-reference"\n')  # no word-choice, no filler
    assert scan("page.md").rules() == ["easy-claims"]


def test_min_level_keeps_signals_at_that_level_or_above(repo: Path, scan) -> None:
    page = PAGE + "\nThe file is saved by the system.\n\nThis happens in order to save time.\n"
    write(repo, "page.md", page)

    def found(*arguments: str) -> list[tuple[str, str]]:
        (result,) = scan("page.md", "--format", "json", *arguments).json()
        return [(signal["ruleId"], signal["signalId"]) for signal in result["signals"]]

    everything = found("--min-level", "suggestion")
    order = ["error", "warning", "suggestion"]
    assert len({signal_level(*signal) for signal in everything}) >= 2, "the page should mix levels"
    # Without configuration or --min-level the command line shows warnings and errors only.
    assert found() == [signal for signal in everything if signal_level(*signal) != "suggestion"]
    for minimum in order:
        write(repo, ".writing-rules.toml", f'min-level = "{minimum}"\n')
        expected = [signal for signal in everything if order.index(signal_level(*signal)) <= order.index(minimum)]
        assert found() == expected
        assert found("--no-config", "--min-level", minimum) == expected


def test_accept_terms_are_case_sensitive_and_local(repo: Path, scan) -> None:
    write(repo, ".writing-rules.toml", 'accept = ["Simple Queue Service", "very"]\n')
    write(repo, "page.md", "Send it to the Simple Queue Service.\n\nSetup is simple.\n\nIt is Very fast.\n")
    assert scan("page.md").lines() == [
        'page.md:3:10: easy-claims: "simple" Do not call a task easy',
        'page.md:5:7: filler: "Very" Cut intensifiers and filler',
    ]


def test_include_and_exclude_choose_files_in_folders(repo: Path, scan) -> None:
    write(repo, ".writing-rules.toml", 'include = ["docs/**"]\nexclude = ["docs/vendor/", "*.draft.md"]\n')
    for name in ("docs/a.md", "docs/vendor/b.md", "docs/c.draft.md", "notes/d.md", "docs/e.mdx"):
        write(repo, name, PAGE)
    outcome = scan(".")
    assert sorted({line.split(":")[0].removeprefix("./") for line in outcome.lines()}) == ["docs/a.md", "docs/e.mdx"]


def test_config_globs_never_widen_an_explicit_file_list(repo: Path, scan) -> None:
    write(repo, ".writing-rules.toml", 'include = ["**/*.md", "**/*.txt"]\nexclude = ["vendor/**"]\n')
    write(repo, "a.md", PAGE)
    write(repo, "b.md", PAGE)
    write(repo, "notes.txt", PAGE)
    write(repo, "vendor/c.md", PAGE)
    outcome = scan("a.md", "vendor/c.md")
    assert {line.split(":")[0] for line in outcome.lines()} == {"a.md"}
    assert "vendor/c.md: skipped (excluded by the configuration)" in outcome.err


def test_overrides_apply_in_order_to_their_paths(repo: Path, scan) -> None:
    write(
        repo,
        ".writing-rules.toml",
        'disable = ["filler"]\n\n[[overrides]]\npaths = ["blog/**"]\ndisable = []\nmin-level = "error"\n\n'
        '[[overrides]]\npaths = ["blog/drafts/*.md"]\nrules = ["filler"]\nmin-level = "suggestion"\n',
    )
    write(repo, "docs/a.md", PAGE)
    write(repo, "blog/b.md", PAGE)
    write(repo, "blog/drafts/c.md", PAGE)
    outcome = scan(".")
    files: dict[str, list[str]] = {}
    for line in outcome.lines():
        files.setdefault(line.split(":")[0].removeprefix("./"), []).append(line.split(": ")[1])
    expected_blog = [rule for rule in ("word-choice", "filler", "easy-claims") if highest_level(rule) == "error"]
    assert files.get("blog/b.md", []) == expected_blog
    assert files["blog/drafts/c.md"] == ["filler"]
    assert files["docs/a.md"] == ["word-choice", "easy-claims"]


def test_markup_per_glob_reads_rst_comments(repo: Path, scan) -> None:
    write(repo, ".writing-rules.toml", '[markup]\n"*.txt" = "rst"\n')
    write(repo, "page.txt", ".. writing-rules-disable-next-line\n\nThis is very fast.\n")
    # Read as rst, the comment is a directive; it covers the next line with text.
    assert scan("page.txt").rules() == []
    write(repo, "page.txt", "<!-- writing-rules-disable-next-line -->\nThis is very fast.\n")
    assert scan("page.txt").rules() == ["filler"]  # an HTML comment is no rst comment
    write(repo, "page.txt", "This is very fast.\n\n.. writing-rules-disable-file filler\n")
    assert scan("page.txt").rules() == []


@pytest.mark.parametrize(
    ("content", "line", "fragment"),
    [
        ('language = "fr"\n', 1, "valid choices: auto, en, de"),
        ('\n\nmin-level = "info"\n', 3, "valid choices: error, warning, suggestion"),
        ('rules = "filler"\n', 1, 'rules = ["filler"]; valid rule ids'),
        # A wrong type names the valid choices too, and shows the fix with the user's own value.
        ('disable = "hedging"\n', 1, 'disable = ["hedging"]; valid rule ids: reader-goal, word-choice'),
        ("rules = [1]\n", 1, "valid rule ids: reader-goal"),
        ('profile = "docs"\n', 1, "valid choices: public-docs"),
        ('disable = ["filer"]\n', 1, "did you mean 'filler'?"),
        # A long list over several lines: the line of the wrong id, not of the key.
        ('disable = [\n  "hedging",\n  "filer",\n]\n', 3, "did you mean 'filler'?"),
        ('[[overrides]]\npaths = ["a"]\nrules = ["hedging",\n  "nope"]\n', 4, "unknown rule id 'nope'"),
        ('include = "docs/**"\n', 1, 'include = ["docs/**"]'),
        ('rule = ["filler"]\n', 1, "valid keys: language, profile, rules, disable, min-level"),
        ('[markup]\n"*.txt" = "asciidoc"\n', 2, "markdown, mdx, rst, html, text"),
        ('[[overrides]]\ndisable = ["filler"]\n', 1, "needs paths"),
        ('[[overrides]]\npaths = ["a"]\n\n[[overrides]]\npaths = ["b"]\nexclude = ["c"]\n', 6, "valid keys: paths"),
        ("accept = [1, 2]\n", 1, "accept must be an array"),
        ('rules = ["filler"\n', 1, "not valid TOML: Unclosed array"),
        ("a = 1\na = 2\n", 2, "not valid TOML"),
    ],
)
def test_bad_configuration_is_exit_2_with_file_line_and_choices(repo: Path, scan, content, line, fragment) -> None:
    write(repo, ".writing-rules.toml", content)
    write(repo, "page.md", PAGE)
    outcome = scan("page.md")
    assert outcome.code == 2
    assert outcome.out == ""
    assert f"error: .writing-rules.toml:{line}: " in outcome.err
    assert fragment in outcome.err
    assert "Traceback" not in outcome.err


def test_bad_pyproject_table_names_its_line(repo: Path, scan) -> None:
    write(repo, "pyproject.toml", '[project]\nname = "x"\n\n[tool.writing-rules]\nmin-level = "low"\n')
    write(repo, "page.md", PAGE)
    outcome = scan("page.md")
    assert outcome.code == 2
    assert "pyproject.toml:5: min-level" in outcome.err


def test_a_broken_pyproject_stops_the_scan_only_when_it_may_hold_the_table(repo: Path, scan) -> None:
    # Another tool's broken pyproject.toml is not read: it cannot hold [tool.writing-rules].
    write(repo, "pyproject.toml", '[project]\nname = "x"\n\n[tool.black]\nline-length = \n')
    write(repo, "page.md", PAGE)
    assert scan("page.md").code == 1
    write(repo, "pyproject.toml", '[project]\nname = "x"\n\n[tool.writing-rules]\nmin-level = \n')
    outcome = scan("page.md")
    assert outcome.code == 2
    assert "pyproject.toml:5: not valid TOML" in outcome.err
    # Asked for by name, a pyproject.toml is always read.
    write(repo, "pyproject.toml", '[project]\nname = "x"\n\n[tool.black]\nline-length = \n')
    assert "pyproject.toml:5: not valid TOML" in scan("--config", "pyproject.toml", "page.md").err


def test_load_config_and_resolver_public_api(repo: Path) -> None:
    write(repo, ".writing-rules.toml", 'accept = ["Simple"]\n[[overrides]]\npaths = ["api/"]\nlanguage = "de"\n')
    config = load_config(".writing-rules.toml")
    assert config.settings_for("guide.md") == FileSettings(accept=("Simple",))
    assert config.settings_for("api/x.md").language == "de"
    resolver = ConfigResolver()
    assert resolver.config_for("api/x.md") == config
    assert ConfigResolver(disabled=True).config_for("api/x.md") is None
    with pytest.raises(ConfigError) as raised:
        load_config("missing.toml")
    assert raised.value.path == "missing.toml" and raised.value.line == 1


# -- issue 25, finding 7: a configuration in an unexpected parent ----------------------------------


def test_outside_a_repository_a_config_above_the_working_folder_does_not_apply(
    tmp_path: Path, scan, monkeypatch
) -> None:
    write(tmp_path, ".writing-rules.toml", 'exclude = ["**"]\n')  # as if someone left it in /tmp
    write(tmp_path, "work/docs/page.md", PAGE)
    monkeypatch.chdir(tmp_path / "work")
    outcome = scan("docs")
    assert outcome.code == 1
    assert outcome.rules() == ["word-choice", "filler", "easy-claims"]


def test_outside_a_repository_the_search_stops_at_a_project_marker(tmp_path: Path, scan, monkeypatch) -> None:
    write(tmp_path, ".writing-rules.toml", 'exclude = ["**"]\n')
    write(tmp_path, "project/.writing-rules.toml", 'disable = ["filler"]\n')
    write(tmp_path, "project/sub/package.json", "{}\n")
    write(tmp_path, "project/sub/docs/page.md", PAGE)
    monkeypatch.chdir(tmp_path)
    assert scan("project/sub/docs/page.md").rules() == ["word-choice", "filler", "easy-claims"]


def test_the_search_never_climbs_above_home(tmp_path: Path, scan, monkeypatch) -> None:
    write(tmp_path, ".writing-rules.toml", 'exclude = ["**"]\n')
    write(tmp_path, "home/notes/page.md", PAGE)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    assert scan("home/notes/page.md").rules() == ["word-choice", "filler", "easy-claims"]


def test_a_configuration_above_the_working_folder_is_named_on_stderr(repo: Path, scan, monkeypatch) -> None:
    write(repo, ".writing-rules.toml", 'disable = ["filler"]\n')
    write(repo, "docs/page.md", PAGE)
    monkeypatch.chdir(repo / "docs")
    outcome = scan("page.md")
    assert outcome.rules() == ["word-choice", "easy-claims"]
    note = f"writing-rules: using the configuration {repo / '.writing-rules.toml'} (above the working folder)"
    assert note in outcome.err
    monkeypatch.chdir(repo)
    assert "using the configuration" not in scan("docs/page.md").err


def test_a_folder_wholly_excluded_says_so(repo: Path, scan) -> None:
    write(repo, ".writing-rules.toml", 'exclude = ["docs/**"]\n')
    write(repo, "docs/page.md", PAGE)
    outcome = scan("docs")
    assert outcome.out == ""
    assert "docs: every file in it is excluded by the configuration .writing-rules.toml; nothing scanned" in outcome.err
