"""``python -m generator [--check] [--no-timing] [--retime] [--root DIR] [--output FILE]``.

Exit codes: 0 done (or fresh), 1 the generated module is stale (``--check``),
2 the sources are invalid (every problem printed as ``path:line:col: message``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ._compile import GENERATED_MODULE, check, generate
from ._errors import SourceProblems
from ._verdicts import VERDICTS_FILE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m generator",
        description="Compile rules-src/ into src/writing_rules/_rules_data.py.",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 if the generated module is stale (compares digests, compiles nothing)",
    )
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: current folder)")
    parser.add_argument("--output", type=Path, default=None, help=f"output file (default: {GENERATED_MODULE})")
    parser.add_argument(
        "--no-timing",
        action="store_true",
        help="skip the timed backtracking run (faster; the static check still runs)",
    )
    parser.add_argument(
        "--retime",
        action="store_true",
        help=f"ignore the verdict cache ({VERDICTS_FILE.as_posix()}): check and time every pattern again",
    )
    options = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        if options.check:
            if check(options.root, options.output):
                print("generated module is up to date")
                return 0
            print(f"{options.output or GENERATED_MODULE} is stale: run `python -m generator`", file=sys.stderr)
            return 1
        result = generate(options.root, options.output, timed=not options.no_timing, retime=options.retime)
    except SourceProblems as problems:
        for problem in problems.problems:
            print(problem, file=sys.stderr)
        count = len(problems.problems)
        print(f"{count} problem{'s' if count != 1 else ''}; generated module left unchanged", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - started
    if not result.compiled:
        how = "sources, templates and verdicts unchanged"
    elif options.no_timing:
        how = "without the timed run"
    else:
        how = f"{result.timed_count} pattern{'s' if result.timed_count != 1 else ''} timed, the rest cached"
        if result.verdicts_changed:
            how += f"; updated {VERDICTS_FILE.as_posix()}"
    module = options.output or GENERATED_MODULE
    print(f"{'wrote' if result.changed else 'unchanged:'} {module} ({how}; {elapsed:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
