"""The examples in docs/linting.md are valid: every TOML block loads, every directive parses."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from writing_rules.lint import load_config
from writing_rules.lint._directives import read_directives

GUIDE = (Path(__file__).resolve().parents[2] / "docs" / "linting.md").read_text(encoding="utf-8")
_BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def blocks(language: str) -> list[str]:
    return [body for kind, body in _BLOCK.findall(GUIDE) if kind == language]


def test_every_toml_example_is_a_valid_configuration(tmp_path: Path) -> None:
    examples = blocks("toml")
    assert len(examples) >= 2
    for index, body in enumerate(examples):
        name = "pyproject.toml" if "[tool.writing-rules]" in body else ".writing-rules.toml"
        folder = tmp_path / str(index)
        folder.mkdir()
        (folder / name).write_text(body, encoding="utf-8")
        config = load_config(str(folder / name))
        assert config.settings.min_level == "warning"


def test_every_directive_example_parses_without_problems() -> None:
    markdown = "\n".join(blocks("markdown"))
    found = read_directives(markdown, "markdown")
    assert not found.problems
    assert {directive.kind for directive in found.directives} == {
        "disable-next-line",
        "disable-line",
        "disable",
        "enable",
        "disable-file",
    }
    rst = read_directives("\n".join(blocks("rst")), "rst")
    assert not rst.problems and [directive.kind for directive in rst.directives] == ["disable-next-line"]


def test_yaml_examples_parse() -> None:
    for body in blocks("yaml"):
        assert yaml.safe_load(body)
