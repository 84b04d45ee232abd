"""Finding the files to scan, reading them, and scanning each one."""

from __future__ import annotations

import errno
import fnmatch
import os
import stat
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .._regular_files import NOT_REGULAR, read_regular_file
from ..lint import PIECE_UNITS, FileSettings
from ..prose import FILE_TYPES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..lint import LintResult, MapPieces

__all__ = [
    "DEFAULT_GLOBS",
    "MAX_FILE_SIZE",
    "PIECE_UNITS",
    "STDIN",
    "STDIN_NAME",
    "FileScan",
    "ScanOptions",
    "collect_paths",
    "scan_one",
    "scan_one_keeping_text",
    "scan_source",
    "scan_text_as",
    "wire_data",
]

# What `scan DIR` scans without --glob: the file types marked scanned (writing_rules.prose.FILE_TYPES).
DEFAULT_GLOBS = tuple(f"*{extension}" for extension, kind in FILE_TYPES.items() if kind.scanned)
STDIN = "-"
STDIN_NAME = "<stdin>"  # how results from standard input are labelled
MAX_FILE_SIZE = 50 * 2**20  # --max-file-size's default: larger files are reported, not read


class ScanOptions(NamedTuple):
    """How one file is linted beyond its settings; picklable, so it can go to worker processes.

    A named tuple, as ``FileScan``: a one-page scan creates no dataclass (see ``FileScan``).
    ``settings`` are the file's (configuration, then the command line on top).
    """

    settings: FileSettings = FileSettings()
    cache_dir: str | None = None
    fingerprints: bool = False  # one baseline fingerprint per signal (--baseline, --write-baseline)
    stdin_name: str | None = None
    max_file_size: int = MAX_FILE_SIZE
    include_code: bool = False  # keep hits inside code (context.inCode); left out by default


class FileScan(NamedTuple):
    """One file's outcome: ``data`` (the tool's data, whole file) or ``error`` (why it was not scanned).

    A named tuple, not a dataclass: importing ``dataclasses`` (with ``inspect``) and
    building its classes was about a sixth of a one-page scan's own time. Change one
    with ``_replace``.
    """

    path: str
    language: str | None = None
    detected: bool = False
    data: Mapping[str, Any] | None = None
    error: str | None = None
    text: str | None = None
    lint: LintResult | None = None
    cache_warning: str | None = None
    note: str = ""  # what the baseline, --diff and directives held back, for the summary line
    reader_note: str | None = None  # why the file was read as plain text (its reader failed), if it was
    markup: str = "markdown"  # what the file was read as (the HTML report shows it so)


def collect_paths(arguments: Sequence[str], globs: Sequence[str]) -> tuple[list[str], list[FileScan]]:
    """Files to scan (named files always; directories walked for ``globs``) and paths that cannot be.

    Only regular files are scanned: a FIFO would hang the scan and a link to a
    device (``/dev/zero``) would read without end, so both are reported instead.
    """
    found: list[str] = []
    missing: list[FileScan] = []
    for argument in arguments:
        if argument == STDIN or os.path.isfile(argument):
            found.append(argument)
        elif os.path.isdir(argument):
            for path, reason in _walk(argument, globs):
                if reason is None:
                    found.append(path)
                else:
                    missing.append(FileScan(path=path, error=reason))
        else:
            reason = "no such file or directory" if not os.path.lexists(argument) else NOT_REGULAR
            missing.append(FileScan(path=argument, error=reason))
    unique = list(dict.fromkeys(found))
    return unique, missing


def _walk(root: str, globs: Sequence[str]) -> Iterable[tuple[str, str | None]]:
    """``(path, None)`` for each regular file matching ``globs``; ``(path, reason)`` for what is not one."""
    for folder, files in _folders(root):
        for name in sorted(files):
            if any(fnmatch.fnmatch(name, pattern) for pattern in globs):
                path = os.path.join(folder, name)
                try:
                    regular = stat.S_ISREG(os.stat(path).st_mode)  # follows links: a link to a device is one
                except OSError:
                    yield path, "no such file (a broken symbolic link)"
                    continue
                yield path, None if regular else NOT_REGULAR


