"""One file, one set of signals: the command line, the language server, the MCP server and the
review-tool dispatcher created with ``config=`` all lint through one engine (``writing_rules.lint``).

For the pages of the field corpus (up to eight of each source: every manual, English and German,
Markdown and MDX), each front end's signals are compared by rule, span, level and fix. The tool
reports hits in code too (flagged ``context.inCode``); the command line and the editor leave them
out unless asked, so the tool's signals are compared without them, and with them against
``scan --include-code``.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.field_pages import CORPUS, sampled_pages
from writing_rules.cli._commands import build_parser, run
from writing_rules.cli._serve_mcp import _router
from writing_rules.lint import ConfigResolver, FileSettings

PAGES = sampled_pages(CORPUS)
# A signal as every front end can give it: rule, span (code points), level, fix.
Key = tuple[str, int, int, str, tuple[str, str] | None]


def key(signal: Mapping[str, Any]) -> Key:
    fix = signal.get("fix")
    return (
        signal["ruleId"],
        signal["start"],
        signal["end"],
        signal["level"],
        None if fix is None else (fix["replacement"], fix["match"]),
    )


def keys(signals: Iterable[Mapping[str, Any]]) -> list[Key]:
    return [key(signal) for signal in signals]


@cache
def command_line(*options: str) -> dict[str, dict[str, Any]]:
    """``scan --format json`` of every page in one run: each page's report by path."""
    out, err = io.StringIO(), io.StringIO()
    status = run(["scan", "--format", "json", "--no-cache", "--no-fail", *options, *map(str, PAGES)], None, out, err)
    assert status == 0, err.getvalue()
    return {report["path"]: report for report in json.loads(out.getvalue())}


def read(page: Path) -> str:
    return page.read_text(encoding="utf-8-sig")


def test_the_corpus_has_both_languages_and_both_markups() -> None:
    assert {page.relative_to(CORPUS).parts[0] for page in PAGES} == {"en", "de"}
    assert {page.suffix for page in PAGES} == {".md", ".mdx"}
    assert len(command_line()) == len(PAGES)
    # Enough signals, of every level the default view shows, for the comparisons to mean something.
    found = [signal for report in command_line().values() for signal in report["signals"]]
    assert len(found) > 500 and "warning" in {signal["level"] for signal in found}
    everything = [
        signal for report in command_line("--min-level", "suggestion").values() for signal in report["signals"]
    ]
    assert {signal["level"] for signal in everything} >= {"warning", "suggestion"}
    assert any("fix" in signal for signal in found)
    # No page holds a directive: directives apply to files, not to a tool call's text.
    assert not any("writing-rules-" in read(page) for page in PAGES)


@pytest.mark.parametrize("min_level", [None, "suggestion"])
def test_the_language_server_gives_the_command_lines_diagnostics(min_level: str | None) -> None:
    pytest.importorskip("pygls", reason="the lsp extra (pygls) is a test requirement")
    from writing_rules.lsp._features import _SEVERITY, diagnostics
    from writing_rules.lsp._linting import lint_document

    levels = {severity: level for level, severity in _SEVERITY.items()}
    differ = []
    for page in PAGES:
        linted = lint_document(page.as_uri(), 1, read(page), min_level=min_level)
        found = []
        for diagnostic in diagnostics(linted):
            start = linted.index.offset(diagnostic.range.start.line, diagnostic.range.start.character)
            end = linted.index.offset(diagnostic.range.end.line, diagnostic.range.end.character)
            fix = diagnostic.data["fix"]
            assert diagnostic.severity is not None
            found.append(
                (
                    str(diagnostic.code),
                    start,
                    end,
                    levels[diagnostic.severity],
                    None if fix is None else (fix["replacement"], fix["match"]),
                )
            )
        options = () if min_level is None else ("--min-level", min_level)
        if found != keys(command_line(*options)[str(page)]["signals"]):
            differ.append(str(page.relative_to(CORPUS)))
    assert differ == []


def _tool_signals(call: Any) -> dict[str, list[dict[str, Any]]]:
    """The tool's signals of every page, in the language the command line found for it."""
    reports = command_line()
    found = {}
    for page in PAGES:
        arguments = {"text": read(page), "language": reports[str(page)]["language"], "maxSignals": 500}
        data = call(arguments)
        assert not data["truncated"], page
        found[str(page)] = data["signals"]
    return found


def _compare_with_the_command_line(found: dict[str, list[dict[str, Any]]], *options: str) -> None:
    # The tool is given a text, not a file: it reads it as Markdown (the contract has no markup
    # argument), so it is held to the command line reading every page as Markdown too. An .mdx
    # page read as MDX (component lines end sentences) can differ, as it should.
    options = ("--markup", "markdown", *options)
    outside_code = {
        path: keys(signal for signal in signals if not signal["context"]["inCode"]) for path, signals in found.items()
    }
    assert outside_code == {path: keys(report["signals"]) for path, report in command_line(*options).items()}
    with_code = command_line(*options, "--include-code")
    assert {path: keys(signals) for path, signals in found.items()} == {
        path: keys(report["signals"]) for path, report in with_code.items()
    }


def test_the_mcp_server_with_the_folders_configuration_gives_the_command_lines_signals() -> None:
    router = _router(build_parser().parse_args(["serve-mcp", "--documents", str(CORPUS)]))

    def call(arguments: dict[str, Any]) -> dict[str, Any]:
        result = router.call("find_writing_signals", arguments)
        assert not result["isError"], result
        data: dict[str, Any] = result["structuredContent"]["data"]
        return data

    _compare_with_the_command_line(_tool_signals(call))


