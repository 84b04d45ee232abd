"""Worst cases a hostile model or file can send, at 1x, 2x and 4x their size: the work must grow linearly.

For each kind of attack from issues 11 and 25 the script times the worst input found at
three sizes and prints the time and peak memory (``tracemalloc``) at each, and
the ratios 2x/1x and 4x/1x: linear work gives about 2 and 4, quadratic 4 and 16.
The language server's cases (issue 25, findings 12 and 13; they need the lsp
extra) time a one-line document's diagnostics, keystrokes on one long line, and
keystrokes on a document over the size limit (refused: about 1 at every size).

    python benchmarks/bench_hostile.py            # every case
    python benchmarks/bench_hostile.py --quick    # smaller sizes (a few seconds)
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import tracemalloc
from collections.abc import Callable
from typing import Any

from _timing import best  # benchmarks/ is this script's folder

from writing_rules.documents import (
    DirectoryDocumentStore,
    MemoryDocumentStore,
    create_document_tool_dispatcher,
)
from writing_rules.documents._diff import unified_diff
from writing_rules.lint import FileSettings, lint_text
from writing_rules.lint._config import filter_signals
from writing_rules.lint._linediff import changed_line_numbers
from writing_rules.lint._pieces import split_points
from writing_rules.lint._pyproject import may_hold_table
from writing_rules.lint._toml import KeyLines, TomlError, parse_toml
from writing_rules.tools import Signal, create_writing_tool_dispatcher

Case = Callable[[int], Callable[[], object]]  # size -> the call to time


def _write(document: str, operations: list[dict[str, Any]], **arguments: Any) -> Callable[[], object]:
    dispatcher = create_document_tool_dispatcher(MemoryDocumentStore({"doc.md": document}), max_bytes=64 * 2**20)
    call = {"name": "write_document", "arguments": {"id": "doc.md", "operations": operations, **arguments}}

    def run() -> object:
        envelope = dispatcher.dispatch(call)
        assert envelope["ok"] or envelope["error"]["code"] != "internal-error", envelope
        return envelope

    return run


def _document(size: int) -> str:
    line = "The installer sets up the agent and checks that it reports in.\n"
    return (line * (size // len(line) + 1))[:size]


def chunk_cutting_one_line(size: int) -> Callable[[], object]:
    text = ("word " * (size // 5 + 1))[:size]  # no line break anywhere
    return lambda: split_points(text, 250_000)


def cli_scan_one_line(size: int) -> Callable[[], object]:
    text = ("A powerful word " * (size // 16 + 1))[:size]
    settings = FileSettings(language="en", min_level="suggestion")
    return lambda: lint_text(text, "page.md", settings, include_code=True)


def replace_all_bomb(size: int) -> Callable[[], object]:
    operation = {"operation": "replaceAll", "anchor": "agent", "content": "agent" * 2000}
    return _write(_document(size), [operation] * 3)


def ambiguous_fuzzy_replace(size: int) -> Callable[[], object]:
    operation = {"operation": "replaceBlock", "oldBlock": "a", "newBlock": "b", "fuzzyMatch": True}
    return _write(" a\n" * (size // 3), [operation])


def dry_run_diff_of_rewrite(size: int) -> Callable[[], object]:
    lines = size // 4
    before = "".join(f"{n % 150}\n" for n in range(lines))
    after = "".join(f"{n * 7 % 150}\n" for n in range(lines))
    return lambda: unified_diff(before, after, name="doc.md")


def every_operation_kind(size: int) -> Callable[[], object]:
    document = _document(size)
    anchor = "checks that it"
    operations: list[dict[str, Any]] = [
        {"operation": "replaceBlock", "oldBlock": anchor, "newBlock": "verifies that it", "occurrence": 3},
        {"operation": "replaceBlock", "oldBlock": "  agent and\nchecks", "newBlock": "x", "fuzzyMatch": True},
        {"operation": "insertAfter", "anchor": "reports in.", "content": " Done."},
        {"operation": "insertBefore", "anchor": "The installer", "content": "Note: "},
        {"operation": "deleteBlock", "anchor": "sets up ", "occurrence": -1},
        {"operation": "replaceAll", "anchor": "agent", "content": "service"},
        {"operation": "append", "content": "\nEnd.\n"},
        {"operation": "prepend", "content": "# Title\n"},
    ]
    return _write(document, operations, dryRun=True)


def long_document_id(size: int) -> Callable[[], object]:
    folder = tempfile.mkdtemp()
    dispatcher = create_document_tool_dispatcher(DirectoryDocumentStore(folder))
    call = {"name": "read_document", "arguments": {"id": "a/" * (size // 2) + "x.md"}}
    return lambda: dispatcher.dispatch(call)


def echoed_huge_key(size: int) -> Callable[[], object]:
    review = create_writing_tool_dispatcher()
    call = {"name": "find_writing_signals", "arguments": {"k" * size: 1, "text": "x"}}
    return lambda: review.dispatch(call)


def toml_spaces_in_a_string(size: int) -> Callable[[], object]:
    # Issue 25, finding 8: "[" and 3,000 spaces in a multi-line string took 16-19 s (cubic).
    source = 'x = """\n[' + " " * size + '\n"""\n[tool.writing-rules]\n'
    return lambda: KeyLines(source)


def toml_dotted_key(size: int) -> Callable[[], object]:
    # Finding 9: a dotted key of 100k parts took tomllib over 60 s and 7.9 GB; refused before parsing.
    source = "a" + ".a" * (size // 2) + " = 1\n"

    def run() -> object:
        try:
            return parse_toml(source)
        except TomlError as error:
            return error

    return run


def lsp_diagnostics_one_line(size: int) -> Callable[[], object]:
    # Issue 25, finding 12: every diagnostic's position was counted from the line's start.
    from writing_rules.lsp._features import diagnostics  # the lsp extra: imported only when run
    from writing_rules.lsp._linting import lint_document

    text = ("A powerful word " * (size // 16 + 1))[:size]
    return lambda: diagnostics(lint_document("file:///tmp/one-line.md", 1, text, language="en"))


def _keystrokes(text: str, limit: int) -> Callable[[], object]:
    from lsprotocol import types

    from writing_rules.lsp._documents import OpenDocuments

    def edit(at: int) -> types.TextDocumentContentChangePartial:
        position = types.Position(0, at)
        return types.TextDocumentContentChangePartial(range=types.Range(position, position), text="x")

    def run() -> object:
        documents = OpenDocuments(limit)
        documents.open("file:///tmp/one-line.md", 1, text)
        for version in range(2, 12):  # ten keystrokes, each its own didChange, near the line's end
            documents.change("file:///tmp/one-line.md", version, [edit(len(text) - 10)])
        return documents

    return run


def pyproject_escaped_quotes(size: int) -> Callable[[], object]:
    # Found with finding 8: every pyproject.toml on the way up is looked at; a line of 80,000
    # escaped quotes without a closing one took 89 s.
    source = 'a = "' + '\\"' * (size // 2) + "\n"
    return lambda: may_hold_table(source)


def accept_a_space(size: int) -> Callable[[], object]:
    # Finding 10: accept = [" "] made 250k characters take 28.8 s (every signal against every space).
    paragraph = "It is a powerful and very simple tool.\n\n"
    text = (paragraph * (size // len(paragraph) + 1))[:size]
    signals = [
        Signal("word-choice", "hype-word-en", "warning", text[at : at + 8], at, at + 8, at, at + 8, 1, at + 1)
        for at in range(8, len(text) - 8, len(paragraph))
    ]
    settings = FileSettings(accept=(" ",))
    return lambda: filter_signals(signals, text, settings)


def diff_swapped_lines(size: int) -> Callable[[], object]:
    # Finding 11: --diff with stdin (difflib) on 20,000 lines with x/y swapped took 35 s.
    before, after = ["x", "y"] * (size // 2), ["y", "x"] * (size // 2)
    return lambda: changed_line_numbers(before, after)


def diff_edited_page(size: int) -> Callable[[], object]:
    # The common case the diff is for: unique lines, a few edited, a few repeated blank lines.
    before = [f"Line {n} of the page." if n % 3 else "" for n in range(size)]
    after = [line + " Edited." if n % 97 == 0 else line for n, line in enumerate(before)]
    return lambda: changed_line_numbers(before, after)


def lsp_keystrokes_one_line(size: int) -> Callable[[], object]:
    # Issue 25, finding 13: pygls applied each edit walking the line in Python (3.3 s per keystroke at 10 MB).
    from writing_rules.lsp import MAX_DOCUMENT_CHARACTERS

    return _keystrokes(("word " * (size // 5 + 1))[:size], MAX_DOCUMENT_CHARACTERS)


def lsp_keystrokes_refused(size: int) -> Callable[[], object]:
    # Over the limit from the start: refused at didOpen, its edits never applied.
    return _keystrokes(("word " * (size // 5 + 1))[:size], size // 2)


def disables_then_enables(size: int) -> Callable[[], object]:
    # Every enable looked at every open disable (and cut each rule-less one): 10,000 disables then
    # 10,000 enables of another rule, 780 KB, took 64 s.
    half = "<!-- writing-rules-disable -->\n", "<!-- writing-rules-enable hedging -->\n"
    count = size // (len(half[0]) + len(half[1]))
    page = half[0] * count + half[1] * count + "It is obviously simple.\n"
    return lambda: lint_text(page, "page.md", FileSettings(), language="en")


def unclosed_declarations(size: int) -> Callable[[], object]:
    # "<?" repeated: each opener read up to 4,096 characters ahead for its close (15 us a character).
    from writing_rules.prose import read_prose

    text = "<?" * (size // 2)
    return lambda: read_prose(text, "markdown")


def rst_role_characters(size: int) -> Callable[[], object]:
    # ":a:" repeated: a role's name was read to the end of the run from every colon (a line of
    # 40,000 such characters took 9 s; a test timed it in a child until this case took its place).
    from writing_rules.prose import read_prose

    text = ":a:" * (size // 3) + "\n"
    return lambda: read_prose(text, "rst")


CASES: dict[str, tuple[Case, int]] = {
    # name: (case, 1x size in characters)
    "CLI chunk cutting, one line without breaks": (chunk_cutting_one_line, 12_500_000),
    "CLI scan of one line without breaks": (cli_scan_one_line, 250_000),
    "write_document: 3 replaceAll x2000 (bomb)": (replace_all_bomb, 2_500_000),
    "write_document: ambiguous fuzzy replaceBlock": (ambiguous_fuzzy_replace, 2_500_000),
    "write_document: dry-run diff of a rewrite": (dry_run_diff_of_rewrite, 450_000),
    "write_document: every operation kind (dry run)": (every_operation_kind, 2_500_000),
    "directory store: long id": (long_document_id, 160_000),
    "review dispatcher: huge unexpected key": (echoed_huge_key, 2_500_000),
    "config: '[' and spaces in a multi-line string": (toml_spaces_in_a_string, 250_000),
    "config: dotted key of many parts (refused)": (toml_dotted_key, 250_000),
    "config: pyproject line of escaped quotes": (pyproject_escaped_quotes, 250_000),
    "scan: accept = [' '] (signals x spaces)": (accept_a_space, 250_000),
    "--diff stdin: x/y swapped (size in lines)": (diff_swapped_lines, 20_000),
    "--diff stdin: edited page (size in lines)": (diff_edited_page, 20_000),
    "directives: disables, then enables of another rule": (disables_then_enables, 250_000),
    "prose: a run of unclosed '<?'": (unclosed_declarations, 250_000),
    "prose: a reStructuredText line of ':a:'": (rst_role_characters, 250_000),
    "LSP: lint + diagnostics of one line": (lsp_diagnostics_one_line, 250_000),
    "LSP: 10 keystrokes on one line (under the cap)": (lsp_keystrokes_one_line, 900_000),
    "LSP: 10 keystrokes on a refused document": (lsp_keystrokes_refused, 2_500_000),
}


def _peak_mib(run: Callable[[], object]) -> float:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a quarter of the sizes")
    parser.add_argument("--only", help="run the cases whose name contains this text")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores; best of 3 runs (of 10 under 0.5 s)")
    print(f"{'case':50} {'1x size':>11} {'time 1x/2x/4x (s)':>26} {'2x/1x':>6} {'4x/1x':>6} {'peak MiB 1x/4x':>16}")
    worst_time, worst_peak = (0.0, ""), (0.0, "")
    for name, (case, size) in CASES.items():
        if args.only and args.only not in name:
            continue
        size = size // 4 if args.quick else size
        times = []
        for factor in (1, 2, 4):
            run = case(size * factor)
            seconds = best(run, repeat=3)
            # Short runs are repeated more: one interruption is a large share of a millisecond.
            times.append(min(seconds, best(run, repeat=7)) if seconds < 0.5 else seconds)
        peaks = [_peak_mib(case(size * factor)) for factor in (1, 4)]
        shown = "/".join(f"{seconds:.3f}" for seconds in times)
        base = max(times[0], 1e-9)
        print(
            f"{name:50} {size:>11,} {shown:>26} {times[1] / base:>6.2f} {times[2] / base:>6.2f} "
            f"{peaks[0]:>7.1f}/{peaks[1]:<7.1f}"
        )
        worst_time = max(worst_time, (times[2], name))
        worst_peak = max(worst_peak, (peaks[1], name))
    if worst_time[1]:
        print(f"worst at 4x: {worst_time[0]:.3f} s ({worst_time[1]}); {worst_peak[0]:.1f} MiB peak ({worst_peak[1]})")


if __name__ == "__main__":
    main()
