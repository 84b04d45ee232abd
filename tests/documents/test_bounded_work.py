"""Bounded work per ``write_document`` call (issue 11, finding 3).

No wall times here (benchmarks/bench_hostile.py measures those): these tests pin
the mechanisms that bound the work, and the outcome under a memory limit.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import writing_rules
from writing_rules.documents import (
    MAX_OPERATIONS,
    DocumentEditError,
    MemoryDocumentStore,
    create_document_tool_dispatcher,
    edit,
)
from writing_rules.documents._candidates import closest_passages
from writing_rules.documents._diff import unified_diff
from writing_rules.documents._matching import Finder

SOURCE_ROOT = str(Path(writing_rules.__file__).resolve().parent.parent)


def _write(dispatcher: object, operations: list, **arguments: object) -> dict:
    call = {"name": "write_document", "arguments": {"id": "doc.md", "operations": operations, **arguments}}
    return dispatcher.dispatch(call)  # type: ignore[attr-defined]


def _write_under_a_memory_limit(document: str, limit_mib: int, operations: str, report: str) -> Any:
    """One ``write_document`` call in a fresh process whose address space is capped; ``report``'s value.

    ``operations`` and ``report`` are Python expressions (``report`` sees the envelope as ``result``).
    """
    script = textwrap.dedent(
        f"""
        import json, resource
        from writing_rules.documents import MemoryDocumentStore, create_document_tool_dispatcher
        dispatcher = create_document_tool_dispatcher(MemoryDocumentStore({{"doc.md": {document}}}))
        resource.setrlimit(resource.RLIMIT_AS, ({limit_mib} * 2**20, {limit_mib} * 2**20))
        call = {{"name": "write_document", "arguments": {{"id": "doc.md", "operations": {operations}}}}}
        result = dispatcher.dispatch(call)
        print(json.dumps({report}))
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env={"PYTHONPATH": SOURCE_ROOT}, timeout=300
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_the_number_of_operations_is_limited_and_the_schema_says_so() -> None:
    dispatcher = create_document_tool_dispatcher(MemoryDocumentStore({"doc.md": "a\n"}))
    schema = dispatcher.tools()[1]["inputSchema"]["properties"]["operations"]
    assert schema["maxItems"] == MAX_OPERATIONS
    assert str(MAX_OPERATIONS) in schema["description"]
    many = [{"operation": "append", "content": "x"}] * (MAX_OPERATIONS + 1)
    result = _write(dispatcher, many)
    assert result["error"]["code"] == "invalid-arguments"
    assert str(MAX_OPERATIONS) in result["error"]["message"]
    assert _write(dispatcher, many[:MAX_OPERATIONS])["ok"] is True


def test_growth_is_refused_before_the_oversize_text_is_built() -> None:
    with pytest.raises(DocumentEditError) as caught:
        edit("a" * 1000, [{"operation": "replaceAll", "anchor": "a", "content": "b" * 2000}], max_length=100_000)
    assert caught.value.code == "document-too-large"
    assert caught.value.index == 0


def test_the_size_is_checked_after_every_operation() -> None:
    operations = [{"operation": "append", "content": "x" * 60}, {"operation": "update", "content": "short"}]
    with pytest.raises(DocumentEditError) as caught:
        edit("a" * 50, operations, max_length=100)
    assert (caught.value.code, caught.value.index) == ("document-too-large", 0)
    assert edit("a" * 50, operations[1:], max_length=100).content == "short"


def test_a_replace_all_bomb_is_document_too_large_under_a_memory_limit() -> None:
    # 1 MB of anchors, each replaced by 2,000 of them, three times: without the early
    # check this builds gigabytes and ends as MemoryError (internal-error).
    operation = '{"operation": "replaceAll", "anchor": "ab", "content": "ab" * 2000}'
    code = _write_under_a_memory_limit('"ab " * 350_000', 1536, f"[{operation}] * 3", 'result["error"]["code"]')
    assert code == "document-too-large"


def test_the_ambiguity_warning_counts_positions_up_to_a_cap() -> None:
    result = edit("a" * 20_000, [{"operation": "replaceBlock", "oldBlock": "a", "newBlock": "b"}])
    (warning,) = result.warnings
    assert "1000 or more positions" in warning["message"]
    assert warning["lines"] == [1]
    fuzzy = edit(" a\n" * 5_000, [{"operation": "deleteBlock", "anchor": "a", "fuzzyMatch": True}])
    assert "1000 or more positions" in fuzzy.warnings[0]["message"]


def test_an_exact_count_below_the_cap_is_still_exact() -> None:
    result = edit("a a a", [{"operation": "replaceBlock", "oldBlock": "a", "newBlock": "b"}])
    assert "matches at 3 positions" in result.warnings[0]["message"]


def test_a_diff_of_two_large_different_texts_is_one_linear_hunk() -> None:
    # Lines that repeat (but not often enough for difflib's junk heuristic) make difflib
    # super-linear: 4,000 lines took 6.5 s, a 1.8 MB text 30 s.
    before = "".join(f"{n % 150}\n" for n in range(4_000))
    after = "".join(f"{n * 7 % 150}\n" for n in range(4_000))
    diff = unified_diff(before, after, name="doc.md")
    lines = diff.splitlines(keepends=True)
    assert lines[:3] == ["--- a/doc.md\n", "+++ b/doc.md\n", "@@ -1,4000 +1,4000 @@\n"]
    assert "".join(line[1:] for line in lines[3:] if line[0] in " -") == before
    assert "".join(line[1:] for line in lines[3:] if line[0] in " +") == after


