"""The command line's help and usage text is argparse's own, though the terminal width is read late."""

from __future__ import annotations

import argparse

import pytest

from writing_rules.cli._commands import build_parser


def _parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """``parser`` and its sub-parsers, theirs too (``pack new``), depth first."""
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                found.extend(_parsers(child))
    return found


@pytest.mark.parametrize("columns", ["30", "60", "100", "250"])
def test_help_and_usage_match_argparse_at_every_width(monkeypatch, columns: str) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    parsers = _parsers(build_parser())
    # The root, its eight commands, and pack's four (new, build, test, import-vale).
    assert len(parsers) == 13
    ours = [(parser.format_help(), parser.format_usage()) for parser in parsers]
    for parser in parsers:
        parser.formatter_class = argparse.HelpFormatter
    assert ours == [(parser.format_help(), parser.format_usage()) for parser in parsers]
    assert ours[1][1].startswith("usage: writing-rules scan")  # the sub-command's prog, as argparse derives it


@pytest.mark.parametrize(
    "given",
    [
        ["scan", "a.md", "--jobs", "2", "--no-cache"],
        ["rules", "--detail", "full"],
        ["prompt", "--profile", "x", "--audience", "a", "--goal", "g"],
        ["tools", "--format", "mcp"],
        ["edit", "a.md", "--ops", "-"],
        ["serve-mcp"],
        ["lsp"],
        ["pack", "build", "styles/acme", "--no-timing"],
    ],
)
def test_a_command_built_alone_parses_and_explains_itself_as_in_the_whole_parser(monkeypatch, given) -> None:
    # run() builds only the command named first; nothing a user sees may tell the difference.
    monkeypatch.setenv("COLUMNS", "70")
    command = given[0]
    whole, alone = build_parser(), build_parser(command)
    assert [parser.prog for parser in _parsers(alone)][:2] == ["writing-rules", f"writing-rules {command}"]
    assert (
        _parsers(alone)[1].format_help()
        == next(parser for parser in _parsers(whole) if parser.prog == f"writing-rules {command}").format_help()
    )
    assert alone.format_usage() == whole.format_usage()
    assert alone.parse_args(given) == whole.parse_args(given)
