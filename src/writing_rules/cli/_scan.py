"""Finding the files to scan, reading them, and scanning each one."""

from __future__ import annotations

import errno
import fnmatch
import os
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Any, NamedTuple

from .. import __version__
from .._lazy_rules import rule_data as data
from .._text_units import utf16_length
from ..lint import LEVELS, FileSettings, LintedText, lint_signals, markup_for
from ._language import detect_language

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
]

DEFAULT_GLOBS = ("*.md", "*.markdown", "*.mdx", "*.txt", "*.rst")
STDIN = "-"
STDIN_NAME = "<stdin>"  # how results from standard input are labelled
# Texts longer than this are scanned in pieces (cut as for the tool's limit: blank lines outside
# fences first), whatever --jobs is, so that N processes can share one file and give the same output.
PIECE_UNITS = 64_000

MapPieces = Callable[
    [Callable[[tuple[str, dict[str, Any]]], dict[str, Any]], list[tuple[str, dict[str, Any]]]], Iterable[dict[str, Any]]
]
MAX_FILE_SIZE = 50 * 2**20  # --max-file-size's default: larger files are reported, not read
_NOT_REGULAR = "not a regular file"


class ScanOptions(NamedTuple):
    """What the user asked for; picklable, so it can go to worker processes.

    A named tuple, as ``FileScan``: a one-page scan creates no dataclass (see ``FileScan``).
    """

    language: str = "auto"
    profile: str | None = None
    rule_ids: tuple[str, ...] = ()
    max_signals: int | None = None
    # What writing_rules.lint adds: the file's settings (configuration plus command line),
    # the cache folder, whether baseline fingerprints are needed, and the name for stdin.
    settings: FileSettings | None = None
    cache_dir: str | None = None
    fingerprints: bool = False
    stdin_name: str | None = None
    max_file_size: int = MAX_FILE_SIZE
    include_code: bool = False  # keep hits inside code (context.inCode); left out by default

    def tool_arguments(self, language: str) -> dict[str, Any]:
        arguments: dict[str, Any] = {"language": language}
        if self.profile is not None:
            arguments["profile"] = self.profile
        if self.rule_ids:
            arguments["ruleIds"] = list(self.rule_ids)
        return arguments


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
    lint: LintedText | None = None
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
            reason = "no such file or directory" if not os.path.lexists(argument) else _NOT_REGULAR
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
                yield path, None if regular else _NOT_REGULAR


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
    if path == STDIN:
        data = stdin_bytes or b""
    else:
        # Non-blocking: a FIFO swapped in after the walk must not hang the open.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(errno.EINVAL, _NOT_REGULAR)
            data = handle.read() if limit is None else handle.read(limit + 1)
    if limit is not None and len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than --max-file-size ({limit:,} bytes)")
    return data


def read_text(path: str, stdin_bytes: bytes | None = None) -> str:
    """The file's text; ``OSError`` or ``UnicodeDecodeError`` when it cannot be read as UTF-8."""
    # A UTF-8 byte-order mark is not part of the text: editors do not count it in columns.
    return read_bytes(path, stdin_bytes).decode("utf-8-sig")


def _settings(options: ScanOptions) -> FileSettings:
    if options.settings is not None:
        return options.settings
    return FileSettings(language=options.language, profile=options.profile, rules=options.rule_ids or None)


