"""The one timing rule every benchmark script uses."""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["best", "best_interleaved"]


def best(function: Callable[[], object], repeat: int = 7, clock: Callable[[], float] = time.perf_counter) -> float:
    """Fastest of ``repeat`` runs, in seconds (the run least disturbed by the machine).

    ``clock=time.process_time`` counts this process's CPU time only: for work that runs
    in-process, it keeps a busy machine's other processes out of the figure.
    """
    times = []
    for _ in range(repeat):
        start = clock()
        function()
        times.append(clock() - start)
    return min(times)


def best_interleaved(
    functions: dict[str, Callable[[], object]], rounds: int = 9, clock: Callable[[], float] = time.perf_counter
) -> dict[str, float]:
    """Fastest run of each function, in seconds, running each once per round in turn.

    A ratio of two figures is only as good as the conditions both were timed in:
    timed one after the other, a busy spell (another process, the CPU's clock)
    lands on one of them. Taking turns puts each round's conditions on all.
    """
    fastest = dict.fromkeys(functions, float("inf"))
    for _ in range(rounds):
        for name, function in functions.items():
            start = clock()
            function()
            fastest[name] = min(fastest[name], clock() - start)
    return fastest
