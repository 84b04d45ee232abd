"""The rule-pack commands: ``writing-rules pack {new,build,test,import-vale}`` (docs/packs.md).

``run`` does what each command does; the command line's ``pack`` command
(``writing_rules/cli/_pack.py``) parses the arguments and calls it, and so does
``python -m generator.pack`` in a checkout (``main``; same arguments, same
output). The library functions are in ``_packs.py`` and ``_vale.py``. Exit
codes: 0 done, 2 problems (every one printed as ``path:line:col: message``;
nothing written) or a folder that cannot be used.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TextIO

from ._errors import SourceProblems

__all__ = ["add_commands", "main", "run"]


def _problems(problems: SourceProblems, what: str, stderr: TextIO) -> int:
    for problem in problems.problems:
        stderr.write(f"{problem}\n")
    count = len(problems.problems)
    stderr.write(f"{count} problem{'s' if count != 1 else ''}; {what}\n")
    return 2


def add_commands(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The four commands and their arguments, on ``commands`` (``parser.add_subparsers()``)."""
    new = commands.add_parser("new", help="write a pack scaffold (one rule, one term) that builds green")
    new.add_argument("folder", type=Path, metavar="DIR")
    new.add_argument("--id", default=None, help="the pack id (default: the folder's name)")
    build = commands.add_parser("build", help="check the pack and write its compiled module into DIR")
    build.add_argument("folder", type=Path, metavar="DIR")
    build.add_argument("--no-timing", action="store_true", help="skip the timed backtracking run")
    build.add_argument("--retime", action="store_true", help="ignore DIR/verdicts.txt: check every pattern again")
    test = commands.add_parser("test", help="check every example and fix (no timed run, writes nothing)")
    test.add_argument("folder", type=Path, metavar="DIR")
    vale = commands.add_parser("import-vale", help="convert a Vale style into a pack folder")
    vale.add_argument("style_dir", type=Path, metavar="STYLE_DIR")
    vale.add_argument("out_dir", type=Path, metavar="OUT_DIR")
    vale.add_argument("--language", choices=("en", "de"), default="en")


def run(
    command: str, options: argparse.Namespace, stdout: TextIO, stderr: TextIO, prog: str = "writing-rules pack"
) -> int:
    """Run ``command`` (new, build, test, import-vale) with the parsed ``options``; returns the exit code.

    ``prog`` is how the user calls the commands, for the next step ``pack new`` names.
    """
    if command == "import-vale":
        from .vale import run_import

        return run_import(options.style_dir, options.out_dir, options.language, stdout, stderr)

    from ._packs import build_pack, new_pack, test_pack

    started = time.perf_counter()
    folder = options.folder.as_posix()
    if command == "new":
        try:
            written = new_pack(options.folder, options.id)
        except (OSError, ValueError) as exc:
            stderr.write(f"pack new: {exc}\n")
            return 2
        stdout.write(f"wrote {len(written)} files into {folder}; next: {prog} build {folder}\n")
        return 0
    if command == "test":
        try:
            count = test_pack(options.folder)
        except SourceProblems as problems:
            return _problems(problems, "the pack's examples do not hold", stderr)
        stdout.write(f"{folder}: {count} rule(s), every example holds ({time.perf_counter() - started:.2f} s)\n")
        return 0
    try:
        result = build_pack(options.folder, timed=not options.no_timing, retime=options.retime)
    except SourceProblems as problems:
        return _problems(problems, "pack module left unchanged", stderr)
    except OSError as exc:  # the module or the cache cannot be written (a folder in its place, no permission)
        where = Path(exc.filename).as_posix() if exc.filename else folder
        stderr.write(f"pack build: cannot write {where}: {exc.strerror or exc}\n")
        return 2
    elapsed = time.perf_counter() - started
    if not result.compiled:
        how = "sources unchanged"
    else:
        how = f"{result.timed_count} pattern(s) timed, {result.checked_terms} of {result.terms} term(s) checked"
        if options.no_timing:
            how = f"without the timed run, {result.checked_terms} of {result.terms} term(s) checked"
    stdout.write(f"{'wrote' if result.changed else 'unchanged:'} {result.module.as_posix()} ({how}; {elapsed:.2f} s)\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m generator.pack …`` in a checkout: the commands of ``writing-rules pack``."""
    parser = argparse.ArgumentParser(prog="python -m generator.pack", description="Create, build and test rule packs.")
    add_commands(parser.add_subparsers(dest="command", required=True))
    options = parser.parse_args(argv)
    return run(options.command, options, sys.stdout, sys.stderr, prog="python -m generator.pack")


if __name__ == "__main__":
    sys.exit(main())
