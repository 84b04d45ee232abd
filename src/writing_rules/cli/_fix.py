"""``scan --fix``: applying the safe fixes to files through the document edit engine.

Each round scans the text, turns every signal's ``fix`` into a quote-anchored
operation and applies them all with ``documents.edit`` (which refuses the whole
round when one no longer matches); rounds repeat until no fix is left. The
file is then written once, through ``DirectoryDocumentStore``: atomically,
with its BOM and CRLF line breaks kept, and only if its bytes are still those
read at the start (a file changed on disk meanwhile is left alone).
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..documents import DirectoryDocumentStore, DocumentEditError, DocumentStoreError, edit, occurrence_at
from ._scan import FileScan

__all__ = ["MAX_ROUNDS", "FixedFile", "fix_file", "fix_operations"]

# Fixes never create new fixable text in the shipped rules; the bound only
# guarantees an end should a future rule's replacement trigger another fix.
MAX_ROUNDS = 10
_LINE = re.compile(r"[^\n]*\n|[^\n]+")  # lines as diff and patch count them: LF only

# (text, language or None to decide it) -> the file's scan as `scan` reports it: configuration,
# suppressions and all
Scan = Callable[[str, "str | None"], FileScan]


@dataclass(frozen=True)
class FixedFile:
    """One file after ``--fix``: the scan of the fixed text (remaining signals) or ``error``."""

    path: str
    fixed: int = 0
    scan: FileScan | None = None
    diff: str = ""
    written: bool = False
    error: str | None = None


def fix_operations(text: str, signals: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Edit operations for the signals' fixes, last first, so each quote still finds its place.

    A fix is named by its text and the occurrence number of that text (the
    engine counts non-overlapping occurrences from the start); a fix that
    overlaps an earlier one waits for the next round.
    """
    chosen: list[tuple[int, str, str]] = []
    previous = 0
    for signal in sorted(signals, key=lambda signal: signal["start"]):
        fix = signal.get("fix")
        start = signal["start"]
        if fix is None or start < previous or not fix["match"]:
            continue
        chosen.append((start, fix["match"], fix["replacement"]))
        previous = start + len(fix["match"])
    operations = []
    for start, match, replacement in reversed(chosen):
        occurrence = occurrence_at(text, match, start)
        if occurrence is None:
            continue  # the quote does not start a non-overlapping occurrence here; next round
        if replacement:
            operations.append(
                {"operation": "replaceBlock", "oldBlock": match, "newBlock": replacement, "occurrence": occurrence}
            )
        else:
            operations.append({"operation": "deleteBlock", "anchor": match, "occurrence": occurrence})
    return operations


def fix_file(path: str, scan: Scan, *, dry_run: bool) -> FixedFile:
    """Fix one file until no fix is left; write it unless ``dry_run``. Never raises for a file problem.

    The language is decided once, from the text as read.
    """
    real = os.path.realpath(path)
    try:
        # The person chose these files (by name or --glob): the model-facing policy does not apply.
        store = DirectoryDocumentStore(os.path.dirname(real), include=("*",), allow_hidden=True)
        document = store.read(os.path.basename(real))
    except (DocumentStoreError, ValueError, OSError) as error:
        return FixedFile(path, error=str(error))
    text = document.content
    fixed = 0
    result = scan(text, None)
    for _ in range(MAX_ROUNDS):
        operations = fix_operations(text, result.data["signals"] if result.data is not None else ())
        if not operations:
            break
        try:
            text = edit(text, operations).content
        except DocumentEditError as error:  # a fix that no longer matches: this round changes nothing
            return FixedFile(path, error=f"a fix no longer matches ({error.message}); the file is unchanged")
        fixed += len(operations)
        result = scan(text, result.language)
    # The store keeps a byte-order mark out of the text; the diff's first line must hold it to apply.
    mark = "\ufeff" if _starts_with_bom(real) else ""
    diff = _diff(mark + document.content, mark + text, path)
    if dry_run or text == document.content:
        return FixedFile(path, fixed, result, diff)
    try:
        store.write(document.id, text, expected_version=document.version)
    except DocumentStoreError as error:
        # VersionConflictError among them: the file changed on disk during the run.
        return FixedFile(path, fixed, result, diff, error=f"not written: {error}")
    return FixedFile(path, fixed, result, diff, written=True)


def _starts_with_bom(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(3) == b"\xef\xbb\xbf"
    except OSError:
        return False


def _diff(before: str, after: str, path: str) -> str:
    if before == after:
        return ""
    name = path.replace(os.sep, "/")
    lines = difflib.unified_diff(_LINE.findall(before), _LINE.findall(after), f"a/{name}", f"b/{name}")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
