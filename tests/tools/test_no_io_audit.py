"""No dispatch opens a file or imports a module: an audit hook armed after the dispatcher is made sees none.

The rule data is imported when the dispatcher is created (or earlier); a tool
call must not import it, nor anything else, because an import reads files and
a host may call the tools where files are slow, locked or watched.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parents[2] / "src"

_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from writing_rules.tools import create_writing_tool_dispatcher
    from writing_rules.documents import MemoryDocumentStore, create_document_tool_dispatcher

    def evidence(query, context):
        return {"status": "evidence-missing", "query": dict(query), "bestValue": None,
                "highestDetection": None, "sources": [], "explanation": "none", "limitations": []}

    before = "writing_rules._rules_data" in sys.modules
    tools = create_writing_tool_dispatcher(
        review_context={"audience": "Operators", "goal": "Restore the service"},
        model_comparison_context={"available_model_ids": ["model-a"], "cohort_ids": ["cohort-1"]},
        get_model_comparison_evidence=evidence,
    )
    store = MemoryDocumentStore({"guide.md": "# Guide\\n\\nA powerful API.\\n"})
    documents = create_document_tool_dispatcher(store)
    loaded = "writing_rules._rules_data" in sys.modules
    german = "Das ist eine leistungsstarke und nahtlose Lösung, die garantiert funktioniert. " * 40
    english = "This powerful, seamless API simply works; we leverage it every time. " * 40
    calls = [
        {"name": "get_writing_rules", "arguments": {}},
        {"name": "get_writing_rules", "arguments": {"detail": "full", "language": "de"}},
        {"name": "compose_writing_review_prompt", "arguments": {"profile": "public-docs", "maxFindings": 3}},
        {"name": "compose_writing_review_prompt", "arguments": {"profile": "public-docs", "language": "de"}},
        {"name": "find_writing_signals", "arguments": {"text": english}},
        {"name": "find_writing_signals", "arguments": {"text": german}},
        {"name": "find_writing_signals", "arguments": {"text": english, "language": "en", "ruleIds": ["word-choice"]}},
        {"name": "get_model_comparison_evidence", "arguments": {"language": "en", "profile": "public-docs",
                                                                "role": "judge", "cohortId": "cohort-1"}},
        {"name": "find_writing_signals", "arguments": {"text": "x", "language": "EN"}},
        {"name": "find_writing_signals", "arguments": {"text": 3}},
        {"name": "nope", "arguments": {}},
    ]
    document_calls = [
        {"name": "read_document", "arguments": {"id": "guide.md"}},
        {"name": "write_document", "arguments": {"id": "guide.md", "operations": [
            {"operation": "replaceBlock", "oldBlock": "A powerful API.", "newBlock": "An API."}]}},
        {"name": "read_document", "arguments": {"id": "missing.md"}},
    ]
    events = []

    def audit(event, args):
        if event == "open" or event == "import" or event.startswith(("os.", "subprocess.", "socket.")):
            events.append([event, repr(args)[:200]])

    sys.addaudithook(audit)
    results = [tools.dispatch(call) for call in calls]
    results += [documents.dispatch(call) for call in document_calls]
    sys.stdout.write(json.dumps({"before": before, "loaded": loaded, "events": events,
                                 "ok": [r["ok"] for r in results], "documentCalls": len(document_calls)}))
    """
)


