"""The command line's help and usage text is argparse's own, though the terminal width is read late."""

from __future__ import annotations

import argparse

import pytest

from writing_rules.cli._commands import build_parser


def _parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.extend(action.choices.values())
    return found


@pytest.mark.parametrize("columns", ["30", "60", "100", "250"])
def test_help_and_usage_match_argparse_at_every_width(monkeypatch, columns: str) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    parsers = _parsers(build_parser())
    assert len(parsers) == 8  # the root and its seven commands
    ours = [(parser.format_help(), parser.format_usage()) for parser in parsers]
    for parser in parsers:
        parser.formatter_class = argparse.HelpFormatter
    assert ours == [(parser.format_help(), parser.format_usage()) for parser in parsers]
    assert ours[1][1].startswith("usage: writing-rules scan")  # the sub-command's prog, as argparse derives it
