"""File names cannot fake output lines (issue 25, finding 18).

A name holding a line break and ``::error file=x.md,line=1::INJECTED`` became a line of
its own, which GitHub Actions executes as a workflow command; right-to-left overrides
were printed raw; SARIF URIs were not percent-encoded.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest

from writing_rules.cli import main

PAGE = "This is a powerful tool.\n"
INJECTED = "x.md\n::error file=x.md,line=1::INJECTED\n"
pytestmark = pytest.mark.skipif(sys.platform.startswith("win"), reason="such names are POSIX-only")


def _scan(capsys, *arguments: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["scan", *arguments])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("name", [INJECTED + ".md", "evil\u202egnp.md", "bell\x07\x1b[31m.md", "sep\u2028x.md"])
def test_text_report_and_messages_keep_one_line_per_message(tmp_path: Path, monkeypatch, capsys, name: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / name).write_text(PAGE, encoding="utf-8")
    code, out, err = _scan(capsys, "docs", "--no-cache")
    assert code == 1
    for line in (*out.splitlines(), *err.splitlines()):
        assert not line.startswith("::")
        assert not any(char in line for char in "\u202e\x07\x1b\u2028")
    assert len(out.splitlines()) == 1 and len(err.splitlines()) == 1
    assert out.startswith("docs/") and ": word-choice: " in out


def test_a_name_on_the_command_line_that_is_missing_is_escaped_on_stderr(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = _scan(capsys, INJECTED, "--no-cache")
    assert code == 2
    assert err.splitlines() == [
        "writing-rules: x.md\\n::error file=x.md,line=1::INJECTED\\n: no such file or directory; not scanned"
    ]


@pytest.mark.parametrize("name", ["a%2F..%2F..%2Fetc%2Fpasswd.md", "q#frag?x.md", "sp ace.md", "ümlaut.md", "c:d.md"])
def test_sarif_uris_are_percent_encoded_and_round_trip(tmp_path: Path, monkeypatch, capsys, name: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / name).write_text(PAGE, encoding="utf-8")
    _, out, _ = _scan(capsys, "docs", "--no-cache", "--format", "sarif")
    (result,) = json.loads(out)["runs"][0]["results"]
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert all(char not in uri for char in "#? :") and "%2F" not in uri.replace("%252F", "")
    assert unquote(uri) == f"docs/{name}"
