"""The ``writing-rules`` commands: argument parsing and what each command does."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any, NamedTuple, TextIO, cast

from .. import tools  # its names load on first use: a run answered from the cache creates no dispatcher
from .._errors import PackError
from .._lazy_rules import rule_data as data
from .._regular_files import read_regular_file
from .._tool_call import clean_text
from ..documents import DOCUMENTATION_FILES
from ..lint import ConfigError
from ..prose import MARKUPS
from ._escape import EscapingStream
from ._formats import FORMATS, RuleBook, iter_json, render_github, render_html_report, render_sarif, render_text
from ._linting import LintRun, add_lint_arguments, add_pack_arguments, prepare_lint, working_folder_packs
from ._lsp import add_lsp_parser, run_lsp
from ._parser import CommandParser
from ._scan import (
    DEFAULT_GLOBS,
    MAX_FILE_SIZE,
    PIECE_UNITS,
    STDIN,
    FileScan,
    scan_one,
    scan_one_keeping_text,
    scan_source,
    scan_text_as,
)
from ._serve_mcp import add_serve_mcp_parser, serve_mcp
from ._status import EXIT_CLEAN, EXIT_ERROR, EXIT_SIGNALS, UsageError
from ._stores import STORE_LOCATIONS, database_store

__all__ = ["build_parser", "run"]

_PROGRESS_THRESHOLD = 20  # fewer files finish before progress would help
_FORMATS_WITH_TEXT = ("html", "github")
_PROFILES = ", ".join(data.PROFILE_IDS)


_MAX_COUNT = 1_000_000  # past any real --max-signals; keeps huge numbers out of C-level sizes


def _positive(value: str, maximum: int = _MAX_COUNT) -> int:
    try:
        # int() of a very long digit string is slow (and refused past 4,300 digits): any such number is too large.
        number = int(value) if len(value) <= 20 else (maximum + 1 if value.strip().isdigit() else int("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value[:40]!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, got {number}")
    if number > maximum:
        raise argparse.ArgumentTypeError(f"expected at most {maximum:,}, got {value[:40]}")
    return number


def _jobs(value: str) -> int:
    return _positive(value, 256)


_SIZE_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}


def _byte_size(value: str) -> int:
    """A byte count such as 50M, 512K or 1048576."""
    text = value.strip().upper().removesuffix("B").removesuffix("I")
    unit = text[-1:] if text[-1:] in _SIZE_UNITS else ""
    digits = text[: len(text) - len(unit)]
    if not digits.isdigit() or len(digits) > 15 or int(digits) < 1:
        raise argparse.ArgumentTypeError(f"expected a size such as 50M, 512K or 1000000, got {value[:40]!r}")
    return int(digits) * _SIZE_UNITS[unit]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command or, with ``command``, of that one only.

    A command's own help, usage and errors never name the other commands, so
    ``run`` builds only the command named first: building the other six cost
    about 0.5 ms of every start.
    """
    parser = CommandParser(
        prog="writing-rules",
        description="Review and edit documentation in English and German with writing rules. "
        "'scan' finds phrases worth a second look; the other commands show what an LLM agent gets.",
        epilog="Run 'writing-rules COMMAND --help' for a command's options.",
    )
    from .. import __version__

    # The release a team pinned (docs/releasing.md): `writing-rules --version` says which is installed.
    parser.add_argument("--version", action="version", version=f"writing-rules {__version__}")
    # prog given, as argparse would write it: deriving it formats text (and reads the terminal width).
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, prog="writing-rules")
    for name, entry in _COMMANDS.items():
        if command is None or name == command:
            entry.add_parser(commands)
    return parser


