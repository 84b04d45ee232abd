"""Whole-process figures: ``writing-rules scan`` against a bare start and against proselint.

    python benchmarks/bench_startup.py [--runs N]

What people feel in pre-commit, an editor or CI on one changed page is the
whole process: start, imports, scan, output. Measured in this run, on the same
files, as the median of N runs each (runs interleaved, so a change of load
hits every command alike):

- ``python -c pass``: the bare interpreter start (the floor);
- ``writing-rules scan --no-fail`` of one page (examples/getting-started.md)
  and of 250,000 characters of English documentation, each twice: with
  ``--no-cache`` (what a changed file costs: the text is read and scanned) and
  as a re-run answered from the result cache (what unchanged files cost; the
  warm-up run fills the cache). proselint keeps no cache, so it is compared
  with the scans that scan;
- ``proselint check`` of the same two files (proselint is in the test venv).

Each figure is given as wall time and as CPU time (user + system) of the
child: on a shared machine the CPU time is the steadier of the two. Targets
(issue 12): one page at most 10x the bare start (goal 6x); 250,000 characters
at least 3x faster than proselint (goal 5x).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _texts import labelled_text  # benchmarks/ is this script's folder

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "examples" / "getting-started.md"
LENGTH = 250_000
# The console script `writing-rules` runs exactly this (pyproject.toml's [project.scripts]).
SCAN = [
    sys.executable,
    "-c",
    "import sys; from writing_rules.cli._console import main; sys.exit(main())",
    "scan",
    "--no-fail",
]


def english_text() -> str:
    """250,000 characters built from the labelled evaluation sentences (as bench_scanner.py)."""
    return labelled_text("en", LENGTH)


def run_once(command: list[str]) -> tuple[float, float]:
    """(wall seconds, child CPU seconds) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    options = parser.parse_args()
    proselint = shutil.which("proselint") or str(Path(sys.executable).with_name("proselint"))
    environment_src = str(ROOT / "src")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [environment_src, os.environ.get("PYTHONPATH")]))
    # As installed: byte code cached (the warm-up runs write it), or every run would compile the sources.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as folder:
        big = Path(folder) / "large.md"
        big.write_text(english_text(), encoding="utf-8")
        commands = {
            "bare": [sys.executable, "-c", "pass"],
            "scan page": [*SCAN, "--no-cache", str(PAGE)],
            "scan page, cached": [*SCAN, str(PAGE)],
            "proselint page": [proselint, "check", str(PAGE)],
            "scan 250k": [*SCAN, "--no-cache", str(big)],
            "scan 250k, cached": [*SCAN, str(big)],
            "proselint 250k": [proselint, "check", str(big)],
        }
        for command in commands.values():  # warm the file cache and the .pyc files
            run_once(command)
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(options.runs):
            for name, command in commands.items():
                samples[name].append(run_once(command))
    wall = {name: statistics.median(s[0] for s in runs) for name, runs in samples.items()}
    cpu = {name: statistics.median(s[1] for s in runs) for name, runs in samples.items()}
    print(f"load average at the end: {os.getloadavg()[0]:.1f}; median of {options.runs} runs")
    print(f"{'command':28} {'wall':>9} {'cpu':>9}")
    for name in commands:
        print(f"{name:28} {wall[name] * 1000:7.1f}ms {cpu[name] * 1000:7.1f}ms")
    print()
    print(f"{'ratio':52} {'wall':>7} {'cpu':>7}  target")
    for label, value, target in (
        ("scan of one page / bare start", lambda d: d["scan page"] / d["bare"], "<= 10x (goal 6x)"),
        ("scan of one page, cached / bare start", lambda d: d["scan page, cached"] / d["bare"], "<= 10x (goal 6x)"),
        ("proselint on one page / scan of one page", lambda d: d["proselint page"] / d["scan page"], ""),
        (
            "proselint on 250k / scan of 250k (times faster)",
            lambda d: d["proselint 250k"] / d["scan 250k"],
            ">= 3x (goal 5x)",
        ),
        ("scan of 250k / bare start", lambda d: d["scan 250k"] / d["bare"], ""),
        ("scan of 250k, cached / bare start", lambda d: d["scan 250k, cached"] / d["bare"], ""),
    ):
        print(f"{label:52} {value(wall):6.2f}x {value(cpu):6.2f}x  {target}")


if __name__ == "__main__":
    main()
