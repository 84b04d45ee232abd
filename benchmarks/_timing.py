"""The one timing rule every benchmark script uses."""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["best"]


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
