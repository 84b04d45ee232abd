"""``scan --fix``: applying the safe fixes to files, as the document edit engine would.

Each round scans the text and turns every signal's ``fix`` into a quote-anchored
operation (each quote found at its place). The round's result is then known, and
it is spliced directly; only in a CRLF file whose fixes write line breaks are the
operations applied with ``documents.edit`` (which writes those breaks as the
file's and refuses the whole round when one no longer matches), in batches of
at most ``MAX_OPERATIONS``. A round that would make the file more than
``MAX_GROWTH`` times as long stops the run and leaves the file unchanged;
rounds repeat until no fix is left. A round is needed per place when a hit
without a fix hides the next fix (repeated text: "zur Verfügung stellen zur
Verfügung stellen", where the scanner pairs one phrase's "stellen" with the next
one's "zur Verfügung"); such rounds fix only text as it was written, which they
use up, so they are not counted. Rounds that fix text an earlier fix wrote are,
up to ``MAX_ROUNDS``; and a run has ``MAX_RUN_ROUNDS`` rounds at most, as each scans the
whole text again. The file is then written once, through a
``DirectoryDocumentStore`` rooted at the scanned folder: atomically, with its
BOM and CRLF line breaks kept, only if its bytes are still those read at the
start (a file changed on disk meanwhile is left alone), and never through a
symbolic link that leads out of the scanned folder, even one swapped in during
the run (the store resolves every path from the folder's descriptor).
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .._patch_names import quote_patch_name
from ..documents import (
    MAX_OPERATIONS,
    DirectoryDocumentStore,
    DocumentEditError,
    DocumentStoreError,
    InvalidDocumentArgumentsError,
    edit,
    occurrences_at,
)
from ._scan import FileScan

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..tools import Signal

__all__ = [
    "MAX_GROWTH",
    "MAX_ROUNDS",
    "MAX_RUN_ROUNDS",
    "FixedFile",
    "fix_file",
    "fix_operations",
    "scan_roots",
]

# Fixes never create new fixable text in the shipped rules; the bound only
# guarantees an end should a rule's (a pack's) replacement trigger another fix:
# it counts the rounds that fix text an earlier fix wrote (or touch its edge).
MAX_ROUNDS = 10
# Rounds in all, of either kind: each scans the whole text again, so a text whose repeated
# phrases hide their fixes one behind another (thousands of them, in a hostile file) costs at
# most this many scans; the next run goes on where this one stopped.
MAX_RUN_ROUNDS = 100
# A run never makes a file longer than this many times its length (plus a little, for short
# files): the shipped fixes shorten text, but a pack's hand-written fix that repeats its own text
# ("go" -> "gogo") would double it with each counted round, 1,024 times in ten.
MAX_GROWTH = 4
_GROWTH_SLACK = 65_536
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


def fix_operations(text: str, signals: Sequence[Signal]) -> list[dict[str, Any]]:
    """Edit operations for the signals' fixes, last first, so each quote still finds its place.

    A fix is named by its text and the occurrence number of that text (the
    engine counts non-overlapping occurrences from the start); a fix that
    overlaps an earlier one waits for the next round.
    """
    return [operation for _, operation in _round(text, signals)]


def _round(text: str, signals: Sequence[Signal]) -> list[tuple[tuple[int, int, str], dict[str, Any]]]:
    """``fix_operations`` with the place of each: ((start, end, replacement), operation), last first."""
    chosen: list[tuple[int, str, str]] = []
    previous = 0
    for signal in sorted(signals, key=lambda signal: signal.start):
        fix = signal.fix
        start = signal.start
        if fix is None or start < previous or not fix.match:
            continue
        chosen.append((start, fix.match, fix.replacement))
        previous = start + len(fix.match)
    occurrences = _occurrences(text, chosen)
    operations: list[tuple[tuple[int, int, str], dict[str, Any]]] = []
    for start, match, replacement in reversed(chosen):
        occurrence = occurrences.get(start)
        if occurrence is None:
            continue  # the quote does not start a non-overlapping occurrence here; next round
        place = (start, start + len(match), replacement)
        if replacement:
            operations.append(
                (
                    place,
                    {"operation": "replaceBlock", "oldBlock": match, "newBlock": replacement, "occurrence": occurrence},
                )
            )
        else:
            operations.append((place, {"operation": "deleteBlock", "anchor": match, "occurrence": occurrence}))
    return operations


def _occurrences(text: str, chosen: Sequence[tuple[int, str, str]]) -> dict[int, int]:
    """``occurrence_at`` for each place, counting each quote's occurrences once."""
    places: dict[str, list[int]] = {}
    for start, match, _ in chosen:
        places.setdefault(match, []).append(start)
    found: dict[int, int] = {}
    for match, starts in places.items():
        found.update(occurrences_at(text, match, starts))
    return found