def scan_piece(job: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    """The tool's data for one piece of a text (positions within the piece); runs in a worker.

    ``job`` carries the tool's ``language`` and ``ruleIds`` as the tool would choose
    them (the settings give known rules with signals, in catalogue order), so no
    dispatcher checks them again; then ``markup``, ``frontMatterKeys`` (None: the
    piece cannot open with front matter) and what the command line drops anyway, so
    that it is not scanned for: ``minLevel`` (signals below it) and ``includeCode``
    (false: signals in code).
    """
    # The scanner (and the prose reader) load here, with the first text to scan: a run
    # answered from the result cache never needs them.
    from ._chunks import DEFAULT_FRONT_MATTER_KEYS, scan_chosen

    text, arguments = job
    return dict(
        scan_chosen(
            text,
            arguments["language"],
            tuple(arguments["ruleIds"]),
            markup=arguments.get("markup", "markdown"),
            front_matter_keys=arguments.get("frontMatterKeys", DEFAULT_FRONT_MATTER_KEYS),
            min_level=arguments.get("minLevel"),
            code=arguments.get("includeCode", True),
        )
    )


def _scan_text(
    text: str,
    language: str,
    settings: FileSettings,
    map_pieces: MapPieces = map,
    markup: str = "markdown",
    include_code: bool = True,
) -> dict[str, Any]:
    rule_ids = settings.rule_ids()
    if not rule_ids:  # everything disabled: nothing to ask the tool
        return {"language": language, "ruleIds": [], "signals": [], "totalSignals": 0, "truncated": False}
    arguments = {
        "language": language,
        "ruleIds": list(rule_ids),
        "markup": markup,
        "frontMatterKeys": settings.front_matter_keys,
        "minLevel": settings.min_level,
        "includeCode": include_code,
    }
    if len(text) <= PIECE_UNITS // 2 or utf16_length(text) <= PIECE_UNITS:
        return scan_piece((text, arguments))
    from ._chunks import join_pieces, split_points

    starts = split_points(text, PIECE_UNITS)
    bounds = list(zip(starts, [*starts[1:], len(text)], strict=True))
    # Front matter can only open the text: later pieces are read without it.
    later = {**arguments, "frontMatterKeys": None}
    jobs = [(text[first:end], arguments if first == 0 else later) for first, end in bounds]
    pieces = list(map_pieces(scan_piece, jobs))
    signals = join_pieces(text, starts, (piece["signals"] for piece in pieces))
    note = next((piece["note"] for piece in pieces if piece.get("note")), None)
    return {**pieces[0], "signals": signals, "totalSignals": len(signals), "truncated": False, "note": note}


_LANGUAGES = ("en", "de")
_SIGNAL_NUMBERS = ("start", "end", "utf16Start", "utf16End", "line", "column")
_CONTEXT_FLAGS = ("inCode", "inQuote", "negated")


def cached_result_ok(value: Mapping[str, Any], text: str) -> bool:
    """Whether a cached value has the shape ``scan_source`` stores, with spans that fit ``text``.

    Anything else (a damaged or foreign entry: missing keys, an unknown rule, a span
    outside the text) is a cache miss, never a crash further on.
    """
    result = value.get("data")
    if value.get("language") not in _LANGUAGES or not isinstance(value.get("detected"), bool):
        return False
    if not isinstance(result, dict) or result.get("language") not in _LANGUAGES:
        return False
    rule_ids, signals = result.get("ruleIds"), result.get("signals")
    if not isinstance(rule_ids, list) or not all(isinstance(rule, str) and rule in data.RULES for rule in rule_ids):
        return False
    if not isinstance(signals, list) or not isinstance(result.get("truncated"), bool):
        return False
    if not isinstance(result.get("totalSignals"), int) or not isinstance(result.get("note"), (str, type(None))):
        return False
    return all(_signal_ok(signal, text) for signal in signals)


def _signal_ok(signal: object, text: str) -> bool:
    rule_id = signal.get("ruleId") if isinstance(signal, dict) else None
    if not isinstance(signal, dict) or not isinstance(rule_id, str) or rule_id not in data.RULES:
        return False
    if not isinstance(signal.get("signalId"), str) or signal.get("level") not in LEVELS:
        return False
    numbers = [signal.get(name) for name in _SIGNAL_NUMBERS]
    if not all(type(number) is int and number >= 0 for number in numbers):
        return False
    start, end = signal["start"], signal["end"]
    if not (start <= end <= len(text)) or signal.get("match") != text[start:end] or signal["line"] < 1:
        return False
    context = signal.get("context")
    if not isinstance(context, dict) or not all(isinstance(context.get(flag), bool) for flag in _CONTEXT_FLAGS):
        return False
    fix = signal.get("fix")
    return fix is None or (
        isinstance(fix, dict) and isinstance(fix.get("replacement"), str) and isinstance(fix.get("match"), str)
    )


def _drop_code(result: dict[str, Any], options: ScanOptions) -> str | None:
    """Leave out hits in code unless asked for (--include-code); returns the reader's note."""
    if not options.include_code:
        # Code is shown to readers as code: its hits are leads only on request.
        result["signals"] = [signal for signal in result["signals"] if not signal["context"]["inCode"]]
    note: str | None = result.pop("note", None)
    return note


def scan_source(
    path: str, options: ScanOptions, stdin_bytes: bytes | None = None, map_pieces: MapPieces = map
) -> FileScan:
    """Read and scan one file; never raises for a file problem (the reason goes into ``error``).

    ``map_pieces`` scans the pieces of a long text (a process pool's ``map`` spreads them).
    """
    shown = (options.stdin_name or STDIN_NAME) if path == STDIN else path
    try:
        raw = read_bytes(path, stdin_bytes, options.max_file_size)
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return FileScan(path=shown, error=f"not UTF-8 text (invalid byte at offset {error.start})")
    except OSError as error:
        return FileScan(path=shown, error=error.strerror or type(error).__name__)
    settings = _settings(options)
    markup = markup_for(shown, settings)
    cache = None
    if options.cache_dir is not None:
        from ..lint import ResultCache, cache_key  # with json and hashlib: not for --no-cache

        cache = ResultCache(options.cache_dir)
    key = ""
    cached = None
    if cache is not None:
        import hashlib  # 2 ms of start-up (OpenSSL) that a scan without --cache never needs

        content = hashlib.sha256(raw).hexdigest()
        # The effective settings include the markup the file is read as (its extension decides "auto").
        # Signals in code are scanned for only with --include-code: a result holds them or not.
        code = "code" if options.include_code else "no-code"
        # The file's own path (resolved) is part of the key: an entry is never served for another file.
        where = shown if path == STDIN else os.path.realpath(path)
        key = cache_key("scan-2", __version__, data.SOURCE_DIGEST, where, settings.key(), markup, code, content)
        cached = cache.get(key, partial(cached_result_ok, text=text))
    if cached is not None:
        language, detected, result = cached["language"], cached["detected"], dict(cached["data"])
    else:
        detected = settings.language == "auto"
        language = detect_language(text) if detected else settings.language
        result = _scan_text(text, language, settings, map_pieces, markup, options.include_code)
        if cache is not None:
            cache.put(key, {"language": language, "detected": detected, "data": result})
    reader_note = _drop_code(result, options)
    linted = lint_signals(text, result["signals"], settings, markup, fingerprints=options.fingerprints)
    # --max-signals is applied by the caller, after the baseline and --diff.
    result["signals"] = list(linted.signals)
    result["totalSignals"] = len(linted.signals)
    return FileScan(
        path=shown,
        language=language,
        detected=detected,
        data=result,
        text=text,
        lint=linted,
        cache_warning=cache.warning if cache is not None else None,
        reader_note=reader_note,
        markup=markup,
    )


def scan_text_as(path: str, options: ScanOptions, text: str, language: str | None = None) -> FileScan:
    """``scan_source`` for text already in hand, named ``path`` (``scan --fix`` rescans what it fixed).

    ``language`` None decides it as ``scan_source`` does; no cache is used.
    """
    settings = _settings(options)
    detected = settings.language == "auto"
    if language is None:
        language = detect_language(text) if detected else settings.language
    result = _scan_text(text, language, settings, markup=markup_for(path, settings), include_code=options.include_code)
    _drop_code(result, options)
    linted = lint_signals(text, result["signals"], settings, markup_for(path, settings))
    result["signals"] = list(linted.signals)
    result["totalSignals"] = len(linted.signals)
    markup = markup_for(path, settings)
    return FileScan(path=path, language=language, detected=detected, data=result, text=text, lint=linted, markup=markup)


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
