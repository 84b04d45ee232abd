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

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    from ._commands import run

    return run(argv, sys.stdin, sys.stdout, sys.stderr)