def _touches(written: list[tuple[int, int]], places: Sequence[tuple[int, int, str]]) -> bool:
    """Whether a place (start, end) meets or borders text a fix wrote (sorted spans, edges included)."""
    for start, end, _ in places:
        k = bisect_right(written, (end, 1 << 62))  # the spans that start at or before this place's end
        if k and written[k - 1][1] >= start:
            return True
    return False


def _written_after(written: list[tuple[int, int]], places: Sequence[tuple[int, int, str]]) -> list[tuple[int, int]]:
    """The spans fixes wrote, in the text after ``places`` (sorted, none overlapping) were replaced."""
    starts = [start for start, _, _ in places]
    before = [0]  # before[i]: how far the places ahead of place i moved the text
    for start, end, replacement in places:
        before.append(before[-1] + len(replacement) - (end - start))

    def left(position: int) -> int:  # a span's start: inside a place, its replacement's start
        i = bisect_right(starts, position) - 1
        if i >= 0 and position < places[i][1]:
            return places[i][0] + before[i]
        return position + before[i + 1]

    def right(position: int) -> int:  # a span's end: inside a place, its replacement's end
        i = bisect_left(starts, position) - 1
        if i >= 0 and position <= places[i][1]:
            return places[i][0] + before[i] + len(places[i][2])
        return position + before[i + 1]

    spans = sorted(
        [(left(low), right(high)) for low, high in written]
        + [
            (start + before[i], start + before[i] + len(replacement))
            for i, (start, _, replacement) in enumerate(places)
        ]
    )
    merged: list[tuple[int, int]] = []  # one span where they meet: ``_touches`` looks at one neighbour
    for low, high in spans:
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


def _spliced(text: str, places: Sequence[tuple[int, int, str]]) -> list[str]:
    """The pieces of ``text`` with each of ``places`` (sorted, none overlapping) replaced."""
    pieces: list[str] = []
    previous = 0
    for start, end, replacement in places:
        pieces += (text[previous:start], replacement)
        previous = end
    pieces.append(text[previous:])
    return pieces


def scan_roots(arguments: Sequence[str]) -> Callable[[str], str]:
    """For each scanned path, the folder it was scanned in: the outermost folder argument it was found
    under, else its own folder. ``--fix`` writes nothing outside it.

    Links in a folder or file as the person named it are their choice; links
    below it that lead out are refused.
    """
    folders = {os.path.join(argument, ""): argument for argument in arguments if os.path.isdir(argument)}

    def root(path: str) -> str:
        # Walked paths start with their folder argument as given; look only at separators (no quadratic work).
        end = path.find(os.sep)
        while end >= 0:
            folder = folders.get(path[: end + 1])
            if folder is not None:
                return folder
            end = path.find(os.sep, end + 1)
        return os.path.dirname(path) or os.curdir

    return root


def _outside(root: str) -> str:
    return (
        f"not fixed: it leads outside the scanned folder {root!r} (through a symbolic link); --fix never "
        "writes outside the folders it scans, so the file is left as it is"
    )


def _apply(text: str, operations: list[dict[str, Any]]) -> str:
    """All of ``operations`` in order, in batches the engine takes in one call."""
    for start in range(0, len(operations), MAX_OPERATIONS):
        text = edit(text, operations[start : start + MAX_OPERATIONS]).content
    return text