def _folders(root: str) -> Iterable[tuple[str, list[str]]]:
    """``(folder, file names)`` under ``root``, top-down in sorted order, as ``os.walk`` gives them.

    A loop over a stack, not ``os.walk``: before Python 3.12 it recurses once per level, and a
    tree 1,200 folders deep ended the scan with a RecursionError. Hidden folders (.git, .venv,
    .tox ...) hold tooling, not documentation; links to folders are not followed.
    """
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue  # os.walk's default: a folder that cannot be listed is left out
        folders, files = [], []
        for entry in entries:
            try:
                is_folder = entry.is_dir()
            except OSError:
                is_folder = False
            if is_folder:
                if not entry.name.startswith(".") and not entry.is_symlink():
                    folders.append(entry.name)
            else:
                files.append(entry.name)
        yield folder, files
        stack.extend(os.path.join(folder, name) for name in sorted(folders, reverse=True))


def read_bytes(path: str, stdin_bytes: bytes | None = None, limit: int | None = None) -> bytes:
    """The file's bytes (``OSError`` when it cannot be read, is not a regular file or is over ``limit``)."""
    try:
        data = (stdin_bytes or b"") if path == STDIN else read_regular_file(path, limit)
    except OSError as error:
        if error.errno == errno.EFBIG and limit is not None:
            raise _too_large(limit) from None
        raise
    if limit is not None and len(data) > limit:
        raise _too_large(limit)
    return data


def _too_large(limit: int) -> OSError:
    return OSError(errno.EFBIG, f"larger than --max-file-size ({limit:,} bytes)")


def wire_data(result: LintResult) -> dict[str, Any]:
    """The report's data for one file (the tool's ``find_writing_signals`` shape): made here, for the formats."""
    from ..tools import signals_data

    return signals_data(result.language, result.rule_ids, result.signals, result.total_signals, result.truncated)


def scan_source(
    path: str, options: ScanOptions, stdin_bytes: bytes | None = None, map_pieces: MapPieces = map
) -> FileScan:
    """Read and lint one file (``writing_rules.lint.lint_text``); never raises for a file problem
    (the reason goes into ``error``).

    ``map_pieces`` scans the pieces of a long text (a process pool's ``map`` spreads them).
    """
    shown = (options.stdin_name or STDIN_NAME) if path == STDIN else path
    try:
        text = read_bytes(path, stdin_bytes, options.max_file_size).decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return FileScan(path=shown, error=f"not UTF-8 text (invalid byte at offset {error.start})")
    except OSError as error:
        return FileScan(path=shown, error=error.strerror or type(error).__name__)
    return scan_text_as(shown, options, text, cache=True, map_pieces=map_pieces)


def scan_text_as(
    path: str,
    options: ScanOptions,
    text: str,
    language: str | None = None,
    *,
    cache: bool = False,
    map_pieces: MapPieces = map,
) -> FileScan:
    """``scan_source`` for text already in hand, named ``path`` (``scan --fix`` rescans what it fixed).

    ``language`` None decides it as ``scan_source`` does; the cache is used only with ``cache``.
    """
    from ..lint import lint_text

    linted = lint_text(
        text,
        path,
        options.settings,
        language=language,
        include_code=options.include_code,
        fingerprints=options.fingerprints,
        cache_dir=options.cache_dir if cache else None,
        map_pieces=map_pieces,
    )
    return FileScan(
        path=path,
        language=linted.language,
        detected=linted.detected,
        data=wire_data(linted),
        text=text,
        lint=linted,
        cache_warning=linted.cache_warning,
        reader_note=linted.reader_note,
        markup=linted.markup,
    )


def scan_one_keeping_text(job: tuple[str, ScanOptions]) -> FileScan:
    """``scan_source`` for a worker process, text included (the HTML report shows it)."""
    return scan_source(*job)


def scan_one(job: tuple[str, ScanOptions]) -> FileScan:
    """``scan_source`` for a worker process (no stdin there); drops the text to keep the transfer small."""
    result = scan_source(*job)
    return FileScan(
        result.path,
        result.language,
        result.detected,
        result.data,
        result.error,
        lint=result.lint,
        cache_warning=result.cache_warning,
        reader_note=result.reader_note,
        markup=result.markup,
    )
