"""writing_rules.tools opens no file, socket or process, and imports no build-time library."""

from __future__ import annotations

import asyncio
import builtins
import io
import json
import os
import socket
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from writing_rules.tools import create_writing_tool_dispatcher, writing_review_tools

SRC = Path(__file__).resolve().parents[2] / "src"
BUILD_TIME = ("jinja2", "yaml", "jsonschema")


def test_importing_the_tools_imports_no_build_time_library() -> None:
    script = textwrap.dedent(
        f"""
        import json, sys
        import writing_rules.tools
        from writing_rules.tools import create_writing_tool_dispatcher
        dispatcher = create_writing_tool_dispatcher(review_context={{"audience": "a", "goal": "g"}})
        for name in ("get_writing_rules", "compose_writing_review_prompt", "find_writing_signals"):
            dispatcher.dispatch({{"name": name, "arguments": {{"profile": "public-docs", "text": "x"}}
                                 if name != "get_writing_rules" else {{}}}})
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in {BUILD_TIME!r})
        print(json.dumps(loaded))
        """
    )
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    completed = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout.strip().splitlines()[-1]) == []


class Forbidden(AssertionError):
    pass


def _refuse(what: str) -> Any:
    def refuse(*args: object, **kwargs: object) -> Any:
        raise Forbidden(f"{what} called with {args!r}")

    return refuse


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    # An event loop opens a socket pair for itself; make it before the sockets are refused.
    event_loop = asyncio.new_event_loop()
    yield event_loop
    event_loop.close()


@pytest.fixture
def no_io(monkeypatch: pytest.MonkeyPatch, loop: asyncio.AbstractEventLoop) -> None:
    monkeypatch.setattr(builtins, "open", _refuse("open"))
    monkeypatch.setattr(io, "open", _refuse("io.open"))
    monkeypatch.setattr(os, "open", _refuse("os.open"))
    monkeypatch.setattr(os, "system", _refuse("os.system"))
    monkeypatch.setattr(os, "popen", _refuse("os.popen"))
    monkeypatch.setattr(socket, "socket", _refuse("socket.socket"))
    monkeypatch.setattr(socket, "create_connection", _refuse("socket.create_connection"))
    monkeypatch.setattr(subprocess, "Popen", _refuse("subprocess.Popen"))


EVIDENCE_QUERY = {"language": "en", "profile": "public-docs", "role": "judge", "cohortId": "cohort-1"}


def _evidence(query: Any, context: Any) -> dict[str, Any]:
    return {
        "status": "evidence-missing",
        "query": dict(query),
        "bestValue": None,
        "highestDetection": None,
        "sources": [],
        "explanation": "No comparison was run for this cohort.",
        "limitations": [],
    }


async def _evidence_async(query: Any, context: Any) -> dict[str, Any]:
    return _evidence(query, context)


CALLS = [
    {"name": "get_writing_rules", "arguments": {"detail": "full", "language": "de"}},
    {"name": "compose_writing_review_prompt", "arguments": {"profile": "public-docs", "maxFindings": 3}},
    {"name": "find_writing_signals", "arguments": {"text": "```\nA powerful API.\n```\n> not powerful"}},
    {"name": "get_model_comparison_evidence", "arguments": EVIDENCE_QUERY},
    {"name": "find_writing_signals", "arguments": {"text": "x", "language": "EN"}},
    {"name": "nope", "arguments": {}},
]


def _dispatcher(callback: Any) -> Any:
    return create_writing_tool_dispatcher(
        review_context={"audience": "Operators", "goal": "Restore the service"},
        model_comparison_context={"available_model_ids": ["model-a"], "cohort_ids": ["cohort-1"]},
        get_model_comparison_evidence=callback,
    )


def test_the_forbidden_calls_are_really_refused(no_io: None) -> None:
    with pytest.raises(Forbidden):
        open(os.devnull)  # noqa: SIM115
    with pytest.raises(Forbidden):
        socket.socket()
    with pytest.raises(Forbidden):
        subprocess.run(["true"], check=False)


def test_every_tool_works_without_files_sockets_or_processes(no_io: None, loop: asyncio.AbstractEventLoop) -> None:
    dispatcher = _dispatcher(_evidence)
    results = [dispatcher.dispatch(call) for call in CALLS]
    for result in results:
        json.dumps(result, allow_nan=False)
        assert result.get("error", {}).get("code") != "internal-error", result
    assert [result["ok"] for result in results] == [True, True, True, True, False, False]
    assert results[3]["data"]["status"] == "evidence-missing"
    assert results[2]["data"]["signals"]
    assert writing_review_tools()
    # New dispatchers, the other contexts and the async path need no I/O either.
    assert create_writing_tool_dispatcher().dispatch(CALLS[0])["ok"] is True
    async_dispatcher = _dispatcher(_evidence_async)
    for call, expected in zip(CALLS, results, strict=True):
        assert loop.run_until_complete(async_dispatcher.dispatch_async(call)) == expected