def fix_file(path: str, scan: Scan, *, dry_run: bool, root: str | None = None) -> FixedFile:
    """Fix one file until no fix is left; write it unless ``dry_run``. Never raises for a file problem.

    Nothing outside ``root`` (default: the file's folder) is read or written:
    a path that leads out of it through a symbolic link is refused. The
    language is decided once, from the text as read.
    """
    if root is None:
        root = os.path.dirname(path) or os.curdir
    id = os.path.relpath(path, root).replace(os.sep, "/")
    real_root = os.path.realpath(root)
    # Only for the message: the store refuses such a link itself, race-free, at every read and write.
    if os.path.commonpath([real_root, os.path.realpath(path)]) != real_root or id.startswith("../"):
        return FixedFile(path, error=_outside(root))
    try:
        # The person chose these files (by name or --glob): the model-facing policy does not apply.
        store = DirectoryDocumentStore(root, include=("*",), allow_hidden=True, exclude=())
        document = store.read(id)
    except InvalidDocumentArgumentsError as error:  # swapped for a link out since the check above, or too long
        return FixedFile(
            path, error=f"not fixed: {error.message} (the document folder: {root!r}); the file is unchanged"
        )
    except (DocumentStoreError, ValueError, OSError) as error:
        return FixedFile(path, error=str(error))
    text = document.content
    fixed = 0
    result = scan(text, None)
    # Spans of ``text`` that fixes wrote. A round that fixes only other text uses some of the text
    # as written up (a fix's quote is never empty), so such rounds end by themselves; the others
    # are counted.
    written: list[tuple[int, int]] = []
    counted = 0
    for _ in range(MAX_RUN_ROUNDS):
        chosen = _round(text, result.lint.signals if result.lint is not None else ())
        if not chosen:
            break
        places = sorted(place for place, _ in chosen)
        grown = len(text) + sum(len(replacement) - (end - start) for start, end, replacement in places)
        if grown > MAX_GROWTH * len(document.content) + _GROWTH_SLACK:
            return FixedFile(
                path,
                error=f"not fixed: the fixes would make the file more than {MAX_GROWTH} times as long"
                " (a rule pack's fix that writes the text it fixes again?); the file is unchanged",
            )
        if _touches(written, places):
            if counted == MAX_ROUNDS:
                break
            counted += 1
        # The text as the places say it becomes; the engine may write a replacement otherwise (its
        # line breaks as a CRLF file's), and then the spans are not known: all of it counts as written.
        expected = "".join(_spliced(text, places))
        if "\r" not in text or not any("\n" in replacement or "\r" in replacement for _, _, replacement in places):
            # Every quote was found at its place: the engine would write exactly this (it writes
            # a replacement's line breaks otherwise only in a CRLF file), at a cost per operation
            # that grows with its occurrence number.
            text = expected
        else:
            try:
                text = _apply(text, [operation for _, operation in chosen])
            except DocumentEditError as error:  # a fix that no longer matches: this round changes nothing
                return FixedFile(path, error=f"a fix no longer matches ({error.message}); the file is unchanged")
        fixed += len(chosen)
        written = _written_after(written, places) if text == expected else [(0, len(text))]
        result = scan(text, result.language)
    # The store keeps a byte-order mark out of the text; the diff's first line must hold it to apply.
    # The version is the digest of the file's bytes, so it tells without opening the file again.
    bom = hashlib.sha256(b"\xef\xbb\xbf" + document.content.encode("utf-8")).hexdigest() == document.version
    mark = "\ufeff" if bom else ""
    diff = _diff(mark + document.content, mark + text, path)
    if dry_run or text == document.content:
        return FixedFile(path, fixed, result, diff)
    try:
        store.write(document.id, text, expected_version=document.version)
    except InvalidDocumentArgumentsError as error:  # swapped for a link out during the run
        return FixedFile(
            path, fixed, result, diff, error=f"not written: {error.message} (the document folder: {root!r})"
        )
    except DocumentStoreError as error:
        # VersionConflictError among them: the file changed on disk during the run.
        return FixedFile(path, fixed, result, diff, error=f"not written: {error}")
    return FixedFile(path, fixed, result, diff, written=True)


def _diff(before: str, after: str, path: str) -> str:
    if before == after:
        return ""
    name = path.replace(os.sep, "/")
    old, new = quote_patch_name("a/", name), quote_patch_name("b/", name)
    lines = difflib.unified_diff(_LINE.findall(before), _LINE.findall(after), old, new)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
