"""The one timing rule every benchmark script uses."""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["best"]


def best(function: Callable[[], object], repeat: int = 7) -> float:
    """Fastest of ``repeat`` runs, in seconds (the run least disturbed by the machine)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)