def _add_scan_parser(commands: Any) -> None:
    scan = commands.add_parser(
        "scan",
        help="scan files for writing signals",
        description="Scan documents for writing signals: phrases a reviewer should look at "
        "(a signal is a lead, not a verdict). Directories are searched recursively, hidden "
        "folders skipped.",
        epilog="Exit status: 0 no signals (or --no-fail), 1 signals found, 2 a usage error or a "
        "file that could not be read; 2 wins over 1, and --no-fail does not hide unreadable files.",
    )
    scan.add_argument("paths", nargs="+", metavar="PATH", help="a file, a directory, or - for standard input")
    scan.add_argument(
        "--glob",
        action="append",
        metavar="PATTERN",
        help=f"file-name pattern for directories (repeatable; default: {' '.join(DEFAULT_GLOBS)})",
    )
    scan.add_argument(
        "--language",
        choices=("en", "de", "auto"),
        help="language of the documents; auto (default) decides per file from its words",
    )
    scan.add_argument("--profile", help=f"scan with one profile's rules ({_PROFILES})")
    scan.add_argument("--rule", action="append", metavar="RULE_ID", help="scan with this rule (repeatable)")
    scan.add_argument("--max-signals", type=_positive, metavar="N", help="report at most N signals per file")
    scan.add_argument(
        "--markup",
        choices=("auto", *MARKUPS),
        help="how to read the files: auto (default) by extension (.md markdown, .mdx mdx, .rst rst, "
        ".html/.htm html, .txt text, anything else markdown)",
    )
    scan.add_argument("--include-code", action="store_true", help="also report signals inside code, marked as code")
    scan.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    scan.add_argument("--output", metavar="FILE", help="write the report to FILE instead of standard output")
    scan.add_argument("--no-fail", action="store_true", help="exit 0 even when signals were found")
    scan.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="no per-file lines on standard error: only problems and one summary line (for CI logs)",
    )
    scan.add_argument("--jobs", type=_jobs, default=1, metavar="N", help="scan with N processes (at most 256)")
    scan.add_argument(
        "--max-file-size",
        type=_byte_size,
        default=MAX_FILE_SIZE,
        metavar="SIZE",
        help="report files larger than SIZE instead of reading them (default: 50M; K, M, G accepted)",
    )
    add_lint_arguments(scan)
    scan.add_argument("--fix", action="store_true", help="apply the safe fixes to the files, then report what remains")
    scan.add_argument(
        "--dry-run", action="store_true", help="with --fix: print the fixes as a unified diff, write nothing"
    )


def _add_rules_parser(commands: Any) -> None:
    rules = commands.add_parser("rules", help="list the writing rules", description="List the writing rules.")
    rules.add_argument("--profile", help=f"only this profile's rules ({_PROFILES})")
    rules.add_argument("--language", choices=("en", "de"), default="en", help="language of the texts")
    rules.add_argument("--detail", choices=("summary", "full"), default="summary", help="how much to show")
    rules.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    add_pack_arguments(rules)


def _add_prompt_parser(commands: Any) -> None:
    prompt = commands.add_parser(
        "prompt",
        help="print the review prompt a model would get",
        description="Print the review prompt for a document of a profile, for a given audience and goal.",
    )
    prompt.add_argument("--profile", required=True, help=f"kind of document ({_PROFILES})")
    prompt.add_argument("--audience", required=True, help="who reads the document")
    prompt.add_argument("--goal", required=True, help="what the reader wants to achieve")
    prompt.add_argument("--language", choices=("en", "de"), default="en", help="language of the prompt")
    prompt.add_argument("--max-findings", type=_positive, metavar="N", help="findings to ask for (1-20)")
    prompt.add_argument("--rule", action="append", metavar="RULE_ID", help="review with this rule (repeatable)")
    prompt.add_argument("--format", choices=("text", "json"), default="text", help="json adds the response schema")
    add_pack_arguments(prompt)


def _add_tools_parser(commands: Any) -> None:
    tools = commands.add_parser(
        "tools",
        help="print the tool descriptors",
        description="Print the tool descriptors, as they are or shaped for a model provider.",
    )
    tools.add_argument(
        "--format",
        choices=("neutral", "openai", "anthropic", "mcp"),
        default="neutral",
        help="descriptor shape (default: neutral)",
    )
    tools.add_argument("--documents", action="store_true", help="add read_document and write_document")
    tools.add_argument("--strict", action="store_true", help="with --format openai: strict-mode schemas")


