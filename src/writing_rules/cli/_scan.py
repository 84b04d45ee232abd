"""Finding the files to scan, reading them, and scanning each one."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..tools import create_writing_tool_dispatcher
from ._chunks import scan_whole_text
from ._language import detect_language

__all__ = [
    "DEFAULT_GLOBS",
    "STDIN",
    "STDIN_NAME",
    "FileScan",
    "ScanOptions",
    "collect_paths",
    "scan_one",
    "scan_one_keeping_text",
    "scan_source",
]

DEFAULT_GLOBS = ("*.md", "*.markdown", "*.txt", "*.rst")
STDIN = "-"
STDIN_NAME = "<stdin>"  # how results from standard input are labelled


@dataclass(frozen=True)
class ScanOptions:
    """What the user asked for; picklable, so it can go to worker processes."""

    language: str = "auto"
    profile: str | None = None
    rule_ids: tuple[str, ...] = ()
    max_signals: int | None = None

    def tool_arguments(self, language: str) -> dict[str, Any]:
        arguments: dict[str, Any] = {"language": language}
        if self.profile is not None:
            arguments["profile"] = self.profile
        if self.rule_ids:
            arguments["ruleIds"] = list(self.rule_ids)
        return arguments


@dataclass(frozen=True)
class FileScan:
    """One file's outcome: ``data`` (the tool's data, whole file) or ``error`` (why it was not scanned)."""

    path: str
    language: str | None = None
    detected: bool = False
    data: Mapping[str, Any] | None = None
    error: str | None = None
    text: str | None = field(default=None, repr=False, compare=False)


def collect_paths(arguments: Sequence[str], globs: Sequence[str]) -> tuple[list[str], list[FileScan]]:
    """Files to scan (named files always; directories walked for ``globs``) and missing paths."""
    found: list[str] = []
    missing: list[FileScan] = []
    for argument in arguments:
        if argument == STDIN or os.path.isfile(argument):
            found.append(argument)
        elif os.path.isdir(argument):
            found.extend(_walk(argument, globs))
        else:
            reason = "no such file or directory" if not os.path.lexists(argument) else "not a regular file"
            missing.append(FileScan(path=argument, error=reason))
    unique = list(dict.fromkeys(found))
    return unique, missing


def _walk(root: str, globs: Sequence[str]) -> Iterable[str]:
    for folder, folders, files in os.walk(root):
        # Hidden folders (.git, .venv, .tox …) hold tooling, not documentation.
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(files):
            if any(fnmatch.fnmatch(name, pattern) for pattern in globs):
                yield os.path.join(folder, name)


def read_text(path: str, stdin_bytes: bytes | None = None) -> str:
    """The file's text; ``OSError`` or ``UnicodeDecodeError`` when it cannot be read as UTF-8."""
    if path == STDIN:
        raw = stdin_bytes or b""
    else:
        with open(path, "rb") as handle:
            raw = handle.read()
    # A UTF-8 byte-order mark is not part of the text: editors do not count it in columns.
    return raw.decode("utf-8-sig")


def scan_source(path: str, options: ScanOptions, stdin_bytes: bytes | None = None) -> FileScan:
    """Read and scan one file; never raises for a file problem (the reason goes into ``error``)."""
    shown = STDIN_NAME if path == STDIN else path
    try:
        text = read_text(path, stdin_bytes)
    except UnicodeDecodeError as error:
        return FileScan(path=shown, error=f"not UTF-8 text (invalid byte at offset {error.start})")
    except OSError as error:
        return FileScan(path=shown, error=error.strerror or type(error).__name__)
    detected = options.language == "auto"
    language = detect_language(text) if detected else options.language
    dispatcher = create_writing_tool_dispatcher()
    data = dict(scan_whole_text(dispatcher.dispatch, text, options.tool_arguments(language)))
    if options.max_signals is not None and len(data["signals"]) > options.max_signals:
        data["signals"] = data["signals"][: options.max_signals]
        data["truncated"] = True
    return FileScan(path=shown, language=language, detected=detected, data=data, text=text)


def scan_one_keeping_text(job: tuple[str, ScanOptions]) -> FileScan:
    """``scan_source`` for a worker process, text included (the HTML report shows it)."""
    return scan_source(*job)


def scan_one(job: tuple[str, ScanOptions]) -> FileScan:
    """``scan_source`` for a worker process (no stdin there); drops the text to keep the transfer small."""
    result = scan_source(*job)
    return FileScan(result.path, result.language, result.detected, result.data, result.error)