def _audit(script: str) -> dict[str, Any]:
    """Run ``script`` in a fresh interpreter with this checkout's package; its JSON report."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=environment, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def _audit_with(config: str, calls: str, marker: str) -> dict[str, Any]:
    """``_SCRIPT`` with ``config`` passed to the dispatcher and ``calls`` put before its own calls."""
    creation = "tools = create_writing_tool_dispatcher("
    script = _SCRIPT.replace(creation, creation + config)
    script = script.replace("\ncalls = [\n", calls, 1)
    assert config in script and marker in script  # both replacements took
    return _audit(script)


def test_no_dispatch_opens_a_file_or_imports_a_module() -> None:
    report = _audit(_SCRIPT)
    assert report["before"] is False  # importing the packages alone does not load the rule data...
    assert report["loaded"] is True  # ...creating a dispatcher does
    assert report["events"] == []
    assert report["ok"] == [True] * 8 + [False] * 3 + [True, True, False]


ACME = Path(__file__).resolve().parents[2] / "examples" / "packs" / "acme"


_PACK_CALLS = """
calls = [
    {"name": "find_writing_signals", "arguments": {"text": "Log in, click on it, ACMECloud etc. " * 40,
                                                   "ruleIds": ["acme/terms", "acme/no-etc"]}},
    {"name": "find_writing_signals", "arguments": {"text": "Bitte einloggen usw.", "language": "de"}},
    {"name": "get_writing_rules", "arguments": {"ruleIds": ["acme/terms"], "detail": "full"}},
    {"name": "compose_writing_review_prompt", "arguments": {"profile": "public-docs", "ruleIds": ["acme/no-etc"]}},
"""


def test_no_dispatch_with_a_pack_opens_a_file_or_imports_a_module() -> None:
    # The pack loads when the dispatcher is created; its patterns, fixes and messages are read
    # from the loaded module's text when a scan first needs them, never from the file.
    config = f"config={{'packs': [{str(ACME)!r}], 'min-level': 'suggestion'}},"
    report = _audit_with(config, _PACK_CALLS, "acme/no-etc")
    assert report["events"] == []
    assert report["ok"] == [True] * 12 + [False] * 3 + [True, True, False]


_SETTINGS_CALLS = """
directive = "<!-- writing-rules-disable-next-line word-choice -->\\n"
long_text = ("This powerful, seamless API simply works.\\n\\n" * 2_000) + directive + "A powerful API.\\n"
calls = [
    {"name": "find_writing_signals", "arguments": {"text": directive + "A powerful API. TODO later."}},
    {"name": "find_writing_signals", "arguments": {"text": long_text}},
    {"name": "find_writing_signals", "arguments": {"text": "Eine leistungsstarke Lösung.", "language": "de"}},
"""


def test_no_dispatch_through_the_lint_engine_opens_a_file_or_imports_a_module() -> None:
    # With lint settings as config, find_writing_signals runs lint_text (directives, pieces of a long
    # text): every module it needs is loaded when the dispatcher is created.
    config = "config=__import__('writing_rules.lint', fromlist=['FileSettings']).FileSettings(),"
    report = _audit_with(config, _SETTINGS_CALLS, "long_text")
    assert report["events"] == []
    assert report["ok"] == [True] * 11 + [False] * 3 + [True, True, False]


_DOCUMENTS_ONLY = textwrap.dedent(
    """
    import json, sys
    from writing_rules.documents import MemoryDocumentStore, create_document_tool_dispatcher

    documents = create_document_tool_dispatcher(MemoryDocumentStore({"guide.md": "# Guide\\n\\nA powerful API.\\n"}))
    events = []
    def audit(event, args):
        if event in ("open", "import"):
            events.append([event, repr(args)[:200]])

    sys.addaudithook(audit)
    results = [documents.dispatch(call) for call in [
        {"name": "read_document", "arguments": {"id": "guide.md"}},
        {"name": "write_document", "arguments": {"id": "guide.md", "operations": [
            {"operation": "replaceBlock", "oldBlock": "A powerful API.", "newBlock": "An API."}]}},
        {"name": "write_document", "arguments": {"id": "guide.md", "operations": [{"operation": "x"}]}},
    ]]
    sys.stdout.write(json.dumps({"events": events, "ok": [r["ok"] for r in results]}))
    """
)


def test_a_host_with_only_the_document_tools_imports_nothing_during_a_dispatch() -> None:
    """The document tools' validators live in the generated rule data: creating the dispatcher loads
    it, as for the review tools, so that the first call of a host that edits documents only imports
    (reads) nothing."""
    report = _audit(_DOCUMENTS_ONLY)
    assert report["events"] == []
    assert report["ok"] == [True, True, False]
