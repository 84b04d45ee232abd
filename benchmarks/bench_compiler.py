"""Compiler and import figures for issue 2 (run from the project root).

    python benchmarks/bench_compiler.py

Prints: the generator's wall time on the shipped catalogue (with and without
the timed backtracking run), the size of the generated module, and the import
time of the runtime package as a ratio to a bare interpreter start, both
measured in this run (median of repeated subprocess starts).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _timing import best  # noqa: E402  (benchmarks/ is this script's folder)

from generator import GENERATED_MODULE, compile_sources  # noqa: E402


def start_time(code: str, runs: int = 25) -> float:
    command = [sys.executable, "-c", code]
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    full = best(lambda: compile_sources(ROOT, timed=True), repeat=1)
    fast = best(lambda: compile_sources(ROOT, timed=False), 3)
    size = (ROOT / GENERATED_MODULE).stat().st_size
    bare = start_time("import sys")
    tools = start_time("import writing_rules.tools")
    data = start_time("import writing_rules._rules_data")
    print(f"generator, full check incl. timed run : {full:8.2f} s")
    print(f"generator, without the timed run       : {fast:8.3f} s")
    print(f"generated module size                  : {size / 1024:8.1f} KiB")
    print(f"bare interpreter start (import sys)    : {bare * 1000:8.1f} ms")
    print(
        f"import writing_rules.tools             : {tools * 1000:8.1f} ms  ratio {tools / bare:5.2f}x (target <= 1.5x)"
    )
    print(f"import writing_rules._rules_data       : {data * 1000:8.1f} ms  ratio {data / bare:5.2f}x")


if __name__ == "__main__":
    main()
