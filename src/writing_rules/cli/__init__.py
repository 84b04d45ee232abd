"""The ``writing-rules`` command line: scan files, list rules, print prompts and tools, apply edits.

```
writing-rules scan docs/ --format sarif --output writing.sarif
```

The command line reads files; the runtime tools it calls never do.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ._commands import run
from ._language import detect_language

__all__ = ["detect_language", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    return run(argv, sys.stdin, sys.stdout, sys.stderr)
