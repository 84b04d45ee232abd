"""Timed run: does a pattern's cost grow faster than its input?

Every pattern runs over adversarial inputs (runs of one character, its own
examples repeated) as long as the longest text a tool accepts, and where it is
costly there, over the same inputs a quarter as long.
The verdict must not depend on how busy the machine is, so nothing here reads
a wall clock:

- the child process measures its own CPU time (``time.thread_time``: the
  child has one thread), which other processes on the machine do not add to;
- at each length it also times a linear reference pass over the same input
  (``re.finditer`` of one literal) and expresses the pattern's cost in
  reference passes. A busy core slows both alike; the ratio stays;
- a pattern fails when that ratio grows by more than ``GROWTH_LIMIT`` while
  the input grows ``STEP``-fold (a linear pattern keeps it flat, a quadratic
  one multiplies it by ``STEP``). Only a pattern that costs more than
  ``FLOOR`` reference passes on the longest input is measured at both lengths
  (below, growth cannot hurt, and microsecond timings are noise), and a
  suspect counts only when two more measurements, the fastest of three runs
  each, find it too. The reference is fast (a few microseconds on the shorter
  input), so each of its timed runs is sixteen passes: one busy moment then
  moves it little;
- a pattern that runs away (exponential backtracking) is stopped by a CPU-time
  timer the kernel keeps (``ITIMER_PROF``), again independent of load.

``re`` holds the interpreter while it matches, but it checks for signals every
few thousand steps: the child turns the timer's SIGPROF into an exception,
reports the pattern and goes on. Where there is no such timer (Windows), the
parent falls back to a generous wall-clock limit and restarts the child.

(``thread_time``, not ``process_time``: on some kernels an armed process CPU
timer makes the process clock tick-granular, while the thread clock stays
exact.)
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

__all__ = [
    "CHILD_PROGRAM",
    "CPU_LIMIT",
    "FLOOR",
    "GROWTH_LIMIT",
    "INPUT_LENGTH",
    "MAX_EXAMPLES",
    "STEP",
    "TimedPattern",
    "timed_examples",
    "timing_problems",
]

INPUT_LENGTH = 250_000  # the longest text a tool accepts
STEP = 4  # growth is measured from INPUT_LENGTH / STEP to INPUT_LENGTH
# A linear pattern's cost ratio stays within a few tens of percent from one length to the
# next (measured: at most 1.3 on the shipped catalogue, 2.0 with a noisy reference); a
# quadratic one grows by STEP (4), and most reach CPU_LIMIT first.
GROWTH_LIMIT = 2.5
# Below this many reference passes a pattern is cheap at that length, whatever its growth.
FLOOR = 50.0
# CPU seconds one pattern may spend on one input, all its runs together (a shipped
# pattern needs at most 0.2 s a run); past it the kernel's timer stops the run.
CPU_LIMIT = 5.0
# Examples a pattern is timed on, besides the runs of one character: each one gives two
# 250,000-character inputs, and a rule with 38 examples took a minute of CPU. The first few
# distinct ones (must_match first) hold the pattern's own words, which is what they add.
MAX_EXAMPLES = 4
# Without a CPU timer only the wall clock is left: generous, so load cannot trip it.
# With one, the wall clock only guards against a child that stopped answering.
_WALL_LIMIT = 3600.0 if hasattr(signal, "setitimer") else 300.0

# The child builds its inputs itself so only small messages cross the pipe. It
# answers each job with one line: "ok", or a message saying why the pattern fails.
CHILD_PROGRAM = _CHILD = r"""
import json, re, sys, time
N, STEP = int(sys.argv[1]), int(sys.argv[2])
GROWTH, FLOOR, CPU_LIMIT = float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
import signal

class OutOfTime(Exception):
    pass

# ITIMER_PROF counts this process's CPU time: the kernel signals when the budget is spent.
CAN_LIMIT = hasattr(signal, "setitimer")
if CAN_LIMIT:
    def _stop(signum, frame):
        raise OutOfTime
    signal.signal(signal.SIGPROF, _stop)

def limit_cpu(seconds):
    # SIGPROF once this process has spent ``seconds`` more CPU time (0: no limit).
    if CAN_LIMIT:
        signal.setitimer(signal.ITIMER_PROF, seconds)

