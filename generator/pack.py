"""``python -m generator.pack {new,build,test,import-vale} DIR``: the rule-pack commands.

The library functions are in ``_packs.py``; ``writing-rules pack …`` will call
them. Exit codes: 0 done, 2 problems (every one printed as
``path:line:col: message``; nothing written) or a folder that cannot be used.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ._errors import SourceProblems


def _problems(problems: SourceProblems, what: str) -> int:
    for problem in problems.problems:
        print(problem, file=sys.stderr)
    count = len(problems.problems)
    print(f"{count} problem{'s' if count != 1 else ''}; {what}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator.pack", description="Create, build and test rule packs.")
    commands = parser.add_subparsers(dest="command", required=True)
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
    options = parser.parse_args(argv)
    if options.command == "import-vale":
        from .vale import main as vale_main

        return vale_main([str(options.style_dir), str(options.out_dir), "--language", options.language])

    from ._packs import build_pack, new_pack, test_pack

    started = time.perf_counter()
    if options.command == "new":
        try:
            written = new_pack(options.folder, options.id)
        except (OSError, ValueError) as exc:
            print(f"pack new: {exc}", file=sys.stderr)
            return 2
        print(
            f"wrote {len(written)} files into {options.folder.as_posix()}; next: pack build {options.folder.as_posix()}"
        )
        return 0
    if options.command == "test":
        try:
            count = test_pack(options.folder)
        except SourceProblems as problems:
            return _problems(problems, "the pack's examples do not hold")
        print(
            f"{options.folder.as_posix()}: {count} rule(s), every example holds ({time.perf_counter() - started:.2f} s)"
        )
        return 0
    try:
        result = build_pack(options.folder, timed=not options.no_timing, retime=options.retime)
    except SourceProblems as problems:
        return _problems(problems, "pack module left unchanged")
    elapsed = time.perf_counter() - started
    if not result.compiled:
        how = "sources unchanged"
    else:
        how = f"{result.timed_count} pattern(s) timed, {result.checked_terms} of {result.terms} term(s) checked"
        if options.no_timing:
            how = f"without the timed run, {result.checked_terms} of {result.terms} term(s) checked"
    print(f"{'wrote' if result.changed else 'unchanged:'} {result.module.as_posix()} ({how}; {elapsed:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