def test_a_small_edit_in_a_large_text_keeps_a_minimal_diff() -> None:
    before = "".join(f"line {n}\n" for n in range(20_000))
    after = before.replace("line 10000\n", "changed\n")
    diff = unified_diff(before, after, name="doc.md")
    assert [line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("---", "+++")] == [
        "-line 10000",
        "+changed",
    ]


def test_a_diff_of_millions_of_short_lines_stays_within_memory() -> None:
    # Found by the memory-limit fuzz test: a replaceAll that turns 30,000 line ends into
    # 9 million (9 MB, under the size limit) made the diff build one string object per
    # line, about 1 GB, and the call ended as MemoryError (internal-error).
    diff = 'result.get("data", {}).get("diff", "")'
    report = f'[result["ok"], result.get("error", {{}}).get("code"), {diff}.count("\\n+"), {diff}[:40]]'
    operations = '[{"operation": "replaceAll", "anchor": "\\n", "content": "\\n" * 300}]'
    ok, code, added, head = _write_under_a_memory_limit('"ab cd\\n" * 30_000', 768, operations, report)
    assert (ok, code) == (True, None)
    assert head.startswith("--- a/doc.md\n+++ b/doc.md\n@@ ")
    assert added >= 9_000_000 - 30_000


def test_a_not_found_error_on_millions_of_short_lines_stays_within_memory() -> None:
    # Found by the memory-limit fuzz test: after two replaceAll operations made 9 million
    # line ends, an anchor that was not found made the search for similar passages (and the
    # white-space-tolerant hint) split the text into one object per line, about 1 GB, and
    # the call ended as MemoryError (internal-error) instead of not-found. A third of that (3
    # million line ends under a third of the limit) tells the two apart as well: line objects
    # needed 330-410 MB over the interpreter's address space, the fix needs 57 MB.
    report = '[result["ok"], result["error"]["code"], result["error"].get("reason"), result["error"].get("message")]'
    for fuzzy in ("False", "True"):
        operations = (
            '[{"operation": "replaceAll", "anchor": "ab", "content": ""},'
            ' {"operation": "replaceAll", "anchor": "\\n", "content": "\\n" * 300},'
            f' {{"operation": "insertAfter", "anchor": "ab", "content": "", "fuzzyMatch": {fuzzy}}}]'
        )
        ok, code, reason, message = _write_under_a_memory_limit('"ab cd\\n" * 10_000', 256, operations, report)
        assert (ok, code, reason) == (False, "operation-failed", "not-found"), message
        assert "'ab' was not found" in message


def _peak_per_character(text: str, work: Callable[[], object]) -> float:
    """The most memory ``work`` held at once (Python allocations), per character of ``text``.

    Measured from what is already traced, so that the figure is the same when tracing was on
    before (``PYTHONTRACEMALLOC``, ``-X tracemalloc``), and such tracing is left on.
    """
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        work()
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        if not was_tracing:
            tracemalloc.stop()
    return peak / len(text)


@pytest.mark.parametrize("anchor", ["ab", "cd ef"], ids=["by-length", "by-words"])
def test_the_candidate_search_needs_memory_in_proportion_to_the_text_not_its_line_objects(anchor: str) -> None:
    # A million lines, most of them empty: one object per line was over 110 bytes a
    # character; tables of machine integers are 8 bytes a line, plus pieces of bounded size.
    text = (" cd\n" + "\n" * 99) * 10_000
    assert _peak_per_character(text, lambda: closest_passages(text, anchor)) < 40


def test_the_fuzzy_view_needs_memory_in_proportion_to_the_text_not_its_line_objects() -> None:
    # Two lists of a million lines were 34 bytes a character; two tables of machine integers are 16.
    text = (" cd\n" + "\n" * 99) * 10_000
    assert _peak_per_character(text, lambda: Finder(text, "ab", fuzzy=True).spans(1)) < 26


def test_the_candidate_search_needs_bounded_memory_when_the_anchor_s_word_is_on_every_line() -> None:
    # The word prefilter looks at _MAX_HITS word hits at most, but took the rarest word of the
    # anchor whatever its count: a word on each of millions of lines made an object per hit and
    # a set per line (about 240 bytes a character; a 9 MB document ended as internal-error).
    text = "cd\n" * 300_000
    assert _peak_per_character(text, lambda: closest_passages(text, "cd ef")) < 40


def test_the_candidate_search_reads_the_document_a_bounded_number_of_times_whatever_the_anchor() -> None:
    # The word prefilter counted each distinct word of the anchor in the whole document: a
    # model's quote of 2,000 lines (5,000 distinct words) that was not found in a 5.7 MB
    # document took a minute to fail, holding the server. Counting reads the whole text once a
    # word, so only a bounded number of the anchor's words are counted.
    from writing_rules.documents import _candidates

    counted: list[str] = []

    class Lowered(str):
        def count(self, word: str, *bounds: int | None) -> int:  # type: ignore[override]
            counted.append(word)
            return super().count(word, *bounds)

    class Document(str):
        def lower(self) -> str:
            return Lowered(super().lower())

    document = Document("\n".join(f"line {n} holds w{n % 97} and v{n % 89}" for n in range(2_000)))
    anchor = "\n".join(f"x{n} y{n} z{n}" for n in range(1_000))
    _candidates._shortlist_by_words(document, anchor, 2_000, 1_000)
    assert 0 < len(counted) <= _candidates._MAX_WORDS < 3_000  # (0: the words are still counted this way)
