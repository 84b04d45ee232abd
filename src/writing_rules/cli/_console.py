"""The ``writing-rules`` console script: the command line as a process of its own.

A process that ends when its command does need not tidy its memory as it goes,
nor at the end, and on a one-page scan both are a large part of the time:

- Python's cycle collector runs every 700 new objects. Loading the commands, the
  rule data and the prose reader and scanning one page create enough for about
  40 collections (5 ms, a tenth of the scan's own time), and the package's values
  hold no reference cycles for them to free. A short command raises the
  threshold a hundredfold, so the collector still runs on a long scan of many
  files, rarely.
- At exit Python collects everything once more before it frees it: 12 ms after
  a one-page scan. ``gc.freeze()`` puts the objects out of that pass's reach; the
  process's memory goes back to the system as it ends. Nothing waits for that
  pass: the commands close what they open (files in ``with`` blocks, the process
  pool) before they return.

The language server and the MCP server run for hours: they keep Python's defaults.
The library's ``writing_rules.cli.main`` changes nothing of this (tests and
hosts call it in their own processes).
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys

__all__ = ["main"]

_SERVERS = ("lsp", "serve-mcp")  # long-running commands
_THRESHOLD_FACTOR = 100
_BROKEN_PIPE = 141  # 128 + SIGPIPE


def main() -> int:
    """Run ``writing-rules`` with ``sys.argv[1:]``; returns the exit status for ``sys.exit``."""
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    short = command not in _SERVERS
    if short:
        first, *older = gc.get_threshold()
        gc.set_threshold(first * _THRESHOLD_FACTOR, *older)
    from . import main as run_command  # loads the commands (after the collector is set)

    try:
        status = run_command()
        if short:  # the servers own their streams (the language server closes its own at exit)
            sys.stdout.flush()  # here, not at exit, where a closed pipe is an "Exception ignored"
    except BrokenPipeError:
        # Whoever read standard output stopped (`writing-rules scan . | head`): end as a Unix
        # filter does, with no traceback, and with the status of a process SIGPIPE ended, as a
        # shell's pipefail sees it. Nothing more reaches the closed pipe at exit.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return _BROKEN_PIPE
    if short:
        gc.freeze()
    return status
