"""``serve-mcp`` follows the served folder's configuration, packs included (docs/packs.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from writing_rules.cli import main
from writing_rules.cli._commands import build_parser
from writing_rules.cli._serve_mcp import _router

ACME = Path(__file__).resolve().parents[2] / "examples" / "packs" / "acme"
PAGE = "Please log in first, then click on Save. This is a powerful tool.\n"


@pytest.fixture
def served(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    (folder / ".git").mkdir(parents=True)
    shutil.copytree(ACME, folder / "styles" / "acme", ignore=shutil.ignore_patterns("__pycache__"))
    (folder / ".writing-rules.toml").write_text('packs = ["./styles/acme"]\n', encoding="utf-8")
    return folder


def _data(router, name: str, arguments: dict) -> dict:  # type: ignore[no-untyped-def, type-arg]
    result = router.call(name, arguments)
    assert not result["isError"], result
    return result["structuredContent"]["data"]  # type: ignore[no-any-return]


def test_the_served_folders_packs_are_in_every_review_tool(served: Path) -> None:
    args = ["serve-mcp", "--documents", str(served), "--audience", "New admins", "--goal", "Sign in"]
    router = _router(build_parser().parse_args(args))
    found = _data(router, "find_writing_signals", {"text": PAGE, "language": "en"})
    assert [(signal["ruleId"], signal["match"]) for signal in found["signals"]] == [
        ("acme/terms", "log in"),
        ("word-choice", "powerful"),
    ]
    assert found["signals"][0]["fix"] == {"replacement": "sign in", "match": "log in"}
    listed = _data(router, "get_writing_rules", {"language": "en"})
    assert {"acme/terms", "acme/no-etc"} <= {rule["id"] for rule in listed["rules"]}
    # acme/no-etc joins the built-in profile public-docs: the review prompt carries its instruction.
    arguments = {"profile": "public-docs", "ruleIds": ["acme/no-etc"], "language": "en"}
    prompt = _data(router, "compose_writing_review_prompt", arguments)
    assert "say which kind of items the list stands for" in prompt["prompt"]


def test_a_broken_pack_stops_serve_mcp_before_it_serves(served: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (served / "styles" / "acme" / "_pack_data.py").unlink()
    assert main(["serve-mcp", "--documents", str(served)]) == 2
    err = capsys.readouterr().err
    assert ".writing-rules.toml:1: pack " in err and "the pack is not built" in err and "pack build" in err


def test_serve_mcp_takes_pack_on_the_command_line(
    served: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(served)
    router = _router(build_parser().parse_args(["serve-mcp", "--no-config", "--pack", "styles/acme"]))
    found = _data(router, "find_writing_signals", {"text": PAGE, "language": "en"})
    assert [signal["ruleId"] for signal in found["signals"]] == ["acme/terms", "word-choice"]
    assert main(["serve-mcp", "--pack", "./styles/none"]) == 2
    assert "error: --pack: pack ./styles/none: no such pack folder" in capsys.readouterr().err