def char_runs(n):
    return [("a", "a" * n), ("space", " " * n), ("a space", "a " * (n // 2)), ("\u00e4", "\u00e4" * n),
            ("1", "1" * n), (".", "." * n), ("newline", "\n" * n), ("aA-_", "aA-_" * (n // 4)),
            ("ab. ", "ab. " * (n // 4)), ("\u201e", "\u201e" * n), ("W\u00f6rt\u00e9r", "W\u00f6rt\u00e9r " * (n // 7))]

# The runs of one character are the same for every pattern: built once per child and length.
RUNS = {}

def inputs(examples, n):
    if n not in RUNS:
        RUNS[n] = char_runs(n)
    base = list(RUNS[n])
    for example in examples:
        unit = example + " "
        base.append((repr(example), (unit * (n // len(unit) + 1))[:n]))
        squeezed = "".join(example.split()) or example
        base.append((repr(squeezed), (squeezed * (n // len(squeezed) + 1))[:n]))
    return base

REFERENCE = re.compile("\x00")  # one literal: a linear pass over the whole input

def cpu(regex, text, runs, passes=1):
    # Fastest of ``runs``, each ``passes`` passes: the minimum is what the code costs, not
    # what interrupted it.
    best = None
    for _ in range(runs):
        start = time.thread_time()
        for _ in range(passes):
            for _ in regex.finditer(text):
                pass
        spent = (time.thread_time() - start) / passes
        best = spent if best is None else min(best, spent)
    return best

# A reference pass takes a few microseconds on the shorter input, where one busy moment
# is a large share: each reference run is many passes, timed together.
REFERENCE_PASSES = 16

def cost(regex, text, runs=1):
    # The pattern's CPU time over the text, in linear reference passes over the same text.
    return cpu(regex, text, runs) / max(cpu(REFERENCE, text, 5, REFERENCE_PASSES), 1e-9)

def verdict(pattern, examples):
    regex = re.compile(pattern)
    shorter = N // STEP
    for kind, (name, text) in enumerate(inputs(examples, N)):
        limit_cpu(CPU_LIMIT)
        try:
            after = cost(regex, text)
            if after <= FLOOR:
                continue  # cheap at the longest input: its growth cannot hurt
            # Costly: does the cost keep pace with the input, or outgrow it?
            short = inputs(examples, shorter)[kind][1]
            before = cost(regex, short)
            # A suspect counts only when two more measurements, the fastest of three runs
            # each, find the same: a busy spell rarely lands twice where a quadratic pattern
            # grows every time.
            for _ in range(2):
                if after <= GROWTH * before:
                    break
                before, after = cost(regex, short, 3), cost(regex, text, 3)
            if after > GROWTH * before:
                return (f"pattern's cost grows faster than its input: on {name} repeated, "
                        f"{before:,.0f} linear passes at {shorter:,} characters, "
                        f"{after:,.0f} at {N:,}; it backtracks catastrophically")
        except OutOfTime:
            return (f"pattern used more than {CPU_LIMIT:g} s of CPU time on {name} repeated to "
                    f"{N:,} characters; it backtracks catastrophically")
        finally:
            limit_cpu(0)
    return "ok"

for line in sys.stdin:
    job = json.loads(line)
    print(json.dumps(verdict(job["pattern"], job["examples"])), flush=True)
"""


def timed_examples(examples: Sequence[str]) -> tuple[str, ...]:
    """The examples a pattern is timed on: the first ``MAX_EXAMPLES`` distinct ones, in the order given."""
    return tuple(dict.fromkeys(examples))[:MAX_EXAMPLES]


@dataclass(frozen=True)
class TimedPattern:
    index: int
    pattern: str
    examples: tuple[str, ...]


def timing_problems(
    patterns: Sequence[TimedPattern], length: int = INPUT_LENGTH, cpu_limit: float = CPU_LIMIT
) -> dict[int, str]:
    """Map the index of every pattern whose cost grows faster than its input to a message.

    The patterns are shared out over one child process per core (at most four);
    each child times its share against its own reference passes. ``length`` and
    ``cpu_limit`` are for tests, which keep slow patterns short.
    """
    shares = max(1, min(4, os.cpu_count() or 1, len(patterns)))
    problems: dict[int, str] = {}
    with ThreadPoolExecutor(max_workers=shares) as pool:
        for found in pool.map(
            lambda share: _run_share(list(patterns[share::shares]), length, cpu_limit), range(shares)
        ):
            problems.update(found)
    return problems


def _run_share(pending: list[TimedPattern], length: int, cpu_limit: float) -> dict[int, str]:
    problems: dict[int, str] = {}
    while pending:
        done = _run_child(pending, length, cpu_limit, problems)
        pending = pending[done:]
    return problems


def _run_child(patterns: Sequence[TimedPattern], length: int, cpu_limit: float, problems: dict[int, str]) -> int:
    """Judge patterns until the child dies or hangs; return how many were settled."""
    arguments = (length, STEP, GROWTH_LIMIT, FLOOR, cpu_limit)
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, *map(str, arguments)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    lines: queue.Queue[str | None] = queue.Queue()
    assert child.stdout is not None and child.stdin is not None

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.put(line)
        lines.put(None)  # the child ended

    threading.Thread(target=read, daemon=True).start()
    settled = 0
    try:
        for job in patterns:
            message = {"pattern": job.pattern, "examples": list(job.examples)}
            child.stdin.write(json.dumps(message) + "\n")
            child.stdin.flush()
            try:
                line = lines.get(timeout=_WALL_LIMIT)
            except queue.Empty:
                line = None
            if line is None:  # killed by the kernel's hard CPU limit, or hung where there is none
                problems[job.index] = (
                    f"pattern did not finish on an adversarial input of up to {length:,} characters; "
                    "it backtracks catastrophically"
                )
                return settled + 1
            verdict = json.loads(line)
            if verdict != "ok":
                problems[job.index] = verdict
            settled += 1
        return settled
    finally:
        child.kill()
        child.wait()
