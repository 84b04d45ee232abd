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
from ._scan import FileScan, ScanOptions, scan_text_as

# FileScan, ScanOptions and scan_text_as: how the language server scans an open document as `scan` would.
__all__ = ["FileScan", "ScanOptions", "detect_language", "main", "scan_text_as"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    return run(argv, sys.stdin, sys.stdout, sys.stderr)
