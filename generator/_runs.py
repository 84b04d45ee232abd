"""Runs of consecutive numbers, which two of the generator's compact forms write as ranges."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["consecutive_runs"]


def consecutive_runs(values: Sequence[int]) -> list[tuple[int, int]]:
    """``(first, last)`` of each run of consecutive numbers in ``values``, in order.

    ``[0, 3, 4, 5, 9]`` gives ``[(0, 0), (3, 5), (9, 9)]``.
    """
    runs: list[tuple[int, int]] = []
    for value in values:
        if runs and value == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], value)
        else:
            runs.append((value, value))
    return runs
