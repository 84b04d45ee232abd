"""``--format sarif`` is valid SARIF 2.1.0 (the OASIS schema), and its ``fixes`` are the safe fixes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules.cli import main

SCHEMA = json.loads((Path(__file__).parent / "sarif" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft4Validator(SCHEMA)

ENGLISH = (
    "# Setup\n\nThis is a very powerful tool, and we made use of it in order to ship.\n\n"
    "<!-- writing-rules-disable-next-line placeholders -->\nNothing to see.\n\nThe date is TBD.\n"
)
GERMAN = "# Einrichtung\n\nDas Werkzeug wird zur Verfügung gestellt. Es ist äußerst schnell.\n"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text(ENGLISH, encoding="utf-8")
    (tmp_path / "docs" / "anleitung.md").write_text(GERMAN, encoding="utf-8")
    (tmp_path / "docs" / "crlf.md").write_bytes(b"Line one.\r\nWe made\r\nuse of it, very fast.\r\n")
    return tmp_path


def sarif(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    main(["scan", "--format", "sarif", "--no-cache", *args])
    log: dict[str, Any] = json.loads(capsys.readouterr().out)
    return log


def errors(log: dict[str, Any]) -> list[str]:
    return [f"{list(error.absolute_path)}: {error.message}" for error in VALIDATOR.iter_errors(log)]


def test_the_whole_report_is_valid_sarif_2_1_0(folder: Path, capsys) -> None:
    log = sarif(capsys, "docs", "--min-level", "suggestion", "--report-unused-suppressions")
    results = log["runs"][0]["results"]
    assert any("fixes" in result for result in results)
    assert any(result["ruleId"] == "unused-suppression" for result in results)
    assert errors(log) == []


def test_an_empty_report_and_a_german_one_are_valid(folder: Path, capsys) -> None:
    (folder / "clean.md").write_text("Install the package.\n", encoding="utf-8")
    assert errors(sarif(capsys, "clean.md")) == []
    assert errors(sarif(capsys, "docs/anleitung.md", "--language", "de")) == []


def test_the_schema_refuses_what_it_should(folder: Path, capsys) -> None:
    # The check has teeth: a fix without artifactChanges is not SARIF.
    log = sarif(capsys, "docs/guide.md")
    (with_fix, *_) = [result for result in log["runs"][0]["results"] if "fixes" in result]
    del with_fix["fixes"][0]["artifactChanges"]
    assert errors(log)


def _region_text(text: str, region: dict[str, Any]) -> str:
    lines = text.splitlines(keepends=True)
    start = sum(len(line) for line in lines[: region["startLine"] - 1]) + region["startColumn"] - 1
    end = sum(len(line) for line in lines[: region["endLine"] - 1]) + region["endColumn"] - 1
    return text[start:end]


def test_a_fix_names_its_file_as_the_result_does(folder: Path, capsys) -> None:
    # One URI per file in the whole log: a name with a space or '#' is percent-encoded in both.
    (folder / "docs" / "my guide#1.md").write_text(ENGLISH, encoding="utf-8")
    log = sarif(capsys, "docs/my guide#1.md")
    results = [result for result in log["runs"][0]["results"] if "fixes" in result]
    assert results
    for result in results:
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert uri == "docs/my%20guide%231.md"
        assert {change["artifactLocation"]["uri"] for change in result["fixes"][0]["artifactChanges"]} == {uri}


def test_every_safe_fix_is_a_fix_and_only_those(folder: Path, capsys) -> None:
    signals = {}
    for path in ("docs/guide.md", "docs/anleitung.md", "docs/crlf.md"):
        main(["scan", "--format", "json", "--no-cache", path])
        (entry,) = json.loads(capsys.readouterr().out)
        signals[path] = entry["signals"]
    log = sarif(capsys, "docs")
    by_file: dict[str, list[dict[str, Any]]] = {}
    for result in log["runs"][0]["results"]:
        by_file.setdefault(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], []).append(result)
    for path, expected in signals.items():
        text = (folder / path).read_bytes().decode("utf-8")
        results = by_file[path]
        assert [signal.get("fix") is not None for signal in expected] == ["fixes" in result for result in results]
        for signal, result in zip(expected, results, strict=True):
            if "fixes" not in result:
                continue
            (fix,) = result["fixes"]
            (change,) = fix["artifactChanges"]
            assert change["artifactLocation"]["uri"] == path
            (replacement,) = change["replacements"]
            region = replacement["deletedRegion"]
            assert text[region["charOffset"] : region["charOffset"] + region["charLength"]] == signal["fix"]["match"]
            assert _region_text(text, region) == signal["fix"]["match"]
            assert replacement["insertedContent"]["text"] == signal["fix"]["replacement"]
    assert sum("fixes" in result for results in by_file.values() for result in results) >= 5


PHRASES = ["in order to", "made use of", "very", "really", "Very", "In order to", "utilize", "TBD", "simply"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([*PHRASES, "we", "ship", "it", ".", "\n", "\r\n", "\n\n", "ä", "😀"]), max_size=40))
def test_fix_regions_hold_the_fix_text_on_any_page(tmp_path_factory, words: list[str]) -> None:
    import io

    from writing_rules.cli._commands import run

    folder = tmp_path_factory.mktemp("page")
    page = folder / "page.md"
    text = "We " + " ".join(words) + " end.\n"
    page.write_bytes(text.encode("utf-8"))
    out, err = io.StringIO(), io.StringIO()
    run(["scan", "--format", "sarif", "--no-cache", "--language", "en", str(page)], None, out, err)
    log = json.loads(out.getvalue())
    assert errors(log) == []
    for result in log["runs"][0]["results"]:
        for fix in result.get("fixes", ()):
            region = fix["artifactChanges"][0]["replacements"][0]["deletedRegion"]
            expected = text[region["charOffset"] : region["charOffset"] + region["charLength"]]
            assert _region_text(text, region) == expected and expected.strip()
