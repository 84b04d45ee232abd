"""A pack's rules work in ``scan`` wherever built-in rules do (docs/packs.md, "Loading a pack").

``disable``, ``rules``, ``min-level``, ``--rule``, inline directives, the
baseline, ``--diff``, ``--fix``, SARIF, the GitHub annotations, ``--jobs`` and
the cache, and ``writing-rules rules``: each with the example pack, copied into
a repository whose configuration names it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .conftest import git, write

ROOT = Path(__file__).resolve().parents[2]
ACME = ROOT / "examples" / "packs" / "acme"
CONFIG = 'packs = ["./styles/acme"]\n'
# acme/terms: "log in" (warning, fix "sign in"), "click on" (suggestion, fix "select"), "ACMECloud"
# (error); acme/no-etc: "etc." (suggestion); the built-in word-choice: "powerful".
PAGE = "Please log in first, then click on Save.\n\nInstall Git, Python, etc.\n\nThis is a powerful tool.\n"


@pytest.fixture
def acme_repo(repo: Path) -> Path:
    shutil.copytree(ACME, repo / "styles" / "acme", ignore=shutil.ignore_patterns("__pycache__"))
    write(repo, ".writing-rules.toml", CONFIG)
    write(repo, "page.md", PAGE)
    return repo


def hits(outcome) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(signal["ruleId"], signal["match"]) for report in outcome.json() for signal in report["signals"]]


def test_a_configured_pack_is_scanned(acme_repo: Path, scan) -> None:
    outcome = scan("page.md", "--format", "json")
    assert outcome.code == 1
    assert hits(outcome) == [("acme/terms", "log in"), ("word-choice", "powerful")]  # default level: warning
    (report,) = outcome.json()
    assert "acme/terms" in report["ruleIds"] and "acme/no-etc" in report["ruleIds"]
    signal = report["signals"][0]
    assert (signal["level"], signal["fix"]) == ("warning", {"replacement": "sign in", "match": "log in"})
    text = scan("page.md")
    assert text.lines()[0] == (
        "page.md:1:8: acme/terms: \"log in\" Use 'sign in' instead of 'log in'. "
        'Our product says "sign in" everywhere.'
    )


def test_min_level_disable_and_rules_take_pack_ids(acme_repo: Path, scan) -> None:
    assert hits(scan("page.md", "--format", "json", "--min-level", "suggestion")) == [
        ("acme/terms", "log in"),
        ("acme/terms", "click on"),
        ("acme/no-etc", "etc."),
        ("word-choice", "powerful"),
    ]
    write(acme_repo, ".writing-rules.toml", CONFIG + 'min-level = "suggestion"\ndisable = ["acme/terms"]\n')
    assert hits(scan("page.md", "--format", "json")) == [("acme/no-etc", "etc."), ("word-choice", "powerful")]
    write(acme_repo, ".writing-rules.toml", CONFIG + 'rules = ["acme/no-etc"]\nmin-level = "suggestion"\n')
    assert hits(scan("page.md", "--format", "json")) == [("acme/no-etc", "etc.")]
    assert hits(scan("page.md", "--format", "json", "--rule", "acme/terms")) == [
        ("acme/terms", "log in"),
        ("acme/terms", "click on"),
    ]


def test_rule_on_the_command_line_needs_the_pack(acme_repo: Path, scan) -> None:
    write(acme_repo, ".writing-rules.toml", "")
    outcome = scan("page.md", "--rule", "acme/terms")
    assert outcome.code == 2 and "acme/terms" in outcome.err
    assert hits(scan("page.md", "--format", "json", "--rule", "acme/terms", "--pack", "styles/acme")) == [
        ("acme/terms", "log in")
    ]


def test_the_pack_on_the_command_line_alone(acme_repo: Path, scan) -> None:
    assert hits(scan("page.md", "--format", "json", "--no-config", "--pack", "styles/acme")) == [
        ("acme/terms", "log in"),
        ("word-choice", "powerful"),
    ]


def test_inline_directives_know_pack_ids(acme_repo: Path, scan) -> None:
    write(acme_repo, "page.md", "<!-- writing-rules-disable-next-line acme/terms -->\n" + PAGE)
    assert hits(scan("page.md", "--format", "json")) == [("word-choice", "powerful")]
    write(acme_repo, "page.md", "<!-- writing-rules-disable acme/nothing -->\n" + PAGE)
    outcome = scan("page.md")
    assert outcome.code == 2
    assert "page.md:1:1: error: unknown rule id 'acme/nothing' in writing-rules-disable" in outcome.err
    assert "acme/terms" in outcome.err  # the valid ids listed include the pack's


def test_the_baseline_and_diff_hold_back_pack_signals(acme_repo: Path, scan) -> None:
    assert scan("page.md", "--write-baseline", "baseline.json").code == 0
    recorded = json.loads((acme_repo / "baseline.json").read_text(encoding="utf-8"))
    assert "acme/terms" in json.dumps(recorded)
    assert scan("page.md", "--baseline", "baseline.json").code == 0
    write(acme_repo, "page.md", PAGE + "\nPlease log on now.\n")
    assert hits(scan("page.md", "--format", "json", "--baseline", "baseline.json")) == [("acme/terms", "log on")]
    # --diff: only the changed line's signals.
    write(acme_repo, "page.md", PAGE)
    git(acme_repo, "add", "-A")
    git(acme_repo, "commit", "-q", "-m", "start")
    write(acme_repo, "page.md", PAGE + "\nPlease log on now.\n")
    assert hits(scan("page.md", "--format", "json", "--diff", "HEAD")) == [("acme/terms", "log on")]


def test_fix_applies_pack_fixes(acme_repo: Path, scan) -> None:
    write(acme_repo, ".writing-rules.toml", CONFIG + 'min-level = "suggestion"\n')
    outcome = scan("page.md", "--fix")
    assert outcome.code == 1  # acme/no-etc and word-choice have no fix
    assert (acme_repo / "page.md").read_text(encoding="utf-8") == PAGE.replace("log in", "sign in").replace(
        "click on", "select"
    )


def test_sarif_describes_pack_rules_with_their_text(acme_repo: Path, scan) -> None:
    outcome = scan("page.md", "--format", "sarif")
    log = outcome.json()
    rules = {rule["id"]: rule for rule in log["runs"][0]["tool"]["driver"]["rules"]}
    terms = rules["acme/terms"]
    assert terms["name"] == "AcmeTerms"
    assert terms["shortDescription"]["text"] and "'sign in' instead of 'log in'" in terms["help"]["text"]
    assert terms["defaultConfiguration"]["level"] == "warning"
    results = log["runs"][0]["results"]
    first = results[0]
    assert (
        first["ruleId"] == "acme/terms"
        and rules[first["ruleId"]] == log["runs"][0]["tool"]["driver"]["rules"][first["ruleIndex"]]
    )
    assert first["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"] == "sign in"
    github = scan("page.md", "--format", "github")
    assert github.lines()[0].startswith("::warning file=page.md,line=1,")
    assert "title=acme/terms%3A " in github.lines()[0]


def test_jobs_and_the_cache_give_the_same_pack_signals(acme_repo: Path, scan, tmp_path: Path) -> None:
    for index in range(4):
        write(acme_repo, f"docs/page{index}.md", PAGE)
    expected = scan("docs", "--format", "json", "--no-cache").out
    assert scan("docs", "--format", "json", "--jobs", "2", "--no-cache").out == expected
    cache = str(tmp_path / "cache")
    assert scan("docs", "--format", "json", "--cache-dir", cache).out == expected
    assert scan("docs", "--format", "json", "--cache-dir", cache).out == expected  # from the cache
    # Without the pack, the cached entries with pack signals are not served.
    write(acme_repo, ".writing-rules.toml", "")
    assert "acme/" not in scan("docs", "--format", "json", "--cache-dir", cache).out


def test_the_rules_command_lists_pack_rules_with_levels(acme_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from writing_rules.cli import main

    assert main(["rules", "--format", "json"]) == 0
    listed = {rule["id"]: rule for rule in json.loads(capsys.readouterr().out)["rules"]}
    assert listed["acme/terms"]["level"] == "warning"
    assert listed["acme/terms"]["signalLevels"] == {"select-en": "suggestion", "acme-cloud-en": "error"}
    assert listed["acme/no-etc"]["level"] == "suggestion" and "word-choice" in listed
    assert main(["rules"]) == 0
    text = capsys.readouterr().out
    assert 'acme/no-etc: Do not end a list with "etc." (suggestion; scanner signals; profiles: public-docs)' in text
    assert main(["rules", "--no-config"]) == 0
    assert "acme/" not in capsys.readouterr().out
    write(acme_repo, ".writing-rules.toml", "")
    assert main(["rules", "--pack", "styles/acme", "--format", "json"]) == 0
    assert "acme/terms" in {rule["id"] for rule in json.loads(capsys.readouterr().out)["rules"]}
    assert main(["rules", "--pack", "styles/none"]) == 2
    assert "--pack: pack styles/none: no such pack folder" in capsys.readouterr().err


def test_a_long_file_is_scanned_in_pieces_by_workers_with_the_packs(acme_repo: Path, scan) -> None:
    import pickle

    from writing_rules.lint import load_config
    from writing_rules.lint._pieces import Piece

    long_page = PAGE * 1_200  # over 64,000 characters: cut into pieces that the processes share
    write(acme_repo, "long.md", long_page)
    one = scan("long.md", "--format", "json", "--no-cache")
    assert len(long_page) > 64_000 and hits(one).count(("acme/terms", "log in")) == 1_200
    assert scan("long.md", "--format", "json", "--no-cache", "--jobs", "2").out == one.out
    # A piece names its packs by reference and digest, whatever the pack's size.
    packs = load_config(".writing-rules.toml").settings.packs
    piece = Piece("text", "en", ("acme/terms",), "markdown", None, None, False, packs)
    assert len(pickle.dumps(piece)) < 1_000 and pickle.loads(pickle.dumps(piece)) == piece


def test_the_html_report_names_pack_rules_with_their_texts(acme_repo: Path, scan) -> None:
    report = scan("page.md", "--format", "html").out
    assert "Team vocabulary <code>acme/terms</code>" in report
    assert "&#x27;sign in&#x27; instead of &#x27;log in&#x27;, &#x27;log on&#x27;" in report  # its instruction


def test_the_prompt_command_includes_the_packs_rules(acme_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from writing_rules.cli import main

    base = ["prompt", "--profile", "public-docs", "--audience", "New admins", "--goal", "Sign in"]
    assert main([*base, "--rule", "acme/no-etc"]) == 0
    assert "say which kind of items the list stands for" in capsys.readouterr().out
    assert main([*base, "--no-config", "--rule", "acme/no-etc"]) == 2
    assert "acme/no-etc" in capsys.readouterr().err


@pytest.mark.parametrize("jobs", [(), ("--jobs", "2")])
def test_a_pack_line_edited_by_hand_stops_the_scan_with_one_line(acme_repo: Path, scan, jobs: tuple[str, ...]) -> None:
    # The section's checksum made to match: the pack loads, and the bad pattern is met only when a
    # text has its trigger ("etc."), in this process or in a worker scanning a piece of a long file.
    from ..packs.test_loader import set_line

    set_line(acme_repo / "styles" / "acme", "patterns", "acme/no-etc", "etc-en", '"(?i)(etc"')
    write(acme_repo, "long.md", PAGE * 1_200)
    outcome = scan("long.md", "--no-cache", "--min-level", "suggestion", *jobs)
    assert outcome.code == 2 and outcome.out == ""
    assert outcome.err.count("\n") == 1 and "Traceback" not in outcome.err
    assert "pack ./styles/acme: " in outcome.err and "run `writing-rules pack build ./styles/acme`" in outcome.err


def test_a_module_edited_by_hand_is_not_served_from_the_cache(acme_repo: Path, scan, tmp_path: Path) -> None:
    # The sources are unchanged, so is their digest; the module's own bytes are not: the results
    # cached with the module as built must not be served for the edited one.
    from ..packs.test_loader import set_line

    cache = str(tmp_path / "cache")
    options = ("--format", "json", "--min-level", "suggestion", "--cache-dir", cache)
    assert ("acme/no-etc", "etc.") in hits(scan("page.md", *options))
    set_line(acme_repo / "styles" / "acme", "patterns", "acme/no-etc", "etc-en", '"(?i)\\\\betc\\\\b"')
    assert ("acme/no-etc", "etc") in hits(scan("page.md", *options[:-2], "--no-cache"))  # the dot left out
    found = hits(scan("page.md", *options))
    assert ("acme/no-etc", "etc") in found and ("acme/no-etc", "etc.") not in found


def test_a_committed_pack_pattern_that_backtracks_stops_the_scan(acme_repo: Path, scan) -> None:
    # A checkout can commit a module it wrote itself, checksums made to match, with a pattern the
    # build refuses: on "etc aaaa…!" re's time doubles with each "a" (thirty hung the scan for
    # good). The pattern is refused when first compiled, before it meets any text.
    from ..packs.test_loader import set_line

    set_line(acme_repo / "styles" / "acme", "patterns", "acme/no-etc", "etc-en", '"(?i)\\\\betc (?:a+)+!"')
    write(acme_repo, "page.md", "Install Git, Python, etc " + "a" * 12 + ".\n")
    outcome = scan("page.md", "--no-cache", "--min-level", "suggestion")
    assert outcome.code == 2 and outcome.out == ""
    assert "pack ./styles/acme: " in outcome.err and "backtrack" in outcome.err
