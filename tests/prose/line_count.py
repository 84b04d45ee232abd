"""Work counted in lines of a module run, whatever the machine's speed (no wall time)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType, ModuleType
from typing import Any


@contextmanager
def lines_run(module: ModuleType) -> Iterator[list[int]]:
    """``[n]``: the lines of ``module``'s source run inside the block (functions it calls elsewhere not counted)."""
    count = [0]
    filename = module.__file__

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            count[0] += 1
        return local

    def outer(frame: FrameType, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename == filename else None

    previous = sys.gettrace()
    sys.settrace(outer)
    try:
        yield count
    finally:
        sys.settrace(previous)