def _add_edit_parser(commands: Any) -> None:
    edit = commands.add_parser(
        "edit",
        help="apply block operations to a file",
        description="Apply a JSON list of block operations (replaceBlock, insertAfter, ...) to a "
        "file under the current folder, and print the diff.",
    )
    edit.add_argument("document", metavar="DOC", help="the file to change, inside the current folder")
    edit.add_argument("--ops", required=True, metavar="FILE", help="JSON file with the operations (- for stdin)")
    edit.add_argument("--dry-run", action="store_true", help="print the diff, change nothing")
    edit.add_argument(
        "--include",
        action="append",
        metavar="PATTERN",
        help="also edit files whose name matches PATTERN, such as '*.mdx' (repeatable; by default "
        "prose documents only: " + " ".join(DOCUMENTATION_FILES) + "; never a file that a build or docs "
        "generator reads as code, such as CMakeLists.txt, requirements*.txt or anything under _templates/)",
    )
    edit.add_argument(
        "--allow-hidden", action="store_true", help="also edit paths with a part starting with '.' (.github/...)"
    )
    edit.add_argument(
        "--store",
        metavar="LOCATION",
        help=f"change a document in this store instead, DOC being its id there; {STORE_LOCATIONS}",
    )


def _add_pack_parser(commands: Any) -> None:
    from ._pack import add_pack_parser  # loaded only when `pack` (or the whole help) is asked for

    add_pack_parser(commands)


def _run_pack(args: argparse.Namespace, stdin: Any, stdout: TextIO, stderr: TextIO) -> int:
    from ._pack import run_pack

    return run_pack(args, stdout, stderr)


class _Command(NamedTuple):
    """One sub-command: how its parser is added, and what runs it (args, stdin, stdout, stderr) -> status."""

    add_parser: Callable[[Any], None]
    run: Callable[[argparse.Namespace, Any, TextIO, TextIO], int]


# The one command table, in the order of the root help's list.
_COMMANDS: dict[str, _Command] = {
    "scan": _Command(_add_scan_parser, lambda args, stdin, stdout, stderr: _scan(args, stdin, stdout, stderr)),
    "rules": _Command(_add_rules_parser, lambda args, stdin, stdout, stderr: _rules(args, stdout)),
    "prompt": _Command(_add_prompt_parser, lambda args, stdin, stdout, stderr: _prompt(args, stdout)),
    "tools": _Command(_add_tools_parser, lambda args, stdin, stdout, stderr: _tools(args, stdout)),
    "edit": _Command(_add_edit_parser, lambda args, stdin, stdout, stderr: _edit(args, stdin, stdout, stderr)),
    "serve-mcp": _Command(add_serve_mcp_parser, lambda args, stdin, stdout, stderr: serve_mcp(args, stderr)),
    "lsp": _Command(add_lsp_parser, lambda args, stdin, stdout, stderr: run_lsp(stderr)),
    "pack": _Command(_add_pack_parser, _run_pack),
}


# -- scan ---------------------------------------------------------------------------------------


def _check_selection(args: argparse.Namespace, lint: LintRun | None = None) -> None:
    """Let the tool judge profile and rules once, before any file is read.

    A rule id that is no built-in rule's is judged with the packs in force in the
    working folder (and ``--pack``'s); each file's own packs are checked as it is read.
    """
    if args.profile is None and not args.rule:
        return  # nothing to judge (a call with neither is always valid): no dispatcher for a cached run
    language = "en" if args.language in (None, "auto") else args.language
    problem = tools.rule_selection_problem(args.profile, args.rule or (), language)
    if problem is not None and lint is not None and any(rule_id not in data.RULES for rule_id in args.rule or ()):
        catalog = lint.folder_catalog(".")
        if catalog is not None:
            problem = tools.rule_selection_problem(args.profile, args.rule or (), language, catalog=catalog)
    if problem is not None:
        raise UsageError(problem)


