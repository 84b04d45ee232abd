"""Timed run of every pattern over adversarial 250,000-character inputs.

``re`` holds the interpreter while it matches, so a runaway pattern cannot be
interrupted from a thread. The patterns therefore run in a child process that
reports after each pattern; a pattern that misses its deadline gets the child
killed, is reported, and a new child takes the remaining patterns.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

__all__ = ["INPUT_LENGTH", "TIME_LIMIT", "TimedPattern", "timing_problems"]

INPUT_LENGTH = 250_000
# Seconds one pattern may take on one input. A linear pattern needs a few
# milliseconds; a quadratic one needs minutes, so the bound has a wide margin.
TIME_LIMIT = 1.0

# The child builds the inputs itself so that only small messages cross the pipe.
_CHILD = r"""
import json, re, sys, time
N = int(sys.argv[1])
def inputs(examples):
    base = ["a" * N, " " * N, "a " * (N // 2), "\u00e4" * N, "1" * N, "." * N, "\n" * N,
            "aA-_" * (N // 4), "ab. " * (N // 4), "\u201e" * N, "W\u00f6rt\u00e9r " * (N // 7)]
    for example in examples:
        unit = example + " "
        base.append((unit * (N // len(unit) + 1))[:N])
        squeezed = "".join(example.split()) or example
        base.append((squeezed * (N // len(squeezed) + 1))[:N])
    return base
for line in sys.stdin:
    job = json.loads(line)
    regex = re.compile(job["pattern"])
    texts = inputs(job["examples"])
    print(len(texts), flush=True)
    for text in texts:
        start = time.perf_counter()
        for _ in regex.finditer(text):
            pass
        print(time.perf_counter() - start, flush=True)
"""


@dataclass(frozen=True)
class TimedPattern:
    index: int
    pattern: str
    examples: tuple[str, ...]


def timing_problems(
    patterns: Sequence[TimedPattern], time_limit: float = TIME_LIMIT, length: int = INPUT_LENGTH
) -> dict[int, str]:
    """Map the index of every pattern that is too slow to a message.

    The patterns are shared out over one child process per core (at most four);
    each measures its own share, so the time bound holds per pattern.
    """
    shares = max(1, min(4, os.cpu_count() or 1, len(patterns)))
    problems: dict[int, str] = {}
    with ThreadPoolExecutor(max_workers=shares) as pool:
        for found in pool.map(
            lambda share: _run_share(list(patterns[share::shares]), time_limit, length), range(shares)
        ):
            problems.update(found)
    return problems


def _run_share(pending: list[TimedPattern], time_limit: float, length: int) -> dict[int, str]:
    problems: dict[int, str] = {}
    while pending:
        done = _run_child(pending, time_limit, length, problems)
        pending = pending[done:]
    return problems


def _run_child(patterns: Sequence[TimedPattern], time_limit: float, length: int, problems: dict[int, str]) -> int:
    """Run patterns until one hangs; return how many were settled."""
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(length)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    lines: queue.Queue[str] = queue.Queue()
    assert child.stdout is not None and child.stdin is not None

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    settled = 0
    try:
        for job in patterns:
            message = {"index": job.index, "pattern": job.pattern, "examples": list(job.examples)}
            child.stdin.write(json.dumps(message) + "\n")
            child.stdin.flush()
            try:
                count = int(lines.get(timeout=30.0))  # building the inputs
                for _ in range(count):
                    # A margin over the limit absorbs scheduling noise; a runaway pattern needs minutes.
                    seconds = float(lines.get(timeout=time_limit + 1.0))
                    if seconds > time_limit:
                        raise queue.Empty
            except queue.Empty:
                problems[job.index] = (
                    f"pattern took longer than {time_limit:g} s on an adversarial {length:,}-character "
                    "input; it backtracks catastrophically"
                )
                return settled + 1
            settled += 1
        return settled
    finally:
        child.kill()
        child.wait()