@pytest.mark.parametrize("min_level", [None, "suggestion"])
def test_the_dispatcher_with_config_gives_the_command_lines_signals(min_level: str | None) -> None:
    from writing_rules.tools import create_writing_tool_dispatcher

    config = ConfigResolver().config_for(str(CORPUS))
    settings = config.settings if config is not None else FileSettings()
    dispatcher = create_writing_tool_dispatcher(config=settings._replace(min_level=min_level or settings.min_level))

    def call(arguments: dict[str, Any]) -> dict[str, Any]:
        envelope = dispatcher.dispatch({"name": "find_writing_signals", "arguments": arguments})
        assert envelope["ok"], envelope
        data: dict[str, Any] = envelope["data"]
        return data

    _compare_with_the_command_line(_tool_signals(call), *(() if min_level is None else ("--min-level", min_level)))


def test_a_few_pages_through_the_real_language_server() -> None:
    pytest.importorskip("pygls", reason="the lsp extra (pygls) is a test requirement")
    from writing_rules.lsp._features import _SEVERITY

    from .lsp.conftest import Session, run

    levels = {severity: level for level, severity in _SEVERITY.items()}
    chosen = [
        next(page for page in PAGES if page.relative_to(CORPUS).parts[0] == language and page.suffix == suffix)
        for language in ("en", "de")
        for suffix in (".md", ".mdx")
    ]

    async def session(client: Session) -> dict[str, list[tuple[str, int, str]]]:
        await client.initialize(CORPUS.as_uri())
        found = {}
        for page in chosen:
            client.open(page.as_uri(), read(page), language_id="mdx" if page.suffix == ".mdx" else "markdown")
            published = await client.diagnostics(page.as_uri(), 1)
            found[str(page)] = [
                (str(d.code), d.data["start"], levels[d.severity]) for d in published if d.severity is not None
            ]
        return found

    expected = {
        str(page): [(ruleId, start, level) for ruleId, start, _, level, _ in keys(command_line()[str(page)]["signals"])]
        for page in chosen
    }
    assert run(session) == expected


# -- a team's rule pack: the same signals through every front end --------------------------------------

ACME = Path(__file__).resolve().parents[1] / "examples" / "packs" / "acme"
PACK_PAGE = (
    "# Getting started\n\n"
    "Please log in to the ACMECloud console, then click on Save.\n\n"
    "Install Git, Python, etc. This is a powerful tool, and it is very fast.\n\n"
    "Our code lives on Github.\n"
)


@pytest.fixture
def pack_folder(tmp_path: Path) -> Path:
    """A docs folder whose configuration names the example pack, with one page of its hits."""
    import shutil

    folder = tmp_path / "docs"
    (folder / ".git").mkdir(parents=True)
    shutil.copytree(ACME, folder / "styles" / "acme", ignore=shutil.ignore_patterns("__pycache__"))
    (folder / ".writing-rules.toml").write_text(
        'packs = ["./styles/acme"]\nmin-level = "suggestion"\n', encoding="utf-8"
    )
    (folder / "page.md").write_text(PACK_PAGE, encoding="utf-8")
    return folder


def test_a_pack_gives_the_same_signals_through_every_front_end(pack_folder: Path) -> None:
    page = pack_folder / "page.md"
    out, err = io.StringIO(), io.StringIO()
    assert run(["scan", "--format", "json", "--no-cache", str(page)], None, out, err) == 1, err.getvalue()
    (report,) = json.loads(out.getvalue())
    expected = keys(report["signals"])
    rules = {signal[0] for signal in expected}
    assert {"acme/terms", "acme/no-etc", "word-choice", "filler"} <= rules
    assert {signal[3] for signal in expected} == {"error", "warning", "suggestion"}
    assert ("acme/terms", 26, 32, "warning", ("sign in", "log in")) in expected

    # The language server, with the folder's configuration.
    pytest.importorskip("pygls", reason="the lsp extra (pygls) is a test requirement")
    from writing_rules.lsp._features import _SEVERITY, diagnostics
    from writing_rules.lsp._linting import lint_document

    levels = {severity: level for level, severity in _SEVERITY.items()}
    linted = lint_document(page.as_uri(), 1, PACK_PAGE)
    found = []
    for diagnostic in diagnostics(linted):
        fix = diagnostic.data["fix"]
        assert diagnostic.severity is not None
        found.append(
            (
                str(diagnostic.code),
                linted.index.offset(diagnostic.range.start.line, diagnostic.range.start.character),
                linted.index.offset(diagnostic.range.end.line, diagnostic.range.end.character),
                levels[diagnostic.severity],
                None if fix is None else (fix["replacement"], fix["match"]),
            )
        )
    assert found == expected

    # serve-mcp for the folder (its configuration), and the dispatcher created with config=.
    from writing_rules.tools import create_writing_tool_dispatcher

    router = _router(build_parser().parse_args(["serve-mcp", "--documents", str(pack_folder)]))
    result = router.call("find_writing_signals", {"text": PACK_PAGE, "language": "en"})
    assert not result["isError"], result
    assert keys(result["structuredContent"]["data"]["signals"]) == expected
    config = ConfigResolver().config_for(str(page))
    assert config is not None
    dispatcher = create_writing_tool_dispatcher(config=config.settings)
    envelope = dispatcher.dispatch({"name": "find_writing_signals", "arguments": {"text": PACK_PAGE, "language": "en"}})
    assert envelope["ok"], envelope
    assert keys(envelope["data"]["signals"]) == expected