def _scan_all(args: argparse.Namespace, lint: LintRun, stdin: Any, stderr: TextIO) -> list[FileScan]:
    paths, failed = lint.collect(args.paths, args.glob, DEFAULT_GLOBS)
    paths = lint.changed_only(paths)  # --diff: only what changed is scanned
    results: list[FileScan] = list(failed)
    if STDIN in paths:
        paths.remove(STDIN)
        stdin_options = lint.options_for(STDIN)
        # One byte past the limit is enough to know the input is too large.
        data = stdin.buffer.read(args.max_file_size + 1) if hasattr(stdin, "buffer") else b""
        results.append(scan_source(STDIN, stdin_options, data))
    show_progress = stderr.isatty() and len(paths) >= _PROGRESS_THRESHOLD and not args.quiet
    jobs = [(path, lint.options_for(path)) for path in paths]
    # Only the HTML report and the annotations (a sentence around each match) need the text;
    # the other formats leave it out of the transfer.
    # So does --diff: the changed lines are taken from the text that was scanned (see LintRun.finish).
    keep_text = args.format in _FORMATS_WITH_TEXT or args.diff is not None
    worker = scan_one_keeping_text if keep_text else scan_one
    if args.jobs > 1 and jobs:
        # Large files are cut into pieces the whole pool scans; the rest go one file per task.
        large = [job for job in jobs if _size(job[0]) > PIECE_UNITS]
        small = [job for job in jobs if _size(job[0]) <= PIECE_UNITS]
        from concurrent.futures import ProcessPoolExecutor  # 15 ms of start-up a one-file hook run never needs

        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            outcomes = pool.map(worker, small, chunksize=max(1, len(small) // (args.jobs * 4)))
            for done, outcome in enumerate(outcomes, 1):
                results.append(outcome)
                _progress(stderr, show_progress, done, len(jobs))
            for done, (path, file_options) in enumerate(large, len(small) + 1):
                outcome = scan_source(path, file_options, map_pieces=pool.map)
                results.append(outcome if keep_text else outcome._replace(text=None))
                _progress(stderr, show_progress, done, len(jobs))
    else:
        for done, job in enumerate(jobs, 1):
            results.append(worker(job))
            _progress(stderr, show_progress, done, len(jobs))
    if show_progress:
        stderr.write("\n")
    # Sorted by path, so the output does not depend on --jobs or the file system's order.
    return sorted(results, key=lambda result: result.path)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0  # scan_source reports it


def _fix_all(args: argparse.Namespace, lint: LintRun, stdout: TextIO, stderr: TextIO) -> list[FileScan]:
    """``--fix``: fix each file in turn (see ``_fix.py``); the results hold the signals that remain."""
    if STDIN in args.paths:
        raise UsageError("--fix changes files; it cannot fix standard input")
    paths, failed = lint.collect(args.paths, args.glob, DEFAULT_GLOBS)
    results: list[FileScan] = list(failed)
    fixed = remaining = 0
    how = "would fix" if args.dry_run else "fixed"
    from ._fix import fix_file, scan_roots  # the document editor, only for --fix

    root = scan_roots(args.paths)
    for path in paths:
        scan = partial(scan_text_as, path, lint.options_for(path))
        outcome = fix_file(path, scan, dry_run=args.dry_run, root=root(path))
        stdout.write(outcome.diff if args.dry_run else "")
        if outcome.scan is None or outcome.error is not None:
            results.append(FileScan(path=path, error=outcome.error))
            continue
        count = len(outcome.scan.data["signals"]) if outcome.scan.data is not None else 0
        fixed += outcome.fixed
        remaining += count
        if not args.quiet:
            stderr.write(
                f"{path}: {how} {outcome.fixed}, {count} signal{'s' * (count != 1)} remain{'s' * (count == 1)}\n"
            )
        results.append(outcome.scan)
    stderr.write(
        f"writing-rules: {how} {fixed}; {remaining} signal{'s' * (remaining != 1)} remain{'s' * (remaining == 1)}\n"
    )
    return sorted(results, key=lambda result: result.path)


def _progress(stderr: TextIO, show: bool, done: int, total: int) -> None:
    if show:
        stderr.write(f"\rscanned {done}/{total} files")
        stderr.flush()


def _scan(args: argparse.Namespace, stdin: Any, stdout: TextIO, stderr: TextIO) -> int:
    if args.dry_run and not args.fix:
        raise UsageError("--dry-run applies to --fix only")
    lint = prepare_lint(args)
    _check_selection(args, lint)
    results = _fix_all(args, lint, stdout, stderr) if args.fix else _scan_all(args, lint, stdin, stderr)
    results, directive_errors, unused_found = lint.finish(results, stderr)
    rules = RuleBook(lint.catalogs())  # the packs' rules beside the built-in ones
    report: str | Iterable[str]
    if args.fix and args.dry_run:
        report = ""  # the diff is the output; nothing else on standard output
    elif args.format == "text":
        report = render_text(results, rules)
    elif args.format == "github":
        report = render_github(results, rules)
    elif args.format == "json":
        report = iter_json(results)  # file by file: a large report is never one string
    elif args.format == "html":
        report = render_html_report(results, None if args.language in (None, "auto") else args.language, rules)
    else:
        report = render_sarif(results, "en" if args.language in (None, "auto") else args.language, rules)
    if args.write_baseline is None or args.output is not None:
        # --write-baseline records the signals; printing them all too would bury its one line.
        _write_report(report, args.output, stdout)
    # --write-baseline is quiet as well: the baseline line and the summary say what happened.
    quiet = args.quiet or args.write_baseline is not None
    signals = scanned = 0
    warnings = set()
    for result in results:
        if result.cache_warning is not None:
            warnings.add(result.cache_warning)
        if result.reader_note is not None:
            stderr.write(f"writing-rules: {result.path}: {result.reader_note}\n")
        if result.error is not None:
            stderr.write(f"writing-rules: {result.path}: {result.error}; not scanned\n")
        elif result.data is not None:
            count = len(result.data["signals"])
            signals += count
            scanned += 1
            if quiet:
                continue
            how = "detected" if result.detected else "given"
            note = f"; {result.note}" if result.note else ""
            stderr.write(
                f"{result.path}: {count} signal{'s' * (count != 1)} (language {result.language}, {how}{note})\n"
            )
    if quiet or len(results) > 1:
        stderr.write(_summary(signals, scanned, sum(result.error is not None for result in results)))
    for warning in sorted(warnings):
        stderr.write(f"writing-rules: warning: {warning}\n")
    if directive_errors or any(result.error is not None for result in results):
        return EXIT_ERROR
    if args.write_baseline is not None:
        return EXIT_CLEAN
    return EXIT_SIGNALS if (signals or unused_found) and not args.no_fail else EXIT_CLEAN


class _Encodable:
    """A text stream's writer that replaces each lone surrogate by U+FFFD, so what it writes is UTF-8.

    A file or folder name that is not UTF-8 reaches Python with lone surrogates
    (``os.fsdecode``), and so may an argument such as ``--audience``; a stream that
    refuses them (Python's standard output under a UTF-8 locale, the ``--output``
    file) would fail on the report, and one that passes them on would write bytes
    that are not UTF-8 into JSON or SARIF. Every report goes through here.
    """

    __slots__ = ("_stream",)

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        # A JSON report is written token by token: most are ASCII, which needs no more look.
        return self._stream.write(text if text.isascii() else clean_text(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def encodable(stream: TextIO) -> TextIO:
    """``stream``, writing each lone surrogate as U+FFFD (see ``_Encodable``)."""
    return stream if isinstance(stream, _Encodable) else cast(TextIO, _Encodable(stream))


def _summary(signals: int, scanned: int, failed: int) -> str:
    """The run's one closing line on standard error: ``writing-rules: 3 signals in 2 files``."""
    problems = f"; {failed} file{'s' * (failed != 1)} not scanned" if failed else ""
    return f"writing-rules: {signals} signal{'s' * (signals != 1)} in {scanned} file{'s' * (scanned != 1)}{problems}\n"


def _write_report(report: str | Iterable[str], output: str | None, stdout: TextIO) -> None:
    parts = (report,) if isinstance(report, str) else report
    if output is None:
        for part in parts:
            stdout.write(part)
        return
    try:
        with open(output, "w", encoding="utf-8", newline="\n") as handle:
            writer = encodable(handle)
            for part in parts:
                writer.write(part)
    except OSError as error:
        raise UsageError(f"cannot write --output {output}: {error.strerror}") from None


# -- rules, prompt, tools ---------------------------------------------------------------------------


def _call(dispatcher: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    envelope = dispatcher.dispatch({"name": name, "arguments": arguments})
    if not envelope["ok"]:
        raise UsageError(envelope["error"]["message"])
    data: dict[str, Any] = envelope["data"]
    return data


def _write_json(value: object, stdout: TextIO) -> None:
    import json  # here, not with the module: a scan (text report, --no-cache) never needs it

    stdout.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def _levels(rule_id: str, language: str, catalog: Any = None) -> tuple[str, dict[str, str]]:
    """A rule's level and the levels of its signals (in ``language``) that differ from it."""
    from .._catalog import rule_source
    from ..lint import rule_level, signal_level

    level = rule_level(rule_id, catalog=catalog)
    signal_ids = rule_source(catalog).RULES[rule_id].signal_levels or {}
    # Signal ids name their language (hype-word-en); the others' levels would not apply here.
    own = [signal_id for signal_id in signal_ids if signal_id.endswith(f"-{language}")] or list(signal_ids)
    differing = {signal_id: signal_level(rule_id, signal_id, catalog=catalog) for signal_id in own}
    return level, {signal_id: other for signal_id, other in differing.items() if other != level}


def _rules(args: argparse.Namespace, stdout: TextIO) -> int:
    from ..lint import DEFAULT_MIN_LEVEL, FileSettings

    arguments: dict[str, Any] = {"language": args.language, "detail": args.detail}
    if args.profile:
        arguments["profile"] = args.profile
    # The rules of the packs in force here (the working folder's configuration, --pack) are listed too.
    packs = working_folder_packs(args)
    settings = FileSettings(packs=packs) if packs else None
    dispatcher = tools.create_writing_tool_dispatcher(config=settings)
    result = _call(dispatcher, "get_writing_rules", arguments)
    catalog = settings.catalog if settings is not None else None
    # The level decides what `scan` reports by default (--min-level): the listing says it, beside the tool's data.
    for rule in result["rules"]:
        rule["level"], rule["signalLevels"] = _levels(rule["id"], args.language, catalog)
    if args.format == "json":
        _write_json({**result, "defaultMinLevel": DEFAULT_MIN_LEVEL}, stdout)
        return EXIT_CLEAN
    for rule in result["rules"]:
        scanner = "scanner signals" if rule["hasSignals"] else "review only"
        stdout.write(
            f"{rule['id']}: {rule['title']} ({rule['level']}; {scanner}; profiles: {', '.join(rule['profiles'])})\n"
        )
        stdout.write(f"    {rule['summary']}\n")
        if rule["signalLevels"]:
            levels = ", ".join(f"{signal_id} {level}" for signal_id, level in rule["signalLevels"].items())
            stdout.write(f"    Signals at another level: {levels}\n")
        if args.detail == "full":
            entry = rule["entries"][args.language]
            stdout.write(f"    Instruction: {entry['instruction']}\n    Applies when: {entry['appliesWhen']}\n")
            for example in entry["examples"]:
                stdout.write(f"    Before: {example['before']}\n    After:  {example['after']}\n")
    stdout.write(
        f"scan reports signals at level {DEFAULT_MIN_LEVEL} and above unless the configuration or --min-level "
        "says otherwise\n"
    )
    return EXIT_CLEAN


def _prompt(args: argparse.Namespace, stdout: TextIO) -> int:
    from ..lint import FileSettings

    packs = working_folder_packs(args)  # their rules join the profiles they name, and --rule may name them
    config = FileSettings(packs=packs) if packs else None
    try:
        dispatcher = tools.create_writing_tool_dispatcher(
            review_context={"audience": args.audience, "goal": args.goal}, config=config
        )
    except (TypeError, ValueError) as error:
        raise UsageError(f"--audience and --goal: {error}") from None
    arguments: dict[str, Any] = {"profile": args.profile, "language": args.language}
    if args.max_findings is not None:
        arguments["maxFindings"] = args.max_findings
    if args.rule:
        arguments["ruleIds"] = args.rule
    result = _call(dispatcher, "compose_writing_review_prompt", arguments)
    if args.format == "json":
        _write_json(result, stdout)
    else:
        stdout.write(result["prompt"].rstrip("\n") + "\n")
    return EXIT_CLEAN


def _tools(args: argparse.Namespace, stdout: TextIO) -> int:
    descriptors = tools.writing_review_tools()
    if args.documents:
        from ..documents import DirectoryDocumentStore, create_document_tool_dispatcher

        descriptors += create_document_tool_dispatcher(DirectoryDocumentStore(os.getcwd())).tools()
    if args.format != "neutral":
        try:
            from .. import adapters
        except ImportError:
            raise UsageError(f"--format {args.format} needs writing_rules.adapters, not in this version") from None
        if args.format == "openai":
            descriptors = adapters.openai_tools(descriptors, strict=args.strict)
        elif args.format == "anthropic":
            descriptors = adapters.anthropic_tools(descriptors)
        else:
            descriptors = adapters.mcp_tools(descriptors)
    elif args.strict:
        raise UsageError("--strict applies to --format openai only")
    _write_json(descriptors, stdout)
    return EXIT_CLEAN


# -- edit ---------------------------------------------------------------------------------------------


def _edit(args: argparse.Namespace, stdin: Any, stdout: TextIO, stderr: TextIO) -> int:
    import json

    try:
        # A FIFO or a device given as the file is refused, never read (the read could wait forever).
        source = stdin.read() if args.ops == STDIN else read_regular_file(args.ops).decode("utf-8")
        operations = json.loads(source)
    except OSError as error:
        raise UsageError(f"cannot read --ops {args.ops}: {error.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise UsageError(f"--ops {args.ops} is not a JSON list of operations: {error}") from None
    except RecursionError:
        raise UsageError(f"--ops {args.ops} is nested too deeply to be a list of operations") from None
    except ValueError:  # an integer of more than 4,300 digits: Python refuses to convert it
        raise UsageError(f"--ops {args.ops} holds a number with more than 4,300 digits") from None
    from ..documents import DirectoryDocumentStore, DocumentStore, create_document_tool_dispatcher

    include = (*DOCUMENTATION_FILES, *(args.include or ()))
    if args.store is None:
        root = os.getcwd()
        document = os.path.relpath(os.path.abspath(args.document), root).replace(os.sep, "/")
    else:
        root, document = args.store, args.document
    try:
        store: DocumentStore | None = None if args.store is None else database_store(args.store)
    except (ImportError, RuntimeError, ValueError) as error:
        raise UsageError(f"--store: {error}") from None
    if store is None:
        try:
            store = DirectoryDocumentStore(root, include=include, allow_hidden=args.allow_hidden)
        except (TypeError, ValueError) as error:
            raise UsageError(f"{'--include' if args.store is None else '--store'}: {error}") from None
    dispatcher = create_document_tool_dispatcher(store)
    try:
        envelope = dispatcher.dispatch(
            {
                "name": "write_document",
                "arguments": {"id": document, "operations": operations, "dryRun": args.dry_run},
            }
        )
    finally:
        close = getattr(store, "close", None)  # a database store's connections
        if close is not None:
            close()
    if not envelope["ok"]:
        failure = envelope["error"]
        stderr.write(f"writing-rules: {args.document}: {failure['message']}\n")
        for candidate in failure.get("candidates") or ():
            stderr.write(f"    closest, line {candidate['line']}: {candidate['text']}\n")
        return EXIT_ERROR
    result = envelope["data"]
    for warning in result["warnings"]:
        stderr.write(f"writing-rules: operation {warning['index']}: {warning['message']}\n")
    stdout.write(result["diff"])
    if not args.dry_run:
        stderr.write(f"{args.document}: written\n")
    return EXIT_CLEAN


def run(argv: Sequence[str] | None, stdin: Any, stdout: TextIO, stderr: TextIO) -> int:
    """Parse ``argv`` and run the command; returns the exit status."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    stdout = encodable(stdout)  # every command's output (reports, diffs, JSON) is UTF-8
    named = arguments[0] if arguments and arguments[0] in _COMMANDS else None
    parser = build_parser(named)
    try:
        args = parser.parse_args(arguments)
    except SystemExit as exit_:  # argparse exits for --help (0) and usage errors (2)
        return exit_.code if isinstance(exit_.code, int) else EXIT_ERROR
    # Messages name files, and a file's name may hold line breaks or bidirectional controls.
    stderr = cast(TextIO, EscapingStream(stderr))
    try:
        return _COMMANDS[args.command].run(args, stdin, stdout, stderr)
    except (UsageError, ConfigError) as error:
        stderr.write(f"writing-rules {args.command}: error: {error}\n")
        return EXIT_ERROR
    except ValueError as error:
        # A pack module edited by hand after it loaded: a section line is read, or a pattern
        # compiled, only when a scan first needs it (here or in a --jobs worker). PackError lives in
        # the root _errors module, so the check imports no pack loader.
        if not isinstance(error, PackError):
            raise
        stderr.write(f"writing-rules {args.command}: error: {error}\n")
        return EXIT_ERROR
    except RecursionError:
        # A last net for input nested deeper than any check above foresaw: one line and exit 2,
        # never a traceback and exit 1 (which reads "signals found").
        stderr.write(f"writing-rules {args.command}: error: the input is nested too deeply to be read\n")
        return EXIT_ERROR
