"""The check that lets a scan skip parsing a pyproject.toml: it never misses a [tool.writing-rules] table."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from writing_rules.lint._pyproject import may_hold_table

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]

# Lines that make, fake or hide the table: headers, dotted and quoted keys, inline tables,
# arrays over several lines (whose lines look like headers), strings and comments holding brackets.
FRAGMENTS = (
    "[tool]",
    "[tool.writing-rules]",
    '[ tool . "writing-rules" ]',
    "['tool'.'writing-rules']",
    "[[tool.writing-rules.overrides]]",
    "[[tool]]",
    "[tool.ruff]",
    "[project]",
    "[project.scripts]",
    "[1]",
    '["tool"]',
    'writing-rules = "writing_rules.cli:main"',
    'writing-rules = { min-level = "error" }',
    '"writing-rules".min-level = "error"',
    "'writing-rules' = {}",
    'tool.writing-rules.min-level = "error"',
    "tool.writing-rules = []",
    "tool = { writing-rules = {} }",
    'tool."writing-rules" = { accept = ["x"] }',
    'name = "writing-rules"',
    "# [tool.writing-rules]",
    "x = [",
    "  [1, 2],",
    "  [3]",
    '  "[tool]",',
    "  { a = [1] },",
    "]",
    "],",
    'y = "a[b" # ]',
    "z = 'c]d'",
    "k = 1 # [",
    "a.b = 2",
    'inline = { a = [1, { b = "]" }] }',
    "",
    'w = "\\u0077riting-rules"',
)


def _has_table(source: str) -> bool | None:
    """Whether tomllib finds tool.writing-rules (None: not valid TOML)."""
    try:
        document = tomllib.loads(source)
    except tomllib.TOMLDecodeError:
        return None
    tool = document.get("tool")
    return isinstance(tool, dict) and "writing-rules" in tool


@settings(max_examples=400)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=10))
def test_a_table_tomllib_finds_is_never_ruled_out(lines: list[str]) -> None:
    source = "\n".join(lines)
    if _has_table(source):
        assert may_hold_table(source)


def test_multi_line_strings_and_escapes_are_always_parsed() -> None:
    assert may_hold_table('[tool]\nx = """\n[project]\n"""\nwriting-rules = {}\n')
    assert may_hold_table('[tool."writing\\u002drules"]\n')


def test_common_pyproject_files_are_ruled_out() -> None:
    # This project's own file names the tool (its name and script) without configuring it.
    assert _has_table(ROOT.joinpath("pyproject.toml").read_text(encoding="utf-8")) is False
    assert not may_hold_table(ROOT.joinpath("pyproject.toml").read_text(encoding="utf-8"))
    assert not may_hold_table(
        '[build-system]\nrequires = ["hatchling"]\n\n[project]\nname = "x"\ndependencies = [\n  "a>=1",  # [x]\n]\n'
        '\n[tool.ruff.lint]\nselect = ["E", "F"]\n'
    )
