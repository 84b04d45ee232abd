"""The rule author's loop, timed: what each `python -m generator` command costs (run from the project root).

    python benchmarks/bench_compiler.py [--no-cold]

Works on a temporary copy of the tree (``rules-src/``, ``templates/``,
``generator/``, ``src/``), so the checkout is never touched, and runs each
command as a rule author does, in a fresh process from the copy's root:

- ``--check``: digest only, no compile (median of five runs);
- no change: ``python -m generator`` right after a run (median of three);
- one pattern edit: ``mighty`` added to ``hype-word-en``; the timed run
  measures that pattern only;
- one signal added at the top of ``word-choice``, then removed again;
- cold: the same with an empty verdict cache (every pattern timed), as after a
  bump of ``CHECKER_VERSION`` or with ``--retime`` (``--no-cold`` skips it: a
  minute or more);

each with the lines of ``_rules_data.py`` it changed (``+`` added, ``-``
removed). Wall times depend on the machine and its load (printed at the end);
the cold run scales with the CPU time the timed run needs, shared over two
children on two cores. Then the size of the generated module and the import
time of the runtime package against a bare interpreter start.
"""

from __future__ import annotations

import argparse
import difflib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULE = Path("src") / "writing_rules" / "_rules_data.py"
VERDICTS = Path("rules-src") / "verdicts.txt"
RULE = Path("rules-src") / "rules" / "word-choice.md"
ADDED_SIGNAL = """\
  - id: buzz-en
    language: en
    pattern: '(?i)\\b(?:synergy|paradigm shift)\\b'
    must_match:
      - A [[paradigm shift]] for teams.
    must_not_match:
      - A shift in the paradigm.
"""


def run(tree: Path, *arguments: str) -> float:
    """Wall seconds of one ``python -m generator`` in ``tree`` (it must succeed)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "generator", *arguments], cwd=tree, capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"python -m generator {' '.join(arguments)} failed:\n{done.stdout}{done.stderr}")
    return elapsed


def changed(before: str, after: str) -> tuple[int, int]:
    """(lines added, lines removed) from ``before`` to ``after``."""
    diff = [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)]
    added = sum(1 for line in diff if line.startswith("+") and not line.startswith("+++"))
    removed = sum(1 for line in diff if line.startswith("-") and not line.startswith("---"))
    return added, removed


def start_time(code: str, runs: int = 25) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-cold", action="store_true", help="skip the cold run (empty verdict cache)")
    options = parser.parse_args()
    rows: list[tuple[str, float, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "tree"
        tree.mkdir()
        for part in ("rules-src", "templates", "generator", "src"):
            shutil.copytree(ROOT / part, tree / part, ignore=shutil.ignore_patterns("__pycache__"))
        module = tree / MODULE
        shipped = module.read_text(encoding="utf-8")
        run(tree, "--check")  # warm the file cache and the byte code
        check = statistics.median(run(tree, "--check") for _ in range(5))
        rows.append(("python -m generator --check", check, ""))
        same = statistics.median(run(tree) for _ in range(3))
        rows.append(("no change", same, _lines(shipped, module)))

        rule = tree / RULE
        source = rule.read_text(encoding="utf-8")
        rule.write_text(source.replace("(?:powerful(?:ly)?|", "(?:powerful(?:ly)?|mighty|", 1), encoding="utf-8")
        edit = run(tree)
        rows.append(("one pattern edit (hype-word-en)", edit, _lines(shipped, module)))
        rule.write_text(source, encoding="utf-8")
        run(tree)

        rule.write_text(source.replace("signals:\n", "signals:\n" + ADDED_SIGNAL, 1), encoding="utf-8")
        add = run(tree)
        rows.append(("one signal added (top of word-choice)", add, _lines(shipped, module)))
        added_module = module.read_text(encoding="utf-8")
        rule.write_text(source, encoding="utf-8")
        remove = run(tree)
        rows.append(("the same signal removed", remove, _lines(added_module, module)))
        if module.read_text(encoding="utf-8") != shipped:
            raise SystemExit("removing the signal again did not give back the shipped module")

        if not options.no_cold:
            (tree / VERDICTS).unlink()
            cold = run(tree)
            rows.append(("cold: empty verdict cache, every pattern timed", cold, _lines(shipped, module)))
            if (tree / VERDICTS).read_text(encoding="utf-8") != (ROOT / VERDICTS).read_text(encoding="utf-8"):
                print("note: the cold run wrote another verdict cache than the committed one", file=sys.stderr)

    print(f"{'python -m generator, on a copy of the tree':48} {'wall':>8}  module lines changed (+ added, - removed)")
    for label, seconds, lines in rows:
        print(f"{label:48} {seconds:7.2f}s  {lines}")
    size = (ROOT / MODULE).stat().st_size
    bare = start_time("import sys")
    tools = start_time("import writing_rules.tools")
    data = start_time("import writing_rules._rules_data")
    print()
    print(f"generated module size                  : {size / 1024:8.1f} KiB ({size:,} bytes)")
    print(f"bare interpreter start (import sys)    : {bare * 1000:8.1f} ms")
    print(
        f"import writing_rules.tools             : {tools * 1000:8.1f} ms  ratio {tools / bare:5.2f}x (target <= 1.5x)"
    )
    print(f"import writing_rules._rules_data       : {data * 1000:8.1f} ms  ratio {data / bare:5.2f}x")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def _lines(before: str, module: Path) -> str:
    added, removed = changed(before, module.read_text(encoding="utf-8"))
    return f"+{added} -{removed}"


if __name__ == "__main__":
    main()
