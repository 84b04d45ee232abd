"""The ``writing-rules`` command line: scan files, list rules, print prompts and tools, apply edits.

```
writing-rules scan docs/ --format sarif --output writing.sarif
```

The command line reads files; the runtime tools it calls never do. The names
here load on first use (PEP 562), so that the console script (``_console``)
sets up its process before the commands load.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["console_main", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    from ._commands import run

    return run(argv, sys.stdin, sys.stdout, sys.stderr)


def console_main() -> int:
    """Run the command line as a process of its own (the ``writing-rules`` script, ``python -m writing_rules``).

    ``main`` with the process tuned to end: see ``_console``. A host that calls the command line
    inside its own process uses ``main``.
    """
    from ._console import main as run_process

    return run_process()
