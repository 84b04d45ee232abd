"""Agents follow the team's decisions: the dispatcher's ``config=`` and ``serve-mcp``."""

from __future__ import annotations

from pathlib import Path

import pytest

from writing_rules.cli._commands import build_parser
from writing_rules.cli._serve_mcp import _router
from writing_rules.lint import load_config, signal_level
from writing_rules.tools import create_writing_tool_dispatcher

from .conftest import write

TEXT = (
    "Send it to the Simple Queue Service. Setup is simple. This is a powerful tool. "
    "It is very fast. The file is saved by the system. This happens in order to save time."
)
CONFIG = 'accept = ["Simple Queue Service"]\ndisable = ["filler"]\nmin-level = "warning"\n'


def signals(dispatcher, text: str = TEXT) -> list[tuple[str, int]]:
    envelope = dispatcher.dispatch({"name": "find_writing_signals", "arguments": {"text": text}})
    assert envelope["ok"], envelope
    return [(signal["ruleId"], signal["start"]) for signal in envelope["data"]["signals"]]


def test_dispatcher_applies_accept_disable_and_levels_like_the_cli(repo: Path, scan) -> None:
    write(repo, ".writing-rules.toml", CONFIG)
    write(repo, "page.md", TEXT + "\n")
    plain = signals(create_writing_tool_dispatcher())
    with_mapping = signals(
        create_writing_tool_dispatcher(
            config={"accept": ["Simple Queue Service"], "disable": ["filler"], "min-level": "warning"}
        )
    )
    with_file = signals(create_writing_tool_dispatcher(config=load_config(".writing-rules.toml")))
    cli = [
        (line.split(": ")[1], int(line.split(":")[2]) - 1)  # one line: column - 1 is the offset
        for line in scan("page.md", "--language", "en").lines()
    ]
    assert with_mapping == with_file == cli
    assert ("filler", TEXT.index("very")) in plain and all(rule != "filler" for rule, _ in cli)
    assert ("easy-claims", TEXT.index("Simple")) not in cli and ("easy-claims", TEXT.index("simple.")) in cli
    levels = create_writing_tool_dispatcher().dispatch({"name": "find_writing_signals", "arguments": {"text": TEXT}})
    kept = {
        (signal["ruleId"], signal["start"]): signal_level(signal["ruleId"], signal["signalId"])
        for signal in levels["data"]["signals"]
    }
    assert all(kept[signal] in ("error", "warning") for signal in cli)
    assert any(level == "suggestion" for level in kept.values())
    assert len(cli) < len(plain)


def test_dispatcher_config_counts_before_the_cap(repo: Path) -> None:
    text = "Simple Queue Service. " * 5 + "Setup is simple."
    dispatcher = create_writing_tool_dispatcher(config={"accept": ["Simple Queue Service"]})
    envelope = dispatcher.dispatch(
        {"name": "find_writing_signals", "arguments": {"text": text, "ruleIds": ["easy-claims"], "maxSignals": 1}}
    )
    data = envelope["data"]
    assert [signal["match"] for signal in data["signals"]] == ["simple"]
    assert data["totalSignals"] == 1 and data["truncated"] is False


@pytest.mark.parametrize(
    ("config", "error"),
    [
        ({"disable": ["filer"]}, ValueError),
        ({"min-level": "info"}, ValueError),
        ({"acept": []}, ValueError),
        ({"accept": "Simple"}, TypeError),
        ("disable = ['filler']", TypeError),
        # One family for the host to catch: a wrong type is a ValueError too.
        ({"accept": "Simple"}, ValueError),
        ({"disable": 5}, ValueError),
        ({"rules": ["filer"]}, ValueError),
        ({"rules": "filler"}, ValueError),
        ({"profile": "public"}, ValueError),
        ("disable = ['filler']", ValueError),
    ],
)
def test_bad_dispatcher_config_is_refused_at_creation(config: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        create_writing_tool_dispatcher(config=config)


def test_dispatcher_runs_only_the_rules_and_profile_the_configuration_names(repo: Path, scan) -> None:
    config = 'rules = ["easy-claims", "passive-voice", "filler"]\nprofile = "technical-reference"\n'
    write(repo, ".writing-rules.toml", config)
    write(repo, "page.md", TEXT + "\n")
    cli = [(line.split(": ")[1], int(line.split(":")[2]) - 1) for line in scan("page.md", "--language", "en").lines()]
    with_file = signals(create_writing_tool_dispatcher(config=load_config(".writing-rules.toml")))
    with_mapping = signals(
        create_writing_tool_dispatcher(
            config={"rules": ["easy-claims", "passive-voice", "filler"], "profile": "technical-reference"}
        )
    )
    assert with_file == with_mapping == cli
    assert cli and {rule for rule, _ in cli} <= {"easy-claims", "passive-voice", "filler"}
    assert "word-choice" in {rule for rule, _ in signals(create_writing_tool_dispatcher(config={}))}


def test_serve_mcp_follows_the_served_folder_configuration(repo: Path, tmp_path: Path) -> None:
    write(repo, "docs/.writing-rules.toml", CONFIG)
    write(repo, "docs/page.md", TEXT)
    args = build_parser().parse_args(["serve-mcp", "--documents", "docs"])
    router = _router(args)
    envelope = router.envelope("find_writing_signals", {"text": TEXT})
    expected = signals(create_writing_tool_dispatcher(config=load_config("docs/.writing-rules.toml")))
    assert [(signal["ruleId"], signal["start"]) for signal in envelope["data"]["signals"]] == expected
    unconfigured = _router(build_parser().parse_args(["serve-mcp", "--documents", "docs", "--no-config"]))
    assert len(unconfigured.envelope("find_writing_signals", {"text": TEXT})["data"]["signals"]) > len(expected)


def test_serve_mcp_with_a_broken_configuration_exits_2(repo: Path, capsys) -> None:
    from writing_rules.cli import main

    write(repo, "docs/.writing-rules.toml", 'disable = ["filer"]\n')
    assert main(["serve-mcp", "--documents", "docs"]) == 2
    err = capsys.readouterr().err
    assert "docs/.writing-rules.toml:1: unknown rule id 'filer'" in err


def test_a_configuration_without_min_level_gets_the_command_lines_default(repo: Path, scan) -> None:
    write(repo, "page.md", TEXT + "\n")
    cli = [(line.split(": ")[1], int(line.split(":")[2]) - 1) for line in scan("page.md", "--language", "en").lines()]
    assert signals(create_writing_tool_dispatcher(config={})) == cli
    assert len(signals(create_writing_tool_dispatcher())) > len(cli)  # no config: the tool's full view
