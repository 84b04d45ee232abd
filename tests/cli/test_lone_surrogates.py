"""The command line's output always encodes as UTF-8 (issue 30).

A file or folder name that is not valid UTF-8 reaches Python as a string with
lone surrogates (``os.fsdecode``'s surrogateescape), and so can an argument
such as ``--audience``. Every output (text, JSON, SARIF, HTML, GitHub, the
``--fix --dry-run`` diff, ``--output`` files) writes each one as U+FFFD, so
a report is valid UTF-8 even on a stream that refuses surrogates; positions
are those of the file's text, whatever its name.
"""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules._patch_names import quote_patch_name
from writing_rules.cli._commands import run

FORMATS = ["text", "json", "sarif", "html", "github"]
SURROGATE = re.compile("[\ud800-\udfff]")
PARAGRAPHS = [
    "We fix every bug within minutes. A powerful tool, very simple to use.\n",
    "In order to start, simply utilize the API. It is really easy.\n\n",
    "Die Daten werden zur Verfügung gestellt. Der Schritt ist sehr wichtig.\n",
    "```\nvery powerful code\n```\n",
]
# Text a file can hold: any character but a surrogate (a file is read as strict UTF-8).
_characters = st.characters(exclude_categories=("Cs",))


@st.composite
def contents(draw: st.DrawFn) -> str:
    text = "".join(draw(st.lists(st.sampled_from(PARAGRAPHS), min_size=1, max_size=3)))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.text(_characters, max_size=4)) + text[at:]
    return text


# A name's bytes: printable ASCII and bytes that are not UTF-8 on their own (0x80-0xff).
_name_bytes = (
    st.lists(
        st.sampled_from([b"a", b"-", b"\x80", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe2\x80"]), min_size=1, max_size=5
    )
    .map(b"".join)
    .map(b"p".__add__)
)  # never a leading "-": that would be an option


@contextmanager
def folder() -> Iterator[Path]:
    old = os.getcwd()
    with tempfile.TemporaryDirectory() as name:
        os.chdir(name)
        try:
            yield Path(name)
        finally:
            os.chdir(old)


def strict_stream() -> io.TextIOWrapper:
    """A standard output that refuses what is not UTF-8, as Python's is under a UTF-8 locale."""
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict", newline="")


def cli(*arguments: str) -> tuple[int, str]:
    stdout = strict_stream()
    if arguments[0] == "scan":
        arguments = (*arguments, "--no-cache")
    status = run(list(arguments), io.StringIO(), stdout, io.StringIO())
    stdout.flush()
    assert isinstance(stdout.buffer, io.BytesIO)
    return status, stdout.buffer.getvalue().decode("utf-8")


def signals(output: str) -> list[list[dict[str, object]]]:
    return [entry["signals"] for entry in json.loads(output)]


@settings(max_examples=40)
@given(text=contents(), folder_name=_name_bytes, file_name=_name_bytes)
def test_every_format_writes_a_file_with_an_undecodable_name_as_utf_8(
    text: str, folder_name: bytes, file_name: bytes
) -> None:
    with folder() as root:
        odd = os.path.join(os.fsdecode(folder_name), os.fsdecode(file_name) + ".md")
        os.mkdir(os.fsencode(root / os.fsdecode(folder_name)))
        Path(odd).write_text(text, encoding="utf-8")
        os.mkdir("plain")
        Path("plain/page.md").write_text(text, encoding="utf-8")
        for form in FORMATS:
            status, output = cli("scan", odd, "--format", form, "--min-level", "suggestion", "--language", "en")
            assert status in (0, 1), form
            assert not SURROGATE.search(output)
            if form in ("json", "html"):  # the formats that name a file without signals
                assert SURROGATE.sub("\ufffd", odd) in output
        # The same text under a plain name: the same signals at the same positions.
        _, odd_json = cli("scan", odd, "--format", "json", "--min-level", "suggestion", "--language", "en")
        _, plain_json = cli(
            "scan", "plain/page.md", "--format", "json", "--min-level", "suggestion", "--language", "en"
        )
        assert signals(odd_json) == signals(plain_json)
        # A whole folder holding the file, written with --output.
        status, output = cli("scan", ".", "--format", "sarif", "--output", "report.sarif", "--language", "en")
        assert status in (0, 1) and output == ""
        json.loads(Path("report.sarif").read_bytes().decode("utf-8"))
        # The dry run's diff names the file in its headers, C-quoted as git does: a name
        # that is not UTF-8 keeps its bytes as octal escapes, so `git apply` finds the file.
        status, diff = cli("scan", "--fix", "--dry-run", "--language", "en", odd)
        assert not SURROGATE.search(diff)
        # Whether a fix applies depends on the characters drawn around it (an opening "»" makes
        # the phrase a quotation, which the rule leaves alone): the header is checked whenever
        # a patch is printed.
        if diff and status != 2:
            assert diff.startswith(f"--- {quote_patch_name('a/', odd)}\n")


@pytest.mark.parametrize("form", ["text", "json"])
def test_the_prompt_command_writes_an_undecodable_audience_as_utf_8(form: str) -> None:
    audience = os.fsdecode(b"Entwickler \xff")
    status, output = cli(
        "prompt", "--profile", "public-docs", "--audience", audience, "--goal", "Klarheit", "--format", form
    )
    assert status == 0
    assert "Entwickler \ufffd" in output


def test_a_baseline_keeps_a_file_whose_name_is_not_utf_8() -> None:
    with folder():
        odd = os.fsdecode(b"g\xffd.md")
        Path(odd).write_text("A powerful tool, in order to win.\n", encoding="utf-8")
        status, _ = cli("scan", ".", "--language", "en", "--write-baseline", "baseline.json")
        assert status == 0
        written = Path("baseline.json").read_bytes().decode("utf-8")  # valid UTF-8: the odd byte is escaped
        assert sorted(os.listdir(".")) == sorted(["baseline.json", odd])  # no temporary file left behind
        # The name reads back exactly, so the file's signals are known ones.
        assert {entry["path"] for entry in json.loads(written)["entries"]} == {odd}
        status, output = cli("scan", ".", "--language", "en", "--baseline", "baseline.json")
        assert (status, output) == (0, "")
