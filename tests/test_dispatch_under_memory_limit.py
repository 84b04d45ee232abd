"""Both dispatchers fuzzed under a memory limit never answer ``internal-error`` (issue 11).

A small call can ask for a lot of memory (a ``replaceAll`` whose content repeats
the anchor thousands of times, many such operations, a deep or wide argument).
With the address space capped a little above what the process already uses, a
call that tried to build something huge would end in ``MemoryError``, which the
dispatchers would have to report as ``internal-error``; bounded work means it
never gets there.
"""

from __future__ import annotations

import json
import os
import resource
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writing_rules.documents import MemoryDocumentStore, create_document_tool_dispatcher
from writing_rules.tools import create_writing_tool_dispatcher

_HEADROOM = 768 * 2**20  # above the address space in use when the test starts
DOCUMENT = "ab cd\n" * 30_000  # 180 KB: a replaceAll of "ab" by 3,000 copies would be 360 MB

_ANCHORS = st.sampled_from(["ab", "cd", "a", "b", "\n", "ab cd", " ", "zz"])
_KINDS = st.sampled_from(
    ["replaceAll", "replaceBlock", "insertAfter", "insertBefore", "deleteBlock", "append", "prepend", "update"]
)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@st.composite
def _operation(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(_KINDS)
    anchor = draw(_ANCHORS)
    content = anchor * draw(st.integers(min_value=0, max_value=3_000))
    operation: dict[str, Any] = {"operation": kind}
    if kind in ("append", "prepend", "update"):
        operation["content"] = content
    elif kind == "replaceBlock":
        operation.update(oldBlock=anchor, newBlock=content)
    elif kind == "deleteBlock":
        operation["anchor"] = anchor
    else:
        operation.update(anchor=anchor, content=content)
    if kind != "replaceAll" and kind not in ("append", "prepend", "update"):
        extra = draw(st.sampled_from([None, 1, 2, -1, 10_000]))
        if extra is not None and (extra != -1 or kind == "deleteBlock"):
            operation["occurrence"] = extra
        if draw(st.booleans()):
            operation["fuzzyMatch"] = True
    if draw(st.integers(min_value=0, max_value=9)) == 0:
        operation[draw(st.text(max_size=4))] = draw(_JSON)  # sometimes a junk field
    return operation


_WRITE_CALLS = st.builds(
    lambda operations, dry_run: {
        "name": "write_document",
        "arguments": {"id": "doc.md", "operations": operations, "dryRun": dry_run},
    },
    st.lists(_operation(), min_size=1, max_size=8),
    st.booleans(),
)
_REVIEW_CALLS = st.builds(
    lambda name, arguments: {"name": name, "arguments": arguments},
    st.sampled_from(
        ["find_writing_signals", "get_writing_rules", "compose_writing_review_prompt", "get_model_comparison_evidence"]
    ),
    st.dictionaries(
        st.sampled_from(["text", "language", "profile", "ruleIds", "maxSignals", "detail", "role", "cohortId", "x"]),
        _JSON
        | st.builds(
            lambda word, count: word * count, st.sampled_from(["powerful ", "a", "\n"]), st.integers(0, 30_000)
        ),
        max_size=5,
    ),
)


def _address_space() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize")


@pytest.fixture
def memory_limit() -> Iterator[None]:
    if not os.path.exists("/proc/self/status"):
        pytest.skip("needs /proc to size the limit")
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = _address_space() + _HEADROOM
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _check(envelope: dict[str, Any]) -> None:
    assert not (envelope["ok"] is False and envelope["error"]["code"] == "internal-error"), envelope
    json.dumps(envelope, ensure_ascii=False, allow_nan=False).encode("utf-8")


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(call=_WRITE_CALLS)
def test_write_document_under_a_memory_limit_never_fails_internally(memory_limit: None, call: dict) -> None:
    dispatcher = create_document_tool_dispatcher(MemoryDocumentStore({"doc.md": DOCUMENT}))
    _check(dispatcher.dispatch(call))


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(call=_REVIEW_CALLS | _JSON)
def test_review_tools_under_a_memory_limit_never_fail_internally(memory_limit: None, call: Any) -> None:
    dispatcher = create_writing_tool_dispatcher(review_context={"audience": "Admins", "goal": "Install it"})
    _check(dispatcher.dispatch(call))
